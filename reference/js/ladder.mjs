// `ladder` scheme (seed 004, Deal or No Deal): block[i] = HMAC(serverSeed,
// "clientSeed:i") with no nonce, eight big-endian u32 per block, r = v / 2^32,
// Fisher–Yates from the back with j = ⌊r·(i+1)⌋.

import { SERVER_SEED_COMMITMENT } from './cursor.mjs';
import { MAX_SHUFFLE, TWO_32, intField, num, pickCounts, shuffleMarginals, tables } from './stats/laws.mjs';
import { int, text } from './validate.mjs';

/** Case k gets ladder entry order[k]. */
export async function shuffle(p, serverSeed, clientSeed, size) {
  const order = Array.from({ length: size }, (_, i) => i);
  const macs = p.macs(serverSeed, `${clientSeed}:`, 0, Math.ceil((size - 1) / 8));
  let view = null;
  let word = 8;
  for (let i = size - 1; i >= 1; i--) {
    if (word === 8) {
      const mac = await macs.next();
      view = new DataView(mac.buffer, mac.byteOffset, mac.byteLength);
      word = 0;
    }
    const r = view.getUint32(4 * word++, false) / 4294967296;
    // r·(i+1) < 2^32 · 2^17 / 2^32 needs at most 49 significant bits: the
    // product is exact, so floor gives what any language's doubles give.
    const j = Math.floor(r * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return { order };
}

// Statistics (src/schemes/ladder/stats.rs): j = ⌊r·(i+1)⌋ takes t for
// ⌈(t+1)·2³²/(i+1)⌉ − ⌈t·2³²/(i+1)⌉ of the 2³² words, biased unless i + 1 is
// a power of two; the shuffle carries that bias to every case exactly.

/** P(j = t) at ladder step i, for t in 0 … i. */
const ladderPick = (i) => pickCounts(i + 1).map((c) => c / TWO_32);

/** P(order[k] = v) after the ladder's Fisher–Yates: row k, column v. */
export const ladderMarginals = (n) => shuffleMarginals(n, ladderPick);

const SHUFFLE = tables({
  family: (req) => {
    const n = intField(req, 'size');
    return n !== null && n >= 2 && n <= MAX_SHUFFLE ? { a: n } : null;
  },
  shape: ({ a }) => [a, a],
  layout: ({ a }) => ({ params: `size=${a}`, tests: ladderMarginals(a).map((p, k) => [`entry in case ${k}`, p]), serial: null }),
  sample: (_, req, ok, cells) => {
    ok.order.forEach((v, k) => cells.push(k, num(v)));
    return undefined;
  },
});

export const SCHEME = {
  id: 'ladder',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'ladder.shuffle': {
      fields: { serverSeed: text(), clientSeed: text(), size: int(1, 100000) },
      run: (p, f) => shuffle(p, f.serverSeed, f.clientSeed, f.size),
      stats: SHUFFLE,
      page: {
        name: 'Deal or No Deal',
        view: 'dond',
        tests: [[/^entry in case (\d+)$/, (m, w) => `Leiterplatz in Koffer ${w.formatInt(Number(m[1]) + 1)}`]],
      },
    },
  },
};
