// Crash histories (docs/proofs.md, "Crash histories"; src/proof/chain.rs
// and src/proof/game.rs): an epoch headed by `chain` (the terminating hash
// committed to, the link, the first game, the salt and the variant: a game
// op and its parameters) whose rounds are games {game, hash?, observed?}.
//
// A game is checked alone for its point: the variant's request with the
// chain's salt and the game's hash, read and compared as any round is
// (round.mjs). Its place on the chain is followed in document order
// (Chains): its hash must lead to the terminating hash in as many links as
// the game is from the chain's start, walked with the engine's crash.link
// from the nearest game already found on the chain; a game shown twice is
// a mismatch, games missing between the first and the last shown are gaps
// (the runs of bets.mjs, with a game's wording).

import { stringifyJson } from '../json.mjs';
import { describe, isObject } from '../validate.mjs';
import { Bets } from './bets.mjs';
import { FieldError, finding, typeName } from './finding.mjs';
import { checkRound, readObserved, readRequest } from './round.mjs';
import { NotJson, Scanner, Twice } from './scan.mjs';

/** The version of a document that holds a crash history. */
export const CHAIN_VERSION = 2;
/** The epoch key that makes an epoch a crash history. */
export const CHAIN = 'chain';
/** The farthest a game may be from the terminating hash: the family's chains hold 10^7 games. */
export const MAX_DISTANCE = 10_000_000;
const MAX_SAFE = 2 ** 53 - 1;
const CHAIN_KEYS = ['terminatingHash', 'link', 'firstGame', 'salt', 'variant'];
const GAME_KEYS = ['game', 'hash', 'observed'];
const MAX_ANCHORS = 2 ** 16;
const HEX64 = /^[0-9a-f]{64}$/;

const chainError = (key, reason) => new FieldError(`${CHAIN}.${key}`, reason);
const isInt = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_SAFE;

/** Whether `op` plays a game of a chain: it takes a hash and a salt. */
export function isGameOp(engine, op) {
  const fields = engine.OPS.includes(op) ? engine.fieldsOf(op) : [];
  return fields.includes('hash') && fields.includes('salt');
}

/** The variant's members and the salt: a game op's request without its hash. */
function variantOf(engine, v, salt) {
  if (!isObject(v)) throw chainError('variant', `must be an object: the game's op and its fields but salt and hash, not ${typeName(v)}`);
  if (typeof v.op !== 'string' || !isGameOp(engine, v.op)) {
    const ops = engine.OPS.filter((o) => isGameOp(engine, o));
    throw chainError('variant.op', `must name the game's op (${ops.join(', ')}), not ${Object.hasOwn(v, 'op') ? describe(v.op) : 'nothing'}`);
  }
  const own = Object.keys(v).find((k) => ['hash', 'salt', 'id'].includes(k));
  if (own !== undefined) throw chainError(`variant.${own}`, "is not a field of the variant: the hash is each game's, the salt the chain's");
  return { ...v, salt };
}

/**
 * Reads an epoch's `chain` (Head::read): a key the chain does not have (in
 * text order), then each key in CHAIN_KEYS order. Returns the head, or
 * throws a FieldError naming `chain.<key>`.
 */
export function readChain(engine, v) {
  if (!isObject(v)) throw new FieldError(CHAIN, `must be an object {${CHAIN_KEYS.join(', ')}}, not ${typeName(v)}`);
  const other = Object.keys(v).find((k) => !CHAIN_KEYS.includes(k));
  if (other !== undefined) throw chainError(other, `is not a field of a chain (${CHAIN_KEYS.join(', ')})`);
  const get = (k) => {
    if (!Object.hasOwn(v, k)) throw chainError(k, 'is missing');
    return v[k];
  };
  const terminating = get('terminatingHash');
  if (typeof terminating !== 'string' || !HEX64.test(terminating)) {
    throw chainError('terminatingHash', `must be 64 lowercase hex characters (the hash committed to before the first game), not ${describe(terminating)}`);
  }
  const link = get('link');
  if (link !== 'text' && link !== 'bytes') throw chainError('link', `must be "text" or "bytes", not ${describe(link)}`);
  const first = Object.hasOwn(v, 'firstGame') ? v.firstGame : 1;
  if (!isInt(first)) throw chainError('firstGame', `must be an integer in 0..=2^53-1, not ${describe(first)}`);
  const salt = get('salt');
  if (typeof salt !== 'string') throw chainError('salt', `must be a string, not ${typeName(salt)}`);
  const members = variantOf(engine, get('variant'), salt);
  let sample;
  try {
    sample = readRequest(engine, members.op, { ...members, hash: terminating });
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    throw e.field === 'salt' ? chainError('salt', e.reason) : chainError(`variant.${e.field}`, e.reason);
  }
  return { terminating, link, first, members, sample, id: `${link} ${terminating} ${first}` };
}

