// The Stake panels of the verification page in a real browser (Debian's
// chromium driven by playwright-core, the page served by `provably web`),
// one test per game view: what a player sees is held to the answer of the
// Rust op (`provably serve`, $PROVABLY_BIN) for the same seeds, never to a
// value written here. Prerequisites are handled as in browser.test.mjs: a
// missing one skips the suite, or fails it when $CI is set.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { OK_FIELDS } from '../../reference/js/generated/ops.mjs';
import { BUILT } from '../../reference/js/provably.mjs';
import { BIN, CHROMIUM, ROOT, browserSuiteReady, pageUnderTest } from '../../reference/js/testkit/browser.mjs';

const STEP = 15000;
const SELFTEST_WAIT = 30000;
const TEST_TIMEOUT = 60000;
const ENGLISH = /\b(must|got|above|below|limit|missing|field|minimum|maximum|strictly|between|invalid|error|exhausted|cannot|the|is not|low|medium|high)\b/i;

const ready = browserSuiteReady({ required: 'stake browser test prerequisites', skipped: 'stake panels in chromium' });

/** The Rust op's `ok` answers to `requests`, through `provably serve`. */
function rust(...requests) {
  const input = requests.map((r, i) => JSON.stringify({ id: i, ...r })).join('\n') + '\n';
  const r = spawnSync(BIN, ['serve'], { input, encoding: 'utf8', timeout: STEP });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((line) => {
    const answer = JSON.parse(line);
    assert.ok(answer.ok, `the Rust op answers ${JSON.stringify(requests[answer.id])}: ${line}`);
    return answer.ok;
  });
}

/** Stake's two-decimal German number: 48.3 → "48,30". */
const de2 = (x) => x.toFixed(2).replace('.', ',');
const SEED = createHash('sha256').update('stake page test').digest('hex');
const SEEDS = { serverSeed: SEED, clientSeed: 'mein-client-seed', nonce: 7 };
const COMMIT = createHash('sha256').update(SEED).digest('hex');
/** Every observation field of the Stake panel, empty: a test sets only its own. */
const EMPTY = { roll: '', multiplier: '', path: '', pocket: '', tiles: '', hits: '', cards: '', player: '', banker: '', gems: '' };
const SUITS = ['♦', '♥', '♠', '♣'];
const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
/** A CARDS index card as a player writes it ("10♦"), from Stake's published order ♦2, ♥2, ♠2, ♣2, ♦3 … */
const cardText = (c) => RANKS[Math.floor(c / 4)] + SUITS[c % 4];

