//! Whether an observation, as written, is the derived `ok` object: the
//! fast path of a round whose every observed field is observed whole, in
//! any text (white space, key order, escapes).
//!
//! The derived object is compact JSON (`Outcome::write_json`, serde's
//! canonical form). The observation is read token by token: white space
//! between tokens is dropped, a string with an escape is decoded and
//! written again as serde writes it, and every other token is kept as
//! written; its top-level members may come in any order and each is
//! compared, as text, with the derived member of its name. Equal text
//! means the observation is the same JSON as the derived member, so it is
//! valid (the derived is) and it matches. Anything else (a number written
//! `1.0`, a prefix, a `null` item, a key not derived, a key given twice, a
//! text that is not JSON) is "not the same", and the round takes the full
//! path, which parses it and compares item by item: this module never
//! decides a mismatch, only a match, so it can only be fast or fall back.
//!
//! Why the token sequence is the same when the texts are: the derived text
//! never holds two value tokens side by side (a `,` or a `:` is always
//! between), and a value token directly after another one in the
//! observation is refused, so both texts cut into the same tokens.

use crate::base::masks::{masks, prefix_parity, Class};

/// What [`same_but_space`] looks for: quotes, backslashes, white space.
const SPACED: [Class; 6] = [
    Class::byte(b'"'),
    Class::byte(b'\\'),
    Class::byte(b' '),
    Class::byte(b'\n'),
    Class::byte(b'\t'),
    Class::byte(b'\r'),
];

/// Bytes that a number or a literal (`true`, `false`, `null`) is made of:
/// white space between two of them splits one token in two (`2 34`).
fn in_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')
}

/// Whether `observed` is `derived` (compact JSON) but for white space
/// between tokens: the layout of `json.dumps` and of pretty printers with
/// the derived key order. One pass, 64 bytes at a time: white space outside
/// strings is dropped and what is left compared run by run. A backslash
/// (an escape to decode), white space inside a number or literal, or any
/// other difference: `false`, and the token comparison decides.
pub(crate) fn same_but_space(observed: &[u8], derived: &[u8]) -> bool {
    let (mut at, mut in_string, mut gap, mut last) = (0usize, false, false, 0u8);
    let mut padded = [b' '; 64];
    for start in (0..observed.len()).step_by(64) {
        let piece = &observed[start..observed.len().min(start + 64)];
        // The tail is padded; the padding is never compared.
        let block: &[u8; 64] = if let Ok(full) = piece.try_into() {
            full
        } else {
            padded[..piece.len()].copy_from_slice(piece);
            &padded
        };
        let [quotes, backslashes, space, newline, tab, cr] = masks(block, SPACED);
        if backslashes != 0 {
            return false;
        }
        let inside = prefix_parity(quotes) ^ if in_string { u64::MAX } else { 0 };
        let mut white = (space | newline | tab | cr) & !inside;
        let mut from = 0usize;
        loop {
            let to = if white == 0 {
                64
            } else {
                white.trailing_zeros() as usize
            }
            .min(piece.len());
            let run = &block[from.min(to)..to];
            if let Some(&first) = run.first() {
                if gap && in_token(last) && in_token(first) {
                    return false;
                }
                match derived.get(at..at + run.len()) {
                    Some(want) if want == run => at += run.len(),
                    _ => return false,
                }
                (gap, last) = (false, run[run.len() - 1]);
            }
            if white == 0 {
                break;
            }
            white &= white - 1;
            (gap, from) = (true, to + 1);
        }
        in_string = inside >> 63 != 0;
    }
    at == derived.len()
}

