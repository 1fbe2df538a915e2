//! One game of a crash history, checked alone by a worker: read by the
//! rules of docs/proofs.md ("Crash histories"), its point derived by the
//! chain's variant and compared with the point observed. Its place on the
//! chain is followed in order by [`super::chain::Chains`].

use std::sync::Arc;

use serde_json::{Map, Value};

use super::chain::{Game, Head};
use super::commit::EpochHead;
use super::compare::read_observed;
use super::round::{judge, parse_round, Round, OBSERVED};
use super::{Event, FieldError, Finding, FindingKind, RoundVerdict};
use crate::base::chain::bytes_of;
use crate::op::{read_int, Request};
use crate::stats::Counted;

/// The keys of a game.
const GAME_KEYS: [&str; 3] = ["game", "hash", OBSERVED];

/// Why a game without its hash is unobserved.
pub(crate) const NO_HASH: &str = "no hash shown: the game's point cannot be derived, nothing is compared";

/// Checks a round of any epoch: a game of a crash history, or a round
/// ([`super::round::check_round`]).
pub(crate) fn check(head: &EpochHead, round: u64, raw: &[u8], stats: bool) -> Event {
    match &head.chain {
        Some(chain) => check_game(head, chain, round, raw, stats),
        None => super::round::check_round(head, round, raw, stats),
    }
}

/// A game read: its number, and its request and hash when it shows one.
struct Read {
    number: u64,
    request: Option<(Request, [u8; 32])>,
    observed: Option<Map<String, Value>>,
}

/// Reads a game: every rule in docs/proofs.md's order.
fn read_game(chain: &Head, raw: &[u8]) -> Result<Read, FieldError> {
    let raw = std::str::from_utf8(raw).map_err(|e| FieldError::new("round", format!("not UTF-8: {e}")))?;
    let mut map = parse_round(raw)?;
    if let Some(k) = map.keys().find(|k| !GAME_KEYS.contains(&k.as_str())) {
        return Err(FieldError::new(
            k.clone(),
            format!("is not a field of a game ({})", GAME_KEYS.join(", ")),
        ));
    }
    let number = match map.get("game") {
        None => return Err(FieldError::new("game", "is missing")),
        Some(v) => read_int("game", v)?,
    };
    chain.distance(number)?;
    let request = match map.shift_remove("hash") {
        None => None,
        Some(h) => {
            let request = chain.game(h.clone()).map_err(|e| FieldError::of_op(&e))?;
            // The op's parser held it to 64 lowercase hex digits.
            Some((request, bytes_of(h.as_str().unwrap_or_default())))
        }
    };
    let observed = map
        .shift_remove(OBSERVED)
        .map(|o| read_observed(chain.sample.spec(), o))
        .transpose()?;
    Ok(Read {
        number,
        request,
        observed,
    })
}

/// Checks one game of a crash history given as its JSON text: its point
/// (when its hash is shown); its place on the chain is followed in order
/// by [`Chains`].
fn check_game(head: &EpochHead, chain: &Result<Arc<Head>, FieldError>, round: u64, raw: &[u8], stats: bool) -> Event {
    let at = head.place().round(round);
    let event = |verdict, findings, counted, game| Event::Round {
        epoch: head.epoch,
        round,
        verdict,
        findings,
        bet: None,
        counted,
        game,
    };
    let read = chain
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|c| read_game(c, raw).map(|r| (c, r)));
    let (chain, read) = match read {
        Ok(x) => x,
        Err(e) => return event(RoundVerdict::Invalid, vec![e.at(at).finding()], None, None),
    };
    let game = |hash| {
        Some(Box::new(Game {
            head: Arc::clone(chain),
            number: read.number,
            hash,
            line: head.line,
        }))
    };
    let Some((request, hash)) = read.request else {
        // No hash: nothing to derive the point from. Its observed point is
        // what `--stats` counts.
        let mut f = Finding::new(FindingKind::Unobserved, at);
        f.observed = read.observed.clone().map_or(Value::Null, Value::Object);
        f.reason = Some(NO_HASH.into());
        let counted = read
            .observed
            .filter(|_| stats)
            .and_then(|o| Counted::of(&chain.sample, &Value::Object(o)));
        return event(RoundVerdict::Unobserved, vec![f], counted, game(None));
    };
    let round = Round {
        request,
        observed: read.observed,
        external: None,
        seats: None,
    };
    let derived = round.request.run();
    let j = judge(&round, at, derived.as_ref());
    if j.verdict == RoundVerdict::Invalid {
        return event(j.verdict, j.findings, None, None);
    }
    let counted = derived
        .ok()
        .filter(|_| stats)
        .and_then(|d| Counted::of(&round.request, &d.to_value()));
    event(j.verdict, j.findings, counted, game(Some(hash)))
}
