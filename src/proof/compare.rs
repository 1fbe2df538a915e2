//! Comparing an observation with the derived `ok` object.
//!
//! What an `ok` field may hold is compiled once from its declared shape
//! ([`Shape`]). An observation is compared leaf by leaf: `null` matches
//! anything, an array may stop early (a prefix was seen), an observed item
//! past the end of the derived array differs. Numbers compare by value
//! (`0` equals `0.0`), everything else exactly.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::round::OBSERVED;
use super::{FieldError, Finding, FindingKind, Place};
use crate::op::{short, type_name, OpSpec};

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
            Decl::Text { pattern, .. } => Shape::Text(Some(
                regex::Regex::new(pattern).unwrap_or_else(|e| panic!("ok pattern {pattern}: {e}")),
            )),
            Decl::Int { min, max } => Shape::Int { min, max },
            Decl::Number { min, below } => Shape::Number {
                min: bound(min),
                below: Some(bound(below)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
