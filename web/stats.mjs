// The statistics of a whole proof on the page: the tests of `provably
// audit --stats` (src/stats/, docs/statistics.md) over the rounds the
// check has already derived (no second HMAC), so that a player sees on the
// page what the audit reports: seed grinding, the one attack byte equality
// cannot see.
//
//   const s = statisticsOf(checked.epochs);   // in the worker, after checkProof
//   s.alarm, s.tests[i].pValue                  // the keys of the report's `statistics`
//
// Everything here is the Rust side's, written again for the browser and held
// equal to it by web/test/stats.test.mjs (every test's statistic, df and
// p-value, the alarm, on honest and ground archives built with `provably
// serve`):
// * families and tests per op and configuration as src/stats/model.rs lays
//   them out, in the same order (families by op, then parameters; tests in
//   layout order), with the same names;
// * the exact cell probabilities: uniform where the certificate says so,
//   the cut card's clamped distribution, the ladder's ⌊r·(i+1)⌋ counts
//   carried through its shuffle (src/stats/certify.rs), `cursor.int`'s exact
//   bins, and every `stake.*` game's law (src/stats/stake.rs: ⌊f·m⌋'s word
//   counts, Limbo's and Crash's multipliers bisected on the games' own
//   functions, Plinko's pooled binomial, the baccarat winner over every value
//   of its six cards); computed by the same float operations in the same
//   order, so equal to the bit. They are formulas of a few lines; a
//   generated table of the ladder's marginals alone would be 90,000 numbers;
// * Pearson's χ² (only when every cell expects MIN_EXPECTED), the serial
//   pairs, runs and lag-one correlation along nonces, in the same summation
//   order: statistics equal to the bit. The p-values come from the same
//   incomplete-gamma routines; Math.exp and Math.log may differ from the
//   platform's libm in the last bit, so p-values agree to about 1e-13;
// * Holm's step-down correction at the family-wise level (default 10⁻³);
// * serial pairs follow document order within an epoch, as the audit does.
//
// No DOM and no imports: the worker runs it, and node tests import it as it is.

/** The default family-wise level: an honest archive raises the alarm with probability at most 10⁻³. */
export const DEFAULT_LEVEL = 1e-3;
/** A table is tested only when each of its cells expects this many counts. */
export const MIN_EXPECTED = 20;
const MAX_SHUFFLE = 64;
const DICE_INDICES = 16;
const BINS = 16;
const MAX_FAMILIES = 64;
const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
const STAKE_TESTED = ['stake.floats', 'stake.dice', 'stake.limbo', 'stake.plinko', 'stake.roulette', 'stake.wheel', 'stake.keno', 'stake.mines',
  'stake.hilo', 'stake.blackjack', 'stake.baccarat', 'stake.videopoker', 'stake.diamonds', 'stake.crash'];
const TESTED = new Set(['shoe.deal', 'shoe.tournament', 'dice.roll', 'selfpoker.deck', 'cursor.float', 'ladder.shuffle', 'cursor.shuffle', 'poker.deal', 'cursor.int', ...STAKE_TESTED]);

// ---------------------------------------------------------------------------
// The distributions behind the p-values (src/stats/math.rs, line for line)

const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
  12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9). */
export function lnGamma(x) {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  x -= 1;
  let a = LANCZOS[0];
  const t = x + 7 + 0.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

function gammaPSeries(a, x) {
  let sum = 1 / a;
  let term = sum;
  let ap = a;
  for (let i = 0; i < 10000; i++) {
    ap += 1;
    term *= x / ap;
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * 1e-17) break;
  }
  return Math.exp(Math.log(sum) - x + a * Math.log(x) - lnGamma(a));
}

function gammaQFraction(a, x) {
  const TINY = 1e-300;
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
}

/** The regularized upper incomplete gamma Q(a, x). */
export function gammaQ(a, x) {
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - gammaPSeries(a, x) : gammaQFraction(a, x);
}

/** P(χ²_df ≥ x). */
export const chi2Sf = (x, df) => gammaQ(df / 2, x / 2);
/** P(|Z| ≥ |z|) for a standard normal Z. */
export const normalTwoSided = (z) => gammaQ(0.5, (z * z) / 2);

