/**
 * Basisstrategie fuer das Regelwerk aus §6: 6 Decks, Dealer zieht Soft 17,
 * Double nach Split erlaubt, kein Surrender.
 *
 * **Wozu das hier steht:** §6 sagt, der verbindliche Hausvorteil sei das
 * Ergebnis der Simulation aus §8. Eine Simulation braucht aber einen Spieler,
 * und wie gut der spielt, entscheidet die Zahl. Gemessen wird deshalb gegen
 * **optimales Spiel ohne Kartenzaehlen** – die Basisstrategie. Wer schlechter
 * spielt, zahlt mehr; besser geht bei einem Schuh, der vor jeder Runde neu
 * gemischt wird, nicht.
 *
 * Die Tabelle gehoert damit zur ausgewiesenen Zahl und steht auf der
 * Transparenzseite. Eine Prozentzahl ohne die Strategie, gegen die sie
 * gemessen wurde, ist keine nachpruefbare Angabe.
 *
 * Die 6:5-Auszahlung kommt in der Tabelle **nicht** vor, und das ist richtig
 * so: Sie aendert die Hoehe des Blackjack-Gewinns, nie die beste Entscheidung
 * an einer Hand. Sie schlaegt voll auf den Hausvorteil durch, ohne das Spiel
 * zu veraendern – deshalb ist sie die teuerste Regel des Tisches.
 */
import {
  handWert,
  kartenwert,
  type Aktion,
  type BlackjackRules,
  BLACKJACK_RULES,
} from './blackjack.ts'

export interface Lage {
  readonly karten: readonly number[]
  /** Zaehlwert der offenen Dealerkarte: 2 bis 11. */
  readonly dealer: number
  readonly darfVerdoppeln: boolean
  readonly darfTeilen: boolean
}

/** Dealerkarten, gegen die gesplittet wird – kompakt als Liste. */
const SPLIT_GEGEN: Record<number, readonly number[]> = {
  11: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], // Asse immer
  10: [], // Zehner nie
  9: [2, 3, 4, 5, 6, 8, 9], // nicht gegen 7, 10, Ass
  8: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], // Achter immer
  7: [2, 3, 4, 5, 6, 7],
  6: [2, 3, 4, 5, 6],
  5: [], // nie – 5,5 wird als harte 10 gespielt
  4: [5, 6], // nur mit Double nach Split sinnvoll
  3: [2, 3, 4, 5, 6, 7],
  2: [2, 3, 4, 5, 6, 7],
}

/** Weiche Haende: bis zu welcher Dealerkarte verdoppelt wird. */
const SOFT_DOUBLE_GEGEN: Record<number, readonly number[]> = {
  13: [5, 6],
  14: [5, 6],
  15: [4, 5, 6],
  16: [4, 5, 6],
  17: [3, 4, 5, 6],
  18: [2, 3, 4, 5, 6],
  19: [6], // nur weil der Dealer Soft 17 zieht
}

const HART_DOUBLE_GEGEN: Record<number, readonly number[]> = {
  9: [3, 4, 5, 6],
  10: [2, 3, 4, 5, 6, 7, 8, 9],
  11: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], // gegen alles, auch das Ass (Soft 17)
}

/**
 * Die Entscheidung.
 *
 * Reihenfolge wie am Tisch: erst Paare, dann weiche, dann harte Haende. Eine
 * andere Reihenfolge waere nicht bloss unuebersichtlich, sondern falsch –
 * A,A ist ein Paar **und** eine weiche Hand, und gespielt wird es als Paar.
 */
export function basisstrategie(
  lage: Lage,
  rules: BlackjackRules = BLACKJACK_RULES,
): Aktion {
  const { karten, dealer } = lage
  const wert = handWert(karten)

  // --- Paare ---------------------------------------------------------------
  if (lage.darfTeilen && karten.length === 2) {
    const a = kartenwert(karten[0]!)
    const b = kartenwert(karten[1]!)
    if (a === b) {
      const gegen = SPLIT_GEGEN[a]
      if (gegen !== undefined && gegen.includes(dealer)) return 'teilen'
      // 4,4 nur mit Double nach Split; ohne DAS wird gezogen.
      if (a === 4 && !rules.doubleNachSplit) return 'ziehen'
    }
  }

  // --- Weiche Haende -------------------------------------------------------
  if (wert.soft && wert.summe >= 13 && wert.summe <= 19) {
    const doppeln = SOFT_DOUBLE_GEGEN[wert.summe]
    if (lage.darfVerdoppeln && doppeln !== undefined && doppeln.includes(dealer)) {
      return 'verdoppeln'
    }
    // Ohne Double: Soft 18 steht gegen 2 bis 8, Soft 19 und 20 immer.
    if (wert.summe === 18) return dealer <= 8 ? 'stehen' : 'ziehen'
    if (wert.summe >= 19) return 'stehen'
    return 'ziehen'
  }
  if (wert.soft && wert.summe >= 20) return 'stehen'

  // --- Harte Haende --------------------------------------------------------
  if (lage.darfVerdoppeln) {
    const doppeln = HART_DOUBLE_GEGEN[wert.summe]
    if (doppeln !== undefined && doppeln.includes(dealer)) return 'verdoppeln'
  }

  if (wert.summe >= 17) return 'stehen'
  if (wert.summe >= 13) return dealer <= 6 ? 'stehen' : 'ziehen'
  if (wert.summe === 12) return dealer >= 4 && dealer <= 6 ? 'stehen' : 'ziehen'
  return 'ziehen'
}

/** Die Dealerkarte, gegen die entschieden wird – die **offene**. */
export function dealerZeigt(dealer: readonly number[]): number {
  const karte = dealer[0]
  if (karte === undefined) throw new Error('Der Dealer hat keine offene Karte.')
  return kartenwert(karte)
}

/** Ob eine Hand als Paar gilt – gleicher Zaehlwert, nicht gleicher Rang. */
export function istPaar(karten: readonly number[]): boolean {
  return karten.length === 2 && kartenwert(karten[0]!) === kartenwert(karten[1]!)
}
