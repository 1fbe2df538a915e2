//! Strict JSON reading: a repeated key is an error, at any depth.
//!
//! serde_json keeps the last of two equal keys without a word, so
//! `{"range": 6, "range": 0}` would pass as range 0. The JavaScript and
//! Python targets refuse such a line; so does `provably`.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// The strict reader: serde_json's `Value` visitor, but a key given twice
/// is an error. With a [`KeyPath`] it also keeps the path of object keys to
/// where it reads, so that the error can name the repeated key by its path
/// (`observed.cut`); without one (a protocol line) it copies no keys.
#[derive(Clone, Copy)]
pub(crate) struct Strict<'a> {
    pub path: Option<&'a KeyPath>,
    /// What the text may still hold (see [`MAX_ITEMS`]).
    items: &'a Items,
}

/// The most list items and object members, all depths together, that one
/// request or round may hold. A `Value` costs 32 bytes and more where its
/// text costs two (`0,`), so a 60 MB round of zeros would take 2 GB as
/// values; the largest answer of any op (a shuffle of `MAX_COUNT`, 100,000
/// entries; tests/ops.rs holds every op's largest answer to half of this)
/// is below it, so a text past it is refused before it is built: a 16 MB
/// request line then takes at most some 50 MB.
pub const MAX_ITEMS: usize = 1 << 18;

impl<'a> Strict<'a> {
    /// A reader of one text: `items` counts what it holds, see [`MAX_ITEMS`].
    pub fn new(path: Option<&'a KeyPath>, items: &'a Items) -> Strict<'a> {
        Strict { path, items }
    }

    pub(crate) fn take<E: de::Error>(self) -> Result<(), E> {
        match self.items.left.get().checked_sub(1) {
            Some(n) => {
                self.items.left.set(n);
                Ok(())
            }
            None => {
                self.items.past.set(true);
                Err(E::custom("too many items"))
            }
        }
    }
}

/// The item budget of one text read by [`Strict`], and whether it ran out.
pub(crate) struct Items {
    left: Cell<usize>,
    past: Cell<bool>,
}

impl Items {
    /// The reason for `e` when it is this budget running out: the JSON is
    /// not wrong, it is more than any request or round is.
    pub(crate) fn past(&self, e: &serde_json::Error) -> Option<String> {
        self.past.get().then(|| {
            format!(
                "holds more than {MAX_ITEMS} list items and object members (past line {} column {}), \
                 more than any request or round of any op: not read further",
                e.line(),
                e.column()
            )
        })
    }
}

impl Default for Items {
    fn default() -> Items {
        Items {
            left: Cell::new(MAX_ITEMS),
            past: Cell::new(false),
        }
    }
}

/// Where a [`Strict`] reader is, and the path of the key it found twice.
#[derive(Default)]
pub(crate) struct KeyPath {
    pub(crate) keys: RefCell<Vec<String>>,
    pub(crate) twice: RefCell<Option<String>>,
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            self.take()?;
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        Ok(Value::Object(self.members(map)?.into_iter().collect()))
    }
}

impl Strict<'_> {
    /// An object's members in text order, a key given twice refused (see
    /// the type). A request or a round has a handful of members, looked up
    /// one by one; past that (no request of any op), a set keeps a long
    /// object linear.
    fn members<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<(String, Value)>, A::Error> {
        const FEW: usize = 32;
        let mut out: Vec<(String, Value)> = Vec::new();
        let mut many: std::collections::HashSet<String> = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let twice = if out.len() < FEW {
                out.iter().any(|(k, _)| *k == key)
            } else {
                if many.is_empty() {
                    many.extend(out.iter().map(|(k, _)| k.clone()));
                }
                !many.insert(key.clone())
            };
            if twice {
                if let Some(path) = self.path {
                    let mut keys = path.keys.borrow().clone();
                    keys.push(key.clone());
                    *path.twice.borrow_mut() = Some(keys.join("."));
                }
                return Err(de::Error::custom(format_args!("key {key:?} appears twice")));
            }
            self.take()?;
            out.push(within(self.path, key, || map.next_value_seed(self))?);
        }
        Ok(out)
    }
}

