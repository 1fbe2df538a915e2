// stake.mjs against what Stake and its copies publish: the byte generator
// and generateFloats of the implementation and conversions pages run as
// written (over node:crypto, as the page's code does), the example floats
// and plinko path printed on Shuffle's copy of the game-events page, the
// Limbo example u32 = 9045414 (470.07), and the committed vectors (vectors/stake.json,
// written by the Rust side) once they exist.

import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { STAKE, cardFace } from '../cards.mjs';
import { firstDifference } from '../compare.mjs';
import { primitives } from '../crypto.mjs';
import { parseJson } from '../json.mjs';
import { execute } from '../provably.mjs';
import * as stake from '../stake.mjs';
import { REPO, TRICKY_STRINGS, rng } from '../testkit/helpers.mjs';
import { WEBCRYPTO } from '../webcrypto.mjs';

const P = primitives(WEBCRYPTO);
const ok = async (request) => {
  const r = await execute(request);
  assert.ok(r.ok, `${request.op}: ${JSON.stringify(r.error)}`);
  return r.ok;
};
const SEEDS = { serverSeed: 'def', clientSeed: 'abc', nonce: 0 };

// https://stake.com/provably-fair/implementation and /conversions, as
// printed there (lodash's _.chunk and reduce written out).
function* byteGenerator({ serverSeed, clientSeed, nonce, cursor }) {
  let currentRound = Math.floor(cursor / 32);
  let currentRoundCursor = cursor;
  currentRoundCursor -= currentRound * 32;
  while (true) {
    const hmac = createHmac('sha256', serverSeed);
    hmac.update(`${clientSeed}:${nonce}:${currentRound}`);
    const buffer = hmac.digest();
    while (currentRoundCursor < 32) {
      yield Number(buffer[currentRoundCursor]);
      currentRoundCursor += 1;
    }
    currentRoundCursor = 0;
    currentRound += 1;
  }
}
function generateFloats({ serverSeed, clientSeed, nonce, cursor, count }) {
  const rng = byteGenerator({ serverSeed, clientSeed, nonce, cursor });
  const bytes = [];
  while (bytes.length < count * 4) bytes.push(rng.next().value);
  const chunks = [];
  for (let i = 0; i < bytes.length; i += 4) chunks.push(bytes.slice(i, i + 4));
  return chunks.map((bytesChunk) => bytesChunk.reduce((result, value, i) => result + value / 256 ** (i + 1), 0));
}

describe('the float stream', () => {
  test('equals the published generateFloats over node:crypto, across rounds and for tricky seeds', async () => {
    const r = rng(28);
    const cases = [
      [r.hex(64), r.hex(10), 0, 1024],
      [r.hex(64), 'my seed', 7, 9],
      ...TRICKY_STRINGS.map((s) => [s || 'x', r.pick(TRICKY_STRINGS), r.int(1e6), r.int(40) + 1]),
    ];
    for (const [serverSeed, clientSeed, nonce, count] of cases) {
      const want = generateFloats({ serverSeed, clientSeed, nonce, cursor: 0, count });
      const got = await stake.floats(P, serverSeed, clientSeed, nonce, count);
      assert.deepEqual(got, want, JSON.stringify([serverSeed, clientSeed, nonce, count]));
    }
  });

  test("matches the example floats printed on Shuffle's copy of the game-events page (which are nonce 0's, though it says nonce=1)", async () => {
    // https://help.shuffle.com/en/articles/9286069-provably-fair-game-events, Plinko:
    // "floats = [0.8320531346835196, …] when clientSeed='abc', serverSeed='def', nonce=1, count=8"
    const printed = [0.8320531346835196, 0.8531235849950463, 0.18227359023876488, 0.774284637067467, 0.18627392360940576, 0.6012540922965854, 0.608081541955471, 0.46018488449044526];
    assert.deepEqual((await ok({ op: 'stake.floats', ...SEEDS, count: 8 })).floats, printed);
    assert.notDeepEqual((await ok({ op: 'stake.floats', ...SEEDS, nonce: 1, count: 8 })).floats, printed);
    // "Example: [1, 1, 0, 1, 0, 1, 1, 0] … finalPositionFromLeft = 5"
    const plinko = await ok({ op: 'stake.plinko', ...SEEDS, rows: 8, risk: 'low' });
    assert.deepEqual(plinko.path, [1, 1, 0, 1, 0, 1, 1, 0]);
    assert.equal(plinko.bucket, 5);
    assert.equal(plinko.multiplier, stake.PLINKO.low[8][5]);
  });
});

