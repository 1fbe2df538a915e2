// `dice` scheme (seed 001): die(n) scans HMAC(serverSeed, "clientSeed:n:round")
// byte by byte for the first byte below 252, round = 0 … 15. The page's
// one-line formula only looks at byte 0; its published JavaScript scans the
// whole MAC, and the code is what players can run, so the code wins.

import { SERVER_SEED_COMMITMENT } from './cursor.mjs';
import { ProvablyError } from './errors.mjs';
import { intField, num, step, tables, uniform } from './stats/laws.mjs';
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

// Statistics (src/schemes/dice/stats.rs): a byte b < 252 gives b mod 6 + 1,
// and 252 = 6 × 42, so every face has exactly 1/6.

/** Die indices n below this have a table each. */
const INDICES = 16;

const ROLL = tables({
  family: () => ({ a: 0 }),
  shape: () => [INDICES + 1, 6],
  layout: () => {
    const tests = Array.from({ length: INDICES }, (_, n) => [`face of die n=${n}`, uniform(6)]);
    tests.push(['face over all dice', uniform(6)]);
    return { params: '', tests, serial: uniform(6) };
  },
  sample: (_, req, ok, cells) => {
    const face = num(ok.face) - 1;
    const n = intField(req, 'n');
    if (!(face >= 0 && face < 6) || n === null) return null;
    if (n < INDICES) cells.push(n, face);
    cells.push(INDICES, face);
    return step(req.clientSeed, n, face);
  },
});

export const SCHEME = {
  id: 'dice',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'dice.roll': {
      fields: { serverSeed: text(), clientSeed: text(), n: int(0, MAX_INT) },
      run: async (p, f) => ({ face: await roll(p, f.serverSeed, f.clientSeed, f.n) }),
      stats: ROLL,
      page: {
        name: 'Würfel',
        view: 'dice',
        steps: 'Würfe',
        tests: [
          [/^face of die n=(\d+)$/, (m, w) => `Augenzahl bei Wurf Nummer ${w.formatInt(m[1])}`],
          [/^face over all dice$/, () => 'Augenzahlen aller Würfe'],
        ],
      },
    },
  },
};
