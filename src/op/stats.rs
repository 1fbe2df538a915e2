//! What an op's outcome is to the statistics (`provably audit --stats`):
//! part of the op's declaration, so that `src/stats` reads declarations and
//! names no op.
//!
//! An op declares either [`Stats::None`], with the reason its outcome has
//! nothing to test (a commitment, raw bytes, no randomness), or
//! [`Stats::Tables`]: a [`Model`] that says which family (configuration) a
//! round belongs to, the shape and layout of that family's count tables
//! with the exact probability of every cell under uniform HMAC output, and
//! which cells a derived round adds to. The field is required in every
//! [`super::OpSpec`], so an op that declares nothing does not compile:
//!
//! ```compile_fail
//! # use provably::op::{OpSpec, Outcome, Reach, no_flags, no_story};
//! static FORGOT: OpSpec = OpSpec {
//!     name: "toy.forgot",
//!     fields: &[],
//!     ok: &[],
//!     run: |_| Ok(Outcome::new(())),
//!     generate: || unreachable!(),
//!     flags: no_flags,
//!     explain: no_story,
//!     reach: Reach { vectors: &[], generated: &[] },
//!     secret: None,
//!     readings: &[],
//!     bet: false,
//!     // no `stats`: a compile error, not a panic in `audit --stats`
//! };
//! ```
//!
//! The same declaration with the field compiles:
//!
//! ```
//! # use provably::op::{OpSpec, Outcome, Reach, no_flags, no_story, stats::Stats};
//! static DECLARED: OpSpec = OpSpec {
//!     name: "toy.declared",
//!     fields: &[],
//!     ok: &[],
//!     run: |_| Ok(Outcome::new(())),
//!     generate: || unreachable!(),
//!     flags: no_flags,
//!     explain: no_story,
//!     reach: Reach { vectors: &[], generated: &[] },
//!     secret: None,
//!     readings: &[],
//!     bet: false,
//!     stats: Stats::None("an example"),
//! };
//! ```
//!
//! The exact laws every scheme builds its cells from ([`pick_counts`],
//! [`shuffle_marginals`], `uniform`) live here, below the schemes; each is
//! checked against enumeration in tests/stats.rs.

use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::Value;

use super::Request;

/// What the statistics know of an op's outcome.
#[derive(Debug, Clone, Copy)]
pub enum Stats {
    /// Its outcome carries nothing to test, for this reason.
    None(&'static str),
    /// Its outcomes are counted in tables of this model.
    Tables(Model),
}

impl Stats {
    /// The model, for an op whose outcomes are tested.
    pub fn model(&self) -> Option<&Model> {
        match self {
            Stats::None(_) => None,
            Stats::Tables(m) => Some(m),
        }
    }
}

/// The parameters a family's tables depend on (a shoe's decks and
/// penetration, a range, a row count); unused ones are 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Family {
    pub(crate) a: u64,
    pub(crate) b: u64,
}

impl Family {
    pub(crate) const ONE: Family = Family { a: 0, b: 0 };

    /// The family of one parameter `a` (`b` is 0).
    pub const fn of(a: u64) -> Family {
        Family { a, b: 0 }
    }

    /// `a` as a size (a deck count, a shuffle's length): families are small.
    pub(crate) fn size(self) -> usize {
        usize::try_from(self.a).expect("a family's parameter is small")
    }
}

/// Reads the cells of one derived round ([`Model::sample`]).
pub(crate) type Sampler = fn(Family, &Request, &Value, &mut Vec<(u32, u16)>) -> Option<Option<Step>>;

/// How an op's outcomes are counted.
#[derive(Debug, Clone, Copy)]
pub struct Model {
    /// The family a round belongs to; `None` for a configuration that is
    /// not tested (its rounds are counted as untested).
    pub family: fn(&Request) -> Option<Family>,
    /// The number of tests and the most cells of any (what a count table
    /// needs, without computing probabilities).
    pub(crate) shape: fn(Family) -> (usize, usize),
    /// Every test of a family, with its cells' exact probabilities.
    pub layout: fn(Family) -> Layout,
    /// Appends (test, cell) for every test a derived round feeds and returns
    /// its serial step (`Some(None)`: none). `ok` is the op's derived `ok`
    /// object; `None` when it is not of the expected shape (which a derived
    /// outcome always is).
    pub(crate) sample: Sampler,
}

/// A family's tests: the configuration's words, each test's name with the
/// exact probability of every cell, and the marginal of the value the serial
/// tests follow.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The parameters as the report names them (`decks=6 penetration=0.75`),
    /// empty for an op with one family; the report's family is the op's name
    /// and these.
    pub(crate) params: String,
    /// Each test's name with the exact probability of every cell (a round adds one count to one cell of each test).
    pub tests: Vec<(String, Vec<f64>)>,
    /// The marginal of the value the serial tests follow along nonces.
    pub(crate) serial: Option<Vec<f64>>,
}

