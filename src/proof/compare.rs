//! The one comparer: an observation read against the derived `ok` object,
//! driven by the op's `ok` declaration (docs/proofs.md, "Comparison").
//!
//! The observation's text is read once, token by token
//! (`base::json::Reader`), against the derived object's tokens
//! (`base::tape`, the typed answer as serde gives it): no JSON
//! tree is built for either. Every observed field, key by key in text
//! order, is held to its declared shape ([`Shape`], compiled once) and
//! compared leaf by leaf in the same walk: `null` matches anything, a list
//! may stop early (a prefix was seen), an observed item past the end of
//! the derived list differs as a whole, numbers compare by value (`0`
//! equals `0.0`), every other leaf exactly. Any subset of the fields, in
//! any order and layout.
//!
//! A leaf that is the derived one (the same value of the same kind: `235`,
//! not `235.0`) holds its field's rules without being checked against them:
//! every derived answer does (tests/serve.rs holds `serve`'s answers to the
//! generated schema), so only another leaf is matched against its pattern,
//! the costliest rule.
//!
//! What the walk does not decide it leaves to serde_json's strict reader
//! (`Refusal::Text`): a text that is not JSON, a key given twice, more
//! items than a round may hold. Those are the round's first errors
//! (docs/proofs.md, "Round"), named by that reader.

use std::borrow::Cow;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::{FieldError, Finding, FindingKind, Place};
use crate::base::json::{Reader, Scalar, Unread};
use crate::base::tape::{Tape, Token};
use crate::op::{short, OpSpec};

/// The round key that holds the observation.
pub(crate) const OBSERVED: &str = "observed";

/// What an `ok` field may hold, compiled from its declaration. Only the
/// item rules bind an observation: lengths and uniqueness are compared, not
/// enforced, since a longer observation is evidence of a mismatch.
#[derive(Debug)]
pub enum Shape {
    /// A string that matches the declared pattern.
    Text(regex::Regex),
    /// An integer in `min ..= max` (no upper bound when `max` is `None`).
    Int {
        /// The least value allowed.
        min: u64,
        /// The greatest value allowed, if any.
        max: Option<u64>,
    },
    /// A number in `min .. below`.
    Number {
        /// The least value allowed.
        min: f64,
        /// The bound every value stays under.
        below: f64,
    },
    /// An array whose every item has the inner shape (or is `null`: not seen).
    List(Box<Shape>),
    /// One of the declared words.
    OneOf(&'static [&'static str]),
}

/// A declared number bound as a number: an integer below 2^53 (a crash
/// point's reaches 4.5·10^15), so exact in binary64.
#[allow(clippy::cast_precision_loss, reason = "checked below 2^53: exact")]
fn bound(b: u64) -> f64 {
    assert!(b < 1 << 53, "a number bound below 2^53");
    b as f64
}

impl Shape {
    /// Compiles an `ok` field's declared shape.
    ///
    /// # Panics
    /// When a declared pattern is not a regular expression (a bug in the op table).
    pub(crate) fn of(shape: &crate::op::Shape) -> Shape {
        use crate::op::Shape as Decl;
        match *shape {
            Decl::Text { pattern, .. } => {
                Shape::Text(regex::Regex::new(pattern).unwrap_or_else(|e| panic!("ok pattern {pattern}: {e}")))
            }
            Decl::Int { min, max } => Shape::Int { min, max },
            Decl::Number { min, below } => Shape::Number {
                min: bound(min),
                below: bound(below),
            },
            Decl::OneOf(words) => Shape::OneOf(words),
            Decl::List { items, .. } => Shape::List(Box::new(Shape::of(items))),
        }
    }

