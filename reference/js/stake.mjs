// `stake` scheme: Stake's published provably-fair games, one byte stream for
// all of them. Written from Stake's own pages, not from the Rust code (this
// is the second implementation the harness holds against src/schemes/stake/):
//
//   implementation  https://stake.com/provably-fair/implementation
//                   (transcribed at https://help.shuffle.com/en/articles/9286058-provably-fair-implementation):
//                   bytes of HMAC_SHA256(serverSeed, `${clientSeed}:${nonce}:${round}`),
//                   round = 0, 1, 2 … (cursor / 32), 32 bytes each, in order.
//   conversions     https://stake.com/hi/provably-fair/conversions: each 4
//                   bytes are one float Σ b_i / 256^(i+1); games that cannot
//                   repeat an outcome (Keno, Mines, Video Poker) draw from
//                   what is left ("Shuffle of Game Events").
//   game events     https://stake.us/provably-fair/game-events: one mapping
//                   per game, quoted beside each function below.
//   crash           Stake's seeding event, https://bitcointalksearch.org/topic/stakecom-crash-seeding-event-5162888/2-page.html
//
// Every game starts at cursor 0 of its (serverSeed, clientSeed, nonce).
// Where the sources leave a choice (Limbo's formula, baccarat's first four
// cards), the reading is the project's canonical one as docs/schemes.md and the
// vectors' notes name it; the other reading stays here under its name.

import { PLINKO, WHEEL } from './generated/stake-tables.mjs';
import { SERVER_SEED_COMMITMENT, SEEDED } from './cursor.mjs';
import { ProvablyError } from './errors.mjs';
import { TWO_32, intField, none, num, pickLaw, pooled, small, tables, uniform } from './stats/laws.mjs';
import { hex64 as hex64Field, int, intOf, text, word } from './validate.mjs';

/** Stake's CARDS index, ♦2 … ♣A (cards.mjs STAKE reads it as rank and suit). */
export const CARD_COUNT = 52;
/** "// Index of 0 to 6 : green to blue" (game events, Diamonds). */
export const GEMS = Object.freeze(['green', 'purple', 'yellow', 'red', 'cyan', 'orange', 'blue']);

/**
 * The first `count` floats of the stream. The conversions page sums
 * value / 256 ** (i + 1) left to right over each 4-byte chunk; every partial
 * sum has at most 32 significant bits, so the sum is exact in binary64.
 */
export async function floats(p, serverSeed, clientSeed, nonce, count) {
  const macs = p.macs(serverSeed, `${clientSeed}:${nonce}:`, 0, Math.ceil((count * 4) / 32));
  const out = [];
  let block = new Uint8Array(0);
  let pos = 0;
  while (out.length < count) {
    let f = 0;
    for (let i = 0; i < 4; i++) {
      if (pos === block.length) {
        block = await macs.next();
        pos = 0;
      }
      f += block[pos++] / 256 ** (i + 1);
    }
    out.push(f);
  }
  return out;
}

/**
 * Selection without replacement, as the conversions page describes it: each
 * float is multiplied by the number of outcomes still possible and picks
 * from what is left, in its original order (the game-events page: "Once a
 * hit has been placed, it cannot be chosen again … subtracting the size of
 * possible maximum outcomes by 1 for each iteration").
 */
export function drawWithout(fs, pool) {
  const left = [...pool];
  return fs.map((f) => left.splice(Math.floor(f * left.length), 1)[0]);
}

// ---------------------------------------------------------------------------
// Payout tables: the multipliers Stake's game screens print per bucket or
// segment; data, not mappings, and not on the provably-fair pages. Plinko's
// 16-row tables are transcribed at https://stakebonushub.com/originals/plinko/
// (the 8-, 12- and 16-row ones agree with the Stake calculators in public
// code); the other rows and the wheel's tables are as the game screens show
// them, found on no page of the search corpus (Stake's own blog,
// https://stake.com/fi/blog/how-to-play-wheel-on-stake, gives the high-risk
// wheel's 9.9× and 49.5×). Every table returns 99 %, Stake's stated edge of
// 1 %, which the tests check. They are kept once, in the Rust tables
// (src/schemes/stake/tables.rs): `provably vectors` writes every cell into
// generated/stake-tables.mjs, which this module re-exports.
export { PLINKO, WHEEL };

