//! The op table: every op of protocol v1, declared once in its scheme's module.
//!
//! A scheme module declares each op as an [`OpSpec`]: its name, its fields
//! with their limits, its `ok` fields, how it runs, how cases are generated,
//! which flags a vector of it reaches, how two answers are told apart, and
//! which field is the committed secret. Everything else reads that
//! declaration: the request parser, the JSON Schemas, the vector files,
//! `derive`, `verify`, `audit` and the harness. docs/contributing.md says
//! how to add an op or a scheme.
//!
//! Requests are validated once, while parsing: a [`Request`] can only be
//! built through `Request::parse_with` or `Request::of`, both of which check
//! every field against its [`Kind`], so code that holds a `Request` never
//! sees an out-of-range value.

use std::fmt;

use proptest::strategy::BoxedStrategy;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::Value;

pub mod error;
pub(crate) mod flag;
pub(crate) mod ok;
pub(crate) mod reading;
pub mod stats;
pub mod strategy;

pub(crate) use flag::Flag;
pub use ok::OkField;
pub(crate) use ok::Shape;

use crate::base::tape::Tape;

use self::error::{InvalidInput, OpError, MAX_COUNT, MAX_SAFE_INTEGER};

/// What a field holds, with its limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// Any Unicode text: a seed, a tournament id.
    Text,
    /// A JSON integer in `min ..= max`, and one of `only` when it is given
    /// (the wheel's segment counts). `size` marks a field that decides how
    /// much work a request is (a count, a range): those are shrunk first.
    Int {
        /// The smallest value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
        /// Whether the field says how much work a request is: shrinking
        /// takes it down first, and its limits are flagged as edge cases.
        size: bool,
        /// The only values allowed, ascending, for a field that takes a few.
        only: Option<&'static [u64]>,
    },
    /// A JSON number strictly between 0 and 1.
    Fraction,
    /// A list of card numbers 0..=51, `min ..= max` of them, no card number
    /// more than `max_copies` times: 1 for cards from one deck (distinct),
    /// 6 for a hand from a 6-deck shoe.
    Cards {
        /// The fewest cards.
        min: usize,
        /// The most cards.
        max: usize,
        /// How many times one card number may appear.
        max_copies: usize,
    },
    /// A 63-bit seed as plain decimal digits in a string (no sign, no leading zero).
    DecimalSeed,
    /// A JSON boolean.
    Bool,
    /// One of a few words (a risk level), exactly as written.
    Word(&'static [&'static str]),
    /// 64 lowercase hex characters (a hash that is itself a key: its text
    /// is used, so the case of its letters is part of it).
    Hex64,
}

/// `10, 20, 30`: a field's allowed values, as messages and help say them.
pub fn join_ints(values: &[u64]) -> String {
    values.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// Whether `text` is 64 lowercase hex characters.
pub(crate) fn is_hex64(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// One request field: its wire name, what it holds and whether it may be left out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    /// The field's name on the wire (`serverSeed`, `count`).
    pub name: &'static str,
    /// What the field holds, with its limits.
    pub kind: Kind,
    /// The value a request that leaves the field out gets; `None`: the field is required.
    pub(crate) default: Option<FieldDefault>,
    /// The value `provably derive` fills in when the flag is not given
    /// (a convenience of the command line; the protocol still requires the field).
    pub cli_default: Option<u64>,
}

/// The default of an optional field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum FieldDefault {
    Bool(bool),
    Int(u64),
}

impl Field {
    /// A field of any Unicode text: a seed, a tournament id.
    pub(crate) const fn text(name: &'static str) -> Field {
        Field::new(name, Kind::Text)
    }
    /// An integer that picks a case (nonce, cursor, die number): 0 ..= 2^53−1.
    pub(crate) const fn counter(name: &'static str) -> Field {
        Field::new(
            name,
            Kind::Int {
                min: 0,
                max: MAX_SAFE_INTEGER,
                size: false,
                only: None,
            },
        )
    }
    /// An integer that says how much there is (a count, a range, a number of decks).
    pub(crate) const fn size(name: &'static str, min: u64, max: u64) -> Field {
        Field::new(
            name,
            Kind::Int {
                min,
                max,
                size: true,
                only: None,
            },
        )
    }
    /// A size that takes only the listed values (ascending), as the schemas say.
    pub(crate) const fn size_of(name: &'static str, values: &'static [u64]) -> Field {
        Field::new(
            name,
            Kind::Int {
                min: values[0],
                max: values[values.len() - 1],
                size: true,
                only: Some(values),
            },
        )
    }
    /// A required field of `kind`, with no default on the wire or the command line.
    pub(crate) const fn new(name: &'static str, kind: Kind) -> Field {
        Field {
            name,
            kind,
            default: None,
            cli_default: None,
        }
    }
    /// The same field, optional on the wire with `value` as its default.
    pub(crate) const fn or(self, value: FieldDefault) -> Field {
        Field {
            default: Some(value),
            ..self
        }
    }
    /// The same field, filled in with `value` by `provably derive` when not given.
    pub(crate) const fn cli_default(self, value: u64) -> Field {
        Field {
            cli_default: Some(value),
            ..self
        }
    }
}

