//! Divergences, grouped by cause.
//!
//! Every divergence is counted; divergences with the same first differing
//! step (the group an op's explainer names: "kept a draw provably rejects",
//! "first differing draw reads 2 bytes", or the field that differs) are one
//! finding, with a count and one example: the case with the smallest index,
//! so the example does not depend on how the cases were shared between
//! copies of the target. Only the example is kept, never the cases, so a
//! run of any size holds one entry per group; and of the example's answer
//! only what a case may cost ([`KEPT_ANSWER`]): a target answering 15 MiB
//! values is asked again when its finding is made.

use std::collections::BTreeMap;

use super::cases::Case;
use crate::protocol::Reply;

/// Groups kept per op; divergences past them are counted under one more.
const MAX_GROUPS: usize = 64;

/// One group while a run goes on.
#[derive(Debug, Clone)]
pub struct Pending {
    pub count: u64,
    /// The smallest case index of the group, and that case.
    pub index: u64,
    pub case: Case,
    pub want: Reply,
    /// The target's answer, unless it was larger than [`KEPT_ANSWER`].
    pub got: Option<Reply>,
}

/// The largest answer an example keeps, in bytes of its JSON text.
pub const KEPT_ANSWER: usize = 64 * 1024;

/// The answer, if it is small enough to keep.
fn kept(got: Reply) -> Option<Reply> {
    let size = match &got {
        Reply::Ok(v) => json_size(v),
        Reply::Error { kind, message } => kind.len() + message.len(),
    };
    (size <= KEPT_ANSWER).then_some(got)
}

/// The length of a value's JSON text, roughly, stopping early past the bound.
fn json_size(v: &serde_json::Value) -> usize {
    use serde_json::Value;
    match v {
        Value::String(s) => s.len() + 2,
        Value::Array(a) => a
            .iter()
            .map(json_size)
            .try_fold(2usize, |n, k| {
                let n = n + k + 1;
                (n <= KEPT_ANSWER).then_some(n)
            })
            .unwrap_or(KEPT_ANSWER + 1),
        Value::Object(o) => o.iter().map(|(k, v)| k.len() + 3 + json_size(v)).sum::<usize>() + 2,
        _ => 24,
    }
}

/// The divergences of one op, by group.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    pub groups: BTreeMap<String, Pending>,
}

impl Groups {
    /// Counts one divergence of case `index` in `group`.
    pub fn add(&mut self, group: String, index: u64, case: &Case, want: &Reply, got: Reply) {
        let group = if self.groups.len() >= MAX_GROUPS && !self.groups.contains_key(&group) {
            "other causes (more groups than a report shows)".to_string()
        } else {
            group
        };
        match self.groups.get_mut(&group) {
            Some(entry) => {
                entry.count += 1;
                if index < entry.index {
                    (entry.index, entry.case, entry.want, entry.got) = (index, case.clone(), want.clone(), kept(got));
                }
            }
            None => {
                let p = Pending {
                    count: 1,
                    index,
                    case: case.clone(),
                    want: want.clone(),
                    got: kept(got),
                };
                self.groups.insert(group, p);
            }
        }
    }

    /// Takes in another copy's groups.
    pub fn merge(&mut self, other: Groups) {
        for (group, p) in other.groups {
            match self.groups.get_mut(&group) {
                Some(mine) => {
                    mine.count += p.count;
                    if p.index < mine.index {
                        (mine.index, mine.case, mine.want, mine.got) = (p.index, p.case, p.want, p.got);
                    }
                }
                None => {
                    self.groups.insert(group, p);
                }
            }
        }
    }

    pub fn total(&self) -> u64 {
        self.groups.values().map(|p| p.count).sum()
    }
}