/// Reads a member's value with `key` on the path (moved there and back, not
/// copied: a round has a handful of keys, each read once).
pub(crate) fn within<T, E>(
    path: Option<&KeyPath>,
    key: String,
    read: impl FnOnce() -> Result<T, E>,
) -> Result<(String, T), E> {
    let Some(path) = path else {
        return read().map(|v| (key, v));
    };
    path.keys.borrow_mut().push(key);
    let value = read();
    let key = path.keys.borrow_mut().pop().expect("pushed above");
    value.map(|v| (key, v))
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// Why [`parse`] refused a text.
#[derive(Debug)]
pub enum Refused {
    /// Not JSON, or a key twice: serde_json's error, with its place.
    NotJson(serde_json::Error),
    /// JSON, but more items than any request or round holds ([`MAX_ITEMS`]).
    TooMany(String),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Refused::NotJson(e) => write!(f, "not JSON: {e}"),
            Refused::TooMany(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for Refused {}

/// Parses one JSON text, refusing repeated keys, trailing characters and
/// more than [`MAX_ITEMS`] items.
pub fn parse(text: &str) -> Result<Value, Refused> {
    let mut de = serde_json::Deserializer::from_str(text);
    let items = Items::default();
    let value = Strict::new(None, &items)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    value.map_err(|e| match items.past(&e) {
        Some(why) => Refused::TooMany(why),
        None => Refused::NotJson(e),
    })
}

/// A JSON text read by [`read_members`]: a top-level object as its
/// members in text order, or any other value (read, and dropped).
pub(crate) enum Members {
    Object(Vec<(String, Value)>),
    Other,
}

/// [`parse`], with a top-level object kept as its list of members rather
/// than a map: what a request reader looks its fields up in, a handful of
/// keys (no hashing), each value moved out once. The same text is refused
/// with the same error as [`parse`] refuses it.
pub(crate) fn read_members(text: &str) -> Result<Members, Refused> {
    let mut de = serde_json::Deserializer::from_str(text);
    let items = Items::default();
    let value = de
        .deserialize_any(TopLevel(Strict::new(None, &items)))
        .and_then(|v| de.end().map(|()| v));
    value.map_err(|e| match items.past(&e) {
        Some(why) => Refused::TooMany(why),
        None => Refused::NotJson(e),
    })
}

/// The [`Strict`] reader of a whole text, its top-level object as members.
struct TopLevel<'a>(Strict<'a>);

impl<'de> Visitor<'de> for TopLevel<'_> {
    type Value = Members;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Members, E> {
        self.0.visit_bool(v).map(|_| Members::Other)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Members, E> {
        self.0.visit_i64(v).map(|_| Members::Other)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Members, E> {
        self.0.visit_u64(v).map(|_| Members::Other)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Members, E> {
        self.0.visit_f64(v).map(|_| Members::Other)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Members, E> {
        self.0.visit_str(v).map(|_| Members::Other)
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Members, E> {
        self.0.visit_string(v).map(|_| Members::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Members, E> {
        self.0.visit_unit().map(|_| Members::Other)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Members, A::Error> {
        self.0.visit_seq(seq).map(|_| Members::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Members, A::Error> {
        self.0.members(map).map(Members::Object)
    }
}

/// Why `text` is not JSON, for a message: serde_json's reason, and for the
/// numbers JSON does not have (`NaN`, `Infinity`, which Python's `json`
/// and JavaScript's `String` print) their name.
pub fn why_not(text: &str, e: &serde_json::Error) -> String {
    let at = text.lines().nth(e.line().saturating_sub(1)).and_then(|line| {
        line.char_indices()
            .nth(e.column().saturating_sub(1))
            .map(|(i, _)| &line[i..])
    });
    let word = at.map(|rest| rest.trim_start_matches('-')).unwrap_or_default();
    match ["NaN", "Infinity", "inf"].iter().find(|w| word.starts_with(**w)) {
        Some(w) => format!("{w} is no JSON number ({e})"),
        None => e.to_string(),
    }
}

/// Reads the `id` of a request line that [`parse`] refused, if the line is
/// still a JSON object with exactly one integer `id`: a line holding a
/// lone surrogate (`"\ud800"`, which no Rust string can hold) or a key
/// given twice is answered `invalid` with its own id, as the JavaScript
/// and Python targets answer it. A repeated `id` gives none.
pub(crate) fn lenient_id(text: &str) -> Option<i64> {
    struct Ids;
    impl<'de> Visitor<'de> for Ids {
        type Value = Option<i64>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<i64>, A::Error> {
            let (mut id, mut ids) = (None, 0);
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if key == "id" {
                    ids += 1;
                    // A number or no id: anything else (a list of a
                    // million items) is refused unread, never built.
                    id = map.next_value::<Number>()?.as_i64();
                } else {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
            Ok(if ids == 1 { id } else { None })
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let id = de.deserialize_map(Ids).ok()?;
    de.end().ok()?;
    id
}

/// The first `\uXXXX` escape in `text` that is a surrogate without its
/// partner: JSON allows it, but it is no Unicode scalar value, so no seed
/// can hold it.
pub(crate) fn lone_surrogate(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        let hex = text.get(at + 2..at + 6)?;
        (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
            .then(|| u16::from_str_radix(hex, 16).ok())
            .flatten()
    };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match unit(i) {
            Some(high @ 0xD800..=0xDBFF) if matches!(unit(i + 6), Some(0xDC00..=0xDFFF)) => {
                let _ = high;
                i += 12;
            }
            Some(0xD800..=0xDFFF) => return text.get(i..i + 6),
            // Any other escape, `\\` included, is two characters or more: skip both.
            _ => i += 2,
        }
    }
    None
}

/// A cursor over JSON text for reading it against a known value: each call
/// skips JSON white space (space, tab, CR, LF) before a token, except
/// [`Tokens::raw`], which continues inside one.
pub(crate) struct Tokens<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a [u8]) -> Tokens<'a> {
        Tokens { text, at: 0 }
    }

    #[inline]
    fn skip_space(&mut self) {
        self.at += space_run(&self.text[self.at..]);
    }

    /// White space, then the byte `b`.
    #[inline]
    pub(crate) fn punct(&mut self, b: u8) -> bool {
        self.skip_space();
        let ok = self.text.get(self.at) == Some(&b);
        self.at += usize::from(ok);
        ok
    }

    /// White space, then exactly `token`.
    pub(crate) fn literal(&mut self, token: &[u8]) -> bool {
        self.skip_space();
        self.raw(token)
    }

    /// Exactly `bytes`, here.
    pub fn raw(&mut self, bytes: &[u8]) -> bool {
        let ok = self.text[self.at..].starts_with(bytes);
        if ok {
            self.at += bytes.len();
        }
        ok
    }

    /// The text not read yet.
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.text[self.at..]
    }

    /// Moves on by `n` bytes, read by the caller from [`Tokens::rest`].
    pub(crate) fn advance(&mut self, n: usize) {
        self.at = (self.at + n).min(self.text.len());
    }

    /// White space, then a JSON integer in its shortest form (no sign, no
    /// leading zero, no fraction or exponent after it) below 2^64.
    pub(crate) fn integer(&mut self) -> Option<u64> {
        self.skip_space();
        let digits = self.text[self.at..].iter().take_while(|b| b.is_ascii_digit()).count();
        if let Some(b'.' | b'e' | b'E') = self.text.get(self.at + digits) {
            return None;
        }
        let v = plain_integer(std::str::from_utf8(&self.text[self.at..self.at + digits]).ok()?)?;
        self.at += digits;
        Some(v)
    }

    /// Only white space is left.
    pub(crate) fn end(&mut self) -> bool {
        self.skip_space();
        self.at == self.text.len()
    }
}

/// The text of a JSON string literal `"…"` that holds no escape and no
/// control character, as serde would read it; `None` for any other text
/// (an escape, a control character, not UTF-8, not a string), which serde
/// then reads or refuses. Keys and seeds are such strings: this saves a
/// parser per key.
pub(crate) fn plain_string(raw: &[u8]) -> Option<String> {
    plain_str(std::str::from_utf8(raw).ok()?).map(str::to_string)
}

/// [`plain_string`] of text already known to be UTF-8, borrowed.
pub(crate) fn plain_str(raw: &str) -> Option<&str> {
    let body = raw.strip_prefix('"')?.strip_suffix('"')?;
    (!body.bytes().any(|b| b == b'\\' || b == b'"' || b < 0x20)).then_some(body)
}

/// The value of a JSON integer in its plain form (digits, no leading zero,
/// no sign, fraction or exponent) below 2^64; `None` for any other text.
pub(crate) fn plain_integer(raw: &str) -> Option<u64> {
    let b = raw.as_bytes();
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    raw.parse().ok()
}

/// JSON's white space: space, tab, CR, LF.
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The length of the JSON white space at the start of `text`.
#[inline]
pub(crate) fn space_run(text: &[u8]) -> usize {
    text.iter().take_while(|&&b| is_space(b)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_refused_at_any_depth() {
        assert!(parse(r#"{"range": 6, "range": 0}"#)
            .unwrap_err()
            .to_string()
            .contains("\"range\" appears twice"));
        assert!(parse(r#"{"a": [{"b": 1, "b": 2}]}"#).is_err());
    }

    #[test]
    fn a_refused_line_still_gives_its_id_unless_the_id_is_repeated_or_not_an_integer() {
        assert_eq!(lenient_id(r#"{"id":4,"op":"x","serverSeed":"\ud800"}"#), Some(4));
        assert_eq!(lenient_id(r#"{"id":5,"range":6,"range":0}"#), Some(5));
        assert_eq!(lenient_id(r#"{"id":5,"id":6}"#), None);
        assert_eq!(lenient_id(r#"{"id":"5"}"#), None);
        assert_eq!(lenient_id(r#"{"id":5} x"#), None);
        assert_eq!(lenient_id("[5]"), None);
    }

    #[test]
    fn lone_surrogates_are_found_and_pairs_and_escaped_backslashes_are_not() {
        assert_eq!(lone_surrogate(r#""\ud800""#), Some(r"\ud800"));
        assert_eq!(lone_surrogate(r#""a\uDC00b""#), Some(r"\uDC00"));
        assert_eq!(lone_surrogate(r#""\ud83d\ude00""#), None);
        assert_eq!(lone_surrogate(r#""\\ud800""#), None);
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        for text in [
            r#"{"a":[1,-2,0.5,1e-7,"x\u00e9",null,true,{}]}"#,
            "9007199254740993",
            "-0",
            "[]",
        ] {
            assert_eq!(
                parse(text).unwrap(),
                serde_json::from_str::<Value>(text).unwrap(),
                "{text}"
            );
        }
        assert!(parse("{} x").is_err());
    }
}