// ---------------------------------------------------------------------------
// The games (game events page, https://stake.us/provably-fair/game-events)

/** Dice: "a roll spread of 00.00 to 100.00, with 10,001 possible outcomes": ⌊float · 10001⌋ / 100. */
export const diceRoll = (f) => Math.floor(f * 10001) / 100;

/**
 * Limbo has two published readings (docs/schemes.md, "Stake: readings"):
 *   docs   the game-events page's code with houseEdge 0.99:
 *            floatPoint = 1e8 / (float * 1e8) * houseEdge
 *            crashPoint = Math.floor(floatPoint * 100) / 100
 *            result = Math.max(crashPoint, 1)
 *          (a float of 0, one in 2^32, divides by zero there: Infinity);
 *   client Stake's client code, as the `fair` crate copies it:
 *            1e8 / (⌊float · 1e8⌋ + 1) · 0.99, two decimals, here clamped at 1.
 * The canonical reading of this project is the client's (the vectors'
 * ReadingDocs flag marks where the docs' one parts from it); it is also the
 * one without a division by zero.
 */
export function limboMultiplier(f) {
  const m = (1e8 / (Math.floor(f * 1e8) + 1)) * 0.99;
  return Math.max(Math.floor(m * 100) / 100, 1);
}

/** Limbo by the docs' snippet, written as the page writes it (1e8 / (float · 1e8) is not 1 / float for every float). */
export function limboDocs(f) {
  if (f === 0) throw new ProvablyError('invalid', 'limbo: the float is 0, the published formula divides by zero');
  const floatPoint = (1e8 / (f * 1e8)) * 0.99;
  return Math.max(Math.floor(floatPoint * 100) / 100, 1);
}

/** Plinko: "multiplying each float by 2 … const DIRECTIONS = [ left, right ]", one float per row. */
export function plinko(fs, risk) {
  const path = fs.map((f) => Math.floor(f * 2));
  const bucket = path.reduce((a, b) => a + b, 0);
  return { path, bucket, multiplier: PLINKO[risk][fs.length][bucket] };
}

/** Roulette: "37 possible outcomes … Math.floor(float * 37)", pockets 0 … 36. */
export const roulettePocket = (f) => Math.floor(f * 37);

/** Wheel: Math.floor(float * segments); the risk and the segment count pick the payout table. */
export function wheel(f, segments, risk) {
  const segment = Math.floor(f * segments);
  return { segment, multiplier: WHEEL[risk][segments][segment] };
}

const SQUARES = Array.from({ length: 40 }, (_, i) => i + 1);
const TILES = Array.from({ length: 25 }, (_, i) => i);
const DECK = Array.from({ length: CARD_COUNT }, (_, i) => i);

/** A card of the CARDS index: "CARDS[Math.floor(float * 52)]", with replacement (unlimited decks). */
export const card = (f) => Math.floor(f * CARD_COUNT);

/** Baccarat's point value of a CARDS card: 2 … 9 count, tens and faces 0, the ace 1. */
export function baccaratPoints(c) {
  const value = Math.floor(c / 4); // 0 = two … 8 = ten, 9 = J, 10 = Q, 11 = K, 12 = ace
  if (value === 12) return 1;
  return value <= 7 ? value + 2 : 0;
}

/** Baccarat's total of a hand: its points mod 10. */
export const baccaratTotal = (hand) => hand.reduce((s, c) => s + baccaratPoints(c), 0) % 10;
const total = baccaratTotal;

/** Whether the banker draws a third card, by the banker's total and the player's third card (null: the player stood). */
function bankerDraws(banker, playerThird) {
  if (playerThird === null) return banker <= 5;
  const p = baccaratPoints(playerThird);
  if (banker <= 2) return true;
  if (banker === 3) return p !== 8;
  if (banker === 4) return p >= 2 && p <= 7;
  if (banker === 5) return p >= 4 && p <= 7;
  if (banker === 6) return p === 6 || p === 7;
  return false;
}