/** The chain of an epoch: { head } or { error } (a FieldError). */
export function chainOf(engine, value) {
  try {
    return { head: readChain(engine, value) };
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { error: e };
  }
}

/** A chain epoch's `commit` (chain::check_commit): none of its own, null at most; a chain that cannot be read is said once. Null: nothing. */
export function chainCommit(at, chain, commit) {
  if (commit !== undefined && commit !== null) {
    return { verdict: 'invalid', findings: [finding('invalid', at, { field: 'commit', reason: "a crash history is committed to by chain.terminatingHash, which each game's hash must lead to" })] };
  }
  if (!chain.error) return null;
  return { verdict: 'invalid', findings: [finding('invalid', at, { field: chain.error.field, index: chain.error.index, reason: chain.error.reason })] };
}

/** Reads a game's text: the rules of docs/proofs.md in order; its members' raw text kept. */
function readGame(head, text) {
  const scan = new Scanner(text, { strict: true });
  try {
    scan.value([]);
    scan.ws();
    if (scan.i !== text.length) scan.fail('unexpected text after the JSON value');
  } catch (e) {
    if (e instanceof Twice) throw new FieldError(e.path, 'appears twice');
    if (e instanceof NotJson) throw new FieldError('round', `not JSON: ${e.message} at character ${e.offset}`);
    throw e;
  }
  scan.i = 0;
  scan.ws();
  if (text[scan.i] !== '{') throw new FieldError('round', `must be a JSON object, not ${scan.typeAt(scan.i)}`);
  const members = scan.members(scan.i);
  const other = members.find((m) => !GAME_KEYS.includes(m.key));
  if (other) throw new FieldError(other.key, `is not a field of a game (${GAME_KEYS.join(', ')})`);
  const raw = Object.fromEntries(members.map((m) => [m.key, text.slice(m.start, m.end)]));
  if (raw.game === undefined) throw new FieldError('game', 'is missing');
  const number = scan.parse(...span(members, 'game'));
  if (!isInt(number)) throw new FieldError('game', `must be an integer in 0..=2^53-1, not ${describe(number)}`);
  if (number < head.first) throw new FieldError('game', `${number} is before the chain's first game, ${head.first}`);
  const distance = number - head.first + 1;
  if (distance > MAX_DISTANCE) {
    throw new FieldError('game', `${number} is ${distance} links from the terminating hash: a chain of the family holds ${MAX_DISTANCE} games`);
  }
  return { number, distance, raw, hash: raw.hash === undefined ? undefined : scan.parse(...span(members, 'hash')), observed: raw.observed === undefined ? undefined : scan.parse(...span(members, 'observed')) };
}

function span(members, key) {
  const m = members.find((x) => x.key === key);
  return [m.start, m.end];
}

/**
 * Checks one game of a crash history (game.rs): `chain` is { head } or
 * { error }. A game with its hash is the variant's round with that hash,
 * checked by checkRound; one without has nothing to derive its point from
 * (unobserved), and its observed point is what the statistics count.
 */
export async function checkGame(engine, table, chain, at, text) {
  const invalid = (e) => ({ verdict: 'invalid', findings: [finding('invalid', at, { field: e.field, index: e.index, reason: e.reason })] });
  if (chain.error) return invalid(chain.error);
  const { head } = chain;
  let g;
  try {
    g = readGame(head, text);
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return invalid(e);
  }
  const game = { head, number: g.number, distance: g.distance, hash: null };
  if (g.hash === undefined) {
    let observed;
    try {
      observed = g.observed === undefined ? undefined : readObserved(head.members.op, g.observed);
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      return invalid(e);
    }
    const f = finding('unobserved', at, { observed: observed ?? null, reason: "no hash shown: the game's point cannot be derived, nothing is compared" });
    return { op: head.members.op, observed, verdict: 'unobserved', findings: [f], game, counted: observed === undefined ? undefined : { request: head.sample, ok: observed } };
  }
  // The variant's round with the game's hash and observation as written.
  const fields = stringifyJson({ ...head.members, hash: g.hash }).slice(0, -1);
  const round = g.raw.observed === undefined ? `${fields}}` : `${fields},"observed":${g.raw.observed}}`;
  const r = await checkRound(engine, table, at, round, null);
  if (r.verdict === 'invalid') return r;
  return { ...r, game: { ...game, hash: g.hash } };
}

