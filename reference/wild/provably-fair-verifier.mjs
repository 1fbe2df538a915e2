#!/usr/bin/env node
// npm provably-fair-verifier 1.0.0 (Win5X's verifier of Stake's published
// scheme, ISC) as a protocol v1 target for the stake.* ops it has a game
// for. Every answer is one of the package's own calls on the request's
// seeds; this file only turns its result into the op's ok shape:
//
//   op                the package's call                          → ok
//   stake.floats      Seed.extractFloats(seed, count)             → floats
//   stake.dice        new Dice().verify(seed) ("48.35", toFixed)  → roll: Number(text)
//   stake.limbo       new Limbo().verify(seed) (text)             → multiplier: Number(text)
//   stake.roulette    new Roulette().verify(seed)                 → pocket
//   stake.keno        new Keno().verify(seed) (ten squares)       → hits, as the package numbers them
//   stake.mines       new Mines().verify(seed) (all 24 draws)     → mines: the first `mines` of them
//                     (Stake's game events: a game of n mines uses the first n of the 24)
//   stake.hilo        new Cards().verifyHilo(seed)                → cards
//   stake.blackjack   new Cards().verifyBlackjack(seed)           → cards
//   stake.videopoker  new Cards()._getCards(seed, 52, true)       → cards: the package's own draw
//                     without replacement, at the 52 cards of Stake's game (verifyVideoPoker is
//                     its first 10)
//   stake.diamonds    new Cards().verifyDiamondPoker(seed)        → gems: the first five, each
//                     named by its index in the package's list (its "light_blue" is index 4,
//                     Stake's cyan)
//   stake.crash       new Crash().verify({ hash, clientSeed: salt }) → crashPoint: Number(text)
//
// Not claimed: baccarat (verifyBaccarat returns the six cards, not the
// hands or the winner), plinko (the sixteen directions, no bucket or payout
// table), wheel (the segment, no payout table), crash.chain (no chain check).
//
// The package as published cannot be imported by Node (see provably-fair-verifier-hooks.mjs);
// the hooks registered here make Node load its files unchanged. Requests are
// validated from harness/protocol.schema.json, the op table's own schema, so
// this target refuses what provably refuses.
// Manifest: harness/wild/provably-fair-verifier.toml.

import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeEngine } from '../js/engine.mjs';
import { ProvablyError } from '../js/errors.mjs';
import { runTarget } from '../js/serve.mjs';
import { int, text } from '../js/validate.mjs';
import { installed } from './stack.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGE = join(REPO, 'node_modules', 'provably-fair-verifier');

register(pathToFileURL(join(REPO, 'reference/wild/provably-fair-verifier-hooks.mjs')));
const load = async (file) => (await import(pathToFileURL(join(PACKAGE, file)).href)).default;
const [Seed, Dice, Limbo, Roulette, Keno, Mines, Cards, Crash] = await Promise.all(
  ['Utils/Seed.js', 'Games/Dice.js', 'Games/Limbo.js', 'Games/Roulette.js', 'Games/Keno.js', 'Games/Mines.js', 'Games/Cards.js', 'Games/Crash.js'].map(load),
);

/** The package's gem names, in its order (Cards.verifyDiamondPoker), and Stake's GEMS. */
const PACKAGE_GEMS = ['green', 'purple', 'yellow', 'red', 'light_blue', 'orange', 'blue'];
const GEMS = ['green', 'purple', 'yellow', 'red', 'cyan', 'orange', 'blue'];

const seed = (f) => ({ serverSeed: f.serverSeed, clientSeed: f.clientSeed, nonce: f.nonce });

const RUN = {
  'stake.floats': (f) => ({ floats: Seed.extractFloats(seed(f), f.count) }),
  'stake.dice': (f) => ({ roll: Number(new Dice().verify(seed(f))) }),
  'stake.limbo': (f) => ({ multiplier: Number(new Limbo().verify(seed(f))) }),
  'stake.roulette': (f) => ({ pocket: new Roulette().verify(seed(f)) }),
  'stake.keno': (f) => ({ hits: new Keno().verify(seed(f)) }),
  'stake.mines': (f) => ({ mines: new Mines().verify(seed(f)).slice(0, f.mines) }),
  'stake.hilo': (f) => ({ cards: new Cards().verifyHilo(seed(f)) }),
  'stake.blackjack': (f) => ({ cards: new Cards().verifyBlackjack(seed(f)) }),
  'stake.videopoker': (f) => ({ cards: new Cards()._getCards(seed(f), 52, true) }),
  'stake.diamonds': (f) => ({
    gems: new Cards().verifyDiamondPoker(seed(f)).slice(0, 5).map((g) => GEMS[PACKAGE_GEMS.indexOf(g)]),
  }),
  'stake.crash': (f) => ({ crashPoint: Number(new Crash().verify({ hash: f.hash, clientSeed: f.salt })) }),
};

/** A request field of harness/protocol.schema.json as a validate.mjs field. */
function fieldOf(schema, required) {
  const base = schema.type === 'integer' ? int(schema.minimum, schema.maximum) : text();
  const pattern = schema.pattern === undefined ? null : new RegExp(schema.pattern, 'u');
  const check = (name, v) => {
    if (schema.enum !== undefined) {
      if (!schema.enum.includes(v)) throw new ProvablyError('invalid', `${name}: must be one of ${schema.enum.join(', ')}`);
      return v;
    }
    const value = base.check(name, v);
    if (pattern && !pattern.test(value)) throw new ProvablyError('invalid', `${name}: must match ${schema.pattern}`);
    return value;
  };
  return Object.freeze({ schema, check, required });
}

/** The fields of `op` as the op table declares them (harness/protocol.schema.json). */
function fieldsOf(op) {
  const all = JSON.parse(readFileSync(join(REPO, 'harness/protocol.schema.json'), 'utf8')).$defs;
  const request = all[`request:${op}`];
  if (!request) throw new Error(`harness/protocol.schema.json has no op ${op}`);
  const fields = {};
  for (const [name, schema] of Object.entries(request.properties)) {
    if (name !== 'id' && name !== 'op') fields[name] = fieldOf(schema, request.required.includes(name));
  }
  return fields;
}

const name = `provably-fair-verifier ${installed('provably-fair-verifier')} (Win5X), js-sha256 ${installed('provably-fair-verifier/node_modules/js-sha256')}`;
const STAKE = {
  id: 'stake',
  ops: Object.fromEntries(Object.entries(RUN).map(([op, run]) => [op, { fields: fieldsOf(op), run: (_p, f) => run(f) }])),
};
// The package computes its own HMACs (js-sha256); the engine's provider is never called.
const unused = () => {
  throw new Error('the package computes its own HMAC');
};
runTarget(makeEngine({ schemes: [STAKE], provider: { name, hmacSha256: unused, sha256: unused }, name }));
