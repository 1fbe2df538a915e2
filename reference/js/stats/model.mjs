// The families of the statistics, read off the op declarations (the JS twin
// of src/stats/model.rs): each op declares in its scheme module what its
// outcome is (`stats`, stats/laws.mjs): which family a round belongs to, the
// tests its rounds feed with the exact probability of every cell, and which
// cells a derived round adds to. This module names no op.

import { declarations as REGISTERED } from '../provably.mjs';
import { modelOf } from './laws.mjs';

/** The model of `op`'s statistics in `declarations` (op → declaration), or null. */
export const modelOfOp = (op, declarations = REGISTERED) => modelOf(declarations.get(op)?.stats);

/** Whether `op`'s outcomes have tests in some configuration. */
export const hasTests = (op, declarations = REGISTERED) => modelOfOp(op, declarations) !== null;

/** The family a round belongs to, { op, a, b, id, model }, or null (no tests, or not in this configuration). */
export function keyOf(req, declarations = REGISTERED) {
  const model = modelOfOp(req.op, declarations);
  const family = model?.family(req);
  if (!family || family.a === null || family.b === null) return null;
  const { a, b = 0 } = family;
  return { op: req.op, a, b, id: `${req.op} ${a} ${b}`, model };
}

/** Families in the order of the Rust side's BTreeMap<Key>: op, then a, then b (b a penetration: its bits order as its value). */
export function compareKeys(x, y) {
  if (x.op !== y.op) return x.op < y.op ? -1 : 1;
  return x.a - y.a || x.b - y.b;
}

const model = (key, declarations) => {
  const m = key.model ?? modelOfOp(key.op, declarations);
  if (!m) throw new Error(`${key.op} has no statistics`);
  return m;
};

/**
 * A family's tests ([name, probabilities]), its label as the report names it
 * (the op, then its parameters) and the marginal its serial tests follow (or null).
 */
export function layout(key, declarations = REGISTERED) {
  const { params, tests, serial } = model(key, declarations).layout(key);
  return { label: params ? `${key.op} ${params}` : key.op, tests, serial: serial ?? null };
}

/** The number of tests and the widest table (a count table's shape), without computing probabilities. */
export const shape = (key, declarations = REGISTERED) => model(key, declarations).shape(key);

/**
 * Pushes [test, cell] pairs into `cells` for every test the round feeds and
 * returns its serial step { stream, index, value } (undefined: none); null
 * when the outcome is not of the expected shape (a derived outcome always is).
 */
export const sample = (key, req, ok, cells, declarations = REGISTERED) => model(key, declarations).sample(key, req, ok, cells);