/// The fields shared by most ops.
pub mod fields {
    use super::{Field, MAX_COUNT, MAX_SAFE_INTEGER};

    pub(crate) const SERVER_SEED: Field = Field::text("serverSeed");
    pub(crate) const CLIENT_SEED: Field = Field::text("clientSeed");
    pub(crate) const NONCE: Field = Field::counter("nonce");
    pub(crate) const CURSOR: Field = Field::counter("cursor").cli_default(0);
    pub(crate) const RANGE: Field = Field::size("range", 1, MAX_SAFE_INTEGER);
    pub(crate) const COUNT: Field = Field::size("count", 0, MAX_COUNT);
}

/// A validated field value. Only the parser and `Request::of` make them,
/// after checking the value against its field's [`Kind`].
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// The text of a [`Kind::Text`], [`Kind::Word`] or [`Kind::Hex64`] field.
    Text(String),
    /// The value of a [`Kind::Int`] field.
    Int(u64),
    /// The value of a [`Kind::Fraction`] field.
    Number(f64),
    /// The card numbers of a [`Kind::Cards`] field, in the order given.
    Cards(Vec<u8>),
    /// A decimal seed, kept as its value; it travels as a string.
    Seed(u64),
    /// The value of a [`Kind::Bool`] field.
    Bool(bool),
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}
impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_string())
    }
}
impl From<u64> for Arg {
    fn from(v: u64) -> Arg {
        Arg::Int(v)
    }
}
impl From<f64> for Arg {
    fn from(v: f64) -> Arg {
        Arg::Number(v)
    }
}
impl From<bool> for Arg {
    fn from(v: bool) -> Arg {
        Arg::Bool(v)
    }
}

impl Arg {
    /// The value on the wire.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("values serialize")
    }
}

/// The committed secret of an op's rounds: which field holds it and how the
/// commitment shown before play is computed from it.
#[derive(Debug, Clone, Copy)]
pub struct Secret {
    /// The request field that holds the secret (`serverSeed`, or `seed` for selfpoker).
    pub field: &'static str,
    /// Returns the commitment (lowercase hex) of the secret.
    pub(crate) commit: fn(&Arg) -> String,
    /// The op that answers the commitment (`cursor.hash`, `selfpoker.commit`).
    pub(crate) commit_op: &'static str,
}

/// One op of protocol v1.
pub struct OpSpec {
    /// The op's name on the wire: its scheme, a dot, the op (`cursor.deal`).
    pub name: &'static str,
    /// The request fields, in wire order.
    pub fields: &'static [Field],
    /// The `ok` object's fields, in wire order, with the shape of each.
    pub ok: &'static [OkField],
    /// Runs a request of this op.
    pub run: fn(&Request) -> Result<Outcome, OpError>,
    /// Requests for the harness to ask, generated from properties of the inputs.
    pub generate: fn() -> BoxedStrategy<Request>,
    /// Flags a vector of this op reaches, read off a trace of its computation.
    pub flags: fn(&Request) -> Vec<Flag>,
    /// The first step where two `ok` answers part, in the op's own terms:
    /// given the request, provably's answer and the target's.
    pub explain: fn(&Request, &Value, &Value) -> Option<Parting>,
    /// What the op's cases must reach, beyond the input flags its field
    /// kinds bring (tests/vectors.rs and tests/ops.rs hold them to it).
    pub reach: Reach,
    /// The committed secret, for ops whose rounds a proof document holds.
    pub secret: Option<Secret>,
    /// The op's other readings, where its published sources disagree
    /// (the harness names the one a diverging target follows).
    pub readings: &'static [reading::Reading],
    /// Whether a round of this op is one bet of its seed pair's nonce
    /// sequence (bet histories, docs/proofs.md): a nonce is bet once.
    pub bet: bool,
    /// What the statistics count of its outcomes ([`stats`]).
    pub stats: stats::Stats,
}