    /// What a value of the shape is, for a message.
    fn kind(&self) -> &'static str {
        match self {
            Shape::Text(_) => "a string",
            Shape::Int { .. } => "an integer",
            Shape::Number { .. } => "a number",
            Shape::List(_) => "a list",
            Shape::OneOf(_) => "one of the words",
        }
    }

    /// Why `v` (an observed value, as a JSON value) is not of the shape,
    /// when it is of another kind (a list for a scalar, a scalar for a list).
    fn not(&self, v: &Value) -> String {
        match self {
            Shape::OneOf(words) => format!(
                "{} is not one of {}",
                short(v),
                words
                    .iter()
                    .map(|w| Value::from(*w).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => format!("must be {}, not {}", self.kind(), short(v)),
        }
    }

    /// Checks an observed scalar (not `null`: that is a list item not seen).
    fn admits(&self, v: &Scalar) -> Result<(), String> {
        match (self, v) {
            (Shape::OneOf(words), Scalar::Str(s)) if words.contains(&s.as_ref()) => Ok(()),
            (Shape::Text(pattern), Scalar::Str(s)) if pattern.is_match(s) => Ok(()),
            (Shape::Text(pattern), Scalar::Str(_)) => Err(format!(
                "must be text matching {}, not {}",
                pattern.as_str(),
                short(&v.to_value())
            )),
            (Shape::Int { min, max }, _) if v.as_u64().is_some() => {
                let n = v.as_u64().expect("an integer");
                match max {
                    _ if n >= *min && max.is_none_or(|m| n <= m) => Ok(()),
                    Some(m) => Err(format!("{n} is outside {min}..={m}")),
                    None => Err(format!("{n} is below {min}")),
                }
            }
            (Shape::Number { min, below }, _) if v.as_f64().is_some() => {
                let x = v.as_f64().expect("a number");
                if x >= *min && x < *below {
                    Ok(())
                } else {
                    Err(format!("{x} is outside the range of the field"))
                }
            }
            _ => Err(self.not(&v.to_value())),
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

/// Why an observation was not read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The text is not JSON here, repeats a key, or holds more items than
    /// the budget: serde_json's strict reader of the round names it.
    Text,
    /// An observed field or item breaks the op's rules: the round's error
    /// if the text holds no earlier one.
    Field(FieldError),
}

impl From<Unread> for Refusal {
    fn from(_: Unread) -> Refusal {
        Refusal::Text
    }
}

/// Where the derived object stands for an observed value.
#[derive(Clone, Copy)]
enum Against<'t> {
    /// Its derived counterpart: the value at this index of the tape.
    Item(&'t Tape, usize),
    /// None: the derived list has no item there, so the value differs whole.
    Missing,
    /// Nothing is compared: the value is only held to its shape.
    Unchecked,
}

/// Told of each observed leaf that differs: the field (its index in the
/// op's `ok` order) and the indexes from the field down to the leaf.
pub(crate) type Differs<'a> = dyn FnMut(usize, &[usize]) + 'a;

/// Reads an observation (`observed`, the text of an object) against the
/// derived `ok` object (`derived`, its tape; `None`: nothing to compare,
/// the observation is only held to the op's rules), telling `differs` of
/// each leaf that differs; returns how many leaves were compared. `items`
/// is how many list items and object members the text may still hold
/// ([`crate::base::json::MAX_ITEMS`] for the round).
pub(crate) fn read(
    spec: &OpSpec,
    observed: &[u8],
    derived: Option<&Tape>,
    items: usize,
    differs: &mut Differs,
) -> Result<u64, Refusal> {
    let mut walk = Walk {
        obs: Reader::new(observed),
        key: Cow::Borrowed(""),
        field: 0,
        path: Vec::new(),
        items,
        compared: 0,
        differs,
    };
    walk.observation(spec, derived)?;
    Ok(walk.compared)
}

struct Walk<'o, 'c> {
    obs: Reader<'o>,
    /// The field being read, as written, and its index in the op's order.
    key: Cow<'o, str>,
    field: usize,
    path: Vec<usize>,
    items: usize,
    compared: u64,
    differs: &'c mut Differs<'c>,
}

/// The JSON type of the value a text begins with, for messages.
fn type_at(first: u8) -> &'static str {
    match first {
        b'{' => "an object",
        b'[' => "a list",
        b'"' => "a string",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "a number",
    }
}

impl<'o> Walk<'o, '_> {
    /// One more list item or object member: past the budget, the strict
    /// reader says how many is too many.
    fn take(&mut self) -> Result<(), Refusal> {
        self.items = self.items.checked_sub(1).ok_or(Refusal::Text)?;
        Ok(())
    }

    fn invalid(&self, reason: String) -> Refusal {
        let reason = match self.path.len() {
            0 | 1 => reason,
            _ => format!(
                "item {}: {reason}",
                self.path[1..]
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", item ")
            ),
        };
        Refusal::Field(FieldError {
            field: format!("{OBSERVED}.{}", self.key),
            index: self.path.first().map(|&i| i as u64),
            reason,
        })
    }

    fn differ(&mut self) {
        self.compared += 1;
        (self.differs)(self.field, &self.path);
    }

    /// The observation: an object of some of the op's `ok` fields, key by
    /// key in text order.
    fn observation(&mut self, spec: &OpSpec, derived: Option<&Tape>) -> Result<(), Refusal> {
        let shapes = shapes(spec);
        match self.obs.peek() {
            Some(b'{') => {}
            Some(b) => {
                return Err(Refusal::Field(FieldError::new(
                    OBSERVED,
                    format!("must be an object of {} fields, not {}", spec.name, type_at(b)),
                )))
            }
            None => return Err(Refusal::Text),
        }
        // Each field once: a key given twice is the strict reader's to name.
        let mut seen = 0u64;
        let mut more = !self.obs.open(b'{', b'}')?;
        while more {
            self.take()?;
            self.key = self.obs.string()?;
            if !self.obs.eat(b':') {
                return Err(Refusal::Text);
            }
            let Some(k) = shapes.iter().position(|(name, _)| *name == self.key) else {
                let names: Vec<&str> = shapes.iter().map(|(k, _)| *k).collect();
                return Err(self.invalid(format!(
                    "is not a field of {}'s answer ({})",
                    spec.name,
                    names.join(", ")
                )));
            };
            let bit = 1u64.checked_shl(u32::try_from(k).unwrap_or(u32::MAX)).unwrap_or(0);
            if seen & bit != 0 {
                return Err(Refusal::Text);
            }
            seen |= bit;
            if self.obs.peek() == Some(b'n') && self.obs.clone().scalar()? == Scalar::Null {
                return Err(self.invalid(
                    "is null: leave out a field that was not seen (null stands only for an item of a list)".into(),
                ));
            }
            self.field = k;
            let against = match derived {
                None => Against::Unchecked,
                Some(tape) => tape
                    .member(0, shapes[k].0)
                    .map_or(Against::Missing, |at| Against::Item(tape, at)),
            };
            self.value(&shapes[k].1, against)?;
            more = self.obs.more(b'}')?;
        }
        if !self.obs.end() {
            return Err(Refusal::Text);
        }
        Ok(())
    }

    /// One observed value (not a field's `null`) of `shape`.
    fn value(&mut self, shape: &Shape, against: Against<'_>) -> Result<(), Refusal> {
        match (shape, self.obs.peek()) {
            (Shape::List(item), Some(b'[')) => self.list(item, against),
            (_, Some(b'[' | b'{')) | (Shape::List(_), _) => {
                // Another kind than the shape's: named with the value whole.
                let start = self.obs.offset();
                self.obs.skip()?;
                let v: Value = serde_json::from_slice(self.obs.since(start)).map_err(|_| Refusal::Text)?;
                Err(self.invalid(shape.not(&v)))
            }
            _ => self.leaf(shape, against),
        }
    }

    fn leaf(&mut self, shape: &Shape, against: Against<'_>) -> Result<(), Refusal> {
        let o = self.obs.scalar()?;
        match against {
            Against::Item(tape, at) => {
                let equal = match tape.scalar(at) {
                    // The derived leaf itself, which holds the field's rules.
                    Some(d) if o == d => {
                        self.compared += 1;
                        return Ok(());
                    }
                    Some(d) => same(&o, &d),
                    // A list where the observation holds a scalar: it differs.
                    None => false,
                };
                shape.admits(&o).map_err(|r| self.invalid(r))?;
                if equal {
                    self.compared += 1;
                } else {
                    self.differ();
                }
            }
            Against::Missing => {
                shape.admits(&o).map_err(|r| self.invalid(r))?;
                self.differ();
            }
            Against::Unchecked => shape.admits(&o).map_err(|r| self.invalid(r))?,
        }
        Ok(())
    }

    /// An observed list, item by item against the derived list's items.
    fn list(&mut self, item: &Shape, against: Against<'_>) -> Result<(), Refusal> {
        // The derived list's items: the tape, the next one's index, the list's end.
        let (derived, whole) = match against {
            Against::Item(tape, at) => match tape.token(at) {
                Some(Token::List { end }) => (Some((tape, at + 1, end as usize)), false),
                // A derived value that is no list: the observed list differs whole.
                _ => (None, true),
            },
            Against::Missing => (None, true),
            Against::Unchecked => (None, false),
        };
        let (tape, mut next, end) = derived.map_or((None, 0, 0), |(t, n, e)| (Some(t), n, e));
        let mut more = !self.obs.open(b'[', b']')?;
        let leaves = !matches!(item, Shape::List(_));
        let mut i = 0;
        while more {
            if let (Some(tape), true, true) = (tape, next < end, leaves) {
                // The common items, written as JSON writes the derived ones.
                let n = self.obs.same_items(tape, &mut next, end);
                if n > 0 {
                    self.items = self.items.checked_sub(n).ok_or(Refusal::Text)?;
                    self.compared += n as u64;
                    more = self.obs.more(b']')?;
                    i += n;
                    continue;
                }
            }
            self.take()?;
            self.path.push(i);
            let null = self.obs.peek() == Some(b'n') && self.obs.clone().scalar()? == Scalar::Null;
            match tape {
                Some(tape) if next < end => {
                    if null {
                        self.obs.scalar()?;
                    } else {
                        self.value(item, Against::Item(tape, next))?;
                    }
                    next = tape.after(next);
                }
                _ if null => {
                    self.obs.scalar()?;
                }
                _ => {
                    self.value(item, Against::Unchecked)?;
                    if tape.is_some() {
                        // Past the end of the derived list: differs whole.
                        self.differ();
                    }
                }
            }
            self.path.pop();
            more = self.obs.more(b']')?;
            i += 1;
        }
        if whole {
            self.differ();
        }
        Ok(())
    }
}

