// `cursor` scheme (seed 003, referenz.py): one HMAC per draw,
// raw = HMAC(serverSeed, "clientSeed:nonce:cursor").
//
// Every function that computes takes the primitives (crypto.mjs) first.

import { increment, toHex } from './crypto.mjs';
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

export const SCHEME = {
  id: 'cursor',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'cursor.hash': {
      fields: { serverSeed: text() },
      run: async (p, f) => ({ hash: await hash(p, f.serverSeed) }),
    },
    'cursor.raw': {
      fields: AT,
      run: async (p, f) => ({ raw: await rawHex(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor) }),
    },
    'cursor.float': {
      fields: AT,
      run: async (p, f) => ({ float: await float(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor) }),
    },
    'cursor.int': {
      fields: { ...AT, range: integer(1, MAX_INT) },
      run: (p, f) => int(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor, f.range),
    },
    'cursor.shuffle': {
      fields: { ...AT, count: integer(0, 100000) },
      run: (p, f) => shuffle(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor, f.count),
    },
  },
};
