// What an op's outcome is to the statistics, as its declaration says it
// (the JS twin of src/op/stats.rs): each op in a scheme's SCHEME.ops
// declares `stats`, either
//
//   none(reason)        its outcome has nothing to test (a commitment, raw
//                       bytes, no randomness), and why;
//   tables({ family, shape, layout, sample })
//     family(req)       the family { a, b } a round belongs to (its
//                       configuration: decks and penetration, a range, a
//                       row count; unused ones 0), or null for a
//                       configuration that is not tested (counted untested);
//     shape({ a, b })   [tests, cells]: the number of tests and the most
//                       cells of any, without computing probabilities;
//     layout({ a, b })  { params, tests: [[name, probabilities]], serial }:
//                       `params` as the report names them ("rows=16", '' for
//                       an op with one family), every test with the exact
//                       probability of each cell, and the marginal the
//                       serial tests follow (or null);
//     sample({ a, b }, req, ok, cells)
//                       pushes test, cell pairs into `cells` for a derived
//                       `ok` and returns the round's serial step
//                       { stream, index, value } (undefined: none), or null
//                       when `ok` is not of the expected shape.
//
// The registry (provably.mjs) refuses at start-up an op that declares
// neither. The exact laws every scheme builds its cells from (uniform,
// ⌊f·m⌋'s word counts, the shuffle marginals) live here, below the schemes;
// reference/js/stats/ names no op.

/** 2³², the number of 32-bit words. */
export const TWO_32 = 4294967296;
/** Shuffles (ladder.shuffle, cursor.shuffle) are tested up to this many entries. */
export const MAX_SHUFFLE = 64;

/** An op whose outcome has nothing to test, for `reason`. */
export function none(reason) {
  if (typeof reason !== 'string' || reason === '') throw new Error('none(reason): say why the outcome has nothing to test');
  return Object.freeze({ none: reason });
}

const MODEL = ['family', 'shape', 'layout', 'sample'];

/** An op whose outcomes are counted in tables of `model` ({ family, shape, layout, sample }). */
export function tables(model) {
  const missing = MODEL.filter((k) => typeof model?.[k] !== 'function');
  if (missing.length) throw new Error(`tables(model): ${missing.join(', ')} must be functions`);
  return Object.freeze({ tables: Object.freeze({ ...model }) });
}

/** Why `stats` is not a declaration of none() or tables() (null: it is one). */
export function statsProblem(stats) {
  if (stats === undefined) return 'declares no stats (tables(…) from stats/laws.mjs, or none(reason))';
  if (typeof stats?.none === 'string' || MODEL.every((k) => typeof stats?.tables?.[k] === 'function')) return null;
  return 'stats must be tables(…) or none(reason) (stats/laws.mjs)';
}

/** The model of an op's statistics, or null when it declares none. */
export const modelOf = (stats) => stats?.tables ?? null;

// ---------------------------------------------------------------------------
// Exact laws

/** n equally likely cells. */
export const uniform = (n) => new Array(n).fill(1 / n);

/** How many of the 2³² words give ⌊v·m/2³²⌋ = t, for t in 0 … m−1 (pick_counts at width 32). */
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

/** ⌊f·m⌋'s exact law for f = u/2³², u uniform: each value's words over 2³². */
export const pickLaw = (m) => pickCounts(m).map((c) => c / TWO_32);

/** The words of ⌊f·m⌋ summed into `cells` cells by `cell(value)` (exact as integers below 2⁵³), then divided once. */
export function pooled(m, cells, cell) {
  const words = new Array(cells).fill(0);
  pickCounts(m).forEach((c, v) => (words[cell(v)] += c));
  return words.map((w) => w / TWO_32);
}

/**
 * P(order[k] = v) after Fisher–Yates from the back over [0, n), where step i
 * draws j ∈ [0, i] with probabilities `draw(i)`: each value's position is
 * carried through every swap (n³ steps). Row k, column v.
 */
export function shuffleMarginals(n, draw) {
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

/** The rank (13) and suit (4) tests of the card slots `names`: [name, probabilities]. */
export function cardTests(names, rank, suit) {
  return [...names.map((n) => [`${rank} ${n}`, uniform(13)]), ...names.map((n) => [`${suit} ${n}`, uniform(4)])];
}

// ---------------------------------------------------------------------------
// Reading requests and outcomes

/** A number of a request or an outcome: a Number, a BigInt, or a JsonFloat (json.mjs: { value, text }). */
export const num = (v) => (typeof v === 'bigint' ? Number(v) : typeof v?.value === 'number' ? v.value : v);

/** The integer field `name` of a request as a Number, or null. */
export const intField = (req, name) => (typeof req[name] === 'bigint' || Number.isInteger(req[name]) ? Number(req[name]) : null);

/** An integer that fits a cell (Rust's as_u64 then u16), else null. */
export function small(v) {
  const x = num(v);
  return Number.isInteger(x) && x >= 0 && x < 65536 ? x : null;
}

/** A serial step, or null when the sequence or the place in it is unknown. */
export const step = (stream, index, value) => (typeof stream === 'string' && index !== null ? { stream, index, value } : null);

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