/// Equality of JSON scalars: numbers by value (integers exactly, others as
/// binary64), everything else exactly.
fn same(a: &Scalar, b: &Scalar) -> bool {
    match (a, b) {
        (Scalar::U64(_) | Scalar::I64(_) | Scalar::F64(_), Scalar::U64(_) | Scalar::I64(_) | Scalar::F64(_)) => {
            match (a.as_u64(), b.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => a.as_f64() == b.as_f64(),
            }
        }
        _ => a == b,
    }
}

/// What one observation says against its derivation: whether anything
/// was compared and, per field that differs (in the op's order), its first
/// differing top-level index (`None` for a field that is not a list) and
/// how many top-level items differ.
#[derive(Debug, Default)]
pub(crate) struct Reading {
    pub compared: bool,
    pub differing: Vec<(usize, Option<usize>, u64)>,
}

/// [`read`] with the differences counted per field, as a mismatch finding
/// reports them.
pub(crate) fn reading(spec: &OpSpec, observed: &[u8], derived: &Tape, items: usize) -> Result<Reading, Refusal> {
    /// A field's differences: its first differing top-level index, the last
    /// one counted, and how many.
    #[derive(Clone, Copy)]
    struct Tops {
        first: Option<usize>,
        last: Option<usize>,
        n: u64,
    }
    let mut per: Vec<Option<Tops>> = vec![None; shapes(spec).len()];
    let compared = read(spec, observed, Some(derived), items, &mut |field, path| {
        let top = path.first().copied();
        match &mut per[field] {
            // A field's differences come in index order: each new top-level index is counted once.
            Some(t) => {
                if t.last != top {
                    (t.last, t.n) = (top, t.n + 1);
                }
            }
            slot @ None => {
                *slot = Some(Tops {
                    first: top,
                    last: top,
                    n: 1,
                });
            }
        }
    })?;
    let differing = per
        .into_iter()
        .enumerate()
        .filter_map(|(k, t)| t.map(|t| (k, t.first, t.n)))
        .collect();
    Ok(Reading {
        compared: compared > 0,
        differing,
    })
}

