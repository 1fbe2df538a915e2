// Talking to mutants and to provably: the command of a mutant, request
// lines with ids, and comparing answers as the harness does (ok values
// exactly, floats bit for bit, integers past 2^53 exactly; errors by kind).

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstDifference } from '../../reference/js/compare.mjs';
import { stringifyJson } from '../../reference/js/json.mjs';
import { spawnTarget } from '../../reference/js/testkit/helpers.mjs';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(HERE, '../..');

export { CATALOG } from '../../harness/bugs/bugs.mjs';

/** The python with numpy for the Python mutants: $PROVABLY_PYTHON, else the repo's .venv. */
export const PYTHON = resolve(REPO, process.env.PROVABLY_PYTHON ?? '.venv/bin/python');

/** The provably binary: $PROVABLY_BIN, else the debug build. */
export function provablyBin() {
  const bin = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
  if (!existsSync(bin)) throw new Error(`no provably binary at ${bin}: run \`cargo build\` or set PROVABLY_BIN`);
  return bin;
}

/** [program, args] that start mutant `entry`, run from the repository root. */
export function commandOf(entry) {
  if (entry.lang === 'python') return [PYTHON, [join(REPO, 'tests/mutants/mutant.py'), entry.name]];
  return [process.execPath, [join(REPO, 'tests/mutants/mutant.mjs'), entry.name]];
}

/** The same command as one shell line for `provably diff --target-cmd`, relative to the repository root. */
export function shellCommandOf(entry) {
  const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
  if (entry.lang === 'python') return `${quote(PYTHON)} tests/mutants/mutant.py ${entry.name}`;
  return `node tests/mutants/mutant.mjs ${entry.name}`;
}

/**
 * A request line with `id`: an `input` object is printed; a raw `line` (a
 * JSON object written by hand, so that a repeated key or "\ud800" survive)
 * gets the id spliced in after its opening brace.
 */
export function requestLine(witness, id) {
  if (witness.input) return stringifyJson({ id, ...witness.input });
  if (!witness.line.startsWith('{')) throw new Error(`a witness line must be a JSON object: ${witness.line}`);
  return `{"id":${id},${witness.line.slice(1)}`;
}

/**
 * A witness as text for people: the request without id, every character
 * outside printable ASCII escaped (U+FEFF or U+E000 are invisible as they are).
 */
export function witnessText(witness) {
  const text = witness.input ? stringifyJson(witness.input) : witness.line;
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The op a witness asks for. */
export function witnessOp(witness) {
  return witness.input ? witness.input.op : /"op"\s*:\s*"([^"]*)"/.exec(witness.line)?.[1];
}

/** The answers of a target to `lines` (hello first), by id, with its exit code and stderr. */
export async function ask([cmd, args], lines, { timeout = 120000 } = {}) {
  const input = [stringifyJson({ id: 0, op: 'hello', protocol: 1 }), ...lines].join('\n') + '\n';
  const { code, responses, stderr } = await spawnTarget(cmd, args, input, { timeout });
  const byId = new Map(responses.map((r) => [typeof r.id === 'bigint' ? Number(r.id) : r.id, r]));
  return { code, byId, hello: byId.get(0), stderr };
}

/** True when two responses agree: both ok with the same value, or both errors of one kind. */
export function sameReply(want, got) {
  if (want?.ok !== undefined && got?.ok !== undefined) return firstDifference(want.ok, got.ok) === null;
  if (want?.error && got?.error) return want.error.kind === got.error.kind;
  return false;
}

/** A response for a message: the ok value or the error, short. */
export function show(response) {
  const text =
    response === undefined
      ? '(no answer)'
      : stringifyJson(response.ok !== undefined ? { ok: response.ok } : { error: response.error });
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** fn(item, index) for every item, at most `limit` at a time (each spawns a process). */
export async function eachLimited(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
