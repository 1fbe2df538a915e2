// `crash` scheme: the bustabit family of crash games and their hash chains.
// Written from the operators' own verifiers, not from the Rust code (the
// second implementation the harness holds against src/schemes/crash/):
//
//   bustabit v1   bustabit/v1-gameserver server/lib.js (crashPointFromHash,
//                 divisible, genGameHash)
//   bustabit v2   bustabit/verifier src/utils/math.ts (gameResult),
//                 src/verifier.worker.ts (the two links), src/constants.ts
//   Roobet        copies of its script: rorybain96/roobet roobet.js,
//                 IsiraUdaththa/Roobet-Crash-Analysis crash.py
//   BC.Game       bcgame-project/verify crash.html (gameResult, toPrecision(9))
//
// A chain is played backwards: the game before h is link(h), SHA-256 of h's
// hex text (v1, v2's previous chain, Roobet, BC.Game) or of its 32 bytes
// (v2's current chain). docs/schemes.md lists the decisions.

import { ProvablyError } from './errors.mjs';
import { toHex } from './crypto.mjs';
import { THRESHOLDS } from './stake.mjs';
import { intField, none, num, tables } from './stats/laws.mjs';
import { bool, hex64, int, intOf, text, word } from './validate.mjs';

/** The instant-crash divisors of the sources: Roobet's 20, 25, 33; bustabit v1's 101. */
export const DIVISORS = Object.freeze([20, 25, 33, 101]);
export const LINKS = Object.freeze(['text', 'bytes']);
const TWO_52 = 2 ** 52;
const MAX_LIMIT = 10_000_000;

const DIVISOR = intOf(DIVISORS).optional(101);
const INSTANT = int(0, 1).optional(0);
const BCGAME = bool().optional(false);

/** The 32 bytes of 64 hex digits. */
export function bytesOf(hash) {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hash.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The previous game's hash: SHA-256 of the hex text, or of the 32 bytes. */
export async function previousHash(p, hash, link) {
  return link === 'bytes' ? toHex(await p.sha256OfBytes(bytesOf(hash))) : p.sha256Hex(hash);
}

/** Links from `hash` to `terminatingHash` along the raw-byte chain. */
export async function chainBytes(p, hash, terminatingHash, limit) {
  let h = hash;
  for (let d = 0; d <= limit; d++) {
    if (h === terminatingHash) return d;
    if (d < limit) h = await previousHash(p, h, 'bytes');
  }
  throw new ProvablyError('exhausted', `the terminating hash is not within ${limit} SHA-256 steps of the hash`);
}

/** lib.js's divisible(): the whole MAC as one big number, mod `d`. */
export function divisible(mac, d) {
  let r = 0;
  for (const b of mac) r = (r * 256 + b) % d;
  return r === 0;
}

/** lib.js: Math.floor((100 * e - h) / (e - h)), in cents. */
export const v1Cents = (h) => Math.floor((100 * TWO_52 - h) / (TWO_52 - h));

/**
 * bustabit v1 and Roobet: HMAC(key = the game hash's text, message = the
 * salt); the instant point when the MAC is divisible by the divisor, else
 * the cents of its first 13 hex digits over 100.
 */
export async function v1Point(p, hash, salt, divisor, instant) {
  const mac = await p.hmac(hash, salt);
  if (divisible(mac, divisor)) return instant;
  return v1Cents(parseInt(toHex(mac).slice(0, 13), 16)) / 100;
}

/** math.ts: Math.max(1, Math.floor(99 / (1 - X)) / 100). */
export const v2Of = (x) => Math.max(1, Math.floor(99 / (1 - x)) / 100);

/** X of the first 52 bits r; BC.Game's page rounds it with toPrecision(9). */
export const xOf = (r, bcgame) => (bcgame ? parseFloat((r / TWO_52).toPrecision(9)) : r / TWO_52);

/**
 * bustabit v2 and BC.Game: HMAC(key = the salt's text, message = the game
 * hash's 32 bytes), X = first 52 bits / 2^52.
 */
export async function v2Point(p, hash, salt, bcgame) {
  const mac = await p.hmacOfBytes(salt, bytesOf(hash));
  const x = xOf(parseInt(toHex(mac).slice(0, 13), 16), bcgame);
  if (x >= 1) throw new ProvablyError('exhausted', "toPrecision(9) rounds X to 1: BC.Game's page divides by 0 and shows Infinity");
  return v2Of(x);
}

// ---------------------------------------------------------------------------
// Statistics (src/schemes/crash/stats.rs): the point in Stake's multiplier
// cells. The point does not decrease with the 52 bits r, so the values that
// reach x are [R, 2^52), R by bisection; v1's instant crash (mass 1/d, cell
// 0) is read off all 256 bits and taken as independent of r.

/** How many r < 2^52 reach at least `x` under `game`. */
function valuesReaching(x, game) {
  let lo = 0;
  let hi = TWO_52;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (game(mid) >= x) hi = mid;
    else lo = mid + 1;
  }
  return TWO_52 - lo;
}