impl Layout {
    /// A layout of no tests yet, named by the parameters `params` (empty for an op with one family).
    pub fn new(params: impl Into<String>) -> Layout {
        Layout {
            params: params.into(),
            tests: Vec::new(),
            serial: None,
        }
    }

    /// The same layout with serial tests on a value of this marginal.
    #[must_use]
    pub(crate) fn serial(self, marginal: Vec<f64>) -> Layout {
        Layout {
            serial: Some(marginal),
            ..self
        }
    }

    /// Adds a test.
    pub fn test(&mut self, name: impl Into<String>, probs: Vec<f64>) {
        self.tests.push((name.into(), probs));
    }

    /// The rank (13) and suit (4) tests of card slots named `names`.
    pub fn cards(&mut self, names: &[String], rank: &str, suit: &str) {
        for n in names {
            self.test(format!("{rank} {n}"), uniform(13));
        }
        for n in names {
            self.test(format!("{suit} {n}"), uniform(4));
        }
    }
}

/// The serial part of a sample: which sequence the round is in, its place
/// in it, and the value followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub(crate) stream: u64,
    pub(crate) index: u64,
    pub(crate) value: u16,
}

impl Step {
    /// The step of a round at `index` of the sequence named by `parts` (a
    /// client seed; a client seed and a cursor).
    pub fn new(parts: &[&[u8]], index: u64, value: u16) -> Step {
        Step {
            stream: stream_hash(parts),
            index,
            value,
        }
    }
}

/// The sequence a serial step belongs to, from its parts. SipHash with its
/// fixed default keys: the same number in every run and on every machine.
fn stream_hash(parts: &[&[u8]]) -> u64 {
    let mut h = DefaultHasher::new();
    parts.hash(&mut h);
    h.finish()
}

/// A test's index as a cell coordinate.
pub(crate) fn at(t: usize) -> u32 {
    u32::try_from(t).expect("a few hundred tests")
}

/// A small JSON integer as a cell.
pub(crate) fn small(v: &Value) -> Option<u16> {
    v.as_u64().and_then(|v| u16::try_from(v).ok())
}

/// n equally likely cells.
pub(crate) fn uniform(n: usize) -> Vec<f64> {
    #[allow(clippy::cast_precision_loss, reason = "n is a few hundred at most")]
    let p = 1.0 / n as f64;
    vec![p; n]
}

/// How many of the 2^width words give each j = ⌊v·m / 2^width⌋, for j in 0 … m−1.
pub fn pick_counts(m: u64, width: u32) -> Vec<u64> {
    let pot = 1u128 << width;
    let ceil = |t: u64| (u128::from(t) * pot).div_ceil(u128::from(m));
    (0..m)
        .map(|t| u64::try_from(ceil(t + 1) - ceil(t)).expect("below 2^width"))
        .collect()
}

/// 2^32, the number of 32-bit words.
const TWO_32: f64 = 4_294_967_296.0;

/// ⌊v·m/2³²⌋'s exact law for a uniform 32-bit v: each value's words over 2³².
pub fn pick_law(m: u64) -> Vec<f64> {
    #[allow(clippy::cast_precision_loss, reason = "counts below 2^32 are exact")]
    pick_counts(m, 32).into_iter().map(|c| c as f64 / TWO_32).collect()
}

/// Sums the words of ⌊v·m/2³²⌋ into the cells `cell(value)` (exact in u64,
/// one division each).
pub(crate) fn pooled(m: u64, cells: usize, cell: impl Fn(u64) -> usize) -> Vec<f64> {
    let mut words = vec![0u64; cells];
    for (v, c) in (0..m).zip(pick_counts(m, 32)) {
        words[cell(v)] += c;
    }
    #[allow(clippy::cast_precision_loss, reason = "sums of at most 2^32 words are exact")]
    words.into_iter().map(|w| w as f64 / TWO_32).collect()
}

/// P(order\[k\] = v) after Fisher–Yates from the back over [0, n), where
/// step i draws j ∈ [0, i] with probabilities `draw(i)`: each value's
/// position is carried through every swap (n³ steps). Row k, column v.
pub fn shuffle_marginals(n: usize, draw: &dyn Fn(usize) -> Vec<f64>) -> Vec<Vec<f64>> {
    // at[v][p]: the probability that value v is at position p.
    let mut at: Vec<Vec<f64>> = (0..n)
        .map(|v| (0..n).map(|p| if p == v { 1.0 } else { 0.0 }).collect())
        .collect();
    for i in (1..n).rev() {
        let q = draw(i);
        for row in &mut at {
            let here = row[i];
            let mut to_i = here * q[i];
            for j in 0..i {
                to_i += row[j] * q[j];
                row[j] = row[j] * (1.0 - q[j]) + here * q[j];
            }
            row[i] = to_i;
        }
    }
    (0..n).map(|k| (0..n).map(|v| at[v][k]).collect()).collect()
}
