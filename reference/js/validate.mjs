// Request fields, declared once and checked from the declaration, exactly as
// docs/protocol.md describes them. Every problem is an `invalid`
// ProvablyError whose message starts with the field name.
//
// A field is { schema, check(name, value) -> normalised value, required,
// default }. `schema` is the field's JSON Schema, the same words and numbers
// the Rust side writes into harness/protocol.schema.json, and `check` is built
// from those very numbers, so a test can hold the two side by side
// (test/schema.test.mjs) and the limits have nowhere to drift.
// The constructors: text(), word(words), hex64(), int(min, max), number({...}),
// cards(min, max), decimalSeed(max), bool(), version(n); `.optional(default)`
// on any of them.

import { ProvablyError } from './errors.mjs';
import { JsonFloat } from './json.mjs';

export const MAX_INT = Number.MAX_SAFE_INTEGER; // 2^53 − 1

const invalid = (message) => new ProvablyError('invalid', message);

/**
 * The first `max` UTF-16 units of `s`, one fewer if the cut would split a
 * surrogate pair: half a pair in an error message would be a lone surrogate
 * in our own response line.
 */
function clip(s, max) {
  const end = s.length > max && /[\uD800-\uDBFF]/.test(s[max - 1]) ? max - 1 : max;
  return s.slice(0, end);
}

/** Short, unambiguous rendering of a bad value for an error message. */
export function describe(v) {
  if (v instanceof JsonFloat) return v.text;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') {
    const s = JSON.stringify(v);
    return s.length > 40 ? `${clip(s, 37)}…"` : s;
  }
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return String(v);
}

/** True for a plain JSON object (JSON.parse's or json.mjs's null-prototype ones). */
export function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

function field(schema, check) {
  return Object.freeze({
    schema: Object.freeze(schema),
    check,
    required: true,
    /** The same field, which a request may leave out; `value` (if given) stands in for it. */
    optional(value) {
      const withDefault = value === undefined ? schema : { ...schema, default: value };
      return Object.freeze({ schema: Object.freeze(withDefault), check, required: false, default: value });
    },
  });
}

/** A Unicode string; lone surrogates (JSON "\ud800") are not scalar values. */
export function text() {
  return field({ type: 'string' }, checkText);
}

function checkText(name, v) {
  if (typeof v !== 'string') throw invalid(`${name}: must be a string, got ${describe(v)}`);
  // With the u flag a well-formed pair is one code point outside this class,
  // so only a surrogate that has lost its partner matches.
  const m = /[\uD800-\uDFFF]/u.exec(v);
  if (m) {
    const code = m[0].charCodeAt(0).toString(16).toUpperCase();
    throw invalid(`${name}: lone surrogate U+${code} at index ${m.index} is not a Unicode scalar value`);
  }
  return v;
}

/** One of a few words (a risk level), matched exactly (Rust's Kind::Word). */
export function word(words) {
  return field({ type: 'string', enum: [...words] }, (name, v) => {
    if (typeof v !== 'string') throw invalid(`${name}: must be a string, got ${describe(v)}`);
    if (!words.includes(v)) throw invalid(`${name}: must be one of ${words.map(describe).join(', ')}, got ${describe(v)}`);
    return v;
  });
}

/** 64 lowercase hex characters: a hash whose text is itself a key (Rust's Kind::Hex64). */
export function hex64() {
  return field({ type: 'string', pattern: '^[0-9a-f]{64}$' }, (name, v) => {
    if (typeof v !== 'string') throw invalid(`${name}: must be a string, got ${describe(v)}`);
    if (!/^[0-9a-f]{64}$/.test(v)) throw invalid(`${name}: ${describe(v)} is not 64 lowercase hex digits`);
    return v;
  });
}

/** A JSON integer that is one of `values` (ascending): the wheel's segment counts (Rust's Field::size_of). */
export function intOf(values) {
  const [min, max] = [values[0], values[values.length - 1]];
  return field({ type: 'integer', enum: [...values] }, (name, v) => {
    const n = checkInt(name, v, min, max);
    if (!values.includes(n)) throw invalid(`${name}: must be one of ${values.join(', ')}, got ${describe(n)}`);
    return n;
  });
}

/** A JSON integer in [min, max]; `1.0` and `1e0` are numbers, not integers. */
export function int(min, max) {
  return field({ type: 'integer', minimum: min, maximum: max }, (name, v) => checkInt(name, v, min, max));
}

function checkInt(name, v, min, max) {
  if (typeof v === 'bigint') {
    throw invalid(`${name}: ${v} is ${v < 0n ? `below the minimum ${min}` : `above the limit ${max}`}`);
  }
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw invalid(`${name}: must be an integer, got ${describe(v)}`);
  }
  if (v < min) throw invalid(`${name}: ${describe(v)} is below the minimum ${min}`);
  if (v > max) throw invalid(`${name}: ${describe(v)} is above the limit ${max}`);
  return v === 0 ? 0 : v; // -0 is 0
}

