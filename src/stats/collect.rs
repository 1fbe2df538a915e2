//! Count tables: one per family of tests ([`super::model::Key`]), of a size
//! fixed by the family's layout, so memory does not grow with the archive.
//! At most [`MAX_FAMILIES`] families are kept; rounds of further
//! configurations are counted as untested.
//!
//! The serial tests follow one value along consecutive indices (nonces, die
//! numbers, hands) of one sequence (the same epoch and client seed): a
//! round whose index is the previous round's plus one adds the pair
//! (previous value, value). Rounds are seen in document order within a
//! batch of the audit, and batches are counted by different workers in any
//! order: each batch keeps its first and last step per family, and
//! [`Joined`] puts the batches back in document order to count the pairs
//! that straddle two of them, so every consecutive pair is counted once
//! whatever the batching.

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
    /// The first and the last step counted (epoch, step), for the pairs
    /// across batches.
    first: Option<(u64, Step)>,
    last: Option<(u64, Step)>,
}

/// Whether `b` follows `a` in one sequence: the same epoch and stream, the next index.
fn consecutive(a: (u64, Step), b: (u64, Step)) -> bool {
    a.0 == b.0 && a.1.stream == b.1.stream && a.1.index.checked_add(1) == Some(b.1.index)
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

    fn merge(&mut self, o: &Table) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        for (a, b) in self.pairs.iter_mut().zip(&o.pairs) {
            *a += b;
        }
        self.rounds += o.rounds;
    }

    fn pair(&mut self, a: Step, b: Step) {
        self.pairs[usize::from(a.value) * self.stride + usize::from(b.value)] += 1;
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
                let now = (epoch, step);
                match table.last {
                    Some(last) if consecutive(last, now) => table.pair(last.1, step),
                    Some(_) => {}
                    None => table.first = Some(now),
                }
                table.last = Some(now);
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
                (t.first, t.last) = (None, None);
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

/// The batches' counts joined: each batch is merged as it comes, and its
/// first and last steps wait until the batches before it are in, so the
/// pairs across two batches are counted in document order. What waits is
/// bounded by the audit's window of jobs in flight.
#[derive(Debug, Clone, Default)]
pub struct Joined {
    pub collector: Collector,
    /// Batches come in with their sequence numbers: the first and last step per family.
    waiting: BTreeMap<u64, Vec<Edge>>,
    next: u64,
    /// The last step per family of the batches joined in order so far.
    last: BTreeMap<Key, (u64, Step)>,
}

#[derive(Debug, Clone, Copy)]
struct Edge {
    key: Key,
    first: Option<(u64, Step)>,
    last: Option<(u64, Step)>,
}

impl Joined {
    /// Adds batch `seq` (numbered from 0 in document order, each number once).
    pub fn add(&mut self, seq: u64, batch: &Collector) {
        self.collector.merge(batch);
        let edges = batch.tables.iter().map(|(key, t)| Edge {
            key: *key,
            first: t.first,
            last: t.last,
        });
        self.waiting.insert(seq, edges.collect());
        while let Some(edges) = self.waiting.remove(&self.next) {
            for e in edges {
                if let (Some(first), Some(&last)) = (e.first, self.last.get(&e.key)) {
                    if let (true, Some(t)) = (consecutive(last, first), self.collector.tables.get_mut(&e.key)) {
                        t.pair(last.1, first.1);
                    }
                }
                if let Some(last) = e.last {
                    self.last.insert(e.key, last);
                }
            }
            self.next += 1;
        }
    }
}
