//! A value as the tokens serde gives it (lists, objects, keys, scalars),
//! one after the other in a flat list: what a JSON value of it holds, with
//! no text written and no tree built. A typed answer is read against an
//! observation this way (the audit's comparer): a shoe's 312 labels are
//! 312 tokens and their bytes in one buffer.
//!
//! A value goes on the tape exactly as serde_json's `to_value` has it
//! (integers at or above 0 as such, other integers as negative ones, a
//! float that is not finite as null, an enum's variant by its name).

use std::borrow::Cow;
use std::fmt;

use serde::ser::{self, Serialize};
use serde_json::{Number, Value};

/// A JSON scalar as serde_json reads it into a `Value`: a number is one of
/// its three kinds (an integer below 2^64, a negative integer at or above
/// −2^63, anything else a binary64), a string is borrowed from the text
/// unless it holds an escape.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar<'a> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(Cow<'a, str>),
}

impl Scalar<'_> {
    /// The integer, if the number is one at or above 0 (`Value::as_u64`).
    pub(crate) fn as_u64(&self) -> Option<u64> {
        match *self {
            Scalar::U64(n) => Some(n),
            Scalar::I64(n) => u64::try_from(n).ok(),
            _ => None,
        }
    }

    /// The number as a binary64 (`Value::as_f64`).
    #[allow(clippy::cast_precision_loss, reason = "as serde_json's Value::as_f64")]
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match *self {
            Scalar::U64(n) => Some(n as f64),
            Scalar::I64(n) => Some(n as f64),
            Scalar::F64(x) => Some(x),
            _ => None,
        }
    }

    /// The scalar as a JSON value (for a message).
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(*b),
            Scalar::U64(n) => Value::from(*n),
            Scalar::I64(n) => Value::from(*n),
            Scalar::F64(x) => Number::from_f64(*x).map_or(Value::Null, Value::Number),
            Scalar::Str(s) => Value::from(s.as_ref()),
        }
    }
}

/// One token. A list or an object names the index of its end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Token {
    List {
        end: u32,
    },
    Object {
        end: u32,
    },
    End,
    /// An object's key, and a string: a range of the tape's text; `plain`:
    /// JSON writes it as it is (no quote, backslash or control character).
    Key {
        at: u32,
        len: u32,
    },
    Str {
        at: u32,
        len: u32,
        plain: bool,
    },
    /// A string of at most 8 bytes held in the token, little-endian in a
    /// word (a card's label): no text to copy it to or find it in, and one
    /// compare to read it against.
    Short {
        len: u8,
        plain: bool,
        word: u64,
    },
    U64(u64),
    I64(i64),
    F64(f64),
    Bool(bool),
    Null,
}

/// The tokens of a value, and the text of its keys and strings.
#[derive(Debug, Default)]
pub(crate) struct Tape {
    tokens: Vec<Token>,
    text: String,
}

/// Why a value did not go on the tape: it is no JSON value (a map key that
/// is not a string or a number).
#[derive(Debug)]
pub(crate) struct NotJson(String);

impl fmt::Display for NotJson {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotJson {}

impl ser::Error for NotJson {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        NotJson(msg.to_string())
    }
}

impl Tape {
    /// The tape of `value` (emptied first).
    pub(crate) fn of<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotJson> {
        self.tokens.clear();
        self.text.clear();
        value.serialize(&mut *self)
    }

    /// The token at `i`.
    pub(crate) fn token(&self, i: usize) -> Option<Token> {
        self.tokens.get(i).copied()
    }

    /// The text of a key or a string.
    pub(crate) fn text(&self, at: u32, len: u32) -> &str {
        &self.text[at as usize..(at + len) as usize]
    }

    /// The index just past the value at `i`.
    pub(crate) fn after(&self, i: usize) -> usize {
        match self.tokens.get(i) {
            Some(Token::List { end } | Token::Object { end }) => *end as usize + 1,
            _ => i + 1,
        }
    }

