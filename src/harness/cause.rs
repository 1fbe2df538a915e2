//! The one decision of what a divergence is: its cause, its group and the
//! story of the case.
//!
//! A bug in the HMAC input (a key encoded as latin-1, a nonce printed as a
//! float) shows in every op as a dozen downstream symptoms: draws kept or
//! rejected, another j at some position. So the first step where the two
//! sides part is localised by asking the target the lower op it claims on
//! the same inputs (`cursor.raw` for `cursor.int`, `cursor.float` and
//! `cursor.shuffle`; `shoe.stream` for `shoe.deal` and `shoe.tournament`;
//! `cursor.shuffle`, then `cursor.raw`, for `poker.deal`), and the
//! divergence is put in one of these causes:
//!
//! - [`Cause::Input`]: the lower op's bytes differ too (or the op's answer
//!   is the MAC itself): the HMAC's key or message differs. One group per op;
//!   the report shows provably's key (text and UTF-8 hex) and message.
//! - [`Cause::Mapping`]: the bytes agree, the draw or the mapping differs:
//!   the op's own story names the step.
//! - [`Cause::Form`]: the answer's form differs: a field missing or extra,
//!   a number written in another form or of another type, an error kind.
//! - [`Cause::Unlocalised`]: the target claims no lower op (or declined it),
//!   so bytes and mapping cannot be told apart; the story says so and shows
//!   the HMAC message of the step where the two sides part.
//!
//! Every caller decides through [`decide`]: the run's grouping (without
//! asking, `no_probe`), the shrinker, the findings and the expectations'
//! replay, so the same divergence is always the same group.

use serde_json::Value;

use super::cases::Ask;
use super::compare::same_reply;
use super::report::{Cause, Hmac};
use crate::op::{clip, Parting, Request, Step};
use crate::protocol::Reply;

/// Asks the target a lower op's request; `None` when it was not asked (the
/// op is not claimed, the target is gone) or not answered.
pub(crate) type Probe<'a> = dyn FnMut(&Request) -> Option<Reply> + 'a;

/// A probe that asks nothing: the group of a case while the run streams.
pub(crate) fn no_probe(_: &Request) -> Option<Reply> {
    None
}

/// What a divergence is.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// What kind of difference it is: the HMAC input, the mapping, the answer's form, or not localised.
    pub(crate) cause: Cause,
    /// What every divergence of this cause shares: one finding per group.
    pub group: String,
    /// This case's story, with both sides' values.
    pub story: String,
    /// The HMAC of the step where the two sides part, if the op has one.
    pub hmac: Option<Hmac>,
    /// The published non-canonical reading the target's answer equals, as
    /// "name (source)" (`crate::op::reading`).
    pub(crate) reading: Option<String>,
}

/// Decides the cause of a divergence of `ask` (provably answers `want`,
/// the target `got`), asking lower ops through `probe`.
pub fn decide(ask: &Ask, want: &Reply, got: &Reply, probe: &mut Probe<'_>) -> Decision {
    if let Some(group) = refusal(ask, want, got) {
        let story = match (want, got) {
            (Reply::Ok(_), Reply::Error { kind, message }) => format!(
                "the target refused a request provably answers: {}: {}",
                clip(kind.as_str()),
                clip(message.as_str())
            ),
            (Reply::Error { kind, message }, Reply::Ok(_)) => {
                format!("provably refuses this request ({kind}: {message}) but the target answered it")
            }
            (Reply::Error { kind: w, .. }, Reply::Error { kind: g, .. }) => {
                format!(
                    "both refuse it, provably with {w}, the target with {}",
                    clip(g.as_str())
                )
            }
            _ => String::new(),
        };
        return form(group, story);
    }
    let (Ask::Request(request), Reply::Ok(w), Reply::Ok(g)) = (ask, want, got) else {
        // refusal() covers every other pair; an invalid ask is never ok.
        return form("answers an invalid request".into(), String::new());
    };
    // A published reading first: Limbo's 0.99 against 1 is also an
    // integer written as a float, but the reading is what explains it.
    if let Some(r) = follows(request, g) {
        return Decision {
            cause: Cause::Mapping,
            group: r.words(),
            story: format!(
                "the target answers what reading {} ({}) answers, not the canonical reading (docs/schemes.md)",
                r.name, r.source
            ),
            hmac: None,
            reading: Some(format!("{} ({})", r.name, r.source)),
        };
    }
    if let Some((group, story)) = form_difference(w, g) {
        return form(group, story);
    }
    let parting = (request.spec().explain)(request, w, g).unwrap_or_else(|| generic(w, g));
    localise(parting, probe, 0)
}

