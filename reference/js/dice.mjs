// `dice` scheme (seed 001): die(n) scans HMAC(serverSeed, "clientSeed:n:round")
// byte by byte for the first byte below 252, round = 0 … 15. The page's
// one-line formula only looks at byte 0; its published JavaScript scans the
// whole MAC, and the code is what players can run, so the code wins.

import { SERVER_SEED_COMMITMENT } from './cursor.mjs';
import { ProvablyError } from './errors.mjs';
import { MAX_INT, int, text } from './validate.mjs';

export const ROUNDS = 16;

/** The face 1 … 6 of die n; throws `exhausted` if no round has a byte below 252. */
export async function roll(p, serverSeed, clientSeed, n) {
  for (let round = 0; round < ROUNDS; round++) {
    const mac = await p.hmac(serverSeed, `${clientSeed}:${n}:${round}`);
    // 252 = 6 × 42: the four top byte values would favour faces 1–4.
    for (const b of mac) if (b < 252) return (b % 6) + 1;
  }
  throw new ProvablyError(
    'exhausted',
    `die ${n}: no byte below 252 in ${ROUNDS} rounds of HMAC (the published code returns undefined here)`,
  );
}

export const SCHEME = {
  id: 'dice',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'dice.roll': {
      fields: { serverSeed: text(), clientSeed: text(), n: int(0, MAX_INT) },
      run: async (p, f) => ({ face: await roll(p, f.serverSeed, f.clientSeed, f.n) }),
    },
  },
};
