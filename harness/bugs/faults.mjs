// The faults of the JavaScript mutants, one entry per mutant of
// catalog.json (whose `ops`, description, category and witness are there,
// as data). mutant.mjs builds our engine and injects exactly one of these.
//
// An entry may give
//   provider()                   a crypto provider instead of WebCrypto
//   ops: { OP: { fields, run } } fields merged over the op's declaration,
//                                run(p, f, original) instead of its run
//   execute(exec, engine)        a wrapper around the engine's execute
//   serve: 'json-parse'          JSON.parse's line reader instead of serve.mjs
// `k` is kit.mjs: providers and copies of the scheme functions with hooks.

import { createHash } from 'node:crypto';
import { increment } from '../../reference/js/crypto.mjs';
import { ProvablyError } from '../../reference/js/errors.mjs';
import { JsonFloat } from '../../reference/js/json.mjs';
import { PCG64 } from '../../reference/js/numpy.mjs';
import { MAX_INT, cards, decimalSeed, int, number, text } from '../../reference/js/validate.mjs';
import * as k from './kit.mjs';
import * as S from '../../reference/js/stake.mjs';
import * as L from '../../reference/js/lucky.mjs';
import * as SC from '../../reference/js/skinclub.mjs';
import * as FB from '../../reference/js/freebitco.mjs';
import * as C from '../../reference/js/crash.mjs';
import * as B from '../../reference/js/bcgame.mjs';
import { toHex } from '../../reference/js/crypto.mjs';

const invalid = (message) => new ProvablyError('invalid', message);

/** A field with another check (schema and required-ness kept). */
const withCheck = (base, check) => ({ ...base, check });
const nonEmptyText = withCheck(text(), (name, v) => {
  if (v === '') throw invalid(`${name}: must not be empty`);
  return text().check(name, v);
});
const hexBytes = (s) => (/^(?:[0-9a-fA-F]{2})+$/.test(s) ? Buffer.from(s, 'hex') : k.utf8(s));
const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * A nonce as C's and Python's "%.15g" print it (the value is an exact
 * integer, so the rounding to 15 significant digits is half to even on its
 * decimal digits): 10^15 and above in exponent form, "1e+15".
 */
export function g15(digits) {
  if (digits.length <= 15) return digits;
  const rest = digits.slice(15);
  const half = `5${'0'.repeat(rest.length - 1)}`;
  let head = BigInt(digits.slice(0, 15));
  if (rest > half || (rest === half && head % 2n === 1n)) head += 1n;
  let exp = digits.length - 1;
  let mant = head.toString();
  if (mant.length > 15) {
    mant = mant.slice(0, 15);
    exp += 1;
  }
  mant = mant.replace(/0+$/, '');
  return `${mant.length > 1 ? `${mant[0]}.${mant.slice(1)}` : mant}e+${String(exp).padStart(2, '0')}`;
}

/**
 * A provider whose HMAC messages "PREFIX:NONCE:COUNTER" have the nonce
 * (the die's n) rewritten by `nonce`, and the counter (cursor, block,
 * round) by `counter`; the message is split at its last two colons, as its
 * numeric parts come last and hold none.
 */
const messageParts = (what, { nonce = (n) => n, counter = (c) => c, join = ':' }) =>
  k.provider(what, {
    message: (m) => {
      const parts = /^([\s\S]*):(\d+):(\d+)$/.exec(m);
      return parts ? `${parts[1]}${join}${nonce(parts[2])}${join}${counter(parts[3])}` : m;
    },
  });

/** The server seed as ISO-8859-1, "?" for a character it lacks (Python's encode("latin-1", "replace"), Java's getBytes). */
const latin1 = (s) => Buffer.from(Array.from(s, (c) => (c.codePointAt(0) <= 0xff ? c.codePointAt(0) : 0x3f)));

