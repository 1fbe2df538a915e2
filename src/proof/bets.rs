//! Bet histories: the nonce continuity of a seed pair (docs/proofs.md,
//! "Bet histories").
//!
//! Stake's nonce "increases by 1 on each play" of a seed pair, across its
//! games (help.stake.us, "Provable Fairness"; the implementation page's
//! byte generator takes it as an input of every bet): one server seed and
//! one client seed give each nonce to exactly one bet. So in a history:
//! * a nonce that a later round bets again under the same seed pair is a
//!   **mismatch** at that round (field `nonce`): the operator showed one
//!   bet's outcome twice, or two bets drew the same randomness;
//! * nonces missing between the first and the last shown of a seed pair
//!   are a **gap** finding: bets the history does not hold, whose outcomes
//!   nobody can check (an export that left out the bets that would not
//!   verify looks exactly like this). A gap changes no verdict: a history
//!   filtered by game has gaps too. Nonces before the first one shown are
//!   not judged: where a pair's count starts is not published.
//!
//! A seed pair is followed across the whole audit: every epoch that
//! reveals the same server seed, in every file, is one history, so how a
//! history is cut into epochs or files changes nothing. Gap findings
//! therefore come last, once every round has been seen (a later epoch can
//! fill a gap), each placed at the epoch of its pair's first bet.
//!
//! The rounds counted are those of the bet ops (declared `bet` in the op
//! table), in audit order. Memory is the runs of nonces seen (start, end),
//! so a history in nonce order holds one run per seed pair whatever its
//! length. Past [`MAX_RUNS`] separate runs in all, the history is not
//! followed further, and that is an `invalid` finding: the audit could no
//! longer see a nonce bet twice, so it cannot say the history matches.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::{json, Value};

use super::{Event, Finding, FindingKind, Place, RoundVerdict};

/// The most separate runs of nonces an audit follows (about 100 MiB at the cap).
pub(crate) const MAX_RUNS: usize = 1 << 20;

/// The runs of one seed pair: start → end, inclusive, disjoint and not adjacent.
type Runs = BTreeMap<u64, u64>;

/// One seed pair's history.
#[derive(Debug)]
struct Pair {
    /// The order of its first bet among the pairs.
    first: u64,
    /// Where its first bet is: the source (file) and the epoch.
    source: usize,
    at: Place,
    runs: Runs,
}

/// Every seed pair followed so far.
#[derive(Debug, Default)]
pub(crate) struct Bets {
    /// By server seed, then client seed: each text is held once.
    pairs: HashMap<Arc<str>, HashMap<String, Pair>>,
    /// How many pairs there are.
    count: u64,
    runs: usize,
    /// Past the cap: nothing is followed any more.
    overflow: bool,
    /// The file being read.
    source: usize,
}

impl Bets {
    /// The rounds that come next are of this source (file).
    pub(crate) fn source(&mut self, source: usize) {
        self.source = source;
    }

    /// Sees one event in audit order: a repeated nonce turns its round into
    /// a mismatch. Returns the finding of a history that can no longer be
    /// followed, the once it happens.
    pub(crate) fn see(&mut self, e: &mut Event) -> Option<Event> {
        let Event::Round {
            epoch,
            round,
            verdict,
            findings,
            bet: Some(bet),
            ..
        } = e
        else {
            return None;
        };
        if *verdict == RoundVerdict::Invalid {
            return None;
        }
        let at = Place::epoch(*epoch, bet.line);
        match self.repeats(&bet.server, &bet.client, bet.nonce, at) {
            Seen::New => None,
            Seen::Again => {
                *verdict = RoundVerdict::Mismatch;
                findings.push(repeated(at.round(*round), &bet.client, bet.nonce));
                None
            }
            Seen::Overflow => Some(Event::Invalid(overflow(at.round(*round)))),
            Seen::Past => None,
        }
    }

    /// Whether `nonce` was bet before under the seed pair (`server`,
    /// `client`); records it if not. `at` is the bet's epoch (and line),
    /// where a first bet places its pair's gaps. Nothing is followed past
    /// the cap ([`Seen::Past`]).
    pub(crate) fn repeats(&mut self, server: &Arc<str>, client: &str, nonce: u64, at: Place) -> Seen {
        if self.overflow {
            return Seen::Past;
        }
        let pair = pair(&mut self.pairs, &mut self.count, self.source, server, client, at);
        let runs = &mut pair.runs;
        let n = nonce;
        let before = runs.range(..=n).next_back().map(|(&s, &e)| (s, e));
        if before.is_some_and(|(_, end)| end >= n) {
            return Seen::Again;
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
            self.pairs = HashMap::new();
            return Seen::Overflow;
        }
        Seen::New
    }

