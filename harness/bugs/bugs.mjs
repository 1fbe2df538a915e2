// The catalog of known bugs (catalog.json, faults.mjs, kit.mjs): each entry
// one fault, with where it comes from and what it breaks. Two programs use
// it: the mutants of tests/mutants/ (one fault served as a protocol v1
// target, to measure what the vectors catch) and the harness, which replays
// a finding's requests through every fault that models its op
// (replay.mjs) to name a target's bug by the known bug it answers as.

import { readFileSync } from 'node:fs';
import { makeEngine } from '../../reference/js/engine.mjs';
import { SCHEMES } from '../../reference/js/provably.mjs';
import { WEBCRYPTO } from '../../reference/js/webcrypto.mjs';
import { FAULTS } from './faults.mjs';

export { FAULTS };

export const CATALOG = JSON.parse(readFileSync(new URL('./catalog.json', import.meta.url), 'utf8'));

/** The catalog entry of `name`, or an Error saying what exists. */
export function entryOf(name) {
  const entry = CATALOG.mutants.find((m) => m.name === name);
  if (!entry) throw new Error(`no mutant ${JSON.stringify(name)} in catalog.json`);
  return entry;
}

/**
 * The ops an entry is a model of, where the harness may name it: its
 * `models` (a fault that changes the HMAC's key or message changes every op
 * built on it), else the ops it claims.
 */
export const modelsOf = (entry) => entry.models ?? entry.ops;

/**
 * The engine of fault `name` serving `ops`: the schemes of provably.mjs
 * reduced to those ops, with the fault's op patches, over the fault's
 * provider (else `base`, WebCrypto unless told).
 */
export function buildFault(name, ops, base = WEBCRYPTO) {
  const entry = entryOf(name);
  const fault = FAULTS[name];
  if (!fault) throw new Error(`mutant ${name} is in catalog.json but has no fault in faults.mjs`);
  const claimed = new Set(ops);
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
    if (!entry.ops.includes(op)) throw new Error(`mutant ${name} patches ${op}, which its catalog entry does not name`);
  }
  const engine = makeEngine({
    schemes,
    provider: fault.provider ? fault.provider() : base,
    name: `mutant ${name}`,
  });
  return fault.execute ? { ...engine, execute: fault.execute(engine.execute, engine) } : engine;
}