/// The flags an op's cases must reach: the branches its vectors exist to
/// force, and those that 1,000 generated cases must send in a default run.
/// The input flags (`Unicode`, `MaxSafeInteger`, …) are required by field
/// kind, for every op alike.
#[derive(Debug, Clone, Copy)]
pub struct Reach {
    /// Flags the op's canonical vectors carry, each at least once.
    pub vectors: &'static [Flag],
    /// Flags 1,000 generated cases of the op reach, from a fixed seed.
    pub generated: &'static [Flag],
}

impl fmt::Debug for OpSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for OpSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl OpSpec {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The scheme the op belongs to: the part before the dot.
    pub fn scheme(&self) -> &'static str {
        scheme_of(self.name)
    }
}

/// The scheme an op name belongs to: the part before the dot.
pub(crate) fn scheme_of(op: &str) -> &str {
    op.split('.').next().unwrap_or(op)
}

/// A flag-deriving function for ops whose vectors reach no trace-dependent branch.
pub fn no_flags(_: &Request) -> Vec<Flag> {
    Vec::new()
}

/// An explainer for ops with nothing to say beyond the generic difference.
pub fn no_story(_: &Request, _: &Value, _: &Value) -> Option<Parting> {
    None
}

/// Where two answers part: the cause divergences share (`group`, which
/// names no case-specific value, so a hundred divergences with one cause
/// are one finding) and the story of this case, with both sides' values.
#[derive(Debug, Clone, PartialEq)]
pub struct Parting {
    /// The cause, in words that name no value of this case.
    pub(crate) group: String,
    /// What happened in this case, with both sides' values.
    pub story: String,
    /// The HMAC of the step where the two sides part, for ops built on one.
    pub(crate) step: Option<Step>,
}

impl Parting {
    /// A parting with this cause and story, at no HMAC step.
    pub(crate) fn new(group: impl Into<String>, story: impl Into<String>) -> Parting {
        Parting {
            group: group.into(),
            story: story.into(),
            step: None,
        }
    }

    /// The same parting, at the HMAC step `step`.
    #[must_use]
    pub(crate) fn at(self, step: Step) -> Parting {
        Parting {
            step: Some(step),
            ..self
        }
    }
}

/// The HMAC a parting step reads: its key and message as provably forms
/// them, and the lower op that answers that MAC's bytes on its own (asked
/// of the target to tell an HMAC input that differs from a draw or mapping
/// that differs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Step {
    /// The HMAC key (a server seed) as text.
    pub(crate) key: String,
    /// The HMAC message.
    pub(crate) message: String,
    /// A request of a lower op whose answer holds this MAC's bytes, if the
    /// scheme has one (`cursor.raw`, `shoe.stream`, `cursor.shuffle`).
    pub(crate) lower: Option<Request>,
    /// The answer is this MAC's bytes: any difference is in the HMAC's
    /// input (or the HMAC itself), not in a draw.
    pub(crate) is_mac: bool,
}

impl Step {
    /// The step of MAC `message` under `key`, answered by `lower`.
    pub fn new(key: &str, message: String, lower: Option<Request>) -> Step {
        Step {
            key: key.to_string(),
            message,
            lower,
            is_mac: false,
        }
    }

    /// The step of an op whose answer is the MAC itself.
    #[must_use]
    pub(crate) fn mac(self) -> Step {
        Step { is_mac: true, ..self }
    }
}

/// The j a target drew at step `i` of a Fisher–Yates shuffle from the back,
/// read off its answer: `draws` are provably's (i, j) in draw order and
/// `start` the order before the first draw. Positions above `i` agree, so
/// both sides held the same order before step `i`; the target moved the
/// item it shows at `i` from its j.
pub(crate) fn target_draw(start: Vec<Value>, draws: &[(usize, usize)], i: usize, got_at_i: &Value) -> Option<usize> {
    let mut order = start;
    for &(at, j) in draws.iter().take_while(|(at, _)| *at > i) {
        if at >= order.len() || j >= order.len() {
            return None;
        }
        order.swap(at, j);
    }
    order.iter().take(i + 1).position(|v| v == got_at_i)
}

