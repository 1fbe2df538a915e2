//! What an op answers: each `ok` field with the shape of its value.
//!
//! The shape is the declaration; the JSON Schemas (harness/protocol.schema.json)
//! are generated from it, the proof checker binds observations with it, and
//! the JavaScript side reads the generated table (reference/js/generated/ops.mjs).
//! Only what the answers need is here: a shape is text with a pattern, an
//! integer or a number in a range, one of a few words, or a list of a shape.

use serde_json::{json, Value};

/// The value of one `ok` field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Shape {
    /// Text that matches `pattern` (anchored), at most `max_length` characters.
    Text {
        /// The regular expression the whole text matches.
        pattern: &'static str,
        /// The most characters the text may have (`None`: no limit beyond the pattern's).
        max_length: Option<u64>,
    },
    /// An integer in `min ..= max` (no upper bound when `max` is `None`).
    Int {
        /// The smallest value.
        min: u64,
        /// The largest value, if there is one.
        max: Option<u64>,
    },
    /// A number in `min ..` and below `below`.
    Number {
        /// The smallest value.
        min: u64,
        /// The bound every value stays below.
        below: u64,
    },
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// A list of `items`, with at least `min` and at most `max` of them, and
    /// no item twice when `unique`.
    List {
        /// The shape of every item.
        items: &'static Shape,
        /// The fewest items, if there is a floor.
        min: Option<u64>,
        /// The most items, if there is a ceiling.
        max: Option<u64>,
        /// Whether no item may appear twice.
        unique: bool,
    },
}

/// One field of an `ok` answer, in protocol order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OkField {
    pub(crate) name: &'static str,
    pub(crate) shape: Shape,
}

impl OkField {
    /// The field `name`, whose value has `shape`.
    pub(crate) const fn new(name: &'static str, shape: Shape) -> OkField {
        OkField { name, shape }
    }
}

/// Lowercase hex of 32 bytes (a MAC, a SHA-256).
pub(crate) const HEX64: Shape = Shape::Text {
    pattern: "^[0-9a-f]{64}$",
    max_length: None,
};

/// A card number of a 52-card deck.
pub(crate) const CARD: Shape = Shape::int(0, 51);

impl Shape {
    /// An integer in `min ..= max`.
    pub(crate) const fn int(min: u64, max: u64) -> Shape {
        Shape::Int { min, max: Some(max) }
    }

    /// A list of `items` of any length.
    pub(crate) const fn list(items: &'static Shape) -> Shape {
        Shape::List {
            items,
            min: None,
            max: None,
            unique: false,
        }
    }

    /// A list of `min ..= max` of `items`.
    pub(crate) const fn sized(items: &'static Shape, min: u64, max: u64) -> Shape {
        Shape::List {
            items,
            min: Some(min),
            max: Some(max),
            unique: false,
        }
    }

    /// The shape as JSON Schema (the keys in the order the schema files have them).
    pub(crate) fn schema(&self) -> Value {
        match *self {
            Shape::Text { pattern, max_length } => {
                let mut s = json!({ "type": "string", "pattern": pattern });
                if let Some(n) = max_length {
                    s["maxLength"] = Value::from(n);
                }
                s
            }
            Shape::Int { min, max } => {
                let mut s = json!({ "type": "integer", "minimum": min });
                if let Some(m) = max {
                    s["maximum"] = Value::from(m);
                }
                s
            }
            Shape::Number { min, below } => json!({ "type": "number", "minimum": min, "exclusiveMaximum": below }),
            Shape::OneOf(words) => json!({ "enum": words }),
            Shape::List {
                items,
                min,
                max,
                unique,
            } => {
                let mut s = json!({ "type": "array", "items": items.schema() });
                if let Some(n) = min {
                    s["minItems"] = Value::from(n);
                }
                if let Some(n) = max {
                    s["maxItems"] = Value::from(n);
                }
                if unique {
                    s["uniqueItems"] = Value::Bool(true);
                }
                s
            }
        }
    }
}
