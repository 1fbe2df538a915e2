//! The first step where two answers part, in the op's own terms: which
//! draw, which cursor, which byte of which block.

use serde_json::Value;

use crate::cursor::{self, Round};
use crate::protocol::{Reply, Request};

/// The first index at which two lists differ (or the shorter length).
fn first_list_difference(want: &[Value], got: &[Value]) -> Option<usize> {
    (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i))
}

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Describes an `int` draw from its trace: every attempt, accepted or not.
fn int_story(round: &Round, range: u64, at: u64) -> String {
    let mut steps = Vec::new();
    let limit = cursor::limit(range);
    let _ = round.int_traced(range, at, &mut |a| {
        steps.push(format!(
            "cursor {} read {} ({} {limit}: {})",
            a.cursor,
            a.raw_value,
            if a.accepted { "<" } else { ">=" },
            if a.accepted { "kept" } else { "rejected" }
        ))
    });
    steps.join("; ")
}

/// Where two shoes part: the shuffle fixes positions from the back, so the
/// highest differing position is the first draw that differs; name the
/// bytes of the stream it read.
fn shoe_story(server_seed: &str, client_seed: &str, nonce: u64, decks: u64, w: &Value, g: &Value) -> String {
    let (wc, gc) = (list(w, "cards"), list(g, "cards"));
    let last = (0..wc.len().max(gc.len())).rev().find(|&i| wc.get(i) != gc.get(i));
    let Some(i) = last else {
        return format!(
            "the cards agree; the cut differs: provably {} / target {} (rounding, clamps, or a different byte count before the cut draw)",
            w["cut"], g["cut"]
        );
    };
    let offsets = crate::shoe::draw_offsets(server_seed, client_seed, nonce, decks).unwrap_or_default();
    let at = |pos: usize| wc.get(pos).map_or("nothing".into(), Value::to_string);
    match offsets.iter().find(|(p, _, _)| *p == i) {
        Some((_, start, end)) => format!(
            "position {i} is the first one the draws fix differently (provably {}, target {}): provably's draw j = index({}) for i = {i} read stream bytes {start}..{end} (block {}, byte {}){}",
            at(i),
            gc.get(i).map_or("nothing".into(), Value::to_string),
            i + 1,
            start / 32,
            start % 32,
            if end - start > if i + 1 > 256 { 2 } else { 1 } { ", after a rejection" } else { "" }
        ),
        None => format!("position {i} differs (provably {}, target {})", at(i), gc.get(i).map_or("nothing".into(), Value::to_string)),
    }
}

