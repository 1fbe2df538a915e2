//! Count tables: one per family of tests ([`super::model::Key`]), of a size
//! fixed by the family's layout, so memory does not grow with the archive.
//! At most [`MAX_FAMILIES`] families are kept; rounds of further
//! configurations are counted as untested.
//!
//! The serial tests follow one value along consecutive indices (nonces, die
//! numbers, hands) of one sequence (the same epoch and client seed): a
//! round whose index is the previous round's plus one adds the pair
//! (previous value, value). Rounds are seen in document order within a
//! batch of the audit, and batches are appended in document order
//! ([`Collector::append`]): a pair that straddles two batches counts as it
//! would in one pass, so the counts do not depend on how the audit cut the
//! archive into batches (and the page, which counts in one pass,
//! web/stats.mjs, gets the same).

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
    /// The first and the last serial step counted here (with its epoch):
    /// where a later batch's sequence continues an earlier one's.
    first: Option<(u64, Step)>,
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
            first: None,
            last: None,
        }
    }

    /// Counts the pair (last, `step`) if `step` continues the last step's
    /// sequence, and makes it the last.
    fn step(&mut self, epoch: u64, step: Step) {
        match self.last {
            Some((e, last)) => {
                if e == epoch && last.stream == step.stream && last.index.checked_add(1) == Some(step.index) {
                    self.pairs[usize::from(last.value) * self.stride + usize::from(step.value)] += 1;
                }
            }
            None => self.first = Some((epoch, step)),
        }
        self.last = Some((epoch, step));
    }

    /// Adds the counts of `o`, a table of the same family counted later in the document.
    fn append(&mut self, o: &Table) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        for (a, b) in self.pairs.iter_mut().zip(&o.pairs) {
            *a += b;
        }
        self.rounds += o.rounds;
        // `o`'s first step had no predecessor in its batch: its predecessor is this table's last.
        if let Some((epoch, first)) = o.first {
            self.step(epoch, first);
            self.last = o.last;
        }
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
    /// The families in the order their first round came (which ones got a
    /// table when more than [`MAX_FAMILIES`] came).
    order: Vec<Key>,
    cells: Vec<(u32, u16)>,
}

impl Collector {
    /// Counts one derived round of epoch `epoch`: `ok` is the op's derived `ok` object.
    pub fn add(&mut self, epoch: u64, req: &Request, ok: &Value) {
        let Some(key) = model::key_of(req) else {
            if model::has_tests(req.spec()) {
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
        if !self.tables.contains_key(&key) {
            self.order.push(key);
        }
        let table = self.tables.entry(key).or_insert_with(|| Table::new(key));
        if let Some(step) = model::sample(key, req, ok, &mut cells) {
            for &(t, c) in &cells {
                table.counts[t as usize * table.stride + usize::from(c)] += 1;
            }
            table.rounds += 1;
            self.rounds += 1;
            if let Some(step) = step {
                table.step(epoch, step);
            }
        }
        self.cells = cells;
    }

    /// Adds the counts of `o`, a batch that comes after these in document
    /// order: families are taken in the order they came, and a sequence
    /// continues across the two, so appending every batch in order counts
    /// what one pass over the document would.
    pub(crate) fn append(&mut self, o: &Collector) {
        for key in &o.order {
            let Some(t) = o.tables.get(key) else { continue };
            if let Some(mine) = self.tables.get_mut(key) {
                mine.append(t);
            } else if self.tables.len() < MAX_FAMILIES {
                self.tables.insert(*key, t.clone());
                self.order.push(*key);
            } else {
                self.untested += t.rounds;
                continue;
            }
            self.rounds += t.rounds;
        }
        self.untested += o.untested;
    }

    /// No sequence continues past here (the next rounds come from another file).
    pub(crate) fn end_sequences(&mut self) {
        for t in self.tables.values_mut() {
            t.last = None;
        }
    }

    /// Empties the tables.
    pub fn clear(&mut self) {
        self.tables.clear();
        self.order.clear();
        self.rounds = 0;
        self.untested = 0;
    }
}
