// The page's start-up cost in headless Chromium: from navigation start until
// the self-test has passed and the unlocked page has painted its next frame.
//
//   node scripts/bench-page.mjs [--runs 15] [--selftest FILE] [--root DIR]
//
// Starts `provably web --port 0 --root DIR` ($PROVABLY_BIN, default
// target/debug/provably; DIR defaults to this checkout), opens the page N
// times, each in a fresh browser context (no HTTP cache, no imported keys),
// and prints every run, the median, the minimum and the maximum in ms.
// `--selftest FILE` serves FILE as /vectors/selftest.json instead, to time
// another vector bundle with the same page.
//
// The time is taken inside the page: an init script watches
// <body data-selftest> (set by app.mjs once the self-test is decided) and
// records performance.now() (milliseconds since navigation start) at the
// first animation frame after it became "passed".

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    selftest: { type: 'string' },
    root: { type: 'string', default: REPO },
    warmup: { type: 'string', default: '2' },
  },
});
const RUNS = Number(opts.runs);
const WARMUP = Number(opts.warmup);
const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
const CHROMIUM = process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium';
const bundle = opts.selftest ? readFileSync(opts.selftest, 'utf8') : null;

function startServer() {
  return new Promise((ok, fail) => {
    const child = spawn(BIN, ['web', '--port', '0', '--root', resolve(opts.root)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => fail(new Error('provably web did not start')), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ child, url: m[1] });
      }
    });
    child.on('exit', (code) => fail(new Error(`provably web exited with ${code}`)));
  });
}

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

const server = await startServer();
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});
try {
  const times = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.addInitScript(watchSelftest);
    if (bundle) {
      await context.route('**/vectors/selftest.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: bundle }));
    }
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => window.__selftestPainted !== undefined, null, { timeout: 60000 });
    const t = await page.evaluate(() => window.__selftestPainted);
    await context.close();
    if (t < 0) throw new Error('the self-test failed');
    if (i >= WARMUP) times.push(t);
  }
  const fmt = (x) => x.toFixed(0);
  console.log(`runs (ms): ${times.map(fmt).join(' ')}`);
  console.log(`median ${fmt(median(times))} ms, min ${fmt(Math.min(...times))} ms, max ${fmt(Math.max(...times))} ms over ${RUNS} runs (${WARMUP} warm-up runs not counted)`);
} finally {
  await browser.close();
  server.child.kill();
}