/// What the target drew at step `i`, for a story: the j of [`target_draw`],
/// or, when no j explains it, what the target shows there and why.
pub(crate) fn drawn(target_j: Option<usize>, got_at_i: Option<&Value>) -> String {
    match (target_j, got_at_i) {
        (Some(j), _) => j.to_string(),
        (None, Some(v)) => format!(
            "no j: it shows {} there, which is not among the items at positions 0..=i before that draw",
            short(v)
        ),
        (None, None) => "no j: its answer has nothing at that position".to_string(),
    }
}

/// A file a scheme writes from its own tables: its path relative to the
/// repository root, and its text.
pub(crate) type Generated = (&'static str, fn() -> String);

/// A scheme: its ops. The list of schemes is [`crate::registry`], above
/// the schemes; their vectors are registered in [`crate::vectors`].
pub struct Scheme {
    /// The scheme's name: the part of its ops' names before the dot.
    pub name: &'static str,
    /// Where the scheme is published (named in every vector file).
    pub(crate) source: &'static str,
    /// The scheme's ops.
    pub ops: &'static [&'static OpSpec],
    /// Files `provably vectors` writes from the scheme's own tables, as
    /// (path relative to the repository root, text): one source for both
    /// languages (Stake's payout tables for its JS twin).
    pub(crate) generated: &'static [Generated],
}

