//! Checking one epoch's commitment and one round.
//!
//! Everything here is read from the op table: which field is an op's
//! committed secret and how it is committed ([`crate::op::Secret`]), which
//! fields a request has (the protocol parser), and what an `ok` field may
//! hold (its JSON Schema, compiled once into a [`Shape`]).
//!
//! An observation is compared leaf by leaf: `null` matches anything, an
//! array may stop early (a prefix was seen), an observed item past the end
//! of the derived array differs. Numbers compare by value (`0` equals
//! `0.0`), everything else exactly.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::{CommitVerdict, Event, FieldError, Finding, FindingKind, Place, RoundVerdict};
use crate::base::json::{KeyPath, Strict};
use crate::op::error::OpError;
use crate::op::{self, fields::CLIENT_SEED, short, type_name, OpSpec, Request};

/// The round keys that are not request fields.
pub(crate) const OBSERVED: &str = "observed";
pub(crate) const EXTERNAL: &str = "external";
pub(crate) const SEATS: &str = "seats";

/// The longest `external` reason, in characters.
pub(crate) const MAX_EXTERNAL: usize = 64;

/// What a worker needs to know about an epoch to check its rounds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EpochHead {
    pub epoch: u64,
    /// The line of a JSON-lines epoch.
    pub line: Option<u64>,
    /// The secret's field (`serverSeed`, `seed`) and its value as written.
    pub secret: Option<(&'static str, Value)>,
}

impl EpochHead {
    pub fn place(&self) -> Place {
        Place::epoch(self.epoch, self.line)
    }
}

/// The fields that hold a committed secret, in op-table order.
pub(crate) fn secret_fields() -> &'static [&'static str] {
    static FIELDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    FIELDS.get_or_init(|| {
        let mut out = Vec::new();
        for s in crate::registry::ops().filter_map(|o| o.secret) {
            if !out.contains(&s.field) {
                out.push(s.field);
            }
        }
        out
    })
}

/// The op that answers the commitment of the secret `field` (`cursor.hash`
/// for `serverSeed`, `selfpoker.commit` for `seed`).
pub(crate) fn commit_op(field: &str) -> Option<&'static OpSpec> {
    // Asked once per epoch: the registry is walked once per process.
    static COMMIT_OPS: std::sync::OnceLock<Vec<(&'static str, &'static OpSpec)>> = std::sync::OnceLock::new();
    let ops = COMMIT_OPS.get_or_init(|| {
        crate::registry::ops()
            .filter_map(|o| o.secret.filter(|s| s.commit_op == o.name).map(|s| (s.field, o)))
            .collect()
    });
    ops.iter().find(|(f, _)| *f == field).map(|(_, o)| *o)
}

/// The commitment (lowercase hex) of `value` as the secret `field`, held to
/// the field's rules by the protocol parser.
pub fn commitment(field: &str, value: &Value) -> Result<String, FieldError> {
    let spec = commit_op(field).ok_or_else(|| FieldError::new(field, "is not a committed secret"))?;
    let secret = spec.secret.expect("a commit op has a secret");
    let mut m = Map::new();
    m.insert("op".into(), Value::from(spec.name));
    m.insert(field.into(), value.clone());
    let request = crate::registry::parse(&Value::Object(m)).map_err(|e| op_error(&e))?;
    Ok((secret.commit)(
        request.get(field).expect("the commit op has its secret field"),
    ))
}