if (ready) describe('Stake panels', { timeout: 600000 }, () => {
  let server;
  let browser;
  pageUnderTest({ bin: BIN, root: ROOT, executablePath: CHROMIUM, step: STEP }, (s, b) => {
    server = s;
    browser = b;
  });

  async function ready() {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    context.setDefaultTimeout(STEP);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    await page.goto(server.url);
    await page.waitForSelector('#selftest:not([data-state="running"])', { timeout: SELFTEST_WAIT });
    assert.equal(await page.getAttribute('#selftest', 'data-state'), 'passed', await page.textContent('#selftest-status'));
    return { page, context, problems };
  }

  /** Fills the panel `id` (selects by value) and presses Prüfen; the verdict for exactly these inputs. */
  async function run(page, id, values) {
    await page.click(`#tab-${id}`);
    for (const [name, value] of Object.entries(values)) {
      const sel = `#${id}-${name}`;
      // A field another game shows is hidden here; it only needs to be empty.
      if (value === '' && !(await page.isVisible(sel))) continue;
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

  /** One page for a test, closed however it ends, with no page error left. */
  async function withPage(body) {
    const { page, context, problems } = await ready();
    try {
      await body(page);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }

  const stake = (op, extra = {}) => ({ op, ...SEEDS, ...extra });
  const form = (op, extra = {}) => ({ op, ...SEEDS, commit: COMMIT, ...EMPTY, ...extra });

  test('dice: the number with two decimals and a German comma; the roll typed back matches, another one is flagged', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const [want] = rust(stake('stake.dice'));
    let v = await run(page, 'stake', form('stake.dice', { roll: de2(want.roll) }));
    assert.equal(v.verdict, 'match', v.text);
    assert.match(v.text, /Commitment passt/);
    assert.equal(await page.textContent('#stake-out-roll'), de2(want.roll));
    const other = want.roll === 50 ? 49.99 : 50;
    v = await run(page, 'stake', { roll: de2(other) });
    assert.equal(v.verdict, 'mismatch');
    assert.ok(v.text.includes(`Erste Abweichung: Zahl: gesehen ${de2(other)}, berechnet ${de2(want.roll)}`), v.text);
  }));

  test('limbo: the multiplier as ×470,07 (two decimals, German comma)', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const answers = rust(...[0, 1, 2, 3].map((nonce) => stake('stake.limbo', { nonce })));
    for (const [nonce, want] of answers.entries()) {
      const v = await run(page, 'stake', form('stake.limbo', { nonce, multiplier: `×${de2(want.multiplier)}` }));
      assert.equal(v.verdict, 'match', v.text);
      assert.equal(await page.textContent('#stake-out-multiplier'), `×${de2(want.multiplier)}`);
    }
  }));

  test("plinko: the ball's way row by row and the bucket with its multiplier", { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    for (const [rows, risk] of [[12, 'high'], [9, 'low']]) {
      const [want] = rust(stake('stake.plinko', { rows, risk }));
      const path = want.path.map((d) => (d ? 'R' : 'L')).join(' ');
      const v = await run(page, 'stake', form('stake.plinko', { rows, risk, path, multiplier: de2(want.multiplier) }));
      assert.equal(v.verdict, 'match', v.text);
      assert.deepEqual(await page.$$eval('#stake-out-plinko .plinko-row', (r) => r.map((x) => x.dataset.dir)), want.path.map((d) => (d ? 'R' : 'L')));
      // The ball sits in gap (rights so far) of each row: its last row's gap plus the last step is the bucket.
      const balls = await page.$$eval('#stake-out-plinko .plinko-row', (r) => r.map((x) => [...x.querySelectorAll('.peg')].findIndex((p) => p.classList.contains('ball'))));
      assert.deepEqual(balls, want.path.map((_, i) => want.path.slice(0, i).reduce((a, b) => a + b, 0)));
      assert.equal(await page.$$eval('#stake-out-plinko-buckets li', (l) => l.length), rows + 1);
      assert.equal(await page.getAttribute('#stake-out-plinko-buckets li.hit', 'data-bucket'), String(want.bucket));
      assert.equal(await page.textContent('#stake-out-plinko-buckets li.hit'), `×${de2(want.multiplier)}`);
    }
  }));

  test('mines: the 5×5 field with the mines where the Rust op puts them; a wrong tile is flagged', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const [want] = rust(stake('stake.mines', { mines: 5 }));
    const tiles = [...want.mines].reverse().map((t) => t + 1).join(' ');
    let v = await run(page, 'stake', form('stake.mines', { mines: 5, tiles }));
    assert.equal(v.verdict, 'match', v.text);
    assert.equal(await page.$$eval('#stake-out-mines [role="row"]', (r) => r.length), 5);
    const mined = await page.$$eval('#stake-out-mines .tile[data-mine="yes"]', (t) => t.map((x) => Number(x.dataset.tile) - 1));
    assert.deepEqual(mined, [...want.mines].sort((a, b) => a - b));
    assert.equal(await page.$$eval('#stake-out-mines .tile', (t) => t.length), 25);
    const safe = Array.from({ length: 25 }, (_, i) => i).find((i) => !want.mines.includes(i));
    v = await run(page, 'stake', { tiles: String(safe + 1) });
    assert.equal(v.verdict, 'mismatch', v.text);
  }));

  test('keno: the board 1 to 40 with the ten hits in draw order, typed in any order', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const [want] = rust(stake('stake.keno'));
    const v = await run(page, 'stake', form('stake.keno', { hits: [...want.hits].sort((a, b) => a - b).join(', ') }));
    assert.equal(v.verdict, 'match', v.text);
    assert.equal(await page.$$eval('#stake-out-keno .square', (s) => s.length), 40);
    const hits = await page.$$eval('#stake-out-keno .square.hit', (s) => s.map((x) => [Number(x.dataset.number), Number(x.dataset.hit)]));
    assert.deepEqual(hits.sort((a, b) => a[1] - b[1]).map(([n]) => n), want.hits);
  }));

  test('roulette and wheel: the pocket with its colour, the segment with its multiplier', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const [pocket, wheel] = rust(stake('stake.roulette'), stake('stake.wheel', { segments: 30, risk: 'medium' }));
    let v = await run(page, 'stake', form('stake.roulette', { pocket: String(pocket.pocket) }));
    assert.equal(v.verdict, 'match', v.text);
    assert.equal(await page.getAttribute('#stake-out-pocket', 'data-pocket'), String(pocket.pocket));
    const red = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36].includes(pocket.pocket);
    assert.equal(await page.textContent('#stake-out-pocket'), `${pocket.pocket} ${pocket.pocket === 0 ? 'Grün' : red ? 'Rot' : 'Schwarz'}`);
    v = await run(page, 'stake', form('stake.wheel', { segments: 30, risk: 'medium', multiplier: de2(wheel.multiplier) }));
    assert.equal(v.verdict, 'match', v.text);
    assert.equal(await page.getAttribute('#stake-out-wheel', 'data-segment'), String(wheel.segment));
    assert.equal(await page.textContent('#stake-out-wheel'), `Segment ${wheel.segment + 1} von 30: ×${de2(wheel.multiplier)}`);
  }));

  test('hilo, blackjack and video poker: the cards as symbols in the order they come', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    // The games that answer only their cards (hilo, blackjack, video poker), read off the op table.
    const dealt = Object.keys(BUILT.find((s) => s.id === 'stake').ops).filter((op) => Object.keys(OK_FIELDS[op]).join() === 'cards');
    assert.equal(dealt.length, 3, dealt.join());
    for (const op of dealt) {
      const [want] = rust(stake(op));
      const v = await run(page, 'stake', form(op, { cards: want.cards.slice(0, 6).map(cardText).join(' ') }));
      assert.equal(v.verdict, 'match', `${op}: ${v.text}`);
      assert.deepEqual(await page.$$eval('#stake-out-cards li', (l) => l.map((x) => Number(x.dataset.value))), want.cards);
      assert.deepEqual(await page.$$eval('#stake-out-cards li', (l) => l.slice(0, 6).map((x) => x.lastChild.textContent)), want.cards.slice(0, 6).map(cardText));
    }
    // A wrong card is named at its place, as the player wrote it.
    const [want] = rust(stake('stake.hilo'));
    const wrong = want.cards[0] === 0 ? 1 : 0;
    const v = await run(page, 'stake', form('stake.hilo', { cards: cardText(wrong) }));
    assert.equal(v.verdict, 'mismatch');
    assert.ok(v.text.includes(`Karte 1: gesehen ${cardText(wrong)}, berechnet ${cardText(want.cards[0])}`), v.text);
  }));

  test('baccarat: Spieler and Bank with their cards and totals, and who wins', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const answers = rust(...[0, 1, 2, 3, 4, 5].map((nonce) => stake('stake.baccarat', { nonce })));
    for (const [nonce, want] of answers.entries()) {
      const v = await run(page, 'stake', form('stake.baccarat', { nonce, player: want.player.map(cardText).join(' '), banker: want.banker.map(cardText).join(' ') }));
      assert.equal(v.verdict, 'match', v.text);
      assert.equal(await page.getAttribute('#stake-out-baccarat', 'data-winner'), want.winner);
      assert.equal(await page.textContent('#stake-out-winner'), { player: 'Spieler gewinnt', banker: 'Bank gewinnt', tie: 'Unentschieden' }[want.winner]);
      assert.deepEqual(await page.$$eval('#stake-out-player li', (l) => l.map((x) => Number(x.dataset.value))), want.player);
      assert.deepEqual(await page.$$eval('#stake-out-banker li', (l) => l.map((x) => Number(x.dataset.value))), want.banker);
    }
  }));

  test('diamonds: five gems by their German colour names', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const [want] = rust(stake('stake.diamonds'));
    const names = { green: 'Grün', purple: 'Lila', yellow: 'Gelb', red: 'Rot', cyan: 'Türkis', orange: 'Orange', blue: 'Blau' };
    const v = await run(page, 'stake', form('stake.diamonds', { gems: want.gems.map((g) => names[g]).join(' ') }));
    assert.equal(v.verdict, 'match', v.text);
    assert.deepEqual(await page.$$eval('#stake-out-gems li', (l) => l.map((x) => x.dataset.gem)), want.gems);
    assert.deepEqual(await page.$$eval('#stake-out-gems li', (l) => l.map((x) => x.textContent.trim())), want.gems.map((g) => `◆ ${names[g]}`));
  }));

  test('crash: the crash point from the round hash and the salt', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const hash = createHash('sha256').update('a crash round').digest('hex');
    const salt = '0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4';
    const [want] = rust({ op: 'stake.crash', hash, salt });
    const v = await run(page, 'crash', { hash, salt, crashPoint: `×${de2(want.crashPoint)}` });
    assert.equal(v.verdict, 'match', v.text);
    assert.equal(await page.textContent('#crash-shown'), `×${de2(want.crashPoint)}`);
  }));

  test('a link to a Stake check opens the same game, seeds and observation, and checks it', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const [want] = rust(stake('stake.plinko', { rows: 10, risk: 'medium' }));
    const path = want.path.map((d) => (d ? 'R' : 'L')).join(' ');
    await run(page, 'stake', form('stake.plinko', { rows: 10, risk: 'medium', path }));
    await page.click('#stake-link');
    const url = await page.inputValue('#stake-link-url');
    const other = await page.context().newPage();
    try {
      await other.goto(url);
      await other.waitForSelector('#stake-verdict[data-state="done"]', { timeout: SELFTEST_WAIT });
      assert.equal(await other.getAttribute('#stake-verdict', 'data-verdict'), 'match');
      assert.equal(await other.inputValue('#stake-op'), 'stake.plinko');
      assert.equal(await other.inputValue('#stake-risk'), 'medium');
      assert.equal(await other.getAttribute('#stake-out-plinko-buckets li.hit', 'data-bucket'), String(want.bucket));
    } finally {
      await other.close();
    }
  }));

  test('the Stake panels speak German: labels, results and errors', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const cases = [
      [form('stake.plinko', { rows: '7' }), /„Reihen“: 7 liegt unter dem kleinsten erlaubten Wert 8/],
      [form('stake.mines', { mines: '25' }), /„Anzahl Minen“|„Minen“: 25 liegt über dem größten erlaubten Wert 24/],
      [form('stake.dice', { roll: 'viel' }), /„viel“ ist keine Zahl für „Gezeigte Zahl“/],
      [form('stake.keno', { hits: '41' }), /„41“ ist kein Feld des Keno-Bretts/],
      [form('stake.diamonds', { gems: 'pink' }), /„pink“ ist keine Farbe eines Diamanten/],
    ];
    for (const [values, want] of cases) {
      const v = await run(page, 'stake', values);
      assert.equal(v.verdict, 'invalid', `${JSON.stringify(values)}: ${v.text}`);
      assert.match(v.text, want);
      assert.doesNotMatch(v.text, ENGLISH, `German only: ${v.text}`);
    }
    const v = await run(page, 'crash', { hash: 'ABC', salt: 'x', crashPoint: '' });
    assert.equal(v.verdict, 'invalid');
    assert.match(v.text, /„Hash der Runde“|„SHA-256“: „ABC“ sind nicht 64 Zeichen/);
    // Everything on the Stake panel but its formula, after a plinko result: German.
    await run(page, 'stake', form('stake.plinko', { rows: 8, risk: 'medium' }));
    const text = await page.$eval('#panel-stake', (p) => {
      const copy = p.cloneNode(true);
      copy.querySelector('details.formula')?.remove();
      copy.querySelectorAll('option').forEach((o) => o.remove());
      return copy.textContent;
    });
    assert.doesNotMatch(text, ENGLISH, text);
    assert.match(text, /Weg der Kugel/);
  }));
});
