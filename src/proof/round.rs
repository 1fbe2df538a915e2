//! One round: read and validated against every rule of the format and of
//! protocol v1 (the protocol's own parser, the epoch's secret and the
//! seats filled in), derived, and judged against what was observed.
//!
//! `check_round` is a round's whole check: the fast paths
//! (`super::fast`) first, which only ever decide a match, then the full
//! path, which parses the round and compares it leaf by leaf
//! (`super::compare`).

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::commit::EpochHead;
use super::compare::{mismatches, read_observed};
use super::{Event, FieldError, Finding, FindingKind, Place, RoundVerdict};
use crate::base::json::{Items, KeyPath, Strict};
use crate::op::error::OpError;
use crate::op::{self, fields::CLIENT_SEED, type_name, OpSpec, Outcome, Request};
use crate::stats::Counted;

/// The round keys that are not request fields.
pub(crate) const OBSERVED: &str = "observed";
pub(crate) const EXTERNAL: &str = "external";
pub(crate) const SEATS: &str = "seats";

/// The longest `external` reason, in characters.
pub(crate) const MAX_EXTERNAL: usize = 64;

/// A round read and validated: the request (with the epoch's secret and
/// the seats' client seed filled in), and what the round says besides.
#[derive(Debug, Clone)]
pub struct Round {
    pub request: Request,
    pub observed: Option<Map<String, Value>>,
    pub(crate) external: Option<String>,
    pub(crate) seats: Option<Value>,
}

/// The invalid-input errors of the protocol parser, as field errors.
pub(crate) fn op_error(e: &OpError) -> FieldError {
    match e {
        OpError::Invalid(i) => FieldError::new(i.field.clone(), i.reason.clone()),
        OpError::Unsupported { op } => FieldError::new("op", format!("{op:?} is not an op a round can hold")),
        other => FieldError::new("op", other.to_string()),
    }
}

/// Reads a round object: every rule of the format and of protocol v1.
/// `secret` is the epoch's secret field and value.
pub(crate) fn read_round(value: Value, secret: Option<(&str, &Value)>) -> Result<Round, FieldError> {
    let Value::Object(mut map) = value else {
        return Err(FieldError::new(
            "round",
            format!("must be a JSON object, not {}", type_name(&value)),
        ));
    };
    if map.contains_key("id") {
        return Err(FieldError::new("id", "a round is a request without id"));
    }
    // shift_remove keeps the other keys in text order (the parser names the
    // first unknown key in that order).
    let observed = map.shift_remove(OBSERVED);
    let external = map.shift_remove(EXTERNAL);
    let seats = map.shift_remove(SEATS);
    let spec = match map.get("op") {
        Some(Value::String(name)) => crate::registry::find(name)
            .ok_or_else(|| FieldError::new("op", format!("{name:?} is not an op a round can hold")))?,
        Some(other) => {
            return Err(FieldError::new(
                "op",
                format!("must be a string, not {}", type_name(other)),
            ))
        }
        None => return Err(FieldError::new("op", "is missing")),
    };
    fill_secret(spec, &mut map, secret)?;
    if let Some(seats) = &seats {
        fill_seats(spec, &mut map, seats)?;
    }
    let external = external.map(|e| read_external(&e)).transpose()?;
    let request = Request::read(map.into_iter().collect(), crate::registry::find).map_err(|e| op_error(&e))?;
    let observed = observed.map(|o| read_observed(spec, o)).transpose()?;
    Ok(Round {
        request,
        observed,
        external,
        seats,
    })
}

/// Puts the epoch's secret into the round, if its op takes one.
fn fill_secret(spec: &OpSpec, map: &mut Map<String, Value>, secret: Option<(&str, &Value)>) -> Result<(), FieldError> {
    let Some(s) = spec.secret else {
        return Ok(());
    };
    if s.commit_op == spec.name {
        return Err(FieldError::new(
            "op",
            format!("{} answers a commitment; it is not a round", spec.name),
        ));
    }
    if map.contains_key(s.field) {
        return Err(FieldError::new(s.field, "belongs to the epoch, not to the round"));
    }
    match secret {
        Some((field, value)) if field == s.field => {
            map.insert(field.to_string(), value.clone());
            Ok(())
        }
        Some((field, _)) => Err(FieldError::new(
            field,
            format!(
                "a {} round takes its committed secret as {:?}; this epoch carries {field:?}",
                spec.name, s.field
            ),
        )),
        None => Err(FieldError::new(
            s.field,
            format!(
                "is missing: the epoch holds no {} for this {} round",
                s.field, spec.name
            ),
        )),
    }
}

