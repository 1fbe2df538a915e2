// The schemes' three ways of numbering a card, and how a person writes one.
//
// A card is seen as (rank, suit): rank 2 … 14 as poker counts it (ace 14),
// suit 0 … 3 in the order ♣ ♦ ♥ ♠. Each numbering maps its own card value
// to that pair and back, so the page can show, read and convert any of them
// with one set of tables, and poker.mjs ranks cursor cards with the same map.

export const SUIT_SYMBOLS = ['♣', '♦', '♥', '♠'];
export const SUIT_LETTERS = ['C', 'D', 'H', 'S'];
/** The shoe's rank letters in its own order, ace first (seed 000): index 0 = ace, 9 = ten. */
export const SHOE_RANK_LETTERS = 'A23456789TJQK';

/** Poker rank (2 … 14) as written on a card. */
export function rankText(rank) {
  return rank === 14 ? 'A' : rank === 13 ? 'K' : rank === 12 ? 'Q' : rank === 11 ? 'J' : String(rank);
}

const aceFirst = (i) => (i === 0 ? 14 : i + 1); // 0 = ace, 1 = two … 12 = king
const aceFirstIndex = (rank) => (rank === 14 ? 0 : rank - 1);

/** `cursor` and poker (seed 003): card c, rank c % 13 (0 = ace … 12 = king), suit c // 13. */
export const CURSOR = Object.freeze({
  rank: (c) => aceFirst(c % 13),
  suit: (c) => Math.floor(c / 13),
  card: (rank, suit) => suit * 13 + aceFirstIndex(rank),
});

/** `selfpoker` (seed 002): card c, value c // 4 (0 = two … 12 = ace), suit c % 4. */
export const NUMPY = Object.freeze({
  rank: (c) => Math.floor(c / 4) + 2,
  suit: (c) => c % 4,
  card: (rank, suit) => (rank - 2) * 4 + suit,
});

/** `shoe` (seed 000): a label such as "TD", rank letter then suit letter. */
export const SHOE = Object.freeze({
  rank: (label) => aceFirst(SHOE_RANK_LETTERS.indexOf(label[0])),
  suit: (label) => SUIT_LETTERS.indexOf(label[1]),
  card: (rank, suit) => SHOE_RANK_LETTERS[aceFirstIndex(rank)] + SUIT_LETTERS[suit],
});

/**
 * `stake` (Stake's CARDS index, https://stake.us/provably-fair/game-events):
 * card c is ♦2, ♥2, ♠2, ♣2, ♦3, … ♣A, so value c // 4 (0 = two … 12 = ace)
 * and suit c % 4 in the order ♦ ♥ ♠ ♣.
 */
const STAKE_SUITS = [1, 2, 3, 0]; // ♦ ♥ ♠ ♣ as SUIT_SYMBOLS indices
export const STAKE = Object.freeze({
  rank: (c) => Math.floor(c / 4) + 2,
  suit: (c) => STAKE_SUITS[c % 4],
  card: (rank, suit) => (rank - 2) * 4 + STAKE_SUITS.indexOf(suit),
});

/** A card of `numbering` for display: { text: "10♦", red: true }. */
export function cardFace(numbering, card) {
  const suit = numbering.suit(card);
  return { text: rankText(numbering.rank(card)) + SUIT_SYMBOLS[suit], red: suit === 1 || suit === 2 };
}

/** A typed card like "A♠", "AS", "10h" or "td" in `numbering`, or null. */
export function parseCard(numbering, token) {
  const m = /^(10|[2-9tjqka])([♣♦♥♠cdhs])$/iu.exec(token);
  if (!m) return null;
  const r = m[1].toUpperCase();
  const rank = r === 'A' ? 14 : r === 'K' ? 13 : r === 'Q' ? 12 : r === 'J' ? 11 : r === 'T' ? 10 : Number(r);
  const s = m[2].toUpperCase();
  const suit = SUIT_SYMBOLS.includes(s) ? SUIT_SYMBOLS.indexOf(s) : SUIT_LETTERS.indexOf(s);
  return numbering.card(rank, suit);
}

/** A card from one numbering in another (e.g. a selfpoker card for poker.evaluate). */
export function convertCard(from, to, card) {
  return to.card(from.rank(card), from.suit(card));
}