describe('the games', () => {
  test('dice is ⌊float · 10001⌋ / 100, two decimals, 0 to 100', async () => {
    assert.equal(stake.diceRoll(0), 0);
    assert.equal(stake.diceRoll(1 - 2 ** -32), 100);
    assert.equal(stake.diceRoll(0.4835), 48.35);
    const { floats } = await ok({ op: 'stake.floats', ...SEEDS, count: 1 });
    assert.equal((await ok({ op: 'stake.dice', ...SEEDS })).roll, Math.floor(floats[0] * 10001) / 100);
  });

  test("limbo follows the client's reading 1e8 / (⌊float · 1e8⌋ + 1) · 0.99; the docs' one parts from it near 0", () => {
    // u32 = 9045414 is 470.07 by both (the 2^24 form says 470.06).
    assert.equal(stake.limboMultiplier(9045414 / 2 ** 32), 470.07);
    assert.equal(stake.limboDocs(9045414 / 2 ** 32), 470.07);
    assert.equal(stake.limboMultiplier(0.99), 1);
    assert.equal(stake.limboMultiplier(0.999), 1, 'clamped at 1');
    assert.equal(stake.limboMultiplier(0.5), 1.97, 'the +1 takes a hair off: 1.9799999604');
    assert.equal(stake.limboDocs(0.5), 1.98);
    assert.equal(stake.limboMultiplier(0), 99000000, 'no division by zero');
    // u32 = 452638: the client's 9393.68, the docs' 9393.85.
    assert.equal(stake.limboMultiplier(452638 / 2 ** 32), 9393.68);
    assert.equal(stake.limboDocs(452638 / 2 ** 32), 9393.85);
  });

  test('plinko tables have rows + 1 symmetric buckets for every risk, and the path sums to the bucket', async () => {
    for (const risk of ['low', 'medium', 'high']) {
      for (let rows = 8; rows <= 16; rows++) {
        const t = stake.PLINKO[risk][rows];
        assert.equal(t.length, rows + 1, `${risk} ${rows}`);
        assert.deepEqual([...t].reverse(), [...t], `${risk} ${rows} is symmetric`);
      }
    }
    // The 16-row tables as https://stakebonushub.com/originals/plinko/ prints them.
    assert.deepEqual(stake.PLINKO.low[16], [16, 9, 2, 1.4, 1.4, 1.2, 1.1, 1, 0.5, 1, 1.1, 1.2, 1.4, 1.4, 2, 9, 16]);
    assert.deepEqual(stake.PLINKO.medium[16], [110, 41, 10, 5, 3, 1.5, 1, 0.5, 0.3, 0.5, 1, 1.5, 3, 5, 10, 41, 110]);
    const r = await ok({ op: 'stake.plinko', ...SEEDS, nonce: 3, rows: 16, risk: 'high' });
    assert.equal(r.path.length, 16);
    assert.equal(r.bucket, r.path.filter((d) => d === 1).length);
    assert.equal(r.multiplier, stake.PLINKO.high[16][r.bucket]);
  });

  test('every payout table returns 99 % (the 1 % edge Stake states), and high-risk wheels pay 9.9× at 10 and 49.5× at 50 segments', () => {
    // https://stake.com/fi/blog/how-to-play-wheel-on-stake: "a max payout of 49.5x when played on high risk at max
    // segments … high risk + 10 segments which has a payout of 9.9x". A mistyped entry moves the return.
    const choose = (n, k) => (k === 0 ? 1 : (choose(n, k - 1) * (n - k + 1)) / k);
    for (const risk of ['low', 'medium', 'high']) {
      for (let rows = 8; rows <= 16; rows++) {
        const rtp = stake.PLINKO[risk][rows].reduce((e, m, k) => e + (choose(rows, k) / 2 ** rows) * m, 0);
        assert.ok(Math.abs(rtp - 0.99) < 0.002, `plinko ${risk} ${rows}: ${rtp}`);
      }
      for (const n of [10, 20, 30, 40, 50]) {
        const t = stake.WHEEL[risk][n];
        assert.equal(t.length, n);
        assert.ok(Math.abs(t.reduce((a, b) => a + b, 0) / n - 0.99) < 1e-9, `wheel ${risk} ${n}`);
      }
    }
    assert.equal(Math.max(...stake.WHEEL.high[10]), 9.9);
    assert.equal(Math.max(...stake.WHEEL.high[50]), 49.5);
  });

  test('roulette, wheel and diamonds take one float each, keno, mines and video poker draw without replacement', async () => {
    const { floats } = await ok({ op: 'stake.floats', ...SEEDS, count: 52 });
    assert.equal((await ok({ op: 'stake.roulette', ...SEEDS })).pocket, Math.floor(floats[0] * 37));
    const w = await ok({ op: 'stake.wheel', ...SEEDS, segments: 50, risk: 'high' });
    assert.deepEqual(w, { segment: Math.floor(floats[0] * 50), multiplier: w.segment === 49 ? 49.5 : 0 });
    assert.deepEqual((await ok({ op: 'stake.diamonds', ...SEEDS })).gems, floats.slice(0, 5).map((f) => stake.GEMS[Math.floor(f * 7)]));
    const { hits } = await ok({ op: 'stake.keno', ...SEEDS });
    assert.equal(new Set(hits).size, 10);
    assert.ok(hits.every((h) => h >= 1 && h <= 40));
    // The first hit is the first float's square of all 40; the second one's of the 39 left.
    assert.equal(hits[0], Math.floor(floats[0] * 40) + 1);
    const left = Array.from({ length: 40 }, (_, i) => i + 1).filter((x) => x !== hits[0]);
    assert.equal(hits[1], left[Math.floor(floats[1] * 39)]);
    const { mines } = await ok({ op: 'stake.mines', ...SEEDS, mines: 24 });
    assert.equal(new Set(mines).size, 24);
    assert.deepEqual((await ok({ op: 'stake.mines', ...SEEDS, mines: 3 })).mines, mines.slice(0, 3));
    const deck = (await ok({ op: 'stake.videopoker', ...SEEDS })).cards;
    assert.deepEqual([...deck].sort((a, b) => a - b), Array.from({ length: 52 }, (_, i) => i));
    const hilo = (await ok({ op: 'stake.hilo', ...SEEDS })).cards;
    assert.deepEqual(hilo, floats.map((f) => Math.floor(f * 52)));
    assert.deepEqual((await ok({ op: 'stake.blackjack', ...SEEDS })).cards, hilo);
  });

  test("the CARDS index reads ♦2, ♥2, ♠2, ♣2, ♦3 … ♣A", () => {
    assert.deepEqual([0, 1, 2, 3, 4, 36, 51].map((c) => cardFace(STAKE, c).text), ['2♦', '2♥', '2♠', '2♣', '3♦', 'J♦', 'A♣']);
  });

  test('baccarat draws by the tableau (here in the alternating deal; the canonical one gives the player cards 1 and 2)', () => {
    // CARDS: value c // 4, so 4·(points − 2) is a card worth `points` (2 … 9); 32 is a ten (0), 48 an ace (1).
    const alt = (cards) => stake.baccarat(cards, { alternate: true });
    const of = (...points) => points.map((x) => (x === 0 ? 32 : x === 1 ? 48 : 4 * (x - 2)));
    // A natural 8 for the player: nobody draws.
    assert.deepEqual(alt(of(4, 2, 4, 3, 5, 6)), { cards: of(4, 2, 4, 3, 5, 6), player: of(4, 4), banker: of(2, 3), winner: 'player' });
    // Player 5 draws card 5 (a 2 → 7); banker 3 draws, since the player's third is not an 8.
    const r = alt(of(2, 1, 3, 2, 2, 4));
    assert.deepEqual([r.player, r.banker, r.winner], [of(2, 3, 2), of(1, 2, 4), 'tie']);
    // Player stands on 6; banker 5 draws the 5th card, not the 6th (5 + 9 is 4).
    const s = alt(of(3, 2, 3, 3, 9, 4));
    assert.deepEqual([s.player, s.banker, s.winner], [of(3, 3), of(2, 3, 9), 'player']);
    // Banker 6 draws only on a player's third card of 6 or 7.
    assert.deepEqual(alt(of(0, 3, 2, 3, 7, 1)).banker, of(3, 3, 1));
    assert.deepEqual(alt(of(0, 3, 2, 3, 5, 1)).banker, of(3, 3));
    // The canonical deal: cards 1 and 2 to the player, 3 and 4 to the banker.
    const c = stake.baccarat(of(4, 4, 2, 3, 5, 6));
    assert.deepEqual([c.player, c.banker, c.winner], [of(4, 4), of(2, 3), 'player']);
  });
});

