//! Negative cases: request lines every implementation must answer `invalid`.
//!
//! [`variants`] takes a valid request and returns every single-fault
//! mutation of it: each field left out, a field too many, each field of
//! every wrong JSON type, each limit one step past, a float where an integer
//! is required, a key given twice, a lone surrogate in a text, a selfpoker
//! seed that is not plain decimal. The mutations are derived from the op
//! table's field kinds ([`crate::op::Kind`]), never written per op, so a new
//! op gets its negative cases with its declaration.
//!
//! A case is kept as the exact request text without `id` (`line`), not as a
//! JSON value: a key given twice or a `\ud800` escape has no JSON value in
//! any reader that refuses them, and `5.0` is not `5` on the wire even though
//! both read as the same number in JavaScript. The canonical vector files
//! hold such lines as `result: "invalid"` tests (Wycheproof's convention); the
//! harness sends them with an id put in front ([`Invalid::line_with_id`]).

use serde_json::Value;

use crate::op::error::MAX_SAFE_INTEGER;
use crate::op::Flag;
use crate::op::{Arg, Kind, OpSpec, Request};

/// A request line every implementation must answer with kind `invalid`.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// What is wrong with the line, in a few words.
    pub comment: String,
    /// The fault's class (`MissingField`, `DuplicateKey`, …), with a note in
    /// `crate::op::Flag`.
    pub flags: Vec<Flag>,
    /// The op the line was made from (the file's test group it belongs to).
    pub op: &'static OpSpec,
    /// The request text without `id`: a JSON object text starting with `{`.
    pub line: String,
}

impl Invalid {
    /// The line as a JSON value, when a strict reader can hold it (not for
    /// a key given twice or a lone surrogate). A target that cannot read a
    /// line as JSON answers it with `"id": null` (docs/protocol.md).
    pub fn input(&self) -> Option<Value> {
        crate::base::json::parse(&self.line).ok()
    }

    /// The request line as sent: `{"id":<id>,` and then the line's members.
    pub fn line_with_id(&self, id: i64) -> String {
        let mut out = Vec::new();
        self.write_line_with_id(id, &mut out);
        String::from_utf8(out).expect("the line is text")
    }

    /// Appends [`Invalid::line_with_id`] to `out`.
    pub(crate) fn write_line_with_id(&self, id: i64, out: &mut Vec<u8>) {
        let rest = self.line.strip_prefix('{').expect("an invalid line is an object text");
        out.extend_from_slice(b"{\"id\":");
        out.extend_from_slice(itoa::Buffer::new().format(id).as_bytes());
        if !rest.trim_start().starts_with('}') {
            out.push(b',');
        }
        out.extend_from_slice(rest.as_bytes());
    }

    /// Checks that `provably` itself answers the line `invalid`.
    ///
    /// # Errors
    /// The answer `provably` gives instead, as its response line.
    pub fn check(&self) -> Result<(), String> {
        let answer = crate::protocol::answer_line(&self.line_with_id(1));
        match &answer.result {
            Err(e) if e.kind() == "invalid" => Ok(()),
            _ => Err(answer.to_line()),
        }
    }
}

/// A request line as (key, value text) members in order, so that a value
/// can be any text (`5.0`, `"\ud800"`) and a key can appear twice.
#[derive(Clone)]
struct Line(Vec<(String, String)>);

impl Line {
    /// The members `op` and then the op's fields, as the request's line
    /// has them (each value serialized alone, not through a `Value` tree).
    fn of(r: &Request) -> Line {
        fn json<T: serde::Serialize + ?Sized>(v: &T) -> String {
            serde_json::to_string(v).expect("requests serialize")
        }
        let op = r.spec();
        let mut members = Vec::with_capacity(op.fields.len() + 1);
        members.push(("op".to_string(), json(op.name)));
        for f in op.fields {
            let arg = r.get(f.name).expect("a request holds every field");
            members.push((f.name.to_string(), json(arg)));
        }
        Line(members)
    }

    fn text(&self) -> String {
        let mut out = String::with_capacity(self.0.iter().map(|(k, v)| k.len() + v.len() + 4).sum::<usize>() + 2);
        out.push('{');
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&serde_json::to_string(k.as_str()).expect("a key serializes"));
            out.push(':');
            out.push_str(v);
        }
        out.push('}');
        out
    }

    fn without(&self, key: &str) -> Line {
        Line(self.0.iter().filter(|(k, _)| k != key).cloned().collect())
    }

    /// The line with `key`'s value replaced by `raw`, in place.
    fn with(&self, key: &str, raw: &str) -> Line {
        Line(
            self.0
                .iter()
                .map(|(k, v)| (k.clone(), if k == key { raw.to_string() } else { v.clone() }))
                .collect(),
        )
    }

    /// The line with one more member at the end.
    fn plus(&self, key: &str, raw: &str) -> Line {
        let mut members = self.0.clone();
        members.push((key.to_string(), raw.to_string()));
        Line(members)
    }
}