/// The mismatch findings of a reading: per differing field, the items at
/// its first differing index (the whole values for a field that is not a
/// list; `derived` null where the derived list has no item there).
pub(crate) fn mismatches(
    at: Place,
    spec: &OpSpec,
    reading: &Reading,
    observed: &Value,
    derived: &Value,
) -> Vec<Finding> {
    let shapes = shapes(spec);
    reading
        .differing
        .iter()
        .map(|&(k, first, n)| {
            let field = shapes[k].0;
            let mut f = Finding::new(FindingKind::Mismatch, at);
            f.field = Some(field.into());
            f.differences = Some(n);
            let (d, o) = (derived.get(field), observed.get(field));
            match first {
                None => {
                    f.derived = d.cloned().unwrap_or(Value::Null);
                    f.observed = o.cloned().unwrap_or(Value::Null);
                }
                Some(i) => {
                    f.index = Some(i as u64);
                    f.derived = d.and_then(|d| d.get(i)).cloned().unwrap_or(Value::Null);
                    f.observed = o.and_then(|o| o.get(i)).cloned().unwrap_or(Value::Null);
                }
            }
            f
        })
        .collect()
}

/// Holds an observation given as a value to the op's rules (a round read
/// whole, a round written by `provably proof`).
pub(crate) fn read_observed(spec: &OpSpec, v: Value) -> Result<Map<String, Value>, FieldError> {
    let text = serde_json::to_vec(&v).expect("a value serializes");
    match read(spec, &text, None, usize::MAX, &mut |_, _| {}) {
        Ok(_) => match v {
            Value::Object(map) => Ok(map),
            // Not met: only an object is read to its end.
            _ => Err(FieldError::new(OBSERVED, "cannot be read")),
        },
        Err(Refusal::Field(e)) => Err(e),
        // Not met: serde writes JSON, with no key twice.
        Err(Refusal::Text) => Err(FieldError::new(OBSERVED, "cannot be read")),
    }
}

