// The page's statistics (web/stats.mjs) against `provably audit --stats
// --report` on the same archives: honest and ground archives built through
// `provably serve` as tests/stats.rs builds them (10,000 dice, 2,000
// six-deck shoes), and a proof document with every tested op, long epochs
// the audit cuts into batches, a mismatching, an external and an invalid
// round. The page's side is what its worker runs: reference/js/proof.mjs's
// checkProof, then statisticsOf over the rounds it derived.
//
// Compared for every test: family, name, distribution, df, n, rejected and
// the statistic exactly (to the bit: the same float operations in the same
// order); the p-value to TOLERANCE = 1e-9 relative (it may differ in its
// last bits where Math.exp and Math.log are not the platform's libm); Holm's threshold exactly, but for
// two tests whose p-values are within TOLERANCE of each other, whose ranks
// may swap. Then level, alarm, rounds, untested and notRun exactly.
//
//   PROVABLY_BIN=$PWD/target/debug/provably node --test web/test/stats.test.mjs

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkProof } from '../../reference/js/proof.mjs';
import { asLines, diceArchives, mixedDocument, shoeArchives } from '../../reference/js/testkit/archives.mjs';
import { chiSquare, cutProbabilities, holm, shuffleMarginals, statisticsOf } from '../stats.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());
export const TOLERANCE = 1e-9;

const relative = (a, b) => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));

/** `audit --stats --report` of `text`: [exit code, the report's statistics]. */
function audit(dir, name, text) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const out = spawnSync(BIN, ['audit', '--stats', '--quiet', '--report', `${file}.report.json`, file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.ok([0, 1, 2, 6].includes(out.status), `audit exited ${out.status}: ${out.stderr}`);
  return [out.status, JSON.parse(readFileSync(`${file}.report.json`, 'utf8')).statistics];
}

/** Every test of `page` equal to the audit's; returns { tests, exact, worst } for the log. */
function assertSame(rust, page, what) {
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
  for (const k of ['level', 'correction', 'alarm', 'rounds', 'untested', 'notRun']) assert.equal(page[k], rust[k], `${what}: ${k}`);
  console.log(`${what}: ${rust.tests.length} tests, ${exact} statistics equal to the bit, largest relative p-value difference ${worst.toExponential(2)}, ${swapped} Holm ranks swapped between near-equal p-values; alarm ${rust.alarm}`);
  return { tests: rust.tests.length, exact, worst };
}

async function pageStatistics(text) {
  const checked = await checkProof(text);
  return statisticsOf(checked.epochs);
}

if (!existsSync(BIN)) {
  const why = `no provably binary at ${BIN} (cargo build, or set PROVABLY_BIN)`;
  if (IN_CI) test('statistics differential test prerequisites (required because CI is set)', () => assert.fail(why));
  else test('the page\'s statistics equal the audit\'s', { skip: why }, () => {});
} else {
  describe('the page\'s statistics equal `provably audit --stats`', { timeout: 600000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'provably-stats-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('10,000 dice, honest and ground on the first die', { timeout: 300000 }, async () => {
      const { honest, ground } = diceArchives(BIN, 1000);
      const [hc, h] = audit(dir, 'dice-honest.jsonl', asLines(honest));
      assert.equal(hc, 0);
      assertSame(h, await pageStatistics(asLines(honest)), 'honest dice');
      const [gc, g] = audit(dir, 'dice-ground.jsonl', asLines(ground));
      assert.equal(gc, 6, 'the ground archive raises the alarm');
      assert.equal(g.alarm, true);
      assertSame(g, await pageStatistics(asLines(ground)), 'ground dice');
    });

    test('2,000 six-deck shoes, honest and ground on the first card', { timeout: 300000 }, async () => {
      const { honest, ground } = shoeArchives(BIN, 2000);
      const [hc, h] = audit(dir, 'shoes-honest.jsonl', asLines(honest));
      assert.equal(hc, 0);
      assertSame(h, await pageStatistics(asLines(honest)), 'honest shoes');
      const [gc, g] = audit(dir, 'shoes-ground.jsonl', asLines(ground));
      assert.equal(gc, 6);
      assertSame(g, await pageStatistics(asLines(ground)), 'ground shoes');
    });

    test('every tested op in one document, long epochs in batches, rounds that count and rounds that do not', { timeout: 300000 }, async () => {
      const text = mixedDocument(BIN);
      const [code, rust] = audit(dir, 'mixed.json', text);
      assert.equal(code, 2, 'the invalid round makes the archive invalid');
      const families = new Set(rust.tests.map((t) => t.family.split(' ')[0]));
      for (const op of ['dice.roll', 'cursor.int', 'cursor.float', 'ladder.shuffle', 'cursor.shuffle', 'poker.deal', 'shoe.tournament', 'selfpoker.deck']) {
        assert.ok(families.has(op), `${op} has tests that run`);
      }
      assert.equal(rust.untested, 3, 'the three ladders of 70 cases');
      assert.ok(rust.tests.some((t) => t.name === 'serial pairs along nonces' && t.n === 1499), 'every pair of the 1,500 dice, across the audit\'s batches');
      assertSame(rust, await pageStatistics(text), 'every op');
      // The same document as JSON lines: the same statistics.
      const lines = asLines(JSON.parse(text).epochs);
      assertSame(audit(dir, 'mixed.jsonl', lines)[1], await pageStatistics(lines), 'every op, as JSON lines');
    });
  });
}

describe('web/stats.mjs on its own', () => {
  test('an outcome the scheme cannot give is a p-value of 0; too few per cell is no test', () => {
    assert.deepEqual(chiSquare([25, 1], [1, 0]), [Number.MAX_VALUE, 1, 0]);
    assert.equal(chiSquare([19, 19], [0.5, 0.5]), null, '19 expected per cell');
    assert.notEqual(chiSquare([20, 20], [0.5, 0.5]), null);
  });

  test('Holm: thresholds α/(m − rank), rejection stops at the first p above its threshold', () => {
    const tests = [0.02, 0.0001, 0.004, 0.3].map((pValue) => ({ pValue }));
    holm(tests, 0.01);
    assert.deepEqual(tests.map((t) => t.threshold), [0.01 / 2, 0.01 / 4, 0.01 / 3, 0.01 / 1]);
    assert.deepEqual(tests.map((t) => t.rejected), [false, true, false, false], "0.004 is above 0.01/3: it and every larger p stay");
  });

  test('the cut card\'s clamp puts mass on its bound; the shuffle marginals are distributions', () => {
    // 6 decks at 0.5: base 156 = the lower clamp, spread 6: seven of 13 offsets on 156.
    const cut = cutProbabilities(6, 0.5);
    assert.equal(cut.length, 7);
    assert.equal(cut[0], 7 / 13);
    for (const row of shuffleMarginals(25)) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  });
});
