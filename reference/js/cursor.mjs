// `cursor` scheme (seed 003, referenz.py): one HMAC per draw,
// raw = HMAC(serverSeed, "clientSeed:nonce:cursor").
//
// Every function that computes takes the primitives (crypto.mjs) first.

import { increment, toHex } from './crypto.mjs';
import { MAX_SHUFFLE, intField, none, num, step, tables, uniform } from './stats/laws.mjs';
import { MAX_INT, int as integer, text } from './validate.mjs';

/** Hex SHA-256 of the server seed text: the commitment shown before play. */
export function hash(p, serverSeed) {
  return p.sha256Hex(serverSeed);
}

/** The 32 MAC bytes at one cursor. */
export function raw(p, serverSeed, clientSeed, nonce, cursor) {
  return p.hmac(serverSeed, `${clientSeed}:${nonce}:${cursor}`);
}

export async function rawHex(p, serverSeed, clientSeed, nonce, cursor) {
  return toHex(await raw(p, serverSeed, clientSeed, nonce, cursor));
}

/** b0/256 + b1/256² + b2/256³ + b3/256⁴, summed left to right like the Python. */
export function floatOf(b) {
  // Every partial sum has at most 32 significant bits, so this is exact in
  // binary64 whatever the order; the order still follows referenz.py.
  return b[0] / 256 + b[1] / 65536 + b[2] / 16777216 + b[3] / 4294967296;
}

export async function float(p, serverSeed, clientSeed, nonce, cursor) {
  return floatOf(await raw(p, serverSeed, clientSeed, nonce, cursor));
}

/** Bytes per draw: max(1, ⌈bitlen(range − 1) / 8⌉). */
export function bytesFor(range) {
  let k = 1;
  // 256^k as a Number is exact up to k = 6 (2^48); k = 7 is the most a range
  // below 2^53 ever needs, and needs no power to compare against.
  while (k < 7 && range - 1 >= 256 ** k) k++;
  return k;
}

/**
 * Draws from consecutive cursors of one (serverSeed, clientSeed, nonce).
 * Shared by int and shuffle so a shuffle can sign its MACs ahead.
 */
export class CursorDraws {
  constructor(p, serverSeed, clientSeed, nonce, cursor, expectedDraws = 1) {
    this.cursor = cursor;
    this.macs = p.macs(serverSeed, `${clientSeed}:${nonce}:`, cursor, expectedDraws);
  }

  /** A uniform integer in [0, range); rejection advances the cursor by one per attempt. */
  async int(range) {
    if (range === 1) {
      // referenz.py returns (0, cursor + 1) without computing a MAC; the
      // sequence must skip that cursor too, or later draws would shift.
      await this.#skip();
      return 0;
    }
    const k = bytesFor(range);
    if (k <= 6) {
      const pot = 256 ** k;
      const limit = pot - (pot % range);
      for (;;) {
        const b = await this.#take();
        let v = 0;
        for (let i = 0; i < k; i++) v = v * 256 + b[i];
        if (v < limit) return v % range;
      }
    }
    // k = 7: 256^7 = 2^56 is past 2^53, where Numbers stop being exact.
    const r = BigInt(range);
    const pot = 1n << 56n;
    const limit = pot - (pot % r);
    for (;;) {
      const b = await this.#take();
      let v = 0n;
      for (let i = 0; i < 7; i++) v = (v << 8n) | BigInt(b[i]);
      if (v < limit) return Number(v % r);
    }
  }

  async #take() {
    const mac = await this.macs.next();
    this.cursor = increment(this.cursor);
    return mac;
  }

  async #skip() {
    // The MAC at a skipped cursor was maybe signed ahead; it is discarded.
    await this.macs.next();
    this.cursor = increment(this.cursor);
  }
}

/** int(range) at a cursor: { value, cursorNext }. */
export async function int(p, serverSeed, clientSeed, nonce, cursor, range) {
  if (range === 1) return { value: 0, cursorNext: increment(cursor) };
  const draws = new CursorDraws(p, serverSeed, clientSeed, nonce, cursor);
  const value = await draws.int(range);
  return { value, cursorNext: draws.cursor };
}

/**
 * Fisher–Yates from the back over 0 … count−1, j = int(i + 1):
 * { order, cursorNext }.
 */
