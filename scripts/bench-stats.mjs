// What the statistics add to a whole proof's check on the page, in headless
// Chromium: the page's own modules (/js/proof.mjs's checkProof, then
// /js/stats/index.mjs's statisticsOf over the rounds it derived, as web/worker.mjs
// runs them), timed inside the page, the two alternating run by run.
//
//   node scripts/bench-stats.mjs [--runs 7] [--warmup 1] [--shoes 2000] [--dice 1000]
//
// The archives are the statistics tests' (reference/js/testkit/archives.mjs,
// built through `provably serve`, $PROVABLY_BIN): the honest 10,000-roll
// dice archive (1,000 games of ten, JSON lines) and, with --shoes N, N
// honest six-deck shoes. Prints per archive the median (min–max) of the
// check and of the statistics in ms, and their ratio.

import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { asLines, diceArchives, shoeArchives } from '../reference/js/testkit/archives.mjs';
import { startWeb } from '../reference/js/testkit/web.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    warmup: { type: 'string', default: '1' },
    dice: { type: 'string', default: '1000' },
    shoes: { type: 'string', default: '0' },
  },
});
const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
const CHROMIUM = process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** In the page: one check and one statistics pass over `text`, in ms. */
async function once(page, text) {
  return page.evaluate(async (t) => {
    const { checkProof } = await import('/js/proof.mjs');
    const { statisticsOf } = await import('/js/stats/index.mjs');
    const t0 = performance.now();
    const checked = await checkProof(t);
    const t1 = performance.now();
    const s = statisticsOf(checked.epochs);
    const t2 = performance.now();
    return { check: t1 - t0, stats: t2 - t1, verdict: checked.report.verdict, tests: s.tests.length, rounds: s.rounds };
  }, text);
}

async function main() {
  const archives = [];
  if (Number(opts.dice)) archives.push([`${Number(opts.dice) * 10} dice (${opts.dice} games of ten)`, asLines(diceArchives(BIN, Number(opts.dice)).honest)]);
  if (Number(opts.shoes)) archives.push([`${opts.shoes} six-deck shoes`, asLines(shoeArchives(BIN, Number(opts.shoes)).honest)]);
  const server = await startWeb(BIN, REPO, 15000);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForSelector('body[data-selftest="passed"]', { timeout: 60000 });
    const runs = Number(opts.runs);
    const times = archives.map(() => ({ check: [], stats: [] }));
    for (let r = 0; r < Number(opts.warmup) + runs; r++) {
      for (const [i, [name, text]] of archives.entries()) {
        const t = await once(page, text);
        if (t.verdict !== 'match') throw new Error(`${name}: ${t.verdict}`);
        if (r < Number(opts.warmup)) continue;
        times[i].check.push(t.check);
        times[i].stats.push(t.stats);
        if (r === Number(opts.warmup)) console.log(`${name}: ${t.rounds} rounds counted, ${t.tests} tests`);
      }
    }
    for (const [i, [name]] of archives.entries()) {
      const { check, stats } = times[i];
      const fmt = (xs) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
      console.log(`${name}, ${runs} runs: check ${fmt(check)}; statistics ${fmt(stats)}; statistics / check = ${(median(stats) / median(check)).toFixed(4)}`);
    }
  } finally {
    await browser.close();
    server.child.kill();
  }
}

await main();