/// A commitment as written: 64 hex characters in either case.
pub(crate) fn is_commitment(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Checks an epoch's `commit` (None: the key is left out).
pub(crate) fn check_commit(head: &EpochHead, commit: Option<&Value>) -> Event {
    let at = head.place();
    let epoch = head.epoch;
    let invalid = |e: FieldError| Event::Commit {
        epoch,
        verdict: CommitVerdict::Invalid,
        finding: Some(e.at(at).finding()),
    };
    let shown = match commit {
        None | Some(Value::Null) => {
            return Event::Commit {
                epoch,
                verdict: CommitVerdict::Absent,
                finding: None,
            }
        }
        Some(Value::String(s)) if is_commitment(s) => s,
        Some(other) => {
            return invalid(FieldError::new(
                "commit",
                format!("must be 64 hex characters (a SHA-256) or null, not {}", short(other)),
            ))
        }
    };
    let Some((field, value)) = &head.secret else {
        return invalid(FieldError::new(
            "commit",
            format!("the epoch has no {} to check it against", secret_fields().join(" or ")),
        ));
    };
    match commitment(field, value) {
        Err(e) => invalid(e),
        Ok(computed) if computed.eq_ignore_ascii_case(shown) => Event::Commit {
            epoch,
            verdict: CommitVerdict::Ok,
            finding: None,
        },
        Ok(computed) => {
            let mut f = Finding::new(FindingKind::Commit, at);
            f.field = Some("commit".into());
            f.derived = Value::from(computed);
            f.observed = Value::from(shown.as_str());
            f.reason = Some(format!(
                "the commitment of the revealed {field} is not the one shown before play"
            ));
            Event::Commit {
                epoch,
                verdict: CommitVerdict::Mismatch,
                finding: Some(f),
            }
        }
    }
}

/// A round read and validated: the request (with the epoch's secret and
/// the seats' client seed filled in), and what the round says besides.
#[derive(Debug, Clone)]
pub struct Round {
    pub request: Request,
    pub observed: Option<Map<String, Value>>,
    pub external: Option<String>,
    pub seats: Option<Value>,
}

/// The invalid-input errors of the protocol parser, as field errors.
fn op_error(e: &OpError) -> FieldError {
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
    let request = crate::registry::parse(&Value::Object(map)).map_err(|e| op_error(&e))?;
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

/// What an `ok` field may hold, compiled from its JSON Schema. Only the
/// item rules bind an observation: lengths and uniqueness are compared, not
/// enforced, since a longer observation is evidence of a mismatch.
#[derive(Debug)]
pub enum Shape {
    Text(Option<regex::Regex>),
    Int { min: u64, max: Option<u64> },
    Number { min: f64, below: Option<f64> },
    List(Box<Shape>),
    OneOf(Vec<Value>),
    Any,
}

impl Shape {
    /// Compiles an `ok` field's declared shape.
    ///
    /// # Panics
    /// When a declared pattern is not a regular expression (a bug in the op table).
    pub fn of(shape: &crate::op::Shape) -> Shape {
        use crate::op::Shape as Decl;
        match *shape {
            Decl::Text { pattern, .. } => Shape::Text(Some(
                regex::Regex::new(pattern).unwrap_or_else(|e| panic!("ok pattern {pattern}: {e}")),
            )),
            Decl::Int { min, max } => Shape::Int { min, max },
            Decl::Number { min, below } => Shape::Number {
                min: f64::from(u32::try_from(min).expect("a small bound")),
                below: Some(f64::from(u32::try_from(below).expect("a small bound"))),
            },
            Decl::OneOf(words) => Shape::OneOf(words.iter().map(|w| Value::from(*w)).collect()),
            Decl::List { items, .. } => Shape::List(Box::new(Shape::of(items))),
        }
    }

    /// Checks an observed value; `Err((index path, reason))`.
    fn check(&self, v: &Value, path: &mut Vec<usize>) -> Result<(), String> {
        let not = |what: &str| Err(format!("must be {what}, not {}", short(v)));
        match self {
            Shape::Any => Ok(()),
            Shape::OneOf(values) if values.contains(v) => Ok(()),
            Shape::OneOf(values) => Err(format!(
                "{} is not one of {}",
                short(v),
                values.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")
            )),
            Shape::Text(pattern) => match v.as_str() {
                Some(s) if pattern.as_ref().is_none_or(|p| p.is_match(s)) => Ok(()),
                Some(_) => not(&format!(
                    "text matching {}",
                    pattern.as_ref().expect("a pattern").as_str()
                )),
                None => not("a string"),
            },
            Shape::Int { min, max } => match v.as_u64() {
                Some(n) if n >= *min && max.is_none_or(|m| n <= m) => Ok(()),
                Some(n) => Err(match max {
                    Some(m) => format!("{n} is outside {min}..={m}"),
                    None => format!("{n} is below {min}"),
                }),
                None => not("an integer"),
            },
            Shape::Number { min, below } => match v.as_f64() {
                Some(x) if x >= *min && below.is_none_or(|b| x < b) => Ok(()),
                Some(x) => Err(format!("{x} is outside the range of the field")),
                None => not("a number"),
            },
            Shape::List(item) => {
                let Value::Array(items) = v else {
                    return not("a list");
                };
                for (i, x) in items.iter().enumerate() {
                    if x.is_null() {
                        continue;
                    }
                    path.push(i);
                    item.check(x, path)?;
                    path.pop();
                }
                Ok(())
            }
        }
    }
}

/// The `ok` fields of an op and their shapes, in the op's order.
pub(crate) fn shapes(spec: &OpSpec) -> &'static [(&'static str, Shape)] {
    type OkShapes = Vec<(&'static str, Shape)>;
    static ALL: OnceLock<Vec<(&'static str, OkShapes)>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        crate::registry::ops()
            .map(|o| (o.name, o.ok.iter().map(|f| (f.name, Shape::of(&f.shape))).collect()))
            .collect()
    });
    all.iter()
        .find(|(name, _)| *name == spec.name)
        .map_or(&[], |(_, s)| s.as_slice())
}

