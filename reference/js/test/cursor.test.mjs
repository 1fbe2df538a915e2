// cursor scheme against the published referenz.py (seed 003), run as a
// subprocess: its own vectors, then a few hundred generated inputs through
// its `pruefe` command.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import * as cursor from '../cursor.mjs';
import { primitives } from '../crypto.mjs';
import { execute } from '../provably.mjs';
import { PUBLISHED, PYTHON, TRICKY_STRINGS, rng, runJson, tempJson } from '../testkit/helpers.mjs';
import { WEBCRYPTO } from '../webcrypto.mjs';

const P = primitives(WEBCRYPTO);

const REFERENZ = join(PUBLISHED, 'referenz.py');

/** Python's repr of a float is the shortest round-trip text, so Number() is exact. */
const pyFloat = (repr) => Number(repr);

/** Numbers and BigInts from json.mjs compare by value. */
const big = (v) => BigInt(v);

describe('referenz.py vektoren', () => {
  const v = runJson(PYTHON, [REFERENZ, 'vektoren']);

  test('hash', async () => {
    assert.ok(v.hash.length > 0);
    for (const c of v.hash) assert.equal(await cursor.hash(P, c.serverSeed), c.hash);
  });

  test('raw and float', async () => {
    assert.ok(v.raw.length > 0 && v.float.length === v.raw.length);
    for (const c of v.raw) {
      assert.equal(await cursor.rawHex(P, c.serverSeed, c.clientSeed, c.nonce, c.cursor), c.raw);
    }
    for (const c of v.float) {
      const got = await cursor.float(P, c.serverSeed, c.clientSeed, c.nonce, c.cursor);
      assert.ok(Object.is(got, pyFloat(c.value)), `float ${JSON.stringify(c)}: got ${got}`);
    }
  });

  test('int', async () => {
    for (const c of v.int) {
      const got = await cursor.int(P, c.serverSeed, c.clientSeed, c.nonce, c.cursor, c.range);
      assert.deepEqual(got, { value: c.value, cursorNext: c.cursorNext }, `range ${c.range}`);
    }
  });

  test('shuffle of 5, 52 and 312', async () => {
    for (const c of v.shuffle) {
      const got = await cursor.shuffle(P, c.serverSeed, c.clientSeed, c.nonce, 0, c.count);
      assert.deepEqual(got, { order: c.order, cursorNext: c.cursorNext }, `count ${c.count}`);
    }
  });
});

// Ranges chosen at the byte-count boundaries of k = ⌈bitlen(range−1)/8⌉ and
// at the top of the protocol's range, where 256^k passes 2^53.
const RANGES = [
  1, 2, 3, 6, 37, 52, 129, 255, 256, 257, 32769, 2 ** 23 + 1, 2 ** 31 + 1, 2 ** 47 + 1, 10000, 65535, 65536, 65537, 2 ** 24, 2 ** 24 + 1,
  2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 40 + 1, 2 ** 48 - 1, 2 ** 48, 2 ** 48 + 1,
  2 ** 52 + 3, 2 ** 53 - 1,
];

function generatedInputs() {
  const r = rng(3);
  const out = [];
  for (let i = 0; i < 300; i++) {
    const serverSeed = i % 3 === 0 ? r.pick(TRICKY_STRINGS) : r.hex(64);
    const clientSeed = i % 2 === 0 ? r.pick(TRICKY_STRINGS) : r.hex(16);
    const nonce = r.pick([0, 1, 42, r.int(1e6), 2 ** 53 - 1]);
    const c = r.pick([0, 1, 7, r.int(1000), 2 ** 53 - 2]);
    const e = { serverSeed, clientSeed, nonce, cursor: c };
    // Ranges just above a multiple of 2^(8k−1) reject almost half the time.
    e.range = i < RANGES.length * 2 ? RANGES[i % RANGES.length] : r.pick(RANGES);
    if (i % 10 === 0) e.shuffleCount = r.pick([0, 1, 2, 5, 13, 52]);
    out.push(e);
  }
  // A cursor at the top of its range: cursorNext passes 2^53 and must stay exact.
  out.push({ serverSeed: 's', clientSeed: 'c', nonce: 0, cursor: 2 ** 53 - 1, range: 2 ** 53 - 1, shuffleCount: 20 });
  return out;
}

test('referenz.py pruefe on generated inputs (Unicode, every byte count, rejections, cursor past 2^53)', async () => {
  const inputs = generatedInputs();
  const expected = runJson(PYTHON, [REFERENZ, 'pruefe', tempJson('cursor.json', inputs)]);
  assert.equal(expected.length, inputs.length);
  let rejections = 0;
  for (let i = 0; i < inputs.length; i++) {
    const e = inputs[i];
    const want = expected[i];
    const where = `input ${i}: ${JSON.stringify(e)}`;
    assert.equal(await cursor.rawHex(P, e.serverSeed, e.clientSeed, e.nonce, e.cursor), want.raw, where);
    const f = await cursor.float(P, e.serverSeed, e.clientSeed, e.nonce, e.cursor);
    assert.ok(Object.is(f, pyFloat(want.float)), `${where}: float ${f} vs ${want.float}`);
    const got = await cursor.int(P, e.serverSeed, e.clientSeed, e.nonce, e.cursor, e.range);
    assert.equal(got.value, Number(want.int), where);
    assert.equal(big(got.cursorNext), big(want.cursorNext), where);
    if (big(want.cursorNext) - big(e.cursor) > 1n) rejections++;
    if ('shuffleCount' in e) {
      const s = await cursor.shuffle(P, e.serverSeed, e.clientSeed, e.nonce, e.cursor, e.shuffleCount);
      assert.deepEqual(s.order, want.shuffle, where);
      assert.equal(big(s.cursorNext), big(want.shuffleCursorNext), where);
    }
  }
  // The inputs are only worth something if they exercise rejection.
  assert.ok(rejections >= 10, `only ${rejections} rejections exercised`);
});

test('execute prints a cursorNext past 2^53 exactly (as BigInt)', async () => {
  const req = { op: 'cursor.int', serverSeed: 's', clientSeed: 'c', nonce: 0, cursor: 2 ** 53 - 1, range: 2 ** 53 - 1 };
  const [want] = runJson(PYTHON, [REFERENZ, 'pruefe', tempJson('top.json', [{ ...req, op: undefined }])]);
  const { ok } = await execute(req);
  assert.equal(big(ok.cursorNext), big(want.cursorNext));
  assert.equal(ok.value, Number(want.int));
});
