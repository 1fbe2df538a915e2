// Regressions of the page: links that say nothing, documents too big to
// draw at once, gaps in a bet history, and costly rounds from a link. Real
// Chromium, the page served by `provably web --port 0 --root <repo>` as in
// page.test.mjs (which says how prerequisites are found). Items 1 to 4 run
// on a phone and on a desktop.
//
// Expected values come from the Rust side (`provably proof`, `provably
// audit`), the committed examples and vectors, never from the page.
//
// Long tasks: a PerformanceObserver('longtask') in the page, reset once the
// self-test has passed, so only the work the tested input causes counts.
// The goal is no task over 200 ms; on this shared 2-core machine another
// process can stretch one task past it, so a test loads the page up to
// three times and needs one load within the goal (as page.test.mjs does).
// The code before the fix failed every load: its task took seconds.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, CHROMIUM, REPO, ROOT, browserSuiteReady, pageUnderTest } from '../../reference/js/testkit/browser.mjs';
import { base64url, loadVectors } from '../../reference/js/testkit/proofs.mjs';

const STEP = 20000;
const BIG_WAIT = 240000;
const LONG_TASK_MS = 200;
const VIEWPORTS = [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 800 }]];
const example = (name) => readFileSync(join(REPO, 'examples/proofs', name), 'utf8');

const ready = browserSuiteReady({ required: 'links and large proofs prerequisites', skipped: 'links and large proofs' });

