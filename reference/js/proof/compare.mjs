// The comparison of an observation with the derived answer: numbers by
// value (integers exactly, anything written with a fraction or exponent as
// binary64), every observed leaf against the derived one, one finding per
// differing field.

import { OK_FIELDS } from '../generated/ops.mjs';
import { JsonFloat } from '../json.mjs';
import { finding } from './finding.mjs';

/** Numbers by value (integers exactly, the rest as binary64); everything else exactly. */
function same(a, b) {
  const num = (x) => typeof x === 'number' || typeof x === 'bigint' || x instanceof JsonFloat;
  if (num(a) && num(b)) {
    const int = (x) => typeof x === 'bigint' || (typeof x === 'number' && Number.isInteger(x));
    if (int(a) && int(b)) return BigInt(a) === BigInt(b);
    const f = (x) => (x instanceof JsonFloat ? x.value : Number(x));
    return f(a) === f(b);
  }
  return a === b;
}

/** Every observed leaf compared with the derived one: { compared, differences: [{ field, path, derived }] }. */
export function compareObserved(op, observed, derived) {
  const out = { compared: 0, differences: [] };
  const leaf = (field, o, d, path) => {
    if (o === null) return;
    if (Array.isArray(o) && Array.isArray(d)) {
      o.forEach((item, i) => leaf(field, item, i < d.length ? d[i] : undefined, [...path, i]));
      return;
    }
    out.compared++;
    if (d === undefined || !same(o, d)) out.differences.push({ field, path, derived: d });
  };
  for (const name of Object.keys(OK_FIELDS[op] ?? derived)) {
    if (observed && Object.hasOwn(observed, name)) leaf(name, observed[name], derived[name], []);
  }
  return out;
}

/** One finding per differing field: first differing top-level index, its items, how many items differ. */
export function mismatches(at, observed, derived, differences) {
  const byField = new Map();
  for (const d of differences) {
    const top = d.path.length ? d.path[0] : null;
    const f = byField.get(d.field);
    if (!f) byField.set(d.field, { first: top, tops: new Set([top]) });
    else f.tops.add(top);
  }
  return [...byField].map(([field, { first, tops }]) => {
    const list = first !== null;
    const d = list ? derived[field]?.[first] : derived[field];
    return finding('mismatch', at, {
      field,
      index: first,
      derived: d === undefined ? null : d,
      observed: list ? observed[field][first] : observed[field],
      differences: tops.size,
    });
  });
}
