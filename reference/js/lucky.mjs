// `lucky` scheme: the "lucky number" dice of Primedice's classic scheme and
// its clones. Written from the sources, not from the Rust code
// (src/schemes/lucky/ is the other implementation):
//
//   Primedice's implementation page, as the MerkeX/primediceverifier README
//   quotes it: "hmac-sha512(server_seed, client_seed-nonce) … First five
//   characters are taken … If the roll number is over 999,999, the process
//   is repeated with the next five characters skipping the previous set …
//   In the astronomically unlikely event that all possible 5 character
//   combinations are greater, 99.99 is used … applied a modulus of 10^4 …
//   and divided by 10^2".
//
// The clones that take the last three hex digits when every group is 10^6 or
// more (PyPI provablyfair 1.0.0) are `lastThree` below, a reading the Rust
// side names `last-three`. No seed reaches that branch in practice (about
// 4.5e-34 a bet).

import { SERVER_SEED_COMMITMENT, SEEDED } from './cursor.mjs';
import { intField, step, tables, uniform } from './stats/laws.mjs';

/** The five-digit groups read, at offsets 0, 5, …, 120. */
export const GROUPS = 25;
/** A group is kept when its value is below this. */
export const LIMIT = 1_000_000;
/** Primedice's lucky number when no group is kept (roll 99.99). */
export const EXHAUSTED = 9999;

/** The group index and lucky number of a MAC's 128 hex digits; group -1 when none is kept. */
export function scan(mac) {
  for (let g = 0; g < GROUPS; g++) {
    const v = parseInt(mac.slice(5 * g, 5 * g + 5), 16);
    if (v < LIMIT) return { group: g, lucky: v };
  }
  return { group: -1, lucky: EXHAUSTED };
}

/** The clones' exhaustion rule: the last three hex digits (offset 125). */
export function lastThree(mac) {
  const found = scan(mac);
  return found.group < 0 ? parseInt(mac.slice(5 * GROUPS), 16) : found.lucky;
}

/** The roll shown: (lucky mod 10^4) / 100. */
export const rollOf = (lucky) => (lucky % 10_000) / 100;

/** A bet's answer: HMAC-SHA512(serverSeed, "clientSeed-nonce"), scanned. */
export async function lucky(p, serverSeed, clientSeed, nonce) {
  const { lucky: l } = scan(await p.hmac512Hex(serverSeed, `${clientSeed}-${nonce}`));
  return { lucky: l, roll: rollOf(l) };
}

// Statistics (src/schemes/lucky/stats.rs): the kept group is uniform on
// 0 … 999,999 and 10^6 = 100 · 10^4, so ⌊roll⌋ is 1/100 each.
const ROLL = tables({
  family: () => ({ a: 0 }),
  shape: () => [1, 100],
  layout: () => ({ params: '', tests: [['whole part of the roll', uniform(100)]], serial: uniform(100) }),
  sample: (_, req, ok, cells) => {
    if (!Number.isInteger(ok.lucky) || ok.lucky < 0) return null;
    const whole = Math.floor((ok.lucky % 10_000) / 100);
    cells.push(0, whole);
    return step(req.clientSeed, intField(req, 'nonce'), whole);
  },
});

export const SCHEME = {
  id: 'lucky',
  commitment: SERVER_SEED_COMMITMENT,
  views: 'bcgame.mjs',
  ops: {
    'lucky.roll': {
      fields: SEEDED,
      run: (p, f) => lucky(p, f.serverSeed, f.clientSeed, f.nonce),
      bet: true,
      stats: ROLL,
      page: {
        name: 'Primedice-Würfel (klassisch)',
        view: 'primedice',
        fields: { lucky: 'Glückszahl' },
        steps: 'Würfe',
        tests: [[/^whole part of the roll$/, () => 'Wurf, ganzzahliger Teil (0 bis 99)']],
      },
    },
  },
};