    /// The value of the member `name` of the object at `i`, if it has one.
    pub(crate) fn member(&self, i: usize, name: &str) -> Option<usize> {
        let Some(Token::Object { end }) = self.token(i) else {
            return None;
        };
        let mut k = i + 1;
        while k < end as usize {
            let Token::Key { at, len } = self.tokens[k] else {
                return None;
            };
            if self.text(at, len) == name {
                return Some(k + 1);
            }
            k = self.after(k + 1);
        }
        None
    }

    /// The scalar at `i` (`None` for a list, an object or their end).
    pub(crate) fn scalar(&self, i: usize) -> Option<Scalar<'_>> {
        Some(match self.tokens.get(i)? {
            Token::Str { at, len, .. } => Scalar::Str(self.text(*at, *len).into()),
            Token::Short { len, word, .. } => {
                // Put there from a `str` whole: UTF-8.
                let bytes = word.to_le_bytes();
                let text = std::str::from_utf8(&bytes[..usize::from(*len)]).ok()?;
                Scalar::Str(text.to_string().into())
            }
            Token::U64(n) => Scalar::U64(*n),
            Token::I64(n) => Scalar::I64(*n),
            Token::F64(x) => Scalar::F64(*x),
            Token::Bool(b) => Scalar::Bool(*b),
            Token::Null => Scalar::Null,
            Token::List { .. } | Token::Object { .. } | Token::End | Token::Key { .. } => return None,
        })
    }

    fn push_text(&mut self, s: &str) -> (u32, u32) {
        let at = self.text.len();
        self.text.push_str(s);
        (len32(at), len32(s.len()))
    }

    fn key(&mut self, s: &str) {
        let (at, len) = self.push_text(s);
        self.tokens.push(Token::Key { at, len });
    }

    fn string(&mut self, s: &str) {
        let needs_escape = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
        if let Ok(len @ 0..=8) = u8::try_from(s.len()) {
            // Shifted into the word, not stored byte by byte: read back
            // whole right after, bytes stored one by one stall the load.
            let (mut word, mut plain) = (0u64, true);
            for (k, &b) in s.as_bytes().iter().enumerate() {
                word |= u64::from(b) << (8 * k);
                plain &= !needs_escape(b);
            }
            self.tokens.push(Token::Short { len, plain, word });
            return;
        }
        let plain = !s.bytes().any(needs_escape);
        let (at, len) = self.push_text(s);
        self.tokens.push(Token::Str { at, len, plain });
    }

    /// Opens a list or an object (`object`); [`Compound::end`] closes it.
    fn open(&mut self, object: bool) -> Compound<'_> {
        let open = self.tokens.len();
        self.tokens.push(if object {
            Token::Object { end: 0 }
        } else {
            Token::List { end: 0 }
        });
        Compound {
            tape: self,
            open,
            wrapped: None,
        }
    }

    /// An enum variant's value, wrapped as `{variant: …}`.
    fn wrapped(&mut self, variant: &str, object: bool) -> Compound<'_> {
        let outer = self.tokens.len();
        self.tokens.push(Token::Object { end: 0 });
        self.key(variant);
        let mut c = self.open(object);
        c.wrapped = Some(outer);
        c
    }

    fn close(&mut self, open: usize) {
        let end = len32(self.tokens.len());
        match &mut self.tokens[open] {
            Token::List { end: e } | Token::Object { end: e } => *e = end,
            other => unreachable!("{other:?} opens nothing"),
        }
        self.tokens.push(Token::End);
    }
}

/// A length or an index as a tape holds it. An answer is far below 2^32
/// tokens or bytes (the largest, a shuffle of 100,000 items).
fn len32(n: usize) -> u32 {
    u32::try_from(n).expect("a tape under 2^32 tokens and bytes")
}

/// A list or an object being put on a tape.
pub(crate) struct Compound<'a> {
    tape: &'a mut Tape,
    open: usize,
    /// The `{variant: …}` around it, for an enum's variant.
    wrapped: Option<usize>,
}

