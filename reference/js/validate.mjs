// Request checking exactly as docs/protocol.md describes it. Every problem
// is an `invalid` ProvablyError whose message starts with the field name.

import { ProvablyError } from './errors.mjs';
import { JsonFloat } from './json.mjs';

export const MAX_INT = Number.MAX_SAFE_INTEGER; // 2^53 − 1
const SEED_LIMIT = 1n << 63n;

/** The fields each op takes, in the order of docs/protocol.md. */
export const OP_FIELDS = {
  'cursor.hash': ['serverSeed'],
  'cursor.raw': ['serverSeed', 'clientSeed', 'nonce', 'cursor'],
  'cursor.float': ['serverSeed', 'clientSeed', 'nonce', 'cursor'],
  'cursor.int': ['serverSeed', 'clientSeed', 'nonce', 'cursor', 'range'],
  'cursor.shuffle': ['serverSeed', 'clientSeed', 'nonce', 'cursor', 'count'],
  'poker.deal': ['serverSeed', 'clientSeed', 'nonce', 'players'],
  'poker.evaluate': ['cards'],
  'shoe.deal': ['serverSeed', 'clientSeed', 'nonce', 'decks', 'penetration'],
  'shoe.tournament': ['serverSeed', 'tournamentId', 'hand', 'decks', 'penetration'],
  'dice.roll': ['serverSeed', 'clientSeed', 'n'],
  'selfpoker.commit': ['seed'],
  'selfpoker.deck': ['seed'],
  'ladder.shuffle': ['serverSeed', 'clientSeed', 'size'],
};

const invalid = (message) => new ProvablyError('invalid', message);

/** Short, unambiguous rendering of a bad value for an error message. */
export function describe(v) {
  if (v instanceof JsonFloat) return v.text;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') {
    const s = JSON.stringify(v);
    return s.length > 40 ? `${s.slice(0, 37)}…"` : s;
  }
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return String(v);
}

/** A Unicode string; lone surrogates (JSON "\ud800") are not scalar values. */
function text(name, v) {
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

/** A JSON integer in [min, max]; `1.0` and `1e0` are numbers, not integers. */
function integer(name, v, min, max) {
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

const FIELDS = {
  serverSeed: (v) => text('serverSeed', v),
  clientSeed: (v) => text('clientSeed', v),
  tournamentId: (v) => text('tournamentId', v),
  nonce: (v) => integer('nonce', v, 0, MAX_INT),
  cursor: (v) => integer('cursor', v, 0, MAX_INT),
  n: (v) => integer('n', v, 0, MAX_INT),
  hand: (v) => integer('hand', v, 0, MAX_INT),
  range: (v) => integer('range', v, 1, MAX_INT),
  count: (v) => integer('count', v, 0, 100000),
  size: (v) => integer('size', v, 1, 100000),
  players: (v) => integer('players', v, 2, 22),
  decks: (v) => integer('decks', v, 1, 8),
  penetration(v) {
    const x = v instanceof JsonFloat ? v.value : v;
    if (typeof x !== 'number') throw invalid(`penetration: must be a number, got ${describe(v)}`);
    if (!(x > 0 && x < 1)) {
      throw invalid(`penetration: ${describe(v)} is not strictly between 0 and 1`);
    }
    return x;
  },
  cards(v) {
    if (!Array.isArray(v)) throw invalid(`cards: must be an array, got ${describe(v)}`);
    if (v.length < 5 || v.length > 7) {
      throw invalid(`cards: must hold 5 to 7 cards, got ${v.length}`);
    }
    const seen = new Set();
    return v.map((c, i) => {
      const card = integer(`cards[${i}]`, c, 0, 51);
      if (seen.has(card)) throw invalid(`cards[${i}]: card ${card} appears twice`);
      seen.add(card);
      return card;
    });
  },
  seed(v) {
    if (typeof v !== 'string') {
      // A JSON number cannot carry 63 bits through JavaScript; say why.
      throw invalid(`seed: must be a string of decimal digits, got ${describe(v)}`);
    }
    if (!/^(?:0|[1-9][0-9]*)$/.test(v)) {
      throw invalid(
        `seed: ${describe(v)} is not plain decimal digits (no sign, no leading zeros, no spaces)`,
      );
    }
    if (v.length > 19 || BigInt(v) >= SEED_LIMIT) {
      throw invalid(`seed: ${describe(v)} is above the limit 9223372036854775807`);
    }
    return v;
  },
};

/** True for a plain JSON object (JSON.parse's or json.mjs's null-prototype ones). */
export function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

/**
 * Checks a request (without `id`) for `op`, which the caller has already
 * found in OP_FIELDS, and returns its fields, normalised, by name.
 */
export function validateFields(op, request) {
  const wanted = OP_FIELDS[op];
  for (const key of Object.keys(request)) {
    if (key !== 'op' && !wanted.includes(key)) {
      throw invalid(`unknown field ${JSON.stringify(key)}: ${op} takes ${wanted.join(', ')}`);
    }
  }
  const fields = {};
  for (const name of wanted) {
    if (!Object.hasOwn(request, name)) throw invalid(`missing field ${name}: ${op} takes ${wanted.join(', ')}`);
    fields[name] = FIELDS[name](request[name]);
  }
  return fields;
}

/** The handshake: {"op": "hello", "protocol": 1} and nothing else. */
export function validateHello(request) {
  for (const key of Object.keys(request)) {
    if (key !== 'op' && key !== 'protocol') {
      throw invalid(`unknown field ${JSON.stringify(key)}: hello takes protocol`);
    }
  }
  if (!Object.hasOwn(request, 'protocol')) throw invalid('missing field protocol: hello takes protocol');
  if (request.protocol !== 1) {
    throw invalid(`protocol: this target speaks version 1, not ${describe(request.protocol)}`);
  }
}
