//! Count tables: one per family of tests ([`super::model::Key`]), of a size
//! fixed by the family's layout, so memory does not grow with the archive.
//!
//! The counts are those of one pass over the rounds in audit order. A
//! worker reads a derived round's cells into a [`Counted`] (it travels in
//! the round's event); the audit's one ordered consumer adds it here. So
//! nothing depends on how the audit cut the input into batches, how many
//! workers it ran, or whether an epoch was a document's or a JSON line's.
//!
//! **The family cap.** At most `MAX_FAMILIES` families have tables: the
//! smallest keys (op name, then parameters) among all the families the
//! audit meets. The set does not depend on the order rounds come in: when a
//! smaller key comes while the tables are full, the largest family is let
//! go and its rounds are counted as untested, so a family among the final
//! smallest was never let go. Rounds of a family past the cap are untested,
//! and the report says how many families were past it.
//!
//! The serial tests follow one value along consecutive indices (nonces,
//! die numbers, hands) of one sequence (the same epoch and client seed): a
//! round whose index is the previous round's of its family plus one adds
//! the pair (previous value, value).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::model::{self, Key, Step};
use crate::op::Request;

/// The most families (configurations) an audit keeps tables for.
pub(crate) const MAX_FAMILIES: usize = 64;

/// The most families past the cap an audit counts one by one; past this,
/// the report says "at least".
pub(crate) const MAX_PAST: usize = 4096;

/// The counts of one family.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// How many tests the family has (one row of `counts` each).
    pub tests: usize,
    pub(crate) stride: usize,
    /// counts[test · stride + cell]
    pub counts: Vec<u64>,
    /// Rounds of the family counted.
    pub rounds: u64,
    /// pairs[a · stride + b] for consecutive values a, b.
    pub pairs: Vec<u64>,
    /// The last serial step counted (with its epoch).
    last: Option<(u64, Step)>,
}

impl Table {
    fn new(key: Key) -> Table {
        let (tests, stride) = model::shape(key);
        Table {
            tests,
            stride,
            counts: vec![0; tests * stride],
            rounds: 0,
            pairs: vec![0; stride * stride],
            last: None,
        }
    }

    /// Counts the pair (last, `step`) if `step` continues the last step's
    /// sequence, and makes it the last.
    fn step(&mut self, epoch: u64, step: Step) {
        if let Some((e, last)) = self.last {
            if e == epoch && last.stream == step.stream && last.index.checked_add(1) == Some(step.index) {
                self.pairs[usize::from(last.value) * self.stride + usize::from(step.value)] += 1;
            }
        }
        self.last = Some((epoch, step));
    }

    /// A table read back from its counts (a partial result): `None` when
    /// they are not of the family's shape.
    pub(crate) fn from_counts(key: Key, rounds: u64, counts: Vec<u64>, pairs: Vec<u64>) -> Option<Table> {
        let (tests, stride) = model::shape(key);
        (counts.len() == tests * stride && pairs.len() == stride * stride).then_some(Table {
            tests,
            stride,
            counts,
            rounds,
            pairs,
            last: None,
        })
    }

    /// Adds another table of the same family (no sequence runs from one into the other).
    fn add(&mut self, o: &Table) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        for (a, b) in self.pairs.iter_mut().zip(&o.pairs) {
            *a += b;
        }
        self.rounds += o.rounds;
        self.last = None;
    }

    /// The counts of one test.
    pub fn test(&self, t: usize) -> &[u64] {
        &self.counts[t * self.stride..(t + 1) * self.stride]
    }
}

/// What one derived round gives the statistics.
#[derive(Debug, Clone, PartialEq)]
pub enum Counted {
    /// The round's cells in its family's tables, and its serial step.
    Sample {
        /// The round's family.
        key: Key,
        /// (test, cell): the cell each test of the family counts the round in.
        cells: Vec<(u32, u16)>,
        /// Where the round is in its sequence, for the serial tests; `None` when it feeds none.
        step: Option<Step>,
    },
    /// A round of an op with tests, in a configuration without them (a ladder above 64).
    Untested,
}

impl Counted {
    /// What the derived round `req` with `ok` adds: `None` for an op whose
    /// outcomes have no tests (or an `ok` not of its shape).
    pub(crate) fn of(req: &Request, ok: &Value) -> Option<Counted> {
        let Some(key) = model::key_of(req) else {
            return model::has_tests(req.spec()).then_some(Counted::Untested);
        };
        let mut cells = Vec::new();
        let step = model::sample(key, req, ok, &mut cells)?;
        Some(Counted::Sample { key, cells, step })
    }
}

