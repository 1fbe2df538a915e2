// Proof documents, version 1 (docs/proofs.md is the normative text): whole
// games, tournaments, table seeds and archives checked in one step, by the
// same rules as `provably audit`.
//
//   const { report, epochs } = await checkProof(text);
//   report.verdict   // "match" | "mismatch" | "invalid" | "unobserved"
//
// A document is {"proof": 1, "title"?, "epochs": [epoch, …]}; any other text
// is JSON lines, one epoch per line. An epoch is one committed seed: `commit`
// (hex SHA-256 shown before play, or null), the revealed secret (`serverSeed`,
// or `seed` for selfpoker: whichever field the rounds' ops take) and `rounds`.
// A round is a protocol v1 request without `id` and without the epoch's
// secret, plus `observed` (some of the op's `ok` fields; any list may be a
// prefix and hold null for an item not seen), `seats` instead of
// `clientSeed`, or `external` for a round that did not come from the seed.
//
// Checks: each epoch's `commit` against the scheme's own commitment of the
// secret (engine.commitmentOf: cursor.hash or selfpoker.commit); each round
// derived with engine.execute and compared leaf by leaf with what was
// observed. Verdicts per round: match, mismatch, skipped, invalid,
// unobserved; per epoch: commitment ok, mismatch, absent. A stake bet
// history is followed per epoch and client seed: a nonce bet twice is a
// mismatch at the second round, missing nonces are `gap` findings at the
// epoch's end. Every finding is listed, in document order, with exactly the
// keys of docs/proofs.md.
//
// Decisions of this checker where docs/proofs.md leaves room (docs/proof-page.md):
// * it reads the whole text before checking anything: a document that is not
//   JSON is one `invalid` finding (field null, the line where the text
//   breaks) and nothing in it is counted; a JSON line that is not JSON is one
//   finding at its line with `round` null;
// * a lone surrogate escape ("\ud800") is text like any other here; the
//   protocol's rules then refuse it in the field that holds it;
// * a number is compared by value: integers (Numbers and BigInts) exactly,
//   anything written with a fraction or exponent as binary64;
// * a round its op refuses when run (stake.wheel with 15 segments) is
//   invalid and no bet: its nonce neither repeats nor closes a gap.
//   `provably audit` (src/proof/check.rs, bet_of) still counts it as a bet
//   and can turn it into a mismatch; the rule as specified (invalid rounds
//   are no bets, an invalid round stays invalid) is followed here.

import { OK_FIELDS } from './generated/ops.mjs';
import { JsonFloat, parseJson } from './json.mjs';
import { NAME, OPS, commitmentOf, declarations, execute, fieldsOf } from './provably.mjs';
import { describe, isObject } from './validate.mjs';

export const VERSION = 1;

/** The longest `external` reason, in characters (code points). */
export const MAX_EXTERNAL = 64;

/**
 * What each op answers: its `ok` fields in protocol order, each as the JSON
 * Schema harness/protocol.schema.json gives it (generated from the Rust op
 * table). Only the item rules bind an observation: a list may be shorter,
 * longer, repeat items and hold null.
 */
export { OK_FIELDS };

const DEFAULT_ENGINE = { NAME, OPS, execute, commitmentOf, fieldsOf, declarations };

// ---------------------------------------------------------------------------
// Findings and events

const KEYS = ['epoch', 'round', 'kind', 'field', 'index', 'derived', 'observed', 'reason', 'line', 'differences'];

/** A finding with every key of docs/proofs.md, null where it does not apply. */
function finding(kind, at, fields = {}) {
  const f = {};
  for (const k of KEYS) f[k] = null;
  Object.assign(f, { epoch: at.epoch ?? null, round: at.round ?? null, line: at.line ?? null, kind }, fields);
  return f;
}

/** A field error before it is placed. */
class FieldError extends Error {
  constructor(field, reason, index = null) {
    super(`${field}${index === null ? '' : `[${index}]`}: ${reason}`);
    this.field = field;
    this.reason = reason;
    this.index = index;
  }
}

const invalidAt = (at, field, reason, index = null) => finding('invalid', at, { field, reason, index });

/** "a string", "a list", …: what a value is, for a message. */
function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof JsonFloat) return 'a number';
  return 'an object';
}

// ---------------------------------------------------------------------------
// Reading the text. The whole text is checked for syntax first; the walk
// that follows finds every key and value by position, so a key given twice
// can be reported where it stands and the other keys still checked.

class NotJson extends Error {
  constructor(message, offset) {
    super(message);
    this.offset = offset;
  }
}

