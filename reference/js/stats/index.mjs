// The statistics of a whole proof: the tests of `provably audit --stats`
// (src/stats/, docs/statistics.md) over the rounds a check has already
// derived (no second HMAC), so that a player sees on the page what the
// audit reports: seed grinding, the one attack byte equality cannot see.
//
//   const s = statisticsOf(checked.epochs);   // after checkProof (the page: in its worker)
//   s.alarm, s.tests[i].pValue                  // the keys of the report's `statistics`
//
// The JS twin of src/stats/, held equal to it by
// reference/js/test/stats.test.mjs (every test's statistic, df and p-value,
// the alarm, on honest and ground archives built with `provably serve`):
// * families and tests per op and configuration as each op declares them
//   (its `stats`, stats/laws.mjs, in its scheme module), in the audit's
//   order (families by op, then parameters; tests in layout order), with
//   the same names;
// * the exact cell probabilities, computed by the same float operations in
//   the same order as the Rust side, so equal to the bit;
// * Pearson's χ² (only when every cell expects MIN_EXPECTED), the serial
//   pairs, runs and lag-one correlation along nonces, in the same summation
//   order: statistics equal to the bit. The p-values come from the same
//   incomplete-gamma routines (stats/math.mjs); Math.exp and Math.log may
//   differ from the platform's libm in the last bit, so p-values agree to
//   about 1e-13;
// * Holm's step-down correction at the family-wise level (default 10⁻³);
// * serial pairs follow document order within an epoch, as the audit does.
//
// No DOM: the page's worker runs it, and node imports it as it is.

import { Collector } from './collect.mjs';
import { chi2Sf, normalTwoSided } from './math.mjs';
import { compareKeys, layout } from './model.mjs';

export { Collector, MAX_FAMILIES, MAX_PAST } from './collect.mjs';
export { chi2Sf, gammaQ, lnGamma, normalTwoSided } from './math.mjs';
export { compareKeys, hasTests, keyOf, layout, shape } from './model.mjs';

/** The default family-wise level: an honest archive raises the alarm with probability at most 10⁻³. */
export const DEFAULT_LEVEL = 1e-3;
/** A table is tested only when each of its cells expects this many counts. */
export const MIN_EXPECTED = 20;

/** Pearson's χ² of `counts` against `probs`: [statistic, df, p] or null (too few, or nothing to test). */
export function chiSquare(counts, probs) {
  let n = 0;
  for (const c of counts) n += c;
  let stat = 0;
  let cells = 0;
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i];
    const o = counts[i] ?? 0;
    if (p <= 0) {
      if (o > 0) return [Number.MAX_VALUE, 1, 0]; // an outcome the scheme cannot give
      continue;
    }
    const e = n * p;
    if (e < MIN_EXPECTED) return null;
    stat += ((o - e) * (o - e)) / e;
    cells++;
  }
  const df = cells - 1;
  return df > 0 ? [stat, df, chi2Sf(stat, df)] : null;
}

const sum = (xs) => {
  let s = 0;
  for (const x of xs) s += x;
  return s;
};

function result(family, name, [statistic, df, pValue], counts) {
  return { family, name, distribution: df === null ? 'normal' : 'chi2', statistic, df, pValue, n: sum(counts), threshold: 0, rejected: false };
}

/** The serial tests of one pair table (pairs, runs, lag-one correlation); returns how many could not run. */
function serialTests(family, pairs, stride, marginal, out) {
  const k = marginal.length;
  const at = (a, b) => pairs[a * stride + b];
  const flat = [];
  const expected = [];
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) flat.push(at(a, b)), expected.push(marginal[a] * marginal[b]);
  let notRun = 0;
  const chi = chiSquare(flat, expected);
  if (chi) out.push(result(family, 'serial pairs along nonces', chi, flat));
  else notRun++;
  const moves = [0, 0, 0];
  const probs = [0, 0, 0];
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++) {
      const m = (b <= a ? 1 : 0) + (b < a ? 1 : 0);
      moves[m] += at(a, b);
      probs[m] += marginal[a] * marginal[b];
    }
  }
  const runs = chiSquare(moves, probs);
  if (runs) out.push(result(family, 'runs: up, equal, down along nonces', runs, moves));
  else notRun++;
  let mu = 0;
  marginal.forEach((p, a) => (mu += a * p));
  const n = sum(flat);
  let variance = 0;
  marginal.forEach((p, a) => (variance += (a - mu) * (a - mu) * p)); // powi(2) is one multiplication
  if (n >= 30 && variance > 0) {
    let s = 0;
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) s += (a - mu) * (b - mu) * at(a, b);
    const z = s / (variance * Math.sqrt(n));
    out.push(result(family, 'serial correlation along nonces', [z, null, normalTwoSided(z)], flat));
  } else {
    notRun++;
  }
  return notRun;
}

/** Holm's step-down procedure: each test's threshold α/(m − rank), and whether it is rejected. */
export function holm(tests, level) {
  const order = tests.map((_, i) => i).sort((a, b) => tests[a].pValue - tests[b].pValue);
  const m = tests.length;
  let rejecting = true;
  order.forEach((i, rank) => {
    const threshold = level / (m - rank);
    tests[i].threshold = threshold;
    rejecting = rejecting && tests[i].pValue <= threshold;
    tests[i].rejected = rejecting;
  });
}

/** The tests of a filled collector, corrected at `level`: the report's `statistics` object. */
export function evaluate(collector, level = DEFAULT_LEVEL) {
  const tests = [];
  let notRun = 0;
  const tables = [...collector.tables.values()].sort((x, y) => compareKeys(x.key, y.key));
  for (const table of tables) {
    const { label, tests: list, serial } = layout(table.key, collector.declarations);
    list.forEach(([name, probs], t) => {
      const counts = table.counts.subarray(t * table.stride, (t + 1) * table.stride);
      const chi = chiSquare(counts, probs);
      if (chi) tests.push(result(label, name, chi, counts));
      else notRun++;
    });
    if (serial) notRun += serialTests(label, table.pairs, table.stride, serial, tests);
  }
  holm(tests, level);
  return { level, correction: 'holm', alarm: tests.some((t) => t.rejected), rounds: collector.rounds, untested: collector.untested, notRun, pastCap: collector.pastCap, tests };
}

/**
 * The statistics of a checked proof (checkProof's `epochs`): every round with
 * a derived outcome counts, matching, mismatching or unobserved (grinding
 * acts on what the seed gives); skipped (`external`) and invalid rounds do not.
 * `declarations` (op → declaration): the engine the proof was checked with, the registry's by default.
 */
export function statisticsOf(epochs, level = DEFAULT_LEVEL, declarations = undefined) {
  const c = new Collector(declarations);
  for (const e of epochs) {
    for (const r of e.rounds) {
      // A crash game without its hash: its observed point is what is counted (src/proof/game.rs).
      if (r.derived) c.add(e.epoch, r.request, r.derived);
      else if (r.counted) c.add(e.epoch, r.counted.request, r.counted.ok);
    }
  }
  return evaluate(c, level);
}
