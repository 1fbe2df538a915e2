//! One round: read and validated against every rule of the format and of
//! protocol v1 (the protocol's own parser, the epoch's secret and the
//! seats filled in), derived, and judged against what was observed by the
//! one comparer (`super::compare`).
//!
//! `check_round` reads a round's members but for its observation, derives
//! it, and reads the observation's text against the derivation. A round
//! that breaks a rule (or is `external`, or cannot be derived) is then read
//! whole, by the strict reader, so that its first error is the one
//! docs/proofs.md names: a key given twice anywhere comes before anything
//! else, the request before the observation, the observation before the
//! op's own rules.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::commit::EpochHead;
pub(crate) use super::compare::OBSERVED;
use super::compare::{mismatches, read_observed, reading, Reading, Refusal};
use super::{Event, FieldError, Finding, FindingKind, Place, RoundVerdict};
use crate::base::json::{is_space, space_run, Items, KeyPath, Reader, Strict};
use crate::base::tape::Tape;
use crate::op::error::OpError;
use crate::op::{self, fields::CLIENT_SEED, type_name, OpSpec, Outcome, Request};
use crate::stats::Counted;

/// The round keys that are not request fields (and [`OBSERVED`]).
pub(crate) const EXTERNAL: &str = "external";
pub(crate) const SEATS: &str = "seats";

/// The longest `external` reason, in characters.
pub(crate) const MAX_EXTERNAL: usize = 64;

/// A round read and validated: the request (with the epoch's secret and
/// the seats' client seed filled in), and what the round says besides.
#[derive(Debug, Clone)]
pub(crate) struct Round {
    pub(crate) request: Request,
    pub(crate) observed: Option<Map<String, Value>>,
    pub(crate) external: Option<String>,
    pub(crate) seats: Option<Value>,
}

/// Reads a round object: every rule of the format and of protocol v1.
/// `secret` is the epoch's secret field and value.
pub(crate) fn read_round(value: Value, secret: Option<(&str, &Value)>) -> Result<Round, FieldError> {
    let (mut round, observed) = read_request(value, secret)?;
    round.observed = observed.map(|o| read_observed(round.request.spec(), o)).transpose()?;
    Ok(round)
}