/// Collects the variants of one request.
struct Out<'a> {
    op: &'static OpSpec,
    line: &'a Line,
    found: Vec<Invalid>,
    /// Only variant number `take` is written out (all when `None`): a
    /// variant's text holds the whole request, seeds of 10,000 bytes
    /// included, and the harness wants one variant of each request.
    take: Option<usize>,
    seen: usize,
}

impl Out<'_> {
    /// Whether the variant about to be pushed is one to write out.
    fn wanted(&self) -> bool {
        self.take.is_none_or(|k| k == self.seen)
    }

    /// Counts a variant, and writes it out if wanted: the line is built
    /// only then (a walk that only counts must not copy the request dozens
    /// of times).
    fn push(&mut self, flag: Flag, comment: impl FnOnce() -> String, line: impl FnOnce() -> Line) {
        if self.wanted() {
            self.found.push(Invalid {
                comment: comment(),
                flags: vec![flag],
                op: self.op,
                line: line().text(),
            });
        }
        self.seen += 1;
    }

    /// `field` replaced by `raw` (through [`value!`], which counts a
    /// variant not written out without building its texts).
    fn value(&mut self, flag: Flag, field: &str, raw: &str, why: &str) {
        let line = self.line;
        self.push(flag, || format!("{field} {raw}: {why}"), || line.with(field, raw));
    }

    /// Counts a variant that is not written out.
    fn skip(&mut self) {
        self.seen += 1;
    }
}

/// [`Out::value`] with `raw` and `why` evaluated only for the variant that
/// is written out: a walk to one variant passes dozens, and their texts
/// were most of a negative case's cost.
macro_rules! value {
    ($out:ident, $flag:expr, $name:expr, $raw:expr, $why:expr $(,)?) => {
        if $out.wanted() {
            $out.value($flag, $name, $raw, $why)
        } else {
            $out.skip()
        }
    };
}

/// Every single-fault mutation of a valid request, each answered `invalid`
/// by a conforming implementation. The same request always gives the same
/// list, in the same order.
pub fn variants(r: &Request) -> Vec<Invalid> {
    walk(r, &Line::of(r), None).0
}

/// Variant number `pick` modulo their count of [`variants`]`(r)`, without
/// writing out the others.
pub fn variant(r: &Request, pick: u64) -> Invalid {
    let line = Line::of(r);
    let count = count(r, &line);
    let i = usize::try_from(pick % count as u64).expect("below the count");
    walk(r, &line, Some(i)).0.pop().expect("variant i exists")
}

/// How many variants `r` has. Only the cards of a card field change the
/// count (its limits depend on how many there are); for every other op it
/// is the op's own, counted once per thread: a generated negative case
/// would otherwise walk its variants twice.
fn count(r: &Request, line: &Line) -> usize {
    thread_local! {
        static COUNTS: std::cell::RefCell<std::collections::HashMap<&'static str, usize>> = Default::default();
    }
    let op = r.spec();
    if op.fields.iter().any(|f| matches!(f.kind, Kind::Cards { .. })) {
        return walk(r, line, Some(usize::MAX)).1;
    }
    COUNTS.with(|counts| {
        *counts
            .borrow_mut()
            .entry(op.name)
            .or_insert_with(|| walk(r, line, Some(usize::MAX)).1)
    })
}

/// The variants written out (see [`Out::take`]) and how many there are.
fn walk(r: &Request, line: &Line, take: Option<usize>) -> (Vec<Invalid>, usize) {
    let op = r.spec();
    let mut out = Out {
        op,
        line,
        found: Vec::new(),
        take,
        seen: 0,
    };
    structure(&mut out, r);
    for f in op.fields {
        if out.take.is_some_and(|k| k < out.seen) {
            // The one variant asked for is written out: the rest of the
            // walk would only count.
            break;
        }
        let arg = r.get(f.name).expect("a request holds every field");
        wrong_types(&mut out, f.name, f.kind, arg);
        limits(&mut out, f.name, f.kind, arg);
    }
    (out.found, out.seen)
}