/// The members of a compact object: (key as written, without its quotes;
/// value text). `None` if `text` is not a compact object of plain keys.
fn members(text: &[u8]) -> Option<Vec<(&[u8], &[u8])>> {
    let mut out = Vec::new();
    let body = text.strip_prefix(b"{")?.strip_suffix(b"}")?;
    let mut i = 0;
    while i < body.len() {
        let key_end = i + 1 + memchr::memchr(b'"', body.get(i + 1..)?)?;
        let key = &body[i + 1..key_end];
        if body.get(i) != Some(&b'"') || key.contains(&b'\\') || body.get(key_end + 1) != Some(&b':') {
            return None;
        }
        let start = key_end + 2;
        let end = start + value_end(&body[start..]);
        out.push((key, &body[start..end]));
        i = end + 1;
    }
    Some(out)
}

/// Where a compact value ends: the first `,` outside strings and brackets.
fn value_end(text: &[u8]) -> usize {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in text.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => return i,
            _ => {}
        }
    }
    text.len()
}

/// A reader of the observation's text, token by token.
struct Tokens<'a> {
    text: &'a [u8],
    at: usize,
}

fn structural(b: u8) -> bool {
    matches!(b, b'{' | b'}' | b'[' | b']' | b',' | b':')
}

impl<'a> Tokens<'a> {
    fn skip_space(&mut self) {
        while matches!(self.text.get(self.at), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.at += 1;
        }
    }

    /// The next byte after white space, not consumed.
    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        (self.peek()? == b).then(|| self.at += 1)
    }

    /// The string literal at `at` (its opening quote), as written, and
    /// whether it holds an escape.
    fn literal(&mut self) -> Option<(&'a [u8], bool)> {
        let text: &'a [u8] = self.text;
        let start = self.at;
        let mut i = start + 1;
        let mut escapes = false;
        loop {
            i += memchr::memchr2(b'"', b'\\', text.get(i..)?)?;
            if text[i] == b'"' {
                break;
            }
            escapes = true;
            i += 2;
        }
        self.at = i + 1;
        Some((&text[start..=i], escapes))
    }

    /// Whether the next value is `want` (compact JSON) token by token:
    /// white space dropped, a string with an escape compared in serde's
    /// form. Compared in place, piece by piece, stopping at the first
    /// difference; `None`: not the same (or not JSON).
    fn value_is(&mut self, want: &[u8], scratch: &mut Vec<u8>) -> Option<()> {
        let mut pos = 0;
        let mut take = |bytes: &[u8]| -> Option<()> {
            let end = pos + bytes.len();
            (want.get(pos..end)? == bytes).then(|| pos = end)
        };
        let (mut depth, mut after_value) = (0usize, false);
        loop {
            let b = self.peek()?;
            if structural(b) {
                take(&[b])?;
                self.at += 1;
                match b {
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => depth = depth.checked_sub(1)?,
                    _ => {}
                }
                after_value = matches!(b, b'}' | b']');
            } else {
                // Two value tokens in a row: `1 2` is not `12`.
                if after_value {
                    return None;
                }
                if b == b'"' {
                    let (literal, escapes) = self.literal()?;
                    if escapes {
                        let decoded: String = serde_json::from_slice(literal).ok()?;
                        scratch.clear();
                        serde_json::to_writer(&mut *scratch, &decoded).ok()?;
                        take(scratch)?;
                    } else {
                        take(literal)?;
                    }
                } else {
                    let rest = &self.text[self.at..];
                    let len = rest
                        .iter()
                        .position(|&c| structural(c) || matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'"'))
                        .unwrap_or(rest.len());
                    take(&rest[..len])?;
                    self.at += len;
                }
                after_value = true;
            }
            if depth == 0 {
                return (pos == want.len()).then_some(());
            }
        }
    }

    /// An object key, decoded.
    fn key(&mut self) -> Option<String> {
        if self.peek()? != b'"' {
            return None;
        }
        let (literal, _) = self.literal()?;
        serde_json::from_slice(literal).ok()
    }
}

/// Whether `observed` (the text of a round's `observed` value) is the same
/// JSON as members of `derived` (compact, as `Outcome::write_json` writes
/// it), each whole, at least one of them holding a scalar. `false` means
/// only: not decided here.
pub(crate) fn same_observation(observed: &[u8], derived: &[u8]) -> bool {
    same(observed, derived).unwrap_or(false)
}