/**
 * A JSON number (integer or not) within bounds, in JSON Schema's words:
 * number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }), or minimum/maximum
 * for inclusive ends.
 */
export function number(bounds) {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = bounds;
  const strictly = exclusiveMinimum !== undefined && exclusiveMaximum !== undefined;
  const problem = (x) => {
    if (strictly) {
      return x > exclusiveMinimum && x < exclusiveMaximum ? null : `is not strictly between ${exclusiveMinimum} and ${exclusiveMaximum}`;
    }
    if (exclusiveMinimum !== undefined && !(x > exclusiveMinimum)) return `is not above ${exclusiveMinimum}`;
    if (exclusiveMaximum !== undefined && !(x < exclusiveMaximum)) return `is not below ${exclusiveMaximum}`;
    if (minimum !== undefined && !(x >= minimum)) return `is below the minimum ${minimum}`;
    if (maximum !== undefined && !(x <= maximum)) return `is above the limit ${maximum}`;
    return null;
  };
  return field({ type: 'number', ...bounds }, (name, v) => {
    const x = v instanceof JsonFloat ? v.value : v;
    if (typeof x !== 'number') throw invalid(`${name}: must be a number, got ${describe(v)}`);
    const why = problem(x);
    if (why) throw invalid(`${name}: ${describe(v)} ${why}`);
    return x;
  });
}

/** minItems … maxItems distinct cards 0 … 51. */
export function cards(minItems, maxItems) {
  const schema = {
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 51 },
    minItems,
    maxItems,
    uniqueItems: true,
  };
  return field(schema, (name, v) => {
    if (!Array.isArray(v)) throw invalid(`${name}: must be an array, got ${describe(v)}`);
    if (v.length < minItems || v.length > maxItems) {
      throw invalid(`${name}: must hold ${minItems} to ${maxItems} cards, got ${v.length}`);
    }
    const seen = new Set();
    return v.map((c, i) => {
      const card = checkInt(`${name}[${i}]`, c, schema.items.minimum, schema.items.maximum);
      if (seen.has(card)) throw invalid(`${name}[${i}]: card ${card} appears twice`);
      seen.add(card);
      return card;
    });
  });
}

/**
 * A string of plain decimal digits for 0 … max (a BigInt). A string because
 * a 63-bit seed does not survive a JavaScript Number; the schema's pattern
 * allows as many digits as max has.
 */
export function decimalSeed(max = (1n << 63n) - 1n) {
  const digits = max.toString().length;
  const schema = { type: 'string', pattern: `^(0|[1-9][0-9]{0,${digits - 1}})$` };
  return field(schema, (name, v) => {
    if (typeof v !== 'string') {
      // A JSON number cannot carry 63 bits through JavaScript; say why.
      throw invalid(`${name}: must be a string of decimal digits, got ${describe(v)}`);
    }
    if (!/^(?:0|[1-9][0-9]*)$/.test(v)) {
      throw invalid(
        `${name}: ${describe(v)} is not plain decimal digits (no sign, no leading zeros, no spaces)`,
      );
    }
    if (v.length > digits || BigInt(v) > max) throw invalid(`${name}: ${describe(v)} is above the limit ${max}`);
    return v;
  });
}

/** JSON true or false. */
export function bool() {
  return field({ type: 'boolean' }, (name, v) => {
    if (typeof v !== 'boolean') throw invalid(`${name}: must be true or false, got ${describe(v)}`);
    return v;
  });
}

/** The handshake's protocol version: exactly `n`. */
export function version(n) {
  return field({ const: n }, (name, v) => {
    if (v !== n) throw invalid(`${name}: this target speaks version ${n}, not ${describe(v)}`);
    return v;
  });
}

/**
 * Checks a request (without `id`) against the declared `fields` of `op` and
 * returns its fields, normalised, by name; a field left out gets its default.
 */
export function validateFields(op, fields, request) {
  const names = Object.keys(fields);
  const takes = () => `${op} takes ${names.join(', ')}`;
  for (const key of Object.keys(request)) {
    if (key !== 'op' && !Object.hasOwn(fields, key)) {
      throw invalid(`unknown field ${JSON.stringify(key)}: ${takes()}`);
    }
  }
  const out = {};
  for (const name of names) {
    const f = fields[name];
    if (Object.hasOwn(request, name)) out[name] = f.check(name, request[name]);
    else if (f.required) throw invalid(`missing field ${name}: ${takes()}`);
    else if (f.default !== undefined) out[name] = f.default;
  }
  return out;
}
