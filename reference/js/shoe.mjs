// `shoe` scheme (seed 000, "Rechne uns nach"): a blackjack shoe shuffled
// from one byte stream, block b = HMAC(serverSeed, "clientSeed:nonce:b"),
// with the cut card drawn from the same stream right after the shuffle.

import { SHOE_RANK_LETTERS } from './cards.mjs';
import { toHex } from './crypto.mjs';
import { SERVER_SEED_COMMITMENT, SEEDED } from './cursor.mjs';
import { MAX_INT, int, number, text } from './validate.mjs';

/** The unshuffled shoe: deck after deck, suits S H D C, ranks A … K. */
export function orderedShoe(decks) {
  const cards = [];
  for (let d = 0; d < decks; d++) {
    for (const s of 'SHDC') for (const r of SHOE_RANK_LETTERS) cards.push(r + s);
  }
  return cards;
}

/**
 * Bytes in order across HMAC block boundaries. Unlike `cursor`, a draw that
 * straddles two blocks takes the tail of one and the head of the next.
 */
export class ByteStream {
  constructor(p, serverSeed, clientSeed, nonce, expectedBytes = 32) {
    this.macs = p.macs(serverSeed, `${clientSeed}:${nonce}:`, 0, Math.ceil(expectedBytes / 32));
    this.block = new Uint8Array(0);
    this.pos = 0;
  }

  async byte() {
    if (this.pos === this.block.length) {
      this.block = await this.macs.next();
      this.pos = 0;
    }
    return this.block[this.pos++];
  }

  /**
   * A uniform index in [0, m): k = smallest with 256^k ≥ m, k bytes
   * big-endian, reject v ≥ 256^k − (256^k mod m) and read k fresh bytes.
   * m is at most 8 × 52, so Numbers are exact.
   */
  async index(m) {
    let k = 0;
    let pot = 1;
    while (pot < m) {
      pot *= 256;
      k++;
    }
    const limit = pot - (pot % m);
    for (;;) {
      let v = 0;
      for (let i = 0; i < k; i++) v = v * 256 + (await this.byte());
      if (v < limit) return v % m;
    }
  }
}

/**
 * The cut position. `Math.round` on purpose: the published server is
 * TypeScript, so halves round up (towards +∞), not to even.
 */
async function cutCard(stream, total, penetration) {
  const base = Math.round(total * penetration);
  const spread = Math.max(1, Math.round(total * 0.02));
  const cut = base + (await stream.index(2 * spread + 1)) - spread;
  const low = Math.max(20, Math.round(total * 0.5));
  const high = total - 15;
  return Math.min(Math.max(cut, low), high);
}

/** { cards, cut } of a free round. */
export async function deal(p, serverSeed, clientSeed, nonce, decks, penetration) {
  const cards = orderedShoe(decks);
  const total = cards.length;
  // Two bytes per draw once the shoe passes 256 cards, one below.
  const stream = new ByteStream(p, serverSeed, clientSeed, nonce, total > 256 ? 2 * total : total);
  for (let i = total - 1; i >= 1; i--) {
    const j = await stream.index(i + 1);
    const t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
  const cut = await cutCard(stream, total, penetration);
  return { cards, cut };
}

/** Hand k of tournament T: client seed "T:k", nonce k, otherwise a free round. */
export function tournament(p, serverSeed, tournamentId, hand, decks, penetration) {
  return deal(p, serverSeed, `${tournamentId}:${hand}`, hand, decks, penetration);
}

/** The first `count` bytes of the stream, as hex: what a byte generator alone answers. */
export async function stream(p, serverSeed, clientSeed, nonce, count) {
  const s = new ByteStream(p, serverSeed, clientSeed, nonce, count);
  const bytes = new Uint8Array(count);
  for (let i = 0; i < count; i++) bytes[i] = await s.byte();
  return { bytes: toHex(bytes) };
}

const SHOE_SIZE = { decks: int(1, 8), penetration: number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }) };

export const SCHEME = {
  id: 'shoe',
  commitment: SERVER_SEED_COMMITMENT,
  ops: {
    'shoe.deal': {
      fields: { ...SEEDED, ...SHOE_SIZE },
      run: (p, f) => deal(p, f.serverSeed, f.clientSeed, f.nonce, f.decks, f.penetration),
    },
    'shoe.tournament': {
      fields: { serverSeed: text(), tournamentId: text(), hand: int(0, MAX_INT), ...SHOE_SIZE },
      run: (p, f) => tournament(p, f.serverSeed, f.tournamentId, f.hand, f.decks, f.penetration),
    },
    'shoe.stream': {
      fields: { ...SEEDED, count: int(0, 100000) },
      run: (p, f) => stream(p, f.serverSeed, f.clientSeed, f.nonce, f.count),
    },
  },
};
