// `shoe` scheme (seed 000, "Rechne uns nach"): a blackjack shoe shuffled
// from one byte stream, block b = HMAC(serverSeed, "clientSeed:nonce:b"),
// with the cut card drawn from the same stream right after the shuffle.

import { SHOE_RANK_LETTERS } from './cards.mjs';
import { toHex } from './crypto.mjs';
import { SERVER_SEED_COMMITMENT, SEEDED } from './cursor.mjs';
import { cardTests, intField, none, num, rustFloat, step, tables, uniform } from './stats/laws.mjs';
import { MAX_INT, int, number, text } from './validate.mjs';

/** The unshuffled shoe: deck after deck, suits S H D C, ranks A … K. */
export function orderedShoe(decks) {
  const cards = [];
  for (let d = 0; d < decks; d++) {
    for (const s of 'SHDC') for (const r of SHOE_RANK_LETTERS) cards.push(r + s);
  }
  return cards;
}

/**
 * Bytes in order across HMAC block boundaries. Unlike `cursor`, a draw that
 * straddles two blocks takes the tail of one and the head of the next.
 */
export class ByteStream {
  constructor(p, serverSeed, clientSeed, nonce, expectedBytes = 32) {
    this.macs = p.macs(serverSeed, `${clientSeed}:${nonce}:`, 0, Math.ceil(expectedBytes / 32));
    this.block = new Uint8Array(0);
    this.pos = 0;
  }

  async byte() {
    if (this.pos === this.block.length) {
      this.block = await this.macs.next();
      this.pos = 0;
    }
    return this.block[this.pos++];
  }

  /**
   * A uniform index in [0, m): k = smallest with 256^k ≥ m, k bytes
   * big-endian, reject v ≥ 256^k − (256^k mod m) and read k fresh bytes.
   * m is at most 8 × 52, so Numbers are exact.
   */
  async index(m) {
    let k = 0;
    let pot = 1;
    while (pot < m) {
      pot *= 256;
      k++;
    }
    const limit = pot - (pot % m);
    for (;;) {
      let v = 0;
      for (let i = 0; i < k; i++) v = v * 256 + (await this.byte());
      if (v < limit) return v % m;
    }
  }
}

/**
 * The cut card's rule for a shoe of `total` cards: base position, spread,
 * and the bounds it is clamped to. `Math.round` on purpose: the published
 * server is TypeScript, so halves round up (towards +∞), not to even.
 */
export function cutRule(total, penetration) {
  return {
    base: Math.round(total * penetration),
    spread: Math.max(1, Math.round(total * 0.02)),
    low: Math.max(20, Math.round(total * 0.5)),
    high: total - 15,
  };
}

const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);

/** The cut position: base + index(2·spread + 1) − spread, clamped. */
async function cutCard(stream, total, penetration) {
  const { base, spread, low, high } = cutRule(total, penetration);
  return clamp(base + (await stream.index(2 * spread + 1)) - spread, low, high);
}

/** { cards, cut } of a free round. */
export async function deal(p, serverSeed, clientSeed, nonce, decks, penetration) {
  const cards = orderedShoe(decks);
  const total = cards.length;
  // Two bytes per draw once the shoe passes 256 cards, one below.
  const stream = new ByteStream(p, serverSeed, clientSeed, nonce, total > 256 ? 2 * total : total);
  for (let i = total - 1; i >= 1; i--) {
    const j = await stream.index(i + 1);
    const t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
  const cut = await cutCard(stream, total, penetration);
  return { cards, cut };
}

/** Hand k of tournament T: client seed "T:k", nonce k, otherwise a free round. */
export function tournament(p, serverSeed, tournamentId, hand, decks, penetration) {
  return deal(p, serverSeed, `${tournamentId}:${hand}`, hand, decks, penetration);
}

/** The first `count` bytes of the stream, as hex: what a byte generator alone answers. */
export async function stream(p, serverSeed, clientSeed, nonce, count) {
  const s = new ByteStream(p, serverSeed, clientSeed, nonce, count);
  const bytes = new Uint8Array(count);
  for (let i = 0; i < count; i++) bytes[i] = await s.byte();
  return { bytes: toHex(bytes) };
}

const SHOE_SIZE = { decks: int(1, 8), penetration: number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }) };