/// The non-canonical reading of the op whose answer the target's equals.
fn follows(request: &Request, got: &Value) -> Option<&'static crate::op::reading::Reading> {
    crate::registry::readings(request.op())
        .iter()
        .find(|r| (r.ok)(request).is_some_and(|ok| same_reply(&Reply::Ok(ok), &Reply::Ok(got.clone()))))
}

fn form(group: String, story: String) -> Decision {
    Decision {
        cause: Cause::Form,
        group,
        story,
        hmac: None,
        reading: None,
    }
}

/// The group of a divergence that is not a difference between two `ok`
/// answers (an error kind, an answer to an invalid request).
fn refusal(ask: &Ask, want: &Reply, got: &Reply) -> Option<String> {
    Some(match (want, got, ask) {
        (Reply::Ok(_), Reply::Error { kind, .. }, _) => {
            format!("refuses a request provably answers ({})", clip(kind.as_str()))
        }
        (_, Reply::Ok(_), Ask::Invalid(i)) => {
            format!("answers ok to an invalid request ({})", crate::op::flag::join(&i.flags))
        }
        (Reply::Error { kind: w, .. }, Reply::Error { kind: g, .. }, _) => {
            format!("answers {} where provably answers {w}", clip(g.as_str()))
        }
        (Reply::Error { kind, .. }, Reply::Ok(_), _) => format!("answers ok where provably answers {kind}"),
        (Reply::Ok(_), Reply::Ok(_), _) => return None,
    })
}

/// A field missing or extra, or a value of another JSON type or number form.
fn form_difference(w: &Value, g: &Value) -> Option<(String, String)> {
    let (Some(wo), Some(go)) = (w.as_object(), g.as_object()) else {
        return Some((
            "the answer is not an object".into(),
            format!("the target's ok is {}", crate::op::short(g)),
        ));
    };
    if let Some(k) = wo.keys().find(|k| !go.contains_key(*k)) {
        return Some((
            format!("field {k} is missing"),
            format!("the target's answer has no field {k}"),
        ));
    }
    if let Some(k) = go.keys().find(|k| !wo.contains_key(*k)) {
        return Some((
            "an extra field".into(),
            format!(
                "the target's answer has a field provably's does not: {}",
                crate::op::short(&Value::from(k.as_str()))
            ),
        ));
    }
    wo.iter().find_map(|(k, wv)| value_form(k, wv, &go[k]))
}

/// The form a value differs in: its JSON type, or an integer written as a float.
fn value_form(field: &str, w: &Value, g: &Value) -> Option<(String, String)> {
    let name = crate::op::type_name;
    match (w, g) {
        (Value::Number(wn), Value::Number(gn)) => (!wn.is_f64() && gn.is_f64()).then(|| {
            (
                format!("{field}: an integer written as a float"),
                format!("{field}: provably answers the integer {wn}, the target the float {gn}"),
            )
        }),
        (Value::Array(wa), Value::Array(ga)) => wa
            .iter()
            .zip(ga)
            .enumerate()
            .find_map(|(i, (a, b))| value_form(&format!("{field}[{i}]"), a, b)),
        _ if std::mem::discriminant(w) != std::mem::discriminant(g) => Some((
            format!("{field}: {} where provably answers {}", name(g), name(w)),
            format!(
                "{field}: provably {}, the target {}",
                crate::op::short(w),
                crate::op::short(g)
            ),
        )),
        _ => None,
    }
}

/// The first field that differs, and for a list its first differing element.
fn generic(w: &Value, g: &Value) -> Parting {
    let fields: Vec<&String> = w
        .as_object()
        .map(|o| o.keys().filter(|k| w.get(*k) != g.get(*k)).collect())
        .unwrap_or_default();
    for key in &fields {
        if let (Some(Value::Array(a)), Some(Value::Array(b))) = (w.get(key.as_str()), g.get(key.as_str())) {
            if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
                return Parting::new(
                    format!("{key} differs"),
                    format!("{key}[{i}] is the first element that differs"),
                );
            }
        }
    }
    match fields.first() {
        Some(k) => Parting::new(format!("{k} differs"), format!("field {k} differs")),
        None => Parting::new("other fields", "the target's answer has fields provably's does not"),
    }
}

