//! The first step where two answers part, in the op's own terms: which
//! draw, which cursor, which byte of which block. Each op tells its own
//! story (its `explain` in the op table); this module frames it.

use serde_json::Value;

use crate::op::{Parting, Request};
use crate::protocol::Reply;

/// Returns where `got` first departs from `want` for `request`: the group
/// divergences of this cause share, and this case's story.
pub fn parted(request: &Request, want: &Reply, got: &Reply) -> Parting {
    let (w, g) = match (want, got) {
        (Reply::Ok(w), Reply::Ok(g)) => (w, g),
        (Reply::Ok(_), Reply::Error { kind, message }) => {
            return Parting::new(
                format!("refuses a request provably answers ({kind})"),
                format!("the target refused a request provably answers: {kind}: {message}"),
            )
        }
        (Reply::Error { kind, message }, Reply::Ok(_)) => {
            return Parting::new(
                format!("answers ok where provably answers {kind}"),
                format!("provably refuses this request ({kind}: {message}) but the target answered it"),
            )
        }
        (Reply::Error { kind: wk, .. }, Reply::Error { kind: gk, .. }) => {
            return Parting::new(
                format!("answers {gk} where provably answers {wk}"),
                format!("both refuse it, provably with {wk}, the target with {gk}"),
            )
        }
    };
    (request.spec().explain)(request, w, g).unwrap_or_else(|| generic(w, g))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(v: &Value) -> Request {
        crate::registry::parse(v).unwrap()
    }

    #[test]
    fn shoe_divergence_names_the_draw_and_its_stream_bytes() {
        let req = request(
            &json!({ "op": "shoe.deal", "serverSeed": "s", "clientSeed": "c", "nonce": 1, "decks": 6, "penetration": 0.75 }),
        );
        let want = req.run_value().unwrap();
        let mut got = want.clone();
        got["cards"].as_array_mut().unwrap().swap(3, 300);
        let text = parted(&req, &Reply::Ok(want), &Reply::Ok(got)).story;
        assert!(
            text.starts_with("position 300 is the first one the draws fix differently"),
            "{text}"
        );
        // The first draws of a 312-card shoe take two bytes each: i = 300 is the 12th draw.
        assert!(
            text.contains("index(301) for i = 300 read stream bytes 22..24 (block 0, byte 22)"),
            "{text}"
        );
    }

    #[test]
    fn int_divergence_tells_a_kept_rejection_apart() {
        // The first cursor whose first attempt at range 129 is rejected.
        let round = crate::cursor::Round::new("s", "c", 0);
        let at = (0..)
            .find(|&c| u128::from(round.raw(c)[0]) >= crate::cursor::limit(129))
            .unwrap();
        let req = request(
            &json!({ "op": "cursor.int", "serverSeed": "s", "clientSeed": "c", "nonce": 0, "cursor": at, "range": 129 }),
        );
        let want = req.run_value().unwrap();
        let got = json!({ "value": 0, "cursorNext": at + 1 });
        let text = parted(&req, &Reply::Ok(want), &Reply::Ok(got)).story;
        assert!(
            text.contains(&format!(
                "the target stopped at cursor {at} where provably went on: it kept a draw provably rejects"
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!("cursor {at} read")) && text.contains("rejected"),
            "{text}"
        );
    }
}
