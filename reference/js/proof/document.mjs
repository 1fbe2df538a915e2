// The document walk: a proof document {"proof": 1, "title"?, "epochs": […]}
// and each epoch object in it (or on a JSON line, lines.mjs) turned into
// tasks in document order: the epoch's own findings, its commitment
// (commit.mjs) and each round (round.mjs).

import { describe } from '../validate.mjs';
import { CHAIN, CHAIN_VERSION, chainCommit, chainOf, checkGame } from './chain.mjs';
import { checkCommit } from './commit.mjs';
import { invalidAt, typeName } from './finding.mjs';
import { checkRound } from './round.mjs';
import { NotJson, Scanner, lineOf } from './scan.mjs';

export const VERSION = 1;

/**
 * The tasks of one epoch object at `start` (well-formed): a list of
 * { kind, run() -> Promise<…> } in the order their findings stand.
 */
function epochTasks(ctx, scan, start, epoch, line) {
  const at = { epoch, line };
  const members = scan.members(start);
  const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
  ctx.epochs.push(info);
  const tasks = [{ kind: 'epoch', info }];
  const invalid = (field, reason) => tasks.push({ kind: 'epoch-invalid', info, finding: invalidAt(at, field, reason) });

  const secretMember = members.find((m) => ctx.table.headFields.includes(m.key));
  let secret = secretMember ? { field: secretMember.key, value: scan.parse(secretMember.start, secretMember.end) } : null;
  // A crash history (chain.mjs) is headed by its chain, not by a secret.
  const chain = secret?.field === CHAIN ? chainOf(ctx.engine, secret.value) : null;
  if (chain) {
    info.chain = chain;
    secret = null;
  }
  info.secret = secret;
  const commitTask = (value) => {
    if (!chain) return { kind: 'commit', info, run: () => checkCommit(ctx.engine, ctx.table, at, value, secret) };
    const r = chainCommit(at, chain, value);
    return r && { kind: 'commit', info, run: async () => r };
  };
  const seen = new Set();
  for (const m of members) {
    if (seen.has(m.key)) {
      invalid(m.key, 'appears twice');
      continue;
    }
    seen.add(m.key);
    if (m.key === 'commit') {
      const task = commitTask(scan.parse(m.start, m.end));
      if (task) tasks.push(task);
    } else if (m.key === 'rounds') {
      if (scan.t[m.start] !== '[') {
        invalid('rounds', `must be a list of rounds, not ${scan.typeAt(m.start)}`);
        continue;
      }
      scan.elements(m.start).forEach(({ start: s, end: e }, round) => {
        const text = scan.t.slice(s, e);
        const run = chain
          ? () => checkGame(ctx.engine, ctx.table, chain, { ...at, round }, text)
          : () => checkRound(ctx.engine, ctx.table, { ...at, round }, text, secret);
        tasks.push({ kind: 'round', info, round, text, run });
      });
    } else if (ctx.table.headFields.includes(m.key)) {
      if (m !== secretMember) invalid(m.key, `an epoch carries one secret; this one has ${JSON.stringify(secretMember.key)} already`);
    } else {
      const hint = line !== null && m.key === 'proof' ? '; a proof document must begin with {"proof"' : '';
      invalid(m.key, `is not a field of an epoch (commit, ${ctx.table.headFields.join(', ')}, rounds)${hint}`);
    }
  }
  if (!seen.has('rounds')) invalid('rounds', 'is missing');
  if (!seen.has('commit')) {
    const task = commitTask(undefined);
    if (task) tasks.push(task);
  }
  return tasks;
}

/** One epoch value (an element of `epochs` or a JSON line) at `start`. */
export function epochValueTasks(ctx, scan, start, epoch, line) {
  if (scan.t[start] === '{') return epochTasks(ctx, scan, start, epoch, line);
  const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
  ctx.epochs.push(info);
  const f = invalidAt({ epoch, line }, null, `an epoch must be a JSON object, not ${scan.typeAt(start)}`);
  return [{ kind: 'epoch', info }, { kind: 'epoch-invalid', info, finding: f }];
}

/**
 * The tasks of a document. A text that is not JSON is one finding and
 * nothing else: found by the syntax pass, or by the walk, which reads the
 * document's keys and small values strictly (a title holding a lone
 * surrogate is not JSON, as `provably audit` reads it).
 */
export function documentTasks(ctx, text) {
  const notJson = (e) => {
    if (!(e instanceof NotJson)) throw e;
    ctx.epochs.length = 0;
    return [{ kind: 'doc-invalid', finding: invalidAt({ line: lineOf(text, e.offset) }, null, `not JSON: ${e.message} at character ${e.offset}`) }];
  };
  const scan = new Scanner(text);
  try {
    scan.whole();
    scan.i = 0;
    scan.ws();
    return walkDocument(ctx, scan);
  } catch (e) {
    return notJson(e);
  }
}

function walkDocument(ctx, scan) {
  const tasks = [];
  const invalid = (field, reason) => tasks.push({ kind: 'doc-invalid', finding: invalidAt({}, field, reason) });
  const seen = new Set();
  for (const m of scan.members(scan.i)) {
    if (seen.has(m.key)) {
      invalid(m.key, 'appears twice');
      continue;
    }
    seen.add(m.key);
    const value = () => scan.parse(m.start, m.end);
    if (m.key === 'proof') {
      const v = value();
      if (v !== VERSION && v !== CHAIN_VERSION) {
        invalid('proof', `version ${describe(v)} is not one this reader knows (it reads versions ${VERSION} and ${CHAIN_VERSION})`);
        return tasks; // nothing else is read
      }
    } else if (m.key === 'title') {
      const v = value();
      if (typeof v === 'string') ctx.title = v;
      else invalid('title', `must be a string, not ${typeName(v)}`);
    } else if (m.key === 'epochs') {
      if (scan.t[m.start] !== '[') invalid('epochs', `must be a list of epochs, not ${scan.typeAt(m.start)}`);
      else scan.elements(m.start).forEach(({ start }, epoch) => tasks.push(...epochValueTasks(ctx, scan, start, epoch, null)));
    } else {
      invalid(m.key, 'is not a field of a proof document (proof, title, epochs)');
    }
  }
  if (!seen.has('epochs')) invalid('epochs', 'is missing');
  return tasks;
}