/// How deep lower ops are followed (`poker.deal`, `cursor.shuffle`, `cursor.raw`).
const DEPTH: usize = 3;

/// Turns an op's parting into a decision, asking the lower op of its step.
fn localise(parting: Parting, probe: &mut Probe<'_>, depth: usize) -> Decision {
    let Some(step) = parting.step.clone() else {
        return Decision {
            cause: Cause::Mapping,
            group: parting.group,
            story: parting.story,
            hmac: None,
            reading: None,
        };
    };
    let hmac = Some(Hmac::of(&step));
    if step.is_mac {
        return input(&parting, &step, "the answer is this MAC's bytes");
    }
    let Some(lower) = step.lower.as_ref().filter(|_| depth < DEPTH) else {
        return unlocalised(
            parting,
            "the scheme has no lower op that answers this MAC's bytes",
            hmac,
        );
    };
    let want = Reply::from_result(lower.run_value());
    let Some(got) = probe(lower) else {
        let why = format!("the target claims no {} (or did not answer it)", lower.op());
        return unlocalised(parting, &why, hmac);
    };
    if same_reply(&want, &got) {
        return Decision {
            cause: Cause::Mapping,
            group: parting.group,
            story: format!(
                "{}; the target's {} agrees on these inputs, so the bytes agree and the draw or mapping differs",
                parting.story,
                lower.op()
            ),
            hmac,
            reading: None,
        };
    }
    // The lower op diverges too: its own cause is this one's.
    let below = match (&want, &got) {
        (Reply::Ok(w), Reply::Ok(g)) if form_difference(w, g).is_none() => {
            let p = (lower.spec().explain)(lower, w, g).unwrap_or_else(|| generic(w, g));
            Some(localise(p, probe, depth + 1))
        }
        _ => None,
    };
    match below {
        Some(d) if d.cause == Cause::Input => {
            input(&parting, &step, &format!("the target's {} differs too", lower.op()))
        }
        Some(d) => Decision {
            story: format!(
                "{}; below it the target's {} differs: {}",
                parting.story,
                lower.op(),
                d.story
            ),
            group: parting.group,
            ..d
        },
        None => unlocalised(
            parting,
            &format!("the target's {} answers in another form", lower.op()),
            hmac,
        ),
    }
}

fn input(parting: &Parting, step: &Step, why: &str) -> Decision {
    let hmac = Hmac::of(step);
    Decision {
        cause: Cause::Input,
        group: "the HMAC input differs".into(),
        story: format!(
            "{}; {why}: the HMAC input differs. provably's key {} (UTF-8 {}), message {} (UTF-8 {})",
            parting.story, hmac.key, hmac.key_hex, hmac.message, hmac.message_hex
        ),
        hmac: Some(hmac),
        reading: None,
    }
}

