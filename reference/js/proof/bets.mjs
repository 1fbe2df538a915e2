// Bet histories (docs/proofs.md, "Bet histories"; src/proof/bets.rs)
//
// A seed pair gives each nonce to exactly one bet, across its games (the ops
// that declare `bet`).
// So, per epoch and client seed: a nonce bet again by a later round makes
// that round a mismatch (field `nonce`), and nonces missing between the
// smallest and the largest shown are one `gap` finding per missing run, at
// the epoch's end. Gaps change no verdict (a history filtered by game has
// them too); nonces before the first shown are not judged, since where a
// pair's count starts is not published.

import { finding } from './finding.mjs';

/** The most separate runs of nonces one epoch may hold before its continuity is no longer followed (as the Rust audit). */
export const MAX_RUNS = 2 ** 20;

/**
 * Whether `op` is a bet on a seed pair, as its declaration says (`bet`):
 * a Stake game takes a nonce of its pair; `stake.floats` (a bet's bytes)
 * and crash (a hash chain, no nonce) are none.
 */
export function isBet(engine, op) {
  return engine.declarations.get(op)?.bet === true;
}

/**
 * The bet a checked round is ({ client, nonce }), or null. A round that did
 * not come from the seed (external) or that is invalid is no bet: its nonce
 * is not the pair's, and an invalid round stays invalid.
 */
export function betOf(r) {
  if (!r.request || r.external !== undefined || r.verdict === 'invalid' || !r.isBet) return null;
  return { client: r.request.clientSeed, nonce: Number(r.request.nonce) };
}

/** The epoch being followed: each client seed's nonces, in the order of its first bet. */
export class Bets {
  constructor() {
    this.reset();
    this.info = null;
  }

  reset() {
    this.pairs = new Map();
    // Separate runs of consecutive nonces over all client seeds, counted as
    // the Rust audit keeps them (its memory), so the cap falls on the same bet.
    this.runs = 0;
    this.overflow = false;
  }

  /** Whether `bet`'s nonce was bet before in this epoch; records it if not. */
  repeats(info, bet) {
    this.info ??= info;
    if (this.overflow) return false;
    let seen = this.pairs.get(bet.client);
    if (!seen) this.pairs.set(bet.client, (seen = new Set()));
    const n = bet.nonce;
    if (seen.has(n)) return true;
    this.runs += 1 - (seen.has(n - 1) ? 1 : 0) - (seen.has(n + 1) ? 1 : 0);
    seen.add(n);
    if (this.runs > MAX_RUNS) {
      this.overflow = true;
      this.pairs = new Map();
    }
    return false;
  }

  /** The epoch ends (`at` its place; else the first bet's): its gap findings. */
  finish(at) {
    const info = this.info;
    this.info = null;
    if (!info && !at) return [];
    const where = at ?? { epoch: info.epoch, line: info.line };
    const out = [];
    if (this.overflow) {
      out.push(finding('gap', where, {
        field: 'nonce',
        reason: `more than ${MAX_RUNS} separate runs of nonces: the continuity of this epoch's bets is not followed`,
      }));
    }
    for (const [client, seen] of this.pairs) {
      const nonces = [...seen].sort((a, b) => a - b);
      for (let i = 1; i < nonces.length; i++) {
        if (nonces[i] - nonces[i - 1] > 1) out.push(gap(where, client, nonces[i - 1] + 1, nonces[i] - 1));
      }
    }
    this.reset();
    return out;
  }
}

export function repeated(at, bet) {
  return finding('mismatch', at, {
    field: 'nonce',
    observed: bet.nonce,
    differences: 1,
    reason: `nonce ${bet.nonce} of client seed ${JSON.stringify(bet.client)} was bet by an earlier round of this epoch: a seed pair gives each nonce to one bet`,
  });
}

function gap(at, client, first, last) {
  const which = first === last
    ? `nonce ${first} of client seed ${JSON.stringify(client)} is`
    : `nonces ${first} … ${last} of client seed ${JSON.stringify(client)} are`;
  return finding('gap', at, { field: 'nonce', observed: [first, last], reason: `${which} not in the history: those bets cannot be checked` });
}
