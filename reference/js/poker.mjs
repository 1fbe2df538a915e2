// Poker on the `cursor` scheme (seed 003, poker_referenz.py): deal from a
// 52-card cursor shuffle, evaluate the best five of five to seven cards.
//
// Cards are numbered as cards.mjs's CURSOR: rank c % 13 (0 = ace, 9 = ten,
// 10–12 = J Q K), suit c // 13 (♣ ♦ ♥ ♠). The evaluator is written from the
// rules with rank bitmasks; it deliberately shares nothing with
// poker_referenz.py's try-all-combinations, so that the two can check each
// other.

import { CURSOR } from './cards.mjs';
import { SEEDED, SERVER_SEED_COMMITMENT, shuffle } from './cursor.mjs';
import { cardTests, intField, none, num, step, tables, uniform } from './stats/laws.mjs';
import { cards, int } from './validate.mjs';

export const CATEGORIES = [
  'high_card',
  'paar',
  'zwei_paare',
  'drilling',
  'strasse',
  'flush',
  'full_house',
  'vierling',
  'straight_flush',
];

/** Deck positions for n players: two rounds of hole cards, burns before flop, turn and river. */
export function positions(players) {
  const n = players;
  return {
    hole: Array.from({ length: n }, (_, i) => [i, n + i]),
    board: [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7],
  };
}

/** { hole, board } for a hand: deck = shuffle(52) at cursor 0. */
export async function deal(p, serverSeed, clientSeed, nonce, players) {
  const { order: deck } = await shuffle(p, serverSeed, clientSeed, nonce, 0, 52);
  const at = positions(players);
  return {
    hole: at.hole.map(([a, b]) => [deck[a], deck[b]]),
    board: at.board.map((x) => deck[x]),
  };
}

// Bit r of a rank mask stands for poker rank r (2 … 14); bit 1 mirrors the
// ace so that A-2-3-4-5 is found like any other run of five.
function withLowAce(mask) {
  return mask & (1 << 14) ? mask | 2 : mask;
}

/** High card of the best straight in a rank mask, or 0. */
function straightHigh(mask) {
  const m = withLowAce(mask);
  for (let high = 14; high >= 5; high--) {
    const run = 0b11111 << (high - 4);
    if ((m & run) === run) return high;
  }
  return 0;
}

/** The ranks of a mask, highest first, at most `limit` of them. */
function topRanks(mask, limit) {
  const out = [];
  for (let r = 14; r >= 2 && out.length < limit; r--) if (mask & (1 << r)) out.push(r);
  return out;
}

function pad5(ranks) {
  const out = ranks.slice(0, 5);
  while (out.length < 5) out.push(0);
  return out;
}

/**
 * Best hand of 5–7 distinct cards: { category, ranks } exactly as
 * poker_referenz.py prints it (ranks padded with 0 to five entries).
 */
export function evaluate(cards) {
  const count = new Array(15).fill(0);
  const suitMask = [0, 0, 0, 0];
  let all = 0;
  for (const c of cards) {
    const r = CURSOR.rank(c);
    count[r]++;
    suitMask[CURSOR.suit(c)] |= 1 << r;
    all |= 1 << r;
  }

  // With at most seven cards only one suit can hold five.
  const flushMask = suitMask.find((m) => popcount(m) >= 5) ?? 0;
  if (flushMask) {
    const high = straightHigh(flushMask);
    if (high) return hand('straight_flush', [high]);
  }

  let quads = 0;
  const trips = [];
  const pairs = [];
  for (let r = 14; r >= 2; r--) {
    if (count[r] === 4) quads = r;
    else if (count[r] === 3) trips.push(r);
    else if (count[r] === 2) pairs.push(r);
  }
  const without = (...ranks) => ranks.reduce((m, r) => m & ~(1 << r), all);

  if (quads) return hand('vierling', [quads, ...topRanks(without(quads), 1)]);
  if (trips.length > 0) {
    // A second set of trips serves as the pair of a full house.
    const pair = Math.max(trips[1] ?? 0, pairs[0] ?? 0);
    if (pair) return hand('full_house', [trips[0], pair]);
  }
  if (flushMask) return hand('flush', topRanks(flushMask, 5));
  const high = straightHigh(all);
  if (high) return hand('strasse', [high]);
  if (trips.length > 0) return hand('drilling', [trips[0], ...topRanks(without(trips[0]), 2)]);
  if (pairs.length >= 2) {
    // A third pair is no better than a kicker of the same rank.
    return hand('zwei_paare', [pairs[0], pairs[1], ...topRanks(without(pairs[0], pairs[1]), 1)]);
  }
  if (pairs.length === 1) return hand('paar', [pairs[0], ...topRanks(without(pairs[0]), 3)]);
  return hand('high_card', topRanks(all, 5));
}

function hand(category, ranks) {
  return { category, ranks: pad5(ranks) };
}

function popcount(m) {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

// Statistics (src/schemes/poker/stats.rs): the deal is cursor.shuffle's
// exactly uniform Fisher–Yates, so every dealt card has rank 1/13, suit 1/4.

const DEAL = tables({
  family: (req) => ({ a: intField(req, 'players') }),
  shape: ({ a }) => [2 * (2 * a + 5), 13],
  layout: ({ a }) => {
    const names = Array.from({ length: a }, (_, i) => [0, 1].map((c) => `of seat ${i} card ${c}`)).flat();
    for (let b = 0; b < 5; b++) names.push(`of board card ${b}`);
    return { params: `players=${a}`, tests: cardTests(names, 'rank', 'suit'), serial: uniform(13) };
  },
  sample: (_, req, ok, cells) => {
    const dealt = [...ok.hole.flat(), ...ok.board].map(num);
    dealt.forEach((c, s) => cells.push(s, c % 13, dealt.length + s, Math.floor(c / 13)));
    return step(req.clientSeed, intField(req, 'nonce'), dealt[0] % 13);
  },
});

const word = (m) => (m === 'rank' ? 'Kartenwert' : 'Farbe');

export const SCHEME = {
  id: 'poker',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'poker.deal': {
      fields: { ...SEEDED, players: int(2, 22) },
      run: (p, f) => deal(p, f.serverSeed, f.clientSeed, f.nonce, f.players),
      stats: DEAL,
      page: {
        name: 'Casino-Poker',
        view: 'poker',
        tests: [
          [/^(rank|suit) of seat (\d+) card (\d+)$/, (m, w) => `${word(m[1])} der ${w.nth(Number(m[3]))} Karte von Platz ${w.formatInt(Number(m[2]) + 1)}`],
          [/^(rank|suit) of board card (\d+)$/, (m, w) => `${word(m[1])} der ${w.nth(Number(m[2]))} Board-Karte`],
        ],
      },
    },
    'poker.evaluate': {
      fields: { cards: cards(5, 7) },
      run: async (_, f) => evaluate(f.cards),
      stats: none('no randomness: the value of a given hand'),
      page: { name: 'Handbewertung' },
    },
  },
};
