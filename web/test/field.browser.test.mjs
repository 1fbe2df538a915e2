// The panels of the sites beside Stake (web/bcgame.mjs: BC.Game, Primedice,
// SKIN.CLUB, Freebitco.in, CSGOEmpire) in a real browser (Debian's chromium
// driven by playwright-core, the page served by `provably web`): one bet of
// each game and one history of each game, typed as the site shows them,
// held to the answers of the Rust ops (`provably serve`, $PROVABLY_BIN) for
// the same seeds, never to a value written here. Two page openings in all
// (each costs the page's self-test). Prerequisites are handled as in
// browser.test.mjs: a missing one skips the suite, or fails it when $CI is set.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { BIN, CHROMIUM, ROOT, browserSuiteReady, pageUnderTest } from '../../reference/js/testkit/browser.mjs';

const STEP = 15000;
const SELFTEST_WAIT = 60000;
const TEST_TIMEOUT = 240000;
const ENGLISH = /\b(must|got|above|below|limit|missing|field|minimum|maximum|invalid|error|cannot|the|is not)\b/i;

const ready = browserSuiteReady({ required: 'field browser test prerequisites', skipped: 'the panels of BC.Game, Primedice, SKIN.CLUB, Freebitco.in and CSGOEmpire in chromium' });

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

const SEED = createHash('sha256').update('field page test').digest('hex');
const COMMIT = createHash('sha256').update(SEED).digest('hex');
const CLIENT = 'mein-client-seed';
const PUBLIC = 'oeffentlicher-seed';

/** Two decimals with a German comma, the first two of the number's decimals (not rounded): 81.1015 → "81,10". */
const firstTwo = (x) => {
  const [whole, frac = ''] = x.toFixed(8).split('.');
  return `${whole},${frac.padEnd(2, '0').slice(0, 2)}`;
};

/**
 * Each game: its panel, its op, the op's parameters, what the bet form holds
 * of the result (field and text, as the site shows it) and the German line
 * the page must show. `count`: the request field counting the bets.
 */
const GAMES = [
  ['bcgame', 'bcgame.classicdice.old', {}, (d) => ['roll', firstTwo(d.roll)], (d) => `Würfelzahl: ${firstTwo(d.roll)}`],
  ['bcgame', 'bcgame.classicdice', {}, (d) => ['roll', firstTwo(d.roll)], (d) => `Würfelzahl: ${firstTwo(d.roll)}`],
  ['bcgame', 'bcgame.dice', {}, (d) => ['roll', String(d.roll)], (d) => `Würfelzahl: ${d.roll}`],
  ['bcgame', 'bcgame.limbo', {}, (d) => ['multiplier', `${firstTwo(d.multiplier)}x`], (d) => `Limbo: ×${firstTwo(d.multiplier)}`],
  ['bcgame', 'bcgame.hashdice', {}, (d) => ['roll', String(d.roll)], (d) => `Würfelzahl: ${d.roll}`],
  ['bcgame', 'bcgame.mines', { mines: 5 }, (d) => ['tiles', [...d.mines].reverse().join(' ')], (d) => `Minen auf Feld ${d.mines.join(', ')}`],
  ['bcgame', 'bcgame.keno', {}, (d) => ['hits', [...d.hits].sort((a, b) => a - b).join(', ')], (d) => `Keno-Treffer: ${d.hits.join(' ')}`],
  ['bcgame', 'bcgame.plinko', { rows: 12 }, (d) => ['bucket', String(d.bucket + 1)], (d) => `Fach ${d.bucket + 1} von 13`],
  ['bcgame', 'bcgame.coinflip.old', { rounds: 4 }, (d) => ['coins', d.coins.map((c) => (c ? 'Z' : 'K')).join(' ')], (d) => `Münzen: ${d.coins.map((c) => (c ? 'Zahl' : 'Kopf')).join(' ')}`],
  ['bcgame', 'bcgame.coinflip', { rounds: 4 }, (d) => ['coins', d.coins.map((c) => (c ? 'Zahl' : 'Kopf')).join(' ')], (d) => `Münzen: ${d.coins.map((c) => (c ? 'Zahl' : 'Kopf')).join(' ')}`],
  ['primedice', 'lucky.roll', {}, (d) => ['roll', firstTwo(d.roll)], (d) => `Würfelzahl: ${firstTwo(d.roll)} (Glückszahl ${d.lucky})`],
  ['skinclub', 'skinclub.roll', {}, (d) => ['roll', String(d.roll)], (d) => `Wurf: ${d.roll} von 100000`],
  ['freebitco', 'freebitco.roll', {}, (d) => ['roll', String(d.roll)], (d) => `Roll: ${d.roll}`],
  ['csgoempire', 'csgoempire.roulette', {}, (d) => ['roll', String(d.roll)], (d) => `Roulette: ${d.roll} (${{ bonus: 'Bonus', orange: 'Orange', black: 'Schwarz' }[d.colour]})`],
].map(([panel, op, params, seen, line]) => ({ panel, op, params, seen, line, count: op === 'csgoempire.roulette' ? 'round' : 'nonce' }));