#[cfg(test)]
thread_local! {
    /// How many requests this thread has run (tests count derivations with it).
    pub(crate) static RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// One request of protocol v1 without its id: an op and its validated fields.
#[derive(Clone, PartialEq)]
pub struct Request {
    op: &'static OpSpec,
    /// `args[i]` is the value of `op.fields[i]`.
    args: Vec<Arg>,
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

impl Request {
    /// Builds a request from values in field order, checking each against
    /// its field. For generators and vectors, which only build valid requests.
    ///
    /// # Panics
    /// When a value does not fit its field: a bug in the caller.
    pub(crate) fn of(op: &'static OpSpec, args: Vec<Arg>) -> Request {
        assert_eq!(args.len(), op.fields.len(), "{}: wrong number of fields", op.name);
        for (f, a) in op.fields.iter().zip(&args) {
            // Any string is a text: a generated seed of 10,000 bytes need
            // not be copied twice to learn that.
            if matches!((f.kind, a), (Kind::Text, Arg::Text(_))) {
                continue;
            }
            if let Err(e) = read(f, a.to_value()).and_then(|r| settle(f, r)) {
                panic!("{}: {e}", op.name);
            }
        }
        Request { op, args }
    }

    pub(crate) fn spec(&self) -> &'static OpSpec {
        self.op
    }

    /// The op name on the wire.
    pub fn op(&self) -> &'static str {
        self.op.name
    }

    fn arg(&self, field: &Field) -> &Arg {
        let i = self
            .op
            .fields
            .iter()
            // The ops name their fields with the same constants they read
            // them with: the address decides, the text only if it differs.
            .position(|f| std::ptr::eq(f.name, field.name) || f.name == field.name)
            .unwrap_or_else(|| panic!("{} has no field {}", self.op.name, field.name));
        &self.args[i]
    }

    /// The values of the op's fields, in the order of its `fields`.
    pub(crate) fn args(&self) -> &[Arg] {
        &self.args
    }

    /// The value of a field by name, if the op has it.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        let i = self.op.fields.iter().position(|f| f.name == name)?;
        Some(&self.args[i])
    }

    /// The text of a [`Kind::Text`] field.
    pub fn text(&self, field: Field) -> &str {
        match self.arg(&field) {
            Arg::Text(s) => s,
            other => panic!("{} is {other:?}, not text", field.name),
        }
    }

    /// The value of an integer (or decimal seed) field.
    pub fn int(&self, field: Field) -> u64 {
        match self.arg(&field) {
            Arg::Int(v) | Arg::Seed(v) => *v,
            other => panic!("{} is {other:?}, not an integer", field.name),
        }
    }

    pub(crate) fn number(&self, field: Field) -> f64 {
        match self.arg(&field) {
            Arg::Number(v) => *v,
            other => panic!("{} is {other:?}, not a number", field.name),
        }
    }

    /// The card numbers of a [`Kind::Cards`] field.
    pub(crate) fn cards(&self, field: Field) -> &[u8] {
        match self.arg(&field) {
            Arg::Cards(c) => c,
            other => panic!("{} is {other:?}, not cards", field.name),
        }
    }

    pub(crate) fn flag(&self, field: Field) -> bool {
        match self.arg(&field) {
            Arg::Bool(b) => *b,
            other => panic!("{} is {other:?}, not a boolean", field.name),
        }
    }

    /// The same request with one field changed; `None` if the value does not fit.
    pub(crate) fn with(&self, name: &str, value: &Value) -> Option<Request> {
        let mut v = self.to_value();
        v.as_object_mut()?.insert(name.to_string(), value.clone());
        let op = self.op;
        Request::parse_with(&v, |name| (name == op.name).then_some(op)).ok()
    }

    /// The request as a JSON object (a vector's `input`): `op` first, then
    /// the fields in declaration order.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("requests serialize")
    }

    /// The request line with its id, as the harness sends it: `id` first.
    pub fn line(&self, id: i64) -> String {
        let mut out = Vec::new();
        self.write_line(id, &mut out);
        String::from_utf8(out).expect("JSON is UTF-8")
    }

    /// Appends [`Request::line`] to `out`.
    pub fn write_line(&self, id: i64, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &WithId(id, self)).expect("requests serialize");
    }

    fn serialize_fields<M: SerializeMap>(&self, m: &mut M) -> Result<(), M::Error> {
        m.serialize_entry("op", self.op.name)?;
        for (f, a) in self.op.fields.iter().zip(&self.args) {
            m.serialize_entry(f.name, a)?;
        }
        Ok(())
    }

    /// Runs the request.
    pub fn run(&self) -> Result<Outcome, OpError> {
        #[cfg(test)]
        RUNS.with(|n| n.set(n.get() + 1));
        (self.op.run)(self)
    }

    /// Runs the request and returns its `ok` object as a JSON value (what the
    /// harness compares and the vectors record).
    pub fn run_value(&self) -> Result<Value, OpError> {
        self.run().map(|o| o.to_value())
    }

    /// Parses and validates a request object (an `id` member is ignored),
    /// looking its op up with `find` ([`crate::registry::parse`] looks in
    /// every scheme). An op `find` does not know is [`OpError::Unsupported`].
    /// The object is read by [`Request::read`], as a protocol line is.
    pub(crate) fn parse_with(
        value: &Value,
        find: impl Fn(&str) -> Option<&'static OpSpec>,
    ) -> Result<Request, OpError> {
        let Value::Object(map) = value else {
            return Err(
                InvalidInput::new("request", format!("must be a JSON object, not {}", type_name(value))).into(),
            );
        };
        Request::read(map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(), find)
    }

    /// The request reader: the members of a request object, in text order
    /// (`crate::base::json::read_members`; an `id` member is ignored),
    /// read through the op's declaration into its typed fields. Every
    /// request is read here: `serve`'s lines, the harness's, `derive`'s,
    /// `verify`'s and the audit's rounds. The errors do not depend on the
    /// key order: `op` first, then a missing or mistyped field (in the
    /// op's field order), then a key the op does not take (in text order),
    /// then a value outside its limits.
    pub fn read(
        members: Vec<(String, Value)>,
        find: impl Fn(&str) -> Option<&'static OpSpec>,
    ) -> Result<Request, OpError> {
        let name = match members.iter().find(|(k, _)| k == "op").map(|(_, v)| v) {
            Some(Value::String(op)) => op.as_str(),
            Some(other) => {
                return Err(InvalidInput::new("op", format!("must be a string, not {}", type_name(other))).into())
            }
            None => return Err(InvalidInput::new("op", "is missing").into()),
        };
        let op = find(name).ok_or_else(|| OpError::Unsupported { op: name.to_string() })?;
        Ok(Request {
            op,
            args: read_fields(op, members)?,
        })
    }
}

impl Serialize for Request {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.args.len() + 1))?;
        self.serialize_fields(&mut m)?;
        m.end()
    }
}

/// A request with its id in front, as one protocol line.
struct WithId<'a>(i64, &'a Request);

impl Serialize for WithId<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.1.args.len() + 2))?;
        m.serialize_entry("id", &self.0)?;
        self.1.serialize_fields(&mut m)?;
        m.end()
    }
}

