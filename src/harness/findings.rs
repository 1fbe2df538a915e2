//! Divergences, grouped by their first differing step while a run streams.
//!
//! Every divergence is counted; divergences with the same first differing
//! step (the group an op's explainer names: "kept a draw provably rejects",
//! "first differing draw reads 2 bytes", or the field that differs) are one
//! symptom class, with a count and one example: the case with the smallest
//! index, so the example does not depend on how the cases were shared
//! between copies of the target. Only the example, the atoms of its cases
//! (`Profile`) and the `SAMPLE` cases of smallest index are kept, never
//! the cases, so a run of any size holds one entry per group; and of an
//! answer only what a case may cost (`KEPT_ANSWER`): a target answering
//! 15 MiB values is asked again when its finding is made. The classes of
//! one bug become one finding in `super::cluster`.

use std::collections::BTreeMap;

use super::cases::{Ask, Case};
use super::cause::decide;
use super::compare::pretty;
use super::driver::Driver;
use super::report::{Finding, Separates, Symptom};
use super::separate::Profile;
use crate::base::diff::unified_diff;
use crate::base::text::escape_str;
use crate::op::Request;
use crate::protocol::Reply;

/// Groups kept per op; divergences past them are counted under one more.
const MAX_GROUPS: usize = 64;

/// One group while a run goes on.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub(crate) count: u64,
    /// The smallest case index of the group, and that case.
    pub(crate) index: u64,
    pub(crate) case: Case,
    pub(crate) want: Reply,
    /// The target's answer, unless it was larger than [`KEPT_ANSWER`].
    pub(crate) got: Option<Reply>,
    /// The atoms of every diverging request of the group (what separates them).
    pub(crate) profile: Profile,
    /// The diverging requests with the smallest indices, with the target's answers.
    pub(crate) sample: Vec<Sampled>,
}

/// A symptom class made into its finding, with what the run kept of it.
pub(crate) struct Made {
    pub(crate) finding: Finding,
    /// The class's smallest case index.
    pub(crate) index: u64,
    pub(crate) profile: Profile,
    pub(crate) sample: Vec<Sampled>,
    /// The minimal request and the target's answer to it, for a valid request.
    pub(crate) minimal: Option<(Request, Reply)>,
}

/// A case kept to replay through the known bugs and to confirm a property.
#[derive(Debug, Clone)]
pub(crate) struct Sampled {
    pub(crate) index: u64,
    pub request: Request,
    /// The target's answer, if it diverged and was small enough to keep.
    pub(crate) got: Option<Reply>,
}

/// Diverging cases a group keeps, and agreeing cases an op keeps.
pub(crate) const SAMPLE: usize = 4;
pub(crate) const AGREEING_SAMPLE: usize = 12;

/// Keeps the `n` cases of smallest index in `sample`, whatever order they
/// come in (so the sample does not depend on how copies shared the cases).
pub(crate) fn keep(sample: &mut Vec<Sampled>, n: usize, item: Sampled) {
    if sample.len() >= n && sample.last().is_some_and(|l| l.index < item.index) {
        return;
    }
    let at = sample.partition_point(|s| s.index < item.index);
    sample.insert(at, item);
    sample.truncate(n);
}

/// The largest answer an example keeps, in bytes of its JSON text.
pub(crate) const KEPT_ANSWER: usize = 64 * 1024;

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
pub(crate) struct Groups {
    pub(crate) groups: BTreeMap<String, Pending>,
}

impl Groups {
    /// Counts one divergence of case `index` in `group`.
    pub fn add(&mut self, group: String, index: u64, case: &Case, want: &Reply, got: Reply) {
        let group = if self.groups.len() >= MAX_GROUPS && !self.groups.contains_key(&group) {
            "other causes (more groups than a report shows)".to_string()
        } else {
            group
        };
        let got = kept(got);
        let entry = self.groups.entry(group).or_insert_with(|| Pending {
            count: 0,
            index,
            case: case.clone(),
            want: want.clone(),
            got: got.clone(),
            profile: Profile::default(),
            sample: Vec::new(),
        });
        entry.count += 1;
        if index < entry.index {
            (entry.index, entry.case, entry.want, entry.got) = (index, case.clone(), want.clone(), got.clone());
        }
        if let Ask::Request(r) = &case.ask {
            entry.profile.add(r);
            let item = Sampled {
                index,
                request: r.clone(),
                got,
            };
            keep(&mut entry.sample, SAMPLE, item);
        }
    }

