// Blackjack (seed 003): the published basic strategy `basisstrategie` as
// the op blackjack.strategy, written from the rules as three charts.
//
// Cards are numbered as in poker_referenz.py: rank c % 13, 0 = ace,
// 1 … 8 = two … nine, 9 … 12 = ten, jack, queen, king. A hand's value uses
// pips (ace 1, tens and faces 10): soft when it holds an ace and pips + 10
// do not pass 21. The up-card is its count value 2 … 11 (ace 11).
//
// The charts are read in the order the published comment insists on: the
// pair chart (only when splitting is allowed), then soft, then hard. They
// are written here from the published lists (SPLIT_GEGEN, SOFT_DOUBLE_GEGEN,
// HART_DOUBLE_GEGEN and the stand/hit lines) as strings, one letter per
// up-card, and share no code with the Rust charts or with the stand-in the
// published TypeScript runs with. Two things the published function does,
// and so does this:
//   * soft 12 (A,A that may not be split) is not in the soft branch, which
//     starts at 13: it is played by the hard 12 row (stands against 4 … 6);
//   * doubleAfterSplit changes no answer: the one line that reads it comes
//     after the split test, where an unsplit 4,4 is a hard 8 that hits anyway.

import { ProvablyError } from './errors.mjs';
import { none } from './stats/laws.mjs';
import { bool, describe, int } from './validate.mjs';

/** The most cards a hand holds without being bust (21 aces), and copies per card number in 6 decks. */
const MAX_CARDS = 21;
const COPIES = 6;

/**
 * minItems … maxItems cards 0 … 51 from a shoe, no card number more than
 * maxCopies times. The JSON Schema has no word for "each value at most n
 * times", so the limit is spelled out per card (contains + maxContains), as
 * the Rust side writes it.
 */
function shoeCards(minItems, maxItems, maxCopies) {
  const schema = Object.freeze({
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 51 },
    minItems,
    maxItems,
    allOf: Array.from({ length: 52 }, (_, c) => ({ contains: { const: c }, minContains: 0, maxContains: maxCopies })),
  });
  const invalid = (message) => new ProvablyError('invalid', message);
  const check = (name, v) => {
    if (!Array.isArray(v)) throw invalid(`${name}: must be an array, got ${describe(v)}`);
    if (v.length < minItems || v.length > maxItems) {
      throw invalid(`${name}: must hold ${minItems} to ${maxItems} cards, got ${v.length}`);
    }
    const copies = new Array(52).fill(0);
    return v.map((c, i) => {
      if (typeof c === 'bigint') throw invalid(`${name}[${i}]: ${c} is not a card (0 to 51)`);
      if (typeof c !== 'number' || !Number.isInteger(c)) {
        throw invalid(`${name}[${i}]: must be an integer, got ${describe(c)}`);
      }
      if (c < 0 || c > 51) throw invalid(`${name}[${i}]: ${describe(c)} is not a card (0 to 51)`);
      const card = c === 0 ? 0 : c; // -0 is 0
      copies[card] += 1;
      if (copies[card] > maxCopies) throw invalid(`${name}[${i}]: card ${card} appears more than ${maxCopies} times`);
      return card;
    });
  };
  return Object.freeze({ schema, check, required: true });
}

const pipOf = (card) => Math.min((card % 13) + 1, 10);
const countValue = (card) => (pipOf(card) === 1 ? 11 : pipOf(card));

/** { total, soft } with at most one ace counted 11; total > 21 is bust. */
export function handValue(cards) {
  const pips = cards.reduce((sum, c) => sum + pipOf(c), 0);
  const soft = cards.some((c) => pipOf(c) === 1) && pips + 10 <= 21;
  return { total: soft ? pips + 10 : pips, soft };
}

// One letter per up-card 2 3 4 5 6 7 8 9 10 A. P split, - do not split;
// H hit, S stand, D double (else hit), X double (else stand).
const PAIRS = {
  2: 'PPPPPP----',
  3: 'PPPPPP----',
  4: '---PP-----',
  5: '----------',
  6: 'PPPPP-----',
  7: 'PPPPPP----',
  8: 'PPPPPPPPPP',
  9: 'PPPPP-PP--',
  10: '----------',
  11: 'PPPPPPPPPP',
};
const SOFT = {
  13: 'HHHDDHHHHH',
  14: 'HHHDDHHHHH',
  15: 'HHDDDHHHHH',
  16: 'HHDDDHHHHH',
  17: 'HDDDDHHHHH',
  18: 'XXXXXSSHHH',
  19: 'SSSSXSSSSS',
  20: 'SSSSSSSSSS',
  21: 'SSSSSSSSSS',
};
const HARD = {
  9: 'HDDDDHHHHH',
  10: 'DDDDDDDDHH',
  11: 'DDDDDDDDDD',
  12: 'HHSSSHHHHH',
  13: 'SSSSSHHHHH',
  14: 'SSSSSHHHHH',
  15: 'SSSSSHHHHH',
  16: 'SSSSSHHHHH',
};

/** The hard row of a total: hit up to 8, stand from 17. */
function hardRow(total) {
  if (total <= 8) return 'HHHHHHHHHH';
  if (total >= 17) return 'SSSSSSSSSS';
  return HARD[total];
}

const invalid = (message) => new ProvablyError('invalid', message);

/**
 * The rules that tie the fields together (each field is within its limits
 * already); the messages are the Rust op's.
 */
function checkSituation(cards, canDouble, canSplit) {
  const n = cards.length;
  const hard = cards.reduce((sum, c) => sum + pipOf(c), 0);
  if (hard > 21) throw invalid(`cards: the hand is bust (hard total ${hard}); there is no decision to make`);
  if (canDouble && n !== 2) {
    throw invalid(`canDouble: true with ${n} cards; doubling is only allowed on the first two cards`);
  }
  if (canSplit) {
    if (n !== 2) throw invalid(`canSplit: true with ${n} cards; only a two-card pair can be split`);
    const [a, b] = cards.map(countValue);
    if (a !== b) throw invalid(`canSplit: true but the cards are not a pair (count values ${a} and ${b})`);
  }
}

/** The published table's action for a legal situation. */
export function strategy({ cards, dealer, canDouble, canSplit }) {
  checkSituation(cards, canDouble, canSplit);
  const col = dealer - 2;
  if (canSplit && PAIRS[countValue(cards[0])][col] === 'P') return 'teilen';
  const { total, soft } = handValue(cards);
  // The published soft branch starts at 13: soft 12 (A,A) is played as hard 12.
  const row = soft && total >= 13 ? SOFT[total] : hardRow(total);
  switch (row[col]) {
    case 'D':
      return canDouble ? 'verdoppeln' : 'ziehen';
    case 'X':
      return canDouble ? 'verdoppeln' : 'stehen';
    case 'S':
      return 'stehen';
    default:
      return 'ziehen';
  }
}

export const SCHEME = {
  id: 'blackjack',
  // No committed secret: the op is a pure function of its fields.
  commitment: undefined,
  ops: {
    'blackjack.strategy': {
      fields: {
        cards: shoeCards(2, MAX_CARDS, COPIES),
        dealer: int(2, 11),
        canDouble: bool(),
        canSplit: bool(),
        doubleAfterSplit: bool().optional(true),
      },
      run: async (_, f) => ({ action: strategy(f) }),
      stats: none('no randomness: the published strategy chart'),
      page: { name: 'Basisstrategie', view: 'strategy' },
    },
  },
};