// ---------------------------------------------------------------------------
// Statistics (src/schemes/shoe/stats.rs): Fisher–Yates with exactly uniform
// draws puts every card at every position with probability 1/n; the cut
// card's offset is uniform, then clamped (its mass beyond a bound lands on it).

/** The smallest and largest cut position. */
function cutSupport(decks, penetration) {
  const { base, spread, low, high } = cutRule(52 * decks, penetration);
  return [clamp(base - spread, low, high), clamp(base + spread, low, high)];
}

/** The cut card's exact distribution from its smallest position on. */
export function cutProbabilities(decks, penetration) {
  const { base, spread, low, high } = cutRule(52 * decks, penetration);
  const [lo, hi] = cutSupport(decks, penetration);
  const weights = new Array(hi - lo + 1).fill(0);
  for (let o = -spread; o <= spread; o++) weights[clamp(base + o, low, high) - lo]++;
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
const cardLabel = (c) => (typeof c === 'string' ? [RANKS.indexOf(c[0]), SUITS.indexOf(c[1])] : [-1, -1]);

/**
 * A shoe's family is its decks and penetration: rank and suit at every
 * position, the cut card; serial on the first card's rank along the shoes
 * of one sequence (`along(req)`: [its name, its place]).
 */
const SHOE_STATS = (along) => tables({
  family: (req) => {
    const p = num(req.penetration);
    return typeof p === 'number' ? { a: intField(req, 'decks'), b: p } : null;
  },
  shape: ({ a, b }) => {
    const [lo, hi] = cutSupport(a, b);
    return [2 * 52 * a + 1, Math.max(13, hi - lo + 1)];
  },
  layout: ({ a, b }) => {
    const names = Array.from({ length: 52 * a }, (_, p) => `at position ${p}`);
    const tests = [...cardTests(names, 'rank', 'suit'), ['cut card position', cutProbabilities(a, b)]];
    return { params: `decks=${a} penetration=${rustFloat(b)}`, tests, serial: uniform(13) };
  },
  sample: ({ a, b }, req, ok, cells) => {
    const cards = ok.cards;
    const n = cards.length;
    for (let p = 0; p < n; p++) {
      const [rank, suit] = cardLabel(cards[p]);
      if (rank < 0 || suit < 0) return null;
      cells.push(p, rank, n + p, suit);
    }
    const offset = num(ok.cut) - cutSupport(a, b)[0];
    if (!(offset >= 0)) return null;
    cells.push(2 * n, offset);
    return step(...along(req), cells[1]);
  },
});

/** What the statistics call a shoe's cut card, and what a sequence of shoes is made of. */
const SHOE_PAGE = { steps: 'Hände', tests: [[/^cut card position$/, () => 'Lage der Cut-Card']] };

export const SCHEME = {
  id: 'shoe',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'shoe.deal': {
      fields: { ...SEEDED, ...SHOE_SIZE },
      run: (p, f) => deal(p, f.serverSeed, f.clientSeed, f.nonce, f.decks, f.penetration),
      stats: SHOE_STATS((req) => [req.clientSeed, intField(req, 'nonce')]),
      page: { ...SHOE_PAGE, name: 'Blackjack, freie Runde', view: 'blackjack' },
    },
    'shoe.tournament': {
      fields: { serverSeed: text(), tournamentId: text(), hand: int(0, MAX_INT), ...SHOE_SIZE },
      run: (p, f) => tournament(p, f.serverSeed, f.tournamentId, f.hand, f.decks, f.penetration),
      stats: SHOE_STATS((req) => [req.tournamentId, intField(req, 'hand')]),
      page: { ...SHOE_PAGE, name: 'Turnierhand', view: 'tournament' },
    },
    'shoe.stream': {
      fields: { ...SEEDED, count: int(0, 100000) },
      run: (p, f) => stream(p, f.serverSeed, f.clientSeed, f.nonce, f.count),
      stats: none('bytes of the stream, not the outcome of a game'),
    },
  },
};
