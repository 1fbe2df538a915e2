// Blackjack (seed 003): blackjack.mjs's charts against the published
// TypeScript basisstrategie (run unedited by reference/adapters/
// blackjack_ts_target.mjs) on every legal situation, enumerated here; and
// the op's domain: field limits, the rules that tie fields together, the
// default of doubleAfterSplit, an unknown field.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { handValue, strategy } from '../blackjack.mjs';
import { execute } from '../provably.mjs';
import { REPO, spawnTarget } from '../testkit/helpers.mjs';

const OP = 'blackjack.strategy';
const ADAPTER = join(REPO, 'reference/adapters/blackjack_ts_target.mjs');
const HAS_TYPESCRIPT = existsSync(join(REPO, 'node_modules/typescript/package.json'));

const pip = (c) => Math.min((c % 13) + 1, 10);

/**
 * Every legal situation, written from the domain's description: every
 * ordered pair of card numbers against every up-card, with and without
 * double, split where the two are a pair, DAS on and off; and every
 * multiset of three or more pips that is not bust, as card numbers that
 * cycle through the suits, against every up-card, DAS on and off.
 */
function* situations() {
  for (let a = 0; a < 52; a++) {
    for (let b = 0; b < 52; b++) {
      const pair = pip(a) === pip(b);
      for (let dealer = 2; dealer <= 11; dealer++) {
        for (const canDouble of [false, true]) {
          for (const canSplit of pair ? [false, true] : [false]) {
            for (const doubleAfterSplit of [true, false]) {
              yield { cards: [a, b], dealer, canDouble, canSplit, doubleAfterSplit };
            }
          }
        }
      }
    }
  }
  const hands = [];
  const grow = (minPip, total, pips) => {
    if (pips.length >= 3) hands.push([...pips]);
    for (let p = minPip; p <= 10 && total + p <= 21; p++) grow(p, total + p, [...pips, p]);
  };
  grow(1, 0, []);
  for (const pips of hands) {
    const seen = new Map();
    const cards = pips.map((p) => {
      const k = seen.get(p) ?? 0;
      seen.set(p, k + 1);
      // Ten-valued cards cycle through ten, jack, queen, king, then the suits.
      return p === 10 ? (Math.floor(k / 4) % 4) * 13 + 9 + (k % 4) : (k % 4) * 13 + p - 1;
    });
    for (let dealer = 2; dealer <= 11; dealer++) {
      for (const doubleAfterSplit of [true, false]) {
        yield { cards, dealer, canDouble: false, canSplit: false, doubleAfterSplit };
      }
    }
  }
}

test('every legal situation: blackjack.mjs answers as the published TypeScript', { skip: !HAS_TYPESCRIPT && 'node_modules/typescript is missing (npm ci)' }, async () => {
  const all = [...situations()];
  assert.equal(all.length, 184500);
  const lines = [JSON.stringify({ id: 0, op: 'hello', protocol: 1 })];
  all.forEach((s, i) => lines.push(JSON.stringify({ id: i + 1, op: OP, ...s })));
  const { code, responses } = await spawnTarget(process.execPath, [ADAPTER], `${lines.join('\n')}\n`, { timeout: 120000 });
  assert.equal(code, 0);
  assert.equal(responses.length, all.length + 1);
  const disagree = [];
  for (const [i, s] of all.entries()) {
    const published = responses[i + 1];
    assert.equal(published.id, i + 1);
    const ours = await execute({ op: OP, ...s });
    if (ours.ok?.action !== published.ok?.action) {
      disagree.push(`${JSON.stringify(s)}: published ${JSON.stringify(published)}, blackjack.mjs ${JSON.stringify(ours)}`);
    }
  }
  assert.deepEqual(disagree.slice(0, 20), [], `${disagree.length} situations disagree`);
});

