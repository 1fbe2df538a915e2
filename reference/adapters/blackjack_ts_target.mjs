#!/usr/bin/env node
// Protocol-v1 target that runs seed 003's published basic strategy.
//
// reference/published/basisstrategie.ts is the page's TypeScript, byte for
// byte. It imports handWert, kartenwert, BLACKJACK_RULES and two types from
// './blackjack.ts', which the page does not publish; reference/adapters/
// blackjack.ts is a stand-in written from the rules (docs/schemes.md lists
// its assumptions). At start both files are transpiled with the pinned
// `typescript` package's transpileModule to CommonJS, and the published
// module is evaluated with a `require` that resolves exactly the specifier
// './blackjack.ts' to the stand-in's exports (and refuses anything else).
// The published text is never edited; a syntax error reported by the
// transpiler stops the target with exit status 2.
//
// Op `blackjack.strategy` {cards, dealer, canDouble, canSplit,
// doubleAfterSplit?} -> {action}. The published function checks nothing, so
// this adapter checks the op's domain (docs/protocol.md) itself, with code
// written apart from the Rust validation: cards 2..21 integers 0..51, no
// card number more than 6 times, not bust; dealer 2..11; canDouble only
// with two cards; canSplit only with a two-card pair of equal count value;
// doubleAfterSplit a boolean, true when absent. Then it calls
// basisstrategie({karten, dealer, darfVerdoppeln, darfTeilen},
// {...BLACKJACK_RULES, doubleNachSplit}).
//
// Lines: one JSON request per line; blank (whitespace-only) lines get no
// answer; a line that is an object with an integer id always gets that id
// back; anything else is answered with id null, kind invalid.

import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { JsonSyntaxError, parseJson, stringifyJson } from '../js/json.mjs';

const PUBLISHED = new URL('../published/basisstrategie.ts', import.meta.url);
const STAND_IN = new URL('./blackjack.ts', import.meta.url);
const NAME = `published basisstrategie.ts (seed 003) with the stand-in blackjack.ts, typescript ${ts.version}`;
const OPS = ['blackjack.strategy'];

function fail(message) {
  process.stderr.write(`blackjack_ts_target.mjs: ${message}\n`);
  process.exit(2);
}