/** The op's request for bet `n` of the test's seeds. */
const request = (g, n) => (g.count === 'round'
  ? { op: g.op, serverSeed: SEED, publicSeed: PUBLIC, round: n, ...g.params }
  : { op: g.op, serverSeed: SEED, clientSeed: CLIENT, nonce: n, ...g.params });

/** The form's seeds and parameters for `g` (the commitment where the panel has one). */
function formOf(g, n) {
  const seeds = g.count === 'round' ? { serverSeed: SEED, publicSeed: PUBLIC, round: n } : { serverSeed: SEED, clientSeed: CLIENT, nonce: n };
  const commit = ['skinclub', 'csgoempire'].includes(g.panel) ? {} : { commit: COMMIT };
  return { ...(g.panel === 'bcgame' ? { op: g.op } : {}), ...seeds, ...commit, ...g.params };
}

if (ready) describe('the panels of BC.Game, Primedice, SKIN.CLUB, Freebitco.in and CSGOEmpire', { timeout: 600000 }, () => {
  let server;
  let browser;
  pageUnderTest({ bin: BIN, root: ROOT, executablePath: CHROMIUM, step: STEP }, (s, b) => {
    server = s;
    browser = b;
  });

  /** One page for a test, its self-test passed, closed however it ends, with no page error left. */
  async function withPage(body) {
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
      await body(page);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }

  /** Fills panel `id`'s visible fields (selects by value) and empties its hidden ones. */
  async function fill(page, id, values) {
    await page.click(`#tab-${id}`);
    if (values.op) await page.selectOption(`#${id}-op`, values.op);
    for (const [name, value] of Object.entries(values)) {
      if (name === 'op') continue;
      await page.fill(`#${id}-${name}`, String(value));
    }
  }

  /** Presses the panel's Prüfen; the verdict for exactly these inputs. */
  async function check(page, id) {
    const before = Number(await page.getAttribute(`#${id}-verdict`, 'data-run'));
    await page.click(`#${id}-run`);
    const handle = await page.waitForFunction(([sel, n]) => {
      const v = document.querySelector(sel);
      return v.dataset.state === 'done' && Number(v.dataset.run) > n && { verdict: v.dataset.verdict, text: v.textContent };
    }, [`#${id}-verdict`, before], { timeout: STEP });
    return handle.jsonValue();
  }

  /** Pastes `lines` as the panel's history and checks it; the proof card's verdict. */
  async function history(page, id, lines) {
    await page.fill(`#${id}-history`, lines.join('\n'));
    await page.evaluate(() => {
      document.querySelector('#proof-verdict').dataset.state = 'stale';
    });
    await page.click(`#${id}-history-run`);
    await page.waitForSelector('#proof-verdict[data-state="done"]', { timeout: STEP });
    return { verdict: await page.getAttribute('#proof-verdict', 'data-verdict'), text: await page.textContent('#proof-verdict'), status: await page.textContent(`#${id}-history-status`) };
  }

  test('one bet of each game, typed as the site shows it, matches the Rust op in German; a wrong roll is flagged', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const tabs = await page.$$eval('#tabs [role=tab]', (t) => t.map((x) => x.textContent));
    for (const name of ['BC.Game', 'Primedice', 'SKIN.CLUB', 'Freebitco.in', 'CSGOEmpire']) assert.ok(tabs.includes(name), `${name} in ${tabs}`);
    const answers = rust(...GAMES.map((g) => request(g, 7)));
    for (const [i, g] of GAMES.entries()) {
      const d = answers[i];
      const [field, text] = g.seen(d);
      await fill(page, g.panel, { ...formOf(g, 7), [field]: text });
      const v = await check(page, g.panel);
      assert.equal(v.verdict, 'match', `${g.op}: ${v.text}`);
      assert.match(v.text, g.panel === 'skinclub' || g.panel === 'csgoempire' ? /^✓ Stimmt: alles Eingetragene stimmt/ : /^✓ Stimmt: Commitment passt/, `${g.op}: ${v.text}`);
      assert.doesNotMatch(v.text, ENGLISH, `${g.op}: ${v.text}`);
      const shown = await page.textContent(`#${g.panel}-out-shown`);
      assert.ok(shown.includes(g.line(d)), `${g.op}: the page shows ${JSON.stringify(shown)}, not ${JSON.stringify(g.line(d))}`);
      await page.fill(`#${g.panel}-${field}`, '');
    }
    const primedice = GAMES.find((g) => g.op === 'lucky.roll');
    const d = answers[GAMES.indexOf(primedice)];
    const wrong = d.roll === 50 ? '49,99' : '50,00';
    await fill(page, 'primedice', { ...formOf(primedice, 7), roll: wrong });
    const v = await check(page, 'primedice');
    assert.equal(v.verdict, 'mismatch', v.text);
    assert.ok(v.text.includes(`Erste Abweichung: Würfelzahl: gesehen ${wrong}, berechnet ${firstTwo(d.roll)}`), v.text);
    assert.doesNotMatch(v.text, ENGLISH, v.text);
  }));

  test('a history of each game, one bet a line as the site lists it, verifies on the proof card; an outcome changed, a nonce shown twice and a gap are named', { timeout: TEST_TIMEOUT }, () => withPage(async (page) => {
    const counts = [0, 1, 2, 3];
    const answers = rust(...GAMES.flatMap((g) => counts.map((n) => request(g, n))));
    for (const [i, g] of GAMES.entries()) {
      const lines = counts.map((n, k) => `${n} ${g.seen(answers[i * counts.length + k])[1]}`);
      await fill(page, g.panel, formOf(g, 0));
      const v = await history(page, g.panel, lines);
      assert.equal(v.verdict, 'match', `${g.op}: ${v.status} ${v.text}`);
      assert.ok(v.text.includes('Der Nachweis stimmt'), `${g.op}: ${v.text}`);
      assert.ok(v.text.includes('4 Runden stimmen'), `${g.op}: ${v.text}`);
      assert.doesNotMatch(v.text, ENGLISH, `${g.op}: ${v.text}`);
    }
    // BC.Game Dice: nonce 1 shown with another number, nonce 2 shown twice, nonce 3 left out.
    const g = GAMES.find((x) => x.op === 'bcgame.dice');
    const at = GAMES.indexOf(g) * counts.length;
    const roll = (n) => answers[at + n].roll;
    const other = roll(1) === 5000 ? 4999 : 5000;
    const lines = [`0 ${roll(0)}`, `1 ${other}`, `2 ${roll(2)}`, `2 ${roll(2)}`, `4 ${rust(request(g, 4))[0].roll}`];
    await fill(page, 'bcgame', formOf(g, 0));
    const v = await history(page, 'bcgame', lines);
    assert.equal(v.verdict, 'mismatch', v.text);
    assert.match(v.text, /2 Runden weichen ab/, v.text);
    assert.match(v.text, /1 Lücke in der Wett-Historie/, v.text);
    assert.doesNotMatch(v.text, ENGLISH, v.text);
    const rounds = await page.$$eval('#proof-result li.round', (l) => l.map((x) => [x.dataset.round, x.dataset.verdict, x.textContent]));
    assert.deepEqual(rounds.filter(([, verdict]) => verdict === 'mismatch').map(([r]) => r), ['1', '3'], JSON.stringify(rounds));
  }));
});