describe('what the published function does that its comments do not say', () => {
  test('A,A that may not be split stands against 4, 5 and 6, like a hard 12', () => {
    const aa = (dealer) => strategy({ cards: [0, 13], dealer, canDouble: true, canSplit: false });
    assert.deepEqual([2, 3, 4, 5, 6, 7, 11].map(aa), ['ziehen', 'ziehen', 'stehen', 'stehen', 'stehen', 'ziehen', 'ziehen']);
    assert.equal(strategy({ cards: [0, 13], dealer: 5, canDouble: true, canSplit: true }), 'teilen');
  });

  test('doubleAfterSplit changes no answer, and left out it is true', async () => {
    for (let dealer = 2; dealer <= 11; dealer++) {
      for (const cards of [[3, 16], [1, 14], [5, 18], [0, 13]]) {
        const ask = (more) => execute({ op: OP, cards, dealer, canDouble: true, canSplit: true, ...more });
        const [left, on, off] = await Promise.all([ask({}), ask({ doubleAfterSplit: true }), ask({ doubleAfterSplit: false })]);
        assert.deepEqual(on, left);
        assert.deepEqual(off, left, `${cards} against ${dealer}`);
      }
    }
  });

  test('hand values count every ace but one as 1', () => {
    assert.deepEqual(handValue([0, 13]), { total: 12, soft: true });
    assert.deepEqual(handValue([0, 5, 9]), { total: 17, soft: false });
    assert.deepEqual(handValue([0, 13, 8]), { total: 21, soft: true });
    assert.deepEqual(handValue([0, 12]), { total: 21, soft: true });
  });
});

describe('bad input is invalid, naming the field', () => {
  const base = { op: OP, cards: [1, 2], dealer: 6, canDouble: false, canSplit: false };
  const cases = [
    [{ cards: [5] }, /^cards: must hold 2 to 21 cards, got 1$/],
    [{ cards: new Array(22).fill(0) }, /^cards: must hold 2 to 21 cards, got 22$/],
    [{ cards: [5, 52] }, /^cards\[1\]: 52 is not a card/],
    [{ cards: [5, -1] }, /^cards\[1\]: -1 is not a card/],
    [{ cards: [5, 1.5] }, /^cards\[1\]: must be an integer/],
    [{ cards: [5, '7'] }, /^cards\[1\]: must be an integer/],
    [{ cards: 'A,A' }, /^cards: must be an array/],
    [{ cards: new Array(7).fill(0) }, /^cards\[6\]: card 0 appears more than 6 times$/],
    [{ cards: [9, 12, 5] }, /^cards: the hand is bust \(hard total 26\); there is no decision to make$/],
    [{ dealer: 1 }, /^dealer: 1 is below the minimum 2$/],
    [{ dealer: 12 }, /^dealer: 12 is above the limit 11$/],
    [{ cards: [1, 2, 3], canDouble: true }, /^canDouble: true with 3 cards; doubling is only allowed on the first two cards$/],
    [{ canSplit: true }, /^canSplit: true but the cards are not a pair \(count values 2 and 3\)$/],
    [{ cards: [1, 14, 27], canSplit: true }, /^canSplit: true with 3 cards; only a two-card pair can be split$/],
    [{ doubleAfterSplit: 'yes' }, /^doubleAfterSplit: must be true or false/],
    [{ canDouble: undefined }, /^missing field canDouble/],
    // A rules flag the op does not know is an error, never a silent default.
    [{ surrender: false }, /^unknown field "surrender"/],
    [{ decks: 6 }, /^unknown field "decks"/],
  ];
  for (const [change, message] of cases) {
    test(JSON.stringify(change), async () => {
      const request = { ...base, ...change };
      for (const [k, v] of Object.entries(request)) if (v === undefined) delete request[k];
      const got = await execute(request);
      assert.equal(got.error?.kind, 'invalid', JSON.stringify(got));
      assert.match(got.error.message, message);
    });
  }

  test('the largest legal hand, 21 aces (six of each of three card numbers, three of the fourth)', async () => {
    const aces = [...new Array(6).fill(0), ...new Array(6).fill(13), ...new Array(6).fill(26), 39, 39, 39];
    assert.deepEqual(await execute({ ...base, cards: aces, dealer: 10 }), { ok: { action: 'stehen' } });
  });
});
