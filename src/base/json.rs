//! Strict JSON reading: a repeated key is an error, at any depth.
//!
//! serde_json keeps the last of two equal keys without a word, so
//! `{"range": 6, "range": 0}` would pass as range 0. The JavaScript and
//! Python targets refuse such a line; so does `provably`.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

use super::masks::{leading, masks, prefix_parity, Class};
pub(crate) use super::tape::Scalar;
use super::tape::{Tape, Token};

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
    /// How many more items the text may hold.
    pub(crate) fn left(&self) -> usize {
        self.left.get()
    }

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

/// Where a [`Reader`] stopped: the text is not JSON there, or holds a form
/// the reader leaves to serde_json (a number past binary64). It carries no
/// reason: the caller reads the text with serde_json, which names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unread;

/// The integer a text begins with, written as JSON writes one at or above
/// 0 (its digits, no leading zero, nothing of a number after them), and
/// the length of its text; `None` for any other text.
#[inline]
fn plain_integer(text: &[u8]) -> Option<(u64, usize)> {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || (digits > 1 && text[0] == b'0') || text.get(digits).is_some_and(|&b| in_token(b)) {
        return None;
    }
    let n = text[..digits]
        .iter()
        .try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')))?;
    Some((n, digits))
}

/// `a == b` for two slices of one length, in at most two overlapping loads
/// of each when they are up to 16 bytes long: a call to compare them costs
/// more than the compare when they are a label's few bytes.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let w4 = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().expect("4 bytes"));
    let w8 = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        _ => a == b,
    }
}

/// Whether `b` can stand in a number or a literal (`true`, `false`, `null`).
fn in_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')
}