class Twice extends Error {
  constructor(path) {
    super(`${path} appears twice`);
    this.path = path;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const MAX_DEPTH = 128;

/** A JSON scanner over one text: syntax only, and (on request) keys given twice. */
class Scanner {
  constructor(text) {
    this.t = text;
    this.i = 0;
  }

  fail(message) {
    throw new NotJson(this.i >= this.t.length ? `unexpected end of input (${message})` : message, this.i);
  }

  ws() {
    const t = this.t;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }

  /** Skips a string at the current position; returns its decoded text. */
  string() {
    const start = this.i++;
    for (;;) {
      PLAIN.lastIndex = this.i;
      PLAIN.test(this.t);
      this.i = PLAIN.lastIndex;
      const c = this.t[this.i];
      if (c === '"') {
        this.i++;
        return JSON.parse(this.t.slice(start, this.i));
      }
      if (c === undefined) this.fail('unterminated string');
      if (c !== '\\') this.fail('a control character in a string must be escaped');
      const e = this.t[this.i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(this.t.slice(this.i + 2, this.i + 6))) this.fail('bad \\u escape');
        this.i += 6;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
        this.i += 2;
      } else {
        this.fail('bad escape in a string');
      }
    }
  }

  /**
   * Skips one value (after white space); `path` (an array of keys) turns on
   * the search for a key given twice, which throws Twice with its path.
   */
  value(path = null, depth = 0) {
    this.ws();
    const c = this.t[this.i];
    if (c === '{') return this.object(path, depth + 1);
    if (c === '[') return this.array(path, depth + 1);
    if (c === '"') return void this.string();
    for (const word of ['true', 'false', 'null']) {
      if (this.t.startsWith(word, this.i)) {
        this.i += word.length;
        return undefined;
      }
    }
    NUMBER.lastIndex = this.i;
    if (c === undefined || !NUMBER.test(this.t)) this.fail('expected a JSON value');
    this.i = NUMBER.lastIndex;
    return undefined;
  }

  object(path, depth) {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    this.i++;
    const seen = path ? new Set() : null;
    this.ws();
    if (this.t[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.t[this.i] !== '"') this.fail('expected a string key');
      const key = this.string();
      if (seen) {
        if (seen.has(key)) throw new Twice([...path, key].join('.'));
        seen.add(key);
      }
      this.ws();
      if (this.t[this.i] !== ':') this.fail("expected ':'");
      this.i++;
      this.value(path ? [...path, key] : null, depth);
      this.ws();
      const c = this.t[this.i++];
      if (c === '}') return;
      if (c !== ',') {
        this.i--;
        this.fail("expected ',' or '}'");
      }
    }
  }

  array(path, depth) {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    this.i++;
    this.ws();
    if (this.t[this.i] === ']') {
      this.i++;
      return;
    }
    for (;;) {
      this.value(path, depth);
      this.ws();
      const c = this.t[this.i++];
      if (c === ']') return;
      if (c !== ',') {
        this.i--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  /** The whole text is one JSON value. */
  whole() {
    this.value();
    this.ws();
    if (this.i !== this.t.length) this.fail('unexpected text after the JSON value');
  }

  /** The members of the (well-formed) object at `at`: [{ key, start, end }] in text order. */
  members(at) {
    this.i = at + 1;
    const out = [];
    this.ws();
    if (this.t[this.i] === '}') return out;
    for (;;) {
      this.ws();
      const key = this.string();
      this.ws();
      this.i++; // ':'
      this.ws();
      const start = this.i;
      this.value();
      out.push({ key, start, end: this.i });
      this.ws();
      if (this.t[this.i++] === '}') return out;
    }
  }

  /** The elements of the (well-formed) array at `at`: [{ start, end }]. */
  elements(at) {
    this.i = at + 1;
    const out = [];
    this.ws();
    if (this.t[this.i] === ']') return out;
    for (;;) {
      this.ws();
      const start = this.i;
      this.value();
      out.push({ start, end: this.i });
      this.ws();
      if (this.t[this.i++] === ']') return out;
    }
  }

  /** What the well-formed value at `at` is, for a message. */
  typeAt(at) {
    const c = this.t[at];
    return c === '{' ? 'an object' : c === '[' ? 'a list' : c === '"' ? 'a string' : c === 'n' ? 'null' : c === 't' || c === 'f' ? 'a boolean' : 'a number';
  }

  /** The well-formed value between `start` and `end`, parsed (integers past 2^53 as BigInt). */
  parse(start, end) {
    return parseJson(this.t.slice(start, end), { onDuplicate: () => {} });
  }
}

const lineOf = (text, offset) => {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
};

/**
 * Document or JSON lines: `{`, optional white space, then `"proof"` makes a
 * document. A byte order mark before it is no part of the text (editors on
 * Windows write one), so it does not make a document JSON lines.
 */
export function isDocument(text) {
  return /^\uFEFF?[ \t\r\n]*\{[ \t\r\n]*"proof"/.test(text);
}

/** The text without a leading byte order mark. */
const withoutBom = (text) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Thrown by checkProof when its `signal` is aborted. */
export class CheckCancelled extends Error {
  constructor() {
    super('the check was cancelled');
    this.name = 'CheckCancelled';
  }
}

// ---------------------------------------------------------------------------
// The engine's op table, as far as proofs need it

/** Which secret each op takes, which ops are commitments, and their `ok` fields. */
function opTable(engine) {
  const secretOf = new Map();
  const commitOps = new Map(); // secret field -> its commitment { op, field, result }
  const isCommitOp = new Set();
  for (const op of engine.OPS) {
    const c = engine.commitmentOf(op);
    if (!c) continue;
    isCommitOp.add(c.op);
    if (engine.fieldsOf(op).includes(c.field)) {
      secretOf.set(op, c.field);
      if (!commitOps.has(c.field)) commitOps.set(c.field, c);
    }
  }
  return { secretOf, commitOps, isCommitOp, secretFields: [...commitOps.keys()] };
}

// ---------------------------------------------------------------------------
// One epoch's commitment

async function checkCommit(engine, table, at, commit, secret) {
  if (commit === undefined || commit === null) {
    // Nothing to compare; the commitment is still worked out for people to see.
    const c = secret && table.commitOps.get(secret.field);
    const r = c ? await engine.execute({ op: c.op, [c.field]: secret.value }) : null;
    return { verdict: 'absent', derived: r?.ok?.[c.result] ?? null, findings: [] };
  }
  const invalid = (field, reason) => ({ verdict: 'invalid', findings: [invalidAt(at, field, reason)] });
  if (typeof commit !== 'string' || !/^[0-9a-fA-F]{64}$/.test(commit)) {
    return invalid('commit', `must be 64 hex characters (a SHA-256) or null, not ${describe(commit)}`);
  }
  if (!secret) {
    return invalid('commit', `the epoch has no ${table.secretFields.join(' or ')} to check it against`);
  }
  const c = table.commitOps.get(secret.field);
  const r = await engine.execute({ op: c.op, [c.field]: secret.value });
  if (r.error) {
    const { field, reason } = splitMessage(r.error.message, secret.field);
    return invalid(field, reason);
  }
  const derived = r.ok[c.result];
  if (derived === commit.toLowerCase()) return { verdict: 'ok', derived, findings: [] };
  return {
    verdict: 'mismatch',
    derived,
    findings: [finding('commit', at, {
      field: 'commit',
      derived,
      observed: commit,
      reason: `the commitment of the revealed ${secret.field} is not the one shown before play`,
    })],
  };
}

/** "nonce: 9 is above …" -> { field: "nonce", index, reason: "9 is above …" }. */
function splitMessage(message, fallback) {
  let m = /^(?:missing field|unknown field) "?([^":]+)"?: ?(.*)$/s.exec(message);
  if (m) return { field: m[1], index: null, reason: message };
  m = /^([A-Za-z_$][\w$]*)(?:\[(\d+)\])?: (.*)$/s.exec(message);
  if (m) return { field: m[1], index: null, reason: m[3] };
  return { field: fallback, index: null, reason: message };
}

// ---------------------------------------------------------------------------
// One round

/** The client seed of a table round: seeds by ascending player, concatenated. */
export function seatSeed(seats) {
  if (!Array.isArray(seats)) {
    throw new FieldError('seats', `must be a list of {"player", "seed"} objects, not ${typeName(seats)}`);
  }
  const list = [];
  seats.forEach((seat, i) => {
    const at = (reason) => new FieldError('seats', reason, i);
    if (!isObject(seat)) throw at(`must be an object {"player": …, "seed": …}, not ${typeName(seat)}`);
    const other = Object.keys(seat).find((k) => k !== 'player' && k !== 'seed');
    if (other !== undefined) throw at(`${JSON.stringify(other)} is not a field of a seat`);
    if (!Object.hasOwn(seat, 'player')) throw at('player: is missing');
    const player = seat.player;
    if (typeof player === 'bigint' && player >= 0n) throw at(`player: ${player} is above 2^53-1`);
    if (typeof player !== 'number' || !Number.isInteger(player) || player < 0) {
      throw at(`player: must be an integer in 0..=2^53-1, not ${describe(player)}`);
    }
    if (!Object.hasOwn(seat, 'seed')) throw at('seed: is missing');
    if (typeof seat.seed !== 'string') throw at(`seed: must be a string, not ${typeName(seat.seed)}`);
    const first = list.findIndex((s) => s.player === player);
    if (first !== -1) throw at(`player ${player} sits twice (seats ${first} and ${i})`);
    list.push({ player, seed: seat.seed });
  });
  // Array.prototype.sort is stable; players are distinct anyway.
  return list.sort((a, b) => a.player - b.player).map((s) => s.seed).join('');
}

/** Whether `v` has the JSON type `schema` asks for (its limits are checked after). */
function hasType(schema, v) {
  switch (schema.type) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
    case 'number':
      return typeof v === 'number' || typeof v === 'bigint' || v instanceof JsonFloat;
    case 'array':
      return Array.isArray(v);
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

/**
 * The request fields of `op` from a round's members, by the protocol's rules
 * in docs/proofs.md's order: a missing or mistyped field first (field
 * order), then a key the op does not take (text order), then a value
 * outside its limits (field order). Returns the request as the engine takes it.
 */
function readRequest(engine, op, map) {
  const fields = engine.declarations.get(op).fields;
  const names = Object.keys(fields);
  const check = (name) => {
    try {
      return fields[name].check(name, map[name]);
    } catch (e) {
      const { reason } = splitMessage(e.message, name);
      throw new FieldError(name, reason);
    }
  };
  for (const name of names) {
    if (!Object.hasOwn(map, name)) {
      if (fields[name].required) throw new FieldError(name, 'is missing');
    } else if (!hasType(fields[name].schema, map[name])) {
      check(name);
      throw new FieldError(name, `must be ${fields[name].schema.type}, not ${typeName(map[name])}`);
    }
  }
  for (const key of Object.keys(map)) {
    if (key !== 'op' && !Object.hasOwn(fields, key)) throw new FieldError(key, 'is not a field of this op');
  }
  const request = { op };
  for (const name of names) if (Object.hasOwn(map, name)) request[name] = map[name];
  for (const name of names) if (Object.hasOwn(map, name)) check(name);
  return request;
}

/** Why an observed item breaks its field's rules (null: it does not), with the index path. */
function shapeProblem(schema, v, path) {
  const not = (what) => ({ path, reason: `must be ${what}, not ${describe(v)}` });
  if (schema.enum) {
    return typeof v === 'string' && schema.enum.includes(v) ? null : { path, reason: `${describe(v)} is not one of ${schema.enum.join(', ')}` };
  }
  switch (schema.type) {
    case 'string':
      if (typeof v !== 'string') return not('a string');
      return !schema.pattern || new RegExp(schema.pattern, 'u').test(v) ? null : not(`text matching ${schema.pattern}`);
    case 'integer': {
      const n = typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : typeof v === 'bigint' ? v : null;
      if (n === null || n < 0n) return not('an integer');
      const min = BigInt(schema.minimum ?? 0);
      if (n < min || (schema.maximum !== undefined && n > BigInt(schema.maximum))) {
        return { path, reason: schema.maximum === undefined ? `${n} is below ${min}` : `${n} is outside ${min}..=${schema.maximum}` };
      }
      return null;
    }
    case 'number': {
      const x = v instanceof JsonFloat ? v.value : typeof v === 'bigint' ? Number(v) : v;
      if (typeof x !== 'number') return not('a number');
      const ok = x >= (schema.minimum ?? -Infinity) && (schema.exclusiveMaximum === undefined || x < schema.exclusiveMaximum);
      return ok ? null : { path, reason: `${describe(v)} is outside the range of the field` };
    }
    case 'array': {
      if (!Array.isArray(v)) return not('a list');
      for (let i = 0; i < v.length; i++) {
        if (v[i] === null) continue;
        const p = shapeProblem(schema.items ?? {}, v[i], [...path, i]);
        if (p) return p;
      }
      return null;
    }
    default:
      return null;
  }
}

/** `observed`: an object of some of the op's `ok` fields, each item within its field's rules. */
function readObserved(op, v) {
  const ok = OK_FIELDS[op] ?? {};
  const names = Object.keys(ok);
  if (!isObject(v)) throw new FieldError('observed', `must be an object of ${op} fields, not ${typeName(v)}`);
  for (const key of Object.keys(v)) {
    const field = `observed.${key}`;
    if (!Object.hasOwn(ok, key)) {
      throw new FieldError(field, `is not a field of ${op}'s answer (${names.join(', ')})`);
    }
    if (v[key] === null) {
      throw new FieldError(field, 'is null: leave out a field that was not seen (null stands only for an item of a list)');
    }
    const p = shapeProblem(ok[key], v[key], []);
    if (p) {
      const deeper = p.path.slice(1).map((i) => `item ${i}`).join(', ');
      throw new FieldError(field, deeper ? `${deeper}: ${p.reason}` : p.reason, p.path[0] ?? null);
    }
  }
  return v;
}

/**
 * Reads a round's text: every rule of the format and of protocol v1, in the
 * order docs/proofs.md gives. Returns { request, observed, external, seats }.
 */
function readRound(engine, table, text, secret) {
  try {
    new Scanner(text).value([]);
  } catch (e) {
    if (e instanceof Twice) throw new FieldError(e.path, 'appears twice');
    throw e;
  }
  let v;
  try {
    v = parseJson(text);
  } catch (e) {
    throw new FieldError('round', `not JSON: ${e.message}`);
  }
  if (!isObject(v)) throw new FieldError('round', `must be a JSON object, not ${typeName(v)}`);
  if (Object.hasOwn(v, 'id')) throw new FieldError('id', 'a round is a request without id');
  const { observed, external, seats, ...map } = v;
  const has = (k) => Object.hasOwn(v, k);
  if (!Object.hasOwn(map, 'op')) throw new FieldError('op', 'is missing');
  const op = map.op;
  if (typeof op !== 'string') throw new FieldError('op', `must be a string, not ${typeName(op)}`);
  if (table.isCommitOp.has(op)) throw new FieldError('op', `${op} answers a commitment; it is not a round`);
  if (!engine.OPS.includes(op)) throw new FieldError('op', `${JSON.stringify(op)} is not an op a round can hold`);

  const wants = table.secretOf.get(op);
  if (wants) {
    if (Object.hasOwn(map, wants)) throw new FieldError(wants, 'belongs to the epoch, not to the round');
    if (!secret) throw new FieldError(wants, `is missing: the epoch holds no ${wants} for this ${op} round`);
    if (secret.field !== wants) {
      throw new FieldError(secret.field, `a ${op} round takes its committed secret as ${JSON.stringify(wants)}; this epoch carries ${JSON.stringify(secret.field)}`);
    }
    map[wants] = secret.value;
  }
  if (has('seats')) {
    if (!engine.fieldsOf(op).includes('clientSeed')) throw new FieldError('seats', `${op} has no clientSeed for seats to stand for`);
    if (Object.hasOwn(map, 'clientSeed')) throw new FieldError('seats', 'give clientSeed or seats, not both');
    map.clientSeed = seatSeed(seats);
  }
  if (has('external')) {
    if (typeof external !== 'string') throw new FieldError('external', `must be a string (the reason), not ${typeName(external)}`);
    const length = [...external].length;
    if (length < 1 || length > MAX_EXTERNAL) throw new FieldError('external', `must be a reason of 1 to ${MAX_EXTERNAL} characters`);
  }
  const request = readRequest(engine, op, map);
  return {
    request,
    observed: has('observed') ? readObserved(op, observed) : undefined,
    external: has('external') ? external : undefined,
    seats: has('seats') ? seats : undefined,
  };
}

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
function mismatches(at, observed, derived, differences) {
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

/** A round its op refuses (the field it names) or cannot answer (no field), as `provably audit` reports it. */
function underivable(at, op, error) {
  if (error.kind === 'invalid') {
    const { field, reason } = splitMessage(error.message, null);
    return finding('invalid', at, { field, reason: `${op} refuses the round: ${reason}` });
  }
  return finding('invalid', at, { reason: `${op} cannot be derived: ${error.message}` });
}

async function checkRound(engine, table, at, text, secret) {
  let r;
  try {
    r = readRound(engine, table, text, secret);
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { verdict: 'invalid', findings: [invalidAt(at, e.field, e.reason, e.index)] };
  }
  const base = { op: r.request.op, request: r.request, observed: r.observed, external: r.external, seats: r.seats, isBet: isBet(engine, r.request.op) };
  // Rule 10: the op's own rules that tie fields together hold for every
  // round, an external one too; the op names the field first in its message.
  const result = await engine.execute(r.request);
  if (result.error && (r.external === undefined || result.error.kind === 'invalid')) {
    return { ...base, verdict: 'invalid', findings: [underivable(at, r.request.op, result.error)], error: result.error };
  }
  if (r.external !== undefined) {
    const f = finding('skipped', at, { field: 'external', reason: r.external, observed: r.observed ?? null });
    return { ...base, verdict: 'skipped', findings: [f] };
  }
  const derived = result.ok;
  const c = compareObserved(r.request.op, r.observed, derived);
  if (c.differences.length) {
    return { ...base, derived, comparison: c, verdict: 'mismatch', findings: mismatches(at, r.observed, derived, c.differences) };
  }
  if (c.compared === 0) {
    const f = finding('unobserved', at, {
      derived,
      observed: r.observed ?? null,
      reason: 'nothing observed: the round is derived, nothing is compared',
    });
    return { ...base, derived, comparison: c, verdict: 'unobserved', findings: [f] };
  }
  return { ...base, derived, comparison: c, verdict: 'match', findings: [] };
}

// ---------------------------------------------------------------------------
// Walking a document or JSON lines into tasks, in document order

/**
 * The tasks of one epoch object at `start` (well-formed): a list of
 * { kind, run() -> Promise<…> } in the order their findings stand.
 */
function epochTasks(ctx, scan, start, epoch, line) {
  const at = { epoch, line };
  const members = scan.members(start);
  const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
  ctx.epochs.push(info);
  const tasks = [{ kind: 'epoch', info }];
  const invalid = (field, reason) => tasks.push({ kind: 'epoch-invalid', info, finding: invalidAt(at, field, reason) });

  const secretMember = members.find((m) => ctx.table.secretFields.includes(m.key));
  const secret = secretMember ? { field: secretMember.key, value: scan.parse(secretMember.start, secretMember.end) } : null;
  info.secret = secret;
  const seen = new Set();
  for (const m of members) {
    if (seen.has(m.key)) {
      invalid(m.key, 'appears twice');
      continue;
    }
    seen.add(m.key);
    if (m.key === 'commit') {
      const value = scan.parse(m.start, m.end);
      tasks.push({ kind: 'commit', info, run: () => checkCommit(ctx.engine, ctx.table, at, value, secret) });
    } else if (m.key === 'rounds') {
      if (scan.t[m.start] !== '[') {
        invalid('rounds', `must be a list of rounds, not ${scan.typeAt(m.start)}`);
        continue;
      }
      scan.elements(m.start).forEach(({ start: s, end: e }, round) => {
        const text = scan.t.slice(s, e);
        tasks.push({ kind: 'round', info, round, text, run: () => checkRound(ctx.engine, ctx.table, { ...at, round }, text, secret) });
      });
    } else if (ctx.table.secretFields.includes(m.key)) {
      if (m !== secretMember) invalid(m.key, `an epoch carries one secret; this one has ${JSON.stringify(secret.field)} already`);
    } else {
      const hint = line !== null && m.key === 'proof' ? '; a proof document must begin with {"proof"' : '';
      invalid(m.key, `is not a field of an epoch (commit, ${ctx.table.secretFields.join(', ')}, rounds)${hint}`);
    }
  }
  if (!seen.has('rounds')) invalid('rounds', 'is missing');
  if (!seen.has('commit')) tasks.push({ kind: 'commit', info, run: () => checkCommit(ctx.engine, ctx.table, at, null, secret) });
  // After every other finding of the epoch: where its bet history's gaps stand.
  tasks.push({ kind: 'epoch-end', info });
  return tasks;
}

/** One epoch value (an element of `epochs` or a JSON line) at `start`. */
function epochValueTasks(ctx, scan, start, epoch, line) {
  if (scan.t[start] === '{') return epochTasks(ctx, scan, start, epoch, line);
  const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
  ctx.epochs.push(info);
  const f = invalidAt({ epoch, line }, null, `an epoch must be a JSON object, not ${scan.typeAt(start)}`);
  return [{ kind: 'epoch', info }, { kind: 'epoch-invalid', info, finding: f }];
}

function documentTasks(ctx, text) {
  const scan = new Scanner(text);
  try {
    scan.whole();
  } catch (e) {
    if (!(e instanceof NotJson)) throw e;
    return [{ kind: 'doc-invalid', finding: invalidAt({ line: lineOf(text, e.offset) }, null, `not JSON: ${e.message} at character ${e.offset}`) }];
  }
  scan.i = 0;
  scan.ws();
  const tasks = [];
  const invalid = (field, reason) => tasks.push({ kind: 'doc-invalid', finding: invalidAt({}, field, reason) });
  const seen = new Set();
  for (const m of scan.members(scan.i)) {
    if (seen.has(m.key)) {
      invalid(m.key, 'appears twice');
      continue;
    }
    seen.add(m.key);
    const value = () => scan.parse(m.start, m.end);
    if (m.key === 'proof') {
      const v = value();
      if (v !== VERSION) {
        invalid('proof', `version ${describe(v)} is not one this reader knows (it reads version ${VERSION})`);
        return tasks; // nothing else is read
      }
    } else if (m.key === 'title') {
      const v = value();
      if (typeof v === 'string') ctx.title = v;
      else invalid('title', `must be a string, not ${typeName(v)}`);
    } else if (m.key === 'epochs') {
      if (scan.t[m.start] !== '[') invalid('epochs', `must be a list of epochs, not ${scan.typeAt(m.start)}`);
      else scan.elements(m.start).forEach(({ start }, epoch) => tasks.push(...epochValueTasks(ctx, scan, start, epoch, null)));
    } else {
      invalid(m.key, 'is not a field of a proof document (proof, title, epochs)');
    }
  }
  if (!seen.has('epochs')) invalid('epochs', 'is missing');
  return tasks;
}

/** JSON lines: `text` a string, or the lines' bytes when the whole is not UTF-8 (`lines` given). */
function linesTasks(ctx, lines) {
  const tasks = [];
  let epoch = 0;
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (typeof raw === 'string' && /^[ \t\r\f\n]*$/.test(raw)) return;
    const at = { epoch, line };
    if (typeof raw !== 'string') {
      const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
      ctx.epochs.push(info);
      tasks.push({ kind: 'epoch', info }, { kind: 'epoch-invalid', info, finding: invalidAt(at, null, 'not JSON: the line is not UTF-8') });
      epoch++;
      return;
    }
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const scan = new Scanner(text);
    try {
      scan.whole();
    } catch (e) {
      if (!(e instanceof NotJson)) throw e;
      const info = { epoch, line, secret: null, commit: null, rounds: [], findings: [] };
      ctx.epochs.push(info);
      tasks.push({ kind: 'epoch', info }, { kind: 'epoch-invalid', info, finding: invalidAt(at, null, `not JSON: ${e.message} at character ${e.offset}`) });
      epoch++;
      return;
    }
    scan.i = 0;
    scan.ws();
    tasks.push(...epochValueTasks(ctx, scan, scan.i, epoch, line));
    epoch++;
  });
  return tasks;
}

/** The lines of `bytes` (split at \n), each decoded on its own: a string, or the bytes if not UTF-8. */
function splitBytes(bytes) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out = [];
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, start);
    const part = bytes.subarray(start, end === -1 ? bytes.length : end);
    try {
      out.push(decoder.decode(part));
    } catch {
      out.push(part);
    }
    if (end === -1) return out;
    start = end + 1;
  }
}

