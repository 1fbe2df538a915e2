// `bcgame` scheme: BC.Game's originals, written from BC.Game's verification
// pages (github.com/bcgame-project/verify, each game's HTML and
// lib/utils.js), not from the Rust code (src/schemes/bcgame/ is the other
// implementation):
//
//   every page    hash = HMAC(key = serverSeed, message = clientSeed + ':' + nonce),
//                 SHA-256 (SHA-512 for hashdice.html and plinko.html), lowercase hex
//   classicdice   old: num = Σ b[i]/256^(i+1) of the first 4 bytes, numResult =
//                 num.toFixed(9), roll = Math.floor(numResult * 100.01 * 100) / 100;
//                 new (classicdice_new.html): slideWindowNumber(hash, 10001) / 100
//   dice          dice.html, ultimatedice_new.html: parseInt(slideWindowNumber(hash, 10000))
//   limbo         r = 13 hex digits, X = r / 2^52, Math.max(1, Math.floor(99 / (1 - X)) / 100)
//   hashdice      5 hex digits at a time while >= 1000000, lucky % 100000
//   mines, keno   createNums/getResult: a fixed list sorted by rotations of
//                 SHA256(hash), then of SHA256(SHA256(hash)); mines are the first k
//   plinko        16 numbers of 4 bytes, Right when num > .5, a board takes its first rows
//   coinflip      flip k signs clientSeed:nonce:k; old: Math.floor(num * 2) of 4 bytes,
//                 new: Math.floor(slideWindowNumber(hash, 2))
//
// slideWindowNumber reads the first 15 hex digits with BigInt: 60 bits, which a
// Number would round (a port's parseInt gets another index mod 47).

import { toHex } from './crypto.mjs';
import { pointLaw, v2Of } from './crash.mjs';
import { SERVER_SEED_COMMITMENT, SEEDED } from './cursor.mjs';
import { THRESHOLDS } from './stake.mjs';
import { intField, none, num, step, tables, uniform } from './stats/laws.mjs';
import { int, word } from './validate.mjs';

export const HASHES = Object.freeze(['sha256', 'sha512']);

/** The MAC every page signs, as lowercase hex. */
export async function macHex(p, hash, serverSeed, clientSeed, nonce) {
  const message = `${clientSeed}:${nonce}`;
  return hash === 'sha512' ? p.hmac512Hex(serverSeed, message) : toHex(await p.hmac(serverSeed, message));
}

const bytesOfHex = (hex) => Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));

/** The old pages' number of four bytes, summed as they sum it. */
function fourBytes(list, at = 0) {
  let n = 0;
  for (let i = 0; i < 4; i++) n += list[at + i] / Math.pow(256, i + 1);
  return n;
}

// lib/utils.js
const MAX_BORDER = Math.pow(2, -53);

export function slideWindowNumber(hash, events) {
  const index = Number(BigInt('0x' + hash.substring(0, 15)) % BigInt(47));
  const n = BigInt('0x' + hash.substring(index, index + 14)) >> BigInt(3);
  return Number(n) * MAX_BORDER * events;
}

/** classicdice.html: the roll of the first four bytes' number. */
export const oldRoll = (n) => Math.floor(n.toFixed(9) * 100.01 * 100) / 100;

export const newRoll = (hash) => slideWindowNumber(hash, 10001) / 100;

export const diceRoll = (hash) => parseInt(slideWindowNumber(hash, 10000));

/** limbo.html's gameResult with the game's edge 1. */
export function limbo(hash) {
  const r = parseInt(hash.slice(0, 13), 16);
  return v2Of(r / Math.pow(2, 52));
}

/** hashdice.html's numResult, with the lucky number it came from. */
export function hashDice(hash) {
  let index = 0;
  let lucky;
  do {
    lucky = parseInt(hash.substr(index, 5), 16);
    index += 5;
  } while (lucky >= 1000000);
  return { lucky, roll: lucky % 100000 };
}

export const MINES_START = Object.freeze([7, 2, 19, 25, 1, 13, 5, 24, 14, 6, 15, 9, 22, 16, 3, 17, 18, 20, 8, 21, 4, 12, 10, 23, 11]);
export const KENO_START = Object.freeze([
  1, 30, 11, 40, 2, 29, 12, 39, 3, 28, 13, 38, 4, 27, 14, 37, 5, 26, 15, 36, 6, 25, 16, 35, 7, 24, 17, 34, 8, 23, 18, 33, 9,
  22, 19, 32, 10, 21, 20, 31,
]);