/// Replaces `clientSeed` by the seats' seeds, ordered by ascending player.
fn fill_seats(spec: &OpSpec, map: &mut Map<String, Value>, seats: &Value) -> Result<(), FieldError> {
    if spec.field(CLIENT_SEED.name).is_none() {
        return Err(FieldError::new(
            SEATS,
            format!("{} has no {} for seats to stand for", spec.name, CLIENT_SEED.name),
        ));
    }
    if map.contains_key(CLIENT_SEED.name) {
        return Err(FieldError::new(
            SEATS,
            format!("give {} or seats, not both", CLIENT_SEED.name),
        ));
    }
    map.insert(CLIENT_SEED.name.into(), Value::from(seat_seed(seats)?));
    Ok(())
}

/// The client seed of a table round: the seats' seeds ordered by ascending
/// `player`, concatenated with no separator. A player seated twice is invalid.
pub fn seat_seed(seats: &Value) -> Result<String, FieldError> {
    let Value::Array(items) = seats else {
        return Err(FieldError::new(
            SEATS,
            format!(
                "must be a list of {{\"player\", \"seed\"}} objects, not {}",
                type_name(seats)
            ),
        ));
    };
    let mut seen = HashSet::new();
    let mut list = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = |reason: String| FieldError {
            field: SEATS.into(),
            index: Some(i as u64),
            reason,
        };
        let Value::Object(seat) = item else {
            return Err(at(format!(
                "must be an object {{\"player\": …, \"seed\": …}}, not {}",
                type_name(item)
            )));
        };
        if let Some(key) = seat.keys().find(|k| *k != "player" && *k != "seed") {
            return Err(at(format!("{key:?} is not a field of a seat")));
        }
        let player = match seat.get("player") {
            Some(v) => op::read_int("player", v).map_err(|e| at(e.to_string()))?,
            None => return Err(at("player: is missing".into())),
        };
        let seed = match seat.get("seed") {
            Some(Value::String(s)) => s.as_str(),
            Some(other) => return Err(at(format!("seed: must be a string, not {}", type_name(other)))),
            None => return Err(at("seed: is missing".into())),
        };
        if !seen.insert(player) {
            let first = list.iter().position(|&(p, _)| p == player).expect("seen before");
            return Err(at(format!("player {player} sits twice (seats {first} and {i})")));
        }
        list.push((player, seed));
    }
    list.sort_by_key(|&(p, _)| p);
    Ok(list.into_iter().map(|(_, s)| s).collect())
}

fn read_external(v: &Value) -> Result<String, FieldError> {
    match v {
        Value::String(s) if !s.is_empty() && s.chars().count() <= MAX_EXTERNAL => Ok(s.clone()),
        Value::String(_) => Err(FieldError::new(
            EXTERNAL,
            format!("must be a reason of 1 to {MAX_EXTERNAL} characters"),
        )),
        other => Err(FieldError::new(
            EXTERNAL,
            format!("must be a string (the reason), not {}", type_name(other)),
        )),
    }
}

/// The longest derived outcome an `unobserved` finding lists, in bytes of
/// compact JSON. A six- or eight-deck shoe (under 2.2 KB) is listed; a
/// 100,000-item shuffle (about 700 KB) is not, so that an archive of big
/// unobserved rounds has a report of its own size, not of its outcomes'.
pub(crate) const MAX_LISTED: usize = 4096;

/// The finding of a round with nothing observed: the derived outcome as
/// `derived`, or, past [`MAX_LISTED`], null and its size in the reason
/// (`provably derive` gives it whole). The size is counted only up to the
/// limit.
fn unobserved(round: &Round, at: Place, derived: &Value) -> Finding {
    let mut f = Finding::new(FindingKind::Unobserved, at);
    f.observed = round.observed.clone().map_or(Value::Null, Value::Object);
    let mut size = Counter(0);
    let _ = serde_json::to_writer(&mut size, derived);
    if size.0 <= MAX_LISTED {
        f.derived = derived.clone();
        f.reason = Some("nothing observed: the round is derived, nothing is compared".into());
    } else {
        f.reason = Some(format!(
            "nothing observed: the round is derived, nothing is compared; its outcome (more than {MAX_LISTED} bytes of JSON) is not listed: `provably derive {}` gives it",
            round.request.op()
        ));
    }
    f
}

