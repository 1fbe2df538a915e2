// A Stake round as Stake shows it, in words (no DOM: the worker and the node
// tests use it too): the dice number with two decimals, the limbo
// multiplier „×470,07“, the plinko bucket, the mines and keno fields, the
// roulette pocket with its colour, the wheel segment, the cards and gems.

import { STAKE, cardFace } from './js/cards.mjs';
import { baccaratTotal } from './js/stake.mjs';

/** Two decimals with the German decimal comma, as Stake prints them: 48.3 → „48,30“. */
export const twoDecimals = (x) => x.toFixed(2).replace('.', ',');
/** A multiplier as Stake prints it: „×470,07“. */
export const times = (x) => `×${twoDecimals(x)}`;

/** The red pockets of the single-zero wheel; 0 is green, the rest black. */
const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
export const pocketColour = (n) => (n === 0 ? 'grün' : RED.has(n) ? 'rot' : 'schwarz');
export const pocketText = (n) => `${n} ${{ grün: 'Grün', rot: 'Rot', schwarz: 'Schwarz' }[pocketColour(n)]}`;

/** Stake's gem names in German, with the colour a chip is drawn in. */
export const GEM_NAMES = Object.freeze({
  green: 'Grün', purple: 'Lila', yellow: 'Gelb', red: 'Rot', cyan: 'Türkis', orange: 'Orange', blue: 'Blau',
});

export const stakeCard = (c) => cardFace(STAKE, c);
export const cardsText = (cards) => cards.map((c) => stakeCard(c).text).join(' ');

/** Baccarat's total of a hand of CARDS cards: the game's rule (reference/js/stake.mjs). */
export { baccaratTotal };

export const WINNER_NAMES = Object.freeze({ player: 'Spieler gewinnt', banker: 'Bank gewinnt', tie: 'Unentschieden' });

/** Mines tile i (0 … 24, row-major) as a player names it: „Reihe 2, Feld 3“. */
export const tileName = (i) => `Reihe ${Math.floor(i / 5) + 1}, Feld ${(i % 5) + 1}`;

const direction = (d) => (d === 1 ? 'rechts' : 'links');

/** One line for a stake round, or null if the op is not a Stake game (or nothing was derived). */
export function stakeShown(op, d, request = {}) {
  if (!d || typeof d !== 'object') return null;
  switch (op) {
    case 'stake.dice':
      return typeof d.roll === 'number' ? `Würfelzahl: ${twoDecimals(d.roll)}` : null;
    case 'stake.limbo':
      return typeof d.multiplier === 'number' ? `Limbo: ${times(d.multiplier)}` : null;
    case 'stake.crash':
      return typeof d.crashPoint === 'number' ? `Crash bei ${times(d.crashPoint)}` : null;
    case 'stake.plinko':
      if (!Array.isArray(d.path)) return null;
      return `Plinko: ${d.path.map(direction).join(', ')} → Fach ${d.bucket + 1} von ${d.path.length + 1}, ${times(d.multiplier)}`;
    case 'stake.roulette':
      return typeof d.pocket === 'number' ? `Roulette: ${pocketText(d.pocket)}` : null;
    case 'stake.wheel':
      return typeof d.segment === 'number' ? `Glücksrad: Segment ${d.segment + 1} von ${request.segments ?? '?'}, ${times(d.multiplier)}` : null;
    case 'stake.keno':
      return Array.isArray(d.hits) ? `Keno-Treffer: ${d.hits.join(' ')}` : null;
    case 'stake.mines':
      return Array.isArray(d.mines) ? `Minen auf Feld ${d.mines.map((i) => i + 1).join(', ')}` : null;
    case 'stake.hilo':
      return Array.isArray(d.cards) ? `Startkarte ${cardsText(d.cards.slice(0, 1))}, dann ${cardsText(d.cards.slice(1, 6))} …` : null;
    case 'stake.blackjack': {
      if (!Array.isArray(d.cards) || d.cards.length < 4) return null;
      const h = blackjackDeal(d.cards);
      return `Erste Hand: Spieler ${cardsText(h.player)} · Dealer ${cardsText([h.up])}, verdeckt ${cardsText([h.hole])}`;
    }
    case 'stake.videopoker':
      return Array.isArray(d.cards) ? `Hand: ${cardsText(d.cards.slice(0, 5))} · Ersatzkarten: ${cardsText(d.cards.slice(5, 10))}` : null;
    case 'stake.baccarat':
      if (!Array.isArray(d.player) || !Array.isArray(d.banker)) return null;
      return `Spieler ${cardsText(d.player)} (${baccaratTotal(d.player)}) · Bank ${cardsText(d.banker)} (${baccaratTotal(d.banker)}) · ${WINNER_NAMES[d.winner] ?? d.winner}`;
    case 'stake.diamonds':
      return Array.isArray(d.gems) ? `Diamanten: ${d.gems.map((g) => GEM_NAMES[g] ?? g).join(' ')}` : null;
    case 'stake.floats':
      return Array.isArray(d.floats) ? `Kommazahlen: ${d.floats.slice(0, 4).map((x) => String(x).replace('.', ',')).join(' ')}${d.floats.length > 4 ? ' …' : ''}` : null;
    case 'stake.crash.chain':
      return typeof d.distance === 'number' ? `Kette: ${d.distance} Schritte bis zum letzten Hash` : null;
    default:
      return null;
  }
}