// ---------------------------------------------------------------------------
// Bet histories (docs/proofs.md, "Bet histories"; src/proof/bets.rs)
//
// A stake seed pair gives each nonce to exactly one bet, across its games.
// So, per epoch and client seed: a nonce bet again by a later round makes
// that round a mismatch (field `nonce`), and nonces missing between the
// smallest and the largest shown are one `gap` finding per missing run, at
// the epoch's end. Gaps change no verdict (a history filtered by game has
// them too); nonces before the first shown are not judged, since where a
// pair's count starts is not published.

/** The most separate runs of nonces one epoch may hold before its continuity is no longer followed (as the Rust audit). */
export const MAX_RUNS = 2 ** 20;

/**
 * Whether `op` is a bet on a seed pair: a stake game that takes a nonce,
 * not `stake.floats` (a bet's bytes) and not crash (a hash chain, no nonce).
 */
export function isBet(engine, op) {
  return op.startsWith('stake.') && op !== 'stake.floats' && engine.fieldsOf(op).includes('nonce');
}

/**
 * The bet a checked round is ({ client, nonce }), or null. A round that did
 * not come from the seed (external) or that is invalid is no bet: its nonce
 * is not the pair's, and an invalid round stays invalid.
 */
function betOf(r) {
  if (!r.request || r.external !== undefined || r.verdict === 'invalid' || !r.isBet) return null;
  return { client: r.request.clientSeed, nonce: Number(r.request.nonce) };
}

