// JSON lines: one epoch per line (docs/proofs.md), each line scanned on
// its own, so a line that is not JSON is one finding at its line and the
// others are still read.

import { epochValueTasks } from './document.mjs';
import { invalidAt } from './finding.mjs';
import { NotJson, Scanner } from './scan.mjs';

/** JSON lines: `text` a string, or the lines' bytes when the whole is not UTF-8 (`lines` given). */
export function linesTasks(ctx, lines) {
  const tasks = [];
  let epoch = 0;
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (typeof raw === 'string' && /^[ \t\r\f\n]*$/.test(raw)) return;
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
    try {
      scan.whole();
    } catch (e) {
      if (!(e instanceof NotJson)) throw e;
      const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
      ctx.epochs.push(info);
      tasks.push({ kind: 'epoch', info }, { kind: 'epoch-invalid', info, finding: invalidAt(at, null, `not JSON: ${e.message} at character ${e.offset}`) });
      epoch++;
      return;
    }
    scan.i = 0;
    scan.ws();
    tasks.push(...epochValueTasks(ctx, scan, scan.i, epoch, line));
    epoch++;
  });
  return tasks;
}
