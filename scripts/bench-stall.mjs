// Does the page stall? A proof of N dice rounds (made by `provably proof`,
// judged by `provably audit`) opened from a #proof= link and from a file,
// side by side, at a CPU slowdown (CDP Emulation.setCPUThrottlingRate), in
// headless Chromium as the browser tests run it:
//
//   node scripts/bench-stall.mjs [--rounds 10000] [--throttle 4] [--runs 5] [--warmup 1] [--modes link,file] [--root DIR]… [--json]
//
// The figures (reference/js/testkit/stall.mjs, which web/test/page-never-stalls.test.mjs
// uses too), per run: the longest main-thread task, the largest gap of a
// 20 ms timer, the time to the verdict from navigation and from the
// self-test's pass (a link opens the moment it passes; a file is handed to
// the page then), and the main thread's script and task time, each over the
// whole run and from the pass on. The cells (root × link/file) alternate run
// by run, so a busy machine slows them alike. Several --root (an older
// checkout and this one, each served by `provably web --root DIR`) measure
// before and after in one run; BENCHMARKS.md has figures.

import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { rustDiceProof, stallRun } from '../reference/js/testkit/stall.mjs';
import { startWeb } from '../reference/js/testkit/web.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10000' },
    throttle: { type: 'string', default: '4' },
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    root: { type: 'string', multiple: true, default: [REPO] },
    modes: { type: 'string', default: 'link,file' },
    json: { type: 'boolean', default: false },
  },
});
const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
const CHROMIUM = process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

{
  const rounds = Number(opts.rounds);
  const rate = Number(opts.throttle);
  const proof = rustDiceProof(BIN, rounds);
  const hash = `#proof=${Buffer.from(proof.text).toString('base64url')}`;
  const servers = await Promise.all(opts.root.map((r) => startWeb(BIN, resolve(r), 15000)));
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'] });
  try {
    const cells = servers.flatMap((s, k) => opts.modes.split(',').map((mode) => ({ s, root: opts.root[k], mode, runs: [] })));
    for (let i = 0; i < Number(opts.warmup) + Number(opts.runs); i++) {
      for (const c of cells) {
        const r = await stallRun(browser, c.s.url, c.mode === 'link' ? { hash, rate } : { file: proof.path, rate });
        if (r.verdict !== proof.report.verdict) throw new Error(`${c.root} ${c.mode}: the page says ${r.verdict}, provably audit ${proof.report.verdict}`);
        if (i >= Number(opts.warmup)) c.runs.push(r);
        if (opts.json) console.log(JSON.stringify({ root: c.root, mode: c.mode, run: i, ...r }));
      }
    }
    console.log(`${rounds} dice rounds by \`provably proof --group --commit\` (${proof.text.length} bytes, a link of ${hash.length} characters; audit: ${proof.report.verdict}), CPU ${rate}x, ${opts.runs} runs each after ${opts.warmup} warm-up, alternating; medians (min–max):`);
    const f = (xs) => `${median(xs)} (${Math.min(...xs)}–${Math.max(...xs)})`;
    for (const c of cells) {
      const col = (k) => f(c.runs.map((r) => r[k]));
      console.log(`  ${c.root} ${c.mode}: longest task ${col('longest')} ms (from the pass on ${col('checkLongest')}); largest timer gap ${col('maxGap')} ms (from the pass on ${col('checkMaxGap')}); tasks over 100 ms ${col('over100')}; verdict after ${col('toVerdict')} ms from navigation, ${col('fromPass')} ms from the self-test's pass; main thread script ${col('scriptMs')} ms, tasks ${col('taskMs')} ms (from the pass on: script ${col('checkScriptMs')} ms, tasks ${col('checkTaskMs')} ms)`);
    }
  } finally {
    await browser.close();
    for (const s of servers) s.child.kill();
  }
}