/// Counts the bytes written to it, and stops the writer (an error) once
/// past [`MAX_LISTED`]: the size of a big outcome is only known to be big.
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        if self.0 > MAX_LISTED {
            return Err(std::io::Error::other("past the listing limit"));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A round checked: its verdict and findings, and what was derived.
#[derive(Debug, Clone)]
pub(crate) struct Judgement {
    pub(crate) verdict: RoundVerdict,
    pub findings: Vec<Finding>,
    pub(crate) derived: Option<Value>,
}

/// A round whose request the op refuses (a rule that ties fields together,
/// such as blackjack.strategy's canSplit without a pair: the field the op
/// names) or cannot answer (dice `exhausted`: no field).
fn underivable(round: &Round, at: Place, e: &OpError) -> Judgement {
    let mut f = Finding::new(FindingKind::Invalid, at);
    f.reason = Some(match e {
        OpError::Invalid(i) => {
            f.field = Some(i.field.clone());
            format!("{} refuses the round: {}", round.request.op(), i.reason)
        }
        other => format!("{} cannot be derived: {other}", round.request.op()),
    });
    Judgement {
        verdict: RoundVerdict::Invalid,
        findings: vec![f],
        derived: None,
    }
}

/// Judges a read round against what was observed, given its derivation
/// (`derived`: the op run on the round's request, once).
pub(crate) fn judge(round: &Round, at: Place, derived: Result<Outcome, OpError>) -> Judgement {
    if let Some(reason) = &round.external {
        // Validated like any round, the op's own rules included; nothing compared.
        if let Err(e @ OpError::Invalid(_)) = derived {
            return underivable(round, at, &e);
        }
        let mut f = Finding::new(FindingKind::Skipped, at);
        f.field = Some(EXTERNAL.into());
        f.reason = Some(reason.clone());
        f.observed = round.observed.clone().map_or(Value::Null, Value::Object);
        return Judgement {
            verdict: RoundVerdict::Skipped,
            findings: vec![f],
            derived: None,
        };
    }
    let derived = match derived {
        Ok(d) => d.to_value(),
        Err(e) => return underivable(round, at, &e),
    };
    let empty = Map::new();
    let observed = round.observed.as_ref().unwrap_or(&empty);
    let (compared, differing) = mismatches(at, observed, &derived, round.request.spec());
    let (verdict, findings) = if !differing.is_empty() {
        (RoundVerdict::Mismatch, differing)
    } else if compared == 0 {
        (RoundVerdict::Unobserved, vec![unobserved(round, at, &derived)])
    } else {
        (RoundVerdict::Match, Vec::new())
    };
    Judgement {
        verdict,
        findings,
        derived: Some(derived),
    }
}

/// Checks one round given as its JSON text. The op runs once: a fast path
/// ([`super::fast`]) that reads the request decides a match from the
/// derivation, and hands it on to the full path otherwise. With `stats`,
/// the round's cells for the statistics travel in the event.
pub(crate) fn check_round(head: &EpochHead, round: u64, raw: &[u8], stats: bool) -> Event {
    let at = head.place().round(round);
    let event = |verdict, findings, bet, counted| Event::Round {
        epoch: head.epoch,
        round,
        verdict,
        findings,
        bet,
        counted,
        game: None,
    };
    let invalid = |e: FieldError| event(RoundVerdict::Invalid, vec![e.at(at).finding()], None, None);
    let secret = head.secret.as_ref().map(|(f, v)| (*f, v));
    let mut early = None;
    if let Some(fast) = super::fast::members(raw, secret) {
        let derived = fast.round.request.run();
        if let Ok(outcome) = &derived {
            if fast.round.external.is_none() && super::fast::same_text(outcome, fast.observed) {
                let counted = stats
                    .then(|| Counted::of(&fast.round.request, &outcome.to_value()))
                    .flatten();
                return event(RoundVerdict::Match, Vec::new(), bet_of(head, &fast.round), counted);
            }
        }
        early = Some((fast.round.request, derived));
    }
    let raw = match std::str::from_utf8(raw) {
        Ok(text) => text,
        Err(e) => return invalid(FieldError::new("round", format!("not UTF-8: {e}"))),
    };
    // Parsed whole, observation included, so that the first key given twice
    // in the text is the round's first error.
    let map = match parse_round(raw, false) {
        Ok((map, _)) => map,
        Err(e) => return invalid(e),
    };
    let r = match read_round(Value::Object(map), secret) {
        Ok(r) => r,
        Err(e) => return invalid(e),
    };
    let derived = match early {
        Some((request, derived)) if request == r.request => derived,
        _ => r.request.run(),
    };
    let j = judge(&r, at, derived);
    let counted = j
        .derived
        .as_ref()
        .filter(|_| stats)
        .and_then(|d| Counted::of(&r.request, d));
    // A round the op refuses (a wheel of 15 segments) is no bet.
    let bet = if j.verdict == RoundVerdict::Invalid {
        None
    } else {
        bet_of(head, &r)
    };
    event(j.verdict, j.findings, bet, counted)
}

/// The bet a round is on its seed pair, if its op is a bet and the round came from the seed.
pub(crate) fn bet_of(head: &EpochHead, r: &Round) -> Option<super::Bet> {
    if r.external.is_some() || !r.request.spec().bet {
        return None;
    }
    Some(super::Bet {
        server: std::sync::Arc::clone(head.text.as_ref()?),
        client: r.request.text(crate::op::fields::CLIENT_SEED).to_string(),
        nonce: r.request.int(crate::op::fields::NONCE),
        line: head.line,
    })
}

/// A round's members; with `raw_observed`, its `observed` kept as text
/// rather than parsed.
pub(crate) fn parse_round(raw: &str, raw_observed: bool) -> Result<(Map<String, Value>, Option<&str>), FieldError> {
    if !raw.trim_start().starts_with('{') {
        let v = parse_strict(raw)?;
        return Err(FieldError::new(
            "round",
            format!("must be a JSON object, not {}", type_name(&v)),
        ));
    }
    let path = KeyPath::default();
    let items = Items::default();
    let mut de = serde_json::Deserializer::from_str(raw);
    let result = de
        .deserialize_map(RoundVisitor {
            strict: Strict::new(Some(&path), &items),
            path: &path,
            raw_observed,
        })
        .and_then(|parts| de.end().map(|()| parts));
    result.map_err(|e| refused(&path, &items, &e))
}

struct RoundVisitor<'a> {
    strict: Strict<'a>,
    path: &'a KeyPath,
    raw_observed: bool,
}

