// Findings: every one with exactly the keys of docs/proofs.md, and the
// field error a stage throws before the finding is placed.

import { JsonFloat } from '../json.mjs';

const KEYS = ['epoch', 'round', 'kind', 'field', 'index', 'derived', 'observed', 'reason', 'line', 'differences'];

/** A finding with every key of docs/proofs.md, null where it does not apply. */
export function finding(kind, at, fields = {}) {
  const f = {};
  for (const k of KEYS) f[k] = null;
  Object.assign(f, { epoch: at.epoch ?? null, round: at.round ?? null, line: at.line ?? null, kind }, fields);
  return f;
}

/** A field error before it is placed. */
export class FieldError extends Error {
  constructor(field, reason, index = null) {
    super(`${field}${index === null ? '' : `[${index}]`}: ${reason}`);
    this.field = field;
    this.reason = reason;
    this.index = index;
  }
}

export const invalidAt = (at, field, reason, index = null) => finding('invalid', at, { field, reason, index });

/** "a string", "a list", …: what a value is, for a message. */
export function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof JsonFloat) return 'a number';
  return 'an object';
}

/** "nonce: 9 is above …" -> { field: "nonce", index, reason: "9 is above …" }. */
export function splitMessage(message, fallback) {
  let m = /^(?:missing field|unknown field) "?([^":]+)"?: ?(.*)$/s.exec(message);
  if (m) return { field: m[1], index: null, reason: message };
  m = /^([A-Za-z_$][\w$]*)(?:\[(\d+)\])?: (.*)$/s.exec(message);
  if (m) return { field: m[1], index: null, reason: m[3] };
  return { field: fallback, index: null, reason: message };
}
