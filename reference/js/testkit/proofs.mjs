// Proof documents built from the committed vectors, for the unit and browser
// tests: the rounds and outcomes are the vectors' (computed by the Rust
// reference), the commitments are node's own SHA-256 (node:crypto, not the
// code under test). One proof per seed system, as a player would hold it.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonFloat, parseJson, stringifyJson } from '../json.mjs';
import { REPO } from './helpers.mjs';

export const sha256hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Plain values: a JsonFloat as its Number (exact), objects with a prototype (structuredClone keeps them). */
function plain(v) {
  if (v instanceof JsonFloat) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** The page's self-test vectors that have an expected outcome (today's format and the one with `result`). */
export function loadVectors() {
  const bundle = parseJson(readFileSync(join(REPO, 'vectors/selftest.json'), 'utf8'));
  return plain(bundle.tests.filter((t) => t.result !== 'invalid' && t.expected && t.input));
}

/** The vectors of `op`, grouped by server seed, the largest group first. */
function bySeed(vectors, op) {
  const groups = new Map();
  for (const t of vectors.filter((v) => v.input.op === op)) {
    const key = t.input.serverSeed;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(t);
  }
  // At most 8 rounds: a proof in a URL fragment stays small.
  return [...groups.values()].sort((a, b) => b.length - a.length).map((g) => g.slice(0, 8));
}

/** The request of a vector without its secret: a round. */
function round(input, observed, extra = {}) {
  const { serverSeed, seed, ...rest } = input;
  return { ...rest, ...extra, observed };
}

/**
 * A client seed split into seats listed out of player order: by ascending
 * player their seeds concatenate to `clientSeed` again (seed 003's rule).
 */
export function seatsFor(clientSeed) {
  const chars = [...clientSeed];
  const cut = [Math.floor(chars.length / 3), Math.floor((2 * chars.length) / 3)];
  const parts = [chars.slice(0, cut[0]), chars.slice(cut[0], cut[1]), chars.slice(cut[1])].map((p) => p.join(''));
  const players = [2, 7, 11];
  return [2, 0, 1].map((i) => ({ player: players[i], seed: parts[i] }));
}

const epoch = (serverSeed, rounds) => ({ commit: sha256hex(serverSeed), serverSeed, rounds });

/**
 * One proof per seed system: { id, title, doc } with every round matching.
 *   shoe        seed 000: free rounds of one shoe seed (every card and the cut)
 *   tournament  seed 000: hands of one tournament seed
 *   dice        seed 001: a dice game, one die rolled in Telegram (skipped)
 *   selfpoker   seed 002: an archive of hands, one epoch (seed) per hand
 *   table       seed 003: poker hands with seats, and cursor.int numbers
 *   ladder      seed 004: Deal or No Deal rounds
 */
export function systemProofs(vectors = loadVectors()) {
  const out = [];
  const [shoe] = bySeed(vectors, 'shoe.deal');
  out.push({ id: 'shoe', title: 'Blackjack-Schuh', doc: { proof: 1, title: 'Blackjack-Schuh', epochs: [epoch(shoe[0].input.serverSeed, shoe.map((t) => round(t.input, t.expected)))] } });
  const [tour] = bySeed(vectors, 'shoe.tournament');
  out.push({ id: 'tournament', title: 'Turnier', doc: { proof: 1, title: 'Turnier', epochs: [epoch(tour[0].input.serverSeed, tour.map((t) => round(t.input, { cards: t.expected.cards.slice(0, 15) })))] } });
  const [dice] = bySeed(vectors, 'dice.roll');
  const diceRounds = dice.map((t) => round(t.input, t.expected));
  // A Telegram roll: its face is not the seed's (any face will do); it is skipped, never compared.
  const tg = { ...diceRounds[0], n: 999999, external: 'telegram', observed: { face: 1 } };
  out.push({ id: 'dice', title: 'Würfelspiel', doc: { proof: 1, title: 'Würfelspiel', epochs: [epoch(dice[0].input.serverSeed, [...diceRounds, tg])] } });
  const decks = vectors.filter((t) => t.input.op === 'selfpoker.deck').slice(0, 4);
  out.push({
    id: 'selfpoker',
    title: 'Pokerni-Hände',
    doc: { proof: 1, title: 'Pokerni-Hände', epochs: decks.map((t) => ({ commit: sha256hex(`selfpoker:${t.input.seed}`), seed: t.input.seed, rounds: [{ op: 'selfpoker.deck', observed: { deck: t.expected.deck.slice(0, 9) } }] })) },
  });
  const [poker] = bySeed(vectors, 'poker.deal');
  const ints = vectors.filter((t) => t.input.op === 'cursor.int' && t.input.serverSeed === poker[0].input.serverSeed).slice(0, 4);
  const tableRounds = [
    ...poker.map((t) => {
      const { clientSeed, ...input } = t.input;
      return round(input, t.expected, { seats: seatsFor(clientSeed) });
    }),
    ...ints.map((t) => round(t.input, t.expected)),
  ];
  out.push({ id: 'table', title: 'Casino-Tisch', doc: { proof: 1, title: 'Casino-Tisch', epochs: [epoch(poker[0].input.serverSeed, tableRounds)] } });
  const [ladder] = bySeed(vectors, 'ladder.shuffle');
  out.push({ id: 'ladder', title: 'Deal or No Deal', doc: { proof: 1, title: 'Deal or No Deal', epochs: [epoch(ladder[0].input.serverSeed, ladder.map((t) => round(t.input, t.expected)))] } });
  return out.map((p) => ({ ...p, text: stringifyJson(p.doc) }));
}

/** The shoe proof with card `index` of round `r` changed to another card: { text, round, index, derived, observed }. */
export function tamperedShoe(vectors = loadVectors(), { r = 0, index = 17 } = {}) {
  const shoe = systemProofs(vectors).find((p) => p.id === 'shoe');
  const doc = structuredClone(shoe.doc);
  const cards = doc.epochs[0].rounds[r].observed.cards;
  const derived = cards[index];
  const observed = cards.find((c) => c !== derived);
  cards[index] = observed;
  return { text: stringifyJson(doc), doc, round: r, index, derived, observed };
}

/** base64url of the UTF-8 text, without padding: the `#proof=` fragment's value. */
export const base64url = (text) => Buffer.from(text, 'utf8').toString('base64url');
