// The Stake panels' words in node, without a browser: how a result reads
// (two decimals with a comma, ×-multipliers, the roulette colours, the
// gems), every error of the stake ops in German, and the form reader of
// web/stake.mjs (keno and mines typed in any order).

import assert from 'node:assert/strict';
import { register } from 'node:module';
import { describe, test } from 'node:test';
import { execute } from '../../reference/js/provably.mjs';

register(`data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('./js/') && context.parentURL && /\\/web\\/[^/]+\\.mjs$/.test(context.parentURL)) {
    return next(new URL('../reference/js/' + specifier.slice(5), context.parentURL).href, context);
  }
  return next(specifier, context);
}`)}`);

const view = await import('../stakeview.mjs');
const german = await import('../german.mjs');
const { STAKE_GAME } = await import('../stake.mjs');
const ENGLISH = /\b(must|got|above|below|limit|missing|field|minimum|maximum|strictly|between|invalid|error|exhausted|cannot|the|is not|one of|lowercase|hex digits)\b/i;
const SEEDS = { serverSeed: 's', clientSeed: 'c', nonce: 0 };

describe('stakeview.mjs', () => {
  test('numbers read as Stake prints them, with the German comma', () => {
    assert.equal(view.twoDecimals(48.3), '48,30');
    assert.equal(view.twoDecimals(100), '100,00');
    assert.equal(view.times(470.07), '×470,07');
    assert.equal(view.times(1), '×1,00');
  });

  test('roulette colours of the single-zero wheel', () => {
    assert.deepEqual([0, 1, 2, 10, 11, 19, 36].map(view.pocketText), ['0 Grün', '1 Rot', '2 Schwarz', '10 Schwarz', '11 Schwarz', '19 Rot', '36 Rot']);
  });

  test('each op has its line; an op that is not Stake\'s has none', () => {
    assert.equal(view.stakeShown('stake.dice', { roll: 48.3 }), 'Würfelzahl: 48,30');
    assert.equal(view.stakeShown('stake.plinko', { path: [1, 0, 1], bucket: 2, multiplier: 0.5 }), 'Plinko: rechts, links, rechts → Fach 3 von 4, ×0,50');
    assert.equal(view.stakeShown('stake.mines', { mines: [0, 24] }), 'Minen auf Feld 1, 25');
    assert.equal(view.stakeShown('stake.baccarat', { player: [28, 48], banker: [32, 0], winner: 'player' }), 'Spieler 9♦ A♦ (0) · Bank 10♦ 2♦ (2) · Spieler gewinnt');
    assert.equal(view.stakeShown('stake.diamonds', { gems: ['green', 'cyan'] }), 'Diamanten: Grün Türkis');
    assert.equal(view.stakeShown('dice.roll', { face: 3 }), null);
  });
});

describe('stake errors in German', () => {
  test('every error a stake op gives for a bad request reads in German', async () => {
    const bad = [
      { op: 'stake.plinko', ...SEEDS, rows: 17, risk: 'low' },
      { op: 'stake.plinko', ...SEEDS, rows: 8, risk: 'extrem' },
      { op: 'stake.wheel', ...SEEDS, segments: 15, risk: 'low' },
      { op: 'stake.mines', ...SEEDS, mines: 0 },
      { op: 'stake.floats', ...SEEDS, count: 2000 },
      { op: 'stake.crash', hash: 'xyz', salt: 's' },
      { op: 'stake.crash.chain', hash: 'a'.repeat(64), terminatingHash: 'b'.repeat(64), limit: 2 },
      { op: 'stake.dice', clientSeed: 'c', nonce: 0 },
    ];
    for (const request of bad) {
      const r = await execute(request);
      assert.ok(r.error, JSON.stringify(request));
      const text = german.germanError(r.error.message);
      assert.doesNotMatch(text, /ungültige Angabe\.$/, `${r.error.message} -> ${text}`);
      assert.doesNotMatch(text, ENGLISH, `${r.error.message} -> ${text}`);
    }
  });
});

describe('the Stake form', () => {
  const values = (op, extra) => ({ op, serverSeed: 's', clientSeed: 'c', nonce: '0', rows: '8', segments: '10', risk: 'low', mines: '3', commit: '', roll: '', multiplier: '', path: '', pocket: '', tiles: '', hits: '', cards: '', player: '', banker: '', gems: '', ...extra });

  test('keno hits typed in any order are compared in draw order; a number not drawn stays a difference', async () => {
    const { hits } = (await execute({ op: 'stake.keno', ...SEEDS })).ok;
    const sorted = [...hits].sort((a, b) => a - b).join(' ');
    let built = await STAKE_GAME.build(values('stake.keno', { hits: sorted }), { execute });
    assert.deepEqual(built.epoch.rounds[0].observed.hits, hits);
    const missing = Array.from({ length: 40 }, (_, i) => i + 1).find((n) => !hits.includes(n));
    built = await STAKE_GAME.build(values('stake.keno', { hits: `${missing} ${hits[3]}` }), { execute });
    const seen = built.epoch.rounds[0].observed.hits;
    assert.equal(seen[3], hits[3]);
    assert.ok(seen.includes(missing) && !hits.includes(missing));
  });

  test('mines are typed 1 to 25 and compared as tiles 0 to 24', async () => {
    const { mines } = (await execute({ op: 'stake.mines', ...SEEDS, mines: 3 })).ok;
    const built = await STAKE_GAME.build(values('stake.mines', { tiles: mines.map((t) => t + 1).reverse().join(',') }), { execute });
    assert.deepEqual(built.epoch.rounds[0].observed.mines, mines);
  });

  test('numbers, paths, cards and gems are read the way players write them', async () => {
    const read = async (op, extra) => (await STAKE_GAME.build(values(op, extra), { execute })).epoch.rounds[0].observed;
    assert.deepEqual(await read('stake.dice', { roll: '48,35' }), { roll: 48.35 });
    assert.deepEqual(await read('stake.limbo', { multiplier: '×470,07' }), { multiplier: 470.07 });
    assert.deepEqual(await read('stake.plinko', { path: 'LRRL', multiplier: '' }), { path: [0, 1, 1, 0] });
    assert.deepEqual(await read('stake.hilo', { cards: 'A♣ 2♦ 10H ?' }), { cards: [51, 0, 33, null] });
    assert.deepEqual(await read('stake.diamonds', { gems: 'Grün türkis blau' }), { gems: ['green', 'cyan', 'blue'] });
    await assert.rejects(read('stake.dice', { roll: 'viel' }), (e) => e.field === 'roll' && /keine Zahl/.test(e.message));
    await assert.rejects(read('stake.keno', { hits: '3 3' }), (e) => e.field === 'hits');
  });
});