/// Reads a round object but for its observation, which is handed back as
/// given: the rules before the observation's (docs/proofs.md, "Round").
fn read_request(value: Value, secret: Option<(&str, &Value)>) -> Result<(Round, Option<Value>), FieldError> {
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
    let request = Request::read(map.into_iter().collect(), crate::registry::find).map_err(|e| FieldError::of_op(&e))?;
    let round = Round {
        request,
        observed: None,
        external,
        seats,
    };
    Ok((round, observed))
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
fn unobserved(op: &str, at: Place, observed: Value, derived: &Value) -> Finding {
    let mut f = Finding::new(FindingKind::Unobserved, at);
    f.observed = observed;
    let mut size = Counter(0);
    let _ = serde_json::to_writer(&mut size, derived);
    if size.0 <= MAX_LISTED {
        f.derived = derived.clone();
        f.reason = Some("nothing observed: the round is derived, nothing is compared".into());
    } else {
        f.reason = Some(format!(
            "nothing observed: the round is derived, nothing is compared; its outcome (more than {MAX_LISTED} bytes of JSON) is not listed: `provably derive {op}` gives it"
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

/// A round checked: its verdict and findings.
#[derive(Debug, Clone)]
pub(crate) struct Judgement {
    pub(crate) verdict: RoundVerdict,
    pub(crate) findings: Vec<Finding>,
}

/// A round whose request the op refuses (a rule that ties fields together,
/// such as blackjack.strategy's canSplit without a pair: the field the op
/// names) or cannot answer (dice `exhausted`: no field).
fn underivable(request: &Request, at: Place, e: &OpError) -> Judgement {
    let mut f = Finding::new(FindingKind::Invalid, at);
    f.reason = Some(match e {
        OpError::Invalid(i) => {
            f.field = Some(i.field.clone());
            format!("{} refuses the round: {}", request.op(), i.reason)
        }
        other => format!("{} cannot be derived: {other}", request.op()),
    });
    Judgement {
        verdict: RoundVerdict::Invalid,
        findings: vec![f],
    }
}

/// A round whose observation is held to the op's rules (read whole) or
/// that has none, judged.
pub(crate) fn judge(round: &Round, at: Place, derived: Result<&Outcome, &OpError>) -> Judgement {
    if let Some(reason) = &round.external {
        // Validated like any round, the op's own rules included; nothing compared.
        if let Err(e @ OpError::Invalid(_)) = derived {
            return underivable(&round.request, at, e);
        }
        let mut f = Finding::new(FindingKind::Skipped, at);
        f.field = Some(EXTERNAL.into());
        f.reason = Some(reason.clone());
        f.observed = round.observed.clone().map_or(Value::Null, Value::Object);
        return Judgement {
            verdict: RoundVerdict::Skipped,
            findings: vec![f],
        };
    }
    let outcome = match derived {
        Ok(d) => d,
        Err(e) => return underivable(&round.request, at, e),
    };
    let observed = round
        .observed
        .as_ref()
        .map(|o| serde_json::to_vec(o).expect("a value serializes"));
    // Held to the op's rules already: the comparison refuses nothing here.
    observe(&round.request, at, observed.as_deref(), outcome, usize::MAX).unwrap_or_else(|_| Judgement {
        verdict: RoundVerdict::Invalid,
        findings: vec![FieldError::new(OBSERVED, "cannot be read").at(at).finding()],
    })
}

/// The observation's text (`None`: the round has none) read against the
/// outcome, and the round's verdict and findings. `items`: how many list
/// items and object members the observation may hold.
fn observe(
    request: &Request,
    at: Place,
    observed: Option<&[u8]>,
    outcome: &Outcome,
    items: usize,
) -> Result<Judgement, Refusal> {
    // One tape per worker: a round's is about as long as the last one's.
    thread_local! {
        static DERIVED: RefCell<Tape> = RefCell::new(Tape::default());
    }
    let r = DERIVED.with_borrow_mut(|derived| {
        outcome.tape(derived);
        match observed {
            None => Ok(Reading::default()),
            Some(o) => reading(request.spec(), o, derived, items),
        }
    })?;
    let observed_value = || observed.map_or(Value::Null, |o| serde_json::from_slice(o).unwrap_or(Value::Null));
    Ok(if !r.differing.is_empty() {
        let findings = mismatches(at, request.spec(), &r, &observed_value(), &outcome.to_value());
        Judgement {
            verdict: RoundVerdict::Mismatch,
            findings,
        }
    } else if !r.compared {
        let f = unobserved(request.op(), at, observed_value(), &outcome.to_value());
        Judgement {
            verdict: RoundVerdict::Unobserved,
            findings: vec![f],
        }
    } else {
        Judgement {
            verdict: RoundVerdict::Match,
            findings: Vec::new(),
        }
    })
}

/// What a round read with its observation as written comes to: judged, or
/// handed to the strict reader with what was derived so far.
enum AsWritten {
    Judged(Round, Judgement, Outcome),
    Whole(Option<(Request, Result<Outcome, OpError>)>),
}

/// Reads a round with its observation kept as text, derives it, and reads
/// the observation against the derivation. Anything but a round that reads
/// so (a rule broken, a text the strict reader must name, `external`, a
/// refused derivation) is [`AsWritten::Whole`].
fn as_written(text: &[u8], at: Place, secret: Option<(&str, &Value)>) -> AsWritten {
    let Some(AsText {
        members,
        observed,
        items,
    }) = members_as_written(text)
    else {
        return AsWritten::Whole(None);
    };
    let Ok((round, _)) = read_request(Value::Object(members), secret) else {
        return AsWritten::Whole(None);
    };
    let derived = round.request.run();
    let outcome = match derived {
        Ok(outcome) if round.external.is_none() => outcome,
        derived => return AsWritten::Whole(Some((round.request, derived))),
    };
    match observe(&round.request, at, observed, &outcome, items) {
        Ok(j) => AsWritten::Judged(round, j, outcome),
        Err(_) => AsWritten::Whole(Some((round.request, Ok(outcome)))),
    }
}

/// Checks one round given as its JSON text. The op runs once. With `stats`,
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
    let counted =
        |request: &Request, outcome: &Outcome| stats.then(|| Counted::of(request, &outcome.to_value())).flatten();
    // Read as written, every string of it is held to UTF-8 as it is read.
    let early = match as_written(raw, at, secret) {
        AsWritten::Judged(r, j, outcome) => {
            let counted = counted(&r.request, &outcome);
            return event(j.verdict, j.findings, bet_of(head, &r), counted);
        }
        AsWritten::Whole(early) => early,
    };
    let text = match std::str::from_utf8(raw) {
        Ok(text) => text,
        Err(e) => return invalid(FieldError::new("round", format!("not UTF-8: {e}"))),
    };
    // Parsed whole, observation included, so that the first key given twice
    // in the text is the round's first error.
    let map = match parse_round(text) {
        Ok(map) => map,
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
    let j = judge(&r, at, derived.as_ref());
    // A round the op refuses (a wheel of 15 segments) is no bet.
    if j.verdict == RoundVerdict::Invalid {
        return event(j.verdict, j.findings, None, None);
    }
    let counted = match (&derived, j.verdict) {
        (Ok(outcome), RoundVerdict::Match | RoundVerdict::Mismatch | RoundVerdict::Unobserved) => {
            counted(&r.request, outcome)
        }
        _ => None,
    };
    event(j.verdict, j.findings, bet_of(head, &r), counted)
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

/// A round's members, read by the strict reader (observation included).
pub(crate) fn parse_round(raw: &str) -> Result<Map<String, Value>, FieldError> {
    if !raw[space_run(raw.as_bytes())..].starts_with('{') {
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
        })
        .and_then(|map| de.end().map(|()| map));
    result.map_err(|e| refused(&path, &items, &e))
}

struct RoundVisitor<'a> {
    strict: Strict<'a>,
    path: &'a KeyPath,
}

impl<'de> Visitor<'de> for RoundVisitor<'_> {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a round object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            self.strict.take()?;
            if out.contains_key(&key) {
                *self.path.twice.borrow_mut() = Some(key.clone());
                return Err(de::Error::custom(format_args!("key {key:?} appears twice")));
            }
            let strict = self.strict;
            let (key, value) = crate::base::json::within(Some(self.path), key, || map.next_value_seed(strict))?;
            out.insert(key, value);
        }
        Ok(out)
    }
}

/// A round's members as the strict reader reads them, but for its
/// observation, kept as the text it is written in; and how many list items
/// and object members the observation may still hold. The round's keys
/// are read one by one and each member's value by the strict reader; the
/// observation is only passed over (the comparer reads it). `None` for
/// anything but such a round (a key twice, a text that is not JSON, more
/// items than a round holds): the strict reader of the whole round names it.
fn members_as_written(text: &[u8]) -> Option<AsText<'_>> {
    let items = Items::default();
    let strict = Strict::new(None, &items);
    let mut r = Reader::new(text);
    let mut map = Map::new();
    let mut observed = None;
    let mut more = !r.open(b'{', b'}').ok()?;
    while more {
        strict.take::<serde_json::Error>().ok()?;
        let key = r.string().ok()?;
        if !r.eat(b':') || r.peek().is_none() {
            return None;
        }
        let start = r.offset();
        if key == OBSERVED {
            if observed.is_some() {
                return None;
            }
            if let Some(last) = written_last(text, start) {
                // The comparer holds it to ending there.
                return Some(AsText {
                    members: map,
                    observed: Some(last),
                    items: items.left(),
                });
            }
            r.skip().ok()?;
            observed = Some(r.since(start));
        } else {
            r.skip().ok()?;
            if map.contains_key(key.as_ref()) {
                return None;
            }
            let mut de = serde_json::Deserializer::from_slice(r.since(start));
            let v = strict.deserialize(&mut de).and_then(|v| de.end().map(|()| v)).ok()?;
            map.insert(key.into_owned(), v);
        }
        more = r.more(b'}').ok()?;
    }
    r.end().then(|| AsText {
        members: map,
        observed,
        items: items.left(),
    })
}

