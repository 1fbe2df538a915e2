// Bet histories (docs/proofs.md, "Bet histories"; src/proof/bets.rs)
//
// A seed pair gives each nonce to exactly one bet, across its games (the ops
// that declare `bet`). A seed pair is the epoch's revealed server seed and
// the round's client seed, followed across every epoch that reveals the same
// server seed: a nonce bet again by a later round makes that round a
// mismatch (field `nonce`), and nonces missing between the smallest and the
// largest shown are one `gap` finding per missing run, listed once every
// round has been seen (a later epoch can fill a gap), at the epoch of the
// pair's first bet. Gaps change no verdict (a history filtered by game has
// them too); nonces before the first shown are not judged, since where a
// pair's count starts is not published. Past MAX_RUNS separate runs in all
// the history is no longer followed: an `invalid` finding at that round,
// since a nonce bet twice after it would go unseen.

import { finding } from './finding.mjs';

/** The most separate runs of nonces a check follows (as the Rust audit). */
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
 * The bet a checked round is ({ server, client, nonce }), or null. A round
 * that did not come from the seed (external) or that is invalid is no bet:
 * its nonce is not the pair's, and an invalid round stays invalid.
 */
export function betOf(r) {
  if (!r.request || r.external !== undefined || r.verdict === 'invalid' || !r.isBet) return null;
  if (typeof r.request.serverSeed !== 'string') return null;
  return { server: r.request.serverSeed, client: r.request.clientSeed, nonce: Number(r.request.nonce) };
}

/** Every seed pair followed so far: by server seed, then client seed, its nonces and its first bet's epoch. */
export class Bets {
  constructor() {
    this.servers = new Map();
    this.order = [];
    // Separate runs of consecutive nonces over all pairs, counted as the
    // Rust audit keeps them (its memory), so the cap falls on the same bet.
    this.runs = 0;
    this.overflow = false;
  }

  /** What `bet`'s nonce is to its pair: 'new' (recorded), 'again', or 'overflow' (one run too many). */
  see(info, bet) {
    if (this.overflow) return 'new';
    let clients = this.servers.get(bet.server);
    if (!clients) this.servers.set(bet.server, (clients = new Map()));
    let pair = clients.get(bet.client);
    if (!pair) {
      pair = { client: bet.client, info, seen: new Set() };
      clients.set(bet.client, pair);
      this.order.push(pair);
    }
    const n = bet.nonce;
    if (pair.seen.has(n)) return 'again';
    this.runs += 1 - (pair.seen.has(n - 1) ? 1 : 0) - (pair.seen.has(n + 1) ? 1 : 0);
    pair.seen.add(n);
    if (this.runs > MAX_RUNS) {
      this.overflow = true;
      this.servers = new Map();
      this.order = [];
      return 'overflow';
    }
    return 'new';
  }

  /**
   * Every round has been seen: each pair's gaps, with the epoch they are
   * placed in, pair by pair in the order of first bets; `gapOf` writes a
   * run missing (a crash history's games are not nonces).
   */
  finish(gapOf = gap) {
    const out = [];
    for (const pair of this.order) {
      const where = { epoch: pair.info.epoch, line: pair.info.line };
      const nonces = [...pair.seen].sort((a, b) => a - b);
      for (let i = 1; i < nonces.length; i++) {
        if (nonces[i] - nonces[i - 1] > 1) out.push({ info: pair.info, finding: gapOf(where, pair.client, nonces[i - 1] + 1, nonces[i] - 1) });
      }
    }
    this.servers = new Map();
    this.order = [];
    return out;
  }
}

export function repeated(at, bet) {
  return finding('mismatch', at, {
    field: 'nonce',
    observed: bet.nonce,
    differences: 1,
    reason: `nonce ${bet.nonce} of client seed ${JSON.stringify(bet.client)} was bet by an earlier round of this seed pair: a seed pair gives each nonce to one bet`,
  });
}

export function overflow(at) {
  return finding('invalid', at, {
    field: 'nonce',
    reason: `the bet history has more than ${MAX_RUNS} separate runs of nonces: it is not followed from this round on, so a nonce bet twice after it would go unseen`,
  });
}

function gap(at, client, first, last) {
  const which = first === last
    ? `nonce ${first} of client seed ${JSON.stringify(client)} is`
    : `nonces ${first} … ${last} of client seed ${JSON.stringify(client)} are`;
  return finding('gap', at, { field: 'nonce', observed: [first, last], reason: `${which} not in the history: those bets cannot be checked` });
}