// ---------------------------------------------------------------------------
// Exact cell probabilities (src/stats/certify.rs)

const uniform = (n) => new Array(n).fill(1 / n);

/** How many of the 2^32 words give j = t at ladder step i: ⌈(t+1)2³²/(i+1)⌉ − ⌈t·2³²/(i+1)⌉, over 2³². */
function ladderPick(i) {
  const m = BigInt(i + 1);
  const ceil = (t) => (BigInt(t) * 4294967296n + m - 1n) / m;
  return Array.from({ length: i + 1 }, (_, t) => Number(ceil(t + 1) - ceil(t)) / 4294967296);
}

/** P(order[k] = v) after the ladder's Fisher–Yates: row k, column v (certify::shuffle_marginals). */
export function shuffleMarginals(n, draw = ladderPick) {
  const at = Array.from({ length: n }, (_, v) => Array.from({ length: n }, (_, p) => (p === v ? 1 : 0)));
  for (let i = n - 1; i >= 1; i--) {
    const q = draw(i);
    for (const row of at) {
      const here = row[i];
      let toI = here * q[i];
      for (let j = 0; j < i; j++) {
        toI += row[j] * q[j];
        row[j] = row[j] * (1 - q[j]) + here * q[j];
      }
      row[i] = toI;
    }
  }
  return Array.from({ length: n }, (_, k) => Array.from({ length: n }, (_, v) => at[v][k]));
}

/** The cut card's (base, spread, low, high), as the scheme computes them (Math.round is js_round). */
function cutParameters(decks, penetration) {
  const count = 52 * decks;
  return [Math.round(count * penetration), Math.max(Math.round(count * 0.02), 1), Math.max(Math.round(count * 0.5), 20), count - 15];
}

const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);

/** The smallest and largest cut position. */
function cutSupport(decks, penetration) {
  const [base, spread, low, high] = cutParameters(decks, penetration);
  return [clamp(base - spread, low, high), clamp(base + spread, low, high)];
}

