/**
 * Stand-in for the unpublished './blackjack.ts' that the published
 * reference/published/basisstrategie.ts imports (seed 003).
 *
 * Written from the rules the page states, not from the casino's code, which
 * is not published. Every assumption is listed in docs/schemes.md
 * ("blackjack.strategy: the stand-in for ./blackjack.ts"):
 *
 * - A card is a number 0..51 as in poker_referenz.py: rank = card % 13,
 *   0 = ace, 1..8 = two..nine, 9..12 = ten, jack, queen, king.
 * - kartenwert: ace 11, two..nine their pips, ten and faces 10. Ace = 11
 *   because the published code compares it with the dealer's count value
 *   2..11 and keys SPLIT_GEGEN[11] "Asse immer".
 * - handWert: the sum with every ace 11, then aces counted 1 one at a time
 *   while the sum passes 21; soft = an ace still counts 11. A bust hand
 *   comes back with summe > 21 and soft false (the adapter never asks).
 * - BLACKJACK_RULES: the table of §6 as the published comment states it;
 *   basisstrategie reads only doubleNachSplit.
 */

export type Aktion = 'teilen' | 'verdoppeln' | 'stehen' | 'ziehen'

export interface BlackjackRules {
  readonly decks: number
  readonly dealerZiehtSoft17: boolean
  readonly doubleNachSplit: boolean
  readonly surrender: boolean
  /** Blackjack-Gewinn je Einsatz: 6:5. */
  readonly blackjackZahlt: number
}

export const BLACKJACK_RULES: BlackjackRules = {
  decks: 6,
  dealerZiehtSoft17: true,
  doubleNachSplit: true,
  surrender: false,
  blackjackZahlt: 6 / 5,
}

export interface HandWert {
  readonly summe: number
  readonly soft: boolean
}

export function kartenwert(karte: number): number {
  const rang = karte % 13
  if (rang === 0) return 11
  if (rang >= 9) return 10
  return rang + 1
}

export function handWert(karten: readonly number[]): HandWert {
  let summe = 0
  let asseAlsElf = 0
  for (const karte of karten) {
    const wert = kartenwert(karte)
    summe += wert
    if (wert === 11) asseAlsElf++
  }
  while (summe > 21 && asseAlsElf > 0) {
    summe -= 10
    asseAlsElf--
  }
  return { summe, soft: asseAlsElf > 0 }
}