/** The cell law of a point of the 52 bits under `game` (BC.Game's Limbo reads it too). */
export function pointLaw(game) {
  const reach = [TWO_52, ...THRESHOLDS.map((x) => valuesReaching(x, game)), 0];
  return reach.slice(1).map((r, j) => (reach[j] - r) / TWO_52);
}

function v1Law(d) {
  const keep = (d - 1) / d;
  const law = pointLaw((h) => v1Cents(h) / 100).map((q) => q * keep);
  law[0] += 1 / d;
  return law;
}

const multiplierCell = (m) => THRESHOLDS.filter((x) => m >= x).length;
const NAME = 'crash point in cells from 1.05 to 25';

const pointStats = ({ family, params, law }) => tables({
  family,
  shape: () => [1, THRESHOLDS.length + 1],
  layout: (key) => ({ params: params(key), tests: [[NAME, law(key)]], serial: null }),
  sample: (_, req, ok, out) => {
    const x = num(ok.crashPoint);
    if (typeof x !== 'number') return null;
    out.push(0, multiplierCell(x));
    return undefined;
  },
});

const V1 = pointStats({
  family: (req) => ({ a: intField(req, 'divisor') ?? DIVISOR.default }),
  params: ({ a }) => `divisor=${a}`,
  law: ({ a }) => v1Law(a),
});

const V2 = pointStats({
  family: (req) => ({ a: (req.bcgame ?? BCGAME.default) ? 1 : 0 }),
  params: ({ a }) => `bcgame=${a === 1}`,
  law: ({ a }) => pointLaw((r) => v2Of(xOf(r, a === 1))),
});

const TESTS = [[/^crash point in cells from/, () => 'Crash-Punkt, in Stufen von 1,05 bis 25']];

export const SCHEME = {
  id: 'crash',
  // Its panels, one per site (bustabit, Roobet, BC.Game): web/crash.mjs.
  views: 'crash.mjs',
  // A chain is committed by its terminating hash, which no one op of a
  // single field turns a secret into (a proof's chain walk is its own check).
  commitment: undefined,
  ops: {
    'crash.v1': {
      fields: { hash: hex64(), salt: text(), divisor: DIVISOR, instant: INSTANT },
      run: async (p, f) => ({ crashPoint: await v1Point(p, f.hash, f.salt, f.divisor, f.instant) }),
      stats: V1,
      page: { name: 'Crash (bustabit v1, Roobet)', view: 'roobet', tests: TESTS },
    },
    'crash.v2': {
      fields: { hash: hex64(), salt: text(), bcgame: BCGAME },
      run: async (p, f) => ({ crashPoint: await v2Point(p, f.hash, f.salt, f.bcgame) }),
      stats: V2,
      page: { name: 'Crash (bustabit, BC.Game)', view: 'bustabit', tests: TESTS },
    },
    'crash.link': {
      fields: { hash: hex64(), link: word(LINKS) },
      run: async (p, f) => ({ previous: await previousHash(p, f.hash, f.link) }),
      stats: none('a hash of the chain, not the outcome of a game'),
      page: { name: 'Crash-Kette: voriges Spiel' },
    },
    'crash.chain.bytes': {
      fields: { hash: hex64(), terminatingHash: hex64(), limit: int(1, MAX_LIMIT) },
      run: async (p, f) => ({ distance: await chainBytes(p, f.hash, f.terminatingHash, f.limit) }),
      stats: none('a distance along the hash chain, not the outcome of a game'),
      page: { name: 'bustabit-Kette (Bytes)' },
    },
  },
};
