// A JavaScript stack in the wild as a protocol v1 target: a package's
// HMAC-SHA256, SHA-256 and UTF-8 encoder as the provider (crypto.mjs),
// reference/js's scheme logic above it, and only the ops that go through
// the provider (poker.evaluate and selfpoker.deck compute no MAC, so they
// would test our code, not the package's).
//
//   serveStack({ name, hmacSha256(keyText, messageText), sha256(text) })
//
// The hello name carries the versions read from the installed packages'
// own package.json, so a report names what really ran.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMES } from '../js/provably.mjs';
import { makeEngine } from '../js/engine.mjs';
import { runTarget } from '../js/serve.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The ops a provider answers through the package (src/wild/mod.rs MAC_OPS). */
export const MAC_OPS = Object.freeze([
  'cursor.hash',
  'cursor.raw',
  'cursor.float',
  'cursor.int',
  'cursor.shuffle',
  'poker.deal',
  'shoe.deal',
  'shoe.tournament',
  'shoe.stream',
  'dice.roll',
  'selfpoker.commit',
  'ladder.shuffle',
]);

/** The version of an installed package (node_modules/NAME/package.json; NAME may be an npm alias). */
export function installed(name) {
  return JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** Lowercase hex to bytes (for packages that answer hex). */
export function fromHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The schemes cut down to `ops`, in protocol order. */
function only(ops) {
  return SCHEMES.map((s) => {
    const kept = Object.fromEntries(Object.entries(s.ops).filter(([op]) => ops.includes(op)));
    const commitment = kept[s.commitment?.op] ? s.commitment : undefined;
    return { id: s.id, commitment, ops: kept };
  }).filter((s) => Object.keys(s.ops).length > 0);
}

/** An engine over `provider` for `ops` (default: every op that goes through it). */
export function stackEngine(provider, ops = MAC_OPS) {
  return makeEngine({ schemes: only(ops), provider, name: `${provider.name} under provably-js's scheme logic` });
}

/** Serves stackEngine(provider, ops) on stdin/stdout. */
export function serveStack(provider, ops = MAC_OPS) {
  runTarget(stackEngine(provider, ops));
}
