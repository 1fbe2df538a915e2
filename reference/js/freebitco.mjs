// `freebitco` scheme: Freebitco.in's roll, written from the operator's text
// as monk-afk/freebitco.in_roll-calculator's README quotes it, not from the
// Rust code (src/schemes/freebitco/):
//
//   STRING1 = "[NONCE]:[SERVER SEED]:[NONCE]", STRING2 = "[NONCE]:[CLIENT SEED]:[NONCE]";
//   "HMAC-SHA512 is used to hash STRING1 with STRING2 as the secret key";
//   the first 8 hex characters as a decimal, "divided by 429496.7295 and
//   rounded off to the nearest whole number", at most 10,000.

import { SERVER_SEED_COMMITMENT, SEEDED } from './cursor.mjs';
import { TWO_32, intField, step, tables } from './stats/laws.mjs';

/** (2^32 − 1) / 10^4. */
export const DIVISOR = 429496.7295;

/** The roll of x, the first 8 hex digits: rounded to nearest (never a tie here). */
export const rollOf = (x) => Math.floor(x / DIVISOR + 0.5);

export async function roll(p, serverSeed, clientSeed, nonce) {
  const key = `${nonce}:${clientSeed}:${nonce}`;
  const mac = await p.hmac512Hex(key, `${nonce}:${serverSeed}:${nonce}`);
  return rollOf(parseInt(mac.slice(0, 8), 16));
}

// Statistics (src/schemes/freebitco/stats.rs): the roll does not decrease with
// x, so the x below roll r are a prefix of the 2^32 values, found by
// bisection on rollOf itself. The test is min(⌊roll/200⌋, 49) (50 cells, the
// last holding 9,800 … 10,000).
const WIDTH = 200;
const CELLS = 50;

/** How many x < 2^32 give a roll below r. */
export function below(r) {
  let [lo, hi] = [0, TWO_32];
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (rollOf(mid) < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function stepsLaw() {
  const bounds = [...Array.from({ length: CELLS }, (_, j) => below(j * WIDTH)), TWO_32];
  return bounds.slice(1).map((b, j) => (b - bounds[j]) / TWO_32);
}

const ROLL = tables({
  family: () => ({ a: 0 }),
  shape: () => [1, CELLS],
  layout: () => ({ params: '', tests: [['roll in steps of 200', stepsLaw()]], serial: stepsLaw() }),
  sample: (_, req, ok, cells) => {
    if (!Number.isInteger(ok.roll) || ok.roll < 0 || ok.roll > 10_000) return null;
    const cell = Math.min(Math.floor(ok.roll / WIDTH), CELLS - 1);
    cells.push(0, cell);
    return step(req.clientSeed, intField(req, 'nonce'), cell);
  },
});

export const SCHEME = {
  id: 'freebitco',
  commitment: SERVER_SEED_COMMITMENT,
  views: 'bcgame.mjs',
  ops: {
    'freebitco.roll': {
      fields: SEEDED,
      run: async (p, f) => ({ roll: await roll(p, f.serverSeed, f.clientSeed, f.nonce) }),
      bet: true,
      stats: ROLL,
      page: {
        name: 'FREEBITCO.IN-Roll',
        view: 'freebitco',
        steps: 'Würfe',
        tests: [[/^roll in steps of 200$/, () => 'Roll, in Stufen von 200 (0 bis 10.000)']],
      },
    },
  },
};
