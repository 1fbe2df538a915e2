#!/usr/bin/env node
// A minimal `provably` target, protocol v1, for Node 20 or later with no
// packages: HMAC and SHA-256 come from WebCrypto (globalThis.crypto), as they
// would in a browser.
//
// It implements the five `cursor` operations (seed 003) and passes the
// harness as it is:
//
//     provably diff --target-cmd 'node docs/templates/target.mjs'
//
// To check your own implementation, copy this file, replace the bodies of the
// op* functions with calls into your code, and list in OPS only what you
// implement. Leave the reading, validating and answering below alone: it is
// what the protocol asks for (docs/protocol.md).
//
// The shape of the program: read a line, answer it, repeat; exit 0 when
// stdin closes. A malformed line is answered with kind `invalid` and the
// target keeps serving. Two rules every target follows:
//   - A blank line (empty, or only spaces, tabs and CR) is not a request and
//     gets no answer at all.
//   - A JSON object with an integer `id` is always answered with that id,
//     even when the rest is wrong: a lone surrogate such as "\ud800"
//     (JSON.parse lets it through), an unknown op. Only a line that is not a
//     JSON object, or has no integer id, is answered with "id": null.
//
// Two things JSON.parse cannot see, `1.0` for an integer field (it makes it
// 1) and a key that appears twice (it keeps the last), are found by
// scanLine below: the protocol answers both `invalid`.

const NAME = 'template-node 1';
const subtle = globalThis.crypto.subtle;
const utf8 = new TextEncoder();

// ---------------------------------------------------------------------------
// The operations. Replace these bodies with calls into your implementation.
// Each receives the validated request and returns the `ok` object.

const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