/** The cut card's exact distribution from its smallest position on. */
export function cutProbabilities(decks, penetration) {
  const [base, spread, low, high] = cutParameters(decks, penetration);
  const [lo, hi] = cutSupport(decks, penetration);
  const weights = new Array(hi - lo + 1).fill(0);
  for (let o = -spread; o <= spread; o++) weights[clamp(base + o, low, high) - lo]++;
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

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

// ---------------------------------------------------------------------------
// Stake's games (src/stats/stake.rs): every game event is ⌊f·m⌋ of a float
// f = u/2³², so its law is word counts over 2³², summed as integers (exact
// below 2⁵³ as Numbers) before the one division.

const TWO_32 = 4294967296;
/** The cells of a multiplier: [1, 1.05), [1.05, 1.1), …, [25, ∞). */
export const THRESHOLDS = [1.05, 1.1, 1.2, 1.35, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0, 25.0];
const PLINKO_TAIL = 0.01;
/** Stake's gems by index (src/schemes/stake/mod.rs GEMS). */
const GEMS = ['green', 'purple', 'yellow', 'red', 'cyan', 'orange', 'blue'];

/** How many of the 2³² words give ⌊v·m/2³²⌋ = t, for t in 0 … m−1 (certify::pick_counts at width 32). */
export function pickCounts(m) {
  const big = BigInt(m);
  const ceil = (t) => (BigInt(t) * 4294967296n + big - 1n) / big;
  const out = new Array(m);
  let prev = 0n;
  for (let t = 0; t < m; t++) {
    const next = ceil(t + 1);
    out[t] = Number(next - prev);
    prev = next;
  }
  return out;
}

/** ⌊f·m⌋'s exact law. */
export const pickLaw = (m) => pickCounts(m).map((c) => c / TWO_32);

/** The counts of ⌊f·m⌋ summed into `cells` cells by `cell(value)`, then divided once. */
function pooled(m, cells, cell) {
  const words = new Array(cells).fill(0);
  pickCounts(m).forEach((c, v) => (words[cell(v)] += c));
  return words.map((w) => w / TWO_32);
}

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

const floor2 = (x) => Math.floor(x * 100) / 100;
/** Limbo's multiplier of a word, canonical reading: max(1, floor2(1e8/(⌊f·1e8⌋+1)·0.99)), f = u/2³². */
export function limboOf(u) {
  const f = u / TWO_32;
  return Math.max(floor2((1e8 / (Math.floor(f * 1e8) + 1)) * 0.99), 1);
}
/** Crash's point of a game's word, canonical reading: floor2(max(1, 2³²/(n+1)·0.99)). */
export const crashOf = (n) => floor2(Math.max((TWO_32 / (n + 1)) * 0.99, 1));

/** C(n, k) for n ≤ 16, as the Rust folds it (every partial product divides exactly). */
function binomial(n, k) {
  let acc = 1;
  for (let i = 0; i < k; i++) acc = (acc * (n - i)) / (i + 1);
  return acc;
}

/** The smallest bucket `lo` with P(bucket ≤ lo) ≥ 1 %: the edges below it (and above rows − lo) are pooled into it. */
export function plinkoLow(rows) {
  const total = 2 ** rows;
  let below = 0;
  for (let b = 0; b <= rows; b++) {
    below += binomial(rows, b);
    if (below / total >= PLINKO_TAIL) return b;
  }
  return 0;
}

const plinkoCell = (bucket, rows) => {
  const lo = plinkoLow(rows);
  return clamp(bucket, lo, rows - lo) - lo;
};

/** Plinko's pooled bucket law: each of the rows is the float's top bit, one half. */
export function plinkoLaw(rows) {
  const words = new Array(rows - 2 * plinkoLow(rows) + 1).fill(0);
  for (let b = 0; b <= rows; b++) words[plinkoCell(b, rows)] += binomial(rows, b);
  return words.map((w) => w / 2 ** rows);
}

/** A card's baccarat value: 2 … 9 their pips, tens and faces 0, the ace 1 (card = Stake's index, ♦2 … ♣A). */
function baccaratValue(card) {
  const r = Math.floor(card / 4);
  return r <= 7 ? r + 2 : r === 12 ? 1 : 0;
}
const baccaratTotal = (hand) => hand.reduce((s, c) => s + baccaratValue(c), 0) % 10;
function bankerDraws(banker, third) {
  if (banker <= 2) return true;
  if (banker === 3) return third !== 8;
  if (banker === 4) return third >= 2 && third <= 7;
  if (banker === 5) return third >= 4 && third <= 7;
  if (banker === 6) return third === 6 || third === 7;
  return false;
}
/** The winner's cell (0 player, 1 banker, 2 tie) of six cards: P, P, B, B, then the tableau (src/schemes/stake/mod.rs baccarat). */
function baccaratWinner(cards) {
  const player = [cards[0], cards[1]];
  const banker = [cards[2], cards[3]];
  let next = 4;
  const p0 = baccaratTotal(player);
  const b0 = baccaratTotal(banker);
  if (p0 < 8 && b0 < 8) {
    if (p0 <= 5) {
      const third = cards[next++];
      player.push(third);
      if (bankerDraws(b0, baccaratValue(third))) banker.push(cards[next++]);
    } else if (b0 <= 5) {
      banker.push(cards[next++]);
    }
  }
  const p = baccaratTotal(player);
  const b = baccaratTotal(banker);
  return p > b ? 0 : p < b ? 1 : 2;
}

let baccaratCache = null;
/** The winner's exact law over every value of the 6 cards, in lexicographic order (a million coups: once). */
export function baccaratLaw() {
  if (baccaratCache) return [...baccaratCache];
  const values = pooled(52, 10, baccaratValue);
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
    law[baccaratWinner(cards)] += p;
  }
  baccaratCache = law;
  return [...law];
}

const WINNERS = ['player', 'banker', 'tie'];

/** The draws of a game without replacement: [items, draws]. */
function draws({ op, a }) {
  if (op === 'stake.keno') return [40, 10];
  if (op === 'stake.mines') return [25, a];
  if (op === 'stake.videopoker') return [52, 10];
  return null;
}

function stakeKey(req, key) {
  switch (req.op) {
    case 'stake.plinko': return key(int(req, 'rows'));
    case 'stake.wheel': return key(int(req, 'segments'));
    case 'stake.mines': return key(int(req, 'mines'));
    default: return STAKE_TESTED.includes(req.op) ? key(0) : null;
  }
}

