// shoe (seed 000) and ladder (seed 004) publish no code. They are checked
// against testkit/oracle.py, a second reading of the seeds' prose in
// Python, and against properties the prose states outright.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { primitives } from '../crypto.mjs';
import { raw } from '../cursor.mjs';
import * as ladder from '../ladder.mjs';
import { execute } from '../provably.mjs';
import * as shoe from '../shoe.mjs';
import { HERE, PYTHON, TRICKY_STRINGS, rng, runJson, tempJson } from '../testkit/helpers.mjs';
import { WEBCRYPTO } from '../webcrypto.mjs';

const P = primitives(WEBCRYPTO);

const ORACLE = join(HERE, 'oracle.py');

/** Penetrations where total × p lands exactly on .5, so Math.round's halves-up matters. */
function halfwayPenetration(total) {
  for (let k = Math.round(total * 0.55); k < total - 15; k++) {
    const p = (k + 0.5) / total;
    if (total * p === k + 0.5) return p;
  }
  return null;
}

function shoeRequests() {
  const r = rng(416);
  const reqs = [];
  for (let i = 0; i < 60; i++) {
    const decks = 1 + (i % 8);
    const total = 52 * decks;
    const penetration = i % 5 === 0 ? halfwayPenetration(total) ?? 0.75 : r.pick([0.01, 0.25, 0.5, 0.75, 0.8, 0.99, r.float() || 0.5]);
    const serverSeed = i % 4 === 0 ? r.pick(TRICKY_STRINGS) : r.hex(64);
    if (i % 3 === 0) {
      reqs.push({ op: 'shoe.tournament', serverSeed, tournamentId: r.pick(TRICKY_STRINGS) || 'T-1', hand: r.int(500), decks, penetration });
    } else {
      reqs.push({ op: 'shoe.deal', serverSeed, clientSeed: r.pick(TRICKY_STRINGS), nonce: r.int(10000), decks, penetration });
    }
  }
  return reqs;
}

test('shoe.deal and shoe.tournament agree with the oracle (1–8 decks, halves, clamps)', async () => {
  const reqs = shoeRequests();
  const want = runJson(PYTHON, [ORACLE, tempJson('shoe.json', reqs)]);
  const cuts = new Set();
  for (let i = 0; i < reqs.length; i++) {
    const { ok, error } = await execute(reqs[i]);
    assert.equal(error, undefined, JSON.stringify(error));
    assert.deepEqual(ok, want[i], `request ${i}: ${JSON.stringify(reqs[i])}`);
    const total = 52 * reqs[i].decks;
    if (ok.cut === Math.max(20, Math.round(total * 0.5))) cuts.add('low');
    if (ok.cut === total - 15) cuts.add('high');
  }
  assert.deepEqual([...cuts].sort(), ['high', 'low'], 'both clamps were exercised');
});

test('shoe facts the seed states: a permutation of the ordered shoe, and tournament = deal("T:k", k)', async () => {
  const ordered = shoe.orderedShoe(2);
  assert.deepEqual(ordered.slice(0, 14), ['AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S', 'TS', 'JS', 'QS', 'KS', 'AH']);
  assert.equal(ordered[51], 'KC');
  const dealt = await shoe.deal(P, 'seed', 'client', 3, 2, 0.75);
  assert.deepEqual([...dealt.cards].sort(), [...ordered].sort());
  const t = await shoe.tournament(P, 'seed', 'T-9', 4, 2, 0.75);
  assert.deepEqual(t, await shoe.deal(P, 'seed', 'T-9:4', 4, 2, 0.75));
});

test('the shoe byte stream is the cursor MACs at cursor = block, read across block boundaries', async () => {
  // DESIGN: block b of the stream equals cursor.raw at cursor b.
  const s = new shoe.ByteStream(P, 'k', 'c', 7);
  const bytes = [];
  for (let i = 0; i < 100; i++) bytes.push(await s.byte());
  const blocks = [];
  for (let b = 0; b < 4; b++) blocks.push(...(await raw(P, 'k', 'c', 7, b)));
  assert.deepEqual(bytes, blocks.slice(0, 100));
  // A two-byte draw starting at byte 31 takes one byte of each block.
  const t = new shoe.ByteStream(P, 'k', 'c', 7);
  for (let i = 0; i < 31; i++) await t.byte();
  const v = await t.index(65536);
  assert.equal(v, blocks[31] * 256 + blocks[32]);
});

test('ladder.shuffle agrees with the oracle (25 cases, sizes around a block of eight, large)', async () => {
  const r = rng(25);
  const reqs = [];
  for (const size of [1, 2, 8, 9, 16, 17, 25, 25, 25, 100, 1000, 100000]) {
    reqs.push({ op: 'ladder.shuffle', serverSeed: r.hex(64), clientSeed: r.pick(TRICKY_STRINGS), size });
  }
  for (const s of TRICKY_STRINGS) reqs.push({ op: 'ladder.shuffle', serverSeed: s, clientSeed: s, size: 25 });
  const want = runJson(PYTHON, [ORACLE, tempJson('ladder.json', reqs)]);
  for (let i = 0; i < reqs.length; i++) {
    const { ok } = await execute(reqs[i]);
    assert.deepEqual(ok, want[i], `request ${i}: size ${reqs[i].size}`);
  }
  assert.deepEqual(await ladder.shuffle(P, 'a', 'b', 1), { order: [0] });
});
