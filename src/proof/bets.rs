//! Bet histories: the nonce continuity of a seed pair (docs/proofs.md,
//! "Bet histories").
//!
//! Stake's nonce "increases by 1 on each play" of a seed pair, across its
//! games (help.stake.us, "Provable Fairness"; the implementation page's
//! byte generator takes it as an input of every bet): one server seed and
//! one client seed give each nonce to exactly one bet. So in a history:
//! * a nonce that a second round of the epoch bets again under the same
//!   client seed is a **mismatch** at that round (field `nonce`): the
//!   operator showed one bet's outcome twice, or two bets drew the same
//!   randomness;
//! * nonces missing between the first and the last shown of a client seed
//!   are a **gap** finding of the epoch: bets the history does not hold,
//!   whose outcomes nobody can check (an export that left out the bets that
//!   would not verify looks exactly like this). A gap changes no verdict: a
//!   history filtered by game has gaps too. Nonces before the first one
//!   shown are not judged: where a pair's count starts is not published.
//!
//! The rounds counted are those of the bet ops ([`crate::schemes::stake::is_bet`]),
//! as the audit's collector sees them, in document order. Memory is the
//! runs of nonces seen (start, end), so a history in nonce order holds one
//! run per client seed whatever its length; an epoch of more than
//! [`MAX_RUNS`] separate runs is not followed further, and says so.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::{Bet, Event, Finding, FindingKind, Place, RoundVerdict};

/// The most separate runs of nonces one epoch may hold before its
/// continuity is no longer followed (about 50 MiB at the cap).
pub const MAX_RUNS: usize = 1 << 20;

/// The runs of one client seed: start → end, inclusive, disjoint and not adjacent.
type Runs = std::collections::BTreeMap<u64, u64>;

/// The epoch being followed.
#[derive(Debug, Default)]
pub(crate) struct Bets {
    epoch: Option<Place>,
    /// Each client seed's runs, in the order of its first bet.
    pairs: Vec<(String, Runs)>,
    index: HashMap<String, usize>,
    runs: usize,
    overflow: bool,
}

impl Bets {
    /// Sees one event in document order: a repeated nonce turns its round
    /// into a mismatch; an epoch's end (or the next epoch's beginning)
    /// pushes its gap findings to `out` first. Every event goes on to `out`.
    pub(crate) fn see(&mut self, mut e: Event, out: &mut Vec<Event>) {
        match &mut e {
            Event::Epoch { .. } => self.finish(out),
            Event::EpochEnd { at } => {
                self.epoch = Some(*at);
                self.finish(out);
            }
            Event::Round {
                epoch,
                round,
                verdict,
                findings,
                bet: Some(bet),
            } if *verdict != RoundVerdict::Invalid => {
                let at = Place::epoch(*epoch, bet.line);
                self.epoch.get_or_insert(at);
                if self.repeats(bet) {
                    *verdict = RoundVerdict::Mismatch;
                    findings.push(repeated(at.round(*round), bet));
                }
            }
            _ => {}
        }
        if !matches!(e, Event::EpochEnd { .. }) {
            out.push(e);
        }
    }

    /// Whether `bet`'s nonce was bet before in this epoch; records it if not.
    fn repeats(&mut self, bet: &Bet) -> bool {
        if self.overflow {
            return false;
        }
        let i = match self.index.get(&bet.client) {
            Some(&i) => i,
            None => {
                self.index.insert(bet.client.clone(), self.pairs.len());
                self.pairs.push((bet.client.clone(), Runs::new()));
                self.pairs.len() - 1
            }
        };
        let runs = &mut self.pairs[i].1;
        let n = bet.nonce;
        let before = runs.range(..=n).next_back().map(|(&s, &e)| (s, e));
        if before.is_some_and(|(_, end)| end >= n) {
            return true;
        }
        let joins_before = before.filter(|&(_, end)| end.checked_add(1) == Some(n));
        let after = n.checked_add(1).and_then(|m| runs.get(&m).copied());
        match (joins_before, after) {
            (Some((s, _)), Some(e)) => {
                runs.remove(&(n + 1));
                runs.insert(s, e);
                self.runs -= 1;
            }
            (Some((s, _)), None) => {
                runs.insert(s, n);
            }
            (None, Some(e)) => {
                runs.remove(&(n + 1));
                runs.insert(n, e);
            }
            (None, None) => {
                runs.insert(n, n);
                self.runs += 1;
            }
        }
        if self.runs > MAX_RUNS {
            self.overflow = true;
            self.pairs.clear();
            self.index.clear();
        }
        false
    }

    /// The epoch ends: its gap findings go out.
    pub(crate) fn finish(&mut self, out: &mut Vec<Event>) {
        let Some(at) = self.epoch.take() else { return };
        if self.overflow {
            let mut f = Finding::new(FindingKind::Gap, at);
            f.field = Some("nonce".into());
            f.reason = Some(format!(
                "more than {MAX_RUNS} separate runs of nonces: the continuity of this epoch's bets is not followed"
            ));
            out.push(Event::Note(f));
        }
        for (client, runs) in self.pairs.drain(..) {
            let mut last: Option<u64> = None;
            for (&start, &end) in &runs {
                if let Some(l) = last {
                    out.push(Event::Note(gap(at, &client, l + 1, start - 1)));
                }
                last = Some(end);
            }
        }
        self.index.clear();
        self.runs = 0;
        self.overflow = false;
    }
}

fn repeated(at: Place, bet: &Bet) -> Finding {
    let mut f = Finding::new(FindingKind::Mismatch, at);
    f.field = Some("nonce".into());
    f.observed = json!(bet.nonce);
    f.differences = Some(1);
    f.reason = Some(format!(
        "nonce {} of client seed {} was bet by an earlier round of this epoch: a seed pair gives each nonce to one bet",
        bet.nonce,
        Value::from(bet.client.as_str())
    ));
    f
}

fn gap(at: Place, client: &str, first: u64, last: u64) -> Finding {
    let mut f = Finding::new(FindingKind::Gap, at);
    f.field = Some("nonce".into());
    f.observed = json!([first, last]);
    let which = if first == last {
        format!("nonce {first} of client seed {} is", Value::from(client))
    } else {
        format!("nonces {first} … {last} of client seed {} are", Value::from(client))
    };
    f.reason = Some(format!("{which} not in the history: those bets cannot be checked"));
    f
}
