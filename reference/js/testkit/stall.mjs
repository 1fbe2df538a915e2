// A page load that watches its main thread (the page never stalls), shared by
// web/test/page-never-stalls.test.mjs and scripts/bench-stall.mjs: a proof of N dice
// rounds written and judged by the Rust side, opened from a #proof= link or
// from a file at a CPU slowdown (CDP Emulation.setCPUThrottlingRate), with
// the longest main-thread task (PerformanceObserver 'longtask'), the largest
// gap of a 20 ms timer, the time to the verdict, and the renderer main
// thread's script and task time (CDP Performance.getMetrics), over the whole
// run and from the self-test's pass on.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** N dice rounds of one seed, written and judged by the Rust side. */
export function rustDiceProof(bin, rounds) {
  const dir = mkdtempSync(join(tmpdir(), 'provably-stall-'));
  const req = Array.from({ length: rounds }, (_, n) => JSON.stringify({ op: 'dice.roll', serverSeed: 'Würfelabend 35', clientSeed: 'spieler', n }));
  writeFileSync(join(dir, 'req.jsonl'), req.join('\n'));
  const made = spawnSync(bin, ['proof', '--requests', join(dir, 'req.jsonl'), '--group', '--commit'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (made.status !== 0) throw new Error(`provably proof: ${made.stderr}`);
  writeFileSync(join(dir, 'wuerfel.json'), made.stdout);
  const audit = spawnSync(bin, ['audit', '-q', '--report', join(dir, 'r.json'), join(dir, 'wuerfel.json')], { encoding: 'utf8' });
  if (audit.status !== 0 && audit.status !== 1) throw new Error(`provably audit: ${audit.stderr}`);
  return { text: made.stdout, path: join(dir, 'wuerfel.json'), report: JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) };
}

/** Runs in the page before its own scripts: long tasks, the timer's gaps, when the self-test passed and the verdict came. */
export function probe() {
  const w = window;
  w.__stall = { long: [], at: [], maxGap: 0, checkGap: 0, gaps: [], passed: null, verdict: null, stopped: false, start: performance.now() };
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      w.__stall.long.push(Math.round(e.duration));
      w.__stall.at.push([Math.round(e.startTime), Math.round(e.duration)]);
    }
  }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    const gap = now - last;
    last = now;
    if (w.__stall.stopped) clearInterval(tick);
    w.__stall.maxGap = Math.max(w.__stall.maxGap, Math.round(gap));
    if (w.__stall.passed !== null) w.__stall.checkGap = Math.max(w.__stall.checkGap, Math.round(gap));
    if (gap > 100) w.__stall.gaps.push([Math.round(now - gap), Math.round(gap)]);
  }, 20);
  new MutationObserver(() => {
    if (w.__stall.passed === null && document.body?.dataset.selftest === 'passed') w.__stall.passed = performance.now();
    if (w.__stall.verdict === null && document.getElementById('proof-verdict')?.dataset.state === 'done') w.__stall.verdict = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-selftest', 'data-state'] });
}

/** Polls `expression` in the page with a bare CDP Runtime.evaluate (no Playwright script in the page: its first install is itself a task of 100 ms at 4×). */
async function until(cdp, expression, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    const { result } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
    if (result.value) return result.value;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const taskTime = async (cdp) => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((x) => [x.name, x.value]));

/**
 * One page load at CPU slowdown `rate`: the proof from `hash` (a link) or
 * from the file at `file`, handed to the page the moment the self-test has
 * passed. Returns the figures above (over the whole run, and `check*` from
 * the self-test's pass on), the verdict and its headline.
 */
export async function stallRun(browser, url, { hash = '', file = null, rate = 4, timeout = 600000, settle = 1000 } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  try {
    await context.addInitScript(probe);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await page.goto(url + hash, { waitUntil: 'commit' });
    await until(cdp, `document.body?.dataset.selftest === 'passed'`, timeout);
    const atPass = await taskTime(cdp);
    if (file) {
      const { result } = await cdp.send('Runtime.evaluate', { expression: `document.getElementById('proof-file')` });
      await cdp.send('DOM.setFileInputFiles', { files: [file], objectId: result.objectId });
    }
    await until(cdp, `window.__stall.verdict !== null && document.getElementById('proof-verdict').dataset.state === 'done'`, timeout);
    await new Promise((r) => setTimeout(r, settle));
    const { result } = await cdp.send('Runtime.evaluate', {
      returnByValue: true,
      expression: `(() => {
        window.__stall.stopped = true;
        const v = document.getElementById('proof-verdict');
        return { ...window.__stall, url: location.href.length, state: v.dataset.verdict, head: v.querySelector('.verdict-head')?.textContent ?? v.textContent,
          marks: Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name.replace('provably:', ''), Math.round(m.startTime)])) };
      })()`,
    });
    const s = result.value;
    const end = await taskTime(cdp);
    const after = (list, t) => list.filter(([at, d]) => at + d > t);
    const checkTasks = after(s.at, s.passed).map(([, d]) => d);
    return {
      verdict: s.state, head: s.head, problems, urlLength: s.url,
      longest: Math.max(0, ...s.long), over100: s.long.filter((x) => x > 100).length, maxGap: s.maxGap,
      checkLongest: Math.max(0, ...checkTasks), checkMaxGap: s.checkGap,
      toVerdict: Math.round(s.verdict), fromPass: Math.round(s.verdict - s.passed), passed: Math.round(s.passed), start: Math.round(s.start),
      scriptMs: Math.round(end.ScriptDuration * 1000), taskMs: Math.round(end.TaskDuration * 1000),
      checkScriptMs: Math.round((end.ScriptDuration - atPass.ScriptDuration) * 1000), checkTaskMs: Math.round((end.TaskDuration - atPass.TaskDuration) * 1000),
      tasksAt: s.at, gaps: s.gaps, marks: s.marks,
    };
  } finally {
    await context.close();
  }
}
