#!/usr/bin/env node
// Protocol v1 target (docs/protocol.md) over stdin/stdout:
//   node reference/js/target.mjs
// One JSON request per line in, one response line per request out, in order.
//
// Requests run concurrently (WebCrypto's HMAC is asynchronous, and a harness
// sends thousands of small requests), but responses are written strictly in
// request order; at most MAX_IN_FLIGHT requests are pending before stdin is
// paused, so a fast writer cannot grow memory without bound.

import process from 'node:process';
import { JsonSyntaxError, parseJson, stringifyJson } from './json.mjs';
import { execute } from './provably.mjs';
import { isObject } from './validate.mjs';

const MAX_IN_FLIGHT = 64;
const NEWLINE = 0x0a;
// Invalid UTF-8 is not a JSON text; a replacing decoder would let a mangled
// seed through as U+FFFD and compute with a key nobody sent.
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The response line (without newline) for one request line. */
async function respond(bytes) {
  let request;
  try {
    request = parseJson(decoder.decode(bytes));
  } catch (e) {
    const why =
      e instanceof JsonSyntaxError ? `not JSON: ${e.message}` : 'not JSON: the line is not valid UTF-8';
    return line(null, { error: { kind: 'invalid', message: why } });
  }
  if (!isObject(request)) {
    return line(null, { error: { kind: 'invalid', message: 'a request must be a JSON object' } });
  }
  const { id, ...fields } = request;
  // A JSON integer id is echoed as is; json.mjs gives Numbers or exact BigInts.
  if (!(Number.isInteger(id) || typeof id === 'bigint')) {
    const why = id === undefined ? 'the request has no id' : 'id must be a JSON integer';
    return line(null, { error: { kind: 'invalid', message: why } });
  }
  return line(id, await execute(fields));
}

function line(id, result) {
  return stringifyJson({ id, ...result });
}

const pending = []; // promises of response lines, in request order
let pendingHead = 0;
let writing = false;
let ended = false;
let carry = [];

function enqueue(bytes) {
  const p = respond(bytes);
  // A failure here is a bug in this file; surface it instead of hanging.
  p.catch((e) => fatal(e));
  pending.push(p);
  if (pending.length - pendingHead >= MAX_IN_FLIGHT) process.stdin.pause();
  if (!writing) drain();
}

async function drain() {
  writing = true;
  while (pendingHead < pending.length) {
    let out = '';
    // Batch what is already finished into one write.
    do {
      out += (await pending[pendingHead]) + '\n';
      pending[pendingHead++] = undefined;
    } while (pendingHead < pending.length && out.length < 1 << 16 && (await isSettled(pending[pendingHead])));
    if (pendingHead > 1024 && pendingHead * 2 > pending.length) {
      pending.splice(0, pendingHead);
      pendingHead = 0;
    }
    if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r));
    if (!ended && pending.length - pendingHead < MAX_IN_FLIGHT) process.stdin.resume();
  }
  writing = false;
}

const UNSETTLED = Symbol('unsettled');
async function isSettled(p) {
  return (await Promise.race([p, Promise.resolve(UNSETTLED)])) !== UNSETTLED;
}

function fatal(e) {
  process.stderr.write(`provably-js target: ${e?.stack ?? e}\n`);
  process.exit(70);
}

process.stdin.on('data', (chunk) => {
  let start = 0;
  for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, start)) {
    const part = chunk.subarray(start, i);
    if (carry.length) {
      carry.push(part);
      enqueue(Buffer.concat(carry));
      carry = [];
    } else {
      enqueue(part);
    }
    start = i + 1;
  }
  if (start < chunk.length) carry.push(chunk.subarray(start));
});

process.stdin.on('end', () => {
  ended = true;
  // A last line without its newline is still a request.
  if (carry.length) enqueue(Buffer.concat(carry));
  carry = [];
});

// The harness closing our stdout early is its business, not a crash.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  fatal(e);
});
