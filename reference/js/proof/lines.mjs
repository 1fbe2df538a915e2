// JSON lines: one epoch per line (docs/proofs.md), each line scanned on
// its own, so a line that is not JSON is one finding at its line and the
// others are still read.

import { skipSpace } from '../json.mjs';
import { epochValueTasks } from './document.mjs';
import { invalidAt } from './finding.mjs';
import { NotJson, Scanner } from './scan.mjs';

/** JSON lines: `text` a string, or the lines' bytes when the whole is not UTF-8 (`lines` given). */
export function linesTasks(ctx, lines) {
  const tasks = [];
  let epoch = 0;
  lines.forEach((raw, i) => {
    const line = i + 1;
    // Blank is JSON's white space only: a line of form feeds is an epoch that is not JSON.
    if (typeof raw === 'string' && skipSpace(raw, 0) === raw.length) return;
    const at = { epoch, line };
    if (typeof raw !== 'string') {
      const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
      ctx.epochs.push(info);
      tasks.push({ kind: 'epoch', info }, { kind: 'epoch-invalid', info, finding: invalidAt(at, null, 'not JSON: the line is not UTF-8') });
      epoch++;
      return;
    }
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const scan = new Scanner(text);
    const known = ctx.epochs.length;
    try {
      scan.whole();
      scan.i = 0;
      scan.ws();
      // The walk reads the epoch's keys and small values strictly (document.mjs).
      tasks.push(...epochValueTasks(ctx, scan, scan.i, epoch, line));
    } catch (e) {
      if (!(e instanceof NotJson)) throw e;
      ctx.epochs.length = known;
      const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
      ctx.epochs.push(info);
      tasks.push({ kind: 'epoch', info }, { kind: 'epoch-invalid', info, finding: invalidAt(at, null, `not JSON: ${e.message} at character ${e.offset}`) });
    }
    epoch++;
  });
  return tasks;
}
