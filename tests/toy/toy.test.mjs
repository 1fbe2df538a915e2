// The toy game end to end (make test-toy), run in the tree scripts/toy-tree
// writes: its op table and vectors are the `--features toy` binary's, so
// this tree's JavaScript engine serves toy.coin. Every outcome and
// commitment comes from that binary ($PROVABLY_BIN), none from the code under
// test.
//
//   a 2,000-bet honest history (20 seed pairs, 100 nonces each, written by
//   `provably proof --requests`): `audit --stats` exits 0, and the page's
//   statistics equal the audit's (testkit/statistics.mjs);
//   2,000 one-bet epochs whose server seed was ground for heads (of three
//   candidates, the first that shows heads): exit 6, the side test rejects,
//   and the page's statistics equal the audit's;
//   the coin with its sides swapped (wrong-coin.mjs) diverges on the vectors;
//   the page's self-test in chromium passes over a bundle with the toy's vectors.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { OPS, declarations } from '../../reference/js/provably.mjs';
import { serve } from '../../reference/js/testkit/archives.mjs';
import { assertSame, audit, pageStatistics } from '../../reference/js/testkit/statistics.mjs';
import { startWeb } from '../../reference/js/testkit/web.mjs';

const TREE = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = process.env.PROVABLY_BIN;
const CHROMIUM = process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium';
const BETS = 2000;
// Under CI a missing chromium fails the page's test instead of skipping it.
const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());

const sha256hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** JSON lines of requests through `provably proof --requests - --commit --lines` (`group`: rounds of one seed in a row share an epoch). */
function proofOf(requests, { group }) {
  const args = ['proof', '--requests', '-', '--commit', '--lines', ...(group ? ['--group'] : [])];
  const input = requests.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const out = spawnSync(BIN, args, { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(out.status, 0, `provably ${args.join(' ')}: ${out.stderr}`);
  return out.stdout;
}

const coin = (serverSeed, clientSeed, nonce) => ({ op: 'toy.coin', serverSeed, clientSeed, nonce });

test('this tree serves toy.coin (the toy build\'s op table), after every op of the normal build', () => {
  assert.ok(BIN && existsSync(BIN), `PROVABLY_BIN must name the --features toy binary (make test-toy), got ${BIN}`);
  assert.equal(OPS.at(-1), 'toy.coin', 'run in the tree scripts/toy-tree writes, whose generated/ops.mjs holds toy.coin');
  assert.ok(declarations.get('toy.coin').stats.tables, 'toy.coin declares tables');
});

describe('toy.coin\'s statistics: the page\'s equal `provably audit --stats`', { timeout: 300000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'provably-toy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test(`an honest history of ${BETS} bets: no alarm, every test equal`, async () => {
    const requests = [];
    for (let pair = 0; pair < 20; pair++) {
      const secret = sha256hex(`toy honest ${pair}`);
      for (let nonce = 0; nonce < BETS / 20; nonce++) requests.push(coin(secret, `player ${pair}`, nonce));
    }
    const text = proofOf(requests, { group: true });
    assert.equal(text.trim().split('\n').length, 20, 'one epoch per seed pair');
    const [code, rust] = audit(BIN, dir, 'honest.jsonl', text);
    assert.equal(code, 0, 'every bet matches and no alarm');
    assert.equal(rust.rounds, BETS);
    const names = rust.tests.filter((t) => t.family === 'toy.coin').map((t) => t.name);
    assert.ok(names.includes('side (heads, tails)'), `the side is tested: ${names}`);
    assert.ok(names.some((n) => /along nonces$/.test(n)), `the serial tests follow the nonces: ${names}`);
    assertSame(rust, await pageStatistics(text), 'honest toy history');
  });

  test(`${BETS} bets on server seeds ground for heads: the alarm, every test equal`, async () => {
    const candidates = Array.from({ length: BETS }, (_, b) => [0, 1, 2].map((c) => coin(sha256hex(`toy operator ${b} candidate ${c}`), 'player', 0)));
    const sides = serve(BIN, candidates.flat()).map((ok) => ok.side);
    const kept = candidates.map((options, b) => options.find((_, c) => sides[3 * b + c] === 'heads') ?? options[2]);
    const text = proofOf(kept, { group: false });
    const [code, rust] = audit(BIN, dir, 'ground.jsonl', text);
    assert.equal(code, 6, 'an alarm without a mismatch');
    assert.ok(rust.tests.some((t) => t.family === 'toy.coin' && t.name === 'side (heads, tails)' && t.rejected), 'the side test rejects');
    assertSame(rust, await pageStatistics(text), 'ground toy history');
  });
});

test('the coin with its sides swapped diverges on the toy\'s vectors', () => {
  const out = spawnSync(BIN, ['diff', '--target-cmd', 'node tests/toy/wrong-coin.mjs', '--op', 'toy.coin', '--vectors-only', '--quiet'], { cwd: TREE, encoding: 'utf8' });
  assert.equal(out.status, 1, `provably diff exits 1 on a divergence, got ${out.status}\n${out.stdout}\n${out.stderr}`);
});

test('the page\'s self-test in chromium passes over a bundle with the toy\'s vectors', { skip: !IN_CI && !existsSync(CHROMIUM) && `no chromium at ${CHROMIUM}`, timeout: 120000 }, async () => {
  const bundle = JSON.parse(readFileSync(join(TREE, 'vectors/selftest.json'), 'utf8')).tests;
  assert.ok(bundle.some((t) => t.input?.op === 'toy.coin'), 'selftest.json holds toy.coin vectors');
  const { child, url } = await startWeb(BIN, TREE);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: 30000, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(url);
    await page.waitForSelector('#selftest:not([data-state="running"])', { timeout: 60000 });
    assert.equal(await page.getAttribute('#selftest', 'data-state'), 'passed', await page.textContent('#selftest-status'));
    // German digits: „4.321“.
    assert.equal(Number((await page.textContent('#selftest-passed')).replaceAll('.', '')), bundle.length, 'every vector of the toy build\'s bundle');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    child.kill();
  }
});