impl Serialize for Arg {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Arg::Text(t) => s.serialize_str(t),
            Arg::Int(v) => s.serialize_u64(*v),
            Arg::Number(v) => s.serialize_f64(*v),
            Arg::Cards(c) => c.serialize(s),
            Arg::Seed(v) => s.collect_str(v),
            Arg::Bool(b) => s.serialize_bool(*b),
        }
    }
}

/// Reads the fields of `op` from a request's members in three passes, so
/// that the error reported first does not depend on the key order: a
/// missing or mistyped field first, then a field the op does not take,
/// then a value outside its limits. Each value is moved out of its member.
fn read_fields(op: &OpSpec, mut members: Vec<(String, Value)>) -> Result<Vec<Arg>, InvalidInput> {
    let mut raw = Vec::with_capacity(op.fields.len());
    for f in op.fields {
        raw.push(match members.iter_mut().find(|(k, _)| k == f.name) {
            Some((_, v)) => read(f, std::mem::take(v))?,
            None => Raw::Arg(match f.default {
                Some(FieldDefault::Bool(b)) => Arg::Bool(b),
                Some(FieldDefault::Int(v)) => Arg::Int(v),
                None => return Err(InvalidInput::new(f.name, "is missing")),
            }),
        });
    }
    if let Some((key, _)) = members
        .iter()
        .find(|(k, _)| k != "op" && k != "id" && op.field(k).is_none())
    {
        return Err(InvalidInput::new(key.clone(), "is not a field of this op"));
    }
    op.fields.iter().zip(raw).map(|(f, r)| settle(f, r)).collect()
}

/// A field read with the right JSON type, not yet held to its limits.
enum Raw {
    Arg(Arg),
    Cards(Vec<u64>),
    Decimal(String),
}

/// Checks a value's JSON type and reads it (a string is moved, not copied).
fn read(f: &Field, v: Value) -> Result<Raw, InvalidInput> {
    let name = f.name;
    let not = |what: &str, v: &Value| InvalidInput::new(name, format!("must be {what}, not {}", type_name(v)));
    Ok(match (f.kind, v) {
        (Kind::Text | Kind::Word(_) | Kind::Hex64, Value::String(s)) => Raw::Arg(Arg::Text(s)),
        (Kind::DecimalSeed, Value::String(s)) => Raw::Decimal(s),
        (Kind::Text | Kind::Word(_) | Kind::Hex64 | Kind::DecimalSeed, v) => return Err(not("a string", &v)),
        (Kind::Int { .. }, v) => Raw::Arg(Arg::Int(read_int(name, &v)?)),
        (Kind::Fraction, v) => {
            Raw::Arg(Arg::Number(v.as_f64().ok_or_else(|| {
                InvalidInput::new(name, format!("must be a number, not {}", short(&v)))
            })?))
        }
        (Kind::Bool, v) => {
            Raw::Arg(Arg::Bool(v.as_bool().ok_or_else(|| {
                InvalidInput::new(name, format!("must be true or false, not {}", short(&v)))
            })?))
        }
        (Kind::Cards { .. }, Value::Array(items)) => Raw::Cards(
            items
                .iter()
                .map(|c| {
                    c.as_u64()
                        .ok_or_else(|| InvalidInput::new(name, format!("{} is not a card (0..=51)", short(c))))
                })
                .collect::<Result<_, _>>()?,
        ),
        (Kind::Cards { .. }, _) => return Err(InvalidInput::new(name, "must be a list of integers")),
    })
}

/// Reads a JSON integer in 0 ..= 2^53−1, the range every integer field shares.
pub(crate) fn read_int(name: &str, v: &Value) -> Result<u64, InvalidInput> {
    match v.as_u64() {
        Some(n) if n <= MAX_SAFE_INTEGER => Ok(n),
        Some(n) => Err(InvalidInput::new(name, format!("{n} is above 2^53-1"))),
        None => Err(InvalidInput::new(
            name,
            format!("must be an integer in 0..=2^53-1, not {}", short(v)),
        )),
    }
}