function stakeLayout({ op, a }) {
  const tests = [];
  let label = op;
  let serial;
  switch (op) {
    case 'stake.floats':
      tests.push(['first float in sixteenths', uniform(16)]);
      serial = uniform(16);
      break;
    case 'stake.dice': {
      const p = pooled(10001, 16, diceBin);
      tests.push(['roll in 16 bins ⌊k·16/10001⌋ of k = roll·100', p]);
      serial = [...p];
      break;
    }
    case 'stake.limbo':
    case 'stake.crash': {
      const limbo = op === 'stake.limbo';
      const p = multiplierLaw(limbo ? limboOf : crashOf);
      tests.push([`${limbo ? 'multiplier' : 'crash point'} in cells from 1.05 to 25`, p]);
      serial = limbo ? [...p] : null;
      break;
    }
    case 'stake.plinko': {
      label = `stake.plinko rows=${a}`;
      const p = plinkoLaw(a);
      tests.push([`bucket, edges pooled below ${plinkoLow(a)}`, p]);
      serial = [...p];
      break;
    }
    case 'stake.roulette':
      tests.push(['pocket', pickLaw(37)]);
      serial = pickLaw(37);
      break;
    case 'stake.wheel':
      label = `stake.wheel segments=${a}`;
      tests.push(['segment', pickLaw(a)]);
      serial = pickLaw(a);
      break;
    case 'stake.hilo':
    case 'stake.blackjack':
    case 'stake.baccarat': {
      const rank = pooled(52, 13, (c) => Math.floor(c / 4));
      const suit = pooled(52, 4, (c) => c % 4);
      const n = op === 'stake.baccarat' ? 6 : 52;
      for (let p = 0; p < n; p++) tests.push([`rank at position ${p}`, [...rank]]);
      for (let p = 0; p < n; p++) tests.push([`suit at position ${p}`, [...suit]]);
      if (op === 'stake.baccarat') {
        tests.push(['winner: player, banker, tie', baccaratLaw()]);
        serial = null;
      } else {
        serial = rank;
      }
      break;
    }
    case 'stake.diamonds':
      for (let p = 0; p < 5; p++) tests.push([`gem at position ${p}`, pickLaw(7)]);
      serial = null;
      break;
    default: {
      const [n, k] = draws({ op, a });
      if (op === 'stake.mines') label = `stake.mines mines=${k}`;
      for (let i = 0; i < k; i++) tests.push([`pick at draw ${i} (of ${n - i})`, pickLaw(n - i)]);
      serial = null;
    }
  }
  return { label, tests, serial };
}

function stakeShape({ op, a }) {
  switch (op) {
    case 'stake.floats':
    case 'stake.dice': return [1, 16];
    case 'stake.limbo':
    case 'stake.crash': return [1, THRESHOLDS.length + 1];
    case 'stake.plinko': return [1, a - 2 * plinkoLow(a) + 1];
    case 'stake.roulette': return [1, 37];
    case 'stake.wheel': return [1, a];
    case 'stake.hilo':
    case 'stake.blackjack': return [104, 13];
    case 'stake.baccarat': return [13, 13];
    case 'stake.diamonds': return [5, 7];
    default: {
      const [n, k] = draws({ op, a });
      return [k, n];
    }
  }
}

/** An integer that fits a cell (Rust's as_u64 then u16), else null. */
const small = (v) => {
  const x = num(v);
  return Number.isInteger(x) && x >= 0 && x < 65536 ? x : null;
};