/// Returns one paragraph saying where `got` first departs from `want`.
pub fn parted(request: &Request, want: &Reply, got: &Reply) -> String {
    let (w, g) = match (want, got) {
        (Reply::Ok(w), Reply::Ok(g)) => (w, g),
        (Reply::Ok(_), Reply::Error { kind, message }) => {
            return format!("the target refused a request provably answers: {kind}: {message}")
        }
        (Reply::Error { kind, message }, Reply::Ok(_)) => {
            return format!("provably refuses this request ({kind}: {message}) but the target answered it")
        }
        (Reply::Error { kind: wk, .. }, Reply::Error { kind: gk, .. }) => {
            return format!("both refuse it, provably with {wk}, the target with {gk}")
        }
    };
    match request {
        Request::CursorInt {
            server_seed,
            client_seed,
            nonce,
            cursor: at,
            range,
        } => {
            let round = Round::new(server_seed, client_seed, *nonce);
            let got_next = g.get("cursorNext").and_then(Value::as_u64);
            let want_next = w.get("cursorNext").and_then(Value::as_u64);
            let k = cursor::bytes_needed(*range);
            let story = int_story(&round, *range, *at);
            match (want_next, got_next) {
                (Some(wn), Some(gn)) if gn < wn => format!(
                    "the target stopped at cursor {} where provably went on: it kept a draw provably rejects. provably, {k} byte(s) per attempt: {story}",
                    gn - 1
                ),
                (Some(wn), Some(gn)) if gn > wn => format!(
                    "the target made more attempts (cursorNext {gn}, provably {wn}): it rejected a draw provably keeps. provably, {k} byte(s) per attempt: {story}"
                ),
                _ => format!("same number of attempts, different value: the byte count, byte order or modulo differs. provably, {k} byte(s) per attempt: {story}"),
            }
        }
        Request::CursorShuffle {
            server_seed,
            client_seed,
            nonce,
            cursor: at,
            count,
        } => {
            let (wo, go) = (list(w, "order"), list(g, "order"));
            // Fisher–Yates from the back: the first draw fixes the last
            // position, so the highest differing index is the first draw
            // that differs.
            let last = (0..wo.len().max(go.len())).rev().find(|&i| wo.get(i) != go.get(i));
            let round = Round::new(server_seed, client_seed, *nonce);
            let mut draw_cursor = Vec::new();
            round.shuffle_traced(*count as usize, *at, &mut |i, a| {
                if a.accepted {
                    draw_cursor.push((i, a.cursor));
                }
            });
            match last {
                Some(i) => {
                    let c = draw_cursor.iter().find(|(pos, _)| *pos == i).map(|(_, c)| *c);
                    format!(
                        "position {i} is the first one the draws fix differently (draw j = int({}) for i = {i}, kept by provably at cursor {}); cursorNext provably {} / target {}",
                        i + 1,
                        c.map_or("-".into(), |c| c.to_string()),
                        w["cursorNext"],
                        g["cursorNext"]
                    )
                }
                None => format!(
                    "the orders agree; cursorNext differs: provably {} / target {}",
                    w["cursorNext"], g["cursorNext"]
                ),
            }
        }
        Request::ShoeDeal {
            server_seed,
            client_seed,
            nonce,
            decks,
            ..
        } => shoe_story(server_seed, client_seed, *nonce, *decks, w, g),
        Request::ShoeTournament {
            server_seed,
            tournament_id,
            hand,
            decks,
            ..
        } => {
            let (client_seed, nonce) = crate::shoe::tournament_round(tournament_id, *hand);
            shoe_story(server_seed, &client_seed, nonce, *decks, w, g)
        }
        Request::DiceRoll {
            server_seed,
            client_seed,
            n,
        } => match crate::dice::roll_traced(server_seed, client_seed, *n) {
            Ok(f) => format!(
                "provably takes byte {} (value {}) of round {}; face = {} % 6 + 1 = {}",
                f.offset, f.byte, f.round, f.byte, f.face
            ),
            Err(e) => e.to_string(),
        },
        Request::LadderShuffle { client_seed, .. } => {
            let (wo, go) = (list(w, "order"), list(g, "order"));
            let last = (0..wo.len().max(go.len())).rev().find(|&i| wo.get(i) != go.get(i));
            match last {
                Some(i) => format!(
                    "position {i} is the first one the draws fix differently: the draw for i = {i} is word {} of block {} (message \"{client_seed}:{}\")",
                    (wo.len().saturating_sub(1) - i) % 8,
                    (wo.len().saturating_sub(1) - i) / 8,
                    (wo.len().saturating_sub(1) - i) / 8
                ),
                None => "the orders have different lengths".into(),
            }
        }
        Request::SelfpokerDeck { .. } => {
            let (wd, gd) = (list(w, "deck"), list(g, "deck"));
            let last = (0..wd.len().max(gd.len())).rev().find(|&i| wd.get(i) != gd.get(i));
            match last {
                Some(i) => format!("deck[{i}] is the first position the draws fix differently (numpy's draw for i = {i}, random_interval({i}))"),
                None => "the decks have different lengths".into(),
            }
        }
        _ => {
            let fields: Vec<&String> = w
                .as_object()
                .map(|o| o.keys().filter(|k| w.get(*k) != g.get(*k)).collect())
                .unwrap_or_default();
            for key in &fields {
                if let (Some(Value::Array(a)), Some(Value::Array(b))) = (w.get(key.as_str()), g.get(key.as_str())) {
                    if let Some(i) = first_list_difference(a, b) {
                        return format!("{key}[{i}] is the first element that differs");
                    }
                }
            }
            match fields.first() {
                Some(k) => format!("field {k} differs"),
                None => "the target's answer has fields provably's does not".into(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::execute;

    #[test]
    fn shoe_divergence_names_the_draw_and_its_stream_bytes() {
        let req = Request::ShoeDeal {
            server_seed: "s".into(),
            client_seed: "c".into(),
            nonce: 1,
            decks: 6,
            penetration: 0.75,
        };
        let want = execute(&req).unwrap();
        let mut got = want.clone();
        got["cards"].as_array_mut().unwrap().swap(3, 300);
        let text = parted(&req, &Reply::Ok(want), &Reply::Ok(got));
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
        let round = Round::new("s", "c", 0);
        let at = (0..)
            .find(|&c| u128::from(round.raw(c)[0]) >= cursor::limit(129))
            .unwrap();
        let req = Request::CursorInt {
            server_seed: "s".into(),
            client_seed: "c".into(),
            nonce: 0,
            cursor: at,
            range: 129,
        };
        let want = execute(&req).unwrap();
        let got = serde_json::json!({ "value": 0, "cursorNext": at + 1 });
        let text = parted(&req, &Reply::Ok(want), &Reply::Ok(got));
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
