// The committed vectors (written by `provably vectors`, the Rust reference)
// replayed straight through execute(): every vector file and the web page's
// selftest.json bundle, with the same comparison the page's self-test uses.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { firstDifference } from '../compare.mjs';
import { JsonFloat, parseJson } from '../json.mjs';
import { BUILT, OPS, execute } from '../provably.mjs';
import { REPO } from '../testkit/helpers.mjs';

const VECTORS = join(REPO, 'vectors');
const load = (name) => parseJson(readFileSync(join(VECTORS, name), 'utf8'));
// proofs.json holds proof documents, not op vectors: proof.test.mjs replays it.
const SCHEME_FILES = readdirSync(VECTORS).filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json') && !['selftest.json', 'proofs.json'].includes(f)).sort();

/** An invalid test's line through the strict parser (a duplicate key throws there), then execute(). */
async function executeLine(line) {
  try {
    return await execute(parseJson(line));
  } catch (e) {
    return { error: { kind: 'invalid', message: `not read: ${e.message}` } };
  }
}

/** Runs every test; returns a readable line per failure (scheme, tcId, where, what). */
async function replay(tests, label) {
  const failures = [];
  for (const t of tests) {
    if (t.result === 'invalid') {
      const got = await executeLine(t.line);
      if (got.error?.kind !== 'invalid') failures.push(`${label(t)} tcId ${t.tcId} (${t.comment}) must be invalid: ${JSON.stringify(got).slice(0, 300)}`);
      continue;
    }
    const got = await execute(t.input);
    const where = got.ok ? firstDifference(t.expected, got.ok) : 'error instead of a result';
    if (where !== null) {
      failures.push(`${label(t)} tcId ${t.tcId} (${t.comment}) differs at ${where}: ${JSON.stringify(got.error ?? got.ok, (k, v) => (typeof v === 'bigint' ? String(v) : v)).slice(0, 300)}`);
    }
  }
  return failures;
}

describe('committed vectors', () => {
  test('the vector files exist and cover every op', () => {
    // One file per scheme of this build: a cargo feature's game (the toy) has its file only in the build with its ops.
    assert.deepEqual(SCHEME_FILES, BUILT.map((s) => `${s.id}.json`).sort());
    const ops = new Set(SCHEME_FILES.flatMap((f) => load(f).testGroups.map((g) => g.op)));
    assert.deepEqual([...ops].sort(), [...OPS].sort());
  });

  for (const file of SCHEME_FILES) {
    test(`vectors/${file}: every vector reproduces`, async () => {
      const doc = load(file);
      const tests = doc.testGroups.flatMap((g) => g.tests.map((t) => ({ ...t, op: g.op })));
      assert.equal(tests.length, doc.numberOfTests);
      for (const t of tests) if (t.result === 'valid') assert.equal(t.input.op, t.op, `${file} tcId ${t.tcId}: input.op matches its group`);
      assert.deepEqual(await replay(tests, (t) => `${file} ${t.op}`), []);
    });
  }

  test('vectors/selftest.json (the page\'s self-test): every vector reproduces', async () => {
    const bundle = load('selftest.json');
    assert.equal(bundle.tests.length, bundle.numberOfTests);
    assert.deepEqual(await replay(bundle.tests, (t) => `selftest ${t.scheme}`), []);
  });

  test('selftest.json is the union of the scheme files', () => {
    const key = (scheme, t) => `${scheme}#${t.tcId}`;
    const fromFiles = new Map();
    for (const file of SCHEME_FILES) {
      const doc = load(file);
      for (const g of doc.testGroups) for (const t of g.tests) fromFiles.set(key(doc.scheme, t), t);
    }
    const bundle = load('selftest.json').tests;
    assert.equal(bundle.length + load('selftest.json').omitted.tests.length, fromFiles.size);
    for (const t of bundle) {
      const same = fromFiles.get(key(t.scheme, t));
      assert.ok(same, `selftest ${key(t.scheme, t)} is in vectors/${t.scheme}.json`);
      assert.equal(firstDifference(same.input, t.input), null, key(t.scheme, t));
      assert.equal(firstDifference(same.expected, t.expected), null, key(t.scheme, t));
      assert.equal(same.line, t.line, key(t.scheme, t));
    }
  });
});

describe('firstDifference (the self-test comparison)', () => {
  test('equal values, including floats, BigInts and nesting', () => {
    assert.equal(firstDifference({ a: [1, 2, { b: 'x' }], f: new JsonFloat(0.5, '0.5'), n: 2n ** 64n }, { a: [1, 2, { b: 'x' }], f: 0.5, n: 2n ** 64n }), null);
  });
  test('the first differing path is named', () => {
    assert.equal(firstDifference({ cards: ['AS', 'TD'], cut: 3 }, { cards: ['AS', 'TH'], cut: 3 }), 'cards[1]');
    assert.equal(firstDifference({ cards: ['AS'] }, { cards: ['AS', 'TD'] }), 'cards.length');
    assert.equal(firstDifference({ a: 1 }, { a: 1, b: 2 }), 'b');
    assert.equal(firstDifference({ a: 1, b: 2 }, { a: 1 }), 'b');
    assert.equal(firstDifference({ v: 0 }, { v: -0 }), 'v');
    assert.equal(firstDifference({ v: 1 }, { v: 1n }), 'v');
    assert.equal(firstDifference({ v: '1' }, { v: 1 }), 'v');
    assert.equal(firstDifference([1], { 0: 1 }), '(Wert)');
  });
});
