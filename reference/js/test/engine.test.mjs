// createEngine over other crypto providers: node:crypto in-process and as a
// protocol target (serve.mjs's runTarget), and providers with the bugs a
// third-party adapter is likely to have.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { firstDifference } from '../compare.mjs';
import { parseJson, stringifyJson } from '../json.mjs';
import { OPS, createEngine, execute } from '../provably.mjs';
import { REPO, spawnTarget } from '../testkit/helpers.mjs';
import { WEBCRYPTO, webCrypto } from '../webcrypto.mjs';
import { NODE_CRYPTO } from '../testkit/node-crypto-target.mjs';

const FIXTURE = join(REPO, 'reference/js/testkit/node-crypto-target.mjs');

/** Every vector of vectors/*.json as { label, result, input, line, expected }. */
function vectors() {
  const dir = join(REPO, 'vectors');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json') && !['selftest.json', 'proofs.json'].includes(f))
    .flatMap((f) => {
      const doc = parseJson(readFileSync(join(dir, f), 'utf8'));
      return doc.testGroups.flatMap((g) =>
        g.tests.map((t) => ({ label: `${f} tcId ${t.tcId}`, result: t.result, input: t.input, line: t.line, expected: t.expected })),
      );
    });
}

/** Where an answer parts from a vector: null when it agrees. An invalid
 * vector agrees with any answer of kind invalid. */
function parting(v, got) {
  if (v.result === 'invalid') return got.error?.kind === 'invalid' ? null : `answered ${stringifyJson(got)} to an invalid line`;
  return got.ok ? firstDifference(v.expected, got.ok) : `error ${got.error.message}`;
}

/** The request as the engine takes it: an invalid line that no strict
 * reader holds (a key twice) is refused before it reaches the engine. */
function requestOf(v) {
  if (v.result !== 'invalid') return { request: v.input };
  try {
    return { request: parseJson(v.line) };
  } catch {
    return { refused: true };
  }
}

test('over node:crypto, every vector reproduces in-process', async () => {
  const engine = createEngine(NODE_CRYPTO);
  assert.deepEqual(engine.OPS, OPS);
  const all = vectors();
  assert.ok(all.length > 100);
  const failures = [];
  for (const v of all) {
    const { request, refused } = requestOf(v);
    const got = refused ? { error: { kind: 'invalid', message: 'not JSON' } } : await engine.execute(request);
    const where = parting(v, got);
    if (where !== null) failures.push(`${v.label}: ${where}`);
  }
  assert.deepEqual(failures, []);
});

test('over node:crypto as a protocol target, every vector reproduces and hello names the provider', async () => {
  const all = vectors();
  // An invalid vector goes out as its line, byte for byte, with the id put in front.
  const lineOf = (v, id) => (v.result === 'invalid' ? `{"id":${id},${v.line.slice(1)}` : stringifyJson({ id, ...v.input }));
  const lines = [stringifyJson({ id: 0, op: 'hello', protocol: 1 }), ...all.map((v, i) => lineOf(v, i + 1))];
  const { code, responses, stderr } = await spawnTarget(process.execPath, [FIXTURE], `${lines.join('\n')}\n`, { timeout: 60000 });
  assert.equal(code, 0, stderr);
  assert.match(responses[0].ok.name, /^provably-js \d+\.\d+\.\d+ over node:crypto \(OpenSSL /);
  assert.deepEqual(responses[0].ok.ops, [...OPS]);
  assert.equal(responses.length, all.length + 1);
  const failures = all.flatMap((v, i) => {
    const r = responses[i + 1];
    const where = r.id !== i + 1 ? `id ${r.id}` : parting(v, r);
    return where === null ? [] : [`${v.label}: ${where}`];
  });
  assert.deepEqual(failures, []);
});

test('a provider answering with something that is not 32 bytes is an internal error naming it', async () => {
  const sha256 = WEBCRYPTO.sha256;
  const cases = [
    [{ name: 'short', hmacSha256: () => new Uint8Array(20), sha256 }, /short: hmacSha256 returned 20 bytes, not 32/],
    // crypto-js hands out signed 32-bit words; taken as bytes they would wrap silently.
    [{ name: 'words', hmacSha256: () => Array(32).fill(-1), sha256 }, /words: hmacSha256 returned -1 at index 0, not a byte/],
    [{ name: 'hex', hmacSha256: () => 'ab'.repeat(32), sha256 }, /hex: hmacSha256 returned string, not bytes/],
  ];
  // One MAC alone, and MACs signed ahead in a batch (shuffles, shoes, ladders).
  const requests = [
    { op: 'cursor.raw', serverSeed: 's', clientSeed: 'c', nonce: 0, cursor: 0 },
    { op: 'ladder.shuffle', serverSeed: 's', clientSeed: 'c', size: 40 },
  ];
  for (const [provider, message] of cases) {
    for (const request of requests) {
      const r = await createEngine(provider).execute(request);
      assert.equal(r.error?.kind, 'invalid', `${provider.name} ${request.op}`);
      assert.match(r.error.message, /^internal error: /);
      assert.match(r.error.message, message);
    }
  }
  assert.throws(() => createEngine({ name: 'no sha', hmacSha256() {} }), /needs a function sha256/);
});

test('a provider may answer synchronously, with an ArrayBuffer or an array of numbers', async () => {
  const want = await execute({ op: 'shoe.deal', serverSeed: 'k', clientSeed: 'c', nonce: 1, decks: 1, penetration: 0.5 });
  const shapes = {
    arrayBuffer: (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.length),
    array: (b) => [...b],
  };
  for (const [shape, convert] of Object.entries(shapes)) {
    const provider = {
      name: shape,
      hmacSha256: (k, m) => convert(NODE_CRYPTO.hmacSha256(k, m)),
      sha256: (t) => convert(NODE_CRYPTO.sha256(t)),
    };
    const got = await createEngine(provider).execute({ op: 'shoe.deal', serverSeed: 'k', clientSeed: 'c', nonce: 1, decks: 1, penetration: 0.5 });
    assert.deepEqual(got, want, shape);
  }
});

test('the WebCrypto key cache is an optimisation only: no cache, same answers', async () => {
  const uncached = createEngine(webCrypto({ keyCacheSize: 0 }));
  for (const request of [
    { op: 'cursor.shuffle', serverSeed: '', clientSeed: 'c', nonce: 0, cursor: 0, count: 52 },
    { op: 'ladder.shuffle', serverSeed: 'ü', clientSeed: '', size: 100 },
  ]) {
    assert.deepEqual(await uncached.execute(request), await execute(request));
  }
});