impl<'de> Visitor<'de> for RoundVisitor<'_> {
    type Value = (Map<String, Value>, Option<&'de str>);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a round object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Map::new();
        let mut observed: Option<&'de serde_json::value::RawValue> = None;
        while let Some(key) = map.next_key::<String>()? {
            self.strict.take()?;
            if out.contains_key(&key) || (key == OBSERVED && observed.is_some()) {
                *self.path.twice.borrow_mut() = Some(key.clone());
                return Err(de::Error::custom(format_args!("key {key:?} appears twice")));
            }
            if key == OBSERVED && self.raw_observed {
                observed = Some(map.next_value()?);
                continue;
            }
            let strict = self.strict;
            let (key, value) = crate::base::json::within(Some(self.path), key, || map.next_value_seed(strict))?;
            out.insert(key, value);
        }
        Ok((out, observed.map(serde_json::value::RawValue::get)))
    }
}

/// Parses a round's JSON text, refusing a key given twice: the error names
/// the key by its path of object keys (`nonce`, `observed.cut`, `seats.player`).
pub(crate) fn parse_strict(raw: &str) -> Result<Value, FieldError> {
    parse_strict_at(raw, None)
}

/// [`parse_strict`] for a value found under the key `base`.
fn parse_strict_at(raw: &str, base: Option<&str>) -> Result<Value, FieldError> {
    let path = KeyPath {
        keys: RefCell::new(base.map(str::to_string).into_iter().collect()),
        twice: RefCell::new(None),
    };
    let items = Items::default();
    let strict = Strict::new(Some(&path), &items);
    let mut de = serde_json::Deserializer::from_str(raw);
    let result = strict.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    result.map_err(|e| refused(&path, &items, &e))
}

