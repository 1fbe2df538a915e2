// `selfpoker` scheme (seed 002): a 63-bit seed, commit = SHA-256 of
// "selfpoker:<seed>", deck = numpy.random.default_rng(seed).permutation(52).
// Cards are numbered as cards.mjs's NUMPY: value c // 4 (0 = 2 … 12 = ace),
// suit c % 4 (♣ ♦ ♥ ♠).

import { permutation } from './numpy.mjs';
import { cardTests, none, num, tables } from './stats/laws.mjs';
import { decimalSeed } from './validate.mjs';

/** seed is the canonical decimal string, exactly as Python's f"{seed}" prints it. */
export function commit(p, seed) {
  return p.sha256Hex(`selfpoker:${seed}`);
}

/** The 52-card deck. seed is a decimal string or a BigInt, never a Number. */
export function deck(seed) {
  return permutation(BigInt(seed), 52);
}

/** n players: player i holds deck[2i], deck[2i+1]; the board is deck[2n … 2n+4]; no burns. */
export function deal(deckCards, players) {
  return {
    hole: Array.from({ length: players }, (_, i) => [deckCards[2 * i], deckCards[2 * i + 1]]),
    board: deckCards.slice(2 * players, 2 * players + 5),
  };
}

// Statistics (src/schemes/selfpoker/stats.rs): numpy's permutation masks and
// rejects, so given uniform PCG64 output every card is at every position with
// probability 1/52 (value c div 4, suit c mod 4).

const DECK = tables({
  family: () => ({ a: 0 }),
  shape: () => [104, 13],
  layout: () => ({ params: '', tests: cardTests(Array.from({ length: 52 }, (_, p) => `at position ${p}`), 'value', 'suit'), serial: null }),
  sample: (_, req, ok, cells) => {
    ok.deck.map(num).forEach((c, p) => cells.push(p, Math.floor(c / 4), 52 + p, c % 4));
    return undefined;
  },
});

export const SCHEME = {
  id: 'selfpoker',
  // Committed by its own seed, not a server seed: one commitment per hand.
  commitment: { op: 'selfpoker.commit', field: 'seed', result: 'commit' },
  ops: {
    'selfpoker.commit': {
      fields: { seed: decimalSeed() },
      run: async (p, f) => ({ commit: await commit(p, f.seed) }),
      stats: none('a commitment: the SHA-256 of the seed, no outcome'),
    },
    'selfpoker.deck': {
      fields: { seed: decimalSeed() },
      run: async (_, f) => ({ deck: deck(f.seed) }),
      stats: DECK,
      page: {
        name: 'Pokerni-Hand',
        view: 'pokerni',
        tests: [
          [/^value at position (\d+)$/, (m, w) => `Kartenwert der ${w.nth(Number(m[1]))} Karte im Deck`],
          [/^suit at position (\d+)$/, (m, w) => `Farbe der ${w.nth(Number(m[1]))} Karte im Deck`],
        ],
      },
    },
  },
};