/// A borrowing, one-pass reader of JSON text, token by token, for reading
/// a text against what it should hold without building it: each call skips
/// white space ([`is_space`]) first. The text is bytes: what it reads of a
/// string is held to UTF-8 as it is read, so a text need not be checked
/// whole first. What it reads, it reads as serde_json
/// does (strings, escapes, the three kinds of numbers; tested); where it
/// stops ([`Unread`]), serde_json is asked. Keys given twice are the
/// caller's to notice, and [`Reader::skip`] only finds where a value ends.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(text: &'a [u8]) -> Reader<'a> {
        Reader { text, at: 0 }
    }

    /// Where the reader is, in bytes.
    pub(crate) fn offset(&self) -> usize {
        self.at
    }

    fn bytes(&self) -> &'a [u8] {
        self.text
    }

    /// White space, then the next byte, not consumed.
    #[inline]
    pub(crate) fn peek(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        self.at += space_run(bytes.get(self.at..).unwrap_or_default());
        bytes.get(self.at).copied()
    }

    /// White space, then the byte `b`, consumed; `false` (nothing but white
    /// space consumed) for anything else.
    #[inline]
    pub(crate) fn eat(&mut self, b: u8) -> bool {
        let ok = self.peek() == Some(b);
        self.at += usize::from(ok);
        ok
    }

    /// After a member or an item: `Ok(true)` for a comma (another one
    /// follows), `Ok(false)` for the closing `close`.
    #[inline]
    pub(crate) fn more(&mut self, close: u8) -> Result<bool, Unread> {
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                Ok(true)
            }
            Some(b) if b == close => {
                self.at += 1;
                Ok(false)
            }
            _ => Err(Unread),
        }
    }

    /// At an opening `open` (after white space): consumes it; `Ok(true)`
    /// when the container is empty (its `close` consumed too).
    #[inline]
    pub(crate) fn open(&mut self, open: u8, close: u8) -> Result<bool, Unread> {
        if !self.eat(open) {
            return Err(Unread);
        }
        Ok(self.eat(close))
    }

    /// Only white space is left.
    pub(crate) fn end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// A string (after white space), decoded.
    #[inline]
    pub(crate) fn string(&mut self) -> Result<Cow<'a, str>, Unread> {
        if self.peek() != Some(b'"') {
            return Err(Unread);
        }
        let start = self.at + 1;
        let bytes = self.bytes();
        let mut i = start;
        while let Some(&b) = bytes.get(i) {
            match b {
                b'"' => {
                    self.at = i + 1;
                    let text = std::str::from_utf8(&bytes[start..i]).map_err(|_| Unread)?;
                    return Ok(Cow::Borrowed(text));
                }
                b'\\' => return self.escaped(start, i).map(Cow::Owned),
                0..=0x1f => return Err(Unread),
                _ => i += 1,
            }
        }
        Err(Unread)
    }

    /// Reads, in the list the reader is in (at an item's start), the items
    /// written as JSON writes the tape's items from `*next` on, up to the
    /// list's `end`: a string as its text between quotes (one JSON writes
    /// with no escape), an integer as its digits. The same text reads as
    /// the same value of the same kind: a shortcut that only ever says "the
    /// same". Returns how many; the reader is left after the last of them
    /// (at its `,` or `]`) and `*next` at the tape's next item.
    ///
    /// One loop, a label compared in one step: a list of a shoe's 312
    /// labels is most of what an audit reads.
    pub(crate) fn same_items(&mut self, tape: &Tape, next: &mut usize, end: usize) -> usize {
        let s = self.text;
        // Mostly none or one (`, `): the run is measured only past that.
        let skip = |k: usize| match s.get(k) {
            Some(&b) if is_space(b) => k + 1 + space_run(&s[k + 1..]),
            _ => k,
        };
        // An indented list writes one run of white space (a line break and
        // its indent) before each item: the next item is looked for past a
        // run as long as the last one, and that run is checked to be one
        // after the fact, so that finding an item does not wait for its
        // run to be measured. Any other run is measured.
        let mut run = 0;
        let item = |k: usize, run: &mut usize| {
            if *run > 0 && is_space_run(&s[k.min(s.len())..], *run) {
                return k + *run;
            }
            let at = skip(k);
            *run = at - k;
            at
        };
        let mut i = self.at;
        let mut n = 0;
        while *next < end {
            i = item(i, &mut run);
            let len = match tape.token(*next) {
                Some(Token::Short { len, plain: true, word }) => {
                    // The label's bytes in one word, the rest of it masked off.
                    let l = usize::from(len);
                    let mask = u64::MAX.checked_shr(64 - 8 * u32::from(len)).unwrap_or(0);
                    let written = s.get(i) == Some(&b'"')
                        && s.get(i + 1 + l) == Some(&b'"')
                        && match s.get(i + 1..i + 9) {
                            Some(w) => u64::from_le_bytes(w.try_into().expect("8 bytes")) & mask == word,
                            None => same_bytes(&s[i + 1..i + 1 + l], &word.to_le_bytes()[..l]),
                        };
                    if !written {
                        return n;
                    }
                    l + 2
                }
                Some(Token::Str { at, len, plain: true }) => {
                    let label = tape.text(at, len).as_bytes();
                    let close = i + 1 + label.len();
                    let written =
                        s.get(i) == Some(&b'"') && s.get(close) == Some(&b'"') && same_bytes(&s[i + 1..close], label);
                    if !written {
                        return n;
                    }
                    label.len() + 2
                }
                Some(Token::U64(v)) => match plain_integer(&s[i.min(s.len())..]) {
                    Some((read, len)) if read == v => len,
                    _ => return n,
                },
                _ => return n,
            };
            n += 1;
            i += len;
            self.at = i;
            *next += 1;
            // Another item in both lists: on to it; anything else is the caller's.
            let comma = skip(i);
            if *next == end || s.get(comma) != Some(&b',') {
                return n;
            }
            i = comma + 1;
        }
        n
    }

    /// The rest of a string with an escape: `text[start..at]` is read, `at`
    /// is its first backslash.
    fn escaped(&mut self, start: usize, mut at: usize) -> Result<String, Unread> {
        let bytes = self.bytes();
        let mut out = String::with_capacity(at - start + 8);
        out.push_str(std::str::from_utf8(&bytes[start..at]).map_err(|_| Unread)?);
        loop {
            match bytes.get(at).copied().ok_or(Unread)? {
                b'"' => {
                    self.at = at + 1;
                    return Ok(out);
                }
                b'\\' => {
                    let (c, len) = self.escape(at)?;
                    out.push(c);
                    at += len;
                }
                0..=0x1f => return Err(Unread),
                _ => {
                    // The run up to the next quote, backslash or control character.
                    let run = bytes[at..]
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                        .map_or(bytes.len(), |n| at + n);
                    out.push_str(std::str::from_utf8(&bytes[at..run]).map_err(|_| Unread)?);
                    at = run;
                }
            }
        }
    }

    /// The escape whose backslash is at `at`: its character and its length.
    /// A `\u` surrogate stands only in a pair, high then low (serde_json
    /// refuses a lone one in a string).
    fn escape(&self, at: usize) -> Result<(char, usize), Unread> {
        let c = match self.bytes().get(at + 1).copied().ok_or(Unread)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let (c, len) = match self.unit(at)? {
                    high @ 0xD800..=0xDBFF => match self.unit(at + 6)? {
                        low @ 0xDC00..=0xDFFF => (0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00), 12),
                        _ => return Err(Unread),
                    },
                    0xDC00..=0xDFFF => return Err(Unread),
                    c => (c, 6),
                };
                return Ok((char::from_u32(c).ok_or(Unread)?, len));
            }
            _ => return Err(Unread),
        };
        Ok((c, 2))
    }

    /// The code unit of the `\uXXXX` escape at `at`.
    fn unit(&self, at: usize) -> Result<u32, Unread> {
        let escape = self.bytes().get(at..at + 6).ok_or(Unread)?;
        if &escape[..2] != b"\\u" || !escape[2..].iter().all(u8::is_ascii_hexdigit) {
            return Err(Unread);
        }
        let hex = std::str::from_utf8(&escape[2..]).map_err(|_| Unread)?;
        u32::from_str_radix(hex, 16).map_err(|_| Unread)
    }

    /// A scalar (after white space): a string, a number, `true`, `false`
    /// or `null`. A list or an object is no scalar.
    #[inline]
    pub(crate) fn scalar(&mut self) -> Result<Scalar<'a>, Unread> {
        match self.peek().ok_or(Unread)? {
            b'"' => self.string().map(Scalar::Str),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.word(b"true", Scalar::Bool(true)),
            b'f' => self.word(b"false", Scalar::Bool(false)),
            b'n' => self.word(b"null", Scalar::Null),
            _ => Err(Unread),
        }
    }

    fn word(&mut self, word: &[u8], value: Scalar<'a>) -> Result<Scalar<'a>, Unread> {
        if !self.bytes()[self.at..].starts_with(word) {
            return Err(Unread);
        }
        self.at += word.len();
        Ok(value)
    }

    /// A number, in JSON's grammar, of the kind serde_json gives it: an
    /// integer (no fraction, no exponent) below 2^64 is one, a negative one
    /// at or above −2^63 too, but `-0` and every other number is a
    /// binary64, correctly rounded (serde_json's `float_roundtrip`); one
    /// past binary64's range is [`Unread`] (serde_json refuses it).
    fn number(&mut self) -> Result<Scalar<'a>, Unread> {
        let bytes = self.bytes();
        let start = self.at;
        let mut i = start + usize::from(bytes[start] == b'-');
        let digits = |i: usize| bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        let int = digits(i);
        if int == 0 || (int > 1 && bytes[i] == b'0') {
            return Err(Unread);
        }
        i += int;
        let mut float = false;
        if bytes.get(i) == Some(&b'.') {
            let n = digits(i + 1);
            if n == 0 {
                return Err(Unread);
            }
            (i, float) = (i + 1 + n, true);
        }
        if let Some(b'e' | b'E') = bytes.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = bytes.get(i) {
                i += 1;
            }
            let n = digits(i);
            if n == 0 {
                return Err(Unread);
            }
            (i, float) = (i + n, true);
        }
        // The grammar above admits only ASCII.
        let text = std::str::from_utf8(&bytes[start..i]).map_err(|_| Unread)?;
        self.at = i;
        let negative = bytes[start] == b'-';
        if !float {
            let magnitude = &text[usize::from(negative)..];
            if let Ok(n) = magnitude.parse::<u64>() {
                if !negative {
                    return Ok(Scalar::U64(n));
                }
                if n > 0 && n <= 1 << 63 {
                    return Ok(Scalar::I64(0i64.wrapping_sub_unsigned(n)));
                }
            }
        }
        let x: f64 = text.parse().map_err(|_| Unread)?;
        if x.is_finite() {
            Ok(Scalar::F64(x))
        } else {
            Err(Unread)
        }
    }

    /// Skips one value (after white space), held to nothing but where it
    /// ends: for text already held to JSON (a value written by serde, or
    /// one serde_json reads after this), or one given up on anyway.
    pub(crate) fn skip(&mut self) -> Result<(), Unread> {
        match self.peek().ok_or(Unread)? {
            b'{' | b'[' => {
                let n = Walk::default().find_end(&self.bytes()[self.at..]).ok_or(Unread)?;
                self.at += n;
                Ok(())
            }
            b'"' => self.string().map(drop),
            _ => self.scalar().map(drop),
        }
    }

    /// The text from `start` to where the reader is.
    pub(crate) fn since(&self, start: usize) -> &'a [u8] {
        &self.text[start..self.at]
    }
}