/// Reads `observed`: an object of some of the op's `ok` fields, each item
/// within the field's limits; `null` only for an array item.
pub(crate) fn read_observed(spec: &OpSpec, v: Value) -> Result<Map<String, Value>, FieldError> {
    let Value::Object(map) = v else {
        return Err(FieldError::new(
            OBSERVED,
            format!("must be an object of {} fields, not {}", spec.name, type_name(&v)),
        ));
    };
    let shapes = shapes(spec);
    for (key, value) in &map {
        let field = format!("{OBSERVED}.{key}");
        let Some((_, shape)) = shapes.iter().find(|(k, _)| k == key) else {
            let names: Vec<&str> = shapes.iter().map(|(k, _)| *k).collect();
            return Err(FieldError::new(
                field,
                format!("is not a field of {}'s answer ({})", spec.name, names.join(", ")),
            ));
        };
        if value.is_null() {
            return Err(FieldError::new(
                field,
                "is null: leave out a field that was not seen (null stands only for an item of a list)",
            ));
        }
        let mut path = Vec::new();
        if let Err(reason) = shape.check(value, &mut path) {
            let reason = match path.len() {
                0 | 1 => reason,
                _ => format!(
                    "item {}: {reason}",
                    path[1..]
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", item ")
                ),
            };
            return Err(FieldError {
                field,
                index: path.first().map(|&i| i as u64),
                reason,
            });
        }
    }
    Ok(map)
}

/// One observed leaf that differs from the derived one.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub field: &'static str,
    /// The indexes from the field down to the leaf (empty for a scalar field).
    pub path: Vec<usize>,
    /// `None` when the derived array has no item there.
    pub derived: Option<Value>,
    pub observed: Value,
}

/// The leaves compared and every one that differs, in field order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    pub compared: u64,
    pub differences: Vec<Difference>,
}

/// Compares an observation with the derived `ok` object, field by field in
/// the op's order.
pub fn compare(spec: &OpSpec, observed: &Map<String, Value>, derived: &Value) -> Comparison {
    let mut out = Comparison::default();
    out.compared = walk(spec, observed, derived, &mut |field, path, d, o| {
        out.differences.push(Difference {
            field,
            path: path.to_vec(),
            derived: d.cloned(),
            observed: o.clone(),
        });
    });
    out
}

/// Told of each differing leaf: its field, its path of indexes, the derived
/// item (if the derived list has one there) and the observed one.
type Differs<'a> = dyn FnMut(&'static str, &[usize], Option<&Value>, &Value) + 'a;

/// Walks the observed leaves field by field in the op's order, calling
/// `differs(field, path, derived, observed)` for each one that differs;
/// returns how many leaves were compared.
fn walk(spec: &OpSpec, observed: &Map<String, Value>, derived: &Value, differs: &mut Differs) -> u64 {
    let mut compared = 0;
    for (name, _) in shapes(spec) {
        if let Some(o) = observed.get(*name) {
            leaf(name, o, derived.get(*name), &mut Vec::new(), &mut compared, differs);
        }
    }
    compared
}