/// Holds a read value to its field's limits.
fn settle(f: &Field, raw: Raw) -> Result<Arg, InvalidInput> {
    let name = f.name;
    match (f.kind, raw) {
        (Kind::Int { min, max, only, .. }, Raw::Arg(Arg::Int(v))) => {
            let v = error::check_range(name, v, min, max)?;
            match only {
                Some(values) if !values.contains(&v) => Err(InvalidInput::new(
                    name,
                    format!("{v} is not one of {}", join_ints(values)),
                )),
                _ => Ok(Arg::Int(v)),
            }
        }
        (Kind::Fraction, Raw::Arg(Arg::Number(p))) if !(p > 0.0 && p < 1.0) => {
            Err(InvalidInput::new(name, format!("{p} is not strictly between 0 and 1")))
        }
        (Kind::DecimalSeed, Raw::Decimal(text)) => error::parse_seed(name, &text).map(Arg::Seed),
        (Kind::Cards { min, max, max_copies }, Raw::Cards(cards)) => {
            if cards.len() < min || cards.len() > max {
                let want = if min == max {
                    min.to_string()
                } else {
                    format!("{min} to {max}")
                };
                return Err(InvalidInput::new(
                    name,
                    format!("{} cards given, {want} expected", cards.len()),
                ));
            }
            let mut copies = [0usize; 52];
            let mut out = Vec::with_capacity(cards.len());
            for c in cards {
                let Some(card) = u8::try_from(c).ok().filter(|&c| c <= 51) else {
                    return Err(InvalidInput::new(name, format!("{c} is not a card (0..=51)")));
                };
                let seen = &mut copies[usize::from(card)];
                *seen += 1;
                if *seen > max_copies {
                    return Err(InvalidInput::new(
                        name,
                        match max_copies {
                            1 => format!("card {card} appears twice"),
                            n => format!("card {card} appears more than {n} times"),
                        },
                    ));
                }
                out.push(card);
            }
            Ok(Arg::Cards(out))
        }
        (Kind::Word(words), Raw::Arg(Arg::Text(t))) if !words.contains(&t.as_str()) => {
            let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
            Err(InvalidInput::new(
                name,
                format!("{} is not one of {}", short(&t.into()), quoted.join(", ")),
            ))
        }
        (Kind::Hex64, Raw::Arg(Arg::Text(t))) if !is_hex64(&t) => Err(InvalidInput::new(
            name,
            format!("{} is not 64 lowercase hex characters", short(&t.into())),
        )),
        (_, Raw::Arg(a)) => Ok(a),
        (kind, _) => unreachable!("{name}: read and settle disagree on {kind:?}"),
    }
}

/// The JSON type of a value, for messages.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A value quoted for an error message, cut to a readable length: how
/// every story and headline quotes what a target answered, so a finding
/// costs the same whatever the target sent.
pub(crate) fn short(v: &Value) -> String {
    clip(v.to_string())
}

/// Text cut to [`short`]'s length (a target's error kind or message).
pub(crate) fn clip(text: impl Into<String>) -> String {
    let mut s = text.into();
    if s.len() > 60 {
        let mut end = 57;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("...");
    }
    s
}

/// An op's `ok` object, typed by the op that made it. Serialized straight
/// into a response line, so `serve` never builds a JSON tree for it.
pub struct Outcome(Box<dyn OkBody>);

/// What an `ok` object can do: be written as JSON, become a JSON value, or
/// be put on a tape of its tokens (what an audit reads an observation
/// against, [`crate::base::tape`]).
pub(crate) trait OkBody: fmt::Debug + Send + Sync {
    fn write_json(&self, out: &mut Vec<u8>);
    fn to_value(&self) -> Value;
    fn tape(&self, out: &mut Tape) {
        out.of(&self.to_value()).expect("ok objects serialize");
    }
}

impl<T: Serialize + fmt::Debug + Send + Sync> OkBody for T {
    fn write_json(&self, out: &mut Vec<u8>) {
        serde_json::to_writer(out, self).expect("ok objects serialize");
    }
    fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("ok objects serialize")
    }
    fn tape(&self, out: &mut Tape) {
        out.of(self).expect("ok objects serialize");
    }
}

/// An `ok` object of one field that holds bytes as lowercase hex, written
/// straight into the line: serde would scan each of up to 200,000 digits
/// for characters to escape, a tenth of what `serve` and the harness spend
/// on their cases (`shoe.stream`).
#[derive(Debug)]
struct HexField {
    name: &'static str,
    bytes: Vec<u8>,
}

