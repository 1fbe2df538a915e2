#!/usr/bin/env node
// Protocol-v1 target that runs the dice page's own JavaScript (seed 001).
//
// reference/published/dice.js is the verifier the page prints, byte for
// byte. It is not a module: it expects `serverSeed`, `clientSeed` and
// `commit` to exist, uses top-level `await`, and leaves behind `commitOk`
// and an async `die(n)`. This adapter runs it without changing a character:
// it reads the file as text and makes it the body of an AsyncFunction whose
// parameters are those three names, followed by one added line,
// `return { commitOk, die };`. Wrapping, not editing: the page's lines run
// exactly as a browser would run them, with WebCrypto from globalThis.crypto.
//
// Op `dice.roll` {serverSeed, clientSeed, n} -> {face}. The published die(n)
// returns undefined when 16 rounds bring no byte below 252; that is answered
// with kind `exhausted`. The page code is run once per (serverSeed,
// clientSeed) pair and its `die` kept, since that is how the page uses it:
// one seed pair, many dice.
//
// The page code cannot run for every input the protocol allows: WebCrypto
// refuses a zero-length HMAC key, so an empty serverSeed makes it throw
// (DataError). Anything the page code throws is answered `invalid`, with
// the page's own error in the message, rather than papered over: that is
// what the published verifier does with such a seed.

import { readFileSync } from 'node:fs';
import { parseJson } from '../js/json.mjs';

const PAGE = new URL('../published/dice.js', import.meta.url);
const NAME = 'dice page code (reference/published/dice.js, run as an AsyncFunction)';

let source;
try {
  source = readFileSync(PAGE, 'utf8');
} catch (e) {
  process.stderr.write(`dice_published_target.mjs: cannot read the published page code: ${e.message}\n`);
  process.exit(2);
}

const AsyncFunction = (async () => {}).constructor;
// The sourceURL comment names the file in stack traces of errors thrown inside it.
const pageCode = new AsyncFunction(
  'serverSeed', 'clientSeed', 'commit',
  `${source}\nreturn { commitOk, die };\n//# sourceURL=${PAGE.pathname}`,
);

// (serverSeed, clientSeed) -> promise of the page's { commitOk, die }.
// Bounded, oldest out first, because property tests bring many pairs.
const pages = new Map();
const MAX_PAGES = 256;

function pageFor(serverSeed, clientSeed) {
  const key = JSON.stringify([serverSeed, clientSeed]);
  let page = pages.get(key);
  if (page === undefined) {
    // `commit` is what the reader pastes in to check the seed; we are not
    // checking commitments here, so commitOk is simply false.
    page = pageCode(serverSeed, clientSeed, '');
    page.catch(() => pages.delete(key)); // do not keep a failure
    pages.set(key, page);
    if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value);
  }
  return page;
}

class Invalid extends Error {}

function string(name, v) {
  if (typeof v !== 'string') throw new Invalid(`${name}: expected a string, got ${kindOf(v)}`);
  // json.mjs lets "\ud800" through; TextEncoder would quietly make it U+FFFD.
  if (!v.isWellFormed()) throw new Invalid(`${name}: contains a lone surrogate`);
}

function integer(name, v) {
  // json.mjs reads 1.0 as a JsonFloat and integers past 2^53 as BigInts: not Numbers.
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new Invalid(`${name}: expected an integer, got ${kindOf(v)}`);
  }
  if (v < 0) throw new Invalid(`${name}: ${v} is below the limit 0`);
  if (v > Number.MAX_SAFE_INTEGER) {
    throw new Invalid(`${name}: ${v} is above the limit ${Number.MAX_SAFE_INTEGER}`);
  }
}

const kindOf = (v) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

const FIELDS = { serverSeed: string, clientSeed: string, n: integer };

async function roll({ serverSeed, clientSeed, n }) {
  let page;
  try {
    page = await pageFor(serverSeed, clientSeed);
  } catch (e) {
    throw new Invalid(`serverSeed: the published page code fails for this seed pair: ${e.name}: ${e.message}`);
  }
  const face = await page.die(n);
  if (face === undefined) return { exhausted: `die(${n}): no byte below 252 in 16 rounds` };
  return { ok: { face } };
}

// A message may quote the request, and JSON.stringify would write a lone
// surrogate from it as \ud800, which strict readers refuse: make it U+FFFD.
const error = (id, kind, message) => ({ id, error: { kind, message: message.toWellFormed() } });

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

async function answer(line) {
  let request;
  try {
    // Not JSON.parse: it reads 1.0 as 1 and keeps the last of two equal keys,
    // both of which the protocol answers invalid. json.mjs refuses a key given
    // twice and reads 1.0 as a JsonFloat, which integer() below refuses.
    request = parseJson(strictUtf8.decode(line));
  } catch (e) {
    return error(null, 'invalid', e instanceof TypeError ? 'not UTF-8' : `not JSON: ${e.message}`);
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return error(null, 'invalid', 'the request is not a JSON object');
  }
  const id = request.id;
  if (!Number.isInteger(id)) return error(null, 'invalid', 'id: missing or not an integer');
  const op = request.op;
  try {
    if (typeof op !== 'string') throw new Invalid('op: missing or not a string');
    if (op !== 'hello' && op !== 'dice.roll') return error(id, 'unsupported', `${op}: not implemented here`);
    const takes = op === 'hello' ? ['protocol'] : Object.keys(FIELDS);
    for (const name of Object.keys(request)) {
      if (name !== 'id' && name !== 'op' && !takes.includes(name)) {
        throw new Invalid(`${name}: not a field of ${op}`);
      }
    }
    for (const name of takes) {
      if (!Object.hasOwn(request, name)) throw new Invalid(`${name}: missing`);
    }
    if (op === 'hello') {
      if (request.protocol !== 1) {
        throw new Invalid(`protocol: only version 1 is spoken, got ${JSON.stringify(request.protocol)}`);
      }
      return { id, ok: { name: NAME, ops: ['dice.roll'] } };
    }
    for (const name of takes) FIELDS[name](name, request[name]);
    const result = await roll(request);
    return result.ok ? { id, ok: result.ok } : error(id, 'exhausted', result.exhausted);
  } catch (e) {
    if (e instanceof Invalid) return error(id, 'invalid', e.message);
    throw e;
  }
}

async function respond(line) {
  // Pipes are asynchronous in Node on POSIX: wait until the line is handed over.
  if (!process.stdout.write(JSON.stringify(await answer(line)) + '\n')) {
    await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}

// Bytes, not text: a line that is not UTF-8 must be answered, not crash the loop.
let pending = Buffer.alloc(0);
for await (const chunk of process.stdin) {
  pending = Buffer.concat([pending, chunk]);
  let newline;
  while ((newline = pending.indexOf(0x0a)) !== -1) {
    const line = pending.subarray(0, newline);
    pending = pending.subarray(newline + 1);
    await respond(line);
  }
}
if (pending.length > 0) await respond(pending);