/** The epoch being followed: each client seed's nonces, in the order of its first bet. */
class Bets {
  constructor() {
    this.reset();
    this.info = null;
  }

  reset() {
    this.pairs = new Map();
    // Separate runs of consecutive nonces over all client seeds, counted as
    // the Rust audit keeps them (its memory), so the cap falls on the same bet.
    this.runs = 0;
    this.overflow = false;
  }

  /** Whether `bet`'s nonce was bet before in this epoch; records it if not. */
  repeats(info, bet) {
    this.info ??= info;
    if (this.overflow) return false;
    let seen = this.pairs.get(bet.client);
    if (!seen) this.pairs.set(bet.client, (seen = new Set()));
    const n = bet.nonce;
    if (seen.has(n)) return true;
    this.runs += 1 - (seen.has(n - 1) ? 1 : 0) - (seen.has(n + 1) ? 1 : 0);
    seen.add(n);
    if (this.runs > MAX_RUNS) {
      this.overflow = true;
      this.pairs = new Map();
    }
    return false;
  }

  /** The epoch ends (`at` its place; else the first bet's): its gap findings. */
  finish(at) {
    const info = this.info;
    this.info = null;
    if (!info && !at) return [];
    const where = at ?? { epoch: info.epoch, line: info.line };
    const out = [];
    if (this.overflow) {
      out.push(finding('gap', where, {
        field: 'nonce',
        reason: `more than ${MAX_RUNS} separate runs of nonces: the continuity of this epoch's bets is not followed`,
      }));
    }
    for (const [client, seen] of this.pairs) {
      const nonces = [...seen].sort((a, b) => a - b);
      for (let i = 1; i < nonces.length; i++) {
        if (nonces[i] - nonces[i - 1] > 1) out.push(gap(where, client, nonces[i - 1] + 1, nonces[i] - 1));
      }
    }
    this.reset();
    return out;
  }
}

