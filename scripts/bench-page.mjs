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
// With `--proof N` it times a check instead: from navigation start to the
// verdict of an N-round dice proof (seed 001, every face observed, computed
// here with node:crypto) opened from a #proof= link, self-test included,
// and records the longest main-thread task (a PerformanceObserver for
// 'longtask'). `--throttle 1,4` repeats it at each CPU slowdown (CDP
// Emulation.setCPUThrottlingRate), the rates alternating run by run:
//
//   node scripts/bench-page.mjs --proof 10000 --throttle 1,4 --runs 5
//
// The time is taken inside the page: an init script watches
// <body data-selftest> (set by app.mjs once the self-test is decided) and
// records performance.now() (milliseconds since navigation start) at the
// first animation frame after it became "passed".

import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { loadVectors } from '../reference/js/testkit/proofs.mjs';
import { startWeb } from '../reference/js/testkit/web.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    selftest: { type: 'string' },
    root: { type: 'string', multiple: true, default: [REPO] },
    warmup: { type: 'string', default: '2' },
    proof: { type: 'string' },
    throttle: { type: 'string', default: '1' },
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

/** An N-round dice proof (seed 001's rule with node:crypto), every face observed. */
function diceProof(rounds) {
  const v = loadVectors().find((t) => t.input.op === 'dice.roll');
  const die = (s, c, n) => {
    for (let r = 0; r < 16; r++) for (const b of createHmac('sha256', s).update(`${c}:${n}:${r}`).digest()) if (b < 252) return (b % 6) + 1;
    return null;
  };
  const { serverSeed, clientSeed } = v.input;
  if (die(serverSeed, clientSeed, v.input.n) !== v.expected.face) throw new Error('node:crypto does not roll the vectors\' die');
  const list = Array.from({ length: rounds }, (_, n) => ({ op: 'dice.roll', clientSeed, n, observed: { face: die(serverSeed, clientSeed, n) } }));
  return JSON.stringify({ proof: 1, epochs: [{ commit: createHash('sha256').update(serverSeed).digest('hex'), serverSeed, rounds: list }] });
}

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

/** One check: ms from navigation start to the proof's verdict, and the longest main-thread task, at CPU slowdown `rate`. */
async function proofOnce(url, hash, rate) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  await context.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await page.goto(url + hash);
  await page.waitForSelector('#proof-verdict[data-state="done"]', { timeout: 600000 });
  const r = await page.evaluate(() => ({ t: performance.now(), verdict: document.getElementById('proof-verdict').dataset.verdict, long: Math.max(0, ...window.__long) }));
  await context.close();
  if (r.verdict !== 'match') throw new Error(`the proof gave ${r.verdict}`);
  return r;
}

async function benchProof() {
  const hash = `#proof=${Buffer.from(diceProof(Number(opts.proof))).toString('base64url')}`;
  const rates = opts.throttle.split(',').map(Number);
  const cells = servers.flatMap((s, k) => rates.map((rate) => ({ s, root: opts.root[k], rate, runs: [] })));
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const c of cells) {
      const r = await proofOnce(c.s.url, hash, c.rate);
      if (i >= WARMUP) c.runs.push(r);
    }
  }
  console.log(`${opts.proof} dice rounds from a #proof= link (${hash.length} characters), self-test included, ${RUNS} runs each (${WARMUP} warm-up runs not counted), alternating:`);
  for (const c of cells) {
    const t = c.runs.map((r) => r.t);
    const long = c.runs.map((r) => r.long);
    console.log(`  ${c.root} at CPU ${c.rate}x: verdict after median ${median(t).toFixed(0)} ms (min ${Math.min(...t).toFixed(0)}, max ${Math.max(...t).toFixed(0)}); longest main-thread task median ${median(long).toFixed(0)} ms, max ${Math.max(...long).toFixed(0)} ms`);
  }
  const base = cells[0];
  for (const c of cells.slice(1)) console.log(`  median (${c.root}, ${c.rate}x) / (${base.root}, ${base.rate}x) = ${(median(c.runs.map((r) => r.t)) / median(base.runs.map((r) => r.t))).toFixed(2)}`);
}

try {
  if (opts.proof) await benchProof();
  else {
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
  }
} finally {
  await browser.close();
  for (const s of servers) s.child.kill();
}
