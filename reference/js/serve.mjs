// The protocol v1 loop (docs/protocol.md) for any engine, in node:
//
//   import { createEngine } from './provably.mjs';
//   import { runTarget } from './serve.mjs';
//   runTarget(createEngine(myProvider));
//
// One JSON request per line in, one response line per request out, in order.
// A line that is empty or only spaces, tabs and CR is not a request and gets
// no answer. A JSON object with an integer `id` is always answered with that
// id, however wrong the rest of it is; anything else is answered with id null.
//
// Requests run concurrently (WebCrypto's HMAC is asynchronous, and a harness
// sends thousands of small requests), but responses are written strictly in
// request order; at most MAX_IN_FLIGHT requests are pending before input is
// paused, so a fast writer cannot grow memory without bound.

import process from 'node:process';
import { JsonSyntaxError, parseJson, stringifyJson } from './json.mjs';
import { isObject } from './validate.mjs';

const MAX_IN_FLIGHT = 64;
const NEWLINE = 0x0a;
// Invalid UTF-8 is not a JSON text; a replacing decoder would let a mangled
// seed through as U+FFFD and compute with a key nobody sent.
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Empty, or nothing but space, tab and CR: JSON whitespace on one line. */
export function isBlank(bytes) {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

const line = (id, result) => stringifyJson({ id, ...result });
const invalid = (id, message) => line(id, { error: { kind: 'invalid', message } });

/** The response line (without newline) for one request line. */
async function respond(engine, bytes) {
  let request;
  const repeated = [];
  try {
    request = parseJson(decoder.decode(bytes), { onDuplicate: (e, key, depth) => repeated.push({ e, key, depth }) });
  } catch (e) {
    return invalid(null, e instanceof JsonSyntaxError ? `not JSON: ${e.message}` : 'not JSON: the line is not valid UTF-8');
  }
  if (!isObject(request)) return invalid(null, 'a request must be a JSON object');
  const twiceId = repeated.find((r) => r.key === 'id' && r.depth === 1);
  if (twiceId) return invalid(null, `not JSON: ${twiceId.e.message}`);
  const { id, ...fields } = request;
  // A JSON integer id is echoed as is; json.mjs gives Numbers or exact BigInts.
  if (!(Number.isInteger(id) || typeof id === 'bigint')) {
    return invalid(null, id === undefined ? 'the request has no id' : 'id must be a JSON integer');
  }
  if (repeated.length > 0) return invalid(id, `not JSON: ${repeated[0].e.message}`);
  return line(id, await engine.execute(fields));
}

/**
 * Serves `engine` ({ execute }) on `input` until it ends, answering on
 * `output` (process.stdin and process.stdout by default).
 */
export function runTarget(engine, { input = process.stdin, output = process.stdout } = {}) {
  const pending = []; // promises of response lines, in request order
  let pendingHead = 0;
  let writing = false;
  let ended = false;
  let carry = [];

  function enqueue(bytes) {
    if (isBlank(bytes)) return;
    const p = respond(engine, bytes);
    // A failure here is a bug in this file; surface it instead of hanging.
    p.catch((e) => fatal(e));
    pending.push(p);
    if (pending.length - pendingHead >= MAX_IN_FLIGHT) input.pause();
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
      if (!output.write(out)) await new Promise((r) => output.once('drain', r));
      if (!ended && pending.length - pendingHead < MAX_IN_FLIGHT) input.resume();
    }
    writing = false;
  }

  input.on('data', (chunk) => {
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

  input.on('end', () => {
    ended = true;
    // A last line without its newline is still a request.
    if (carry.length) enqueue(Buffer.concat(carry));
    carry = [];
  });

  // The harness closing our output early is its business, not a crash.
  output.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    fatal(e);
  });
}

const UNSETTLED = Symbol('unsettled');
async function isSettled(p) {
  return (await Promise.race([p, Promise.resolve(UNSETTLED)])) !== UNSETTLED;
}

function fatal(e) {
  process.stderr.write(`provably-js target: ${e?.stack ?? e}\n`);
  process.exit(70);
}