/// One observed leaf that differs from the derived one.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// The `ok` field the leaf belongs to.
    pub field: &'static str,
    /// The indexes from the field down to the leaf (empty for a scalar field).
    pub path: Vec<usize>,
    /// `None` when the derived list has no item there.
    pub derived: Option<Value>,
    /// The leaf as observed.
    pub observed: Value,
}

/// The leaves compared and every one that differs, in the order read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// How many observed leaves were compared.
    pub compared: u64,
    /// Every leaf that differs, in the order read.
    pub differences: Vec<Difference>,
}

/// Compares an observation (held to the op's rules) with the derived `ok`
/// object, leaf by leaf.
///
/// # Panics
/// When `observed` breaks the op's rules (read it with the proof reader first).
pub fn compare(spec: &OpSpec, observed: &Map<String, Value>, derived: &Value) -> Comparison {
    let shapes = shapes(spec);
    let (o, d) = (Value::Object(observed.clone()), derived);
    let text = serde_json::to_vec(&o).expect("a value serializes");
    let mut tape = Tape::default();
    tape.of(d).expect("a value goes on a tape");
    let mut differences = Vec::new();
    let compared = read(spec, &text, Some(&tape), usize::MAX, &mut |k, path| {
        let field = shapes[k].0;
        fn at<'v>(v: Option<&'v Value>, path: &[usize]) -> Option<&'v Value> {
            path.iter().try_fold(v?, |v, &i| v.get(i))
        }
        differences.push(Difference {
            field,
            path: path.to_vec(),
            derived: at(d.get(field), path).cloned(),
            observed: at(o.get(field), path).cloned().unwrap_or(Value::Null),
        });
    })
    .unwrap_or_else(|e| panic!("an observation held to the op's rules first: {e:?}"));
    Comparison { compared, differences }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn every_answer_goes_on_a_tape_as_the_value_it_is() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let mut tape = Tape::default();
        for o in crate::registry::ops() {
            for _ in 0..8 {
                let request = (o.generate)().new_tree(&mut runner).unwrap().current();
                let Ok(outcome) = request.run() else { continue };
                outcome.tape(&mut tape);
                assert_eq!(crate::base::tape::value(&tape, 0), outcome.to_value(), "{}", o.name);
            }
        }
    }

    #[test]
    fn every_ok_pattern_compiles_and_every_ok_field_has_a_shape() {
        for o in crate::registry::ops() {
            assert_eq!(shapes(o).len(), o.ok.len(), "{}", o.name);
        }
    }

    /// An observation made from a derived object as docs/proofs.md allows:
    /// some of its fields, each list cut to a prefix, `null` for some items.
    /// Returns it and how many leaves it holds.
    fn seen(v: &Value, rng: &mut proptest::test_runner::TestRng) -> (Value, u64) {
        match v {
            Value::Array(items) => {
                let keep = rng.random_range(0..=items.len());
                let mut leaves = 0;
                let items = items[..keep]
                    .iter()
                    .map(|x| {
                        if rng.random_bool(0.2) {
                            return Value::Null;
                        }
                        let (x, n) = seen(x, rng);
                        leaves += n;
                        x
                    })
                    .collect();
                (Value::Array(items), leaves)
            }
            other => (other.clone(), 1),
        }
    }

    /// A JSON text of `v` with white space, key order and escapes chosen at random.
    fn written(v: &Value, rng: &mut proptest::test_runner::TestRng, out: &mut String) {
        let space = |rng: &mut proptest::test_runner::TestRng, out: &mut String| {
            for _ in 0..rng.random_range(0..3u8) {
                out.push([' ', '\n', '\t', '\r'][rng.random_range(0..4)]);
            }
        };
        space(rng, out);
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                if rng.random_bool(0.5) {
                    keys.reverse();
                }
                out.push('{');
                for (i, k) in keys.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    written(&Value::from(k.as_str()), rng, out);
                    out.push(':');
                    written(&m[*k], rng, out);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    written(x, rng, out);
                }
                space(rng, out);
                out.push(']');
            }
            Value::String(s) if rng.random_bool(0.3) => {
                out.push('"');
                for c in s.chars() {
                    out.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                out.push('"');
            }
            other => out.push_str(&other.to_string()),
        }
        space(rng, out);
    }

    fn requests() -> impl Strategy<Value = crate::op::Request> {
        let ops: Vec<&'static OpSpec> = crate::registry::ops().collect();
        prop::sample::select(ops).prop_flat_map(|o| (o.generate)())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Any subset of the fields, any prefix of a list, `null` for any
        /// item, in any order and layout: every leaf seen is compared and
        /// equal. An item past the end of a list differs, alone.
        #[test]
        fn what_was_seen_of_an_answer_in_any_layout_is_compared_leaf_by_leaf(request in requests(), seed in any::<[u8; 32]>()) {
                let Ok(outcome) = request.run() else { return Ok(()) };
            let spec = request.spec();
            let mut rng = proptest::test_runner::TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &seed);
            let mut derived = Tape::default();
            outcome.tape(&mut derived);
            let value = outcome.to_value();
            let mut observed = Map::new();
            let mut leaves = 0;
            for (k, v) in value.as_object().unwrap() {
                if rng.random_bool(0.7) {
                    let (o, n) = seen(v, &mut rng);
                    observed.insert(k.clone(), o);
                    leaves += n;
                }
            }
            let mut text = String::new();
            written(&Value::Object(observed.clone()), &mut rng, &mut text);
            let mut differs = Vec::new();
            let compared = read(spec, text.as_bytes(), Some(&derived), usize::MAX, &mut |k, p| differs.push((k, p.to_vec())));
            prop_assert_eq!(compared, Ok(leaves), "{}", text);
            prop_assert!(differs.is_empty(), "{:?} in {}", differs, text);
            // One item more than the answer has, at the end of a list.
            let list = value.as_object().unwrap().iter().position(|(_, v)| v.as_array().is_some_and(|a| !a.is_empty()));
            if let Some(k) = list {
                let (name, v) = value.as_object().unwrap().iter().nth(k).unwrap();
                let items = v.as_array().unwrap();
                let mut longer = items.clone();
                longer.push(items[0].clone());
                let text = json!({ name: longer }).to_string();
                let mut differs = Vec::new();
                let field = shapes(spec).iter().position(|(n, _)| n == name).unwrap();
                let compared = read(spec, text.as_bytes(), Some(&derived), usize::MAX, &mut |k, p| differs.push((k, p.to_vec())));
                prop_assert!(compared.is_ok(), "{}", text);
                prop_assert_eq!(differs, vec![(field, vec![items.len()])], "{}", text);
            }
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
}
