// The crash family's panels – bustabit, Roobet, BC.Game – in a real browser
// (Debian's chromium driven by playwright-core, the page served by
// `provably web`), all in one page opening (its self-test is the cost of
// a test): one game of each site and a history of each, and a crash
// history pasted as a whole proof. What the page says is held to numbers
// it did not make: the bustabit crate 0.2.1's published game (b2acd37f… →
// 1.26), the Rust ops' answers through `provably serve`, and chains walked
// with node:crypto. Prerequisites are handled as in browser.test.mjs.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, CHROMIUM, ROOT, browserSuiteReady, pageUnderTest } from '../../reference/js/testkit/browser.mjs';

const STEP = 20000;
const SELFTEST_WAIT = 30000;

const ready = browserSuiteReady({ required: 'crash browser test prerequisites', skipped: 'crash panels in chromium' });

/** The Rust op's answers to `requests`, through `provably serve`. */
function rust(...requests) {
  const input = requests.map((r, i) => JSON.stringify({ id: i, ...r })).join('\n') + '\n';
  const r = spawnSync(BIN, ['serve'], { input, encoding: 'utf8', timeout: STEP });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((line) => JSON.parse(line).ok);
}

const sha256 = (data) => createHash('sha256').update(data).digest();
/** A chain of `n` games down from the hash of `name`: hashes[0] is the newest, `terminating` what the oldest links to. */
function chain(name, n, link) {
  const hashes = [];
  let h = sha256(name).toString('hex');
  for (let i = 0; i < n; i++) {
    hashes.push(h);
    h = (link === 'bytes' ? sha256(Buffer.from(h, 'hex')) : sha256(h)).toString('hex');
  }
  return { hashes, terminating: h };
}

/** ×1,26 from 1.26, as the page writes a crash point. */
const de = (x) => x.toFixed(2).replace('.', ',');
const PREV_SALT = '0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526';
const ROOBET_SALT = '0xd2867566759e9158bda9bf93b343bbd9aa02ce1e0c5bc2b37a2d70d391b04f14';
const BCGAME_SALT = '0000000000000000000301e2801a9a9598bfb114e574a91a887f2132f33047e6';
/** Every field of the three panels, empty: a step sets only its own. */
const EMPTY = { hash: '', crashPoint: '', history: '' };