/// Faults of the object as a whole: a member missing, one too many, a key twice, the op mistyped.
fn structure(out: &mut Out, r: &Request) {
    let op = r.spec();
    let line = out.line;
    out.push(Flag::MissingField, || "op missing".into(), || line.without("op"));
    for f in op.fields.iter().filter(|f| f.default.is_none()) {
        out.push(
            Flag::MissingField,
            || format!("{} missing", f.name),
            || line.without(f.name),
        );
    }
    out.push(
        Flag::ExtraField,
        || "a field the op does not take".into(),
        || line.plus("extra", "1"),
    );
    if let Some(first) = op.fields.first() {
        let typo = || {
            let mut typo = first.name.to_string();
            typo[..1].make_ascii_uppercase();
            typo
        };
        out.push(
            Flag::ExtraField,
            || format!("{} next to {}: field names are case-sensitive", typo(), first.name),
            || {
                let value = line.0.iter().find(|(k, _)| k == first.name).map(|(_, v)| v.as_str());
                line.plus(&typo(), value.expect("the field is on the line"))
            },
        );
    }
    out.push(
        Flag::ExtraField,
        || "a key named __proto__: an object built with {} and assignment loses it".into(),
        || line.plus("__proto__", "{}"),
    );
    out.push(Flag::WrongType, || "op as a number".into(), || line.with("op", "1"));
    for (key, value) in &line.0 {
        out.push(
            Flag::DuplicateKey,
            || format!("{key} given twice with the same value: a reader that keeps the last one sees a valid request"),
            || line.plus(key, value),
        );
    }
}

/// A list of cards in another type: text, a number, a card as a string,
/// a float or null.
fn wrong_cards(out: &mut Out, name: &str, cards: &[u8]) {
    let text: Vec<String> = cards.iter().map(u8::to_string).collect();
    value!(
        out,
        Flag::WrongType,
        name,
        &format!("\"{}\"", text.join(" ")),
        "a string, not a list",
    );
    value!(
        out,
        Flag::WrongType,
        name,
        &cards[0].to_string(),
        "a number, not a list"
    );
    let element = |raw: String| {
        let mut items = text.clone();
        items[0] = raw;
        format!("[{}]", items.join(","))
    };
    let c = cards[0];
    value!(
        out,
        Flag::NumericString,
        name,
        &element(format!("\"{c}\"")),
        "a card as a string",
    );
    value!(
        out,
        Flag::FloatInteger,
        name,
        &element(format!("{c}.0")),
        "a card as a float"
    );
    value!(
        out,
        Flag::WrongType,
        name,
        &element("null".into()),
        "a card that is null"
    );
}

/// The field given as each JSON type it is not.
fn wrong_types(out: &mut Out, name: &str, kind: Kind, arg: &Arg) {
    let common = [("null", "null"), ("true", "a boolean"), ("{}", "an object")];
    for (raw, what) in common {
        if !(kind == Kind::Bool && raw == "true") {
            value!(
                out,
                Flag::WrongType,
                name,
                raw,
                &format!("{what}, not {}", what_kind(kind))
            );
        }
    }
    match (kind, arg) {
        (Kind::Text, Arg::Text(_)) => {
            value!(out, Flag::WrongType, name, "123", "a number, not a string");
            value!(out, Flag::WrongType, name, "[]", "a list, not a string");
        }
        (Kind::Int { .. }, Arg::Int(v)) => {
            value!(
                out,
                Flag::NumericString,
                name,
                &format!("\"{v}\""),
                "a number in a string"
            );
            value!(out, Flag::WrongType, name, &format!("[{v}]"), "a list, not an integer");
            value!(
                out,
                Flag::FloatInteger,
                name,
                &format!("{v}.0"),
                "a float where an integer is required",
            );
            value!(
                out,
                Flag::FloatInteger,
                name,
                &format!("{v}e0"),
                "an exponent where an integer is required",
            );
        }
        (Kind::Fraction, Arg::Number(_)) => {
            let value = arg.to_value().to_string();
            value!(
                out,
                Flag::NumericString,
                name,
                &format!("\"{value}\""),
                "a number in a string"
            );
            value!(
                out,
                Flag::WrongType,
                name,
                &format!("[{value}]"),
                "a list, not a number"
            );
        }
        (Kind::Cards { .. }, Arg::Cards(cards)) => wrong_cards(out, name, cards),
        (Kind::DecimalSeed, Arg::Seed(s)) => {
            value!(
                out,
                Flag::WrongType,
                name,
                &s.to_string(),
                "a JSON number, not a string: a 63-bit seed does not survive a JavaScript Number",
            );
            value!(out, Flag::WrongType, name, "[]", "a list, not a string");
        }
        (Kind::Word(_) | Kind::Hex64, Arg::Text(_)) => {
            value!(out, Flag::WrongType, name, "123", "a number, not a string");
            value!(out, Flag::WrongType, name, "[]", "a list, not a string");
        }
        (Kind::Bool, Arg::Bool(_)) => {
            value!(out, Flag::WrongType, name, "1", "a number, not a boolean");
            value!(out, Flag::WrongType, name, "\"true\"", "a string, not a boolean");
        }
        (kind, arg) => unreachable!("{name}: {arg:?} in a field of kind {kind:?}"),
    }
}

