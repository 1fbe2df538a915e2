// Poker against the published poker_referenz.py (seed 003): evaluation of
// thousands of hands through `bewerte`, deals through `austeilen`.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import * as poker from '../poker.mjs';
import { primitives } from '../crypto.mjs';
import { execute } from '../provably.mjs';
import { PUBLISHED, PYTHON, TRICKY_STRINGS, rng, runJson, tempJson } from '../testkit/helpers.mjs';
import { WEBCRYPTO } from '../webcrypto.mjs';

const POKER = join(PUBLISHED, 'poker_referenz.py');

/** Card from poker rank (2 … 14) and suit (0 … 3). */
const card = (rank, suit) => suit * 13 + (rank === 14 ? 0 : rank - 1);

// Hands where a sloppy evaluator goes wrong; poker_referenz.py decides.
const EDGE_HANDS = [
  [card(14, 0), card(2, 1), card(3, 2), card(4, 3), card(5, 0)], // wheel
  [card(14, 0), card(2, 0), card(3, 0), card(4, 0), card(5, 0)], // steel wheel
  [card(10, 1), card(11, 1), card(12, 1), card(13, 1), card(14, 1), card(9, 1), card(8, 1)], // royal + lower SF
  [card(14, 0), card(2, 0), card(3, 0), card(4, 0), card(5, 0), card(6, 1)], // wheel flush vs 6-high straight
  [card(9, 0), card(9, 1), card(9, 2), card(5, 0), card(5, 1), card(5, 2), card(2, 3)], // two sets of trips
  [card(9, 0), card(9, 1), card(9, 2), card(5, 0), card(5, 1), card(4, 2), card(4, 3)], // trips + two pairs
  [card(8, 0), card(8, 1), card(6, 2), card(6, 3), card(4, 0), card(4, 1), card(3, 2)], // three pairs, kicker is a pair
  [card(8, 0), card(8, 1), card(6, 2), card(6, 3), card(4, 0), card(4, 1), card(13, 2)], // three pairs, higher kicker
  [card(7, 0), card(7, 1), card(7, 2), card(7, 3), card(3, 0), card(3, 1), card(3, 2)], // quads + trips
  [card(7, 0), card(7, 1), card(7, 2), card(7, 3), card(3, 0), card(14, 1)], // quads, ace kicker
  [card(2, 0), card(5, 0), card(7, 0), card(9, 0), card(11, 0), card(12, 0), card(13, 0)], // seven-card flush
  [card(2, 0), card(5, 0), card(7, 0), card(9, 0), card(11, 0), card(10, 1), card(8, 2)], // flush beats straight
  [card(6, 0), card(6, 1), card(6, 2), card(2, 0), card(3, 0), card(4, 0), card(5, 0)], // SF beats full house? no: 2-6 SF
  [card(10, 0), card(11, 1), card(12, 2), card(13, 3), card(14, 0), card(14, 1), card(14, 2)], // straight vs trips
  [card(2, 0), card(3, 1), card(4, 2), card(5, 3), card(6, 0), card(7, 1), card(14, 2)], // 7-high straight with ace
  [card(14, 0), card(13, 1), card(11, 2), card(9, 3), card(7, 0), card(5, 1), card(3, 2)], // high card of seven
];

function randomHands(count) {
  const r = rng(52);
  const hands = [];
  for (let h = 0; h < count; h++) {
    const size = 5 + (h % 3);
    const cards = new Set();
    // Every tenth hand draws from few ranks so that pairs, trips and quads come often.
    const dense = h % 10 === 0;
    while (cards.size < size) cards.add(dense ? r.int(4) * 13 + r.int(4) : r.int(52));
    hands.push([...cards]);
  }
  return hands;
}

test('evaluate agrees with poker_referenz.py bewerte on edge hands and 6000 random hands', () => {
  const hands = [...EDGE_HANDS, ...randomHands(6000)];
  const expected = runJson(PYTHON, [POKER, 'bewerte', tempJson('hands.json', hands)]);
  assert.equal(expected.length, hands.length);
  const seen = new Set();
  for (let i = 0; i < hands.length; i++) {
    const [category, ranks] = expected[i];
    seen.add(category);
    assert.deepEqual(poker.evaluate(hands[i]), { category, ranks }, `hand ${i}: ${JSON.stringify(hands[i])}`);
  }
  // Every category must have been checked at least once.
  assert.deepEqual([...seen].sort(), [...poker.CATEGORIES].sort());
});

test('deal agrees with poker_referenz.py austeilen for 2 … 22 players', async () => {
  const r = rng(22);
  // Command-line arguments cannot carry NUL.
  const strings = TRICKY_STRINGS.filter((x) => !x.includes('\0'));
  for (let players = 2; players <= 22; players++) {
    const serverSeed = players % 4 === 0 ? r.pick(strings) || 's' : r.hex(64);
    const clientSeed = players % 3 === 0 ? r.pick(strings) : r.hex(16);
    const nonce = r.int(1000);
    const want = runJson(PYTHON, [POKER, 'austeilen', serverSeed, clientSeed, String(nonce), String(players)]);
    const got = await poker.deal(primitives(WEBCRYPTO), serverSeed, clientSeed, nonce, players);
    assert.deepEqual(got, { hole: want.loch, board: want.board }, `players ${players}`);
  }
});

test('poker.evaluate through execute rejects duplicates and bad counts', async () => {
  const bad = [[0, 1, 2, 3], [0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 3], [0, 1, 2, 3, 52], [0, 1, 2, 3, 4.5]];
  for (const cards of bad) {
    const r = await execute({ op: 'poker.evaluate', cards });
    assert.equal(r.error?.kind, 'invalid', JSON.stringify(cards));
  }
});