    /// What [`Bets::repeats`] on each of the nonces `first ..= last` of
    /// one seed pair in turn gives, in one step whose time grows with the
    /// runs of nonces it meets, not with the length of the run it is given
    /// (`provably merge` follows a partial's `bets` records, whose length
    /// is only what the record claims). Returns the nonces of the run that
    /// were bet before, as runs in nonce order.
    pub(crate) fn repeats_run(&mut self, server: &Arc<str>, client: &str, first: u64, last: u64, at: Place) -> RunSeen {
        if self.overflow {
            return RunSeen::Past;
        }
        let pair = pair(&mut self.pairs, &mut self.count, self.source, server, client, at);
        let runs = &mut pair.runs;
        // The runs that overlap the bets or touch them (end just before
        // `first` or start just after `last`) become one run with them.
        let (below, above) = (first.saturating_sub(1), last.saturating_add(1));
        let (mut start, mut end, mut met, mut alone) = (first, last, 0usize, true);
        for (&s, &e) in runs.range(..=above).rev() {
            if e < below {
                break;
            }
            (start, end, met) = (start.min(s), end.max(e), met + 1);
            // One bet after another: only the first can start a run of its own.
            alone &= s > first.saturating_add(1);
        }
        if alone && self.runs + 1 > MAX_RUNS {
            self.overflow = true;
            self.pairs = HashMap::new();
            return RunSeen::Overflow;
        }
        let mut again = Vec::new();
        for (&s, &e) in runs.range(start..=above) {
            let (a, b) = (s.max(first), e.min(last));
            if a <= b {
                again.push((a, b));
            }
        }
        while let Some((&s, _)) = runs.range(start..=above).next() {
            runs.remove(&s);
        }
        runs.insert(start, end);
        self.runs = self.runs + 1 - met;
        RunSeen::Recorded(again)
    }

    /// Every round has been seen: each seed pair's gaps go to `out`, with
    /// their source, pair by pair in the order of their first bets.
    pub(crate) fn finish(&mut self, out: &mut dyn FnMut(usize, &Event) -> std::io::Result<()>) -> std::io::Result<()> {
        self.finish_as(gap, out)
    }

    /// [`Bets::finish`], each run missing written by `gap` (at, client,
    /// first, last): a crash history's missing games are not nonces.
    pub(crate) fn finish_as(
        &mut self,
        gap: fn(Place, &str, u64, u64) -> Finding,
        out: &mut dyn FnMut(usize, &Event) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let mut pairs: Vec<(String, Pair)> = std::mem::take(&mut self.pairs)
            .into_values()
            .flat_map(HashMap::into_iter)
            .collect();
        pairs.sort_by_key(|(_, p)| p.first);
        for (client, pair) in pairs {
            let mut last: Option<u64> = None;
            for (&start, &end) in &pair.runs {
                if let Some(l) = last {
                    out(pair.source, &Event::Note(gap(pair.at, &client, l + 1, start - 1)))?;
                }
                last = Some(end);
            }
        }
        self.runs = 0;
        self.count = 0;
        self.overflow = false;
        Ok(())
    }
}

/// The seed pair (`server`, `client`), made the `count`-th when it is new
/// (its first bet at `at`, in `source`).
fn pair<'p>(
    pairs: &'p mut HashMap<Arc<str>, HashMap<String, Pair>>,
    count: &mut u64,
    source: usize,
    server: &Arc<str>,
    client: &str,
    at: Place,
) -> &'p mut Pair {
    let clients = pairs.entry(Arc::clone(server)).or_default();
    if !clients.contains_key(client) {
        let first = *count;
        *count += 1;
        clients.insert(
            client.to_owned(),
            Pair {
                first,
                source,
                at,
                runs: Runs::new(),
            },
        );
    }
    clients.get_mut(client).expect("inserted")
}

/// What a run of bets was to its seed pair ([`Bets::repeats_run`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RunSeen {
    /// Followed: these nonces of the run (first, last) were bet before.
    Recorded(Vec<(u64, u64)>),
    /// Its first bet was one run too many: the history is no longer followed.
    Overflow,
    /// The history was past the cap already: nothing is followed.
    Past,
}

/// What a bet's nonce was to its seed pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    New,
    Again,
    /// It was one run too many: the history is no longer followed.
    Overflow,
    /// The history was past the cap already: nothing is followed.
    Past,
}

/// The finding of a round that bets `nonce` of `client` again.
pub(crate) fn repeated(at: Place, client: &str, nonce: u64) -> Finding {
    let mut f = Finding::new(FindingKind::Mismatch, at);
    f.field = Some("nonce".into());
    f.observed = json!(nonce);
    f.differences = Some(1);
    f.reason = Some(format!(
        "nonce {nonce} of client seed {} was bet by an earlier round of this seed pair: a seed pair gives each nonce to one bet",
        Value::from(client)
    ));
    f
}