/** A stake round's cells; its serial step (the one value of a bet along the nonces of its client seed), undefined or null. */
function stakeSample(key, req, ok, cells) {
  const { op } = key;
  let value = null;
  switch (op) {
    case 'stake.floats': {
      const f = num(ok.floats?.[0]);
      if (typeof f !== 'number') return null;
      value = Math.min(Math.floor(f * 16), 15);
      cells.push(0, value);
      break;
    }
    case 'stake.dice': {
      const roll = num(ok.roll);
      if (typeof roll !== 'number') return null;
      value = diceBin(Math.min(Math.max(Math.round(roll * 100), 0), 10000));
      cells.push(0, value);
      break;
    }
    case 'stake.limbo':
    case 'stake.crash': {
      const m = num(op === 'stake.limbo' ? ok.multiplier : ok.crashPoint);
      if (typeof m !== 'number') return null;
      value = multiplierCell(m);
      cells.push(0, value);
      break;
    }
    case 'stake.plinko': {
      const bucket = num(ok.bucket);
      if (!Number.isInteger(bucket) || bucket < 0) return null;
      value = plinkoCell(bucket, key.a);
      cells.push(0, value);
      break;
    }
    case 'stake.roulette':
    case 'stake.wheel':
      value = small(op === 'stake.roulette' ? ok.pocket : ok.segment);
      if (value === null) return null;
      cells.push(0, value);
      break;
    case 'stake.hilo':
    case 'stake.blackjack':
    case 'stake.baccarat': {
      const cards = ok.cards;
      if (!Array.isArray(cards)) return null;
      const n = cards.length;
      for (let p = 0; p < n; p++) {
        const c = small(cards[p]);
        if (c === null) return null;
        cells.push(p, Math.floor(c / 4), n + p, c % 4);
      }
      if (op === 'stake.baccarat') {
        if (typeof ok.winner !== 'string') return null;
        const w = WINNERS.indexOf(ok.winner);
        cells.push(12, w < 0 ? 2 : w); // winner_cell: anything but player or banker is the tie's
      }
      if (n === 0) return null;
      value = Math.floor(small(cards[0]) / 4);
      break;
    }
    case 'stake.diamonds': {
      const gems = ok.gems;
      if (!Array.isArray(gems)) return null;
      for (let p = 0; p < gems.length; p++) {
        const gem = GEMS.indexOf(gems[p]);
        if (gem < 0) return null;
        cells.push(p, gem);
      }
      break;
    }
    default: {
      const [n, k] = draws(key);
      const items = op === 'stake.keno' ? ok.hits : op === 'stake.mines' ? ok.mines : ok.cards;
      if (!Array.isArray(items)) return null;
      // The pick of draw i: the item's rank among the items left (keno's squares count from 1).
      const first = op === 'stake.keno' ? 1 : 0;
      const drawn = [];
      for (let i = 0; i < Math.min(items.length, k); i++) {
        const v = small(items[i]);
        if (v === null || v < first || v - first >= n) return null;
        const item = v - first;
        const earlier = drawn.filter((d) => d < item).length;
        drawn.push(item);
        cells.push(i, item - earlier);
      }
    }
  }
  // Crash has no client seed (a chain, not nonces): no step.
  if (value === null || typeof req.clientSeed !== 'string') return undefined;
  const index = int(req, 'nonce');
  return index === null ? null : { stream: req.clientSeed, index, value };
}

// ---------------------------------------------------------------------------
// What each op's outcome is (src/stats/model.rs)

/** A number of a request or an outcome: a Number, a BigInt, or a JsonFloat (json.mjs: { value, text }). */
const num = (v) => (typeof v === 'bigint' ? Number(v) : typeof v?.value === 'number' ? v.value : v);
const int = (req, name) => (typeof req[name] === 'bigint' || Number.isInteger(req[name]) ? Number(req[name]) : null);

/** Rust's Display of an f64: the shortest round-trip digits, never an exponent. */
export function rustFloat(x) {
  const s = String(x);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, rest = '', e] = m;
  const digits = lead + rest;
  const exp = Number(e);
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  return sign + (digits.length > exp + 1 ? `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}` : digits + '0'.repeat(exp + 1 - digits.length));
}

/** The family a round belongs to, { op, a, b, id }, or null. */
function keyOf(req) {
  const { op } = req;
  const key = (a, b = 0) => (a === null || b === null ? null : { op, a, b, id: `${op} ${a} ${b}` });
  const within = (v) => (v !== null && v >= 2 && v <= MAX_SHUFFLE ? key(v) : null);
  switch (op) {
    case 'shoe.deal':
    case 'shoe.tournament': {
      const p = num(req.penetration);
      if (typeof p !== 'number') return null;
      return key(int(req, 'decks'), p);
    }
    case 'dice.roll':
    case 'selfpoker.deck':
    case 'cursor.float':
      return key(0);
    case 'ladder.shuffle':
      return within(int(req, 'size'));
    case 'cursor.shuffle':
      return within(int(req, 'count'));
    case 'poker.deal':
      return key(int(req, 'players'));
    case 'cursor.int': {
      const r = int(req, 'range');
      return r !== null && r >= 2 ? key(r) : null;
    }
    default:
      return stakeKey(req, key);
  }
}

