#!/usr/bin/env node
// A mutant: our JavaScript engine (reference/js) with exactly one fault
// injected, served as a protocol v1 target.
//   node tests/mutants/mutant.mjs NAME
//
// NAME is a JavaScript entry of catalog.json; its fault is in faults.mjs.
// The mutant claims only the ops its catalog entry names: the kill table
// asks whether the harness catches the fault where it lives, and the time
// of a run goes into those ops.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { makeEngine } from '../../reference/js/engine.mjs';
import { stringifyJson } from '../../reference/js/json.mjs';
import { SCHEMES } from '../../reference/js/provably.mjs';
import { runTarget } from '../../reference/js/serve.mjs';
import { WEBCRYPTO } from '../../reference/js/webcrypto.mjs';
import { FAULTS } from './faults.mjs';

export const CATALOG = JSON.parse(readFileSync(new URL('./catalog.json', import.meta.url), 'utf8'));

/** The catalog entry of `name`, or an Error saying what exists. */
export function entryOf(name) {
  const entry = CATALOG.mutants.find((m) => m.name === name);
  if (!entry) throw new Error(`no mutant ${JSON.stringify(name)} in catalog.json`);
  return entry;
}

/**
 * The engine of mutant `name`: the schemes of provably.mjs reduced to the
 * entry's ops, with the fault's op patches, over the fault's provider.
 */
export function buildMutant(name) {
  const entry = entryOf(name);
  const fault = FAULTS[name];
  if (!fault) throw new Error(`mutant ${name} is in catalog.json but has no fault in faults.mjs`);
  const claimed = new Set(entry.ops);
  const schemes = SCHEMES.map((scheme) => ({
    // No commitment: a mutant's partial scheme need not hold its commitment op.
    id: scheme.id,
    ops: Object.fromEntries(
      Object.entries(scheme.ops)
        .filter(([op]) => claimed.has(op))
        .map(([op, declared]) => {
          const patch = fault.ops?.[op] ?? {};
          const run = patch.run ? (p, f) => patch.run(p, f, declared.run) : declared.run;
          return [op, { fields: { ...declared.fields, ...patch.fields }, run }];
        }),
    ),
  })).filter((scheme) => Object.keys(scheme.ops).length > 0);
  for (const op of Object.keys(fault.ops ?? {})) {
    if (!claimed.has(op)) throw new Error(`mutant ${name} patches ${op}, which its catalog entry does not name`);
  }
  const engine = makeEngine({
    schemes,
    provider: fault.provider ? fault.provider() : WEBCRYPTO,
    name: `mutant ${name}`,
  });
  return fault.execute ? { ...engine, execute: fault.execute(engine.execute, engine) } : engine;
}

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
      `mutant.mjs: ${e.message}\nusage: node tests/mutants/mutant.mjs NAME (a JavaScript mutant of tests/mutants/catalog.json)\n`,
    );
    process.exit(2);
  }
}
