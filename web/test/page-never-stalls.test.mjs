// Regression of "the page never stalls": a 10,000-round
// proof opened from a #proof= link and from a file, at a 4× slower CPU (CDP
// Emulation.setCPUThrottlingRate), in real Chromium, the page served by
// `provably web --port 0 --root <repo>` as in page.test.mjs (which says how
// prerequisites are found). The proof is written by `provably proof` and
// judged by `provably audit`, never by the page.
//
// Measured in the page (reference/js/testkit/stall.mjs, also behind
// scripts/bench-stall.mjs and the figures in BENCHMARKS.md): the longest
// main-thread task from navigation to the verdict (PerformanceObserver
// 'longtask'), the largest gap of a 20 ms timer from the self-test's pass to
// one second after the verdict, and the renderer main thread's task time
// over that stretch (CDP Performance.getMetrics). The page waits for nothing
// Playwright puts into it: the test polls with bare CDP calls, since
// Playwright's own script is itself a task of 100 ms at 4×.
//
// What is asserted, and why so:
//   - every run: the same verdict from the link, from the file and from
//     `provably audit`, and the link's proof out of the address bar once
//     read (boot.js: a 1 MB URL left there cost the main thread seconds);
//   - one run of up to three within the bounds: no task over LONG_TASK_MS,
//     no timer gap over TIMER_GAP_MS from the pass on, and the link's
//     main-thread task time from the pass on at most LINK_FACTOR times the
//     file's. The goal itself (100 ms tasks, 200 ms gaps) is measured, not
//     asserted (scripts/bench-ratios.sh, BENCHMARKS.md: 75–89 ms and 83–126
//     ms here): a slower CI machine stretches every task, so the bounds are
//     twice and one and a half times the goal, a regression guard. On a
//     shared 2-core machine another process can stretch any task, so, as in
//     links-and-large-proofs.test.mjs, one of three runs must hold. The code before the fix
//     failed every run: its link took 2 to 4 tasks over 100 ms, timer gaps of
//     360 to 780 ms after the pass and 1.4 to 1.9 times the file's task time.
//   - Not asserted: timer gaps before the self-test has passed. The first
//     frame of a fresh renderer (style, layout, its fonts looked up one by
//     one) and the modules' compilation leave gaps of 150 to 300 ms at 4×
//     made of tasks under 100 ms each; they are printed and in BENCHMARKS.md.
//   - No time to the verdict is asserted: on a loaded machine a time limit is
//     a hang guard, not a claim. "A link as fast as a file" is held by the
//     task-time ratio, which load inflates alike for both.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { rustDiceProof, stallRun } from '../../reference/js/testkit/stall.mjs';
import { BIN, CHROMIUM, REPO, ROOT, browserSuiteReady, pageUnderTest } from '../../reference/js/testkit/browser.mjs';

const STEP = 20000;
const HANG = 600000;
const RATE = 4;
/** Twice and one and a half times the goal of 100 and 200 ms (the header says why). */
const LONG_TASK_MS = 200;
const TIMER_GAP_MS = 300;
/** The link's main-thread task time from the pass on, at most this many times the file's (before the fix: 1.4 to 1.9). */
const LINK_FACTOR = 1.25;

const ready = browserSuiteReady({ required: 'the page never stalls prerequisites', skipped: 'the page never stalls' });

if (ready) describe('the page never stalls', { timeout: HANG * 4 }, () => {
  let server;
  let browser;
  pageUnderTest({ bin: BIN, root: ROOT, executablePath: CHROMIUM, step: STEP }, (s, b) => {
    server = s;
    browser = b;
  });

  test(`10,000 rounds from a link and from a file at ${RATE}× CPU: no task over ${LONG_TASK_MS} ms, no timer gap over ${TIMER_GAP_MS} ms once the self-test passed, one verdict, and the link costs the main thread no more than the file`, { timeout: HANG * 3 }, async () => {
    const proof = rustDiceProof(BIN, 10000);
    assert.equal(proof.report.verdict, 'match');
    assert.equal(proof.report.rounds, 10000);
    const hash = `#proof=${Buffer.from(proof.text).toString('base64url')}`;
    const misses = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const link = await stallRun(browser, server.url, { hash, rate: RATE, timeout: HANG });
      const file = await stallRun(browser, server.url, { file: proof.path, rate: RATE, timeout: HANG });
      const show = (r) => `longest task ${r.longest} ms (from the pass on ${r.checkLongest}), largest timer gap ${r.maxGap} ms (from the pass on ${r.checkMaxGap}), main-thread tasks from the pass on ${r.checkTaskMs} ms, verdict ${r.fromPass} ms after the pass`;
      console.log(`the page never stalls, attempt ${attempt}: link: ${show(link)}; file: ${show(file)}`);
      for (const [what, r] of [['link', link], ['file', file]]) {
        assert.deepEqual(r.problems, [], what);
        assert.equal(r.verdict, proof.report.verdict, `${what}: the page's verdict is provably audit's`);
        assert.equal(r.head, '✓ Der Nachweis stimmt', what);
      }
      assert.ok(link.urlLength < 1000, `the link's proof left the address bar (URL of ${link.urlLength} characters)`);
      const missed = [
        link.longest > LONG_TASK_MS && `link: a task of ${link.longest} ms`,
        file.longest > LONG_TASK_MS && `file: a task of ${file.longest} ms`,
        link.checkMaxGap > TIMER_GAP_MS && `link: a timer gap of ${link.checkMaxGap} ms after the pass`,
        file.checkMaxGap > TIMER_GAP_MS && `file: a timer gap of ${file.checkMaxGap} ms after the pass`,
        link.checkTaskMs > LINK_FACTOR * file.checkTaskMs && `the link's main thread worked ${link.checkTaskMs} ms after the pass, the file's ${file.checkTaskMs} ms`,
      ].filter(Boolean);
      if (!missed.length) return;
      misses.push(`attempt ${attempt}: ${missed.join('; ')}`);
    }
    assert.fail(`no attempt within the goal:\n${misses.join('\n')}`);
  });

  test('the link leaves the address bar, yet a reload opens its proof again; once the card shows something else, a reload opens the empty page', { timeout: HANG }, async () => {
    const text = readFileSync(resolve(REPO, 'examples/proofs/dice-game.json'), 'utf8');
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      const fromLink = () => page.waitForFunction(() => document.querySelector('#proof-verdict')?.dataset.verdict === 'match'
        && document.querySelector('#proof-source')?.textContent.includes('aus dem Link'), null, { timeout: STEP * 3 });
      await page.goto(`${server.url}#proof=${Buffer.from(text).toString('base64url')}`);
      await page.waitForSelector('body[data-selftest="passed"]', { timeout: STEP * 3 });
      await fromLink();
      assert.ok(!page.url().includes('#proof='), page.url().slice(0, 80));
      await page.reload();
      await page.waitForSelector('body[data-selftest="passed"]', { timeout: STEP * 3 });
      await fromLink();
      // Typing into the box: the card no longer shows the link.
      await page.fill('#proof-text', '{');
      await page.reload();
      await page.waitForSelector('body[data-selftest="passed"]', { timeout: STEP * 3 });
      await page.waitForTimeout(1000);
      const shown = await page.$eval('#proof-verdict', (v) => ({ ...v.dataset, source: document.querySelector('#proof-source')?.textContent ?? '' }));
      assert.ok(shown.verdict !== 'match' && !shown.source.includes('aus dem Link'), JSON.stringify(shown));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
