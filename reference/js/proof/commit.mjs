// The commitment head of an epoch: which secret each op takes and which ops
// are commitments (the engine's op table as far as proofs need it), and the
// check of an epoch's `commit` against the scheme's own commitment of the
// revealed secret (engine.commitmentOf: cursor.hash or selfpoker.commit).

import { describe } from '../validate.mjs';
import { finding, invalidAt, splitMessage } from './finding.mjs';

/** Which secret each op takes, which ops are commitments, and their `ok` fields. */
export function opTable(engine) {
  const secretOf = new Map();
  const commitOps = new Map(); // secret field -> its commitment { op, field, result }
  const isCommitOp = new Set();
  for (const op of engine.OPS) {
    const c = engine.commitmentOf(op);
    if (!c) continue;
    isCommitOp.add(c.op);
    if (engine.fieldsOf(op).includes(c.field)) {
      secretOf.set(op, c.field);
      if (!commitOps.has(c.field)) commitOps.set(c.field, c);
    }
  }
  const secretFields = [...commitOps.keys()];
  // The keys that head an epoch: a committed secret's, or a crash history's chain (chain.mjs).
  return { secretOf, commitOps, isCommitOp, secretFields, headFields: [...secretFields, 'chain'] };
}

export async function checkCommit(engine, table, at, commit, secret) {
  if (commit === undefined || commit === null) {
    // Nothing to compare; the commitment is still worked out for people to see.
    const c = secret && table.commitOps.get(secret.field);
    const r = c ? await engine.execute({ op: c.op, [c.field]: secret.value }) : null;
    return { verdict: 'absent', derived: r?.ok?.[c.result] ?? null, findings: [] };
  }
  const invalid = (field, reason) => ({ verdict: 'invalid', findings: [invalidAt(at, field, reason)] });
  if (typeof commit !== 'string' || !/^[0-9a-fA-F]{64}$/.test(commit)) {
    return invalid('commit', `must be 64 hex characters (a SHA-256) or null, not ${describe(commit)}`);
  }
  if (!secret) {
    return invalid('commit', `the epoch has no ${table.secretFields.join(' or ')} to check it against`);
  }
  const c = table.commitOps.get(secret.field);
  const r = await engine.execute({ op: c.op, [c.field]: secret.value });
  if (r.error) {
    const { field, reason } = splitMessage(r.error.message, secret.field);
    return invalid(field, reason);
  }
  const derived = r.ok[c.result];
  if (derived === commit.toLowerCase()) return { verdict: 'ok', derived, findings: [] };
  return {
    verdict: 'mismatch',
    derived,
    findings: [finding('commit', at, {
      field: 'commit',
      derived,
      observed: commit,
      reason: `the commitment of the revealed ${secret.field} is not the one shown before play`,
    })],
  };
}
