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
// (DataError). Anything the page code throws is answered `declined`, with
// the page's own error in the message, rather than papered over: the
// harness counts it as skipped, with that reason, never as a pass.
//
// The protocol half is the node target's: serve.mjs reads the lines, and the
// fields of dice.roll are checked from dice.mjs's declaration, so only the
// dice themselves come from the page.

import { readFileSync } from 'node:fs';
import { SCHEME as DICE } from '../js/dice.mjs';
import { makeEngine } from '../js/engine.mjs';
import { ProvablyError } from '../js/errors.mjs';
import { runTarget } from '../js/serve.mjs';
import { WEBCRYPTO } from '../js/webcrypto.mjs';

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

async function roll({ serverSeed, clientSeed, n }) {
  let page;
  try {
    page = await pageFor(serverSeed, clientSeed);
  } catch (e) {
    // A limit of the published code (WebCrypto refuses an empty HMAC key),
    // not a wrong answer: the request is declined, with the page's own error.
    throw new ProvablyError('declined', `the published page code fails for this seed pair: ${e.name}: ${e.message}`);
  }
  const face = await page.die(n);
  if (face === undefined) throw new ProvablyError('exhausted', `die(${n}): no byte below 252 in 16 rounds`);
  return { face };
}

// One op, with the fields (and limits) dice.mjs declares for it. The page
// code brings its own WebCrypto calls; the provider is the engine's formality.
const PUBLISHED = { id: 'dice', ops: { 'dice.roll': { fields: DICE.ops['dice.roll'].fields, run: (_, f) => roll(f) } } };

runTarget(makeEngine({ schemes: [PUBLISHED], provider: WEBCRYPTO, name: NAME }));