/// A round read with its observation kept as text ([`members_as_written`]):
/// its other members, the observation's text, and how many list items and
/// object members the observation may still hold.
struct AsText<'a> {
    members: Map<String, Value>,
    observed: Option<&'a [u8]>,
    items: usize,
}

/// The observation's text when it is the round's last member, as most
/// writers put it (`provably proof`, a dictionary in that order): from
/// `start` to the round's closing brace. Its end is then not looked for:
/// the comparer, reading the observation to its end, holds the text to
/// holding nothing after it. Only an object (the observation) ends just
/// before the round's brace; a round whose last member is another object
/// (a key the op does not take, an observation given twice) fails that
/// hold and is read whole, as every round that breaks a rule.
fn written_last(text: &[u8], start: usize) -> Option<&[u8]> {
    let end = text.iter().rposition(|&b| !is_space(b))?;
    let last = text[..end].iter().rposition(|&b| !is_space(b))?;
    (text[end] == b'}' && text[last] == b'}' && last > start).then(|| &text[start..=last])
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
        let e = parse_round(r#"{"observed": {"a": 1, "a": 2}, "n": 1, "n": 2}"#).unwrap_err();
        assert_eq!(e.field, "observed.a", "the first repeated key in the text");
        // At any depth, through arrays, and in a round read with its
        // observation kept as text; the same key at two depths is no repeat.
        assert_eq!(parse_strict(r#"{"nonce": 1, "nonce": 2}"#).unwrap_err().field, "nonce");
        assert_eq!(
            parse_strict(r#"{"a": [{"b": {"c": 1, "c": 1}}]}"#).unwrap_err().field,
            "a.b.c"
        );
        let round = r#"{"nonce": 1, "observed": {"seats": {"player": 1, "player": 1}}}"#;
        assert_eq!(parse_round(round).unwrap_err().field, "observed.seats.player");
        assert_eq!(parse_round(r#"{"nonce": 1, "nonce": 1}"#).unwrap_err().field, "nonce");
        // Read with the observation kept as text, a round with a key twice is left to the strict reader.
        assert!(members_as_written(br#"{"nonce": 1, "nonce": 1}"#).is_none());
        // An observation given twice: not the last member alone, which the comparer refuses.
        let read = members_as_written(br#"{"observed": {}, "observed": {}}"#).unwrap();
        assert_eq!(read.observed, Some(&br#"{}, "observed": {}"#[..]));
        assert!(members_as_written(br#"{"nonce": [{"a": 1, "a": 1}]}"#).is_none());
        let read = members_as_written(br#" {"observed" : {"x": [1, 2]} , "nonce": 1} "#).unwrap();
        assert_eq!(
            (read.members["nonce"].clone(), read.observed),
            (json!(1), Some(&br#"{"x": [1, 2]}"#[..]))
        );
        // Written last, the observation runs to the round's brace: the comparer holds it to that.
        let read = members_as_written(br#"{"nonce": 1, "observed": {"x": 1}, "y": {}}"#).unwrap();
        assert_eq!(read.observed, Some(&br#"{"x": 1}, "y": {}"#[..]));
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
