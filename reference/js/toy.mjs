// `toy` scheme: `toy.coin`, heads or tails, ⌊f·2⌋ of the first float of
// Stake's stream (stake.mjs floats) for a server seed, a client seed and a
// nonce; 0 is heads, 1 tails. No published game: the twin of
// src/schemes/toy/, which exists behind the cargo feature `toy` to show that
// a new game is the few files docs/contributing.md lists.
//
// Listed in provably.mjs's SCHEMES like every scheme; only a build whose
// generated/ops.mjs holds toy.coin (`provably vectors` of a `--features toy`
// binary, as `make test-toy` writes it into target/toy/tree) serves it.

import { SERVER_SEED_COMMITMENT, SEEDED } from './cursor.mjs';
import { floats } from './stake.mjs';
import { intField, pickLaw, step, tables } from './stats/laws.mjs';

/** The coin's sides, by ⌊f·2⌋. */
export const SIDES = Object.freeze(['heads', 'tails']);

/** The side a bet lands on: ⌊f·2⌋ of its first float (f < 1, and f·2 is exact). */
export async function flip(p, serverSeed, clientSeed, nonce) {
  const [f] = await floats(p, serverSeed, clientSeed, nonce, 1);
  return SIDES[Math.floor(f * 2)];
}

// Statistics (src/schemes/toy/stats.rs): heads for the 2³¹ words below 2³¹,
// tails for the rest, one half each (pickLaw(2)); one family, serial along
// the nonces of a seed pair.
const COIN = tables({
  family: () => ({ a: 0 }),
  shape: () => [1, 2],
  layout: () => ({ params: '', tests: [['side (heads, tails)', pickLaw(2)]], serial: pickLaw(2) }),
  sample: (_, req, ok, cells) => {
    const side = SIDES.indexOf(ok.side);
    if (side < 0) return null;
    cells.push(0, side);
    return step(req.clientSeed, intField(req, 'nonce'), side);
  },
});

export const SCHEME = {
  id: 'toy',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'toy.coin': {
      fields: SEEDED,
      run: async (p, f) => ({ side: await flip(p, f.serverSeed, f.clientSeed, f.nonce) }),
      bet: true,
      stats: COIN,
      page: {
        name: 'Münzwurf',
        steps: 'Würfe',
        tests: [[/^side \(heads, tails\)$/, () => 'Seite der Münze: Kopf oder Zahl']],
      },
    },
  },
};