/** Round half to even, as Python's round() does. */
function bankers(x) {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** The first `count` floats of a Stake bet. */
const stakeFloats = (p, f, count) => S.floats(p, f.serverSeed, f.clientSeed, f.nonce, count);

/** A sanitising run: `fields` of the request pass through `fn` first. */
const sanitise = (fields, fn) => (p, f, original) =>
  original(p, { ...f, ...Object.fromEntries(fields.map((name) => [name, fn(f[name])])) });

/** PCG64 whose 32-bit draws are not buffered: each takes the low half of a fresh 64-bit output. */
class Unbuffered extends PCG64 {
  next32() {
    return Number(this.next64() & 0xffffffffn);
  }
}

/** PCG64 whose rejection mask is built from max + 1: one bit too wide at every power of two. */
class WideMask extends PCG64 {
  interval(max) {
    if (max === 0) return 0;
    let mask = max + 1;
    for (const s of [1, 2, 4, 8, 16]) mask |= mask >>> s;
    for (;;) {
      const v = (this.next32() & mask) >>> 0;
      if (v <= max) return v;
    }
  }
}

/** A blackjack.strategy run over the kit's copy with hooks `h`. */
const bj = (h) => ({ ops: { 'blackjack.strategy': { run: async (_, f) => ({ action: k.blackjackStrategy(f, h) }) } } });

/**
 * The textbook pair rows without double after split: the DAS splits of
 * 2,2, 3,3 (against 2, 3), 4,4 (against 5, 6) and 6,6 (against 2) dropped.
 */
const NO_DAS = { 2: '--PPPP----', 3: '--PPPP----', 4: '----------', 6: '-PPPP-----' };

export const FAULTS = {
  // ------------------------------------- known bugs of the HMAC's key and message
  // Each changes every op built on the MAC: the catalog's `models` lists them.
  'latin1-key': { provider: () => k.provider('the key as ISO-8859-1', { key: latin1 }) },
  'key-utf16le': { provider: () => k.provider('the key as UTF-16LE', { key: (s) => Buffer.from(s, 'utf16le') }) },
  'key-trimmed': { provider: () => k.provider('the key trimmed', { key: (s) => k.utf8(s.trim()) }) },
  'key-lowercase': { provider: () => k.provider('the key lower-cased', { key: (s) => k.utf8(s.toLowerCase()) }) },
  'nonce-g15': { provider: () => messageParts('the nonce as %.15g', { nonce: g15 }) },
  'nonce-float-repr': { provider: () => messageParts('the nonce as a float', { nonce: (n) => `${n}.0` }) },
  'nonce-zero-padded': { provider: () => messageParts('the nonce padded', { nonce: (n) => n.padStart(8, '0') }) },
  'message-dash': { provider: () => messageParts('parts joined by -', { join: '-' }) },
  'counter-from-1': {
    provider: () => messageParts('the counter from 1', { counter: (c) => (BigInt(c) + 1n).toString() }),
  },

  // ------------------------------------------------------------ cursor.hash
  'hash-trim': { ops: { 'cursor.hash': { run: sanitise(['serverSeed'], (s) => s.trim()) } } },
  'hash-lowercase': { ops: { 'cursor.hash': { run: sanitise(['serverSeed'], (s) => s.toLowerCase()) } } },
  'hash-nfc': { ops: { 'cursor.hash': { run: sanitise(['serverSeed'], (s) => s.normalize('NFC')) } } },
  'hash-hex-decoded': {
    ops: { 'cursor.hash': { run: async (p, f) => ({ hash: sha256Hex(hexBytes(f.serverSeed)) }) } },
  },
  'hash-empty-invalid': { ops: { 'cursor.hash': { fields: { serverSeed: nonEmptyText } } } },

  // ------------------------------------------------------------- cursor.raw
  'hmac-key-cut-64': { provider: () => k.provider('key cut to 64 bytes', { key: (s) => k.utf8(s).subarray(0, 64) }) },
  'hmac-long-key-hex-digest': {
    provider: () =>
      k.provider('a long key replaced by its hex digest', {
        key: (s) => (k.utf8(s).length > 64 ? Buffer.from(sha256Hex(k.utf8(s)), 'latin1') : k.utf8(s)),
      }),
  },
  'hmac-key-hex-decoded': { provider: () => k.provider('hex keys decoded', { key: hexBytes }) },
  'hmac-utf16-units': {
    provider: () =>
      k.provider('one byte per UTF-16 unit', {
        key: (s) => Buffer.from(s, 'latin1'),
        text: (s) => Buffer.from(s, 'latin1'),
      }),
  },
  'utf8-throws-e000': {
    provider: () =>
      k.provider('UTF-8 encoder refusing U+E000–U+FFFF', {
        key: k.handUtf8({ bmpHigh: 'throw' }),
        text: k.handUtf8({ bmpHigh: 'throw' }),
      }),
  },
  'utf8-astral-cesu': {
    provider: () =>
      k.provider('CESU-8 for astral characters', {
        key: k.handUtf8({ astral: 'cesu' }),
        text: k.handUtf8({ astral: 'cesu' }),
      }),
  },
  'raw-strip-non-ascii': {
    ops: { 'cursor.raw': { run: sanitise(['clientSeed'], (s) => s.replace(/[^\x20-\x7e]/g, '')) } },
  },
  'raw-webcrypto-empty-key': {
    provider: () => {
      const subtle = globalThis.crypto.subtle;
      const enc = new TextEncoder();
      const algorithm = { name: 'HMAC', hash: 'SHA-256' };
      return {
        name: 'WebCrypto, keys imported as they are',
        async hmacSha256(key, message) {
          const imported = await subtle.importKey('raw', enc.encode(key), algorithm, false, ['sign']);
          return new Uint8Array(await subtle.sign('HMAC', imported, enc.encode(message)));
        },
        sha256: async (s) => new Uint8Array(await subtle.digest('SHA-256', enc.encode(s))),
      };
    },
  },
  'raw-nonce-locale': {
    ops: {
      'cursor.raw': {
        run: (p, f) => k.rawHex(p, f.serverSeed, `${f.clientSeed}:${f.nonce.toLocaleString('en-US')}:${f.cursor}`),
      },
    },
  },
  'raw-cursor-int32': {
    ops: { 'cursor.raw': { run: (p, f) => k.rawHex(p, f.serverSeed, `${f.clientSeed}:${f.nonce}:${f.cursor | 0}`) } },
  },
  'raw-lone-surrogate-ok': {
    ops: {
      'cursor.raw': {
        fields: { clientSeed: withCheck(text(), (name, v) => (typeof v === 'string' ? v : text().check(name, v))) },
      },
    },
  },

  // ----------------------------------------------------------- cursor.float
  'float-tofixed-12': {
    ops: {
      'cursor.float': { run: async (p, f, original) => ({ float: Number((await original(p, f)).float.toFixed(12)) }) },
    },
  },
  'float-toprecision-16': {
    ops: {
      'cursor.float': {
        run: async (p, f, original) => ({ float: Number((await original(p, f)).float.toPrecision(16)) }),
      },
    },
  },
  'float-little-endian': {
    ops: { 'cursor.float': { run: async (p, f) => ({ float: k.floatOf(await k.mac(p, f), [3, 2, 1, 0]) }) } },
  },
  'float-int32-word': {
    ops: {
      'cursor.float': {
        run: async (p, f) => {
          const b = await k.mac(p, f);
          return { float: ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) / 4294967296 };
        },
      },
    },
  },
  'float-divide-by-max': {
    ops: {
      'cursor.float': { run: async (p, f) => ({ float: Buffer.from(await k.mac(p, f)).readUInt32BE(0) / 0xffffffff }) },
    },
  },

  // ------------------------------------------------------------- cursor.int
  'int-accept-at-limit': {
    ops: { 'cursor.int': { run: (p, f) => k.cursorInt(p, f, { accept: (v, limit) => v <= limit }) } },
  },
  'int-reject-below-limit': {
    ops: { 'cursor.int': { run: (p, f) => k.cursorInt(p, f, { accept: (v, limit) => v < limit - 1 }) } },
  },
  'int-modulo-bias': { ops: { 'cursor.int': { run: (p, f) => k.cursorInt(p, f, { accept: () => true }) } } },
  'int-cursor-next-one': {
    ops: { 'cursor.int': { run: async (p, f) => ({ ...(await k.cursorInt(p, f)), cursorNext: increment(f.cursor) }) } },
  },
  'int-bytes-from-hex-digits': {
    ops: {
      'cursor.int': {
        run: (p, f) => k.cursorInt(p, f, { bytesFor: (range) => Math.ceil(range.toString(16).length / 2) }),
      },
    },
  },
  'int-int32-assembly': {
    ops: {
      'cursor.int': {
        run: (p, f) =>
          k.cursorInt(p, f, {
            pot: (n) => 256 ** n,
            limit: (pot, range) => pot - (pot % range),
            value: (b, n) => b.subarray(0, n).reduce((v, x) => (v << 8) | x, 0),
            reduce: (v, range) => v % range,
          }),
      },
    },
  },
  'int-k7-parseint': {
    ops: {
      'cursor.int': {
        run: (p, f) =>
          k.cursorInt(p, f, {
            pot: (n) => 256 ** n,
            limit: (pot, range) => pot - (pot % range),
            value: (b, n) => parseInt(Buffer.from(b.subarray(0, n)).toString('hex'), 16),
            reduce: (v, range) => v % range,
          }),
      },
    },
  },
  'int-range1-invalid': { ops: { 'cursor.int': { fields: { range: int(2, MAX_INT) } } } },
  'int-range0-ok': {
    ops: {
      'cursor.int': {
        fields: { range: int(0, MAX_INT) },
        run: (p, f, original) => (f.range === 0 ? { value: 0, cursorNext: increment(f.cursor) } : original(p, f)),
      },
    },
  },
  'int-range-uint32': { ops: { 'cursor.int': { fields: { range: int(1, 2 ** 32 - 1) } } } },
  'int-nonce-below-max': { ops: { 'cursor.int': { fields: { nonce: int(0, MAX_INT - 1) } } } },
  'int-extra-field-ignored': {
    execute: (exec, engine) => (req) =>
      exec(
        req?.op === 'cursor.int'
          ? Object.fromEntries(
              Object.entries(req).filter(([key]) => key === 'op' || engine.fieldsOf('cursor.int').includes(key)),
            )
          : req,
      ),
  },
  'int-numeric-string': {
    ops: {
      'cursor.int': {
        fields: {
          range: withCheck(int(1, MAX_INT), (name, v) =>
            int(1, MAX_INT).check(name, typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : v),
          ),
        },
      },
    },
  },
  'int-float-integer': {
    ops: {
      'cursor.int': {
        fields: {
          range: withCheck(int(1, MAX_INT), (name, v) =>
            int(1, MAX_INT).check(name, v instanceof JsonFloat ? v.value : v),
          ),
        },
      },
    },
  },

  // --------------------------------------------------------- cursor.shuffle
  'shuffle-sattolo': { ops: { 'cursor.shuffle': { run: (p, f) => k.cursorShuffle(p, f, { j: (d, i) => d.int(i) }) } } },
  'shuffle-extra-draw': {
    ops: {
      'cursor.shuffle': {
        run: async (p, f) => {
          // The loop runs down to i = 0: one more draw of int(1), one more cursor.
          const r = await k.cursorShuffle(p, f);
          return { ...r, cursorNext: f.count > 0 ? increment(r.cursorNext) : r.cursorNext };
        },
      },
    },
  },
  'shuffle-count-cap-1000': { ops: { 'cursor.shuffle': { fields: { count: int(0, 1000) } } } },
  'shuffle-count0-invalid': { ops: { 'cursor.shuffle': { fields: { count: int(1, 100000) } } } },
  'shuffle-count-over-ok': { ops: { 'cursor.shuffle': { fields: { count: int(0, 100001) } } } },
  'shuffle-cursor-ignored': { ops: { 'cursor.shuffle': { run: (p, f) => k.cursorShuffle(p, { ...f, cursor: 0 }) } } },
  'shuffle-cursor-next-int32': {
    ops: { 'cursor.shuffle': { run: (p, f) => k.cursorShuffle(p, f, { next: (c) => (c + 1) | 0 }) } },
  },
  'shuffle-cursor-next-unsafe': {
    ops: { 'cursor.shuffle': { run: (p, f) => k.cursorShuffle(p, f, { next: (c) => Number(c) + 1 }) } },
  },
  'shuffle-cursor-next-count': {
    ops: {
      'cursor.shuffle': {
        run: (p, f) => k.cursorShuffle(p, f, { cursorNext: (c, g) => g.cursor + Math.max(0, g.count - 1) }),
      },
    },
  },

  // ------------------------------------------------------------- poker.deal
  'deal-no-burns': {
    ops: {
      'poker.deal': {
        run: (p, f) =>
          k.pokerDeal(p, f, {
            positions: (n) => ({
              hole: Array.from({ length: n }, (_, i) => [i, n + i]),
              board: [0, 1, 2, 3, 4].map((x) => 2 * n + x),
            }),
          }),
      },
    },
  },
  'deal-hole-pairs': {
    ops: {
      'poker.deal': {
        run: (p, f) =>
          k.pokerDeal(p, f, {
            positions: (n) => ({
              hole: Array.from({ length: n }, (_, i) => [2 * i, 2 * i + 1]),
              board: [1, 2, 3, 5, 7].map((x) => 2 * n + x),
            }),
          }),
      },
    },
  },
  'deal-players-cap-10': { ops: { 'poker.deal': { fields: { players: int(2, 10) } } } },
  'deal-players-1-ok': { ops: { 'poker.deal': { fields: { players: int(1, 22) } } } },
  'deal-client-trim': { ops: { 'poker.deal': { run: sanitise(['clientSeed'], (s) => s.trim()) } } },
  'deal-nonce-int32': { ops: { 'poker.deal': { run: (p, f) => k.pokerDeal(p, { ...f, nonce: f.nonce | 0 }) } } },
  'deal-missing-nonce-default': { ops: { 'poker.deal': { fields: { nonce: int(0, MAX_INT).optional(0) } } } },

  // --------------------------------------------------------- poker.evaluate
  'eval-first-five': { ops: { 'poker.evaluate': { run: async (_, f) => k.evaluate(f.cards.slice(0, 5)) } } },
  'eval-modular-straight': { ops: { 'poker.evaluate': { run: async (_, f) => k.evaluate(f.cards, { wrap: true }) } } },
  'eval-no-wheel': { ops: { 'poker.evaluate': { run: async (_, f) => k.evaluate(f.cards, { lowAce: false }) } } },
  'eval-trips-not-pair': {
    ops: { 'poker.evaluate': { run: async (_, f) => k.evaluate(f.cards, { tripsAsPair: false }) } },
  },
  'eval-straight-over-flush': {
    ops: { 'poker.evaluate': { run: async (_, f) => k.evaluate(f.cards, { straightFirst: true }) } },
  },
  'eval-straight-flush-mixed': {
    ops: {
      'poker.evaluate': {
        run: async (_, f) =>
          k.evaluate(f.cards, { straightFlush: (flush, all, straight) => (flush ? straight(all) : 0) }),
      },
    },
  },
  'eval-third-pair-ignored': {
    ops: { 'poker.evaluate': { run: async (_, f) => k.evaluate(f.cards, { thirdPairIgnored: true }) } },
  },
  'eval-kickers-lowest': {
    ops: {
      'poker.evaluate': {
        run: async (_, f) =>
          k.evaluate(f.cards, {
            kickers: (mask, n) => {
              const ranks = [];
              for (let r = 2; r <= 14; r++) if (mask & (1 << r)) ranks.push(r);
              return ranks.slice(0, n).reverse();
            },
          }),
      },
    },
  },
  'eval-duplicates-ok': {
    ops: {
      'poker.evaluate': {
        fields: {
          cards: withCheck(cards(5, 7), (name, v) =>
            Array.isArray(v) && new Set(v).size < v.length ? v : cards(5, 7).check(name, v),
          ),
        },
      },
    },
  },
  'eval-card-52-ok': {
    ops: {
      'poker.evaluate': {
        fields: {
          cards: withCheck(cards(5, 7), (name, v) =>
            Array.isArray(v) && v.includes(52) ? v : cards(5, 7).check(name, v),
          ),
        },
      },
    },
  },

  // -------------------------------------------------------------- shoe.deal
  'shoe-cut-bankers': { ops: { 'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { round: bankers }) } } },
  'shoe-cut-floor': { ops: { 'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { round: Math.floor }) } } },
  'shoe-clamp-high-16': { ops: { 'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { high: (t) => t - 16 }) } } },
  'shoe-clamp-low-plus-1': {
    ops: { 'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { low: (t) => Math.max(20, Math.round(t * 0.5)) + 1 }) } },
  },
  'shoe-blocks-from-1': {
    ops: {
      'shoe.deal': {
        run: (p, f) =>
          k.shoeDeal(p, f, { macs: (g, batch) => p.macs(g.serverSeed, `${g.clientSeed}:${g.nonce}:`, 1, batch) }),
      },
    },
  },
  'shoe-k-at-256': { ops: { 'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { more: (pot, m) => pot <= m }) } } },
  'shoe-little-endian': {
    ops: {
      'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { value: (b) => b.reduceRight((x, y) => x * 256 + y, 0) }) },
    },
  },
  'shoe-cut-fresh-block': {
    ops: {
      'shoe.deal': {
        run: (p, f) =>
          k.shoeDeal(p, f, {
            cutStream: (s) => {
              s.pos = s.block.length;
              return s;
            },
          }),
      },
    },
  },
  'shoe-reject-keeps-byte': {
    ops: {
      'shoe.deal': {
        run: (p, f) =>
          k.shoeDeal(p, f, {
            // After a rejection one fresh byte is read and the window slides,
            // instead of k fresh bytes: two-byte draws reuse their second byte.
            index: async (s, m) => {
              let n = 0;
              for (let pot = 1; pot < m; pot *= 256) n++;
              const limit = 256 ** n - (256 ** n % m);
              const bytes = [];
              while (bytes.length < n) bytes.push(await s.byte());
              for (;;) {
                const v = bytes.reduce((x, y) => x * 256 + y, 0);
                if (v < limit) return v % m;
                bytes.shift();
                bytes.push(await s.byte());
              }
            },
          }),
      },
    },
  },
  'shoe-accept-at-limit': {
    ops: { 'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { accept: (v, limit) => v <= limit }) } },
  },
  'shoe-modulo-bias': { ops: { 'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { accept: () => true }) } } },
  'shoe-no-high-clamp': { ops: { 'shoe.deal': { run: (p, f) => k.shoeDeal(p, f, { high: () => Infinity }) } } },
  'shoe-penetration-1-ok': {
    ops: { 'shoe.deal': { fields: { penetration: number({ exclusiveMinimum: 0, maximum: 1 }) } } },
  },
  'shoe-decks-cap-6': { ops: { 'shoe.deal': { fields: { decks: int(1, 6) } } } },

  // -------------------------------------------------------- shoe.tournament
  'tourn-nonce-zero': {
    ops: {
      'shoe.tournament': {
        run: (p, f) =>
          k.shoeTournament(p, f, { seeds: (g) => ({ clientSeed: `${g.tournamentId}:${g.hand}`, nonce: 0 }) }),
      },
    },
  },
  'tourn-seed-order': {
    ops: {
      'shoe.tournament': {
        run: (p, f) =>
          k.shoeTournament(p, f, { seeds: (g) => ({ clientSeed: `${g.hand}:${g.tournamentId}`, nonce: g.hand }) }),
      },
    },
  },
  'tourn-hand-int32': {
    ops: {
      'shoe.tournament': {
        run: (p, f) =>
          k.shoeTournament(p, f, { seeds: (g) => ({ clientSeed: `${g.tournamentId}:${g.hand | 0}`, nonce: g.hand }) }),
      },
    },
  },
  'tourn-id-trim': { ops: { 'shoe.tournament': { run: sanitise(['tournamentId'], (s) => s.trim()) } } },

  // -------------------------------------------------------------- dice.roll
  'dice-byte0-only': {
    ops: {
      'dice.roll': {
        run: (p, f) => k.diceRoll(p, f, { face: (mac) => (mac[0] < 252 ? (mac[0] % 6) + 1 : undefined) }),
      },
    },
  },
  'dice-accept-252': {
    ops: {
      'dice.roll': {
        run: (p, f) =>
          k.diceRoll(p, f, {
            face: (mac) => {
              for (const b of mac) if (b <= 252) return (b % 6) + 1;
              return undefined;
            },
          }),
      },
    },
  },
  'dice-no-rejection': {
    ops: { 'dice.roll': { run: (p, f) => k.diceRoll(p, f, { face: (mac) => (mac[0] % 6) + 1 }) } },
  },
  'dice-utf8-throws-e000': {
    provider: () =>
      k.provider('UTF-8 encoder refusing U+E000–U+FFFF', {
        key: k.handUtf8({ bmpHigh: 'throw' }),
        text: k.handUtf8({ bmpHigh: 'throw' }),
      }),
  },
  'dice-n-int32': {
    ops: {
      'dice.roll': {
        run: (p, f) => k.diceRoll(p, f, { message: (g, round) => `${g.clientSeed}:${g.n | 0}:${round}` }),
      },
    },
  },
  'dice-json-parse': { serve: 'json-parse' },
  'dice-empty-seed-invalid': {
    ops: { 'dice.roll': { fields: { serverSeed: nonEmptyText, clientSeed: nonEmptyText } } },
  },

  // ------------------------------------------------------- selfpoker.commit
  'commit-no-prefix': { ops: { 'selfpoker.commit': { run: async (p, f) => ({ commit: await p.sha256Hex(f.seed) }) } } },
  'commit-number-seed': {
    ops: {
      'selfpoker.commit': { run: async (p, f) => ({ commit: await p.sha256Hex(`selfpoker:${Number(f.seed)}`) }) },
    },
  },
  'commit-leading-zeros-ok': {
    ops: {
      'selfpoker.commit': {
        fields: {
          seed: withCheck(decimalSeed(), (name, v) =>
            decimalSeed().check(name, typeof v === 'string' && /^0+[0-9]/.test(v) ? v.replace(/^0+(?=[0-9])/, '') : v),
          ),
        },
      },
    },
  },
  'commit-seed-trim': {
    ops: {
      'selfpoker.commit': {
        fields: {
          seed: withCheck(decimalSeed(), (name, v) => decimalSeed().check(name, typeof v === 'string' ? v.trim() : v)),
        },
      },
    },
  },
  'commit-seed-2-64': { ops: { 'selfpoker.commit': { fields: { seed: decimalSeed((1n << 64n) - 1n) } } } },

  // --------------------------------------------------------- selfpoker.deck
  'numpy-unbuffered-32': { ops: { 'selfpoker.deck': { run: async (_, f) => k.numpyDeck(f, { Rng: Unbuffered }) } } },
  'numpy-high-word-first': {
    ops: {
      'selfpoker.deck': { run: async (_, f) => k.numpyDeck(f, { join: (lo, hi) => (BigInt(lo) << 32n) | BigInt(hi) }) },
    },
  },
  'numpy-mask-one-more-bit': { ops: { 'selfpoker.deck': { run: async (_, f) => k.numpyDeck(f, { Rng: WideMask }) } } },
  'numpy-seed-number': {
    ops: { 'selfpoker.deck': { run: async (_, f) => k.numpyDeck(f, { seed: (s) => BigInt(Number(s)) }) } },
  },
  'numpy-entropy-low-word': {
    ops: {
      'selfpoker.deck': { run: async (_, f) => k.numpyDeck(f, { entropy: (s) => [Number(s & 0xffffffffn), 0, 0, 0] }) },
    },
  },
  'numpy-shr-signed': { ops: { 'selfpoker.deck': { run: async (_, f) => k.numpyDeck(f, { shr: (x, n) => x >> n }) } } },
  'numpy-plain-multiply': {
    ops: { 'selfpoker.deck': { run: async (_, f) => k.numpyDeck(f, { mul: (a, b) => (a * b) >>> 0 }) } },
  },
  'numpy-bound-below-i': {
    ops: { 'selfpoker.deck': { run: async (_, f) => k.numpyDeck(f, { bound: (i) => i - 1 }) } },
  },

  // ---------------------------------------------------------- ladder.shuffle
  'ladder-little-endian': {
    ops: {
      'ladder.shuffle': {
        run: (p, f) => k.ladderShuffle(p, f, { word: (mac, w) => Buffer.from(mac).readUInt32LE(4 * w) / 4294967296 }),
      },
    },
  },
  'ladder-int32-word': {
    ops: {
      'ladder.shuffle': {
        run: (p, f) =>
          k.ladderShuffle(p, f, { word: (mac, w) => Math.abs(Buffer.from(mac).readInt32BE(4 * w)) / 4294967296 }),
      },
    },
  },
  'ladder-seven-words': { ops: { 'ladder.shuffle': { run: (p, f) => k.ladderShuffle(p, f, { perBlock: 7 }) } } },
  'ladder-nonce-in-message': {
    ops: { 'ladder.shuffle': { run: (p, f) => k.ladderShuffle(p, f, { prefix: (g) => `${g.clientSeed}:0:` }) } },
  },
  'ladder-j-round': {
    ops: { 'ladder.shuffle': { run: (p, f) => k.ladderShuffle(p, f, { j: (r, n) => Math.round(r * (n - 1)) }) } },
  },
  'ladder-nine-words': {
    ops: {
      'ladder.shuffle': {
        // `while (w <= 8)`: a ninth word past the MAC's 32 bytes, which a
        // slice reads as empty, so 0.
        run: (p, f) =>
          k.ladderShuffle(p, f, {
            perBlock: 9,
            word: (mac, w) => (w < 8 ? Buffer.from(mac).readUInt32BE(4 * w) / 4294967296 : 0),
          }),
      },
    },
  },
  'ladder-blocks-from-1': { ops: { 'ladder.shuffle': { run: (p, f) => k.ladderShuffle(p, f, { first: 1 }) } } },
  'ladder-float32': {
    ops: {
      'ladder.shuffle': { run: (p, f) => k.ladderShuffle(p, f, { j: (r, n) => Math.floor(Math.fround(r) * n) }) },
    },
  },
  'ladder-r-24-bits': {
    ops: {
      'ladder.shuffle': {
        run: (p, f) => k.ladderShuffle(p, f, { j: (r, n) => Math.floor((Math.floor(r * 16777216) / 16777216) * n) }),
      },
    },
  },
  'ladder-r-by-max': {
    ops: {
      'ladder.shuffle': {
        run: (p, f) => k.ladderShuffle(p, f, { word: (mac, w) => Buffer.from(mac).readUInt32BE(4 * w) / 4294967295 }),
      },
    },
  },
  'ladder-uint16-order': {
    ops: {
      'ladder.shuffle': {
        run: async (p, f) => {
          const { order } = await k.ladderShuffle(p, f);
          return { order: Array.from(Uint16Array.from(order)) };
        },
      },
    },
  },
  'ladder-size-cap-1000': { ops: { 'ladder.shuffle': { fields: { size: int(1, 1000) } } } },
  'ladder-size1-invalid': { ops: { 'ladder.shuffle': { fields: { size: int(2, 100000) } } } },
  'ladder-key-cut-64': { provider: () => k.provider('key cut to 64 bytes', { key: (s) => k.utf8(s).subarray(0, 64) }) },
  'ladder-strip-invisible': {
    ops: { 'ladder.shuffle': { run: sanitise(['serverSeed', 'clientSeed'], (s) => s.replace(/[\u200b\ufeff]/g, '')) } },
  },

  // ------------------------------------------------------------ shoe.stream
  'stream-blocks-from-1': { ops: { 'shoe.stream': { run: (p, f) => k.shoeStream(p, f, { first: 1 }) } } },
  'stream-31-per-block': { ops: { 'shoe.stream': { run: (p, f) => k.shoeStream(p, f, { perBlock: 31 }) } } },
  'stream-block0-bare': {
    ops: {
      'shoe.stream': {
        run: (p, f) =>
          k.shoeStream(p, f, {
            message: (g, b) => (b === 0 ? `${g.clientSeed}:${g.nonce}` : `${g.clientSeed}:${g.nonce}:${b}`),
          }),
      },
    },
  },
  'stream-nonce-int32': {
    ops: {
      'shoe.stream': { run: (p, f) => k.shoeStream(p, f, { message: (g, b) => `${g.clientSeed}:${g.nonce | 0}:${b}` }) },
    },
  },
  'stream-key-cut-64': { provider: () => k.provider('key cut to 64 bytes', { key: (s) => k.utf8(s).subarray(0, 64) }) },
  'stream-count-uint16': { ops: { 'shoe.stream': { fields: { count: int(0, 65535) } } } },
  'stream-count-over-ok': { ops: { 'shoe.stream': { fields: { count: int(0, 100001) } } } },

  // ----------------------------------------------------- blackjack.strategy
  'bj-soft12-hits': bj({ softRow: (t) => (t === 12 ? 'HHHHHHHHHH' : k.SOFT[t]) }),
  'bj-das-honoured': bj({ pairRow: (v, f) => (f.doubleAfterSplit ? k.PAIRS : { ...k.PAIRS, ...NO_DAS })[v] }),
  'bj-44-never-split': bj({ pairRow: (v) => (v === 4 ? '----------' : k.PAIRS[v]) }),
  'bj-soft-double-else-hit': bj({
    // "Ds" read as "Dh": soft 18 against 2 … 6 hits when it may not double.
    cell: (letter, f) => (letter === 'X' && !f.canDouble ? 'ziehen' : k.chartCell(letter, f)),
  }),
  'bj-can-double-ignored': bj({ cell: (letter, f) => k.chartCell(letter, { ...f, canDouble: true }) }),
  'bj-pair-by-rank': bj({ samePair: (a, b) => a % 13 === b % 13 }),
  'bj-face-count-uncapped': bj({ countValue: (c) => (c % 13 === 0 ? 11 : (c % 13) + 1) }),
  'bj-soft-21-hard': bj({ soft: (pips, cards) => cards.some((c) => c % 13 === 0) && pips + 10 < 21 }),
  'bj-double-three-cards': bj({ doubleAnyCount: true }),
  'bj-bust-stands': bj({ bustOk: true }),
  'bj-dealer-ace-1': {
    ops: {
      'blackjack.strategy': {
        fields: { dealer: int(1, 10) },
        run: async (_, f) => ({ action: k.blackjackStrategy(f, { column: (d) => (d === 1 ? 9 : d - 2) }) }),
      },
    },
  },

  // Stake (reference/js/stake.mjs): each fault as a verifier might write it.
  'stake-floats-three-bytes': {
    ops: { 'stake.floats': { run: async (p, f) => ({ floats: (await S.floats(p, f.serverSeed, f.clientSeed, f.nonce, f.count)).map((x) => Math.floor(x * 2 ** 24) / 2 ** 24) }) } },
  },
  'stake-dice-10000': {
    ops: { 'stake.dice': { run: async (p, f) => ({ roll: Math.floor((await stakeFloats(p, f, 1))[0] * 10000) / 100 }) } },
  },
  'stake-limbo-docs': {
    ops: { 'stake.limbo': { run: async (p, f) => ({ multiplier: S.limboDocs((await stakeFloats(p, f, 1))[0]) }) } },
  },
  'stake-plinko-mirrored': {
    ops: {
      'stake.plinko': {
        run: async (p, f, original) => {
          const r = await original(p, f);
          return { ...r, path: r.path.map((b) => 1 - b), bucket: f.rows - r.bucket };
        },
      },
    },
  },
  'stake-roulette-36': {
    ops: { 'stake.roulette': { run: async (p, f) => ({ pocket: Math.floor((await stakeFloats(p, f, 1))[0] * 36) }) } },
  },
  'stake-wheel-second-float': {
    ops: { 'stake.wheel': { run: async (p, f) => S.wheel((await stakeFloats(p, f, 2))[1], f.segments, f.risk) } },
  },
  'stake-keno-with-replacement': {
    ops: { 'stake.keno': { run: async (p, f) => ({ hits: (await stakeFloats(p, f, 10)).map((x) => 1 + Math.floor(x * 40)) }) } },
  },
  'stake-mines-from-one': {
    ops: { 'stake.mines': { run: async (p, f, original) => ({ mines: (await original(p, f)).mines.map((t) => t + 1) }) } },
  },
  'stake-hilo-suit-major': {
    ops: { 'stake.hilo': { run: async (p, f, original) => ({ cards: (await original(p, f)).cards.map((c) => (c % 13) * 4 + Math.floor(c / 13)) }) } },
  },
  'stake-blackjack-51': {
    ops: { 'stake.blackjack': { run: async (p, f) => ({ cards: (await stakeFloats(p, f, 52)).map((x) => Math.floor(x * 51)) }) } },
  },
  'stake-baccarat-alternating': {
    ops: { 'stake.baccarat': { run: async (p, f) => S.baccarat((await stakeFloats(p, f, 6)).map(S.card), { alternate: true }) } },
  },
  'stake-videopoker-with-replacement': {
    ops: { 'stake.videopoker': { run: async (p, f) => ({ cards: (await stakeFloats(p, f, 52)).map(S.card) }) } },
  },
  'stake-diamonds-six-gems': {
    ops: { 'stake.diamonds': { run: async (p, f) => ({ gems: (await stakeFloats(p, f, 5)).map((x) => S.GEMS[Math.floor(x * 6)]) }) } },
  },
  'stake-crash-key-and-salt-swapped': {
    ops: { 'stake.crash': { run: async (p, f) => ({ crashPoint: await S.crashPoint(p, f.salt, f.hash) }) } },
  },
  'stake-chain-counts-the-start': {
    ops: { 'stake.crash.chain': { run: async (p, f, original) => ({ distance: (await original(p, f)).distance + 1 }) } },
  },
  // The crash family (reference/js/crash.mjs), FIELD's traps each.
  'crash-v1-divisor-fixed': {
    ops: { 'crash.v1': { run: async (p, f) => ({ crashPoint: await C.v1Point(p, f.hash, f.salt, 101, f.instant) }) } },
  },
  'crash-v1-instant-zero': {
    ops: { 'crash.v1': { run: async (p, f) => ({ crashPoint: await C.v1Point(p, f.hash, f.salt, f.divisor, 0) }) } },
  },
  'crash-v1-salt-0x-stripped': {
    ops: { 'crash.v1': { run: async (p, f) => ({ crashPoint: await C.v1Point(p, f.hash, f.salt.replace(/^0x/, ''), f.divisor, f.instant) }) } },
  },
  'crash-v1-divisible-52-bits': {
    ops: {
      'crash.v1': {
        run: async (p, f) => {
          const mac = await p.hmac(f.hash, f.salt);
          const h = parseInt(toHex(mac).slice(0, 13), 16);
          return { crashPoint: h % f.divisor === 0 ? f.instant : C.v1Cents(h) / 100 };
        },
      },
    },
  },
  'crash-v2-hash-as-text': {
    ops: {
      'crash.v2': {
        run: async (p, f) => {
          const x = C.xOf(parseInt(toHex(await p.hmac(f.salt, f.hash)).slice(0, 13), 16), f.bcgame);
          return { crashPoint: C.v2Of(x) };
        },
      },
    },
  },
  'crash-v2-key-and-message-swapped': {
    ops: {
      'crash.v2': {
        run: async (p, f) => {
          const x = C.xOf(parseInt(toHex(await p.hmac(f.hash, f.salt)).slice(0, 13), 16), f.bcgame);
          return { crashPoint: C.v2Of(x) };
        },
      },
    },
  },
  'crash-v2-no-precision': {
    ops: { 'crash.v2': { run: async (p, f) => ({ crashPoint: await C.v2Point(p, f.hash, f.salt, false) }) } },
  },
  'crash-v2-no-clamp': {
    ops: {
      'crash.v2': {
        run: async (p, f) => {
          const x = C.xOf(parseInt(toHex(await p.hmacOfBytes(f.salt, C.bytesOf(f.hash))).slice(0, 13), 16), f.bcgame);
          return { crashPoint: Math.floor(99 / (1 - x)) / 100 };
        },
      },
    },
  },
  'crash-link-bytes-as-text': {
    ops: { 'crash.link': { run: async (p, f) => ({ previous: await C.previousHash(p, f.hash, 'text') }) } },
  },
  'crash-chain-bytes-walks-text': {
    ops: { 'crash.chain.bytes': { run: async (p, f) => ({ distance: await S.chainDistance(p, f.hash, f.terminatingHash, f.limit) }) } },
  },
  // The schemes of other operators (reference/js/lucky.mjs, skinclub.mjs,
  // freebitco.mjs): the traps their own verifiers fell into.
  'lucky-group-zero': {
    ops: {
      'lucky.roll': {
        run: async (p, f) => {
          const l = parseInt((await p.hmac512Hex(f.serverSeed, `${f.clientSeed}-${f.nonce}`)).slice(0, 5), 16) % L.LIMIT;
          return { lucky: l, roll: L.rollOf(l) };
        },
      },
    },
  },
  'lucky-key-and-message-swapped': {
    ops: {
      'lucky.roll': {
        run: async (p, f) => {
          const { lucky } = L.scan(await p.hmac512Hex(`${f.clientSeed}-${f.nonce}`, f.serverSeed));
          return { lucky, roll: L.rollOf(lucky) };
        },
      },
    },
  },
  'lucky-colon-separator': {
    ops: {
      'lucky.roll': {
        run: async (p, f) => {
          const { lucky } = L.scan(await p.hmac512Hex(f.serverSeed, `${f.clientSeed}:${f.nonce}`));
          return { lucky, roll: L.rollOf(lucky) };
        },
      },
    },
  },
  'skinclub-parseint': {
    ops: {
      'skinclub.roll': {
        run: async (p, f) => {
          const mac = await p.hmac512Hex(`${f.clientSeed}-${f.nonce}`, f.serverSeed);
          return { roll: (parseInt(mac.slice(0, 15), 16) % SC.ROLLS) + 1 };
        },
      },
    },
  },
  'skinclub-server-seed-as-key': {
    ops: {
      'skinclub.roll': {
        run: async (p, f) => {
          const mac = await p.hmac512Hex(f.serverSeed, `${f.clientSeed}-${f.nonce}`);
          return { roll: Number(BigInt(`0x${mac.slice(0, 15)}`) % BigInt(SC.ROLLS)) + 1 };
        },
      },
    },
  },
  'skinclub-hash-key-and-message-swapped': {
    ops: { 'skinclub.hash': { run: async (p, f) => ({ hash: await SC.publicHash(p, f.serverSeed, f.salt) }) } },
  },
  'freebitco-key-and-message-swapped': {
    ops: {
      'freebitco.roll': {
        run: async (p, f) => {
          const n = f.nonce;
          const mac = await p.hmac512Hex(`${n}:${f.serverSeed}:${n}`, `${n}:${f.clientSeed}:${n}`);
          return { roll: FB.rollOf(parseInt(mac.slice(0, 8), 16)) };
        },
      },
    },
  },
  'freebitco-nonce-once': {
    ops: {
      'freebitco.roll': {
        run: async (p, f) => {
          const mac = await p.hmac512Hex(`${f.clientSeed}:${f.nonce}`, `${f.serverSeed}:${f.nonce}`);
          return { roll: FB.rollOf(parseInt(mac.slice(0, 8), 16)) };
        },
      },
    },
  },
  'freebitco-floor': {
    ops: {
      'freebitco.roll': {
        run: async (p, f) => {
          const n = f.nonce;
          const mac = await p.hmac512Hex(`${n}:${f.clientSeed}:${n}`, `${n}:${f.serverSeed}:${n}`);
          return { roll: Math.floor(parseInt(mac.slice(0, 8), 16) / FB.DIVISOR) };
        },
      },
    },
  },
  // BC.Game's originals (reference/js/bcgame.mjs): a port's slips, and the
  // traps of the field survey, each on the op whose vectors force it.
  'bcgame-hmac-key-and-message-swapped': {
    ops: {
      'bcgame.hmac': {
        run: async (p, f) => {
          const m = `${f.clientSeed}:${f.nonce}`;
          return { hmac: f.hash === 'sha512' ? await p.hmac512Hex(m, f.serverSeed) : toHex(await p.hmac(m, f.serverSeed)) };
        },
      },
    },
  },
  'bcgame-classicdice-old-no-tofixed': {
    ops: {
      'bcgame.classicdice.old': {
        run: async (p, f) => {
          const mac = await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}`);
          const n = mac[0] / 256 + mac[1] / 65536 + mac[2] / 16777216 + mac[3] / 4294967296;
          return { roll: Math.floor(n * 100.01 * 100) / 100 };
        },
      },
    },
  },
  'bcgame-window-parseint': {
    ops: Object.fromEntries(
      [
        ['bcgame.classicdice', (h) => ({ roll: (windowParseInt(h) * 10001) / 100 })],
        ['bcgame.dice', (h) => ({ roll: parseInt(windowParseInt(h) * 10000) })],
      ].map(([op, answer]) => [op, { run: async (p, f) => answer(toHex(await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}`))) }]),
    ),
  },
  'bcgame-window-divided-by-8': {
    ops: {
      'bcgame.classicdice': {
        run: async (p, f) => {
          const h = toHex(await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}`));
          const index = Number(BigInt(`0x${h.substring(0, 15)}`) % 47n);
          return { roll: ((Number(BigInt(`0x${h.substring(index, index + 14)}`)) / 8) * 2 ** -53 * 10001) / 100 };
        },
      },
    },
  },
  'bcgame-classicdice-prose': {
    ops: { 'bcgame.classicdice': { run: async (p, f) => ({ roll: B.diceRoll(toHex(await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}`))) }) } },
  },
  'bcgame-limbo-no-clamp': {
    ops: {
      'bcgame.limbo': {
        run: async (p, f) => {
          const r = parseInt(toHex(await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}`)).slice(0, 13), 16);
          return { multiplier: Math.floor(99 / (1 - r / 2 ** 52)) / 100 };
        },
      },
    },
  },
  'bcgame-hashdice-group-zero': {
    ops: {
      'bcgame.hashdice': {
        run: async (p, f) => {
          const lucky = parseInt((await p.hmac512Hex(f.serverSeed, `${f.clientSeed}:${f.nonce}`)).slice(0, 5), 16) % 1000000;
          return { lucky, roll: lucky % 100000 };
        },
      },
    },
  },
  'bcgame-hashdice-plain-sha512': {
    ops: {
      'bcgame.hashdice': {
        run: async (_, f) => B.hashDice(createHash('sha512').update(`${f.serverSeed}${f.clientSeed}${f.nonce}`, 'utf8').digest('hex')),
      },
    },
  },
  'bcgame-hashdice-dash-separator': {
    ops: { 'bcgame.hashdice': { run: async (p, f) => B.hashDice(await p.hmac512Hex(f.serverSeed, `${f.clientSeed}-${f.nonce}`)) } },
  },
  'bcgame-mines-one-sort': {
    ops: {
      'bcgame.mines': {
        run: async (p, f) => {
          const h = await p.sha256Hex(toHex(await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}`)));
          const order = B.MINES_START.map((num, i) => ({ num, hash: h.substring(i) + h.substring(0, i) }))
            .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
            .map((x) => x.num);
          return { mines: order.slice(0, f.mines), order };
        },
      },
    },
  },
  'bcgame-keno-rotates-right': {
    ops: {
      'bcgame.keno': {
        run: async (p, f) => {
          const sortBy = async (list, seed) => {
            let h = await p.sha256Hex(seed);
            const items = list.map((num) => {
              const item = { num, hash: h };
              h = h.charAt(63) + h.substring(0, 63);
              return item;
            });
            return items.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0)).map((x) => x.num);
          };
          const hash = toHex(await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}`));
          const order = await sortBy(await sortBy(B.KENO_START, hash), await p.sha256Hex(hash));
          return { hits: order.slice(0, 10) };
        },
      },
    },
  },
  'bcgame-plinko-round-suffix': {
    ops: {
      'bcgame.plinko': {
        run: async (p, f) => {
          const path = B.plinkoPath(await p.hmac512Hex(f.serverSeed, `${f.clientSeed}:${f.nonce}:0`), f.rows);
          return { path, bucket: path.filter((d) => d === 1).length };
        },
      },
    },
  },
  'bcgame-coinflip-rounds-from-zero': {
    ops: {
      'bcgame.coinflip.old': {
        run: async (p, f) => {
          const coins = [];
          for (let k = 0; k < f.rounds; k++) coins.push((await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}:${k}`))[0] >> 7);
          return { coins };
        },
      },
    },
  },
  'bcgame-coinflip-window-parseint': {
    ops: {
      'bcgame.coinflip': {
        run: async (p, f) => {
          const coins = [];
          for (let k = 1; k <= f.rounds; k++) {
            coins.push(Math.floor(windowParseInt(toHex(await p.hmac(f.serverSeed, `${f.clientSeed}:${f.nonce}:${k}`))) * 2));
          }
          return { coins };
        },
      },
    },
  },
  // CSGOEmpire's roulette (reference/js/csgoempire.mjs).
  'csgoempire-colour-off-by-one': {
    ops: {
      'csgoempire.roulette': {
        run: async (p, f) => {
          const roll = parseInt((await p.sha256Hex(`${f.serverSeed}-${f.publicSeed}-${f.round}`)).substring(0, 8), 16) % 15;
          return { roll, colour: roll === 0 ? 'bonus' : roll <= 8 ? 'orange' : 'black' };
        },
      },
    },
  },
  'csgoempire-colon-separator': {
    ops: {
      'csgoempire.roulette': {
        run: async (p, f) => {
          const roll = parseInt((await p.sha256Hex(`${f.serverSeed}:${f.publicSeed}:${f.round}`)).substring(0, 8), 16) % 15;
          return { roll, colour: roll === 0 ? 'bonus' : roll <= 7 ? 'orange' : 'black' };
        },
      },
    },
  },
  // The lucky number's limit: `>` for `>=`, so a group of exactly 1,000,000 is kept.
  'lucky-keeps-one-million': {
    ops: {
      'lucky.roll': {
        run: async (p, f) => {
          const lucky = keepsOneMillion(await p.hmac512Hex(f.serverSeed, `${f.clientSeed}-${f.nonce}`));
          return { lucky, roll: L.rollOf(lucky) };
        },
      },
    },
  },
  'bcgame-hashdice-keeps-one-million': {
    ops: {
      'bcgame.hashdice': {
        run: async (p, f) => {
          const lucky = keepsOneMillion(await p.hmac512Hex(f.serverSeed, `${f.clientSeed}:${f.nonce}`));
          return { lucky, roll: lucky % 100000 };
        },
      },
    },
  },
};

/** The first group of five hex digits not above 1,000,000 (`>` where the schemes have `>=`). */
function keepsOneMillion(hash) {
  let index = 0;
  let lucky;
  do {
    lucky = parseInt(hash.substr(index, 5), 16);
    index += 5;
  } while (lucky > 1000000);
  return lucky;
}

/** slideWindowNumber's fraction with the first 15 digits read by parseInt: a double, rounded above 2^53. */
function windowParseInt(hash) {
  const index = parseInt(hash.substring(0, 15), 16) % 47;
  return Number(BigInt(`0x${hash.substring(index, index + 14)}`) >> 3n) * 2 ** -53;
}
