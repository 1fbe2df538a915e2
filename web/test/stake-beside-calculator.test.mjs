// What a Stake player expects beside Stake's own
// calculator. (a) the next nonce in one click, and a table of nonces
// „von … bis …“ of one seed pair; (b) Blackjack, Hilo and Video Poker drawn
// as hands; (c) the Crash hash chain walked back to earlier games. Real
// Chromium, the page served by `provably web --port 0 --root <repo>` as in
// links-and-large-proofs.test.mjs, each on a phone (390×844) and a desktop.
//
// Expected values come from the Rust binary ($PROVABLY_BIN: `provably
// derive`, and `provably serve` for a list of requests in one process),
// never from the page or from values written here.
//
// Long tasks: as in links-and-large-proofs.test.mjs, a PerformanceObserver('longtask')
// reset after the self-test; a list of 1,000 rows must leave no main-thread
// task over 200 ms. A test loads the page up to three times and needs one
// load within the goal (another process on this shared 2-core machine can
// stretch any single task).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { BIN, CHROMIUM, ROOT, browserSuiteReady, pageUnderTest } from '../../reference/js/testkit/browser.mjs';

const STEP = 20000;
const BIG_WAIT = 240000;
const LONG_TASK_MS = 200;
const VIEWPORTS = [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 800 }]];
const ENGLISH = /\b(must|got|above|below|limit|missing|field|minimum|maximum|strictly|between|invalid|error|exhausted|cannot|the|is not|low|medium|high)\b/i;

const ready = browserSuiteReady({ required: 'Stake beside its calculator prerequisites', skipped: 'Stake beside its calculator' });