/// Where a container's walk stands: how deep, and inside a string or an
/// escape. The walk is the reader's inner loop (a round is mostly short
/// strings: `"8D","8S",…`), so it looks at 64 bytes at a time: a block
/// without a backslash has its quotes, openers and closers found as bit
/// masks, its string bytes as a running parity of the quotes, and its
/// brackets outside strings visited one by one only when there are at least
/// as many closers as the depth. A block with a backslash, an escape
/// carried into the next block, and the tail of a buffer go byte by byte.
/// Both ways agree exactly (tested).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Walk {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

/// What the walk looks for: quotes, backslashes, openers, closers.
const WALKED: [Class; 4] = [
    Class::byte(b'"'),
    Class::byte(b'\\'),
    // `[` and `{` differ only in 0x20, as do `]` and `}`.
    Class::folded(0x20, b'{'),
    Class::folded(0x20, b'}'),
];

impl Walk {
    /// The length of the container's text in `buf` (its closing bracket
    /// included), or `None` if it goes on past `buf`.
    pub(crate) fn find_end(&mut self, buf: &[u8]) -> Option<usize> {
        let mut blocks = buf.chunks_exact(64);
        let mut i = 0;
        for block in blocks.by_ref() {
            let block: &[u8; 64] = block.try_into().expect("64 bytes");
            let [quotes, backslashes, opens, closes] = masks(block, WALKED);
            let found = if backslashes != 0 || self.escaped {
                self.bytes(block)
            } else {
                self.block(quotes, opens, closes)
            };
            if let Some(k) = found {
                return Some(i + k);
            }
            i += 64;
        }
        self.bytes(blocks.remainder()).map(|k| i + k)
    }

