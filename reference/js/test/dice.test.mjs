// dice against the JavaScript published on seed 001, kept verbatim in
// reference/published/dice.js and run here unedited.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { primitives } from '../crypto.mjs';
import { hash } from '../cursor.mjs';
import * as dice from '../dice.mjs';
import { createEngine, execute } from '../provably.mjs';
import { PUBLISHED, TRICKY_STRINGS, rng } from '../testkit/helpers.mjs';
import { WEBCRYPTO } from '../webcrypto.mjs';

const P = primitives(WEBCRYPTO);

const AsyncFunction = (async () => {}).constructor;

/**
 * The published snippet uses free variables (serverSeed, clientSeed, commit)
 * and top-level await; as the body of an async function with those as
 * parameters it runs as written, and hands back what it computed.
 */
const published = new AsyncFunction(
  'serverSeed',
  'clientSeed',
  'commit',
  `${readFileSync(join(PUBLISHED, 'dice.js'), 'utf8')}\nreturn { commitOk, die };`,
);

test('roll agrees with the published dice.js for many seeds and rolls', async () => {
  const r = rng(6);
  const pairs = [
    // The shape of the published game's seeds: 64-hex server, two joined client seeds.
    [r.hex(64), `${r.hex(16)}:${r.hex(16)}`],
    [r.hex(64), ''],
    ...TRICKY_STRINGS.filter((s) => s !== '').map((s) => [s, r.pick(TRICKY_STRINGS)]),
  ];
  let checked = 0;
  let laterBytes = 0;
  for (const [serverSeed, clientSeed] of pairs) {
    const commit = await hash(P, serverSeed);
    const ref = await published(serverSeed, clientSeed, commit);
    assert.equal(ref.commitOk, true);
    const wrong = await published(serverSeed, clientSeed, commit.replace(/.$/, (c) => (c === '0' ? '1' : '0')));
    assert.equal(wrong.commitOk, false);
    for (let n = 0; n < 150; n++) {
      const want = await ref.die(n);
      assert.equal(await dice.roll(P, serverSeed, clientSeed, n), want, `${JSON.stringify([serverSeed, clientSeed])} n=${n}`);
      checked++;
    }
  }
  // The one-line formula on the page reads byte 0 only; 4 of 256 first bytes
  // are ≥ 252, so some of these rolls must have come from a later byte.
  for (let n = 0; n < 2000 && laterBytes === 0; n++) {
    const mac = await P.hmac(pairs[0][0], `${pairs[0][1]}:${n}:0`);
    if (mac[0] >= 252) {
      laterBytes++;
      const ref = await published(pairs[0][0], pairs[0][1], '');
      assert.equal(await dice.roll(P, pairs[0][0], pairs[0][1], n), await ref.die(n), `n=${n} (byte 0 rejected)`);
    }
  }
  assert.ok(checked > 1000);
  assert.equal(laterBytes, 1, 'found a roll whose first byte is rejected');
});

test('exhausted after 16 rounds without a byte below 252', async () => {
  // No real seed runs dry (the chance is (4/256)^512), so the engine runs over
  // a provider whose HMAC only ever yields 0xff.
  const dry = { name: 'all 0xff', hmacSha256: () => new Uint8Array(32).fill(0xff), sha256: WEBCRYPTO.sha256 };
  const r = await createEngine(dry).execute({ op: 'dice.roll', serverSeed: 'dry', clientSeed: 'c', n: 0 });
  assert.equal(r.error?.kind, 'exhausted');
  assert.match(r.error.message, /16 rounds/);
});