fn unlocalised(parting: Parting, why: &str, hmac: Option<Hmac>) -> Decision {
    let at = hmac.as_ref().map_or(String::new(), |h| {
        format!(
            "; the HMAC of the step where the two sides part: key {}, message {}",
            h.key, h.message
        )
    });
    Decision {
        cause: Cause::Unlocalised,
        group: parting.group,
        story: format!("{}; not localised: {why}{at}", parting.story),
        hmac,
        reading: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(v: &Value) -> Request {
        crate::registry::parse(v).unwrap()
    }

    fn story(req: &Request, want: Value, got: Value) -> Decision {
        decide(
            &Ask::Request(req.clone()),
            &Reply::Ok(want),
            &Reply::Ok(got),
            &mut no_probe,
        )
    }

    #[test]
    fn shoe_divergence_names_the_draw_and_its_stream_bytes() {
        let req = request(
            &json!({ "op": "shoe.deal", "serverSeed": "s", "clientSeed": "c", "nonce": 1, "decks": 6, "penetration": 0.75 }),
        );
        let want = req.run_value().unwrap();
        let mut got = want.clone();
        got["cards"].as_array_mut().unwrap().swap(3, 300);
        let text = story(&req, want, got).story;
        assert!(
            text.starts_with("position 300 is the first one the draws fix differently"),
            "{text}"
        );
        // The first draws of a 312-card shoe take two bytes each: i = 300 is the 12th draw.
        assert!(
            text.contains("index(301) for i = 300 read stream bytes 22..24 (block 0, byte 22)"),
            "{text}"
        );
        assert!(
            text.contains("not localised: the target claims no shoe.stream"),
            "{text}"
        );
    }

    #[test]
    fn int_divergence_tells_a_kept_rejection_apart() {
        // The first cursor whose first attempt at range 129 is rejected.
        let round = crate::schemes::cursor::Round::new("s", "c", 0);
        let at = (0..)
            .find(|&c| u128::from(round.raw(c)[0]) >= crate::schemes::cursor::limit(129))
            .unwrap();
        let req = request(
            &json!({ "op": "cursor.int", "serverSeed": "s", "clientSeed": "c", "nonce": 0, "cursor": at, "range": 129 }),
        );
        let want = req.run_value().unwrap();
        let got = json!({ "value": 0, "cursorNext": at + 1 });
        let d = story(&req, want, got);
        assert!(
            d.story.contains(&format!(
                "the target stopped at cursor {at} where provably went on: it kept a draw provably rejects"
            )),
            "{}",
            d.story
        );
        assert!(d.story.contains(&format!("cursor {at} read")) && d.story.contains("rejected"));
        assert_eq!(d.hmac.unwrap().message, format!("\"c:0:{at}\""));
    }

    #[test]
    fn a_lower_op_that_differs_too_is_an_hmac_input_with_the_key_in_hex() {
        let req = request(
            &json!({ "op": "cursor.int", "serverSeed": "é", "clientSeed": "c", "nonce": 3, "cursor": 0, "range": 6 }),
        );
        let want = req.run_value().unwrap();
        let mut got = want.clone();
        got["value"] = json!((want["value"].as_u64().unwrap() + 1) % 6);
        let mut probe = |lower: &Request| {
            assert_eq!(lower.op(), "cursor.raw");
            Some(Reply::Ok(json!({ "raw": "00".repeat(32) })))
        };
        let d = decide(
            &Ask::Request(req.clone()),
            &Reply::Ok(want.clone()),
            &Reply::Ok(got.clone()),
            &mut probe,
        );
        assert_eq!(d.cause, Cause::Input);
        assert_eq!(d.group, "the HMAC input differs");
        let h = d.hmac.unwrap();
        assert_eq!((h.key_hex.as_str(), h.message.as_str()), ("c3a9", "\"c:3:0\""));
        // The same divergence with bytes that agree is the draw's.
        let mut agree = |lower: &Request| Some(Reply::from_result(lower.run_value()));
        let d = decide(&Ask::Request(req), &Reply::Ok(want), &Reply::Ok(got), &mut agree);
        assert_eq!(d.cause, Cause::Mapping);
        assert!(d.group.starts_with("same attempts, another value"), "{}", d.group);
    }

    #[test]
    fn an_integer_written_as_a_float_and_a_missing_field_are_the_answers_form() {
        let req = request(&json!({ "op": "dice.roll", "serverSeed": "s", "clientSeed": "c", "n": 0 }));
        let want = req.run_value().unwrap();
        let face = want["face"].as_u64().unwrap();
        #[allow(clippy::cast_precision_loss, reason = "a face is below 7")]
        let d = story(&req, want.clone(), json!({ "face": face as f64 }));
        assert_eq!(
            (d.cause, d.group.as_str()),
            (Cause::Form, "face: an integer written as a float")
        );
        let d = story(&req, want, json!({}));
        assert_eq!((d.cause, d.group.as_str()), (Cause::Form, "field face is missing"));
    }

    #[test]
    fn ladder_size_1_answered_order_1_is_explained_not_a_panic() {
        let req = request(&json!({ "op": "ladder.shuffle", "serverSeed": "", "clientSeed": "", "size": 1 }));
        let d = story(&req, json!({ "order": [0] }), json!({ "order": [1] }));
        assert_eq!(d.group, "position 0 differs (no draw fixes it)");
        let d = story(&req, json!({ "order": [0] }), json!({ "order": [0, 1] }));
        assert_eq!(d.group, "the order has another length");
    }
}
