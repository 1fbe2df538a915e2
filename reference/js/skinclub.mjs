// `skinclub` scheme: skin.club's case rolls, written from skin.club's own
// validator (github.com/skinclub-tech/provably-fair-validator, index.php and
// tests/run-tests.php), not from the Rust code (src/schemes/skinclub/):
//
//   roll        = hexdec(first 15 hex of hash_hmac('sha512', serverSeed,
//                 "clientSeed-nonce")) mod 100000 + 1. PHP's hash_hmac takes
//                 (algo, data, key): the key is the client's string.
//   public hash = hash_hmac('sha256', serverSeed, salt): the salt is the key.
//   battles     = the battle's beacon where a roll has the server seed.
//
// 15 hex digits are 60 bits: parseInt would round them to a double above
// 2^53 (the validator's fixture 21752 would come out 21729), so they are
// read as a BigInt.

import { toHex } from './crypto.mjs';
import { SEEDED } from './cursor.mjs';
import { intField, none, step, tables } from './stats/laws.mjs';
import { text } from './validate.mjs';

/** Rolls run 1 … this. */
export const ROLLS = 100_000;

/** The first 15 hex digits of the roll's MAC, as a BigInt below 2^60. */
export async function value(p, serverSeed, clientSeed, nonce) {
  const mac = await p.hmac512Hex(`${clientSeed}-${nonce}`, serverSeed);
  return BigInt(`0x${mac.slice(0, 15)}`);
}

export async function roll(p, serverSeed, clientSeed, nonce) {
  return Number((await value(p, serverSeed, clientSeed, nonce)) % BigInt(ROLLS)) + 1;
}

/** The public hash: HMAC-SHA256(key = salt, message = serverSeed), hex. */
export async function publicHash(p, salt, serverSeed) {
  return toHex(await p.hmac(salt, serverSeed));
}

// Statistics (src/schemes/skinclub/stats.rs): roll − 1 = v mod 100,000 for v
// uniform on 2^60 values; 2^60 = 100,000·q + r, so residues below r have one
// value more. The test is ⌊(roll − 1)/2000⌋, each cell's exact count over 2^60.
const WIDTH = 2000;

export function stepsLaw() {
  const all = 1n << 60n;
  const [q, r] = [all / BigInt(ROLLS), all % BigInt(ROLLS)];
  return Array.from({ length: ROLLS / WIDTH }, (_, j) => {
    let extra = r - BigInt(j * WIDTH);
    if (extra < 0n) extra = 0n;
    if (extra > BigInt(WIDTH)) extra = BigInt(WIDTH);
    return Number(BigInt(WIDTH) * q + extra) / 2 ** 60;
  });
}

const ROLL = tables({
  family: () => ({ a: 0 }),
  shape: () => [1, ROLLS / WIDTH],
  layout: () => ({ params: '', tests: [['roll in steps of 2,000', stepsLaw()]], serial: stepsLaw() }),
  sample: (_, req, ok, cells) => {
    if (!Number.isInteger(ok.roll) || ok.roll < 1 || ok.roll > ROLLS) return null;
    const cell = Math.floor((ok.roll - 1) / WIDTH);
    cells.push(0, cell);
    return step(req.clientSeed, intField(req, 'nonce'), cell);
  },
});

export const SCHEME = {
  id: 'skinclub',
  // The public hash needs the salt, revealed with the seed: no commitment of
  // the server seed alone (skinclub.hash checks it; a battle's beacon is
  // public and committed by no hash). The Rust op names no secret either.
  commitment: undefined,
  views: 'bcgame.mjs',
  ops: {
    'skinclub.roll': {
      fields: SEEDED,
      run: async (p, f) => ({ roll: await roll(p, f.serverSeed, f.clientSeed, f.nonce) }),
      stats: ROLL,
      page: {
        name: 'SKIN.CLUB-Kiste',
        view: 'skinclub',
        steps: 'Würfe',
        tests: [[/^roll in steps of 2,000$/, () => 'Wurf, in Stufen von 2.000 (1 bis 100.000)']],
      },
    },
    'skinclub.hash': {
      fields: { salt: text(), serverSeed: text() },
      run: async (p, f) => ({ hash: await publicHash(p, f.salt, f.serverSeed) }),
      stats: none('a commitment, not the outcome of a game'),
      page: { name: 'SKIN.CLUB-Public-Hash', fields: { salt: 'Secret Salt' } },
    },
  },
};
