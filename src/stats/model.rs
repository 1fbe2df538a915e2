//! The families of the statistics, read off the op declarations: each op
//! declares what its outcome is ([`crate::op::stats`], in its scheme's
//! `stats.rs`): which family a round belongs to, the tests its rounds feed
//! (one categorical table per feature) with the exact probability of every
//! cell under the scheme with uniform HMAC output, and which cells a
//! derived round adds to. This module names no op.
//!
//! A family's layout depends only on its [`Key`]; a round adds one count to
//! one cell of each of its tests, so the tables have a fixed size.

use std::cmp::Ordering;

use serde_json::Value;

use crate::op::stats::{Family, Model};
use crate::op::{OpSpec, Request};

pub use crate::op::stats::Step;

/// A family of tests: an op and the parameters its outcome's shape depends on.
/// Ordered by op name, then parameters (the report lists families so).
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The op whose outcomes the family's tests count.
    pub op: &'static OpSpec,
    /// The parameters the outcome's shape depends on (a shoe's decks and penetration, a range).
    pub family: Family,
}

impl Key {
    /// The family (a, b) of the registered op called `op`, if it has tables.
    pub fn of(op: &str, a: u64, b: u64) -> Option<Key> {
        let op = crate::registry::find(op)?;
        has_tests(op).then_some(Key {
            op,
            family: Family { a, b },
        })
    }

    fn model(&self) -> &'static Model {
        self.op.stats.model().expect("a key is made only for an op with tables")
    }

    fn order(&self) -> (&'static str, Family) {
        (self.op.name, self.family)
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.order() == other.order()
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order().cmp(&other.order())
    }
}

/// A family's tests: its name in the report, each test's name and the
/// exact probability of every cell.
#[derive(Debug, Clone)]
pub struct Layout {
    pub(crate) label: String,
    /// Each test's name with the exact probability of every cell.
    pub tests: Vec<(String, Vec<f64>)>,
    /// The marginal of the value the serial tests follow along nonces.
    pub(crate) serial: Option<Vec<f64>>,
}

/// The family a round belongs to, if its op has tests in its configuration.
pub fn key_of(req: &Request) -> Option<Key> {
    let op = req.spec();
    let family = (op.stats.model()?.family)(req)?;
    Some(Key { op, family })
}

/// Whether the op's outcomes have tests in some configuration.
pub(crate) fn has_tests(op: &OpSpec) -> bool {
    op.stats.model().is_some()
}

/// The layout of a family: every test and its exact cell probabilities.
pub fn layout(key: Key) -> Layout {
    let l = (key.model().layout)(key.family);
    Layout {
        label: if l.params.is_empty() {
            key.op.name.to_string()
        } else {
            format!("{} {}", key.op.name, l.params)
        },
        tests: l.tests,
        serial: l.serial,
    }
}

/// The tests and the most cells of any, without computing probabilities
/// (what a count table needs).
pub(crate) fn shape(key: Key) -> (usize, usize) {
    (key.model().shape)(key.family)
}

/// Appends (test, cell) for every test the round feeds, and returns its
/// serial step. `None` when the outcome is not of the expected shape
/// (which a derived outcome always is).
pub fn sample(key: Key, req: &Request, ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<Option<Step>> {
    (key.model().sample)(key.family, req, ok, cells)
}
