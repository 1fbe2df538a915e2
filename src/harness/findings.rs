//! Divergences, grouped by cause.
//!
//! Every divergence is counted; divergences with the same first differing
//! step (the group an op's explainer names: "kept a draw provably rejects",
//! "first differing draw reads 2 bytes", or the field that differs) are one
//! finding, with a count and one example: the case with the smallest index,
//! so the example does not depend on how the cases were shared between
//! copies of the target. Only the example is kept, never the cases, so a
//! run of any size holds one entry per group.

use std::collections::BTreeMap;

use serde::Serialize;

use super::cases::{Ask, Case};
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
    pub got: Reply,
}

/// The divergences of one op, by group.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    pub groups: BTreeMap<String, Pending>,
}

impl Groups {
    /// Counts one divergence of case `index` in `group`.
    pub fn add(&mut self, group: String, index: u64, case: &Case, want: &Reply, got: &Reply) {
        let group = if self.groups.len() >= MAX_GROUPS && !self.groups.contains_key(&group) {
            "other causes (more groups than a report shows)".to_string()
        } else {
            group
        };
        let entry = self.groups.entry(group).or_insert_with(|| Pending {
            count: 0,
            index,
            case: case.clone(),
            want: want.clone(),
            got: got.clone(),
        });
        entry.count += 1;
        if index < entry.index {
            (entry.index, entry.case, entry.want, entry.got) = (index, case.clone(), want.clone(), got.clone());
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

/// The group of a divergence that is not a difference between two `ok` answers.
pub fn refusal_group(ask: &Ask, want: &Reply, got: &Reply) -> Option<String> {
    Some(match (want, got, ask) {
        (Reply::Ok(_), Reply::Error { kind, .. }, _) => format!("refuses a request provably answers ({kind})"),
        (Reply::Error { .. }, Reply::Ok(_), Ask::Invalid(i)) => {
            format!("answers ok to an invalid request ({})", crate::op::flag::join(&i.flags))
        }
        (Reply::Error { kind: w, .. }, Reply::Error { kind: g, .. }, _) => {
            format!("answers {g} where provably answers {w}")
        }
        (Reply::Error { kind, .. }, Reply::Ok(_), _) => format!("answers ok where provably answers {kind}"),
        (Reply::Ok(_), Reply::Ok(_), _) => return None,
    })
}

/// One finding, as the reports show it.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub op: String,
    /// The first step where the two sides part: what every divergence of the group shares.
    pub group: String,
    /// How many cases diverge this way.
    pub count: u64,
    /// Where the example comes from (the group's first case).
    pub origin: String,
    /// The example as first found.
    pub found: String,
    /// The smallest request that still diverges the same way.
    pub request: String,
    pub shrink_steps: usize,
    pub expected: String,
    pub got: String,
    /// Unified diff, provably on the `-` side, the target on the `+` side.
    pub diff: String,
    /// The first step where the two sides part, with both sides' values.
    pub parted: String,
}