    /// Takes in another copy's groups.
    pub(crate) fn merge(&mut self, other: Groups) {
        for (group, p) in other.groups {
            match self.groups.get_mut(&group) {
                Some(mine) => {
                    mine.count += p.count;
                    mine.profile.merge(&p.profile);
                    for s in p.sample {
                        keep(&mut mine.sample, SAMPLE, s);
                    }
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

/// One group's finding: its example shrunk (a generated case) or as it
/// is, and its cause decided on the request it shows, asking the lower ops
/// the target claims. Everything the target controls is shown escaped.
#[allow(clippy::needless_pass_by_value, reason = "each group is made into its finding once")]
pub(crate) fn finding(mut driver: Option<&mut Driver>, op: &str, p: Pending, shrink_budget: u64, target: &str) -> Made {
    let text = |ask: &Ask| match ask {
        Ask::Request(r) => crate::base::text::json(&r.to_value().to_string()),
        Ask::Invalid(i) => escape_str(&i.line),
    };
    let found = text(&p.case.ask);
    // Asked again only with a live target and a budget (or when the answer
    // was too large to keep); a case not asked again is shown as found.
    let again = shrink_budget > 0 || p.got.is_none();
    let (shrunk, asked) = match (&p.case.ask, driver.as_deref_mut()) {
        (Ask::Request(r), Some(d)) if d.alive && again => (super::shrink::shrink(d, r, shrink_budget), true),
        _ => (None, false),
    };
    let repeats = shrunk.is_some() || !asked;
    // The answer shown is the target's own (shrunk, or kept by the run).
    let answered = shrunk.is_some() || p.got.is_some();
    let lost = || Reply::Error {
        kind: "(not kept)".into(),
        message: "the answer was larger than an example keeps, and the target could not be asked again".into(),
    };
    let (ask, want, got, steps) = match shrunk {
        Some(s) => (Ask::Request(s.request), s.want, s.got, s.steps),
        None => (
            p.case.ask.clone(),
            p.want.clone(),
            p.got.clone().unwrap_or_else(lost),
            0,
        ),
    };
    // The story, the cause and the HMAC step all come from the request shown.
    let mut probe = |lower: &crate::op::Request| driver.as_deref_mut().filter(|d| d.alive).and_then(|d| d.probe(lower));
    let decision = decide(&ask, &want, &got, &mut probe);
    let mut parted = match &ask {
        Ask::Invalid(i) => format!(
            "provably answers invalid ({}: {}); the target did not",
            crate::op::flag::join(&i.flags),
            i.comment
        ),
        Ask::Request(_) => decision.story,
    };
    if !repeats {
        parted.push_str(
            " (asked again alone, the target answered otherwise: its answers depend on more than the request)",
        );
    }
    let minimal = match &ask {
        Ask::Request(r) if answered => Some((r.clone(), got.clone())),
        _ => None,
    };
    let finding = Finding {
        request: text(&ask),
        shrink_steps: steps,
        parted: escape_str(&parted),
        hmac: decision.hmac,
        reading: decision.reading,
        ..shown(op, &p, &decision.group, decision.cause, found, &want, &got, target)
    };
    Made {
        finding,
        index: p.index,
        profile: p.profile,
        sample: p.sample,
        minimal,
    }
}

/// A finding of one symptom class: its counts, its example's answers and
/// their diff, as shown; the caller fills in the request and its story.
#[allow(clippy::too_many_arguments, reason = "the parts of one finding, made once")]
fn shown(
    op: &str,
    p: &Pending,
    group: &str,
    cause: super::report::Cause,
    found: String,
    want: &Reply,
    got: &Reply,
    target: &str,
) -> Finding {
    let (expected, got) = (answer_text(want), answer_text(got));
    let group = escape_str(group);
    Finding {
        op: op.to_string(),
        headline: group.clone(),
        symptoms: vec![Symptom {
            group: group.clone(),
            count: p.count,
        }],
        group,
        cause,
        separates: Separates::default(),
        known: None,
        unknown: String::new(),
        count: p.count,
        origin: escape_str(&p.case.origin.to_string()),
        diff: clip_lines(&unified_diff(
            &expected,
            &got,
            "provably (Rust)",
            &format!("target {}", escape_str(target)),
        )),
        found,
        request: String::new(),
        shrink_steps: 0,
        expected,
        got,
        parted: String::new(),
        hmac: None,
        recorded: None,
        reading: None,
    }
}

/// The most bytes of one answer a finding shows: a target's answer may be
/// 15 MiB, and a finding costs what a case may cost, not what it answered.
const SHOWN_ANSWER: usize = 1 << 20;

/// An answer as the finding shows it: pretty JSON, every hidden character
/// escaped, cut to [`SHOWN_ANSWER`] bytes.
fn answer_text(reply: &Reply) -> String {
    let text = crate::base::text::json(&serde_json::to_string_pretty(&pretty(reply)).expect("values serialize"));
    if text.len() <= SHOWN_ANSWER {
        return text + "\n";
    }
    let mut end = SHOWN_ANSWER;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n… {} more bytes not shown\n", &text[..end], text.len() - end)
}

/// A diff cut to its first lines: a 100,000-element order differs in
/// 100,000 lines, and the first step where the sides part says where.
fn clip_lines(diff: &str) -> String {
    const KEPT: usize = 400;
    let total = diff.lines().count();
    if total <= KEPT {
        return diff.to_string();
    }
    let mut out: String = diff.lines().take(KEPT).collect::<Vec<_>>().join("\n");
    out.push_str(&format!("\n… {} more lines of diff", total - KEPT));
    out
}