// The key is the server seed as UTF-8 text, never hex-decoded.
// WebCrypto refuses a zero-length HMAC key (DataError), but HMAC pads every
// key with zero bytes to 64, so the empty seed is the same key as one 0x00.
function hmacKey(serverSeed) {
  const bytes = serverSeed === '' ? new Uint8Array(1) : utf8.encode(serverSeed);
  return subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

async function hmacRaw(key, clientSeed, nonce, cursor) {
  const mac = await subtle.sign('HMAC', key, utf8.encode(`${clientSeed}:${nonce}:${cursor}`));
  return new Uint8Array(mac);
}

// The MACs of consecutive cursors, one per call. int and shuffle use the
// cursors strictly in order, one per attempt, so they can be asked for in
// batches: WebCrypto answers each sign() on a worker thread, and one await per
// MAC makes a 100000-card shuffle take seconds.
function macStream(key, clientSeed, nonce, cursor, batchSize) {
  let batch = [];
  let at = 0;
  return async () => {
    if (at === batch.length) {
      const cursors = Array.from({ length: batchSize }, (_, i) => cursor + BigInt(i));
      batch = await Promise.all(cursors.map((c) => hmacRaw(key, clientSeed, nonce, c)));
      cursor += BigInt(batchSize);
      at = 0;
    }
    return batch[at++];
  };
}

// Returns [value, next cursor]: uniform in 0 .. range-1, by rejection.
// BigInt because range goes up to 2^53-1: seven bytes, and 256^7 is past
// what a Number holds exactly. The cursor is a BigInt too: a cursor may start
// at 2^53-1, and a Number stops counting at 2^53 (2^53 + 1 === 2^53), so a
// rejection there would read the same MAC forever.
async function drawInt(nextMac, cursor, range) {
  if (range === 1) return [0, cursor + 1n];
  const r = BigInt(range);
  let k = 1;
  while (256n ** BigInt(k) < r) k++;
  const whole = 256n ** BigInt(k);
  const limit = whole - (whole % r);
  for (;;) {
    const mac = await nextMac();
    cursor += 1n;
    let v = 0n;
    for (const b of mac.subarray(0, k)) v = v * 256n + BigInt(b);
    if (v < limit) return [Number(v % r), cursor];
  }
}

async function opHash(r) {
  return { hash: hex(new Uint8Array(await subtle.digest('SHA-256', utf8.encode(r.serverSeed)))) };
}

async function opRaw(r) {
  const key = await hmacKey(r.serverSeed);
  return { raw: hex(await hmacRaw(key, r.clientSeed, r.nonce, r.cursor)) };
}

async function opFloat(r) {
  const b = await hmacRaw(await hmacKey(r.serverSeed), r.clientSeed, r.nonce, r.cursor);
  return { float: b[0] / 256 + b[1] / 256 ** 2 + b[2] / 256 ** 3 + b[3] / 256 ** 4 };
}

async function opInt(r) {
  const key = await hmacKey(r.serverSeed);
  const nextMac = macStream(key, r.clientSeed, r.nonce, BigInt(r.cursor), 1);
  const [value, cursorNext] = await drawInt(nextMac, BigInt(r.cursor), r.range);
  return { value, cursorNext };
}

async function opShuffle(r) {
  const key = await hmacKey(r.serverSeed);
  const nextMac = macStream(key, r.clientSeed, r.nonce, BigInt(r.cursor), 256);
  const order = Array.from({ length: r.count }, (_, i) => i);
  let cursor = BigInt(r.cursor);
  for (let i = r.count - 1; i >= 1; i--) {
    let j;
    [j, cursor] = await drawInt(nextMac, cursor, i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return { order, cursorNext: cursor };
}

// op -> [the request fields it takes, the function that answers it].
// The hello answer claims exactly these keys.
const OPS = {
  'cursor.hash': [['serverSeed'], opHash],
  'cursor.raw': [['serverSeed', 'clientSeed', 'nonce', 'cursor'], opRaw],
  'cursor.float': [['serverSeed', 'clientSeed', 'nonce', 'cursor'], opFloat],
  'cursor.int': [['serverSeed', 'clientSeed', 'nonce', 'cursor', 'range'], opInt],
  'cursor.shuffle': [['serverSeed', 'clientSeed', 'nonce', 'cursor', 'count'], opShuffle],
};

// ---------------------------------------------------------------------------
// Validation. Each check throws Invalid with a message that names the field.

class Invalid extends Error {}

const kindOf = (v) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

function string(name, v) {
  if (typeof v !== 'string') throw new Invalid(`${name}: expected a string, got ${kindOf(v)}`);
  // JSON.parse lets "\ud800" through; it is not a Unicode scalar value.
  if (!v.isWellFormed()) throw new Invalid(`${name}: contains a lone surrogate`);
}

const integer = (lo, hi) => (name, v) => {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new Invalid(`${name}: expected an integer, got ${kindOf(v)}`);
  }
  if (v < lo) throw new Invalid(`${name}: ${v} is below the limit ${lo}`);
  if (v > hi) throw new Invalid(`${name}: ${v} is above the limit ${hi}`);
};

function penetration(name, v) {
  if (typeof v !== 'number' || !(v > 0 && v < 1)) {
    throw new Invalid(`${name}: expected a number strictly between 0 and 1, got ${JSON.stringify(v)}`);
  }
}

function cards(name, v) {
  if (!Array.isArray(v) || v.length < 5 || v.length > 7) {
    throw new Invalid(`${name}: expected a list of 5 to 7 cards`);
  }
  for (const c of v) integer(0, 51)(name, c);
  if (new Set(v).size !== v.length) throw new Invalid(`${name}: cards repeat`);
}

// A string, because a 63-bit seed does not survive a JavaScript Number.
function seed(name, v) {
  string(name, v);
  if (!/^(0|[1-9][0-9]{0,18})$/.test(v) || BigInt(v) >= 2n ** 63n) {
    throw new Invalid(`${name}: expected plain decimal digits for 0 … 2^63-1, got ${JSON.stringify(v)}`);
  }
}

const MAX_INT = Number.MAX_SAFE_INTEGER; // 2^53-1

// Every field of protocol v1, so that ops you add are validated too.
const FIELDS = {
  serverSeed: string,
  clientSeed: string,
  tournamentId: string,
  nonce: integer(0, MAX_INT),
  cursor: integer(0, MAX_INT),
  n: integer(0, MAX_INT),
  hand: integer(0, MAX_INT),
  range: integer(1, MAX_INT),
  count: integer(0, 100000),
  players: integer(2, 22),
  decks: integer(1, 8),
  size: integer(1, 100000),
  penetration,
  cards,
  seed,
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// One pass over a line JSON.parse accepted, outside its strings: throws on
// a key repeated within one object, and returns the top-level fields whose
// value holds a number written with a fraction or an exponent.
function scanLine(text) {
  const floats = new Set();
  const open = []; // per open bracket: the keys seen (an object) or null (a list)
  let field = null;
  let wantKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (wantKey) {
        const key = JSON.parse(text.slice(i, j + 1));
        if (open.at(-1).has(key)) throw new Invalid(`${key}: given twice`);
        open.at(-1).add(key);
        if (open.length === 1) field = key;
        wantKey = false;
      }
      i = j;
    } else if (c === '{') {
      open.push(new Set());
      wantKey = true;
    } else if (c === '[') open.push(null);
    else if (c === '}' || c === ']') open.pop();
    else if (c === ',') wantKey = open.at(-1) instanceof Set;
    else if (c === '.' || ((c === 'e' || c === 'E') && text[i - 1] >= '0' && text[i - 1] <= '9')) floats.add(field);
  }
  return floats;
}

// JSON.stringify cannot write a BigInt. A cursor past 2^53-1 is still an
// exact JSON integer on the wire, so BigInts are written as their digits.
function toJson(value) {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `\u0000big${v}` : v)).replace(/"\\u0000big(\d+)"/g, '$1');
}