describe('crash', () => {
  test("is the seeding event's formula, rounded down to two decimals", async () => {
    const hash = createHash('sha256').update('game').digest('hex');
    const salt = '0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4';
    const int = parseInt(createHmac('sha256', hash).update(salt).digest('hex').substr(0, 8), 16);
    const want = Math.floor(Math.max(1, (2 ** 32 / (int + 1)) * (1 - 0.01)) * 100) / 100;
    assert.equal((await ok({ op: 'stake.crash', hash, salt })).crashPoint, want);
  });

  test('chain distance counts SHA-256 steps of the hex text, and a limit that does not reach it is exhausted', async () => {
    const chain = ['seed'];
    for (let i = 0; i < 5; i++) chain.push(createHash('sha256').update(chain.at(-1)).digest('hex'));
    assert.equal((await ok({ op: 'stake.crash.chain', hash: chain[1], terminatingHash: chain[5], limit: 10 })).distance, 4);
    assert.equal((await ok({ op: 'stake.crash.chain', hash: chain[2], terminatingHash: chain[2], limit: 1 })).distance, 0);
    const far = await execute({ op: 'stake.crash.chain', hash: chain[1], terminatingHash: chain[5], limit: 3 });
    assert.equal(far.error?.kind, 'exhausted');
  });
});