/** `provably audit`'s report of a proof text (exit 0 or 1: a verdict). */
function rustAudit(text) {
  const dir = mkdtempSync(join(tmpdir(), 'provably-34-'));
  writeFileSync(join(dir, 'p.json'), text);
  const r = spawnSync(BIN, ['audit', '-q', '--report', join(dir, 'r.json'), join(dir, 'p.json')], { encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `audit exit ${r.status}: ${r.stderr}`);
  return JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
}

/** A proof made by `provably proof --group --commit` from request lines. */
function rustProof(requests) {
  const dir = mkdtempSync(join(tmpdir(), 'provably-34-'));
  writeFileSync(join(dir, 'req.jsonl'), requests.map((r) => JSON.stringify(r)).join('\n'));
  const made = spawnSync(BIN, ['proof', '--requests', join(dir, 'req.jsonl'), '--group', '--commit'], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  return made.stdout;
}

if (ready) describe('links and large proofs', { timeout: 1800000 }, () => {
  let server;
  let browser;
  const vectors = loadVectors();
  pageUnderTest({ bin: BIN, root: ROOT, executablePath: CHROMIUM, step: STEP }, (s, b) => {
    server = s;
    browser = b;
  });

  /** A fresh page, self-test passed; long tasks are recorded from then on (window.__long). */
  async function open(hash = '', { viewport = VIEWPORTS[1][1] } = {}) {
    const context = await browser.newContext({ viewport });
    context.setDefaultTimeout(STEP);
    await context.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({ type: 'longtask', buffered: true });
    });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    await page.goto(server.url + hash);
    await page.waitForSelector('body[data-selftest="passed"]', { timeout: BIG_WAIT });
    return { page, context, problems };
  }

  const longTasks = (page) => page.evaluate(() => window.__long.splice(0));
  const setHash = (page, h) => page.evaluate((x) => (location.hash = x), h);

  async function proofVerdict(page, timeout = STEP) {
    await page.waitForSelector('#proof-verdict[data-state="done"]', { timeout });
    return page.$eval('#proof-verdict', (v) => ({ ...v.dataset, text: v.textContent }));
  }

  const inView = (page, sel) => page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return r.top >= -2 && r.top < window.innerHeight - 40;
  });

  /**
   * Runs `attempt(page)` on up to three fresh pages; each returns after its
   * input's result is drawn. Asserts that one attempt had no long task over
   * the goal, and that no attempt raised a page error.
   */
  async function withinGoal(label, viewport, attempt) {
    const longest = [];
    for (let i = 0; i < 3; i++) {
      const { page, context, problems } = await open('', { viewport });
      try {
        await longTasks(page);
        await attempt(page);
        // Whatever the result still draws in pieces (setTimeout chunks) runs within this second.
        await page.waitForTimeout(1000);
        const long = await longTasks(page);
        console.log(`${label}, attempt ${i + 1}: long tasks ${JSON.stringify(long)}`);
        assert.deepEqual(problems, []);
        longest.push(Math.max(0, ...long));
        if (longest.at(-1) <= LONG_TASK_MS) break;
      } finally {
        await context.close();
      }
    }
    assert.ok(Math.min(...longest) <= LONG_TASK_MS, `${label}: the longest main-thread task of each attempt, in ms: ${longest}`);
  }

  for (const [name, viewport] of VIEWPORTS) {
    test(`(${name}) a fragment that holds no proof replaces the old verdict`, { timeout: BIG_WAIT }, async () => {
      const dice = example('dice-game.json');
      assert.equal(rustAudit(dice).verdict, 'match');
      const { page, context, problems } = await open(`#proof=${base64url(dice)}`, { viewport });
      try {
        for (const hash of ['#proof', '#javascript:alert(1)', '#%E0%A4%A', `#${'x'.repeat(50)}`]) {
          // The matching proof first, so that each fragment has an old verdict to replace.
          await setHash(page, `#proof=${base64url(dice)}`);
          await page.waitForFunction(() => document.querySelector('#proof-verdict')?.dataset.verdict === 'match' && document.querySelector('#proof-source')?.textContent.includes('aus dem Link'));
          await setHash(page, hash);
          await page.waitForSelector('#proof-verdict[data-link="none"]');
          const v = await proofVerdict(page);
          assert.equal(v.verdict, 'invalid', hash);
          assert.match(v.text, /Dieser Link enthält keinen lesbaren Nachweis/, hash);
          assert.doesNotMatch(v.text, /stimmt/, hash);
          assert.equal(await page.locator('#proof-result *').count(), 0, `${hash}: nothing of the old proof is left`);
          assert.equal(await page.inputValue('#proof-text'), '');
          assert.equal(await inView(page, '#proof-verdict'), true, `${hash}: the message is in view`);
        }
        // The page's own anchor (the skip link) is navigation, not a link to check.
        await setHash(page, `#proof=${base64url(dice)}`);
        await page.waitForFunction(() => document.querySelector('#proof-verdict')?.dataset.verdict === 'match');
        await setHash(page, '#main');
        await page.waitForTimeout(300);
        assert.equal(await page.getAttribute('#proof-verdict', 'data-verdict'), 'match');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  /** Waits until the proof card's verdict is done and its text matches `re`. */
  const verdictMatching = (page, re, timeout = BIG_WAIT) => page.waitForFunction((src) => {
    const v = document.querySelector('#proof-verdict');
    return v?.dataset.state === 'done' && new RegExp(src).test(v.textContent);
  }, re.source, { timeout });

  for (const [name, viewport] of VIEWPORTS) {
    test(`(${name}) 50,000 seeds from a link and 200,000 from a file keep the page answering; a file too big is refused in German`, { timeout: BIG_WAIT * 4 }, async () => {
      const empty = (n) => JSON.stringify({ proof: 1, epochs: Array.from({ length: n }, () => ({ commit: null, rounds: [] })) });
      const link = empty(50_000);
      const file = empty(200_000);
      const dir = mkdtempSync(join(tmpdir(), 'provably-34-'));
      // A path, not a buffer: Playwright hands a buffer to the page through a script of its own, itself a long task.
      writeFileSync(join(dir, 'seeds.json'), file);
      writeFileSync(join(dir, 'riesig.json'), Buffer.alloc(65 * 1000 * 1000, 0x20));
      const rust = { link: rustAudit(link), file: rustAudit(file) };
      assert.equal(rust.link.epochs, 50_000);
      assert.equal(rust.file.epochs, 200_000);
      await withinGoal(`50,000 seeds from a link on a ${name}`, viewport, async (page) => {
        await setHash(page, `#proof=${base64url(link)}`);
        await verdictMatching(page, /50\.000 Seeds/);
        assert.equal(await page.getAttribute('#proof-verdict', 'data-verdict'), rust.link.verdict);
        await page.setInputFiles('#proof-file', join(dir, 'seeds.json'));
        await verdictMatching(page, /200\.000 Seeds/);
        assert.equal(await page.getAttribute('#proof-verdict', 'data-verdict'), rust.file.verdict);
        await page.waitForTimeout(500);
        assert.match(await page.textContent('#proof-epochs-shown'), /von 200\.000 Seeds; geprüft und gezählt sind alle/);
        assert.ok(await page.locator('#proof-result section.epoch').count() <= 500);
        assert.equal(await inView(page, '#proof-verdict'), true);
        await page.setInputFiles('#proof-file', join(dir, 'riesig.json'));
        await page.waitForSelector('#proof-verdict[data-file="too-big"]');
        assert.match(await page.textContent('#proof-verdict'), /Die Datei ist zu groß für diese Seite.*65 MB.*bis 64 MB/);
        assert.equal(await page.locator('#proof-result *').count(), 0);
      });
    });
  }

  for (const [name, viewport] of VIEWPORTS) {
    test(`(${name}) a bet history with missing nonces is a match whose headline says which bets are missing`, { timeout: BIG_WAIT }, async () => {
      // Made and judged by the Rust side: nonces 2 and 3 of the seed pair are not in the history.
      const serverSeed = 'Seed-Paar 34';
      const text = rustProof([['stake.dice', 0], ['stake.limbo', 1], ['stake.mines', 4, { mines: 3 }]].map(([op, nonce, extra]) => ({ op, serverSeed, clientSeed: 'c1', nonce, ...extra })));
      const rust = rustAudit(text);
      assert.equal(rust.verdict, 'match');
      assert.equal(rust.gaps, 1);
      const [a, b] = rust.findings.find((f) => f.kind === 'gap').observed;
      const { page, context, problems } = await open('', { viewport });
      try {
        await page.fill('#proof-text', text);
        await page.click('#proof-run');
        const v = await proofVerdict(page);
        assert.equal(v.verdict, 'match');
        assert.equal(await page.textContent('#proof-verdict .verdict-head'), `✓ Der Nachweis stimmt – aber es fehlen ${b - a + 1} Wetten (Nonces ${a} … ${b})`);
        // Players think in seed pairs (item 6).
        assert.match(v.text, /^.*1 Seed-Paar, 3 Runden/);
        assert.equal(await inView(page, '#proof-verdict'), true);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  for (const [name, viewport] of VIEWPORTS) {
    test(`(${name}) a round link of a 100,000-entry shuffle is checked off the main thread and drawn in part`, { timeout: BIG_WAIT * 4 }, async () => {
      const request = { op: 'cursor.shuffle', serverSeed: 'a', clientSeed: 'b', nonce: 0, cursor: 0, count: 100000 };
      const rust = spawnSync(BIN, ['derive', '--json', '-'], { input: JSON.stringify(request), encoding: 'utf8' });
      assert.equal(rust.status, 0, rust.stderr);
      const { order } = JSON.parse(rust.stdout);
      await withinGoal(`a 100,000-entry round link on a ${name}`, viewport, async (page) => {
        await setHash(page, '#cursor.shuffle&serverSeed=a&clientSeed=b&nonce=0&count=100000');
        await page.waitForSelector('#numbers-verdict[data-state="done"]', { timeout: BIG_WAIT });
        const shown = await page.$$eval('#numbers-grid li:not([hidden])', (l) => l.map((li) => Number(li.dataset.value)));
        assert.deepEqual(shown, order.slice(0, 20));
        assert.equal(await page.locator('#numbers-show-all').textContent(), 'Alle 100.000 Stellen zeigen');
        assert.equal(await inView(page, '#numbers-verdict'), true);
      });
    });
  }

  test('a round link after a proof clears the proof card; damaged links say they are damaged, not cut', { timeout: BIG_WAIT }, async () => {
    const dice = example('dice-game.json');
    const { page, context } = await open(`#proof=${base64url(dice)}`);
    try {
      assert.equal((await proofVerdict(page)).verdict, 'match');
      const d = vectors.find((t) => t.input.op === 'dice.roll').input;
      await setHash(page, `#dice.roll&serverSeed=${encodeURIComponent(d.serverSeed)}&clientSeed=${encodeURIComponent(d.clientSeed)}&n=${d.n}`);
      await page.waitForSelector('#dice-verdict[data-state="done"]');
      assert.equal(await page.getAttribute('#proof-verdict', 'data-verdict'), null, 'the proof card has no verdict any more');
      assert.doesNotMatch(await page.textContent('#proof-verdict'), /✓/);
      assert.match(await page.textContent('#proof-verdict'), /einzelnen Runde/);
      assert.equal(await page.locator('#proof-result *').count(), 0);
      // Invalid UTF-8 inside a whole link: damaged, not cut.
      const bytes = Buffer.concat([Buffer.from('{"proof":1,"title":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","epochs":[]}')]);
      await setHash(page, `#proof=${bytes.toString('base64url')}`);
      await page.waitForSelector('#proof-verdict[data-link="damaged"]');
      let v = await proofVerdict(page);
      assert.match(v.text, /Der Link ist beschädigt/);
      assert.doesNotMatch(v.text, /unvollständig/);
      // A character cut in two at the very end is what a cut link looks like: still "unvollständig".
      const cut = Buffer.from('{"proof":1,"title":"Würfel');
      await setHash(page, `#proof=${cut.subarray(0, cut.length - 5).toString('base64url')}`);
      await page.waitForSelector('#proof-verdict[data-link="cut"]');
      // A bad %-encoding in a round link: damaged, naming the value, instead of asking for the server seed.
      await setHash(page, `#dice.roll&serverSeed=%E0%A4%A&clientSeed=${encodeURIComponent(d.clientSeed)}&n=${d.n}`);
      await page.waitForSelector('#proof-verdict[data-link="damaged"]');
      v = await proofVerdict(page);
      assert.match(v.text, /Der Link ist beschädigt.*„Server-Seed“/);
      assert.doesNotMatch(await page.textContent('#dice-verdict'), /Bitte den Server-Seed eintragen/);
    } finally {
      await context.close();
    }
  });

  test('Pokerni hands without "players" are drawn; an invisible character in a seed is warned about; the dice example names the roll as the page does', { timeout: BIG_WAIT }, async () => {
    const hands = example('selfpoker-hands.json');
    const doc = JSON.parse(hands);
    assert.ok(doc.epochs.every((e) => e.rounds.every((r) => r.players === undefined)), 'the example has no players: what this test is about');
    assert.equal(rustAudit(hands).verdict, 'match');
    const dice = example('dice-game.json');
    const { page, context, problems } = await open();
    try {
      await page.fill('#proof-text', hands);
      await page.click('#proof-run');
      assert.equal((await proofVerdict(page)).verdict, 'match');
      const shown = await page.$$eval('#proof-result .round-shown', (s) => s.map((x) => x.textContent));
      assert.equal(shown.length, doc.epochs.length, shown.join('\n'));
      for (const [i, t] of shown.entries()) {
        const players = (doc.epochs[i].rounds[0].observed.deck.length - 5) / 2;
        assert.match(t, new RegExp(`^Board (\\S+ ){5}· (Gewinner: Platz \\d+|Geteilter Pot: Plätze [\\d, ]+) mit .* \\(${players} Spieler, nach den gesehenen Karten\\)$`), t);
      }
      // The telegram roll: the title names it by the roll number the page lists.
      await page.fill('#proof-text', dice);
      await page.click('#proof-run');
      assert.equal((await proofVerdict(page)).verdict, 'match');
      const telegram = JSON.parse(dice).epochs[0].rounds.findIndex((r) => r.external === 'telegram');
      const n = JSON.parse(dice).epochs[0].rounds[telegram].n;
      const title = await page.textContent('#proof-source');
      assert.match(title, new RegExp(`Wurf Nummer ${n} mit Telegram`));
      assert.match(await page.textContent(`#proof-result .epoch li[data-round="${telegram}"]`), new RegExp(`Runde ${telegram + 1}.*Wurfnummer ${n}`));
      // A right-to-left override and a zero-width space in a seed: the result differs, and the page says why.
      const d = vectors.find((t) => t.input.op === 'dice.roll').input;
      await page.click('#tab-dice');
      await page.fill('#dice-serverSeed', `${d.serverSeed.slice(0, 4)}\u202E${d.serverSeed.slice(4)}\u200B`);
      await page.fill('#dice-clientSeed', d.clientSeed);
      await page.fill('#dice-from', String(d.n));
      await page.click('#dice-run');
      await page.waitForSelector('#dice-verdict[data-state="done"]');
      const note = await page.textContent('#dice-notes [data-note="invisible"]');
      assert.match(note, /Der Seed enthält unsichtbare Zeichen \(Zeichen, die die Schreibrichtung ändern, Zeichen ohne Breite\)/);
      await page.fill('#dice-serverSeed', d.serverSeed);
      await page.click('#dice-run');
      await page.waitForFunction(() => document.querySelector('#dice-verdict')?.dataset.state === 'done' && !document.querySelector('#dice-notes [data-note="invisible"]'));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