    /// A block of 64 bytes without backslashes, no escape pending, given
    /// as its masks (bit k for byte k).
    fn block(&mut self, quotes: u64, opens: u64, closes: u64) -> Option<usize> {
        // Bit k: an odd number of quotes up to byte k, flipped when the block starts in a string.
        let mut inside = prefix_parity(quotes);
        if self.in_string {
            inside = !inside;
        }
        let (opens, closes) = (opens & !inside, closes & !inside);
        // Most blocks of a round hold no bracket (a list's items, an
        // indent), or fewer closers than the depth: no end here, only the
        // depth moves. The first are told by one test, not by counting
        // bits (no POPCNT instruction in the baseline x86-64 the build targets).
        if opens | closes == 0 {
            self.in_string = inside >> 63 != 0;
            return None;
        }
        if (closes.count_ones() as usize) < self.depth {
            self.depth = self.depth + opens.count_ones() as usize - closes.count_ones() as usize;
            self.in_string = inside >> 63 != 0;
            return None;
        }
        let mut brackets = opens | closes;
        while brackets != 0 {
            let k = brackets.trailing_zeros();
            brackets &= brackets - 1;
            if opens & (1 << k) != 0 {
                self.depth += 1;
            } else {
                self.depth -= 1;
                if self.depth == 0 {
                    return Some(k as usize + 1);
                }
            }
        }
        self.in_string = inside >> 63 != 0;
        None
    }

