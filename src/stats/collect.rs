//! Count tables: one per family of tests ([`super::model::Key`]), of a size
//! fixed by the family's layout, so memory does not grow with the archive.
//! At most [`MAX_FAMILIES`] families are kept; rounds of further
//! configurations are counted as untested.
//!
//! The serial tests follow one value along consecutive indices (nonces, die
//! numbers, hands) of one sequence (the same epoch and client seed): a
//! round whose index is the previous round's plus one adds the pair
//! (previous value, value). Rounds are seen in document order within a
//! batch of the audit; a pair that straddles two batches is not counted
//! (one in 256 at most), which loses power, never calibration.

use std::collections::BTreeMap;

use serde_json::Value;

use super::model::{self, Key, Step};
use crate::op::Request;

/// The most families (configurations) an audit keeps tables for.
pub(crate) const MAX_FAMILIES: usize = 64;

/// The counts of one family.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub tests: usize,
    pub stride: usize,
    /// counts[test · stride + cell]
    pub counts: Vec<u64>,
    pub rounds: u64,
    /// pairs[a · stride + b] for consecutive values a, b.
    pub pairs: Vec<u64>,
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

    fn merge(&mut self, o: &Table) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        for (a, b) in self.pairs.iter_mut().zip(&o.pairs) {
            *a += b;
        }
        self.rounds += o.rounds;
    }

    /// The counts of one test.
    pub fn test(&self, t: usize) -> &[u64] {
        &self.counts[t * self.stride..(t + 1) * self.stride]
    }
}

/// Count tables for every family seen.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collector {
    pub tables: BTreeMap<Key, Table>,
    /// Rounds with an outcome the statistics test, counted.
    pub rounds: u64,
    /// Rounds of an op with tests whose configuration found no room (more
    /// than [`MAX_FAMILIES`]) or that is not tested (a ladder above 64).
    pub untested: u64,
    cells: Vec<(u32, u16)>,
}

impl Collector {
    /// Counts one derived round of epoch `epoch`: `ok` is the op's derived `ok` object.
    pub fn add(&mut self, epoch: u64, req: &Request, ok: &Value) {
        let Some(key) = model::key_of(req) else {
            if model::has_tests(req.op()) {
                self.untested += 1;
            }
            return;
        };
        if !self.tables.contains_key(&key) && self.tables.len() >= MAX_FAMILIES {
            self.untested += 1;
            return;
        }
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let table = self.tables.entry(key).or_insert_with(|| Table::new(key));
        if let Some(step) = model::sample(key, req, ok, &mut cells) {
            for &(t, c) in &cells {
                table.counts[t as usize * table.stride + usize::from(c)] += 1;
            }
            table.rounds += 1;
            self.rounds += 1;
            if let Some(step) = step {
                if let Some((e, last)) = table.last {
                    if e == epoch && last.stream == step.stream && last.index.checked_add(1) == Some(step.index) {
                        table.pairs[usize::from(last.value) * table.stride + usize::from(step.value)] += 1;
                    }
                }
                table.last = Some((epoch, step));
            }
        }
        self.cells = cells;
    }

    /// Adds another collector's counts (a batch's) to these. Sequences do
    /// not continue across a merge.
    pub(crate) fn merge(&mut self, o: &Collector) {
        for (key, t) in &o.tables {
            if let Some(mine) = self.tables.get_mut(key) {
                mine.merge(t);
            } else if self.tables.len() < MAX_FAMILIES {
                let mut t = t.clone();
                t.last = None;
                self.tables.insert(*key, t);
            } else {
                self.untested += t.rounds;
                continue;
            }
            self.rounds += t.rounds;
        }
        self.untested += o.untested;
    }

    /// Empties the tables.
    pub fn clear(&mut self) {
        self.tables.clear();
        self.rounds = 0;
        self.untested = 0;
    }
}
