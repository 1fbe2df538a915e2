#!/usr/bin/env node
// A mutant: our JavaScript engine (reference/js) with exactly one fault
// injected, served as a protocol v1 target.
//   node tests/mutants/mutant.mjs NAME
//
// NAME is a JavaScript entry of harness/bugs/catalog.json (the catalog of
// known bugs, which the harness also replays); its fault is in faults.mjs there.
// The mutant claims only the ops its catalog entry names: the kill table
// asks whether the harness catches the fault where it lives, and the time
// of a run goes into those ops.

import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { stringifyJson } from '../../reference/js/json.mjs';
import { runTarget } from '../../reference/js/serve.mjs';
import { CATALOG, FAULTS, buildFault, entryOf } from '../../harness/bugs/bugs.mjs';

export { CATALOG, entryOf };

/**
 * The engine of mutant `name`: the schemes of provably.mjs reduced to the
 * entry's ops, with the fault's op patches, over the fault's provider.
 */
export const buildMutant = (name) => buildFault(name, entryOf(name).ops);

/**
 * The line loop many hand-written targets have: JSON.parse (which keeps the
 * last of two equal keys and reads 1.0 as 1), one request at a time.
 */
async function jsonParseLoop(engine) {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      process.stdout.write(
        `${stringifyJson({ id: null, error: { kind: 'invalid', message: `not JSON: ${e.message}` } })}\n`,
      );
      continue;
    }
    const { id, ...fields } = request ?? {};
    process.stdout.write(
      `${stringifyJson({ id: Number.isInteger(id) ? id : null, ...(await engine.execute(fields)) })}\n`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const name = process.argv[2];
  try {
    const engine = buildMutant(name);
    if (FAULTS[name].serve === 'json-parse') await jsonParseLoop(engine);
    else runTarget(engine);
  } catch (e) {
    process.stderr.write(
      `mutant.mjs: ${e.message}\nusage: node tests/mutants/mutant.mjs NAME (a JavaScript mutant of harness/bugs/catalog.json)\n`,
    );
    process.exit(2);
  }
}