/// The finding of the round past the cap on runs.
pub(crate) fn overflow(at: Place) -> Finding {
    let mut f = Finding::new(FindingKind::Invalid, at);
    f.field = Some("nonce".into());
    f.reason = Some(format!(
        "the bet history has more than {MAX_RUNS} separate runs of nonces: it is not followed from this round on, so a nonce bet twice after it would go unseen"
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::Bet;

    fn bet(epoch: u64, round: u64, nonce: u64) -> Event {
        Event::Round {
            epoch,
            round,
            verdict: RoundVerdict::Match,
            findings: Vec::new(),
            bet: Some(Bet {
                server: "s".into(),
                client: "c".into(),
                nonce,
                line: None,
            }),
            counted: None,
            game: None,
        }
    }

    #[test]
    fn a_history_past_the_run_cap_is_invalid_not_a_match() {
        // 2^20 + 1 even nonces (each a run of its own), then nonce 0 again:
        // the repeat can no longer be seen, so the audit must not call the
        // history a match: the run that overflows is an invalid finding.
        let mut bets = Bets::default();
        let mut invalid = Vec::new();
        for (i, n) in (0..=MAX_RUNS as u64).map(|k| 2 * k).enumerate() {
            let mut e = bet(0, i as u64, n);
            invalid.extend(bets.see(&mut e));
        }
        let mut again = bet(0, 0, 0);
        invalid.extend(bets.see(&mut again));
        assert_eq!(invalid.len(), 1, "one finding, at the run past the cap");
        let Event::Invalid(f) = &invalid[0] else {
            panic!("{:?}", invalid[0])
        };
        assert_eq!(
            (f.kind, f.field.as_deref(), f.round),
            (FindingKind::Invalid, Some("nonce"), Some(MAX_RUNS as u64))
        );
        let mut counts = crate::proof::Counts::default();
        counts.add(&invalid[0]);
        assert_eq!(counts.verdict().name(), "invalid");
        // Nothing is held past the cap, and no gap is listed for it.
        let mut gaps = 0;
        bets.finish(&mut |_, _| {
            gaps += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(gaps, 0);
    }

    #[test]
    fn a_run_of_bets_past_the_run_cap_is_one_too_many_at_its_first_bet() {
        // As `repeats` has it: only a bet that starts a run of its own can
        // pass the cap, and only the first bet of a run can start one.
        let mut bets = Bets::default();
        let server: Arc<str> = "s".into();
        let at = Place::epoch(0, None);
        let cap = MAX_RUNS as u64;
        for k in 0..cap {
            let seen = bets.repeats_run(&server, "c", 4 * k, 4 * k + 1, at);
            assert_eq!(seen, RunSeen::Recorded(Vec::new()));
        }
        // Nonce 2 joins the run 0 … 1: no run more.
        assert_eq!(bets.repeats_run(&server, "c", 2, 2, at), RunSeen::Recorded(Vec::new()));
        assert_eq!(
            bets.repeats_run(&server, "c", 4 * cap + 2, 4 * cap + 9, at),
            RunSeen::Overflow
        );
        assert_eq!(bets.repeats_run(&server, "c", 0, 0, at), RunSeen::Past);
    }

    /// The gaps a history gives, as (client, first, last).
    fn gaps(bets: &mut Bets) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        bets.finish(&mut |_, e| {
            let f = &e.findings()[0];
            out.push((f.reason.clone().unwrap_or_default(), f.observed.clone()));
            Ok(())
        })
        .unwrap();
        out
    }

    proptest::proptest! {
        /// A run of bets followed in one step is its bets followed one by
        /// one: the same nonces found bet again, the same runs held (so the
        /// same gaps), also at the ends of the nonces' range.
        #[test]
        fn a_run_of_bets_followed_at_once_is_its_bets_followed_one_by_one(
            runs in proptest::collection::vec(
                (0u8..2, proptest::prop_oneof![0u64..48, (u64::MAX - 48)..=u64::MAX], 1u64..12),
                1..40,
            )
        ) {
            let (mut at_once, mut one_by_one) = (Bets::default(), Bets::default());
            let server: Arc<str> = "s".into();
            let at = Place::epoch(0, None);
            for (client, first, count) in runs {
                let client = format!("c{client}");
                let last = first.saturating_add(count - 1);
                let RunSeen::Recorded(again) = at_once.repeats_run(&server, &client, first, last, at) else {
                    panic!("far from the cap");
                };
                let again: Vec<u64> = again.into_iter().flat_map(|(a, b)| a..=b).collect();
                let seen: Vec<u64> = (first..=last)
                    .filter(|&n| one_by_one.repeats(&server, &client, n, at) == Seen::Again)
                    .collect();
                proptest::prop_assert_eq!(again, seen);
                proptest::prop_assert_eq!(at_once.runs, one_by_one.runs);
            }
            proptest::prop_assert_eq!(gaps(&mut at_once), gaps(&mut one_by_one));
        }
    }
}