/** createNums(allNums, hash): each item with SHA256(hash) rotated left once more, sorted by it. */
async function createNums(p, allNums, seed) {
  const nums = [];
  let h = await p.sha256Hex(seed);
  for (const c of allNums) {
    nums.push({ num: c, hash: h });
    h = h.substring(1) + h.charAt(0);
  }
  nums.sort((o1, o2) => (o1.hash < o2.hash ? -1 : o1.hash > o2.hash ? 1 : 0));
  return nums;
}

/** getResult(hash): the starting list after both sorts. */
export async function rotationOrder(p, hash, start) {
  const first = await createNums(p, start, hash);
  const second = await createNums(p, first, await p.sha256Hex(hash));
  return second.map((m) => m.num.num);
}

/** plinko.html's directions (1 Right, 0 Left) of the first `rows` numbers. */
export function plinkoPath(hash, rows) {
  const list = bytesOfHex(hash);
  return Array.from({ length: rows }, (_, i) => (fourBytes(list, 4 * i) > 0.5 ? 1 : 0));
}

/** coinflip.html / coinflip_new.html: flips 1 … rounds. */
async function coins(p, f, coin) {
  const out = [];
  for (let k = 1; k <= f.rounds; k++) {
    out.push(coin(toHex(await p.hmac(f.serverSeed, [f.clientSeed, f.nonce, k].join(':')))));
  }
  return out;
}
const oldCoin = (hash) => Math.floor(fourBytes(bytesOfHex(hash)) * 2);
const newCoin = (hash) => Math.floor(slideWindowNumber(hash, 2));

// ---------------------------------------------------------------------------
// Statistics (src/schemes/bcgame/stats.rs): each op's exact law under a
// uniform MAC. The window's number: for each index i (the first 15 digits V,
// V ≡ i mod 47), the window values below a bound, counted exactly over the
// digits they span (16^29 patterns; BigInt).

const SPAN = 1n << 116n;
const inClass = (n, c) => (c >= n ? 0n : (n - 1n - c) / 47n + 1n);

function inverse47(m) {
  let acc = 1n;
  for (let k = 0; k < 45; k++) acc = (acc * (m % 47n)) % 47n;
  return acc;
}

/** Patterns of the first 29 hex digits whose window number is below t (0 … 2^53). */
export function windowBelow(t) {
  const w = BigInt(t) * 8n;
  const sixteen = (k) => 16n ** BigInt(k);
  let total = inClass(16n * w, 0n) * sixteen(14);
  for (let i = 1; i < 15; i++) {
    const [m, q, pp] = [sixteen(15 - i), sixteen(i), sixteen(i - 1)];
    const mInv = inverse47(m);
    const cls = (o) => ((((BigInt(i) + 47n - (o % 47n)) % 47n) * mInv) % 47n);
    const [full, rest] = [w / pp, w % pp];
    const fullOs = full < m ? full : m;
    let count = 0n;
    for (let r = 0n; r < 47n; r++) count += inClass(fullOs, r) * inClass(q, cls(r));
    count *= pp;
    if (full < m) count += rest * inClass(q, cls(full));
    total += count * sixteen(15 - i);
  }
  for (let i = 15n; i < 47n; i++) total += inClass(sixteen(15), i) * w;
  return total;
}

function windowLaw(starts) {
  const bounds = [...starts.map(windowBelow), SPAN];
  return bounds.slice(1).map((b, j) => Number(b - bounds[j]) / Number(SPAN));
}

