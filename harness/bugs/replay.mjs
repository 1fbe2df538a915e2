#!/usr/bin/env node
// The known bugs, asked: `provably diff` starts this once per run and asks
// it, one JSON line each, what a fault of the catalog answers to a request.
//
//   stdin:  {"id": 1, "fault": "latin1-key", "request": {"op": "cursor.int", …}}
//   stdout: {"id": 1, "ok": {…}}   or   {"id": 1, "error": {"kind": …, "message": …}}
//
// Answers come in the order asked, one line each, flushed; an unknown fault
// or an op the fault does not model is answered with kind `unsupported`.
// Only JavaScript faults are replayed (the Python mutants need numpy).

import { createInterface } from 'node:readline';
import { stringifyJson, parseJson } from '../../reference/js/json.mjs';
import { CATALOG, buildFault, modelsOf } from './bugs.mjs';
import { provider } from './kit.mjs';

// node:crypto, synchronous, is several times faster than WebCrypto here and
// answers the same (mutants.test.mjs replays every vector through both).
const NODE_CRYPTO = provider('UTF-8');

const engines = new Map();

/** The engine of `name` over every op it models, built once. */
function engineOf(name) {
  if (!engines.has(name)) {
    const entry = CATALOG.mutants.find((m) => m.name === name && m.lang === 'js');
    engines.set(name, entry ? { entry, engine: buildFault(name, modelsOf(entry), NODE_CRYPTO) } : null);
  }
  return engines.get(name);
}

async function answer(line) {
  let asked;
  try {
    asked = parseJson(line);
  } catch (e) {
    return { id: null, error: { kind: 'invalid', message: `not JSON: ${e.message}` } };
  }
  const { id, fault, request } = asked;
  const found = engineOf(fault);
  if (!found || !modelsOf(found.entry).includes(request?.op)) {
    return { id, error: { kind: 'unsupported', message: `${fault} is no model of ${request?.op}` } };
  }
  try {
    return { id, ...(await found.engine.execute(request)) };
  } catch (e) {
    // A fault may throw where a real verifier would (a hand-written UTF-8 encoder).
    return { id, error: { kind: 'invalid', message: `${fault} throws: ${e.message}` } };
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  process.stdout.write(`${stringifyJson(await answer(line))}\n`);
}