export async function shuffle(p, serverSeed, clientSeed, nonce, cursor, count) {
  const order = Array.from({ length: count }, (_, i) => i);
  const draws = new CursorDraws(p, serverSeed, clientSeed, nonce, cursor, count - 1);
  for (let i = count - 1; i >= 1; i--) {
    const j = await draws.int(i + 1);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return { order, cursorNext: draws.cursor };
}

/**
 * The commitment of every scheme keyed by a server seed (cursor, poker, shoe
 * and its tournaments, dice, ladder): cursor.hash of the revealed seed.
 */
export const SERVER_SEED_COMMITMENT = Object.freeze({ op: 'cursor.hash', field: 'serverSeed', result: 'hash' });

/** serverSeed, clientSeed, nonce: what every HMAC draw of seed 003 and its kin starts from. */
export const SEEDED = Object.freeze({ serverSeed: text(), clientSeed: text(), nonce: integer(0, MAX_INT) });
const AT = { ...SEEDED, cursor: integer(0, MAX_INT) };

// ---------------------------------------------------------------------------
// Statistics (src/schemes/cursor/stats.rs): every draw is exactly uniform
// (rejection sampling), but for cursor.int's bins of a range above 16.

/** cursor.int's bins: the value for a range up to 16, else ⌊v·16/range⌋. */
const BINS = 16;

/** `cursor.int`'s bin: the value for range ≤ 16, else ⌊v·16/range⌋. */
function intBin(v, range) {
  return range <= BINS ? Number(v) : Number((BigInt(v) * BigInt(BINS)) / BigInt(range));
}

/** The exact probability of each bin of intBin (the value is uniform). */
export function intBins(range) {
  if (range <= BINS) return uniform(range);
  const r = BigInt(range);
  const start = (b) => (BigInt(b) * r + BigInt(BINS) - 1n) / BigInt(BINS);
  return Array.from({ length: BINS }, (_, b) => Number(start(b + 1) - start(b)) / range);
}

/** One bin per round, followed along the nonces of one client seed and cursor. */
const binStep = (req, bin) => step(typeof req.clientSeed === 'string' ? `${intField(req, 'cursor')} ${req.clientSeed}` : null, intField(req, 'nonce'), bin);

const INT = tables({
  family: (req) => {
    const r = intField(req, 'range');
    return r !== null && r >= 2 ? { a: r } : null;
  },
  shape: ({ a }) => [1, Math.min(a, BINS)],
  layout: ({ a }) => ({ params: `range=${a}`, tests: [['value', intBins(a)]], serial: intBins(a) }),
  sample: ({ a }, req, ok, cells) => {
    const bin = intBin(ok.value, a);
    cells.push(0, bin);
    return binStep(req, bin);
  },
});

const FLOAT = tables({
  family: () => ({ a: 0 }),
  shape: () => [1, 16],
  layout: () => ({ params: '', tests: [['value in sixteenths', uniform(16)]], serial: uniform(16) }),
  sample: (_, req, ok, cells) => {
    const bin = Math.min(Math.floor(num(ok.float) * 16), 15);
    cells.push(0, bin);
    return binStep(req, bin);
  },
});

const SHUFFLE = tables({
  family: (req) => {
    const n = intField(req, 'count');
    return n !== null && n >= 2 && n <= MAX_SHUFFLE ? { a: n } : null;
  },
  shape: ({ a }) => [a, a],
  layout: ({ a }) => ({ params: `count=${a}`, tests: Array.from({ length: a }, (_, k) => [`value at position ${k}`, uniform(a)]), serial: null }),
  sample: (_, req, ok, cells) => {
    ok.order.forEach((v, k) => cells.push(k, num(v)));
    return undefined;
  },
});

// ---------------------------------------------------------------------------
// The declarations (engine.mjs says what each member holds)

/** The page's panel for every cursor op: „Casino-Zahlen“ (its choices: the ops with a `short` name). */
const NUMBERS = 'numbers';

export const SCHEME = {
  id: 'cursor',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'cursor.hash': {
      fields: { serverSeed: text() },
      run: async (p, f) => ({ hash: await hash(p, f.serverSeed) }),
      stats: none('a commitment: the SHA-256 of the server seed, no outcome'),
      page: { view: NUMBERS },
    },
    'cursor.raw': {
      fields: AT,
      run: async (p, f) => ({ raw: await rawHex(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor) }),
      stats: none('bytes of the generator, not the outcome of a game'),
      page: { name: 'Zufallswert', short: 'Zufallswert (64 Hex-Zeichen)', view: NUMBERS },
    },
    'cursor.float': {
      fields: AT,
      run: async (p, f) => ({ float: await float(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor) }),
      stats: FLOAT,
      page: { name: 'Kommazahl', short: 'Kommazahl (0 bis unter 1)', view: NUMBERS, tests: [[/^value in sixteenths$/, () => 'Kommazahl, in 16 gleich großen Bereichen']] },
    },
    'cursor.int': {
      fields: { ...AT, range: integer(1, MAX_INT) },
      run: (p, f) => int(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor, f.range),
      stats: INT,
      page: { name: 'Casino-Zahl', short: 'Zahl (Spanne, z. B. 0 bis 9999)', view: NUMBERS, tests: [[/^value$/, (m, w) => (w.params.range > BINS ? 'Zahl, in 16 Bereichen' : 'Zahl')]] },
    },
    'cursor.shuffle': {
      fields: { ...AT, count: integer(0, 100000) },
      run: (p, f) => shuffle(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor, f.count),
      stats: SHUFFLE,
      page: { name: 'Mischung', short: 'Mischung (Reihenfolge)', view: NUMBERS, tests: [[/^value at position (\d+)$/, (m, w) => `Eintrag an Stelle ${w.formatInt(Number(m[1]) + 1)}`]] },
    },
  },
};