/**
 * Stake Blackjack's first deal. Stake's pages say only that each card is
 * CARDS[⌊float · 52⌋]; which of the first cards goes to whom they do not
 * say. The page deals them in the usual order, player, dealer, player,
 * dealer (the dealer's second card face down), the order the page's own
 * blackjack uses too (roundview.mjs); every later card is the next one
 * drawn: the player's hits, doubles and splits, then the dealer's.
 */
export function blackjackDeal(cards) {
  return { player: [cards[0], cards[2]], up: cards[1], hole: cards[3], playerAt: [0, 2], dealerAt: [1, 3], next: 4 };
}

/** A blackjack hand's total of CARDS cards: { total, soft } (an ace counts 11 while the hand stays at 21 or below). */
export function blackjackTotal(cards) {
  let total = 0;
  let aces = 0;
  for (const c of cards) {
    const rank = Math.floor(c / 4) + 2;
    if (rank === 14) aces++;
    total += rank === 14 ? 11 : Math.min(rank, 10);
  }
  while (total > 21 && aces) {
    total -= 10;
    aces--;
  }
  return { total, soft: aces > 0 };
}

/** A two-card blackjack hand as a player names it: „Blackjack“, „Soft 18“, „Hart 12“. */
export function blackjackWords(cards) {
  const { total, soft } = blackjackTotal(cards);
  if (cards.length === 2 && total === 21) return 'Blackjack';
  return `${soft ? 'Soft' : 'Hart'} ${total}`;
}

/**
 * One bet in a table of nonces: `text` as the player compares it with
 * Stake's bet list, `value` in the op's own terms (for a machine to read).
 */
export function stakeCells(op, d, request = {}) {
  switch (op) {
    case 'stake.dice': return { text: twoDecimals(d.roll), value: String(d.roll) };
    case 'stake.limbo': return { text: times(d.multiplier), value: String(d.multiplier) };
    case 'stake.plinko': return { text: `Fach ${d.bucket + 1} von ${d.path.length + 1} · ${times(d.multiplier)}`, value: String(d.bucket) };
    case 'stake.roulette': return { text: pocketText(d.pocket), value: String(d.pocket) };
    case 'stake.wheel': return { text: `Segment ${d.segment + 1} von ${request.segments} · ${times(d.multiplier)}`, value: String(d.segment) };
    case 'stake.keno': return { text: d.hits.join(' '), value: d.hits.join(' ') };
    case 'stake.mines': return { text: `Felder ${d.mines.map((i) => i + 1).join(', ')}`, value: d.mines.join(' ') };
    case 'stake.hilo': return { text: `Start ${cardsText(d.cards.slice(0, 1))}, dann ${cardsText(d.cards.slice(1, 6))} …`, value: d.cards.slice(0, 6).join(' ') };
    case 'stake.blackjack': {
      const h = blackjackDeal(d.cards);
      return { text: `Spieler ${cardsText(h.player)} (${blackjackWords(h.player)}) · Dealer ${cardsText([h.up])}`, value: d.cards.slice(0, 4).join(' ') };
    }
    case 'stake.videopoker': return { text: `${cardsText(d.cards.slice(0, 5))} · Ersatz ${cardsText(d.cards.slice(5, 10))}`, value: d.cards.slice(0, 10).join(' ') };
    case 'stake.baccarat': return { text: `${WINNER_NAMES[d.winner]} (Spieler ${baccaratTotal(d.player)}, Bank ${baccaratTotal(d.banker)})`, value: d.winner };
    case 'stake.diamonds': return { text: d.gems.map((g) => GEM_NAMES[g] ?? g).join(' '), value: d.gems.join(' ') };
    default: return { text: stakeShown(op, d, request) ?? '', value: '' };
  }
}
