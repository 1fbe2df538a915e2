// Checking a proof (docs/proofs.md): the format (format.mjs), the walk into
// tasks (document.mjs, lines.mjs), the tasks run (tasks.mjs: commitments,
// commit.mjs; rounds, round.mjs), then the report folded in document order
// with the bet histories followed (bets.mjs). The JS twin of src/proof/;
// reference/js/proof.mjs is the entry the page, the tests and the targets import.

import { NAME, OPS, commitmentOf, declarations, execute, fieldsOf } from '../provably.mjs';
import { Bets, betOf, overflow, repeated } from './bets.mjs';
import { Chains } from './chain.mjs';
import { opTable } from './commit.mjs';
import { documentTasks } from './document.mjs';
import { invalidAt } from './finding.mjs';
import { sniff } from './format.mjs';
import { linesTasks } from './lines.mjs';
import { runAll } from './tasks.mjs';

const DEFAULT_ENGINE = { NAME, OPS, execute, commitmentOf, fieldsOf, declarations };

function emptyCounts() {
  return {
    epochs: 0, rounds: 0, match: 0, mismatch: 0, skipped: 0, invalid: 0, unobserved: 0,
    commitOk: 0, commitMismatch: 0, commitAbsent: 0, invalidOther: 0, gaps: 0,
  };
}

/** The overall verdict of counts: invalid, else mismatch, else match if anything agreed, else unobserved. */
export function verdictOf(c) {
  if (c.invalid > 0 || c.invalidOther > 0) return 'invalid';
  if (c.mismatch > 0 || c.commitMismatch > 0) return 'mismatch';
  if (c.match > 0 || c.commitOk > 0) return 'match';
  return 'unobserved';
}

/**
 * Checks a proof: `input` is its text, or its bytes (a file). Returns
 * { report, epochs, findings, format, title }: `report` the object of
 * docs/proofs.md (counts, verdict, findings in document order), `epochs` what
 * the page shows (per epoch its secret, commitment and rounds with their
 * request, derived outcome and verdict), `findings` the document's own.
 */
export async function checkProof(input, { engine = DEFAULT_ENGINE, onProgress, concurrency = 8, signal } = {}) {
  const ctx = { engine, table: opTable(engine), epochs: [], title: null };
  const read = sniff(input);
  const { format } = read;
  let tasks;
  if (format === 'lines') tasks = linesTasks(ctx, read.lines);
  else if (read.text === null) tasks = [{ kind: 'doc-invalid', finding: invalidAt({ line: null }, null, 'not JSON: the text is not UTF-8') }];
  else tasks = documentTasks(ctx, read.text);
  await runAll(tasks, concurrency, onProgress, signal);

  const counts = emptyCounts();
  const findings = [];
  const own = [];
  const bets = new Bets();
  const chains = new Chains(engine);
  for (const t of tasks) {
    switch (t.kind) {
      case 'epoch':
        counts.epochs++;
        break;
      case 'epoch-invalid':
        counts.invalidOther++;
        t.info.findings.push(t.finding);
        findings.push(t.finding);
        break;
      case 'doc-invalid':
        counts.invalidOther++;
        own.push(t.finding);
        findings.push(t.finding);
        break;
      case 'commit': {
        const r = t.result;
        t.info.commit = r;
        if (r.verdict === 'ok') counts.commitOk++;
        else if (r.verdict === 'mismatch') counts.commitMismatch++;
        else if (r.verdict === 'absent') counts.commitAbsent++;
        else counts.invalidOther++;
        findings.push(...r.findings);
        break;
      }
      case 'round': {
        const r = { round: t.round, text: t.text, ...t.result };
        const bet = betOf(r);
        const seen = bet ? bets.see(t.info, bet) : 'new';
        const at = { epoch: t.info.epoch, round: t.round, line: t.info.line };
        if (seen === 'again') {
          r.verdict = 'mismatch';
          r.findings = [...r.findings, repeated(at, bet)];
        }
        // A crash history's game: its hash along its chain, shown once.
        const lost = r.game && r.verdict !== 'invalid' ? await chains.see(t.info, r, at) : null;
        t.info.rounds.push(r);
        counts.rounds++;
        counts[r.verdict]++;
        findings.push(...r.findings);
        if (seen === 'overflow') {
          const f = overflow(at);
          counts.invalidOther++;
          t.info.findings.push(f);
          findings.push(f);
        }
        if (lost) {
          counts.invalidOther++;
          t.info.findings.push(lost);
          findings.push(lost);
        }
        break;
      }
      default:
        throw new Error(`unknown task ${t.kind}`);
    }
  }
  // Gaps last: a later epoch of the same seed pair can fill one.
  for (const { info, finding } of [...bets.finish(), ...chains.finish()]) {
    counts.gaps++;
    info.findings.push(finding);
    findings.push(finding);
  }
  const report = { ...counts, verdict: verdictOf(counts), findings };
  return { report, epochs: ctx.epochs, findings: own, format, title: ctx.title };
}