/** One chain's games found on it, by distance from the terminating hash (0: the terminating hash). */
class Walk {
  constructor(engine, terminating, link) {
    this.engine = engine;
    this.link = link;
    this.at = [0];
    this.hashes = new Map([[0, terminating]]);
  }

  async down(hash, n) {
    let h = hash;
    for (let i = 0; i < n; i++) {
      const r = await this.engine.execute({ op: 'crash.link', hash: h, link: this.link });
      h = r.ok.previous;
    }
    return h;
  }

  /** Whether `hash` is the chain's hash `distance` links from its end, walked from the nearest place known. */
  async holds(distance, hash) {
    if (this.hashes.has(distance)) return this.hashes.get(distance) === hash;
    let lo = 0;
    let hi = this.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid] < distance) lo = mid + 1;
      else hi = mid;
    }
    const below = this.at[lo - 1];
    const above = lo < this.at.length ? this.at[lo] : null;
    const holds = above !== null && above - distance < distance - below
      ? (await this.down(this.hashes.get(above), above - distance)) === hash
      : (await this.down(hash, distance - below)) === this.hashes.get(below);
    if (holds) this.keep(distance, hash, lo);
    return holds;
  }

  keep(distance, hash, at) {
    this.at.splice(at, 0, distance);
    this.hashes.set(distance, hash);
    if (this.at.length > MAX_ANCHORS) {
      this.at = this.at.filter((d, i) => i % 2 === 0 || d === distance);
      this.hashes = new Map(this.at.map((d) => [d, this.hashes.get(d)]));
    }
  }
}

/** Every chain followed so far, in document order (chain.rs, Chains). */
export class Chains {
  constructor(engine) {
    this.engine = engine;
    this.walks = new Map();
    this.shown = new Bets();
  }

  /**
   * Sees a checked game `r` at `at` (of epoch `info`): a hash off the chain
   * or a game shown before makes it a mismatch. Returns the finding of a
   * history that can no longer be followed, or null.
   */
  async see(info, r, at) {
    const { game } = r;
    const { head } = game;
    if (game.hash !== null) {
      if (!this.walks.has(head.id)) this.walks.set(head.id, new Walk(this.engine, head.terminating, head.link));
      // The hash is compared: the game is no longer one of nothing compared.
      r.findings = r.findings.filter((f) => f.kind !== 'unobserved');
      if (await this.walks.get(head.id).holds(game.distance, game.hash)) {
        if (r.verdict === 'unobserved') r.verdict = 'match';
      } else {
        r.verdict = 'mismatch';
        r.findings = [...r.findings, finding('mismatch', at, {
          field: 'hash',
          observed: game.hash,
          differences: 1,
          reason: `this hash does not lead to the terminating hash in ${game.distance} links: the game is not on the committed chain`,
        })];
      }
    }
    const seen = this.shown.see(info, { server: head.id, client: '', nonce: game.number });
    if (seen === 'again') {
      r.verdict = 'mismatch';
      r.findings = [...r.findings, finding('mismatch', at, {
        field: 'game',
        observed: game.number,
        differences: 1,
        reason: `game ${game.number} was shown by an earlier round of this history: a chain gives each game one hash`,
      })];
    }
    if (seen === 'overflow') {
      return finding('invalid', at, {
        field: 'game',
        reason: 'the crash history has more than 2^20 separate runs of games: it is not followed from this game on, so a game shown twice after it would go unseen',
      });
    }
    return null;
  }

  /** Every game has been seen: each chain's gaps, with the epoch they are placed in. */
  finish() {
    this.walks = new Map();
    return this.shown.finish((where, _client, first, last) => finding('gap', where, {
      field: 'game',
      observed: [first, last],
      reason: first === last
        ? `game ${first} is not in the history: that game cannot be checked`
        : `games ${first} … ${last} are not in the history: those games cannot be checked`,
    }));
  }
}