fn same(observed: &[u8], derived: &[u8]) -> Option<bool> {
    let fields = members(derived)?;
    let mut seen = vec![false; fields.len()];
    let mut t = Tokens { text: observed, at: 0 };
    let mut scratch = Vec::new();
    let mut leaf = false;
    t.eat(b'{')?;
    if t.eat(b'}').is_none() {
        loop {
            let key = t.key()?;
            t.eat(b':')?;
            let i = fields.iter().position(|(k, _)| *k == key.as_bytes())?;
            if std::mem::replace(&mut seen[i], true) {
                return None;
            }
            t.value_is(fields[i].1, &mut scratch)?;
            leaf = leaf || super::fast::has_leaf(fields[i].1);
            match t.peek()? {
                b',' => t.at += 1,
                b'}' => {
                    t.at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    t.skip_space();
    Some(leaf && t.at == observed.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    const DERIVED: &str = r#"{"cards":["AS","TD","9h"],"cut":234,"hole":[[1,2],[3,4]],"name":"a\"b\u00e9"}"#;

    #[test]
    fn the_same_json_in_any_layout_is_the_same_and_anything_else_is_not_decided() {
        let derived: Value = serde_json::from_str(DERIVED).unwrap();
        let compact = serde_json::to_string(&derived).unwrap();
        for same in [
            compact.clone(),
            serde_json::to_string_pretty(&derived).unwrap(),
            r#" { "cut" : 234 , "cards": [ "AS", "TD", "9h" ] } "#.into(),
            r#"{"cards":["\u0041S","T\u0044","9h"]}"#.into(),
            r#"{"name":"a\"b\u00e9"}"#.into(),
            "{\"hole\":[\n[1,2],\t[3,4]]}".into(),
        ] {
            assert!(same_observation(same.as_bytes(), compact.as_bytes()), "{same}");
        }
        for not in [
            r#"{"cut":234.0}"#,
            r#"{"cards":["AS","TD"]}"#,
            r#"{"cards":["AS",null,"9h"]}"#,
            r#"{"cut":234,"cut":234}"#,
            r#"{"cuts":234}"#,
            r#"{"cut":2 34}"#,
            r#"{"cut":23 4}"#,
            r#"{"cut":234} x"#,
            r#"{"cut":234"#,
            r#"{"hole":[[1,2] [3,4]]}"#,
            r#"{"hole":[[1,2],[3,4]]]}"#,
            r#"{"cards":["AS","TD","9h"],}"#,
            "{}",
            "[]",
            r#"{"name":"a\"b\ud800"}"#,
        ] {
            assert!(!same_observation(not.as_bytes(), compact.as_bytes()), "{not}");
        }
        // Nothing but empty lists observed: nothing compared, so not a match here.
        let empty = json!({"order": [], "cursorNext": 0}).to_string();
        assert!(!same_observation(br#"{"order": []}"#, empty.as_bytes()));
        assert!(same_observation(br#"{"order": [], "cursorNext": 0}"#, empty.as_bytes()));
    }

    #[test]
    fn white_space_between_tokens_is_the_same_and_inside_a_token_or_string_is_not() {
        let compact = serde_json::to_string(&serde_json::from_str::<Value>(DERIVED).unwrap()).unwrap();
        let plain = r#"{"cards":["AS","TD","9h"],"cut":234,"hole":[[1,2],[3,4]]}"#;
        for same in [
            plain.to_string(),
            r#"{"cards": ["AS", "TD", "9h"], "cut": 234, "hole": [[1, 2], [3, 4]]}"#.into(),
            "\n {\"cards\" :\t[\"AS\",\r\n\"TD\" , \"9h\"],\"cut\":234,\"hole\":[[1,2],[3,4]]}\n".into(),
            // Longer than a block, white space across block edges.
            format!("{}{plain}{}", " ".repeat(63), " ".repeat(65)),
        ] {
            assert!(same_but_space(same.as_bytes(), plain.as_bytes()), "{same}");
        }
        for not in [
            r#"{"cards":["AS","TD","9h"],"cut":2 34,"hole":[[1,2],[3,4]]}"#,
            r#"{"cards":["AS","TD","9 h"],"cut":234,"hole":[[1,2],[3,4]]}"#,
            r#"{"cards":["AS","TD","9h"],"cut":234,"hole":[[1,2],[3,4]]} x"#,
            r#"{"cards":["AS","TD","9h"],"cut":234,"hole":[[1,2],[3,4]"#,
            r#"{"cards":["\u0041S","TD","9h"],"cut":234,"hole":[[1,2],[3,4]]}"#,
        ] {
            assert!(!same_but_space(not.as_bytes(), plain.as_bytes()), "{not}");
        }
        // Inside a string, white space is text: the derived holds none here.
        assert!(!same_but_space(br#"{"name":" a\"b"}"#, compact.as_bytes()));
    }

    fn object() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            any::<u32>().prop_map(Value::from),
            "[ -~é\"\\\\\\n]{0,6}".prop_map(Value::from),
            any::<bool>().prop_map(Value::from),
        ];
        let item = leaf.prop_recursive(2, 12, 4, |inner| {
            prop::collection::vec(inner, 0..4).prop_map(Value::from)
        });
        prop::collection::vec(("[a-z]{1,5}", item), 1..5).prop_map(|kv| Value::Object(kv.into_iter().collect()))
    }

    proptest! {
        /// Decided "the same" only for text that serde reads as the derived
        /// members; any layout of the derived object with a scalar in it is.
        #[test]
        fn same_is_decided_only_for_what_serde_reads_as_equal(derived in object(), other in object(), pretty in any::<bool>(), drop in any::<bool>()) {
            let compact = serde_json::to_string(&derived).unwrap();
            let mut shown = derived.clone();
            if drop && shown.as_object().unwrap().len() > 1 {
                let first = shown.as_object().unwrap().keys().next().unwrap().clone();
                shown.as_object_mut().unwrap().shift_remove(&first);
            }
            let text = if pretty { serde_json::to_string_pretty(&shown).unwrap() } else { serde_json::to_string(&shown).unwrap() };
            let leaf = shown.as_object().unwrap().values().any(has_scalar);
            prop_assert_eq!(same_observation(text.as_bytes(), compact.as_bytes()), leaf);
            let other_text = serde_json::to_string_pretty(&other).unwrap();
            if same_observation(other_text.as_bytes(), compact.as_bytes()) {
                for (k, v) in other.as_object().unwrap() {
                    prop_assert_eq!(Some(v), derived.get(k));
                }
            }
        }
    }

    proptest! {
        /// Decided "the same" only for text that serde reads as the derived
        /// object; the derived object in serde's pretty layout is.
        #[test]
        fn same_but_space_holds_only_for_what_serde_reads_as_equal(
            derived in object(),
            noise in prop::collection::vec((0usize..200, prop::sample::select(vec![" ", "\n", "\t", "  ", "1", "\"", ","])), 0..4),
        ) {
            let compact = serde_json::to_string(&derived).unwrap();
            let pretty = serde_json::to_string_pretty(&derived).unwrap();
            prop_assert_eq!(same_but_space(pretty.as_bytes(), compact.as_bytes()), !pretty.contains('\\'));
            let mut text = pretty.clone();
            for (at, s) in noise {
                let mut at = at.min(text.len());
                while !text.is_char_boundary(at) { at -= 1; }
                text.insert_str(at, s);
            }
            if same_but_space(text.as_bytes(), compact.as_bytes()) {
                prop_assert_eq!(serde_json::from_str::<Value>(&text).ok(), Some(derived));
            }
        }
    }

    fn has_scalar(v: &Value) -> bool {
        match v {
            Value::Array(items) => items.iter().any(has_scalar),
            _ => true,
        }
    }
}
