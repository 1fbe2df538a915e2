// The page's statistics against `provably audit --stats --report` on one
// archive, as reference/js/test/stats.test.mjs and tests/toy/ compare them:
// every test's family, name, distribution, df, n and rejected exactly, the
// statistic to the bit, the p-value to TOLERANCE (Math.exp and Math.log need
// not be the platform's libm), Holm's threshold exactly but for ranks swapped
// between p-values within TOLERANCE; then level, alarm and the counts.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkProof } from '../proof.mjs';
import { statisticsOf } from '../stats/index.mjs';

export const TOLERANCE = 1e-9;

const relative = (a, b) => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));

/** `audit --stats --report` of `text`: [exit code, the report's statistics]. */
export function audit(bin, dir, name, text) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const out = spawnSync(bin, ['audit', '--stats', '--quiet', '--report', `${file}.report.json`, file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.ok([0, 1, 2, 6].includes(out.status), `audit exited ${out.status}: ${out.stderr}`);
  return [out.status, JSON.parse(readFileSync(`${file}.report.json`, 'utf8')).statistics];
}

/** Every test of `page` equal to the audit's; returns { tests, exact, worst } for the log. */
export function assertSame(rust, page, what) {
  assert.equal(page.tests.length, rust.tests.length, `${what}: number of tests`);
  let exact = 0;
  let worst = 0;
  let swapped = 0;
  rust.tests.forEach((r, i) => {
    const p = page.tests[i];
    const at = `${what}: test ${i} (${r.family}: ${r.name})`;
    for (const k of ['family', 'name', 'distribution', 'df', 'n', 'rejected']) assert.equal(p[k], r[k], `${at}: ${k}`);
    if (p.threshold !== r.threshold) {
      // Holm's rank of two p-values within the tolerance of each other may swap: the audit's test
      // that holds this threshold must have (within the tolerance) this p-value.
      const holder = rust.tests.find((x) => x.threshold === p.threshold);
      assert.ok(holder && relative(holder.pValue, r.pValue) <= TOLERANCE, `${at}: threshold ${p.threshold} against ${r.threshold}`);
      swapped++;
    }
    // Equal to the bit: a tolerance would let through the ladder's bias (4.9e-9 relative at 25 cases).
    assert.equal(p.statistic, r.statistic, `${at}: statistic`);
    const dp = r.pValue < 1e-300 && p.pValue < 1e-300 ? 0 : relative(p.pValue, r.pValue);
    assert.ok(dp <= TOLERANCE, `${at}: p-value ${p.pValue} against ${r.pValue}`);
    exact++;
    worst = Math.max(worst, dp);
  });
  for (const k of ['level', 'correction', 'alarm', 'rounds', 'untested', 'notRun', 'pastCap']) assert.equal(page[k], rust[k], `${what}: ${k}`);
  console.log(`${what}: ${rust.tests.length} tests, ${exact} statistics equal to the bit, largest relative p-value difference ${worst.toExponential(2)}, ${swapped} Holm ranks swapped between near-equal p-values; alarm ${rust.alarm}`);
  return { tests: rust.tests.length, exact, worst };
}

/** What the page's worker computes for `text`: checkProof, then statisticsOf over the rounds it derived. */
export async function pageStatistics(text) {
  const checked = await checkProof(text);
  return statisticsOf(checked.epochs);
}