if (ready) describe('crash panels: bustabit, Roobet, BC.Game', { timeout: 600000 }, () => {
  let server;
  let browser;
  pageUnderTest({ bin: BIN, root: ROOT, executablePath: CHROMIUM, step: STEP }, (s, b) => {
    server = s;
    browser = b;
  });

  /** Fills panel `id` and presses Prüfen: the verdict for exactly these inputs. */
  async function run(page, id, values) {
    await page.click(`#tab-${id}`);
    for (const [name, value] of Object.entries(values)) {
      const sel = `#${id}-${name}`;
      if ((await page.$eval(sel, (e) => e.tagName)) === 'SELECT') await page.selectOption(sel, String(value));
      else await page.fill(sel, String(value));
    }
    const before = Number(await page.getAttribute(`#${id}-verdict`, 'data-run'));
    await page.click(`#${id}-run`);
    const handle = await page.waitForFunction(([sel, n]) => {
      const v = document.querySelector(sel);
      return v.dataset.state === 'done' && Number(v.dataset.run) > n && { verdict: v.dataset.verdict, text: v.textContent };
    }, [`#${id}-verdict`, before], { timeout: STEP });
    return handle.jsonValue();
  }

  /** A history's lines as a player pastes them: number, hash, point (German comma). */
  const lines = (games) => games.map((g) => [g.number, g.hash, g.point === undefined ? '' : de(g.point)].join(' ').trim()).join('\n');

  test('one game and a history of each site, and a history pasted as a proof', { timeout: 240000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    context.setDefaultTimeout(STEP);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    try {
      await page.goto(server.url);
      await page.waitForSelector('#selftest:not([data-state="running"])', { timeout: SELFTEST_WAIT });
      assert.equal(await page.getAttribute('#selftest', 'data-state'), 'passed', await page.textContent('#selftest-status'));
      // The tabs are the sites as their players name them.
      assert.deepEqual(await Promise.all(['bustabit', 'roobet', 'bcgame-crash'].map((id) => page.textContent(`#tab-${id}`))), ['bustabit', 'Roobet', 'BC.Game Crash']);

      // bustabit: the crate's published game of the 2018 chain (game numbers up to 10,000,000).
      const published = 'b2acd37fbdb5509926ab5d7329704c840f8467266c90019682f3b260a029bdba';
      let v = await run(page, 'bustabit', { ...EMPTY, number: '5000', hash: published, crashPoint: '1,26', terminatingHash: '' });
      assert.equal(v.verdict, 'match', v.text);
      assert.equal(await page.textContent('#bustabit-shown'), '×1,26');
      v = await run(page, 'bustabit', { crashPoint: '1.27x' });
      assert.equal(v.verdict, 'mismatch', v.text);
      assert.ok(v.text.includes('gesehen ×1,27, berechnet ×1,26'), v.text);
      // A game of the Vx period is refused, in German.
      v = await run(page, 'bustabit', { number: '11000000', crashPoint: '' });
      assert.equal(v.verdict, 'invalid');
      assert.match(v.text, /Vx-Signatur/);

      // Roobet and BC.Game: one game each, against the Rust op.
      const game = sha256('crash page one game').toString('hex');
      const [roobet, bcgame] = rust(
        { op: 'crash.v1', hash: game, salt: ROOBET_SALT, divisor: 25, instant: 1 },
        { op: 'crash.v2', hash: game, salt: BCGAME_SALT, bcgame: true },
      );
      v = await run(page, 'roobet', { ...EMPTY, hash: game, crashPoint: `×${de(roobet.crashPoint)}`, divisor: '25' });
      assert.equal(v.verdict, 'match', v.text);
      v = await run(page, 'bcgame-crash', { ...EMPTY, hash: game, crashPoint: de(bcgame.crashPoint) });
      assert.equal(v.verdict, 'match', v.text);
      // Its link names the game (crash.v2 is bustabit's too) and opens it again, checked.
      await page.click('#bcgame-link');
      const link = new URL(await page.inputValue('#bcgame-link-url')).hash;
      assert.match(link, /^#crash\.v2&game=bcgame&/);
      const runs = Number(await page.getAttribute('#bcgame-verdict', 'data-run'));
      await page.click('#tab-roobet');
      // "Link zu dieser Prüfung" put it in the address bar: opened again, it must change the fragment.
      await page.evaluate((h) => {
        history.replaceState(null, '', location.pathname);
        location.hash = h;
      }, link);
      await page.waitForFunction((n) => {
        const v = document.querySelector('#bcgame-verdict');
        return v.dataset.state === 'done' && Number(v.dataset.run) > n;
      }, runs);
      assert.equal(await page.getAttribute('#tab-bcgame', 'aria-selected'), 'true');
      assert.equal(await page.getAttribute('#bcgame-verdict', 'data-verdict'), 'match');

      // A history of each: games 1 … 8 of a chain of their link, points from the Rust op.
      const sites = [
        ['bustabit', 'text', { op: 'crash.v2', salt: PREV_SALT }],
        ['roobet', 'text', { op: 'crash.v1', salt: ROOBET_SALT, divisor: 25, instant: 1 }],
        ['bcgame-crash', 'text', { op: 'crash.v2', salt: BCGAME_SALT, bcgame: true }],
      ];
      for (const [id, link, variant] of sites) {
        const c = chain(`crash page ${id}`, 8, link);
        const points = rust(...c.hashes.map((hash) => ({ ...variant, hash }))).map((ok) => ok.crashPoint);
        const games = c.hashes.map((hash, i) => ({ number: 8 - i, hash, point: points[i] }));
        v = await run(page, id, { ...EMPTY, terminatingHash: c.terminating, history: lines(games) });
        assert.equal(v.verdict, 'match', `${id}: ${v.text}`);
        assert.equal(await page.locator(`#${id}-history tbody tr[data-verdict="match"]`).count(), 8, id);
        // Game 5's point a cent off, game 3 left out: a mismatch at game 5 and a gap.
        const tampered = games.filter((g) => g.number !== 3).map((g) => (g.number === 5 ? { ...g, point: g.point + 0.01 } : g));
        v = await run(page, id, { history: lines(tampered) });
        assert.equal(v.verdict, 'mismatch', `${id}: ${v.text}`);
        assert.ok(v.text.includes(`Spiel 5: gesehen ×${de(games[3].point + 0.01)}`), `${id}: ${v.text}`);
        assert.match(await page.textContent(`#panel-${id}`), /Es fehlt 1 Spiel zwischen/);
      }
      // bustabit's own terminating hash (the field left empty): these games are not on its chain.
      const c = chain('crash page bustabit', 2, 'text');
      v = await run(page, 'bustabit', { ...EMPTY, terminatingHash: '', history: `2 ${c.hashes[0]}\n1 ${c.hashes[1]}` });
      assert.equal(v.verdict, 'mismatch', v.text);
      assert.match(v.text, /Spiel 2: gesehen den Hash/);

      // A crash history of every variant, the proof vectors' own, pasted whole (version 2).
      const vectors = JSON.parse(readFileSync(join(ROOT, 'vectors/proofs.json'), 'utf8'));
      const every = vectors.tests.find((t) => t.comment.startsWith('valid: a crash history of each variant'));
      await page.fill('#proof-text', every.text);
      await page.click('#proof-run');
      await page.waitForSelector('#proof-verdict[data-state="done"]');
      assert.equal(await page.getAttribute('#proof-verdict', 'data-verdict'), 'match', await page.textContent('#proof-verdict'));
      assert.equal(await page.locator('#proof-result li.round[data-verdict="match"]').count(), every.expected.match);
      assert.match(await page.textContent('#proof-result'), /Kette bis zum Endhash/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
