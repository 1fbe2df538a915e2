//! The fast paths of a round's check: a round whose observation is the
//! derived `ok` object as written (byte for byte, or token by token,
//! [`super::same`]) matches without being parsed whole. They only ever
//! decide a match; anything else takes the full path ([`super::round`]).

use serde_json::Value;

use super::round::{parse_round, read_round, Round};
use crate::base::json::{is_space, space_run};
use crate::op::Outcome;

/// A round read on a fast path: its members parsed and validated, its
/// observation kept as the text it was written in.
pub(crate) struct Fast<'a> {
    pub round: Round,
    pub observed: &'a [u8],
}

/// Reads a round's members with its observation kept as text: first as a
/// round whose last member is `observed` (as `provably proof` writes
/// rounds, and Python's `json.dumps` of a round in that key order), then,
/// for any other text (white space, key order, escapes), with the whole
/// round parsed but for its observation. `None`: the full path reads it
/// (an observation missing, a text that is not JSON, a rule broken).
pub(crate) fn members<'a>(raw: &'a [u8], secret: Option<(&str, &Value)>) -> Option<Fast<'a>> {
    if let Some(fast) = verbatim(raw, secret) {
        return Some(fast);
    }
    let text = std::str::from_utf8(raw).ok()?;
    let (map, Some(observed)) = parse_round(text, true).ok()? else {
        return None;
    };
    let round = read_round(Value::Object(map), secret).ok()?;
    Some(Fast {
        round,
        observed: observed.as_bytes(),
    })
}

/// The members before a last `observed` member, parsed: the text before
/// `, "observed"` is a valid object when closed, so that key stands at the
/// top level (not in a string, not deeper), and what follows its colon is
/// the observation; a key inside a string or another order fails here and
/// takes the next reading. Only the members are checked for UTF-8: an
/// observation found the same as the derived object is UTF-8.
fn verbatim<'a>(raw: &'a [u8], secret: Option<(&str, &Value)>) -> Option<Fast<'a>> {
    const KEY: &[u8] = b"\"observed\"";
    let body = trim_space_end(raw).strip_suffix(b"}")?;
    // The first occurrence: the members before it are short, the observation long.
    let at = memchr::memmem::find(body, KEY)?;
    let before = trim_space_end(&body[..at]).strip_suffix(b",")?;
    let after = &body[at + KEY.len()..];
    let observed = after[space_run(after)..].strip_prefix(b":")?;
    // One buffer per worker for the members' text, closed as an object.
    thread_local! {
        static MEMBERS: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    let round = MEMBERS.with_borrow_mut(|members| {
        members.clear();
        members.push_str(std::str::from_utf8(before).ok()?);
        members.push('}');
        let (map, inner) = parse_round(members, true).ok()?;
        if inner.is_some() {
            return None;
        }
        read_round(Value::Object(map), secret).ok()
    })?;
    Some(Fast { round, observed })
}

/// `text` without the JSON white space at its end. Only JSON's own white
/// space may stand between the members and `"observed"`: ASCII's (a form
/// feed too) would read a round here that the full path refuses as not JSON.
fn trim_space_end(text: &[u8]) -> &[u8] {
    let end = text.iter().rposition(|&b| !is_space(b)).map_or(0, |i| i + 1);
    &text[..end]
}

/// Whether an observation, as written, is the derived `ok` object: written
/// exactly as the derived object (compact, fields in the op's order, as
/// `provably proof` writes it), or the same JSON in another layout
/// ([`super::same`]). Then it is valid and matches, and nothing needs
/// parsing. `false`: the full path compares it.
pub(crate) fn same_text(outcome: &Outcome, observed: &[u8]) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