/** Transpiles one file to CommonJS and runs it with the given require. */
function load(url, requireFn) {
  let source;
  try {
    source = readFileSync(url, 'utf8');
  } catch (e) {
    fail(`cannot read ${url.pathname}: ${e.message}`);
  }
  const out = ts.transpileModule(source, {
    fileName: url.pathname,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const errors = (out.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    fail(`${url.pathname} does not transpile: ${errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`);
  }
  const module = { exports: {} };
  const body = `${out.outputText}\n//# sourceURL=${url.pathname}`;
  new Function('exports', 'require', 'module', body)(module.exports, requireFn, module);
  return module.exports;
}

const standIn = load(STAND_IN, (spec) => {
  throw new Error(`the stand-in imports nothing, asked for ${spec}`);
});
const published = load(PUBLISHED, (spec) => {
  if (spec === './blackjack.ts') return standIn;
  throw new Error(`basisstrategie.ts imports ${spec}; only './blackjack.ts' is provided`);
});
if (typeof published.basisstrategie !== 'function') fail('basisstrategie.ts exports no function basisstrategie');

class Invalid extends Error {}

const kindOf = (v) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

const isInt = (v) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';

function bool(name, v) {
  if (typeof v !== 'boolean') throw new Invalid(`${name}: expected true or false, got ${kindOf(v)}`);
  return v;
}

// Count values for the domain checks, computed here, not with the stand-in.
const pip = (card) => Math.min((card % 13) + 1, 10);

function checkCards(v) {
  if (!Array.isArray(v)) throw new Invalid(`cards: expected a list of integers, got ${kindOf(v)}`);
  if (v.length < 2) throw new Invalid(`cards: ${v.length} card(s); a hand has at least 2`);
  if (v.length > 21) throw new Invalid(`cards: ${v.length} cards; a hand that is not bust has at most 21`);
  const copies = new Map();
  let hard = 0;
  v.forEach((c, i) => {
    if (!isInt(c)) throw new Invalid(`cards: position ${i} is ${kindOf(c)}, not an integer`);
    if (c < 0 || c > 51) throw new Invalid(`cards: card ${c} at position ${i} is outside 0..=51`);
    const n = (copies.get(c) ?? 0) + 1;
    copies.set(c, n);
    if (n > 6) throw new Invalid(`cards: card ${c} appears more than 6 times; a 6-deck shoe holds 6 of each`);
    hard += pip(c);
  });
  if (hard > 21) throw new Invalid(`cards: the hand is bust (hard total ${hard}); there is no decision to make`);
  return v.map(Number);
}

const FIELDS = ['cards', 'dealer', 'canDouble', 'canSplit', 'doubleAfterSplit'];

function strategy(request) {
  for (const name of Object.keys(request)) {
    if (name !== 'id' && name !== 'op' && !FIELDS.includes(name)) {
      throw new Invalid(`${name}: not a field of blackjack.strategy`);
    }
  }
  for (const name of FIELDS.slice(0, 4)) {
    if (!Object.hasOwn(request, name)) throw new Invalid(`${name}: missing`);
  }
  const karten = checkCards(request.cards);
  const dealer = request.dealer;
  if (!isInt(dealer)) throw new Invalid(`dealer: expected an integer, got ${kindOf(dealer)}`);
  if (dealer < 2 || dealer > 11) throw new Invalid(`dealer: ${dealer} is outside 2..=11`);
  const canDouble = bool('canDouble', request.canDouble);
  const canSplit = bool('canSplit', request.canSplit);
  const das = Object.hasOwn(request, 'doubleAfterSplit') ? bool('doubleAfterSplit', request.doubleAfterSplit) : true;
  const n = karten.length;
  if (canDouble && n !== 2) {
    throw new Invalid(`canDouble: true with ${n} cards; doubling is only allowed on the first two cards`);
  }
  if (canSplit) {
    if (n !== 2) throw new Invalid(`canSplit: true with ${n} cards; only a two-card pair can be split`);
    const [a, b] = karten.map((c) => (pip(c) === 1 ? 11 : pip(c)));
    if (a !== b) throw new Invalid(`canSplit: true but the cards are not a pair (count values ${a} and ${b})`);
  }
  const lage = { karten, dealer: Number(dealer), darfVerdoppeln: canDouble, darfTeilen: canSplit };
  const action = published.basisstrategie(lage, { ...standIn.BLACKJACK_RULES, doubleNachSplit: das });
  return { action };
}

const error = (id, kind, message) => ({ id, error: { kind, message: message.toWellFormed() } });
const decoder = new TextDecoder('utf-8', { fatal: true });

function answer(bytes) {
  let request;
  try {
    request = parseJson(decoder.decode(bytes));
  } catch (e) {
    return error(null, 'invalid', e instanceof JsonSyntaxError ? `not JSON: ${e.message}` : 'not JSON: the line is not valid UTF-8');
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return error(null, 'invalid', 'a request must be a JSON object');
  }
  const id = request.id;
  if (!isInt(id)) return error(null, 'invalid', id === undefined ? 'the request has no id' : 'id must be a JSON integer');
  try {
    const op = request.op;
    if (typeof op !== 'string') throw new Invalid('op: missing or not a string');
    if (op === 'hello') {
      for (const name of Object.keys(request)) {
        if (name !== 'id' && name !== 'op' && name !== 'protocol') throw new Invalid(`${name}: not a field of hello`);
      }
      if (request.protocol !== 1) throw new Invalid(`protocol: only version 1 is spoken`);
      return { id, ok: { name: NAME, ops: OPS } };
    }
    if (!OPS.includes(op)) return error(id, 'unsupported', `${op}: not implemented here`);
    return { id, ok: strategy(request) };
  } catch (e) {
    if (e instanceof Invalid) return error(id, 'invalid', e.message);
    // The published code threw: report it, with the id, rather than crash.
    return error(id, 'invalid', `the published code threw: ${e?.name}: ${e?.message}`);
  }
}

const out = [];
function respond(bytes) {
  let text = bytes;
  if (text.length > 0 && text[text.length - 1] === 0x0d) text = text.subarray(0, text.length - 1);
  if (text.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x0b || b === 0x0c)) return;
  out.push(stringifyJson(answer(text)));
}

async function flush() {
  if (out.length === 0) return;
  const text = out.join('\n') + '\n';
  out.length = 0;
  if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}

process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

let pending = Buffer.alloc(0);
for await (const chunk of process.stdin) {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  let start = 0;
  for (let i = pending.indexOf(0x0a); i !== -1; i = pending.indexOf(0x0a, start)) {
    respond(pending.subarray(start, i));
    start = i + 1;
  }
  pending = pending.subarray(start);
  // Answer everything this chunk completed before reading on, so a client
  // that waits for each answer is never left waiting.
  await flush();
}
if (pending.length > 0) respond(pending);
await flush();
