// The page's self-test: before it computes anything for a player, the page
// reproduces every vector of /vectors/selftest.json with the very code it
// will use. A vector is either
//   valid:   { input, expected }  -> execute(input) must answer ok = expected
//   invalid: { result: "invalid", line } -> the request line must be refused
//            as `invalid`: json.mjs's parser (which rejects a key given twice
//            and keeps integers exact) fails on it, it is not an object, or
//            execute() answers error kind "invalid".
// Vectors without `result` (the format before negative vectors) are valid.
//
// The vectors run concurrently: WebCrypto answers on other threads, so a
// bounded pool of requests in flight keeps them all busy; the answer to each
// vector is checked exactly as before.

import { firstDifference } from './js/compare.mjs';
import { parseJson } from './js/json.mjs';
import { isObject } from './js/validate.mjs';

/** Checks one vector: null when it passes, else { diff, got }. */
export async function checkVector(t, execute) {
  if (t.result === 'invalid') {
    let request;
    try {
      request = parseJson(t.line);
    } catch (e) {
      return null; // not JSON (or a key given twice): a target answers invalid
    }
    if (!isObject(request)) return null;
    let got;
    try {
      got = await execute(request);
    } catch (e) {
      got = { error: { kind: 'exception', message: String(e) } };
    }
    if (got.error?.kind === 'invalid') return null;
    return { diff: got.ok ? '(Ergebnis statt Ablehnung)' : `(Fehlerart ${got.error?.kind} statt invalid)`, got };
  }
  let got;
  try {
    got = await execute(t.input);
  } catch (e) {
    got = { error: { kind: 'exception', message: String(e) } };
  }
  const diff = got.ok ? firstDifference(t.expected, got.ok) : '(Fehler statt Ergebnis)';
  return diff === null ? null : { diff, got: got.ok ?? got };
}

/**
 * Runs every vector, at most `concurrency` at a time. Returns
 * { passed, failed, first } where `first` is the failing vector that comes
 * first in the file (with its diff), or null.
 */
export async function runVectors(tests, execute, { concurrency = 24, onProgress } = {}) {
  let next = 0;
  let passed = 0;
  let failed = 0;
  let first = null;
  const worker = async () => {
    while (next < tests.length) {
      const index = next++;
      const t = tests[index];
      const problem = await checkVector(t, execute);
      if (problem === null) passed++;
      else {
        failed++;
        if (!first || index < first.index) first = { index, t, ...problem };
      }
      if (onProgress && (passed + failed) % 50 === 0) onProgress(passed, failed);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tests.length)) }, worker));
  return { passed, failed, first };
}
