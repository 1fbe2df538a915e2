// The protocol's operations behind one function, for the node target and
// the web page alike: execute(request) -> {ok: {...}} | {error: {kind, message}}.

import * as cursor from './cursor.mjs';
import * as dice from './dice.mjs';
import { ProvablyError } from './errors.mjs';
import * as ladder from './ladder.mjs';
import * as poker from './poker.mjs';
import * as selfpoker from './selfpoker.mjs';
import * as shoe from './shoe.mjs';
import { OP_FIELDS, describe, isObject, validateFields, validateHello } from './validate.mjs';

export const VERSION = '0.1.0';
export const NAME = `provably-js ${VERSION}`;

const HANDLERS = {
  'cursor.hash': async (f) => ({ hash: await cursor.hash(f.serverSeed) }),
  'cursor.raw': async (f) => ({
    raw: await cursor.rawHex(f.serverSeed, f.clientSeed, f.nonce, f.cursor),
  }),
  'cursor.float': async (f) => ({
    float: await cursor.float(f.serverSeed, f.clientSeed, f.nonce, f.cursor),
  }),
  'cursor.int': (f) => cursor.int(f.serverSeed, f.clientSeed, f.nonce, f.cursor, f.range),
  'cursor.shuffle': (f) => cursor.shuffle(f.serverSeed, f.clientSeed, f.nonce, f.cursor, f.count),
  'poker.deal': (f) => poker.deal(f.serverSeed, f.clientSeed, f.nonce, f.players),
  'poker.evaluate': async (f) => poker.evaluate(f.cards),
  'shoe.deal': (f) => shoe.deal(f.serverSeed, f.clientSeed, f.nonce, f.decks, f.penetration),
  'shoe.tournament': (f) =>
    shoe.tournament(f.serverSeed, f.tournamentId, f.hand, f.decks, f.penetration),
  'dice.roll': async (f) => ({ face: await dice.roll(f.serverSeed, f.clientSeed, f.n) }),
  'selfpoker.commit': async (f) => ({ commit: await selfpoker.commit(f.seed) }),
  'selfpoker.deck': async (f) => ({ deck: selfpoker.deck(f.seed) }),
  'ladder.shuffle': (f) => ladder.shuffle(f.serverSeed, f.clientSeed, f.size),
};

/** Every operation this implementation claims in its hello. */
export const OPS = Object.keys(OP_FIELDS);

/**
 * Runs one request (a protocol request without `id`). Never throws: every
 * failure comes back as {error: {kind, message}}.
 */
export async function execute(request) {
  try {
    return { ok: await run(request) };
  } catch (e) {
    if (e instanceof ProvablyError) return { error: { kind: e.kind, message: e.message } };
    // Anything else is a bug here, not a bad request; the message says so.
    return { error: { kind: 'invalid', message: `internal error: ${e?.message ?? e}` } };
  }
}

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
    validateHello(request);
    return { name: NAME, ops: [...OPS] };
  }
  if (!Object.hasOwn(HANDLERS, op)) {
    throw new ProvablyError('unsupported', `op ${describe(op)} is not implemented by ${NAME}`);
  }
  return HANDLERS[op](validateFields(op, request));
}