impl OkBody for HexField {
    fn write_json(&self, out: &mut Vec<u8>) {
        // Field names are ASCII letters: nothing in them to escape.
        debug_assert!(self.name.bytes().all(|b| b.is_ascii_alphabetic()));
        out.extend_from_slice(b"{\"");
        out.extend_from_slice(self.name.as_bytes());
        out.extend_from_slice(b"\":\"");
        crate::base::crypto::hex_into(&self.bytes, out);
        out.extend_from_slice(b"\"}");
    }
    fn to_value(&self) -> Value {
        serde_json::json!({ self.name: crate::base::crypto::hex(&self.bytes) })
    }
}

/// An `ok` object of a list of integers and a counter, `{list: [..],
/// counter: n}` (a shuffle's order and its `cursorNext`), written straight
/// into the line: serde's formatter calls per element were a twentieth of
/// what `serve` spends on a 312-card shuffle.
#[derive(Debug)]
struct OrderAndCounter {
    names: [&'static str; 2],
    list: Vec<u32>,
    counter: u64,
}

impl OkBody for OrderAndCounter {
    fn write_json(&self, out: &mut Vec<u8>) {
        // Field names are ASCII letters: nothing in them to escape.
        debug_assert!(self.names.iter().all(|n| n.bytes().all(|b| b.is_ascii_alphabetic())));
        let mut digits = itoa::Buffer::new();
        out.reserve(self.list.len() * 4 + 32);
        out.extend_from_slice(b"{\"");
        out.extend_from_slice(self.names[0].as_bytes());
        out.extend_from_slice(b"\":[");
        for (i, v) in self.list.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(digits.format(*v).as_bytes());
        }
        out.extend_from_slice(b"],\"");
        out.extend_from_slice(self.names[1].as_bytes());
        out.extend_from_slice(b"\":");
        out.extend_from_slice(digits.format(self.counter).as_bytes());
        out.push(b'}');
    }
    fn to_value(&self) -> Value {
        let [list, counter] = self.names;
        serde_json::json!({ list: self.list, counter: self.counter })
    }
}

impl Outcome {
    /// The `ok` object of any serializable answer (written by serde).
    pub fn new<T: Serialize + fmt::Debug + Send + Sync + 'static>(ok: T) -> Outcome {
        Outcome(Box::new(ok))
    }

    /// The `ok` object `{name: hex(bytes)}`; `name` is ASCII letters.
    pub(crate) fn hex_field(name: &'static str, bytes: Vec<u8>) -> Outcome {
        Outcome(Box::new(HexField { name, bytes }))
    }
    /// The `ok` object `{names[0]: list, names[1]: counter}`; names are ASCII letters.
    pub(crate) fn order_and_counter(names: [&'static str; 2], list: Vec<u32>, counter: u64) -> Outcome {
        Outcome(Box::new(OrderAndCounter { names, list, counter }))
    }
    /// Appends the `ok` object as compact JSON.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        self.0.write_json(out);
    }
    /// The `ok` object as a JSON value.
    pub fn to_value(&self) -> Value {
        self.0.to_value()
    }
    /// Puts the `ok` object on `out` (emptied first): the tokens
    /// [`Outcome::to_value`] has, with no tree built.
    pub(crate) fn tape(&self, out: &mut Tape) {
        self.0.tape(out);
    }
}

impl fmt::Debug for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The commitment of every scheme keyed by a server seed: hex SHA-256 of its text.
pub(crate) const SERVER_SEED_SECRET: Secret = Secret {
    field: "serverSeed",
    commit: |a| match a {
        Arg::Text(s) => crate::base::crypto::sha256_hex(s),
        other => unreachable!("a server seed is text, not {other:?}"),
    },
    commit_op: "cursor.hash",
};

/// The highest index at which the arrays `key` of two answers differ.
///
/// Every shuffle here is Fisher–Yates from the back: the first draw fixes
/// the last position, so the highest differing index is the first draw
/// that differs.
pub(crate) fn last_difference(want: &Value, got: &Value, key: &str) -> Option<usize> {
    let list = |v: &Value| v.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    let (w, g) = (list(want), list(got));
    (0..w.len().max(g.len())).rev().find(|&i| w.get(i) != g.get(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_field_line_is_the_serde_line_of_its_value() {
        for bytes in [vec![], vec![0, 0x0f, 0xa0, 0xff], (0..=255).collect()] {
            let ok = Outcome::hex_field("bytes", bytes);
            let mut line = Vec::new();
            ok.write_json(&mut line);
            assert_eq!(String::from_utf8(line).unwrap(), ok.to_value().to_string());
        }
    }
}