/**
 * Baccarat, six cards ("we only ever need 6 game events"), by the table's
 * tableau: no third card on a natural 8 or 9; the player draws on 0 … 5; the
 * banker by the tableau; each third card is the next card not dealt yet.
 * Which of the first four cards are the player's no Stake page says. A
 * table alternates (player, banker, player, banker: `alternate`); Stake's
 * client code, as the `fair` crate 0.0.13 transcribes it (docs/schemes.md,
 * Stake), gives the player cards 1 and 2 and the banker cards 3 and 4, the
 * canonical reading and this function's default.
 */
export function baccarat(cards, { alternate = false } = {}) {
  const player = alternate ? [cards[0], cards[2]] : [cards[0], cards[1]];
  const banker = alternate ? [cards[1], cards[3]] : [cards[2], cards[3]];
  let next = 4;
  const natural = total(player) >= 8 || total(banker) >= 8;
  if (!natural) {
    let playerThird = null;
    if (total(player) <= 5) {
      playerThird = cards[next++];
      player.push(playerThird);
    }
    if (bankerDraws(total(banker), playerThird)) banker.push(cards[next++]);
  }
  const p = total(player);
  const b = total(banker);
  return { cards, player, banker, winner: p > b ? 'player' : b > p ? 'banker' : 'tie' };
}

// ---------------------------------------------------------------------------
// Crash (its own hash chain, not the byte stream)

/**
 * The seeding event's formula: HMAC_SHA256(key = the game's hash as text,
 * message = the salt), its first 8 hex digits as int, then
 * Math.max(1, 2 ** 32 / (int + 1) * (1 - 0.01)); shown, like every Stake
 * multiplier, rounded down to two decimals.
 */
export async function crashPoint(p, hash, salt) {
  const mac = await p.hmac(hash, salt);
  return crashOfWord(((mac[0] << 24) >>> 0) + (mac[1] << 16) + (mac[2] << 8) + mac[3]);
}

/** The crash point of a game's word (its first 8 hex digits as int). */
export function crashOfWord(value) {
  const raw = Math.max(1, (2 ** 32 / (value + 1)) * (1 - 0.01));
  return Math.floor(raw * 100) / 100;
}

/**
 * Steps from `hash` to `terminatingHash`: "each hash is the hash of the
 * hexadecimal representation of the previous hash", so the chain is
 * followed forwards with SHA-256 of the lowercase hex text.
 */
export async function chainDistance(p, hash, terminatingHash, limit) {
  let h = hash;
  for (let d = 0; d <= limit; d++) {
    if (h === terminatingHash) return d;
    if (d < limit) h = await p.sha256Hex(h);
  }
  // A well-formed request whose search ran out, like dice's 16 rounds: exhausted, not invalid.
  throw new ProvablyError('exhausted', `the terminating hash is not within ${limit} SHA-256 steps of the hash`);
}

// ---------------------------------------------------------------------------

// The protocol schema gives risk as one of its words, the hashes as 64
// lowercase hex and segments as one of the wheel's counts (validate.mjs's
// word, hex64 and intOf, read with the request).
const RISKS = ['low', 'medium', 'high'];
export const SEGMENTS = [10, 20, 30, 40, 50];
const F = (count) => (p, f) => floats(p, f.serverSeed, f.clientSeed, f.nonce, count);

// ---------------------------------------------------------------------------
// Statistics (src/schemes/stake/stats.rs): every game event is ⌊f·m⌋ of a
// float f = u/2³², u uniform on 32 bits, so its exact law is ⌊f·m⌋'s word
// counts over 2³² (stats/laws.mjs pickLaw, pooled). Limbo's and Crash's
// multipliers are non-increasing functions of their word, so the words that
// reach a multiplier of at least x are a prefix [0, U), U found by bisection
// on the game's own function. The draws without replacement are tested on
// their picks (the rank of the drawn item among those left, ⌊f·(n−i)⌋),
// exactly known and independent of the other draws.

