//! The fast paths of a round's check: a round whose observation is the
//! derived `ok` object as written (byte for byte, or token by token,
//! [`super::same`]) matches without being parsed whole. They only ever
//! decide a match; anything else takes the full path ([`super::round`]).

use serde_json::Value;

use super::commit::EpochHead;
use super::round::{bet_of, parse_round, read_round};
use super::{Event, RoundVerdict};
use crate::op::Request;

/// The fast path for a round whose last member is `observed` (as
/// `provably proof` writes rounds, and Python's `json.dumps` of a round in
/// that key order): the members before it are parsed, the observation only
/// compared as text with the derived object (byte for byte, or token by
/// token). The text before `, "observed"` is a valid object when closed, so
/// that key stands at the top level (not in a string, not deeper), and the
/// text after its colon is one value equal to the derived object, so the
/// round is that object plus this observation; any other text (a key inside
/// a string, another order) fails one of the two and takes the next path.
/// `None`: the next path. Only the members are checked for UTF-8: an
/// observation the same as the derived object is UTF-8.
pub(crate) fn verbatim(head: &EpochHead, round: u64, raw: &[u8], secret: Option<(&str, &Value)>) -> Option<Event> {
    const KEY: &[u8] = b"\"observed\"";
    let body = raw.trim_ascii_end().strip_suffix(b"}")?;
    // The first occurrence: the members before it are short, the observation long.
    let at = memchr::memmem::find(body, KEY)?;
    let before = body[..at].trim_ascii_end().strip_suffix(b",")?;
    let observed = body[at + KEY.len()..].trim_ascii_start().strip_prefix(b":")?;
    // One buffer per worker for the members' text, closed as an object.
    thread_local! {
        static MEMBERS: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    let parsed = MEMBERS.with_borrow_mut(|members| {
        members.clear();
        members.push_str(std::str::from_utf8(before).ok()?);
        members.push('}');
        parse_round(members, true)
            .ok()
            .map(|(map, inner)| (map, inner.is_some()))
    });
    let (map, inner) = parsed?;
    if inner {
        return None;
    }
    let r = read_round(Value::Object(map), secret).ok()?;
    (r.external.is_none() && same_text(&r.request, observed)).then(|| Event::Round {
        epoch: head.epoch,
        round,
        verdict: RoundVerdict::Match,
        findings: Vec::new(),
        bet: bet_of(head, &r),
    })
}

/// The fast path for any other text of a round (white space, key order,
/// escapes): its members parsed with `observed` kept as text, which is
/// then compared with the derived object token by token
/// ([`super::same`]). `None` (a prefix, a null item, a number written
/// otherwise, a mismatch, anything invalid): the full path decides.
pub(crate) fn typed(head: &EpochHead, round: u64, raw: &str, secret: Option<(&str, &Value)>) -> Option<Event> {
    let (map, Some(observed)) = parse_round(raw, true).ok()? else {
        return None;
    };
    let r = read_round(Value::Object(map), secret).ok()?;
    (r.external.is_none() && same_text(&r.request, observed.as_bytes())).then(|| Event::Round {
        epoch: head.epoch,
        round,
        verdict: RoundVerdict::Match,
        findings: Vec::new(),
        bet: bet_of(head, &r),
    })
}

/// Whether an observation written exactly as the derived `ok` object
/// (compact, fields in the op's order, as `provably proof` writes it) is
/// that object, or is the same JSON in another layout ([`super::same`]):
/// then it is valid and matches, and nothing needs parsing. Any other text
/// takes the full path.
fn same_text(request: &Request, observed: &[u8]) -> bool {
    let Ok(outcome) = request.run() else {
        return false;
    };
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

/// Whether compact JSON holds a scalar (a string, number, boolean or null)
/// as a value: what makes a full observation more than nothing. Keys are
/// the strings followed by `:`; every other string, and every number,
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
