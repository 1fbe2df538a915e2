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
//   bins; computed by the same float operations in the same order, so equal
//   to the bit. They are formulas of a few lines; a generated table of the
//   ladder's marginals alone would be 90,000 numbers;
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
const TESTED = new Set(['shoe.deal', 'shoe.tournament', 'dice.roll', 'selfpoker.deck', 'cursor.float', 'ladder.shuffle', 'cursor.shuffle', 'poker.deal', 'cursor.int']);

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
      return null;
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
    default: return [1, 16]; // cursor.float
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
    default: {
      // cursor.int and cursor.float: one bin, followed along nonces of one client seed and cursor.
      const bin = op === 'cursor.int' ? intBin(ok.value, key.a) : Math.min(Math.floor(num(ok.float) * 16), 15);
      cells.push(0, bin);
      return step(typeof req.clientSeed === 'string' ? `${int(req, 'cursor')} ${req.clientSeed}` : null, int(req, 'nonce'), bin);
    }
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
