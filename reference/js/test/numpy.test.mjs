// selfpoker / numpy: the worked examples of the numpy spec (produced by
// real numpy 2.4.6), then real numpy itself when a python with numpy is
// available ($PROVABLY_PYTHON, default .venv/bin/python).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PCG64, permutation, seedSequenceState } from '../numpy.mjs';
import { primitives } from '../crypto.mjs';
import { execute } from '../provably.mjs';
import * as selfpoker from '../selfpoker.mjs';
import { NUMPY_PYTHON, PYTHON, hasNumpy, runJson } from '../testkit/helpers.mjs';
import { WEBCRYPTO } from '../webcrypto.mjs';

const hex = (v) => `0x${v.toString(16).padStart(8, '0')}`;

describe('numpy spec worked examples', () => {
  test('first ten cards', () => {
    const table = [
      [0n, [38, 11, 18, 10, 23, 28, 4, 36, 34, 27]],
      [42n, [27, 7, 47, 38, 51, 17, 5, 49, 34, 23]],
      [12345n, [26, 35, 49, 45, 20, 12, 7, 17, 8, 24]],
      [4294967296n, [9, 23, 22, 30, 43, 5, 42, 10, 21, 0]],
      [9223372036854775807n, [21, 16, 34, 42, 0, 39, 48, 9, 46, 18]],
      [6012398147733912337n, [46, 50, 24, 11, 1, 29, 6, 3, 42, 45]],
    ];
    for (const [seed, first] of table) assert.deepEqual(permutation(seed, 52).slice(0, 10), first, `seed ${seed}`);
  });

  test('full decks for seeds 0 and 12345', () => {
    assert.deepEqual(permutation(0n, 52), [38, 11, 18, 10, 23, 28, 4, 36, 34, 27, 35, 24, 21, 2, 20, 3, 1, 49, 43, 6, 22, 40, 19, 45, 16, 17, 26, 37, 30, 0, 8, 47, 48, 50, 32, 25, 46, 9, 42, 44, 13, 12, 7, 39, 51, 5, 14, 29, 41, 33, 15, 31]);
    assert.deepEqual(permutation(12345n, 52), [26, 35, 49, 45, 20, 12, 7, 17, 8, 24, 32, 14, 44, 43, 23, 37, 9, 0, 33, 34, 19, 27, 46, 42, 28, 6, 22, 18, 38, 5, 1, 11, 36, 48, 10, 15, 41, 47, 4, 31, 51, 39, 3, 40, 50, 16, 2, 25, 21, 30, 13, 29]);
  });

  test('step-by-step trace for seed 12345', () => {
    const s = seedSequenceState(12345n);
    assert.deepEqual(s.pool.map(hex), ['0xf293d734', '0xfd668225', '0xf94ff895', '0x872090a0']);
    assert.deepEqual(s.words32.map(hex), ['0xa03d837c', '0xb5ae6482', '0xfa1f7a2f', '0xbbe2996f', '0x37158f94', '0x64e39a9f', '0xa013fd73', '0x3ebb0f96']);
    assert.deepEqual(s.words64, [0xb5ae6482a03d837cn, 0xbbe2996ffa1f7a2fn, 0x64e39a9f37158f94n, 0x3ebb0f96a013fd73n]);
    const g = PCG64.fromSeed(12345n);
    assert.equal(g.inc, 0xc9c7353e6e2b1f287d761f2d4027fae7n);
    assert.equal(g.state, 0x1905e0335aae96349199b0d09775add5n);
    const a = PCG64.fromSeed(12345n);
    assert.deepEqual([a.next64(), a.next64(), a.next64()], [0x3a32b18db2ffc19dn, 0x51171315c9e4c4den, 0xcc2024823444efd9n]);
    const b = PCG64.fromSeed(12345n);
    assert.deepEqual(Array.from({ length: 6 }, () => b.next32()), [0xb2ffc19d, 0x3a32b18d, 0xc9e4c4de, 0x51171315, 0x3444efd9, 0xcc202482]);
    // The draws of the shuffle, including the rejection at i = 44 that eats one half.
    const c = PCG64.fromSeed(12345n);
    assert.deepEqual([51, 50, 49, 48, 47, 46, 45, 44, 43, 42].map((i) => c.interval(i)), [29, 13, 30, 21, 25, 2, 16, 13, 40, 3]);
  });
});

// Edge seeds of the spec's own verification plus a spread of random 63-bit ones.
function numpySeeds() {
  const seeds = ['0', '1', '2', '4294967295', '4294967296', '4611686018427387904', '9223372036854775807', '1234567890123456789'];
  let x = 0x9e3779b97f4a7c15n;
  for (let i = 0; i < 400; i++) {
    // splitmix64, truncated to 63 bits (secrets.randbits(63) in the seed)
    x = (x + 0x9e3779b97f4a7c15n) & ((1n << 64n) - 1n);
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & ((1n << 64n) - 1n);
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & ((1n << 64n) - 1n);
    z ^= z >> 31n;
    seeds.push(String(z >> (i % 5 === 0 ? 32n : 1n)));
  }
  return seeds;
}

const NUMPY_SCRIPT = `
import json, sys
import numpy as np
req = json.load(sys.stdin)
print(json.dumps({
  "decks": [[int(c) for c in np.random.default_rng(int(s)).permutation(52)] for s in req["seeds"]],
  "sizes": {str(n): [int(c) for c in np.random.default_rng(int(req["seeds"][-1])).permutation(n)] for n in req["sizes"]},
}))
`;

test('selfpoker.deck agrees with real numpy', { skip: !hasNumpy() && `no numpy at ${NUMPY_PYTHON} (set PROVABLY_PYTHON)` }, async () => {
  const seeds = numpySeeds();
  const sizes = [0, 1, 2, 5, 312, 1000];
  const want = runJson(NUMPY_PYTHON, ['-c', NUMPY_SCRIPT], { input: JSON.stringify({ seeds, sizes }) });
  assert.equal(want.decks.length, seeds.length);
  for (let i = 0; i < seeds.length; i++) {
    const { ok } = await execute({ op: 'selfpoker.deck', seed: seeds[i] });
    assert.deepEqual(ok.deck, want.decks[i], `seed ${seeds[i]}`);
  }
  for (const n of sizes) assert.deepEqual(permutation(BigInt(seeds.at(-1)), n), want.sizes[String(n)], `n = ${n}`);
});

test('selfpoker.commit is sha256("selfpoker:" + seed) as the published Python computes it', async () => {
  const seeds = ['0', '1234567890123456789', '9223372036854775807', ...numpySeeds().slice(0, 20)];
  const script = 'import hashlib, json, sys\nprint(json.dumps([hashlib.sha256(f"selfpoker:{int(s)}".encode()).hexdigest() for s in json.load(sys.stdin)]))';
  const want = runJson(PYTHON, ['-c', script], { input: JSON.stringify(seeds) });
  for (let i = 0; i < seeds.length; i++) assert.equal(await selfpoker.commit(primitives(WEBCRYPTO), seeds[i]), want[i]);
});

test('seed strings that a 63-bit integer cannot be are invalid', async () => {
  for (const seed of ['9223372036854775808', '-1', '01', ' 1', '1.0', '', '１', 12345, '99999999999999999999']) {
    const r = await execute({ op: 'selfpoker.deck', seed });
    assert.equal(r.error?.kind, 'invalid', JSON.stringify(seed));
  }
});