    /// Byte by byte.
    fn bytes(&mut self, buf: &[u8]) -> Option<usize> {
        for (i, &b) in buf.iter().enumerate() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        None
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

/// JSON's white space: space, tab, CR, LF (RFC 8259, section 2). A form
/// feed or any other byte is none.
const SPACE: [u8; 4] = [b' ', b'\t', b'\r', b'\n'];

/// Whether `b` is JSON white space ([`SPACE`]).
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    /// [`SPACE`] as a table of the 256 bytes: one load (a search of the
    /// four, as `contains` is compiled, is a call per byte).
    static TABLE: [bool; 256] = {
        let mut t = [false; 256];
        let mut k = 0;
        while k < SPACE.len() {
            t[SPACE[k] as usize] = true;
            k += 1;
        }
        t
    };
    TABLE[usize::from(b)]
}

/// The length of the JSON white space at the start of `text`: 16 bytes
/// at a time past the first few, since an indented text's runs are a line
/// break and its indent.
#[inline]
pub(crate) fn space_run(text: &[u8]) -> usize {
    // A byte at a time for the first few (`, ` and `: ` hold one).
    let mut i = 0;
    while i < 2 {
        match text.get(i) {
            Some(&b) if is_space(b) => i += 1,
            _ => return i,
        }
    }
    while let Some(block) = text.get(i..i + 16) {
        let n = leading(block.try_into().expect("16 bytes"), SPACE) as usize;
        i += n;
        if n < 16 {
            return i;
        }
    }
    i + text[i..].iter().take_while(|&&b| is_space(b)).count()
}

/// Whether `text` begins with exactly `n` bytes of JSON white space
/// (`space_run(text) == n`), in one step for a run of at most 15 bytes.
#[inline]
pub(crate) fn is_space_run(text: &[u8], n: usize) -> bool {
    match text.get(..16) {
        Some(block) if n < 16 => leading(block.try_into().expect("16 bytes"), SPACE) as usize == n,
        _ => space_run(text) == n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    /// What serde_json reads a whole text as: a scalar's value and kind, or
    /// `None` when it refuses the text.
    fn by_serde(text: &str) -> Option<(Value, [bool; 3])> {
        let v: Value = serde_json::from_str(text).ok()?;
        let kind = [v.is_u64(), v.is_i64(), v.is_f64()];
        Some((v, kind))
    }

    /// What the reader reads a whole text as, in the same terms.
    fn by_reader(text: &str) -> Option<(Value, [bool; 3])> {
        let mut r = Reader::new(text.as_bytes());
        let s = r.scalar().ok()?;
        if !r.end() {
            return None;
        }
        // The value's kind is the scalar's: U64 a PosInt, I64 (only ever
        // negative) a NegInt, F64 a Float.
        let v = s.to_value();
        let kind = [v.is_u64(), v.is_i64(), v.is_f64()];
        Some((v, kind))
    }

    #[test]
    fn numbers_are_read_as_serde_json_reads_them_kind_and_value() {
        for text in [
            "0",
            "-0",
            "7",
            "-7",
            "0.5",
            "-0.0",
            "1e3",
            "1E+3",
            "2.5e-3",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1e400",
            "-1e400",
            "1e-400",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "+1",
            "00",
            "-01",
            "1.0e0",
            "123456789012345678901234567890",
            "0.1000000000000000055511151231257827021181583404541015625",
            "4.9e-324",
            "2.2250738585072011e-308",
        ] {
            assert_eq!(by_reader(text), by_serde(text), "{text:?}");
        }
    }

    #[test]
    fn strings_are_read_as_serde_json_reads_them() {
        for text in [
            r#""AS""#,
            r#""\u0041S""#,
            r#""a\"b\\c\/d\b\f\n\r\t""#,
            r#""\ud83d\ude00""#,
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
            r#""\uD83D\uDE00x""#,
            r#""\x""#,
            "\"a\u{1}b\"",
            r#""é€😀""#,
            r#""abc"#,
            r#""\u00""#,
            r#""\u00g1""#,
        ] {
            let serde = serde_json::from_str::<String>(text).ok();
            let mut r = Reader::new(text.as_bytes());
            let read = r.string().ok().filter(|_| r.end()).map(Cow::into_owned);
            assert_eq!(read, serde, "{text:?}");
        }
    }

    proptest! {
        /// Any text made of a number's characters, and any string of
        /// escapes and characters, reads as serde_json reads it, or is left
        /// to serde_json where serde_json refuses it.
        #[test]
        fn scalars_read_as_serde_json_reads_them(
            number in "-?[0-9]{0,22}(\\.[0-9]{0,20})?([eE][+-]?[0-9]{0,4})?",
            string in prop::collection::vec(prop::sample::select(vec![
                "a", "é", "😀", "\\\"", "\\\\", "\\/", "\\n", "\\u0041", "\\ud83d", "\\ude00", "\\uDBFF\\uDFFF", "\\q", "\u{1f}", " ",
            ]), 0..8),
        ) {
            prop_assert_eq!(by_reader(&number), by_serde(&number), "{:?}", number);
            let text = format!("\"{}\"", string.concat());
            let serde = serde_json::from_str::<String>(&text).ok();
            let mut r = Reader::new(text.as_bytes());
            let read = r.string().ok().filter(|_| r.end()).map(Cow::into_owned);
            prop_assert_eq!(read, serde, "{:?}", text);
        }
    }

    proptest! {
        /// Eight bytes at a time, the run of white space is the one byte by
        /// byte: a form feed, a vertical tab or a NUL ends it.
        #[test]
        fn white_space_runs_are_counted_as_byte_by_byte(
            text in prop::collection::vec(prop_oneof![
                9 => prop::sample::select(b" \t\r\n".to_vec()),
                1 => prop::sample::select(b"\x0c\x0b\x00\xa0a".to_vec()),
            ], 0..40),
        ) {
            prop_assert_eq!(space_run(&text), text.iter().take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')).count());
        }

        #[test]
        fn a_run_of_white_space_is_told_by_its_length_as_space_run_measures_it(
            k in 0usize..24,
            tail in prop::collection::vec(prop::sample::select(b" \t\r\n\x0ca\"".to_vec()), 0..20),
            d in 0usize..3,
        ) {
            // A line break and an indent of k - 1, then anything: asked for one byte fewer, k, one more.
            let mut text = vec![b'\n'; k.min(1)];
            text.resize(k, b' ');
            text.extend(tail);
            let n = (k + d).saturating_sub(1);
            prop_assert_eq!(is_space_run(&text, n), space_run(&text) == n);
        }
    }

    #[test]
    fn short_compares_agree_with_slice_equality_at_every_length_and_position() {
        let a: Vec<u8> = (0..40).collect();
        for n in 0..40 {
            assert!(same_bytes(&a[..n], &a[..n]));
            for at in 0..n {
                let mut b = a[..n].to_vec();
                b[at] ^= 1;
                assert!(!same_bytes(&a[..n], &b), "length {n}, byte {at}");
            }
        }
        assert!(!same_bytes(b"ab", b"abc"));
    }

    #[test]
    fn a_skip_ends_where_the_value_ends() {
        let text = r#" [ "a]\"", {"b": [1, "}"]}, 2.5e3 ] , {"x": [[]]} "#;
        let mut r = Reader::new(text.as_bytes());
        r.skip().unwrap();
        assert!(r.eat(b','));
        r.skip().unwrap();
        assert!(r.end());
        assert!(Reader::new(br#"["a"#).skip().is_err());
    }

    #[test]
    fn items_written_as_json_writes_a_tapes_items_are_the_same_and_no_others() {
        let mut tape = Tape::default();
        tape.of(&serde_json::json!(["AS", "TD", 234, "a\"b", 7])).unwrap();
        let end = 6;
        for (text, same) in [
            (r#"["AS","TD",234,"a\"b",7]"#, 3),
            ("[ \"AS\" ,\n  \"TD\",\t234 , \"x\"]", 3),
            (r#"["AS","TD",0234]"#, 2),
            (r#"["AS","TD",234.0]"#, 2),
            (r#"["AS","TD",2345]"#, 2),
            (r#"["A\u0053"]"#, 0),
            (r#"["AS"]"#, 1),
            (r#"["AS",]"#, 1),
            (r#"["ASX"]"#, 0),
        ] {
            let mut r = Reader::new(text.as_bytes());
            assert!(!r.open(b'[', b']').unwrap());
            let mut next = 1;
            assert_eq!(r.same_items(&tape, &mut next, end), same, "{text}");
            assert_eq!(next, 1 + same, "{text}");
        }
    }

    proptest! {
        /// 64 bytes at a time and byte by byte walk alike, from any state.
        #[test]
        fn the_block_walk_agrees_with_the_byte_walk(
            // Without backslashes too, or nearly every block would go byte by byte.
            text in prop_oneof![
                prop::collection::vec(prop::sample::select(b"\"\\[]{}a,\n".to_vec()), 0..400),
                prop::collection::vec(prop::sample::select(b"\"[]{}aaaaaa,\n".to_vec()), 0..400),
            ],
            depth in 1usize..4,
            in_string in any::<bool>(),
            escaped in any::<bool>(),
        ) {
            let start = Walk { depth, in_string, escaped: escaped && in_string };
            let (mut fast, mut slow) = (start, start);
            let (a, b) = (fast.find_end(&text), slow.bytes(&text));
            prop_assert_eq!(a, b);
            if a.is_none() {
                prop_assert_eq!(fast, slow);
            }
        }
    }
}