function firstReaching(top, reaches) {
  let [lo, hi] = [0, top];
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (reaches(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const TWO_53 = 2 ** 53;
const fraction = (n) => n * MAX_BORDER;

/** The dice's cells: min(⌊roll/2⌋, 49), or ⌊roll/200⌋ for bcgame.dice. */
const DICE_CELLS = 50;

export function classicdiceLaw() {
  return windowLaw(Array.from({ length: DICE_CELLS }, (_, k) => firstReaching(TWO_53, (n) => Math.floor((fraction(n) * 10001) / 100) >= 2 * k)));
}

export function diceLaw() {
  return windowLaw(Array.from({ length: DICE_CELLS }, (_, k) => (k === 0 ? 0 : firstReaching(TWO_53, (n) => parseInt(fraction(n) * 10000) >= 200 * k))));
}

export function classicdiceOldLaw() {
  const top = 2 ** 32;
  const starts = Array.from({ length: DICE_CELLS }, (_, k) => firstReaching(top, (u) => Math.floor(oldRoll(u / top)) >= 2 * k));
  starts.push(top);
  return starts.slice(1).map((b, j) => (b - starts[j]) / top);
}

/** P(Right) of a plinko row: the words above 2^31. */
export const RIGHT = 2147483647 / 4294967296;

/** P(tails) of the new coin flip: the window numbers from 2^52 (counted once). */
let tails;
export const newTails = () => (tails ??= Number(SPAN - windowBelow(2 ** 52)) / Number(SPAN));

function binomial(n, p) {
  let choose = 1;
  return Array.from({ length: n + 1 }, (_, k) => {
    let term = choose;
    for (let j = 0; j < k; j++) term *= p;
    for (let j = k; j < n; j++) term *= 1 - p;
    choose *= (n - k) / (k + 1);
    return term;
  });
}

export function pooledLow(n, p) {
  let below = 0;
  const terms = binomial(n, p);
  for (let k = 0; k <= n; k++) {
    below += terms[k];
    if (below >= 0.01 || 2 * (k + 1) > n) return k;
  }
  return 0;
}

const pooledCell = (k, n, lo) => Math.min(Math.max(k, lo), n - lo) - lo;

export function pooledLaw(n, p) {
  const lo = pooledLow(n, p);
  const law = new Array(n - 2 * lo + 1).fill(0);
  binomial(n, p).forEach((term, k) => {
    law[pooledCell(k, n, lo)] += term;
  });
  return law;
}

const ONE = () => ({ a: 0 });
const along = (req, cell) => step(req.clientSeed, intField(req, 'nonce'), cell);

/** One value of `cells` cells with its law, read off an answer by `cellOf` (null: not of its shape). */
function oneValue(cells, name, law, cellOf) {
  return tables({
    family: ONE,
    shape: () => [1, cells],
    layout: () => ({ params: '', tests: [[name, law()]], serial: law() }),
    sample: (_, req, ok, out) => {
      const c = cellOf(ok);
      if (c === null) return null;
      out.push(0, c);
      return along(req, c);
    },
  });
}

const diceCell = (ok) => {
  const roll = num(ok.roll);
  return typeof roll === 'number' && roll >= 0 && roll < 101 ? Math.min(Math.floor(roll / 2), 49) : null;
};
const intCell = (v, below, width) => (Number.isInteger(num(v)) && num(v) >= 0 && num(v) < below ? Math.floor(num(v) / width) : null);
const multiplierCell = (m) => THRESHOLDS.filter((x) => m >= x).length;

/** A count of Rights or tails among n = the family's `a` trials of probability p(). */
function trials(field, name, p, count) {
  return tables({
    family: (req) => ({ a: intField(req, field) }),
    shape: ({ a }) => [1, a - 2 * pooledLow(a, p()) + 1],
    layout: ({ a }) => {
      const law = pooledLaw(a, p());
      return { params: `${field}=${a}`, tests: [[`${name}, edges pooled below ${pooledLow(a, p())}`, law]], serial: law };
    },
    sample: ({ a }, req, ok, out) => {
      const k = count(ok);
      if (!Number.isInteger(k) || k < 0) return null;
      const c = pooledCell(Math.min(k, a), a, pooledLow(a, p()));
      out.push(0, c);
      return along(req, c);
    },
  });
}

const ones = (list) => (Array.isArray(list) && list.every((x) => Number.isInteger(num(x))) ? list.reduce((s, x) => s + num(x), 0) : null);

const ROTATION_UNTESTED =
  "the rotation sort's law is not computed: one sort of 25 rotations of a uniform text is not uniform (its end items take the first and last place about 4 % more often, measured), two sorts in a row are closer, and no exact law of either is derived here";

const bet = (fields, run, stats, page) => ({ fields: { ...SEEDED, ...fields }, run, bet: true, stats, page });
const hex256 = (p, f) => macHex(p, 'sha256', f.serverSeed, f.clientSeed, f.nonce);
const rule = (re, text) => [re, () => text];

export const SCHEME = {
  id: 'bcgame',
  commitment: SERVER_SEED_COMMITMENT,
  views: 'bcgame.mjs',
  ops: {
    'bcgame.hmac': {
      fields: { ...SEEDED, hash: word(HASHES) },
      run: async (p, f) => ({ hmac: await macHex(p, f.hash, f.serverSeed, f.clientSeed, f.nonce) }),
      stats: none("the MAC of a bet, not a game's outcome"),
      page: { name: 'BC.Game-HMAC', fields: { hash: 'Hash-Funktion' } },
    },
    'bcgame.classicdice.old': bet({}, async (p, f) => ({ roll: oldRoll(fourBytes(bytesOfHex(await hex256(p, f)))) }),
      oneValue(DICE_CELLS, 'roll in steps of 2', classicdiceOldLaw, diceCell),
      { view: 'bcgame', name: 'BC.Game Classic Dice (alt)', steps: 'Würfe', tests: [rule(/^roll in steps of 2$/, 'Wurf, in Stufen von 2 (0 bis 100)')] }),
    'bcgame.classicdice': bet({}, async (p, f) => ({ roll: newRoll(await hex256(p, f)) }),
      oneValue(DICE_CELLS, 'roll in steps of 2', classicdiceLaw, diceCell),
      { view: 'bcgame', name: 'BC.Game Classic Dice', steps: 'Würfe', tests: [rule(/^roll in steps of 2$/, 'Wurf, in Stufen von 2 (0 bis 100)')] }),
    'bcgame.dice': bet({}, async (p, f) => ({ roll: diceRoll(await hex256(p, f)) }),
      oneValue(DICE_CELLS, 'roll in steps of 200', diceLaw, (ok) => intCell(ok.roll, 10000, 200)),
      { view: 'bcgame', name: 'BC.Game Dice', steps: 'Würfe', tests: [rule(/^roll in steps of 200$/, 'Wurf, in Stufen von 200 (0 bis 9.999)')] }),
    'bcgame.limbo': bet({}, async (p, f) => ({ multiplier: limbo(await hex256(p, f)) }),
      oneValue(THRESHOLDS.length + 1, 'multiplier in cells from 1.05 to 25', () => pointLaw((r) => v2Of(r / 2 ** 52)), (ok) => {
        const m = num(ok.multiplier);
        return typeof m === 'number' ? multiplierCell(m) : null;
      }),
      { view: 'bcgame', name: 'BC.Game Limbo', tests: [rule(/^multiplier in cells from/, 'Limbo-Multiplikator, in Stufen von 1,05 bis 25')] }),
    'bcgame.hashdice': bet({}, async (p, f) => hashDice(await macHex(p, 'sha512', f.serverSeed, f.clientSeed, f.nonce)),
      oneValue(100, 'roll in thousands', () => uniform(100), (ok) => intCell(ok.roll, 100000, 1000)),
      { view: 'bcgame', name: 'BC.Game Hash Dice', steps: 'Würfe', tests: [rule(/^roll in thousands$/, 'Wurf, in Tausendern (0 bis 99.999)')] }),
    'bcgame.mines': bet({ mines: int(1, 24) }, async (p, f) => {
      const order = await rotationOrder(p, await hex256(p, f), MINES_START);
      return { mines: order.slice(0, f.mines), order };
    }, none(ROTATION_UNTESTED), { view: 'bcgame', name: 'BC.Game Mines', fields: { mines: 'Minen' } }),
    'bcgame.keno': bet({}, async (p, f) => ({ hits: (await rotationOrder(p, await hex256(p, f), KENO_START)).slice(0, 10) }),
      none(ROTATION_UNTESTED), { view: 'bcgame', name: 'BC.Game Keno' }),
    'bcgame.plinko': bet({ rows: int(8, 16) }, async (p, f) => {
      const path = plinkoPath(await macHex(p, 'sha512', f.serverSeed, f.clientSeed, f.nonce), f.rows);
      return { path, bucket: path.filter((d) => d === 1).length };
    }, trials('rows', 'bucket', () => RIGHT, (ok) => num(ok.bucket)),
      { view: 'bcgame', name: 'BC.Game Plinko', fields: { rows: 'Reihen' }, tests: [rule(/^bucket, edges pooled/, 'Plinko-Fach (die seltenen Randfächer zusammengefasst)')] }),
    'bcgame.coinflip.old': bet({ rounds: int(1, 100) }, async (p, f) => ({ coins: await coins(p, f, oldCoin) }),
      trials('rounds', 'tails', () => 0.5, (ok) => ones(ok.coins)),
      { view: 'bcgame', name: 'BC.Game Coin Flip (alt)', steps: 'Spiele', fields: { rounds: 'Würfe', coins: 'Münzen' }, tests: [rule(/^tails, edges pooled/, 'Anzahl Zahl (die seltenen Ränder zusammengefasst)')] }),
    'bcgame.coinflip': bet({ rounds: int(1, 100) }, async (p, f) => ({ coins: await coins(p, f, newCoin) }),
      trials('rounds', 'tails', newTails, (ok) => ones(ok.coins)),
      { view: 'bcgame', name: 'BC.Game Coin Flip', steps: 'Spiele', fields: { rounds: 'Würfe', coins: 'Münzen' }, tests: [rule(/^tails, edges pooled/, 'Anzahl Zahl (die seltenen Ränder zusammengefasst)')] }),
  },
};