/** Families in the order of the Rust side's BTreeMap<Key>: op, then a, then b (b a penetration: its bits order as its value). */
function compareKeys(x, y) {
  if (x.op !== y.op) return x.op < y.op ? -1 : 1;
  return x.a - y.a || x.b - y.b;
}

/** Rank and suit tests of the named card slots. */
function cardTests(names, rank, suit) {
  return [...names.map((n) => [`${rank} ${n}`, uniform(13)]), ...names.map((n) => [`${suit} ${n}`, uniform(4)])];
}

/** A family's tests ([name, probabilities]), its label and the marginal its serial tests follow (or null). */
export function layout(key) {
  const { op, a } = key;
  switch (op) {
    case 'shoe.deal':
    case 'shoe.tournament': {
      const names = Array.from({ length: 52 * a }, (_, p) => `at position ${p}`);
      const tests = [...cardTests(names, 'rank', 'suit'), ['cut card position', cutProbabilities(a, key.b)]];
      return { label: `${op} decks=${a} penetration=${rustFloat(key.b)}`, tests, serial: uniform(13) };
    }
    case 'dice.roll': {
      const tests = Array.from({ length: DICE_INDICES }, (_, n) => [`face of die n=${n}`, uniform(6)]);
      tests.push(['face over all dice', uniform(6)]);
      return { label: op, tests, serial: uniform(6) };
    }
    case 'ladder.shuffle':
      return { label: `ladder.shuffle size=${a}`, tests: shuffleMarginals(a).map((p, k) => [`entry in case ${k}`, p]), serial: null };
    case 'cursor.shuffle':
      return { label: `cursor.shuffle count=${a}`, tests: Array.from({ length: a }, (_, k) => [`value at position ${k}`, uniform(a)]), serial: null };
    case 'poker.deal': {
      const names = Array.from({ length: a }, (_, i) => [0, 1].map((c) => `of seat ${i} card ${c}`)).flat();
      for (let b = 0; b < 5; b++) names.push(`of board card ${b}`);
      return { label: `poker.deal players=${a}`, tests: cardTests(names, 'rank', 'suit'), serial: uniform(13) };
    }
    case 'selfpoker.deck': {
      const names = Array.from({ length: 52 }, (_, p) => `at position ${p}`);
      return { label: op, tests: cardTests(names, 'value', 'suit'), serial: null };
    }
    case 'cursor.int': {
      const p = intBins(a);
      return { label: `cursor.int range=${a}`, tests: [['value', p]], serial: p };
    }
    case 'cursor.float':
      return { label: op, tests: [['value in sixteenths', uniform(16)]], serial: uniform(16) };
    default:
      if (STAKE_TESTED.includes(op)) return stakeLayout(key);
      throw new Error(`${op} has no statistics`);
  }
}

/** The number of tests and the widest table (a count table's shape). */
function shape({ op, a, b }) {
  switch (op) {
    case 'shoe.deal':
    case 'shoe.tournament': {
      const [lo, hi] = cutSupport(a, b);
      return [2 * 52 * a + 1, Math.max(13, hi - lo + 1)];
    }
    case 'dice.roll': return [DICE_INDICES + 1, 6];
    case 'ladder.shuffle':
    case 'cursor.shuffle': return [a, a];
    case 'poker.deal': return [2 * (2 * a + 5), 13];
    case 'selfpoker.deck': return [104, 13];
    case 'cursor.int': return [1, Math.min(a, BINS)];
    case 'cursor.float': return [1, 16];
    default: return stakeShape({ op, a, b });
  }
}

const cardLabel = (c) => (typeof c === 'string' ? [RANKS.indexOf(c[0]), SUITS.indexOf(c[1])] : [-1, -1]);

/**
 * The cells a round adds ([test, cell] pairs into `cells`) and its serial
 * step { stream, index, value } (undefined: none); null when the outcome is
 * not of the expected shape (a derived outcome always is).
 */
