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
        if let Some(round) = flat_round(members, secret) {
            return Some(round);
        }
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

/// A round's members (its observation taken off) read straight into its
/// request, as `serve` reads a request line ([`Request::from_members`]):
/// no map of members and no hashing of keys, which cost an audit of plain
/// rounds more than comparing their shoes. Only a round of plain members
/// that [`read_round`] would take as it is: `None` for a member of its own
/// (`id`, `observed`, `external`, `seats`), the epoch's secret written in
/// the round, an op that answers a commitment, and anything `from_members`
/// leaves to the parser; [`read_round`] then reads it and names what is wrong.
fn flat_round(text: &str, secret: Option<(&str, &Value)>) -> Option<Round> {
    use super::round::{EXTERNAL, OBSERVED, SEATS};
    use crate::base::json::{flat_members, plain_str, FLAT_MEMBERS};
    let (mut members, mut n) = flat_members(text)?;
    if members[..n]
        .iter()
        .any(|(k, _)| matches!(*k, "id" | OBSERVED | EXTERNAL | SEATS))
    {
        return None;
    }
    let (_, name) = members[..n].iter().find(|(k, _)| *k == "op")?;
    let spec = crate::registry::find(plain_str(name)?)?;
    // The epoch's secret, as `fill_secret` puts it into the round.
    let secret_text;
    if let Some(s) = spec.secret {
        let (field, value) = secret?;
        if s.commit_op == spec.name
            || field != s.field
            || members[..n].iter().any(|(k, _)| *k == s.field)
            || n == FLAT_MEMBERS
        {
            return None;
        }
        secret_text = serde_json::to_string(value).ok()?;
        members[n] = (s.field, &secret_text);
        n += 1;
    }
    let request = crate::op::Request::from_members(&members[..n], crate::registry::find)?.ok()?;
    Some(Round {
        request,
        observed: None,
        external: None,
        seats: None,
    })
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
    use proptest::strategy::{Strategy, ValueTree};

    /// Generated rounds of every op, the epoch's secret taken out, as
    /// `provably proof`, `json.dumps` and a pretty printer write them.
    fn round_texts() -> Vec<(String, Option<(&'static str, Value)>)> {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let mut out = Vec::new();
        for op in crate::registry::ops() {
            for _ in 0..40 {
                let r = (op.generate)().new_tree(&mut runner).unwrap().current();
                let Value::Object(mut m) = r.to_value() else {
                    unreachable!("a request is an object")
                };
                let secret = op.secret.and_then(|s| Some((s.field, m.shift_remove(s.field)?)));
                let v = Value::Object(m);
                let dumps = v.to_string().replace("\":", "\": ").replace(",\"", ", \"");
                out.push((v.to_string(), secret.clone()));
                out.push((dumps, secret.clone()));
                out.push((serde_json::to_string_pretty(&v).unwrap(), secret));
            }
        }
        out
    }

    /// Whether `text` is read straight; if it is, the round is the one
    /// the whole reading gives.
    fn straight_is_whole(text: &str, secret: Option<(&str, &Value)>) -> bool {
        let Some(straight) = flat_round(text, secret) else {
            return false;
        };
        let whole = parse_round(text, true)
            .map_err(|e| e.to_string())
            .and_then(|(map, _)| read_round(Value::Object(map), secret).map_err(|e| e.to_string()));
        match whole {
            Ok(whole) => {
                assert!(straight.request == whole.request, "{text}");
                assert!(whole.observed.is_none() && whole.external.is_none() && whole.seats.is_none());
            }
            Err(e) => panic!("read straight, refused whole ({e}): {text}"),
        }
        true
    }

    #[test]
    fn a_round_read_straight_into_its_request_is_the_round_read_whole() {
        let (mut straight, mut all) = (0, 0);
        for (text, secret) in round_texts() {
            all += 1;
            straight += usize::from(straight_is_whole(&text, secret.as_ref().map(|(f, v)| (*f, v))));
        }
        // Most rounds go straight, or this compares nothing.
        assert!(straight * 4 > all * 3, "{straight} of {all} read straight");
    }

    #[test]
    fn a_round_the_whole_reading_refuses_or_reads_otherwise_is_never_read_straight() {
        for (text, secret) in round_texts() {
            let secret = secret.as_ref().map(|(f, v)| (*f, v));
            let body = text.trim_end().strip_suffix('}').unwrap();
            let field = secret.map_or("serverSeed", |(f, _)| f);
            for extra in [
                r#""id":1"#.to_string(),
                r#""external":"x""#.into(),
                r#""seats":[]"#.into(),
                r#""observed":{}"#.into(),
                format!(r#""{field}":"s""#),
                r#""op":"cursor.raw""#.into(),
                r#""nonce":1"#.into(),
            ] {
                let bad = format!("{body},{extra}}}");
                straight_is_whole(&bad, secret);
            }
            // No secret, or another epoch's.
            straight_is_whole(&text, None);
            straight_is_whole(&text, Some(("clientSeed", &Value::from("c"))));
            let seven = Value::from(7);
            straight_is_whole(&text, secret.map(|(f, _)| (f, &seven)));
        }
    }

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
