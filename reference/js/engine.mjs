// An engine: the protocol's operations behind one function, built from the
// schemes' declarations over one crypto provider:
//   execute(request) -> {ok: {...}} | {error: {kind, message}}.
//
// A scheme module exports SCHEME = { id, commitment, views?, ops }:
//   id          the scheme's name; each of its ops is called "<id>.<something>"
//   commitment  { op, field, result }: the op that turns the committed value
//               (request field `field`) into the commitment shown before play
//               (ok field `result`), e.g. cursor.hash(serverSeed) -> hash;
//               only an adapter's partial scheme may leave it out
//   views       the page's module of the scheme's own panels and round lines
//               (under web/, e.g. 'stake.mjs'; web/views.mjs loads it), if any
//   ops         { "<op>": declaration }, in protocol order. A declaration:
//     fields    { <name>: field (validate.mjs) }
//     run       run(primitives, fields) returns the ok object (or a promise
//               of it) from fields already validated
//     stats     what the statistics test of its outcome: tables({…}) or
//               none(reason) (stats/laws.mjs); the registry refuses an op
//               that declares neither
//     bet       true for a bet of its seed pair's nonce sequence (bet
//               histories, docs/proofs.md); false when left out
//     page      what the page shows of it, all optional: { name, short,
//               view, steps, tests, fields } (web/names.mjs says what each is)
// Nothing else lists ops or fields: the hello answer, validation, the
// statistics, the page and the schema test (test/schema.test.mjs) all read
// these declarations.

import { primitives } from './crypto.mjs';
import { ProvablyError } from './errors.mjs';
import { statsProblem } from './stats/laws.mjs';
import { describe, isObject, validateFields, version } from './validate.mjs';

/** The handshake, declared like an op: {"op": "hello", "protocol": 1}. */
export const HELLO = Object.freeze({ fields: Object.freeze({ protocol: version(1) }) });

/** op name -> { scheme, fields, run }, checked for what a typo would break. */
function registry(schemes) {
  const ops = new Map();
  const ids = new Set();
  for (const scheme of schemes) {
    const where = `scheme ${JSON.stringify(scheme?.id)}`;
    if (typeof scheme?.id !== 'string' || ids.has(scheme.id)) throw new Error(`${where}: needs an id of its own`);
    ids.add(scheme.id);
    for (const [name, op] of Object.entries(scheme.ops ?? {})) {
      if (!name.startsWith(`${scheme.id}.`)) throw new Error(`${where}: op ${name} must start with "${scheme.id}."`);
      if (ops.has(name)) throw new Error(`${where}: op ${name} is declared twice`);
      if (typeof op.run !== 'function') throw new Error(`${where}: op ${name} has no run function`);
      for (const [field, f] of Object.entries(op.fields ?? {})) {
        if (typeof f?.check !== 'function') throw new Error(`${where}: ${name}.${field} is not a field (validate.mjs)`);
      }
      // An adapter's partial scheme may go without statistics; what is declared must be well-formed.
      const stats = op.stats === undefined ? null : statsProblem(op.stats);
      if (stats) throw new Error(`${where}: op ${name}: ${stats}`);
      if (op.bet !== undefined && typeof op.bet !== 'boolean') throw new Error(`${where}: op ${name}: bet must be true or false`);
      if (op.page !== undefined && !isObject(op.page)) throw new Error(`${where}: op ${name}: page must be an object`);
      ops.set(name, { scheme, fields: op.fields ?? {}, run: op.run, stats: op.stats, bet: op.bet === true, page: op.page ?? {} });
    }
  }
  // An adapter's partial scheme may go without; provably.mjs's SCHEMES never do (test/schema.test.mjs).
  for (const scheme of schemes.filter((s) => s.commitment !== undefined)) {
    const c = scheme.commitment;
    const target = ops.get(c.op);
    if (!target || Object.keys(target.fields).join() !== c.field || typeof c.result !== 'string') {
      throw new Error(`scheme ${scheme.id}: commitment must name a registered op taking only its field, and the result`);
    }
  }
  return ops;
}

/**
 * The schemes of a registry, checked for what every registered op must
 * declare (an adapter's partial scheme need not): its statistics, tables(…)
 * or none(reason). Throws naming the scheme and op; returns `schemes` frozen.
 */
export function registered(schemes) {
  for (const scheme of schemes) {
    for (const [name, op] of Object.entries(scheme.ops ?? {})) {
      const problem = statsProblem(op.stats);
      if (problem) throw new Error(`scheme ${JSON.stringify(scheme.id)}: op ${name} ${problem}`);
    }
  }
  return Object.freeze([...schemes]);
}

/**
 * The schemes cut to the ops of `table` (a list of op names), schemes with
 * none left out: a build without a feature-gated game has its scheme module
 * but not its ops.
 */
export function within(schemes, table) {
  const keep = new Set(table);
  return schemes
    .map((s) => ({ ...s, ops: Object.fromEntries(Object.entries(s.ops).filter(([op]) => keep.has(op))) }))
    .filter((s) => Object.keys(s.ops).length > 0);
}

/**
 * An engine over `schemes` (SCHEME declarations) and `provider` (crypto.mjs):
 * { NAME, OPS, execute, commitmentOf, fieldsOf, declarations }.
 */
export function makeEngine({ schemes, provider, name }) {
  const p = primitives(provider);
  const ops = registry(schemes);
  const OPS = Object.freeze([...ops.keys()]);

  async function run(request) {
    if (!isObject(request)) {
      throw new ProvablyError('invalid', `a request must be a JSON object, got ${describe(request)}`);
    }
    if (!Object.hasOwn(request, 'op')) throw new ProvablyError('invalid', 'missing field op');
    const { op } = request;
    if (typeof op !== 'string') {
      throw new ProvablyError('invalid', `op: must be a string, got ${describe(op)}`);
    }
    if (op === 'hello') {
      validateFields('hello', HELLO.fields, request);
      return { name, ops: [...OPS] };
    }
    const declared = ops.get(op);
    if (!declared) {
      throw new ProvablyError('unsupported', `op ${describe(op)} is not implemented by ${name}`);
    }
    return declared.run(p, validateFields(op, declared.fields, request));
  }

  /**
   * Runs one request (a protocol request without `id`). Never throws: every
   * failure comes back as {error: {kind, message}}.
   */
  async function execute(request) {
    try {
      return { ok: await run(request) };
    } catch (e) {
      if (e instanceof ProvablyError) return { error: { kind: e.kind, message: e.message } };
      // Anything else is a bug here (or in the provider), not a bad request.
      return { error: { kind: 'invalid', message: `internal error: ${e?.message ?? e}` } };
    }
  }

  /** The commitment { op, field, result } of the scheme that owns `op`. */
  function commitmentOf(op) {
    const declared = ops.get(op);
    if (!declared) throw new Error(`no scheme declares op ${op}`);
    return declared.scheme.commitment;
  }

  /** The names of the fields `op` takes, in protocol order. */
  function fieldsOf(op) {
    const declared = ops.get(op);
    if (!declared) throw new Error(`no scheme declares op ${op}`);
    return Object.keys(declared.fields);
  }

  // A copy: changing what the caller holds changes nothing here.
  return Object.freeze({ NAME: name, OPS, execute, commitmentOf, fieldsOf, declarations: new Map(ops) });
}