/** The cells of a multiplier: [1, 1.05), [1.05, 1.1), …, [25, ∞). */
export const THRESHOLDS = [1.05, 1.1, 1.2, 1.35, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0, 25.0];
/** Plinko's edge buckets are pooled until each side holds this much. */
const PLINKO_TAIL = 0.01;
const BINS = 16;

/** The bin of dice's k = roll·100 in 0 … 10000 (integer division: k·16 < 2⁵³). */
const diceBin = (k) => Math.floor((k * BINS) / 10001);

/** How many words reach at least `x` under `game`, which does not increase with its word: bisection. */
export function wordsReaching(x, game) {
  let lo = 0;
  let hi = TWO_32;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (game(mid) >= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A multiplier's exact cell law under `game`. */
export function multiplierLaw(game) {
  const reach = [TWO_32, ...THRESHOLDS.map((x) => wordsReaching(x, game)), 0];
  return reach.slice(1).map((r, j) => (reach[j] - r) / TWO_32);
}

/** How many thresholds a multiplier reaches. */
const multiplierCell = (m) => THRESHOLDS.filter((x) => m >= x).length;

/** Limbo's multiplier of a word u (f = u/2³²), canonical reading. */
export const limboOf = (u) => limboMultiplier(u / TWO_32);

/** C(n, k) for n ≤ 16, as the Rust folds it (every partial product divides exactly). */
function binomial(n, k) {
  let acc = 1;
  for (let i = 0; i < k; i++) acc = (acc * (n - i)) / (i + 1);
  return acc;
}

/** The smallest bucket `lo` with P(bucket ≤ lo) ≥ 1 %: the edges below it (and above rows − lo) are pooled into it. */
export function plinkoLow(rows) {
  const all = 2 ** rows;
  let below = 0;
  for (let b = 0; b <= rows; b++) {
    below += binomial(rows, b);
    if (below / all >= PLINKO_TAIL) return b;
  }
  return 0;
}

const plinkoCell = (bucket, rows) => {
  const lo = plinkoLow(rows);
  return Math.min(Math.max(bucket, lo), rows - lo) - lo;
};

/** Plinko's pooled bucket law: each of the rows is the float's top bit, one half. */
export function plinkoLaw(rows) {
  const words = new Array(rows - 2 * plinkoLow(rows) + 1).fill(0);
  for (let b = 0; b <= rows; b++) words[plinkoCell(b, rows)] += binomial(rows, b);
  return words.map((w) => w / 2 ** rows);
}

const WINNERS = ['player', 'banker', 'tie'];
let baccaratCache = null;

/** The winner's exact law (player, banker, tie) over every value of the 6 cards, in lexicographic order (a million coups: once). */
export function baccaratLaw() {
  if (baccaratCache) return [...baccaratCache];
  const values = pooled(CARD_COUNT, 10, baccaratPoints);
  // A card of each baccarat value: 0 a ten, 1 an ace, 2 … 9 their pips.
  const cardOf = (v) => (v === 0 ? 32 : v === 1 ? 48 : 4 * (v - 2));
  const law = [0, 0, 0];
  const digits = [0, 0, 0, 0, 0, 0];
  const cards = [0, 0, 0, 0, 0, 0];
  for (let code = 0; code < 1000000; code++) {
    let rest = code;
    for (let d = 5; d >= 0; d--) {
      digits[d] = rest % 10;
      rest = Math.floor(rest / 10);
    }
    let p = 1;
    for (let d = 0; d < 6; d++) {
      p *= values[digits[d]];
      cards[d] = cardOf(digits[d]);
    }
    law[WINNERS.indexOf(baccarat(cards).winner)] += p;
  }
  baccaratCache = law;
  return [...law];
}

/**
 * The serial step of a bet: its one value along the nonces of its client
 * seed (undefined: none; Crash has no client seed, a chain, not nonces).
 */
function betStep(req, value) {
  if (value === null || typeof req.clientSeed !== 'string') return undefined;
  const index = intField(req, 'nonce');
  return index === null ? null : { stream: req.clientSeed, index, value };
}

const ONE = () => ({ a: 0 });

/**
 * A game with one test on one value of its outcome (`read(key, ok)`: the
 * value's cell, or null), followed along the nonces when `serial`.
 */
const oneCell = ({ family = ONE, params = () => '', name, law, cells, read, serial = true }) => tables({
  family,
  shape: (key) => [1, cells(key)],
  layout: (key) => {
    const p = law(key);
    return { params: params(key), tests: [[name(key), p]], serial: serial ? [...p] : null };
  },
  sample: (key, req, ok, out) => {
    const value = read(key, ok);
    if (value === null) return null;
    out.push(0, value);
    return betStep(req, value);
  },
});

/** A number of the outcome, or null. */
const numberOf = (v) => {
  const x = num(v);
  return typeof x === 'number' ? x : null;
};
const cellOf = (v, cell) => (v === null ? null : cell(v));

const FLOATS = oneCell({
  name: () => 'first float in sixteenths',
  law: () => uniform(16),
  cells: () => 16,
  read: (_, ok) => cellOf(numberOf(ok.floats?.[0]), (f) => Math.min(Math.floor(f * 16), 15)),
});

const DICE = oneCell({
  name: () => 'roll in 16 bins ⌊k·16/10001⌋ of k = roll·100',
  law: () => pooled(10001, 16, diceBin),
  cells: () => 16,
  read: (_, ok) => cellOf(numberOf(ok.roll), (roll) => diceBin(Math.min(Math.max(Math.round(roll * 100), 0), 10000))),
});

const LIMBO = oneCell({
  name: () => 'multiplier in cells from 1.05 to 25',
  law: () => multiplierLaw(limboOf),
  cells: () => THRESHOLDS.length + 1,
  read: (_, ok) => cellOf(numberOf(ok.multiplier), multiplierCell),
});

const CRASH = oneCell({
  name: () => 'crash point in cells from 1.05 to 25',
  law: () => multiplierLaw(crashOfWord),
  cells: () => THRESHOLDS.length + 1,
  read: (_, ok) => cellOf(numberOf(ok.crashPoint), multiplierCell),
  serial: false,
});

const PLINKO_STATS = oneCell({
  family: (req) => ({ a: intField(req, 'rows') }),
  params: ({ a }) => `rows=${a}`,
  name: ({ a }) => `bucket, edges pooled below ${plinkoLow(a)}`,
  law: ({ a }) => plinkoLaw(a),
  cells: ({ a }) => a - 2 * plinkoLow(a) + 1,
  read: ({ a }, ok) => {
    const bucket = num(ok.bucket);
    return Number.isInteger(bucket) && bucket >= 0 ? plinkoCell(bucket, a) : null;
  },
});

const ROULETTE = oneCell({ name: () => 'pocket', law: () => pickLaw(37), cells: () => 37, read: (_, ok) => small(ok.pocket) });

const WHEEL_STATS = oneCell({
  family: (req) => ({ a: intField(req, 'segments') }),
  params: ({ a }) => `segments=${a}`,
  name: () => 'segment',
  law: ({ a }) => pickLaw(a),
  cells: ({ a }) => a,
  read: (_, ok) => small(ok.segment),
});

/** Cards with replacement: rank and suit at each of `n` positions (baccarat: and its winner), serial on the first card's rank. */
function cardsStats(n, { winner = false } = {}) {
  const tests = 2 * n + (winner ? 1 : 0);
  return tables({
    family: ONE,
    shape: () => [tests, 13],
    layout: () => {
      const rank = pooled(CARD_COUNT, 13, (c) => Math.floor(c / 4));
      const suit = pooled(CARD_COUNT, 4, (c) => c % 4);
      const list = [];
      for (let p = 0; p < n; p++) list.push([`rank at position ${p}`, [...rank]]);
      for (let p = 0; p < n; p++) list.push([`suit at position ${p}`, [...suit]]);
      if (winner) list.push(['winner: player, banker, tie', baccaratLaw()]);
      return { params: '', tests: list, serial: winner ? null : rank };
    },
    sample: (_, req, ok, out) => {
      const cards = ok.cards;
      if (!Array.isArray(cards)) return null;
      const dealt = cards.length;
      for (let p = 0; p < dealt; p++) {
        const c = small(cards[p]);
        if (c === null) return null;
        out.push(p, Math.floor(c / 4), dealt + p, c % 4);
      }
      if (winner) {
        if (typeof ok.winner !== 'string') return null;
        const w = WINNERS.indexOf(ok.winner);
        out.push(2 * n, w < 0 ? 2 : w); // anything but player or banker is the tie's cell
      }
      if (dealt === 0) return null;
      return betStep(req, Math.floor(small(cards[0]) / 4));
    },
  });
}

const DIAMONDS = tables({
  family: ONE,
  shape: () => [5, GEMS.length],
  layout: () => ({ params: '', tests: Array.from({ length: 5 }, (_, p) => [`gem at position ${p}`, pickLaw(GEMS.length)]), serial: null }),
  sample: (_, req, ok, out) => {
    const gems = ok.gems;
    if (!Array.isArray(gems)) return null;
    for (let p = 0; p < gems.length; p++) {
      const gem = GEMS.indexOf(gems[p]);
      if (gem < 0) return null;
      out.push(p, gem);
    }
    return undefined;
  },
});

/**
 * Draws without replacement of `draws(key)` items out of `items`, read from
 * the outcome's `field` (numbered from `first`): the pick at each draw.
 */
function drawStats({ items, draws, field, first = 0, family = ONE, params = () => '' }) {
  return tables({
    family,
    shape: (key) => [draws(key), items],
    layout: (key) => ({ params: params(key), tests: Array.from({ length: draws(key) }, (_, i) => [`pick at draw ${i} (of ${items - i})`, pickLaw(items - i)]), serial: null }),
    sample: (key, req, ok, out) => {
      const list = ok[field];
      if (!Array.isArray(list)) return null;
      const drawn = [];
      for (let i = 0; i < Math.min(list.length, draws(key)); i++) {
        const v = small(list[i]);
        if (v === null || v < first || v - first >= items) return null;
        const item = v - first;
        const earlier = drawn.filter((d) => d < item).length;
        drawn.push(item);
        out.push(i, item - earlier);
      }
      return undefined;
    },
  });
}

const KENO = drawStats({ items: SQUARES.length, draws: () => 10, field: 'hits', first: 1 });
const MINES = drawStats({ items: TILES.length, draws: ({ a }) => a, field: 'mines', family: (req) => ({ a: intField(req, 'mines') }), params: ({ a }) => `mines=${a}` });
const VIDEOPOKER = drawStats({ items: DECK.length, draws: () => 10, field: 'cards' });

// ---------------------------------------------------------------------------
// What the page calls each game (Stake's own names; `short` in the Stake
// panel) and its statistics' tests, in a player's German.

const rule = (re, text) => [re, typeof text === 'function' ? text : () => text];
const pickRule = (draw, from) => rule(/^pick at draw (\d+) \(of (\d+)\)$/, (m, w) => `${w.nth(Number(m[1]))} ${draw} (${from(w.formatInt(m[2]))})`);
const game = (short, view, tests = []) => ({ name: `Stake ${short}`, short, view, tests });

// ---------------------------------------------------------------------------

/** A bet: a game of a seed pair's nonce sequence (bet histories, docs/proofs.md). */
function bet(fields, run, stats, page) {
  return { fields: { ...SEEDED, ...fields }, run, bet: true, stats, page };
}

export const SCHEME = {
  id: 'stake',
  commitment: SERVER_SEED_COMMITMENT,
  // Its panels and how a round is drawn: web/stake.mjs.
  views: 'stake.mjs',
  ops: {
    'stake.floats': {
      fields: { ...SEEDED, count: int(1, 1024) },
      run: async (p, f) => ({ floats: await F(f.count)(p, f) }),
      // A bet's bytes, not a bet: the nonce is the pair's, but no game was played.
      stats: FLOATS,
      page: { name: 'Stake-Kommazahlen', steps: 'Wetten', tests: [rule(/^first float in sixteenths$/, 'Erste Kommazahl, in 16 gleich großen Bereichen')] },
    },
    'stake.dice': bet({}, async (p, f) => ({ roll: diceRoll((await F(1)(p, f))[0]) }), DICE,
      game('Dice', 'stake', [rule(/^roll in 16 bins/, 'Würfelergebnis, in 16 Bereichen von 0 bis 100')])),
    'stake.limbo': bet({}, async (p, f) => ({ multiplier: limboMultiplier((await F(1)(p, f))[0]) }), LIMBO,
      game('Limbo', 'stake', [rule(/^multiplier in cells from/, 'Limbo-Multiplikator, in Stufen von 1,05 bis 25')])),
    'stake.plinko': bet({ rows: int(8, 16), risk: word(RISKS) }, async (p, f) => plinko(await F(f.rows)(p, f), f.risk), PLINKO_STATS,
      game('Plinko', 'stake', [rule(/^bucket, edges pooled/, 'Plinko-Fach (die seltenen Randfächer zusammengefasst)')])),
    'stake.roulette': bet({}, async (p, f) => ({ pocket: roulettePocket((await F(1)(p, f))[0]) }), ROULETTE,
      game('Roulette', 'stake', [rule(/^pocket$/, 'Roulette-Fach')])),
    'stake.wheel': bet({ segments: intOf(SEGMENTS), risk: word(RISKS) }, async (p, f) => {
      return wheel((await F(1)(p, f))[0], f.segments, f.risk);
    }, WHEEL_STATS, game('Wheel', 'stake', [rule(/^segment$/, 'Rad-Segment')])),
    'stake.keno': bet({}, async (p, f) => ({ hits: drawWithout(await F(10)(p, f), SQUARES) }), KENO,
      game('Keno', 'stake', [pickRule('Keno-Zug', (n) => `eines von ${n} freien Feldern`)])),
    'stake.mines': bet({ mines: int(1, 24) }, async (p, f) => ({ mines: drawWithout(await F(f.mines)(p, f), TILES) }), MINES,
      game('Mines', 'stake', [pickRule('Minen-Zug', (n) => `eines von ${n} freien Feldern`)])),
    'stake.hilo': bet({}, async (p, f) => ({ cards: (await F(52)(p, f)).map(card) }), cardsStats(52), game('Hilo', 'stake')),
    'stake.blackjack': bet({}, async (p, f) => ({ cards: (await F(52)(p, f)).map(card) }), cardsStats(52), game('Blackjack', 'stake')),
    'stake.baccarat': bet({}, async (p, f) => baccarat((await F(6)(p, f)).map(card)), cardsStats(6, { winner: true }),
      game('Baccarat', 'stake', [rule(/^winner: player, banker, tie$/, 'Baccarat-Gewinner: Spieler, Bank oder Unentschieden')])),
    'stake.videopoker': bet({}, async (p, f) => ({ cards: drawWithout(await F(52)(p, f), DECK) }), VIDEOPOKER,
      game('Video Poker', 'stake', [pickRule('Kartenzug', (n) => `eine von ${n} übrigen Karten`)])),
    'stake.diamonds': bet({}, async (p, f) => ({ gems: (await F(5)(p, f)).map((x) => GEMS[Math.floor(x * 7)]) }), DIAMONDS,
      game('Diamonds', 'stake', [rule(/^gem at position (\d+)$/, (m, w) => `${w.nth(Number(m[1]))} Edelstein`)])),
    'stake.crash': {
      fields: { hash: hex64Field(), salt: text() },
      run: async (p, f) => ({ crashPoint: await crashPoint(p, f.hash, f.salt) }),
      stats: CRASH,
      page: game('Crash', 'crash', [rule(/^crash point in cells from/, 'Crash-Punkt, in Stufen von 1,05 bis 25')]),
    },
    'stake.crash.chain': {
      fields: { hash: hex64Field(), terminatingHash: hex64Field(), limit: int(1, 10_000_000) },
      run: async (p, f) => ({ distance: await chainDistance(p, f.hash, f.terminatingHash, f.limit) }),
      stats: none('a distance along the hash chain, not the outcome of a game'),
      page: { name: 'Stake Crash-Kette' },
    },
  },
};