function repeated(at, bet) {
  return finding('mismatch', at, {
    field: 'nonce',
    observed: bet.nonce,
    differences: 1,
    reason: `nonce ${bet.nonce} of client seed ${JSON.stringify(bet.client)} was bet by an earlier round of this epoch: a seed pair gives each nonce to one bet`,
  });
}

function gap(at, client, first, last) {
  const which = first === last
    ? `nonce ${first} of client seed ${JSON.stringify(client)} is`
    : `nonces ${first} … ${last} of client seed ${JSON.stringify(client)} are`;
  return finding('gap', at, { field: 'nonce', observed: [first, last], reason: `${which} not in the history: those bets cannot be checked` });
}

// ---------------------------------------------------------------------------
// The report

function emptyCounts() {
  return {
    epochs: 0, rounds: 0, match: 0, mismatch: 0, skipped: 0, invalid: 0, unobserved: 0,
    commitOk: 0, commitMismatch: 0, commitAbsent: 0, invalidOther: 0, gaps: 0,
  };
}

/** The overall verdict of counts: invalid, else mismatch, else match if anything agreed, else unobserved. */
export function verdictOf(c) {
  if (c.invalid > 0 || c.invalidOther > 0) return 'invalid';
  if (c.mismatch > 0 || c.commitMismatch > 0) return 'mismatch';
  if (c.match > 0 || c.commitOk > 0) return 'match';
  return 'unobserved';
}