/// Count tables for every family seen.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collector {
    /// One count table per family kept (the smallest keys, up to the family cap), by key.
    pub tables: BTreeMap<Key, Table>,
    /// Rounds with an outcome the statistics test, counted.
    pub rounds: u64,
    /// Rounds of an op with tests whose configuration is not tested or
    /// whose family was past the cap.
    pub untested: u64,
    /// The smallest families past the cap ([`MAX_FAMILIES`]), whose rounds
    /// are untested: at most [`MAX_PAST`] of them are kept.
    pub(crate) past: BTreeSet<Key>,
}

impl Collector {
    /// Counts one derived round of epoch `epoch`: `ok` is the op's derived `ok` object.
    pub fn add(&mut self, epoch: u64, req: &Request, ok: &Value) {
        if let Some(c) = Counted::of(req, ok) {
            self.count(epoch, &c);
        }
    }

    /// Counts what one round of epoch `epoch` gave, in audit order.
    pub(crate) fn count(&mut self, epoch: u64, c: &Counted) {
        let Counted::Sample { key, cells, step } = c else {
            self.untested += 1;
            return;
        };
        if !self.tables.contains_key(key) && !self.make_room(*key) {
            self.untested += 1;
            return;
        }
        let table = self.tables.entry(*key).or_insert_with(|| Table::new(*key));
        for &(t, cell) in cells {
            table.counts[t as usize * table.stride + usize::from(cell)] += 1;
        }
        table.rounds += 1;
        self.rounds += 1;
        if let Some(step) = step {
            table.step(epoch, *step);
        }
    }

    /// Whether `key`, a family without a table, gets one: yes below the cap,
    /// or when it is smaller than the largest family, which then goes.
    fn make_room(&mut self, key: Key) -> bool {
        if self.tables.len() < MAX_FAMILIES {
            return true;
        }
        let largest = *self.tables.keys().next_back().expect("the tables are full");
        if key > largest {
            self.pass(key);
            return false;
        }
        let gone = self.tables.remove(&largest).expect("the largest table");
        self.rounds -= gone.rounds;
        self.untested += gone.rounds;
        self.pass(largest);
        true
    }

    /// Notes `key` as a family past the cap (the first [`MAX_PAST`] of them are named).
    fn pass(&mut self, key: Key) {
        if self.past.len() < MAX_PAST || self.past.last().is_some_and(|l| key < *l) {
            self.past.insert(key);
            if self.past.len() > MAX_PAST {
                self.past.pop_last();
            }
        }
    }

    /// How many families were past the cap: at least this many when it is `MAX_PAST`.
    pub(crate) fn past_cap(&self) -> u64 {
        self.past.len() as u64
    }

    /// No sequence continues past here (the next rounds come from another file).
    pub(crate) fn end_sequences(&mut self) {
        for t in self.tables.values_mut() {
            t.last = None;
        }
    }

    /// Adds the counts of another audit's rounds (a part of this one, whose
    /// epochs no sequence here runs into): the same as one pass over both.
    ///
    /// Exact with the cap too: a family among the smallest [`MAX_FAMILIES`]
    /// of all was among the smallest of each part that met it, so no part
    /// let it go, and its table is whole here; the largest families go
    /// until the cap holds, their rounds counted as untested, as one pass
    /// would have counted them. The families past the cap are the smallest
    /// of every part's past and of those let go here ([`MAX_PAST`] bounds
    /// each part's list the same way, so no smaller one was dropped).
    pub(crate) fn merge(&mut self, o: &Collector) {
        self.rounds += o.rounds;
        self.untested += o.untested;
        for (key, t) in &o.tables {
            match self.tables.get_mut(key) {
                Some(mine) => mine.add(t),
                None => {
                    self.tables.insert(*key, t.clone());
                }
            }
        }
        for key in &o.past {
            self.pass(*key);
        }
        while self.tables.len() > MAX_FAMILIES {
            let (key, gone) = self.tables.pop_last().expect("more than the cap");
            self.rounds -= gone.rounds;
            self.untested += gone.rounds;
            self.pass(key);
        }
        self.end_sequences();
    }
}
