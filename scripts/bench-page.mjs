// The page's start-up cost in headless Chromium: from navigation start until
// the self-test has passed and the unlocked page has painted its next frame.
//
//   node scripts/bench-page.mjs [--runs 15] [--selftest FILE] [--root DIR]…
//
// Starts `provably web --port 0 --root DIR` ($PROVABLY_BIN, default
// target/debug/provably; DIR defaults to this checkout) for each --root,
// opens each page N times, each in a fresh browser context (no HTTP cache,
// no imported keys), and prints the runs, the median, the minimum and the
// maximum in ms. With several --root (say an older checkout and this one)
// the runs alternate between them, so that a busy machine slows both alike,
// and the ratio of the medians is printed. `--selftest FILE` serves FILE as
// /vectors/selftest.json instead, to time another vector bundle.
//
// The time is taken inside the page: an init script watches
// <body data-selftest> (set by app.mjs once the self-test is decided) and
// records performance.now() (milliseconds since navigation start) at the
// first animation frame after it became "passed".

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startWeb } from '../reference/js/testkit/web.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    selftest: { type: 'string' },
    root: { type: 'string', multiple: true, default: [REPO] },
    warmup: { type: 'string', default: '2' },
  },
});
const RUNS = Number(opts.runs);
const WARMUP = Number(opts.warmup);
const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
const CHROMIUM = process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium';
const bundle = opts.selftest ? readFileSync(opts.selftest, 'utf8') : null;

const startServer = (root) => startWeb(BIN, resolve(root), 15000);

// Runs in the page before its own scripts.
function watchSelftest() {
  const done = () => requestAnimationFrame(() => (window.__selftestPainted = performance.now()));
  new MutationObserver((_, obs) => {
    const state = document.body?.dataset.selftest;
    if (state === 'passed') {
      obs.disconnect();
      done();
    } else if (state === 'failed') {
      obs.disconnect();
      window.__selftestPainted = -1;
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-selftest'] });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const servers = await Promise.all(opts.root.map(startServer));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});

/** One page load: ms from navigation start to the first frame after the self-test passed. */
async function once(url) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  await context.addInitScript(watchSelftest);
  if (bundle) {
    await context.route('**/vectors/selftest.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: bundle }));
  }
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.__selftestPainted !== undefined, null, { timeout: 60000 });
  const t = await page.evaluate(() => window.__selftestPainted);
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name.replace('provably:', ''), m.startTime])));
  await context.close();
  if (t < 0) throw new Error(`the self-test failed at ${url}`);
  phases.push(marks);
  return t;
}
const phases = [];

try {
  const times = servers.map(() => []);
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const [k, s] of servers.entries()) {
      const t = await once(s.url);
      if (i >= WARMUP) times[k].push(t);
    }
  }
  const fmt = (x) => x.toFixed(0);
  const medians = times.map(median);
  for (const [k, root] of opts.root.entries()) {
    console.log(`${root}: runs (ms) ${times[k].map(fmt).join(' ')}`);
    console.log(`${root}: median ${fmt(medians[k])} ms, min ${fmt(Math.min(...times[k]))} ms, max ${fmt(Math.max(...times[k]))} ms over ${RUNS} runs (${WARMUP} warm-up runs not counted)`);
  }
  // The page's own marks (app.mjs), medians over every run of every root that sets them.
  const names = [...new Set(phases.flatMap((m) => Object.keys(m)))];
  if (names.length) console.log(`marks (median ms since navigation start): ${names.map((n) => `${n} ${fmt(median(phases.filter((m) => n in m).map((m) => m[n])))}`).join(', ')}`);
  for (let k = 1; k < medians.length; k++) console.log(`median ${opts.root[k]} / ${opts.root[0]} = ${(medians[k] / medians[0]).toFixed(2)}`);
} finally {
  await browser.close();
  for (const s of servers) s.child.kill();
}