function sample(key, req, ok, cells) {
  const { op } = key;
  const step = (stream, index, value) => (typeof stream === 'string' && index !== null ? { stream, index, value } : null);
  switch (op) {
    case 'shoe.deal':
    case 'shoe.tournament': {
      const cards = ok.cards;
      const n = cards.length;
      for (let p = 0; p < n; p++) {
        const [rank, suit] = cardLabel(cards[p]);
        if (rank < 0 || suit < 0) return null;
        cells.push(p, rank, n + p, suit);
      }
      const offset = num(ok.cut) - cutSupport(key.a, key.b)[0];
      if (!(offset >= 0)) return null;
      cells.push(2 * n, offset);
      return op === 'shoe.deal' ? step(req.clientSeed, int(req, 'nonce'), cells[1]) : step(req.tournamentId, int(req, 'hand'), cells[1]);
    }
    case 'dice.roll': {
      const face = num(ok.face) - 1;
      const n = int(req, 'n');
      if (!(face >= 0 && face < 6) || n === null) return null;
      if (n < DICE_INDICES) cells.push(n, face);
      cells.push(DICE_INDICES, face);
      return step(req.clientSeed, n, face);
    }
    case 'ladder.shuffle':
    case 'cursor.shuffle':
      ok.order.forEach((v, k) => cells.push(k, num(v)));
      return undefined;
    case 'poker.deal': {
      const cards = [...ok.hole.flat(), ...ok.board].map(num);
      cards.forEach((c, s) => cells.push(s, c % 13, cards.length + s, Math.floor(c / 13)));
      return step(req.clientSeed, int(req, 'nonce'), cards[0] % 13);
    }
    case 'selfpoker.deck':
      ok.deck.map(num).forEach((c, p) => cells.push(p, Math.floor(c / 4), 52 + p, c % 4));
      return undefined;
    case 'cursor.int':
    case 'cursor.float': {
      // cursor.int and cursor.float: one bin, followed along nonces of one client seed and cursor.
      const bin = op === 'cursor.int' ? intBin(ok.value, key.a) : Math.min(Math.floor(num(ok.float) * 16), 15);
      cells.push(0, bin);
      return step(typeof req.clientSeed === 'string' ? `${int(req, 'cursor')} ${req.clientSeed}` : null, int(req, 'nonce'), bin);
    }
    default:
      return stakeSample(key, req, ok, cells);
  }
}

// ---------------------------------------------------------------------------
// Counting (src/stats/collect.rs)

/** Count tables of every family seen, filled one derived round at a time in document order. */
export class Collector {
  constructor() {
    this.tables = new Map();
    this.rounds = 0;
    this.untested = 0;
    this.cells = [];
  }

  /** One derived round of epoch `epoch`: its request and its derived `ok` object. */
  add(epoch, req, ok) {
    const key = keyOf(req);
    if (!key) {
      if (TESTED.has(req.op)) this.untested++;
      return;
    }
    let table = this.tables.get(key.id);
    if (!table) {
      if (this.tables.size >= MAX_FAMILIES) {
        this.untested++;
        return;
      }
      const [tests, stride] = shape(key);
      table = { key, tests, stride, counts: new Float64Array(tests * stride), pairs: new Float64Array(stride * stride), rounds: 0, last: null };
      this.tables.set(key.id, table);
    }
    const cells = this.cells;
    cells.length = 0;
    let s;
    try {
      s = sample(key, req, ok, cells);
    } catch {
      s = null; // not the shape a derived outcome has
    }
    if (s === null) return;
    for (let i = 0; i < cells.length; i += 2) table.counts[cells[i] * table.stride + cells[i + 1]]++;
    table.rounds++;
    this.rounds++;
    if (s) {
      const last = table.last;
      if (last && last.epoch === epoch && last.stream === s.stream && last.index + 1 === s.index) table.pairs[last.value * table.stride + s.value]++;
      table.last = { epoch, ...s };
    }
  }
}

// ---------------------------------------------------------------------------
// The tests (src/stats/mod.rs)

