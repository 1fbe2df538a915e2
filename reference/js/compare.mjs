// Comparing a computed result with an expected one from a vector file, for
// the page's self-test and the unit tests alike.

import { JsonFloat } from './json.mjs';

/**
 * The path of the first place where `got` differs from `expected`, or null
 * if they are equal. Numbers compare bit for bit (Object.is, so 0 and -0
 * differ), integers past 2^53 as BigInts, objects key by key in both
 * directions. `expected` may come from parseJson (JsonFloat, BigInt) or
 * JSON.parse.
 */
export function firstDifference(expected, got, path = '') {
  if (expected instanceof JsonFloat) expected = expected.value;
  if (got instanceof JsonFloat) got = got.value;
  if (typeof expected === 'number' || typeof got === 'number') {
    return Object.is(expected, got) ? null : path || '(Wert)';
  }
  if (typeof expected === 'bigint' || typeof got === 'bigint') {
    return typeof expected === typeof got && expected === got ? null : path || '(Wert)';
  }
  if (Array.isArray(expected) || Array.isArray(got)) {
    if (!Array.isArray(expected) || !Array.isArray(got)) return path || '(Wert)';
    const n = Math.max(expected.length, got.length);
    for (let i = 0; i < n; i++) {
      if (i >= expected.length || i >= got.length) return `${path}.length`;
      const d = firstDifference(expected[i], got[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (typeof expected === 'object' && expected !== null && typeof got === 'object' && got !== null) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(got)]);
    for (const k of keys) {
      const sub = path ? `${path}.${k}` : k;
      if (!Object.hasOwn(expected, k) || !Object.hasOwn(got, k)) return sub;
      const d = firstDifference(expected[k], got[k], sub);
      if (d) return d;
    }
    return null;
  }
  return expected === got ? null : path || '(Wert)';
}