/**
 * Runs `tasks` (some with run()) at most `limit` at a time; results in order.
 * onProgress(done, total, { rounds, roundsTotal }) after every 25 tasks and
 * at the end; `signal` (an AbortSignal) stops it between two tasks.
 */
async function runAll(tasks, limit, onProgress, signal) {
  const work = tasks.filter((t) => t.run);
  const roundsTotal = work.filter((t) => t.kind === 'round').length;
  let next = 0;
  let done = 0;
  let rounds = 0;
  const worker = async () => {
    while (next < work.length) {
      if (signal?.aborted) throw new CheckCancelled();
      const t = work[next++];
      t.result = await t.run();
      done++;
      if (t.kind === 'round') rounds++;
      if (onProgress && (done % 25 === 0 || done === work.length)) onProgress(done, work.length, { rounds, roundsTotal });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, work.length) }, worker));
  if (signal?.aborted) throw new CheckCancelled();
}

/**
 * Checks a proof: `input` is its text, or its bytes (a file). Returns
 * { report, epochs, findings, format, title }: `report` the object of
 * docs/proofs.md (counts, verdict, findings in document order), `epochs` what
 * the page shows (per epoch its secret, commitment and rounds with their
 * request, derived outcome and verdict), `findings` the document's own.
 */
export async function checkProof(input, { engine = DEFAULT_ENGINE, onProgress, concurrency = 8, signal } = {}) {
  const ctx = { engine, table: opTable(engine), epochs: [], title: null };
  let format;
  let tasks;
  if (typeof input === 'string' && isDocument(input)) input = withoutBom(input);
  if (typeof input === 'string') {
    format = isDocument(input) ? 'document' : 'lines';
    tasks = format === 'document' ? documentTasks(ctx, input) : linesTasks(ctx, input === '' ? [] : input.split('\n'));
  } else {
    const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 64));
    format = isDocument(head) ? 'document' : 'lines';
    if (format === 'lines') {
      tasks = linesTasks(ctx, bytes.length ? splitBytes(bytes) : []);
    } else {
      let text = null;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        tasks = [{ kind: 'doc-invalid', finding: invalidAt({ line: null }, null, 'not JSON: the text is not UTF-8') }];
      }
      if (text !== null) tasks = documentTasks(ctx, text);
    }
  }
  await runAll(tasks, concurrency, onProgress, signal);

  const counts = emptyCounts();
  const findings = [];
  const own = [];
  const bets = new Bets();
  const notes = (list, info) => {
    for (const f of list) {
      counts.gaps++;
      info?.findings.push(f);
      findings.push(f);
    }
  };
  for (const t of tasks) {
    switch (t.kind) {
      case 'epoch':
        notes(bets.finish(), bets.info);
        counts.epochs++;
        break;
      case 'epoch-end':
        notes(bets.finish({ epoch: t.info.epoch, line: t.info.line }), t.info);
        break;
      case 'epoch-invalid':
        counts.invalidOther++;
        t.info.findings.push(t.finding);
        findings.push(t.finding);
        break;
      case 'doc-invalid':
        counts.invalidOther++;
        own.push(t.finding);
        findings.push(t.finding);
        break;
      case 'commit': {
        const r = t.result;
        t.info.commit = r;
        if (r.verdict === 'ok') counts.commitOk++;
        else if (r.verdict === 'mismatch') counts.commitMismatch++;
        else if (r.verdict === 'absent') counts.commitAbsent++;
        else counts.invalidOther++;
        findings.push(...r.findings);
        break;
      }
      case 'round': {
        const r = { round: t.round, text: t.text, ...t.result };
        const bet = betOf(r);
        if (bet && bets.repeats(t.info, bet)) {
          r.verdict = 'mismatch';
          r.findings = [...r.findings, repeated({ epoch: t.info.epoch, round: t.round, line: t.info.line }, bet)];
        }
        t.info.rounds.push(r);
        counts.rounds++;
        counts[r.verdict]++;
        findings.push(...r.findings);
        break;
      }
      default:
        throw new Error(`unknown task ${t.kind}`);
    }
  }
  notes(bets.finish(), bets.info);
  const report = { ...counts, verdict: verdictOf(counts), findings };
  return { report, epochs: ctx.epochs, findings: own, format, title: ctx.title };
}