fn what_kind(kind: Kind) -> &'static str {
    match kind {
        Kind::Text | Kind::DecimalSeed | Kind::Word(_) | Kind::Hex64 => "a string",
        Kind::Int { .. } => "an integer",
        Kind::Fraction => "a number",
        Kind::Cards { .. } => "a list",
        Kind::Bool => "a boolean",
    }
}

/// Texts a decimal seed must not be: what `int()`, `parseInt` or `BigInt` accept and the protocol does not.
const NOT_DECIMAL: &[(&str, &str)] = &[
    ("", "empty"),
    ("01", "a leading zero"),
    ("-1", "a sign"),
    ("+1", "a plus sign"),
    (" 1", "a leading space"),
    ("1 ", "a trailing space"),
    ("1.0", "a decimal point"),
    ("1e3", "an exponent"),
    ("0x1f", "hex"),
    ("1_000", "an underscore (Python's int() takes it)"),
    ("\u{ff11}\u{ff12}", "fullwidth digits (Python's int() takes them)"),
    ("\u{661}\u{662}", "Arabic-Indic digits (Python's int() takes them)"),
];

/// One step past an integer field's limits, and the values past any
/// 64-bit integer.
fn int_limits(out: &mut Out, name: &str, min: u64, max: u64) {
    if min == 0 {
        value!(out, Flag::BelowLimit, name, "-1", "below the minimum 0");
    } else {
        value!(
            out,
            Flag::BelowLimit,
            name,
            &(min - 1).to_string(),
            &format!("below the minimum {min}"),
        );
        // docs/protocol.md: -0 is no protocol integer; where the
        // minimum is 1 a reader that takes it for 0 refuses it too.
        value!(
            out,
            Flag::NegativeZero,
            name,
            "-0",
            &format!("-0 is not an integer (and read as 0 it is below the minimum {min})"),
        );
    }
    value!(
        out,
        Flag::AboveLimit,
        name,
        &(max + 1).to_string(),
        &format!("above the maximum {max}"),
    );
    if max + 1 != MAX_SAFE_INTEGER + 1 {
        value!(
            out,
            Flag::AboveLimit,
            name,
            &(MAX_SAFE_INTEGER + 1).to_string(),
            "2^53, above the maximum",
        );
    }
    value!(
        out,
        Flag::AboveLimit,
        name,
        "18446744073709551616",
        "2^64, past any 64-bit integer",
    );
}

/// The texts a word field (`risk`) or a 64-hex field (a crash hash) must refuse.
fn word_or_hex(out: &mut Out, name: &str, kind: Kind) {
    match kind {
        Kind::Word(words) => {
            value!(out, Flag::NotAWord, name, "\"\"", "empty, not one of the words");
            let upper = words[0].to_uppercase();
            value!(
                out,
                Flag::NotAWord,
                name,
                &Value::from(upper).to_string(),
                "in capitals: the words are matched exactly"
            );
            let padded = format!(" {}", words[0]);
            value!(
                out,
                Flag::NotAWord,
                name,
                &Value::from(padded).to_string(),
                "with a space in front"
            );
        }
        Kind::Hex64 => {
            let hex = "0123456789abcdef".repeat(4);
            value!(
                out,
                Flag::BelowLimit,
                name,
                &Value::from(&hex[..63]).to_string(),
                "63 hex characters, one short"
            );
            value!(
                out,
                Flag::AboveLimit,
                name,
                &Value::from(format!("{hex}0")).to_string(),
                "65 hex characters, one too many"
            );
            value!(
                out,
                Flag::NotHex,
                name,
                &Value::from(hex.to_uppercase()).to_string(),
                "upper-case hex: the text is the key, so its case is part of it"
            );
            value!(
                out,
                Flag::NotHex,
                name,
                &Value::from(format!("{}g", &hex[..63])).to_string(),
                "a letter past f"
            );
        }
        _ => {}
    }
}