/** Pearson's χ² of `counts` against `probs`: [statistic, df, p] or null (too few, or nothing to test). */
export function chiSquare(counts, probs) {
  let n = 0;
  for (const c of counts) n += c;
  let stat = 0;
  let cells = 0;
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i];
    const o = counts[i] ?? 0;
    if (p <= 0) {
      if (o > 0) return [Number.MAX_VALUE, 1, 0]; // an outcome the scheme cannot give
      continue;
    }
    const e = n * p;
    if (e < MIN_EXPECTED) return null;
    stat += ((o - e) * (o - e)) / e;
    cells++;
  }
  const df = cells - 1;
  return df > 0 ? [stat, df, chi2Sf(stat, df)] : null;
}

const sum = (xs) => {
  let s = 0;
  for (const x of xs) s += x;
  return s;
};

function result(family, name, [statistic, df, pValue], counts) {
  return { family, name, distribution: df === null ? 'normal' : 'chi2', statistic, df, pValue, n: sum(counts), threshold: 0, rejected: false };
}

/** The serial tests of one pair table (pairs, runs, lag-one correlation); returns how many could not run. */
function serialTests(family, pairs, stride, marginal, out) {
  const k = marginal.length;
  const at = (a, b) => pairs[a * stride + b];
  const flat = [];
  const expected = [];
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) flat.push(at(a, b)), expected.push(marginal[a] * marginal[b]);
  let notRun = 0;
  const chi = chiSquare(flat, expected);
  if (chi) out.push(result(family, 'serial pairs along nonces', chi, flat));
  else notRun++;
  const moves = [0, 0, 0];
  const probs = [0, 0, 0];
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++) {
      const m = (b <= a ? 1 : 0) + (b < a ? 1 : 0);
      moves[m] += at(a, b);
      probs[m] += marginal[a] * marginal[b];
    }
  }
  const runs = chiSquare(moves, probs);
  if (runs) out.push(result(family, 'runs: up, equal, down along nonces', runs, moves));
  else notRun++;
  let mu = 0;
  marginal.forEach((p, a) => (mu += a * p));
  const n = sum(flat);
  let variance = 0;
  marginal.forEach((p, a) => (variance += (a - mu) * (a - mu) * p)); // powi(2) is one multiplication
  if (n >= 30 && variance > 0) {
    let s = 0;
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) s += (a - mu) * (b - mu) * at(a, b);
    const z = s / (variance * Math.sqrt(n));
    out.push(result(family, 'serial correlation along nonces', [z, null, normalTwoSided(z)], flat));
  } else {
    notRun++;
  }
  return notRun;
}

/** Holm's step-down procedure: each test's threshold α/(m − rank), and whether it is rejected. */
export function holm(tests, level) {
  const order = tests.map((_, i) => i).sort((a, b) => tests[a].pValue - tests[b].pValue);
  const m = tests.length;
  let rejecting = true;
  order.forEach((i, rank) => {
    const threshold = level / (m - rank);
    tests[i].threshold = threshold;
    rejecting = rejecting && tests[i].pValue <= threshold;
    tests[i].rejected = rejecting;
  });
}

/** The tests of a filled collector, corrected at `level`: the report's `statistics` object. */
export function evaluate(collector, level = DEFAULT_LEVEL) {
  const tests = [];
  let notRun = 0;
  const tables = [...collector.tables.values()].sort((x, y) => compareKeys(x.key, y.key));
  for (const table of tables) {
    const { label, tests: list, serial } = layout(table.key);
    list.forEach(([name, probs], t) => {
      const counts = table.counts.subarray(t * table.stride, (t + 1) * table.stride);
      const chi = chiSquare(counts, probs);
      if (chi) tests.push(result(label, name, chi, counts));
      else notRun++;
    });
    if (serial) notRun += serialTests(label, table.pairs, table.stride, serial, tests);
  }
  holm(tests, level);
  return { level, correction: 'holm', alarm: tests.some((t) => t.rejected), rounds: collector.rounds, untested: collector.untested, notRun, tests };
}

/**
 * The statistics of a checked proof (checkProof's `epochs`): every round with
 * a derived outcome counts, matching, mismatching or unobserved (grinding
 * acts on what the seed gives); skipped (`external`) and invalid rounds do not.
 */
export function statisticsOf(epochs, level = DEFAULT_LEVEL) {
  const c = new Collector();
  for (const e of epochs) for (const r of e.rounds) if (r.derived) c.add(e.epoch, r.request, r.derived);
  return evaluate(c, level);
}