describe('bad requests', () => {
  const cases = [
    [{ op: 'stake.plinko', ...SEEDS, rows: 7, risk: 'low' }, /^rows: 7 is below the minimum 8/],
    [{ op: 'stake.plinko', ...SEEDS, rows: 8, risk: 'extreme' }, /^risk: must be one of "low", "medium", "high"/],
    [{ op: 'stake.wheel', ...SEEDS, segments: 15, risk: 'low' }, /^segments: must be one of 10, 20, 30, 40, 50/],
    [{ op: 'stake.mines', ...SEEDS, mines: 25 }, /^mines: 25 is above the limit 24/],
    [{ op: 'stake.floats', ...SEEDS, count: 0 }, /^count: 0 is below the minimum 1/],
    [{ op: 'stake.crash', hash: 'ABC', salt: '' }, /^hash: "ABC" is not 64 lowercase hex digits/],
  ];
  for (const [request, message] of cases) {
    test(`${request.op}: ${message.source.slice(1, 30)}`, async () => {
      const r = await execute(request);
      assert.equal(r.error?.kind, 'invalid');
      assert.match(r.error.message, message);
    });
  }
});

const VECTORS = join(REPO, 'vectors/stake.json');
test('vectors/stake.json (the Rust side) reproduces', { skip: !existsSync(VECTORS) && 'vectors/stake.json is not there yet' }, async () => {
  const doc = parseJson(readFileSync(VECTORS, 'utf8'));
  const failures = [];
  let valid = 0;
  for (const g of doc.testGroups) {
    for (const t of g.tests) {
      if (t.result === 'invalid') {
        let got;
        try {
          got = await execute(parseJson(t.line));
        } catch {
          continue;
        }
        if (got.error?.kind !== 'invalid') failures.push(`${g.op} tcId ${t.tcId} must be invalid`);
        continue;
      }
      valid++;
      const got = await execute(t.input);
      const where = got.ok ? firstDifference(t.expected, got.ok) : `error ${JSON.stringify(got.error)}`;
      if (where !== null) failures.push(`${g.op} tcId ${t.tcId} (${t.comment}): ${where}`);
    }
  }
  assert.ok(valid > 0);
  assert.deepEqual(failures, []);
});