/// One step past each limit, and the values a careless reader lets through.
fn limits(out: &mut Out, name: &str, kind: Kind, arg: &Arg) {
    match (kind, arg) {
        (Kind::Text, _) => {
            value!(
                out,
                Flag::LoneSurrogate,
                name,
                "\"\\ud800\"",
                "a lone high surrogate is not a Unicode scalar value",
            );
            value!(
                out,
                Flag::LoneSurrogate,
                name,
                "\"a\\udc00\"",
                "a lone low surrogate is not a Unicode scalar value",
            );
        }
        (Kind::Int { min, max, only, .. }, _) => {
            int_limits(out, name, min, max);
            // The first value between two listed ones.
            let between = only.and_then(|values| (min..=max).find(|v| !values.contains(v)));
            if let (Some(values), Some(v)) = (only, between) {
                value!(
                    out,
                    Flag::NotListed,
                    name,
                    &v.to_string(),
                    &format!("not one of {}", crate::op::join_ints(values)),
                );
            }
        }
        (Kind::Fraction, _) => {
            for (raw, why) in [
                ("0", "not above 0"),
                ("1", "not below 1"),
                ("-0.0", "negative zero is not above 0"),
                ("1.5", "above 1"),
            ] {
                let flag = if raw.starts_with('1') {
                    Flag::AboveLimit
                } else {
                    Flag::BelowLimit
                };
                value!(out, flag, name, raw, why);
            }
        }
        (Kind::Cards { min, max, max_copies }, Arg::Cards(cards)) => {
            card_limits(out, name, (min, max, max_copies), cards)
        }
        (Kind::Word(_) | Kind::Hex64, _) => word_or_hex(out, name, kind),
        (Kind::DecimalSeed, _) => {
            for (text, why) in NOT_DECIMAL {
                value!(out, Flag::NotDecimal, name, &Value::from(*text).to_string(), why);
            }
            value!(
                out,
                Flag::AboveLimit,
                name,
                "\"9223372036854775808\"",
                "2^63, above the largest 63-bit seed",
            );
            value!(
                out,
                Flag::AboveLimit,
                name,
                "\"18446744073709551616\"",
                "2^64, past any 64-bit integer",
            );
        }
        _ => {}
    }
}

fn card_limits(out: &mut Out, name: &str, (min, max, max_copies): (usize, usize, usize), cards: &[u8]) {
    let list = |cs: &[u8]| Value::from(cs.to_vec()).to_string();
    if min > 0 {
        let fewer = &cards[..(min - 1).min(cards.len())];
        value!(
            out,
            Flag::BelowLimit,
            name,
            &list(fewer),
            &format!("{} cards, fewer than {min}", fewer.len()),
        );
    }
    let mut more = cards.to_vec();
    more.extend((0..52).filter(|c| !cards.contains(c)).take(max + 1 - cards.len()));
    value!(
        out,
        Flag::AboveLimit,
        name,
        &list(&more),
        &format!("{} cards, more than {max}", more.len()),
    );
    let mut high = cards.to_vec();
    high[0] = 52;
    value!(
        out,
        Flag::AboveLimit,
        name,
        &list(&high),
        "card 52 does not exist (0..=51)"
    );
    let mut low = cards.iter().map(|&c| i64::from(c)).collect::<Vec<_>>();
    low[0] = -1;
    value!(
        out,
        Flag::BelowLimit,
        name,
        &Value::from(low).to_string(),
        "card -1 does not exist",
    );
    // One copy of a card more than the field allows (two of a card for a
    // deck, seven for a six-deck shoe), where that still fits the count.
    if max_copies < max && !cards.is_empty() {
        let mut again = cards.to_vec();
        again.resize(again.len().max(max_copies + 1), cards[0]);
        again[..=max_copies].fill(cards[0]);
        value!(
            out,
            Flag::DuplicateCard,
            name,
            &list(&again),
            &format!("card {} {} times", cards[0], max_copies + 1),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_goes_in_front_of_the_members() {
        let r = crate::registry::parse(&serde_json::json!({"op": "cursor.hash", "serverSeed": "s"})).unwrap();
        let v = variants(&r);
        let extra = v.iter().find(|i| i.flags == [Flag::ExtraField]).unwrap();
        assert_eq!(
            extra.line_with_id(7),
            r#"{"id":7,"op":"cursor.hash","serverSeed":"s","extra":1}"#
        );
    }
}