/// The round's error for what the strict reader refused: a key twice (by
/// its path), more items than any round holds, or not JSON.
fn refused(path: &KeyPath, items: &Items, e: &serde_json::Error) -> FieldError {
    if let Some(path) = path.twice.borrow_mut().take() {
        return FieldError::new(path, "appears twice");
    }
    match items.past(e) {
        Some(why) => FieldError::new("round", why),
        None => FieldError::new("round", format!("not JSON: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn seats_are_concatenated_by_ascending_player_and_a_repeated_player_is_refused() {
        let seats = json!([{"player": 9, "seed": "c"}, {"player": 2, "seed": "a"}, {"player": 7, "seed": "b"}]);
        assert_eq!(seat_seed(&seats).unwrap(), "abc");
        let twice = json!([{"player": 2, "seed": "a"}, {"player": 5, "seed": "b"}, {"player": 2, "seed": "c"}]);
        let e = seat_seed(&twice).unwrap_err();
        assert_eq!((e.field.as_str(), e.index), ("seats", Some(2)));
        assert!(e.reason.contains("player 2 sits twice (seats 0 and 2)"), "{e}");
    }

    #[test]
    fn a_repeated_key_is_named_by_its_path() {
        let e = parse_strict(r#"{"op": "x", "observed": {"cut": 1, "cut": 2}}"#).unwrap_err();
        assert_eq!(e.field, "observed.cut");
        let e = parse_strict(r#"{"seats": [{"player": 1, "seed": "a", "player": 2}]}"#).unwrap_err();
        assert_eq!(e.field, "seats.player");
        assert_eq!(parse_strict("[1,").unwrap_err().field, "round");
        let e = parse_round(r#"{"observed": {"a": 1, "a": 2}, "n": 1, "n": 2}"#, false).unwrap_err();
        assert_eq!(e.field, "observed.a", "the first repeated key in the text");
        // At any depth, through arrays, and in a round read with its
        // observation kept as text; the same key at two depths is no repeat.
        assert_eq!(parse_strict(r#"{"nonce": 1, "nonce": 2}"#).unwrap_err().field, "nonce");
        assert_eq!(
            parse_strict(r#"{"a": [{"b": {"c": 1, "c": 1}}]}"#).unwrap_err().field,
            "a.b.c"
        );
        let round = r#"{"nonce": 1, "observed": {"seats": {"player": 1, "player": 1}}}"#;
        assert_eq!(parse_round(round, false).unwrap_err().field, "observed.seats.player");
        assert_eq!(
            parse_round(r#"{"nonce": 1, "nonce": 1}"#, true).unwrap_err().field,
            "nonce"
        );
        assert!(parse_strict(r#"{"observed": {"cut": 1}, "cut": 2}"#).is_ok());
    }

    #[test]
    fn a_round_is_derived_once_on_every_path() {
        // A crash chain's distance is the costliest derivation of any op: a
        // mismatching round used to be derived by both fast paths and then
        // again by the full one.
        let hash = "ab".repeat(32);
        let mut h = hash.clone();
        for _ in 0..1000 {
            h = crate::base::crypto::sha256_hex(&h);
        }
        let head = EpochHead::new(0, None, None);
        let round = |observed: &str| {
            format!(
                r#"{{"op": "stake.crash.chain", "hash": "{hash}", "terminatingHash": "{h}", "limit": 2000{observed}}}"#
            )
        };
        for (observed, verdict) in [
            (r#", "observed": {"distance": 1000}"#, RoundVerdict::Match),
            (r#", "observed": {"distance": 999}"#, RoundVerdict::Mismatch),
            (r#", "observed": {"distance": 999}, "nonce": 1"#, RoundVerdict::Invalid),
            ("", RoundVerdict::Unobserved),
        ] {
            for stats in [false, true] {
                op::RUNS.with(|n| n.set(0));
                let e = check_round(&head, 0, round(observed).as_bytes(), stats);
                let Event::Round { verdict: got, .. } = e else {
                    panic!("{e:?}")
                };
                assert_eq!(got, verdict, "{observed}");
                let runs = op::RUNS.with(std::cell::Cell::get);
                assert!(runs <= 1, "{observed:?}, stats {stats}: derived {runs} times");
            }
        }
    }
}