impl Compound<'_> {
    fn end(self) -> Result<(), NotJson> {
        self.tape.close(self.open);
        if let Some(outer) = self.wrapped {
            self.tape.close(outer);
        }
        Ok(())
    }
}

impl<'a> ser::Serializer for &'a mut Tape {
    type Ok = ();
    type Error = NotJson;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), NotJson> {
        self.tokens.push(Token::Bool(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), NotJson> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), NotJson> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), NotJson> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), NotJson> {
        self.tokens.push(u64::try_from(v).map_or(Token::I64(v), Token::U64));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), NotJson> {
        match (u64::try_from(v), i64::try_from(v)) {
            (Ok(n), _) => self.serialize_u64(n),
            (_, Ok(n)) => self.serialize_i64(n),
            _ => Err(NotJson(format!("{v} is out of range"))),
        }
    }
    fn serialize_u8(self, v: u8) -> Result<(), NotJson> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), NotJson> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), NotJson> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), NotJson> {
        self.tokens.push(Token::U64(v));
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), NotJson> {
        let n = u64::try_from(v).map_err(|_| NotJson(format!("{v} is out of range")))?;
        self.serialize_u64(n)
    }
    fn serialize_f32(self, v: f32) -> Result<(), NotJson> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), NotJson> {
        self.tokens
            .push(if v.is_finite() { Token::F64(v) } else { Token::Null });
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), NotJson> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), NotJson> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), NotJson> {
        let c = self.open(false);
        c.tape.tokens.extend(v.iter().map(|&b| Token::U64(b.into())));
        c.end()
    }
    fn serialize_none(self) -> Result<(), NotJson> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), NotJson> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), NotJson> {
        self.tokens.push(Token::Null);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), NotJson> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), NotJson> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), NotJson> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), NotJson> {
        let outer = self.tokens.len();
        self.tokens.push(Token::Object { end: 0 });
        self.key(variant);
        value.serialize(&mut *self)?;
        self.close(outer);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, NotJson> {
        Ok(self.open(false))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a>, NotJson> {
        Ok(self.open(false))
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>, NotJson> {
        Ok(self.open(false))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, NotJson> {
        Ok(self.wrapped(variant, false))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, NotJson> {
        Ok(self.open(true))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>, NotJson> {
        Ok(self.open(true))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, NotJson> {
        Ok(self.wrapped(variant, true))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = NotJson;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotJson> {
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), NotJson> {
        Compound::end(self)
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = NotJson;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotJson> {
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), NotJson> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = NotJson;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotJson> {
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), NotJson> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = NotJson;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotJson> {
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), NotJson> {
        Compound::end(self)
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = NotJson;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NotJson> {
        let key = key.serialize(KeyText)?;
        self.tape.key(&key);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotJson> {
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), NotJson> {
        Compound::end(self)
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = NotJson;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), NotJson> {
        self.tape.key(key);
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), NotJson> {
        Compound::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = NotJson;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), NotJson> {
        self.tape.key(key);
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), NotJson> {
        Compound::end(self)
    }
}

/// A map key as JSON has it: text, as serde_json writes a string, a
/// character, a boolean, an integer or a unit variant as a key.
struct KeyText;

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = NotJson;
    type SerializeSeq = ser::Impossible<String, NotJson>;
    type SerializeTuple = ser::Impossible<String, NotJson>;
    type SerializeTupleStruct = ser::Impossible<String, NotJson>;
    type SerializeTupleVariant = ser::Impossible<String, NotJson>;
    type SerializeMap = ser::Impossible<String, NotJson>;
    type SerializeStruct = ser::Impossible<String, NotJson>;
    type SerializeStructVariant = ser::Impossible<String, NotJson>;

    fn serialize_bool(self, v: bool) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_i128(self, v: i128) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_u128(self, v: u128) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, _v: f32) -> Result<String, NotJson> {
        Err(NotJson("a float as a map key".into()))
    }
    fn serialize_f64(self, _v: f64) -> Result<String, NotJson> {
        Err(NotJson("a float as a map key".into()))
    }
    fn serialize_char(self, v: char) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, NotJson> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<String, NotJson> {
        Err(NotJson("bytes as a map key".into()))
    }
    fn serialize_none(self) -> Result<String, NotJson> {
        Err(NotJson("null as a map key".into()))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, NotJson> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<String, NotJson> {
        Err(NotJson("null as a map key".into()))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<String, NotJson> {
        Err(NotJson("null as a map key".into()))
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, NotJson> {
        Ok(variant.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String, NotJson> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String, NotJson> {
        Err(NotJson("an enum as a map key".into()))
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, NotJson> {
        Err(NotJson("a list as a map key".into()))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, NotJson> {
        Err(NotJson("a list as a map key".into()))
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct, NotJson> {
        Err(NotJson("a list as a map key".into()))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, NotJson> {
        Err(NotJson("an enum as a map key".into()))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, NotJson> {
        Err(NotJson("an object as a map key".into()))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct, NotJson> {
        Err(NotJson("an object as a map key".into()))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, NotJson> {
        Err(NotJson("an enum as a map key".into()))
    }
}

/// The value a tape holds at `i`, as serde_json's `Value` (for tests).
#[cfg(test)]
pub(crate) fn value(t: &Tape, i: usize) -> serde_json::Value {
    use serde_json::Value;
    match t.token(i).expect("a token") {
        Token::List { end } => {
            let mut items = Vec::new();
            let mut k = i + 1;
            while k < end as usize {
                items.push(value(t, k));
                k = t.after(k);
            }
            Value::Array(items)
        }
        Token::Object { end } => {
            let mut m = serde_json::Map::new();
            let mut k = i + 1;
            while k < end as usize {
                let Token::Key { at, len } = t.token(k).unwrap() else {
                    panic!("a key")
                };
                m.insert(t.text(at, len).to_string(), value(t, k + 1));
                k = t.after(k + 1);
            }
            Value::Object(m)
        }
        _ => t.scalar(i).expect("a scalar").to_value(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(serde::Serialize)]
    enum E {
        Unit,
        New(u8),
        Tuple(u8, i8),
        Struct { a: f64 },
    }

    #[test]
    fn a_tape_holds_what_serde_json_makes_a_value_of() {
        let mut t = Tape::default();
        let mut map = std::collections::BTreeMap::new();
        map.insert(3u8, "x");
        map.insert(10u8, "y\"z");
        for v in [
            json!({"cards": ["AS", "TD"], "cut": 234, "hole": [[1, 2], [3, 4]], "x": null}),
            json!([-1, 0.5, true, "é", [], {}]),
            serde_json::to_value((E::Unit, E::New(1), E::Tuple(2, -3), E::Struct { a: f64::NAN })).unwrap(),
            serde_json::to_value(&map).unwrap(),
        ] {
            t.of(&v).unwrap();
            assert_eq!(value(&t, 0), v);
        }
        t.of(&(
            E::Unit,
            E::New(1),
            E::Tuple(2, -3),
            E::Struct { a: f64::NAN },
            i128::from(-5),
            'c',
        ))
        .unwrap();
        assert_eq!(
            value(&t, 0),
            json!(["Unit", {"New": 1}, {"Tuple": [2, -3]}, {"Struct": {"a": null}}, -5, "c"])
        );
        t.of(&map).unwrap();
        assert_eq!(value(&t, 0), serde_json::to_value(&map).unwrap());
        assert_eq!(t.member(0, "10"), Some(4));
        assert!(matches!(t.token(4), Some(Token::Short { plain: false, .. })));
        t.of(&"a string longer than a token holds").unwrap();
        assert!(matches!(t.token(0), Some(Token::Str { plain: true, .. })));
        assert_eq!(value(&t, 0), json!("a string longer than a token holds"));
    }
}
