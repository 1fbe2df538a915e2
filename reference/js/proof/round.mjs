// Reading and checking one round: every rule of the format and of protocol
// v1, in the order docs/proofs.md gives, then the round derived with the
// engine and compared with what was observed (compare.mjs).

import { OK_FIELDS } from '../generated/ops.mjs';
import { JsonFloat, parseJson } from '../json.mjs';
import { describe, isObject } from '../validate.mjs';
import { isBet } from './bets.mjs';
import { compareObserved, mismatches } from './compare.mjs';
import { FieldError, finding, invalidAt, splitMessage, typeName } from './finding.mjs';
import { NotJson, Scanner, Twice } from './scan.mjs';

/** The longest `external` reason, in characters (code points). */
export const MAX_EXTERNAL = 64;

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
export function readRequest(engine, op, map) {
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
export function readObserved(op, v) {
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
    // Strictly, as serde_json reads a round: the first of a key given twice
    // and a lone surrogate escape, in text order, is the round's error.
    new Scanner(text, { strict: true }).value([]);
  } catch (e) {
    if (e instanceof Twice) throw new FieldError(e.path, 'appears twice');
    if (e instanceof NotJson) throw new FieldError('round', `not JSON: ${e.message} at character ${e.offset}`);
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

/** A round its op refuses (the field it names) or cannot answer (no field), as `provably audit` reports it. */
function underivable(at, op, error) {
  if (error.kind === 'invalid') {
    const { field, reason } = splitMessage(error.message, null);
    return finding('invalid', at, { field, reason: `${op} refuses the round: ${reason}` });
  }
  return finding('invalid', at, { reason: `${op} cannot be derived: ${error.message}` });
}

export async function checkRound(engine, table, at, text, secret) {
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