/** `provably derive --json -`: the Rust op's `ok` object for one request. */
function derive(request) {
  const r = spawnSync(BIN, ['derive', '--json', '-'], { input: JSON.stringify(request), encoding: 'utf8' });
  assert.equal(r.status, 0, `${JSON.stringify(request)}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The Rust op's `ok` answers to many requests, through one `provably serve`. */
function serve(requests) {
  const input = requests.map((r, i) => JSON.stringify({ id: i, ...r })).join('\n') + '\n';
  const r = spawnSync(BIN, ['serve'], { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  const answers = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
  answers.sort((a, b) => a.id - b.id);
  return answers.map((a) => {
    assert.ok(a.ok, `the Rust op answers ${JSON.stringify(requests[a.id])}: ${JSON.stringify(a)}`);
    return a.ok;
  });
}

const de2 = (x) => x.toFixed(2).replace('.', ',');
const SEED = createHash('sha256').update('Stake beside its calculator').digest('hex');
const SEEDS = { serverSeed: SEED, clientSeed: 'mein-client-seed' };
const COMMIT = createHash('sha256').update(SEED).digest('hex');
const SUITS = ['♦', '♥', '♠', '♣'];
const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
/** A CARDS index card as a player writes it ("10♦"), from Stake's published order ♦2, ♥2, ♠2, ♣2, ♦3 … */
const cardText = (c) => RANKS[Math.floor(c / 4)] + SUITS[c % 4];

if (ready) describe('Stake beside its calculator', { timeout: 1800000 }, () => {
  let server;
  let browser;
  pageUnderTest({ bin: BIN, root: ROOT, executablePath: CHROMIUM, step: STEP }, (s, b) => {
    server = s;
    browser = b;
  });

  /** A fresh page, self-test passed; long tasks are recorded from then on (window.__long). */
  async function open(viewport) {
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
    await page.goto(server.url);
    await page.waitForSelector('body[data-selftest="passed"]', { timeout: BIG_WAIT });
    return { page, context, problems };
  }

  const longTasks = (page) => page.evaluate(() => window.__long.splice(0));

  /**
   * Runs `attempt(page)` on up to three fresh pages. Asserts that one
   * attempt had no long task over the goal after `attempt` began, and that
   * no attempt raised a page error.
   */
  async function withinGoal(label, viewport, attempt) {
    const longest = [];
    for (let i = 0; i < 3; i++) {
      const { page, context, problems } = await open(viewport);
      try {
        await longTasks(page);
        await attempt(page);
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

  /** Fills panel `id`'s fields (selects by value; a field hidden for this game must be empty) and presses Prüfen. */
  async function fill(page, id, values) {
    await page.click(`#tab-${id}`);
    for (const [name, value] of Object.entries(values)) {
      const sel = `#${id}-${name}`;
      if (value === '' && !(await page.isVisible(sel))) continue;
      if ((await page.$eval(sel, (e) => e.tagName)) === 'SELECT') await page.selectOption(sel, String(value));
      else await page.fill(sel, String(value));
    }
  }

  /** Presses `button` and waits for the verdict of run n + 1 of panel `id`. */
  async function verdictAfter(page, id, button) {
    const before = Number(await page.getAttribute(`#${id}-verdict`, 'data-run'));
    await page.click(button);
    const handle = await page.waitForFunction(([sel, n]) => {
      const v = document.querySelector(sel);
      return v.dataset.state === 'done' && Number(v.dataset.run) > n && { verdict: v.dataset.verdict, text: v.textContent };
    }, [`#${id}-verdict`, before], { timeout: STEP });
    return handle.jsonValue();
  }

  /** Presses a list's button; resolves with its status once its table is drawn (or refused). */
  async function list(page, id) {
    await page.click(`#${id}-run`);
    await page.waitForFunction((sel) => ['done', 'invalid'].includes(document.querySelector(sel)?.dataset.state), `#${id}-status`, { timeout: BIG_WAIT });
    return page.$eval(`#${id}-status`, (s) => ({ state: s.dataset.state, text: s.textContent }));
  }

  const inView = (page, sel) => page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return r.top >= -2 && r.top < window.innerHeight - 40 && r.right <= window.innerWidth + 1;
  });

  for (const [name, viewport] of VIEWPORTS) {
    test(`(${name}) „Nächste Nonce“ checks the next bet; a table of 1,000 nonces is computed in the worker and drawn in pieces`, { timeout: BIG_WAIT * 4 }, async () => {
      const dice = serve(Array.from({ length: 1000 }, (_, nonce) => ({ op: 'stake.dice', ...SEEDS, nonce })));
      const next = derive({ op: 'stake.dice', ...SEEDS, nonce: 8 });
      const mines = serve(Array.from({ length: 20 }, (_, i) => ({ op: 'stake.mines', ...SEEDS, mines: 5, nonce: 500 + i })));
      await withinGoal(`the next nonce and 1,000 nonces on a ${name}`, viewport, async (page) => {
        await fill(page, 'stake', { op: 'stake.dice', ...SEEDS, nonce: 7, commit: COMMIT, roll: de2(dice[7].roll) });
        let v = await verdictAfter(page, 'stake', '#stake-run');
        assert.equal(v.verdict, 'match', v.text);
        // The next bet: nonce + 1, what was seen for nonce 7 cleared, checked at once.
        v = await verdictAfter(page, 'stake', '#stake-next-nonce');
        assert.equal(await page.inputValue('#stake-nonce'), '8');
        assert.equal(await page.inputValue('#stake-roll'), '');
        // The commitment still passes; nothing seen for nonce 8 yet.
        assert.equal(v.verdict, 'match', v.text);
        assert.match(v.text, /Commitment passt, nichts Gesehenes eingetragen/);
        assert.equal(await page.textContent('#stake-out-roll'), de2(next.roll));
        assert.equal(next.roll, dice[8].roll);
        assert.equal(await inView(page, '#stake-verdict'), true);
        // 1,000 nonces, the bound.
        await page.fill('#stake-series-from', '0');
        await page.fill('#stake-series-to', '999');
        let s = await list(page, 'stake-series');
        assert.equal(s.state, 'done', s.text);
        assert.equal(s.text, '1.000 Wetten, Nonce 0 bis 999 (Dice).');
        const rows = await page.$$eval('#stake-series-table tbody tr', (t) => t.map((tr) => [Number(tr.dataset.nonce), tr.cells[1].dataset.value, tr.cells[1].textContent]));
        assert.deepEqual(rows, dice.map((d, nonce) => [nonce, String(d.roll), de2(d.roll)]));
        // One row more than the bound is refused, in German.
        await page.fill('#stake-series-to', '1000');
        s = await list(page, 'stake-series');
        assert.equal(s.state, 'invalid');
        assert.equal(s.text, 'Höchstens 1.000 Nonces auf einmal: ab Nonce 0 also bis 999.');
        assert.equal(await page.locator('#stake-series-table').count(), 0);
        // Another game of the same seed pair, and the table goes when the form changes.
        await fill(page, 'stake', { op: 'stake.mines', mines: '5', roll: '' });
        await page.fill('#stake-series-from', '500');
        await page.fill('#stake-series-to', '519');
        s = await list(page, 'stake-series');
        assert.equal(s.state, 'done', s.text);
        const cells = await page.$$eval('#stake-series-table tbody tr', (t) => t.map((tr) => [Number(tr.dataset.nonce), tr.cells[1].textContent]));
        assert.deepEqual(cells, mines.map((m, i) => [500 + i, `Felder ${m.mines.map((x) => x + 1).join(', ')}`]));
        assert.doesNotMatch(await page.textContent('#stake-series'), ENGLISH);
        // The table is not about the nonce or what was seen: the next bet leaves it standing.
        await verdictAfter(page, 'stake', '#stake-next-nonce');
        assert.equal(await page.locator('#stake-series-table tbody tr').count(), 20);
        assert.equal(await page.getAttribute('#stake-series-status', 'data-state'), 'done');
        // Another seed pair, typed or from a link, drops it.
        await page.fill('#stake-clientSeed', 'ein anderer');
        await page.waitForSelector('#stake-series-status[data-state="idle"]');
        assert.equal(await page.locator('#stake-series-table').count(), 0);
        assert.match(await page.textContent('#stake-series-status'), /Die Werte oben haben sich geändert/);
        assert.equal((await list(page, 'stake-series')).state, 'done');
        await page.evaluate(() => (location.hash = '#stake.mines&serverSeed=x&clientSeed=y&nonce=0&mines=5'));
        await page.waitForSelector('#stake-series-status[data-state="idle"]');
        assert.equal(await page.locator('#stake-series-table').count(), 0);
      });
    });
  }
  /** A Blackjack hand's total, counted here from the Rust op's cards (the ace 11 while the hand stays at 21 or below). */
  function total(cards) {
    let sum = 0;
    let aces = 0;
    for (const c of cards) {
      const rank = RANKS[Math.floor(c / 4)];
      if (rank === 'A') aces++;
      sum += rank === 'A' ? 11 : ['J', 'Q', 'K'].includes(rank) ? 10 : Number(rank);
    }
    while (sum > 21 && aces) {
      sum -= 10;
      aces--;
    }
    return sum === 21 && cards.length === 2 ? 'Blackjack' : `${aces ? 'Soft' : 'Hart'} ${sum}`;
  }

  const values = (page, sel) => page.$$eval(`${sel} li`, (l) => l.map((x) => Number(x.dataset.value)));
  const texts = (page, sel) => page.$$eval(`${sel} li`, (l) => l.map((x) => x.lastChild.textContent));
  const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  for (const [name, viewport] of VIEWPORTS) {
    test(`(${name}) Stake Blackjack as hands in the deal order, Hilo as its card sequence, Video Poker as dealt and replacement cards`, { timeout: BIG_WAIT }, async () => {
      const { page, context, problems } = await open(viewport);
      try {
        const nonce = 11;
        const bj = derive({ op: 'stake.blackjack', ...SEEDS, nonce });
        const empty = { roll: '', multiplier: '', path: '', pocket: '', tiles: '', hits: '', cards: '', player: '', banker: '', gems: '' };
        // The cards typed as they came (the deal order), the dealer's up card wrong.
        const typed = bj.cards.slice(0, 5).map((c, i) => (i === 1 ? (c === 0 ? 1 : 0) : c));
        await fill(page, 'stake', { op: 'stake.blackjack', ...empty, ...SEEDS, nonce, commit: COMMIT, cards: typed.map(cardText).join(' ') });
        let v = await verdictAfter(page, 'stake', '#stake-run');
        assert.equal(v.verdict, 'mismatch', v.text);
        assert.ok(v.text.includes(`Karte 2: gesehen ${cardText(typed[1])}, berechnet ${cardText(bj.cards[1])}`), v.text);
        assert.deepEqual(await values(page, '#stake-out-bj-player'), [bj.cards[0], bj.cards[2]]);
        assert.deepEqual(await values(page, '#stake-out-bj-dealer'), [bj.cards[1], bj.cards[3]]);
        assert.deepEqual(await values(page, '#stake-out-bj-next'), bj.cards.slice(4, 12));
        assert.deepEqual(await texts(page, '#stake-out-bj-player'), [cardText(bj.cards[0]), cardText(bj.cards[2])]);
        assert.deepEqual(await page.$$eval('#stake-out-bj-dealer li', (l) => l.map((x) => [x.dataset.mark, x.title])), [['mismatch', 'Karte 2: offen'], ['match', 'Karte 4: verdeckt']]);
        assert.equal(await page.textContent('#stake-out-blackjack [data-side="player"] strong'), `Spieler: ${total([bj.cards[0], bj.cards[2]])}`);
        assert.equal(await page.textContent('#stake-out-blackjack [data-side="dealer"] strong'), `Dealer zeigt ${cardText(bj.cards[1])}`);
        assert.equal(await page.textContent('#stake-out-shown'), `Erste Hand: Spieler ${cardText(bj.cards[0])} ${cardText(bj.cards[2])} · Dealer ${cardText(bj.cards[1])}, verdeckt ${cardText(bj.cards[3])}`);
        assert.deepEqual(await values(page, '#stake-out-cards'), bj.cards);
        assert.equal(await noSideways(page), true);

        const hilo = derive({ op: 'stake.hilo', ...SEEDS, nonce });
        await fill(page, 'stake', { op: 'stake.hilo', ...empty, cards: hilo.cards.slice(0, 8).map(cardText).join(' ') });
        v = await verdictAfter(page, 'stake', '#stake-run');
        assert.equal(v.verdict, 'match', v.text);
        assert.equal(await page.textContent('#stake-out-hilo-start'), `Startkarte ${cardText(hilo.cards[0])}`);
        assert.deepEqual(await values(page, '#stake-out-cards'), hilo.cards);
        assert.deepEqual(await page.$$eval('#stake-out-cards li .pos', (l) => l.slice(0, 3).map((x) => x.textContent)), ['Start', '2', '3']);
        assert.equal(await noSideways(page), true);

        const vp = derive({ op: 'stake.videopoker', ...SEEDS, nonce });
        await fill(page, 'stake', { op: 'stake.videopoker', ...empty, cards: vp.cards.slice(0, 10).map(cardText).join(' ') });
        v = await verdictAfter(page, 'stake', '#stake-run');
        assert.equal(v.verdict, 'match', v.text);
        assert.deepEqual(await values(page, '#stake-out-vp-dealt'), vp.cards.slice(0, 5));
        assert.deepEqual(await values(page, '#stake-out-vp-draw'), vp.cards.slice(5, 10));
        assert.deepEqual(await page.$$eval('#stake-out-vp-draw li .pos', (l) => l.map((x) => x.textContent)), ['E1', 'E2', 'E3', 'E4', 'E5']);
        assert.deepEqual(await texts(page, '#stake-out-vp-dealt'), vp.cards.slice(0, 5).map(cardText));
        assert.match(await page.textContent('#stake-out-vp-held'), /Welche Karten du gehalten hast, steht nicht in den Seeds/);
        assert.deepEqual(await values(page, '#stake-out-cards'), vp.cards);
        assert.equal(await noSideways(page), true);
        assert.doesNotMatch(await page.$eval('#stake-result', (r) => r.textContent), ENGLISH);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
  for (const [name, viewport] of VIEWPORTS) {
    test(`(${name}) the Crash hash chain walked 1,000 games back, each with its hash and crash point, in the worker; a hash searched for is found`, { timeout: BIG_WAIT * 4 }, async () => {
      const hash = createHash('sha256').update(`Stake beside its calculator: crash ${name}`).digest('hex');
      const salt = '0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4';
      // The candidates by node's SHA-256; the Rust op says how far each lies from the game's hash.
      const chain = [hash];
      for (let k = 1; k <= 1001; k++) chain.push(createHash('sha256').update(chain[k - 1]).digest('hex'));
      for (const k of [1, 500, 1000]) assert.equal(derive({ op: 'stake.crash.chain', hash, terminatingHash: chain[k], limit: k }).distance, k);
      const points = serve(chain.slice(1, 1001).map((h) => ({ op: 'stake.crash', hash: h, salt }))).map((x) => x.crashPoint);
      await withinGoal(`the crash hash chain on a ${name}`, viewport, async (page) => {
        await fill(page, 'crash', { hash, salt, crashPoint: '' });
        const v = await verdictAfter(page, 'crash', '#crash-run');
        assert.equal(v.verdict, 'unobserved', v.text);
        await page.fill('#crash-chain-back', '1000');
        await page.fill('#crash-chain-find', chain[500].toUpperCase());
        let s = await list(page, 'crash-chain');
        assert.equal(s.state, 'done', s.text);
        assert.equal(s.text, 'Die 1.000 Spiele vor diesem, das jüngste zuerst. Der gesuchte Hash ist das Spiel 500 Spiele vor diesem: beide gehören zur selben Kette.');
        const rows = await page.$$eval('#crash-chain-table tbody tr', (t) => t.map((tr) => [Number(tr.dataset.back), tr.dataset.hash, tr.cells[2].dataset.value, tr.cells[2].textContent]));
        assert.deepEqual(rows, points.map((p, i) => [i + 1, chain[i + 1], String(p), `×${de2(p)}`]));
        assert.deepEqual(await page.$$eval('#crash-chain-table tr.found', (t) => t.map((tr) => Number(tr.dataset.back))), [500]);
        assert.equal(await noSideways(page), true);
        // One step beyond the list: not found, and said so.
        await page.fill('#crash-chain-find', chain[1001]);
        s = await list(page, 'crash-chain');
        assert.match(s.text, /Der gesuchte Hash ist nicht darunter/);
        assert.equal(await page.locator('#crash-chain-table tr.found').count(), 0);
        // Over the bound, and a hash that is none: refused in German.
        await page.fill('#crash-chain-back', '1001');
        s = await list(page, 'crash-chain');
        assert.deepEqual(s, { state: 'invalid', text: 'Höchstens 1.000 Spiele zurück auf einmal.' });
        await page.fill('#crash-chain-back', '3');
        await page.fill('#crash-chain-find', 'kein hash');
        s = await list(page, 'crash-chain');
        assert.equal(s.state, 'invalid');
        assert.match(s.text, /„Hash eines früheren Spiels“: „kein hash“ sind nicht 64 Zeichen/);
        assert.doesNotMatch(await page.textContent('#crash-chain'), ENGLISH);
      });
    });
  }
});