// A message may quote the request, and JSON.stringify would write a lone
// surrogate from it as \ud800, which strict readers refuse: make it U+FFFD.
const error = (id, kind, message) => ({ id, error: { kind, message: message.toWellFormed() } });

// The response object for one request line (a Buffer without its newline).
async function answer(line) {
  let request;
  let text;
  try {
    text = strictUtf8.decode(line);
    request = JSON.parse(text);
  } catch (e) {
    return error(null, 'invalid', e instanceof TypeError ? 'not UTF-8' : `not JSON: ${e.message}`);
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return error(null, 'invalid', 'the request is not a JSON object');
  }
  const id = request.id;
  if (!Number.isInteger(id)) return error(null, 'invalid', 'id: missing or not an integer');

  const op = request.op;
  let takes;
  let run = null;
  try {
    const floats = scanLine(text);
    if (typeof op !== 'string') throw new Invalid('op: missing or not a string');
    if (op === 'hello') {
      takes = ['protocol'];
    } else if (Object.hasOwn(OPS, op)) {
      [takes, run] = OPS[op];
    } else {
      return error(id, 'unsupported', `${op}: not implemented here`);
    }
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
      return { id, ok: { name: NAME, ops: Object.keys(OPS) } };
    }
    for (const name of takes) {
      if (floats.has(name) && FIELDS[name] !== penetration) throw new Invalid(`${name}: expected an integer, got a fraction or exponent`);
      FIELDS[name](name, request[name]);
    }
  } catch (e) {
    if (e instanceof Invalid) return error(id, 'invalid', e.message);
    throw e;
  }
  return { id, ok: await run(request) };
}

async function respond(line) {
  const text = toJson(await answer(line));
  // Pipes are asynchronous in Node on POSIX: wait until the line is handed
  // over, so that a large answer does not pile up in memory.
  if (!process.stdout.write(text + '\n')) {
    await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}

// A blank line (empty, or only spaces, tabs and CR) is not a request: no answer.
const isBlank = (line) => line.every((b) => b === 0x20 || b === 0x09 || b === 0x0d);

// Bytes, not text: a line that is not UTF-8 must be answered, not crash the loop.
let pending = Buffer.alloc(0);
for await (const chunk of process.stdin) {
  pending = Buffer.concat([pending, chunk]);
  let newline;
  while ((newline = pending.indexOf(0x0a)) !== -1) {
    const line = pending.subarray(0, newline);
    pending = pending.subarray(newline + 1);
    if (!isBlank(line)) await respond(line);
  }
}
if (!isBlank(pending)) await respond(pending);
// Returning (rather than process.exit) lets the last line drain; exit status 0.