fn leaf(
    field: &'static str,
    o: &Value,
    d: Option<&Value>,
    path: &mut Vec<usize>,
    compared: &mut u64,
    differs: &mut Differs,
) {
    match (o, d) {
        (Value::Null, _) => {}
        (Value::Array(items), Some(Value::Array(derived))) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i);
                leaf(field, item, derived.get(i), path, compared, differs);
                path.pop();
            }
        }
        _ => {
            *compared += 1;
            if !d.is_some_and(|d| same(o, d)) {
                differs(field, path, d, o);
            }
        }
    }
}

/// Equality of JSON values, numbers by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_u64(), y.as_u64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        _ => a == b,
    }
}

/// Compares and returns one finding per field that differs: the first
/// differing top-level index, the items there, and how many top-level items
/// differ (a wrong seed makes every card differ: only the first is kept).
pub(crate) fn mismatches(
    at: Place,
    observed: &Map<String, Value>,
    derived: &Value,
    spec: &OpSpec,
) -> (u64, Vec<Finding>) {
    let mut out: Vec<Finding> = Vec::new();
    let mut last_top = None;
    let compared = walk(spec, observed, derived, &mut |field, path, _, _| {
        let top = path.first().copied();
        // A field's differences come together and in index order, so each
        // new top-level index is counted once.
        if let Some(f) = out.last_mut().filter(|f| f.field.as_deref() == Some(field)) {
            if top != last_top {
                f.differences = f.differences.map(|n| n + 1);
                last_top = top;
            }
            return;
        }
        last_top = top;
        let mut f = Finding::new(FindingKind::Mismatch, at);
        f.field = Some(field.into());
        f.differences = Some(1);
        match top {
            None => {
                f.derived = derived.get(field).cloned().unwrap_or(Value::Null);
                f.observed = observed.get(field).cloned().unwrap_or(Value::Null);
            }
            Some(i) => {
                f.index = Some(i as u64);
                f.derived = derived[field].get(i).cloned().unwrap_or(Value::Null);
                f.observed = observed[field][i].clone();
            }
        }
        out.push(f);
    });
    (compared, out)
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
    pub verdict: RoundVerdict,
    pub findings: Vec<Finding>,
    pub derived: Option<Value>,
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

/// Derives a read round and compares it with what was observed.
pub(crate) fn judge(round: &Round, at: Place) -> Judgement {
    if let Some(reason) = &round.external {
        // Validated like any round, the op's own rules included; nothing compared.
        if let Err(e @ OpError::Invalid(_)) = round.request.run() {
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
    let derived = match round.request.run_value() {
        Ok(d) => d,
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

/// Checks one round given as its JSON text.
pub(crate) fn check_round(head: &EpochHead, round: u64, raw: &[u8]) -> Event {
    let at = head.place().round(round);
    let invalid = |e: FieldError| Event::Round {
        epoch: head.epoch,
        round,
        verdict: RoundVerdict::Invalid,
        findings: vec![e.at(at).finding()],
        bet: None,
    };
    let secret = head.secret.as_ref().map(|(f, v)| (*f, v));
    // With statistics every round is derived: the shortcuts (the byte
    // comparison and the typed one) decide a match without deriving.
    let shortcuts = !crate::stats::tapping();
    if shortcuts {
        if let Some(event) = verbatim(head, round, raw, secret) {
            return event;
        }
    }
    let raw = match std::str::from_utf8(raw) {
        Ok(text) => text,
        Err(e) => return invalid(FieldError::new("round", format!("not UTF-8: {e}"))),
    };
    if shortcuts {
        if let Some(event) = typed(head, round, raw, secret) {
            return event;
        }
    }
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
    let j = judge(&r, at);
    if let Some(derived) = &j.derived {
        crate::stats::tap(head.epoch, &r.request, derived);
    }
    Event::Round {
        epoch: head.epoch,
        round,
        verdict: j.verdict,
        findings: j.findings,
        // A round the op refuses (a wheel of 15 segments) is no bet.
        bet: if j.verdict == RoundVerdict::Invalid {
            None
        } else {
            bet_of(head, &r)
        },
    }
}

/// The bet a round is on its seed pair, if its op is a bet and the round came from the seed.
fn bet_of(head: &EpochHead, r: &Round) -> Option<super::Bet> {
    if r.external.is_some() || !r.request.spec().bet {
        return None;
    }
    Some(super::Bet {
        client: r.request.text(crate::op::fields::CLIENT_SEED).to_string(),
        nonce: r.request.int(crate::op::fields::NONCE),
        line: head.line,
    })
}

/// The fast path for a round whose last member is `observed` (as
/// `provably proof` writes rounds, and Python's `json.dumps` of a round in
/// that key order): the members before it are parsed, the observation only
/// compared as text with the derived object (byte for byte, or token by
/// token). The text before `, "observed"` is a valid object when closed, so
/// that key stands at the top level (not in a string, not deeper), and the
/// text after its colon is one value equal to the derived object, so the
/// round is that object plus this observation; any other text (a key inside
/// a string, another order) fails one of the two and takes the next path.
/// `None`: the next path. Only the members are checked for UTF-8: an
/// observation the same as the derived object is UTF-8.
fn verbatim(head: &EpochHead, round: u64, raw: &[u8], secret: Option<(&str, &Value)>) -> Option<Event> {
    const KEY: &[u8] = b"\"observed\"";
    let body = raw.trim_ascii_end().strip_suffix(b"}")?;
    // The first occurrence: the members before it are short, the observation long.
    let at = memchr::memmem::find(body, KEY)?;
    let before = body[..at].trim_ascii_end().strip_suffix(b",")?;
    let observed = body[at + KEY.len()..].trim_ascii_start().strip_prefix(b":")?;
    // One buffer per worker for the members' text, closed as an object.
    thread_local! {
        static MEMBERS: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    let parsed = MEMBERS.with_borrow_mut(|members| {
        members.clear();
        members.push_str(std::str::from_utf8(before).ok()?);
        members.push('}');
        parse_round(members, true)
            .ok()
            .map(|(map, inner)| (map, inner.is_some()))
    });
    let (map, inner) = parsed?;
    if inner {
        return None;
    }
    let r = read_round(Value::Object(map), secret).ok()?;
    (r.external.is_none() && same_text(&r.request, observed)).then(|| Event::Round {
        epoch: head.epoch,
        round,
        verdict: RoundVerdict::Match,
        findings: Vec::new(),
        bet: bet_of(head, &r),
    })
}

/// The fast path for any other text of a round (white space, key order,
/// escapes): its members parsed with `observed` kept as text, which is
/// then compared with the derived object token by token
/// ([`super::same`]). `None` (a prefix, a null item, a number written
/// otherwise, a mismatch, anything invalid): the full path decides.
fn typed(head: &EpochHead, round: u64, raw: &str, secret: Option<(&str, &Value)>) -> Option<Event> {
    let (map, Some(observed)) = parse_round(raw, true).ok()? else {
        return None;
    };
    let r = read_round(Value::Object(map), secret).ok()?;
    (r.external.is_none() && same_text(&r.request, observed.as_bytes())).then(|| Event::Round {
        epoch: head.epoch,
        round,
        verdict: RoundVerdict::Match,
        findings: Vec::new(),
        bet: bet_of(head, &r),
    })
}

/// Whether an observation written exactly as the derived `ok` object
/// (compact, fields in the op's order, as `provably proof` writes it) is
/// that object, or is the same JSON in another layout ([`super::same`]):
/// then it is valid and matches, and nothing needs parsing. Any other text
/// takes the full path.
fn same_text(request: &Request, observed: &[u8]) -> bool {
    let Ok(outcome) = request.run() else {
        return false;
    };
    // Read against the typed outcome where it can be (a shoe): nothing written.
    if outcome.same_json(observed) {
        return true;
    }
    // One buffer per worker: a round's derived text is as long as the last one's.
    thread_local! {
        static DERIVED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    DERIVED.with_borrow_mut(|derived| {
        derived.clear();
        outcome.write_json(derived);
        if derived == observed || super::same::same_but_space(observed, derived) {
            return has_leaf(derived);
        }
        super::same::same_observation(observed, derived)
    })
}

/// Whether compact JSON holds a scalar (a string, number, boolean or null)
/// as a value: what makes a full observation more than nothing. Keys are
/// the strings followed by `:`; every other string, and every number,
/// `true`, `false` and `null`, is a value.
pub(crate) fn has_leaf(json: &[u8]) -> bool {
    let mut i = 0;
    while i < json.len() {
        match json[i] {
            b'"' => {
                i += 1;
                while i < json.len() && json[i] != b'"' {
                    i += if json[i] == b'\\' { 2 } else { 1 };
                }
                if json.get(i + 1) != Some(&b':') {
                    return true;
                }
            }
            b'0'..=b'9' | b'-' | b't' | b'f' | b'n' => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// A round's members; with `raw_observed`, its `observed` kept as text
/// rather than parsed.
fn parse_round(raw: &str, raw_observed: bool) -> Result<(Map<String, Value>, Option<&str>), FieldError> {
    if !raw.trim_start().starts_with('{') {
        let v = parse_strict(raw)?;
        return Err(FieldError::new(
            "round",
            format!("must be a JSON object, not {}", type_name(&v)),
        ));
    }
    let path = KeyPath::default();
    let mut de = serde_json::Deserializer::from_str(raw);
    let result = de
        .deserialize_map(RoundVisitor {
            path: &path,
            raw_observed,
        })
        .and_then(|parts| de.end().map(|()| parts));
    result.map_err(|e| match path.twice.borrow_mut().take() {
        Some(path) => FieldError::new(path, "appears twice"),
        None => FieldError::new("round", format!("not JSON: {e}")),
    })
}

struct RoundVisitor<'a> {
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
            if out.contains_key(&key) || (key == OBSERVED && observed.is_some()) {
                *self.path.twice.borrow_mut() = Some(key.clone());
                return Err(de::Error::custom(format_args!("key {key:?} appears twice")));
            }
            if key == OBSERVED && self.raw_observed {
                observed = Some(map.next_value()?);
                continue;
            }
            let (key, value) = crate::base::json::within(Some(self.path), key, || {
                map.next_value_seed(Strict { path: Some(self.path) })
            })?;
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
    let strict = Strict { path: Some(&path) };
    let mut de = serde_json::Deserializer::from_str(raw);
    let result = strict.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    result.map_err(|e| match path.twice.borrow_mut().take() {
        Some(path) => FieldError::new(path, "appears twice"),
        None => FieldError::new("round", format!("not JSON: {e}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_secret_field_has_exactly_one_commit_op() {
        for field in secret_fields() {
            let ops: Vec<&str> = crate::registry::ops()
                .filter(|o| o.secret.is_some_and(|s| s.field == *field && s.commit_op == o.name))
                .map(|o| o.name)
                .collect();
            assert_eq!(ops.len(), 1, "{field}: {ops:?}");
            // Every op keyed by the field commits through that same op.
            for o in crate::registry::ops().filter(|o| o.secret.is_some_and(|s| s.field == *field)) {
                assert_eq!(o.secret.unwrap().commit_op, ops[0], "{}", o.name);
            }
        }
    }

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
    fn every_ok_pattern_compiles_and_every_ok_field_has_a_shape() {
        for o in crate::registry::ops() {
            assert_eq!(shapes(o).len(), o.ok.len(), "{}", o.name);
        }
    }

    #[test]
    fn nulls_and_prefixes_compare_nothing_past_what_was_seen() {
        let derived = json!({"hole": [[1, 2], [3, 4]], "board": [5, 6, 7, 8, 9]});
        let observed = json!({"hole": [null, [3, null]], "board": [5, 6]});
        let c = compare(
            &crate::schemes::poker::ops::DEAL,
            observed.as_object().unwrap(),
            &derived,
        );
        assert_eq!((c.compared, c.differences.len()), (3, 0));
        let longer = json!({"board": [5, 6, 7, 8, 9, 10]});
        let c = compare(&crate::schemes::poker::ops::DEAL, longer.as_object().unwrap(), &derived);
        assert_eq!(c.differences[0].path, vec![5]);
        assert_eq!(c.differences[0].derived, None);
    }

    #[test]
    fn a_leaf_is_any_value_that_is_not_a_key_and_not_a_container() {
        for (json, leaf) in [
            (r#"{"order":[],"cursorNext":0}"#, true),
            (r#"{"order":[]}"#, false),
            (r#"{"a":{"b":[[],[]]}}"#, false),
            (r#"{"cards":["AS"]}"#, true),
            (r#"{"k\"":[]}"#, false),
            (r#"{"x":null}"#, true),
        ] {
            assert_eq!(has_leaf(json.as_bytes()), leaf, "{json}");
        }
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
}
