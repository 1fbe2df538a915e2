//! The `cursor` ops of protocol v1: hash, raw, float, int and shuffle.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::stats;
use super::{bytes_needed, hash, limit, Round};
use crate::op::error::{MAX_COUNT, MAX_SAFE_INTEGER};
use crate::op::fields::{CLIENT_SEED, COUNT, CURSOR, NONCE, RANGE, SERVER_SEED};
use crate::op::stats::Stats;
use crate::op::strategy;
use crate::op::{
    drawn, last_difference, no_flags, no_story, target_draw, OpSpec, Outcome, Parting, Request, Scheme, Step,
    SERVER_SEED_SECRET,
};
use crate::op::{ok, Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "cursor",
    source: "seed 003 (referenz.py)",
    ops: &[&HASH, &RAW, &FLOAT, &INT, &SHUFFLE],
    generated: &[],
};

/// The round a request names: server seed, client seed, nonce.
fn round(r: &Request) -> Round {
    Round::new(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE))
}

/// Requests of a four-field cursor op from generated values.
fn raw_like(op: &'static OpSpec) -> BoxedStrategy<Request> {
    (strategy::round(), strategy::big_int())
        .prop_map(move |((s, c, n), cur)| Request::of(op, vec![s.into(), c.into(), n.into(), cur.into()]))
        .boxed()
}

pub(crate) static HASH: OpSpec = OpSpec {
    name: "cursor.hash",
    fields: &[SERVER_SEED],
    ok: &[OkField::new("hash", ok::HEX64)],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct HashOk {
            hash: String,
        }
        Ok(Outcome::new(HashOk {
            hash: hash(r.text(SERVER_SEED)),
        }))
    },
    generate: || {
        strategy::text()
            .prop_map(|s| Request::of(&HASH, vec![s.into()]))
            .boxed()
    },
    flags: no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::Published],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::None("a commitment: the SHA-256 of the server seed, no outcome"),
};

pub(crate) static RAW: OpSpec = OpSpec {
    name: "cursor.raw",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, CURSOR],
    ok: &[OkField::new("raw", ok::HEX64)],
    run: |r| Ok(Outcome::hex_field("raw", round(r).raw(r.int(CURSOR)).to_vec())),
    generate: || raw_like(&RAW),
    flags: no_flags,
    explain: explain_raw,
    reach: Reach {
        vectors: &[Flag::Published],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::None("bytes of the generator, not the outcome of a game"),
};

pub(crate) static FLOAT: OpSpec = OpSpec {
    name: "cursor.float",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, CURSOR],
    ok: &[OkField::new("float", Shape::Number { min: 0, below: 1 })],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct FloatOk {
            float: f64,
        }
        Ok(Outcome::new(FloatOk {
            float: round(r).float(r.int(CURSOR)),
        }))
    },
    generate: || raw_like(&FLOAT),
    flags: |r| {
        if round(r).float(r.int(CURSOR)) < 1e-4 {
            vec![Flag::SmallFloat]
        } else {
            vec![]
        }
    },
    explain: explain_float,
    reach: Reach {
        vectors: &[Flag::Published, Flag::SmallFloat],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::FLOAT),
};

pub(crate) static INT: OpSpec = OpSpec {
    name: "cursor.int",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, CURSOR, RANGE],
    ok: &[
        OkField::new("value", Shape::int(0, MAX_SAFE_INTEGER)),
        OkField::new("cursorNext", Shape::Int { min: 1, max: None }),
    ],
    run: |r| {
        let (value, cursor_next) = round(r).int(r.int(RANGE), r.int(CURSOR));
        Ok(Outcome::new(IntOk { value, cursor_next }))
    },
    generate: generate_int,
    flags: int_flags,
    explain: explain_int,
    reach: Reach {
        vectors: &[
            Flag::Published,
            Flag::Rejection,
            Flag::MultiByte,
            Flag::LargeRange,
            Flag::RangeOne,
            Flag::MinValue,
            Flag::ByteWidthEdge,
            Flag::RejectAtLimit1,
            Flag::KeepBelowLimit1,
            Flag::RejectAtLimit2,
            Flag::KeepBelowLimit2,
            Flag::CursorAbove53,
        ],
        generated: &[
            Flag::ByteWidthEdge,
            Flag::RejectAtLimit1,
            Flag::KeepBelowLimit1,
            Flag::Rejection,
            Flag::LargeRange,
        ],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::INT),
};

#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
struct IntOk {
    value: u64,
    cursor_next: u64,
}

pub(crate) static SHUFFLE: OpSpec = OpSpec {
    name: "cursor.shuffle",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, CURSOR, COUNT],
    ok: &[
        OkField::new("order", Shape::list(&Shape::int(0, MAX_COUNT))),
        OkField::new("cursorNext", Shape::Int { min: 0, max: None }),
    ],
    run: |r| {
        let (order, cursor_next) = round(r).shuffle(count(r), r.int(CURSOR));
        Ok(Outcome::order_and_counter(["order", "cursorNext"], order, cursor_next))
    },
    generate: || {
        (
            strategy::round(),
            strategy::big_int(),
            strategy::size(0, crate::op::error::MAX_COUNT),
        )
            .prop_map(|((s, c, n), cur, k)| {
                Request::of(&SHUFFLE, vec![s.into(), c.into(), n.into(), cur.into(), k.into()])
            })
            .boxed()
    },
    flags: shuffle_flags,
    explain: explain_shuffle,
    reach: Reach {
        vectors: &[
            Flag::Published,
            Flag::Rejection,
            Flag::MultiByte,
            Flag::NonzeroCursor,
            Flag::MinValue,
            Flag::MaxValue,
            Flag::RejectAtLimit1,
            Flag::KeepBelowLimit1,
            Flag::KeepBelowLimit2,
            Flag::CursorAbove53,
            Flag::Above16Bits,
            Flag::Heavy,
        ],
        generated: &[Flag::Heavy, Flag::MinValue],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::SHUFFLE),
};

fn count(r: &Request) -> usize {
    usize::try_from(r.int(COUNT)).expect("count is at most 100,000")
}

/// Ranges: small ones (where a rejection happens often), ranges just above
/// a power of two at every byte width, ranges at 256^k − 1, 256^k and
/// 256^k + 1 where the byte count steps, and ranges up to 2^53−1.
fn range() -> BoxedStrategy<u64> {
    prop_oneof![
        6 => 1u64..=300,
        2 => 1u64..=70_000,
        2 => (1u32..=7, 0u64..=300).prop_map(|(k, d)| ((1u64 << (8 * k - 1)) + d).min(MAX_SAFE_INTEGER)),
        1 => 1u64..=MAX_SAFE_INTEGER,
        1 => prop::sample::select(vec![1, 2, 255, 256, 257, 65536, 65537, 1 << 32, (1 << 32) + 1, MAX_SAFE_INTEGER]),
        1 => (1u32..=6, -1i64..=1).prop_map(|(k, d)| (1u64 << (8 * k)).saturating_add_signed(d)),
    ]
    .boxed()
}

/// The ranges at 256^k − 1, 256^k and 256^k + 1 for k = 1 to 6, where the
/// byte count steps from k to k + 1 (between 256^k and 256^k + 1).
pub(crate) fn byte_width_edges() -> Vec<u64> {
    (1..=6u32)
        .flat_map(|k| {
            let p = 1u64 << (8 * k);
            [p - 1, p, p + 1]
        })
        .collect()
}

/// One-byte ranges that do not divide 256, so the rejection limit is a byte value.
fn boundary_range() -> BoxedStrategy<u64> {
    (2u64..=255)
        .prop_filter("256 mod range is not 0", |r| 256 % r != 0)
        .boxed()
}

/// The first cursor from `start` whose first one-byte attempt reads the
/// rejection limit minus `below` (0: the smallest value rejected, the one an
/// off-by-one `>` for `>=` keeps; 1: the largest kept); `start` if none of
/// the next 4,096 does. Random cursors hit it once in 256 attempts at best;
/// searching makes every such case test the boundary.
fn cursor_reading(round: &Round, start: u64, range: u64, below: u128) -> u64 {
    let target = limit(range) - below;
    let start = start.min(MAX_SAFE_INTEGER - 4096);
    round
        .raws_from(start)
        .take(4096)
        .find_map(|(c, raw)| (u128::from(raw[0]) == target).then_some(c))
        .unwrap_or(start)
}

/// A quarter of the cases start exactly on a rejection limit or one below
/// it: without that, an off-by-one `>` for `>=` shows up in about one case
/// in 300.
fn generate_int() -> BoxedStrategy<Request> {
    let int = |s: String, c: String, n: u64, cur: u64, range: u64| {
        Request::of(&INT, vec![s.into(), c.into(), n.into(), cur.into(), range.into()])
    };
    prop_oneof![
        3 => (strategy::round(), strategy::big_int(), range()).prop_map(move |((s, c, n), cur, range)| int(s, c, n, cur, range)),
        1 => (strategy::round(), strategy::big_int(), boundary_range(), 0u128..=1).prop_map(move |((s, c, n), start, range, below)| {
            let cur = cursor_reading(&Round::new(&s, &c, n), start, range, below);
            int(s, c, n, cur, range)
        }),
    ]
    .boxed()
}

/// What one attempt of a draw of `range` says about the rejection limit:
/// read exactly at it, or one below it and kept, for one- and two-byte draws.
fn limit_flags(range: u64, a: &super::Attempt, flags: &mut Vec<Flag>) {
    let k = bytes_needed(range);
    let limit = limit(range);
    let v = u128::from(a.raw_value);
    let pot = 1u128 << (8 * k);
    let hit = match (k, v == limit, v + 1 == limit && limit < pot) {
        (1, true, _) => Some(Flag::RejectAtLimit1),
        (2, true, _) => Some(Flag::RejectAtLimit2),
        (1, _, true) => Some(Flag::KeepBelowLimit1),
        (2, _, true) => Some(Flag::KeepBelowLimit2),
        _ => None,
    };
    if let Some(f) = hit.filter(|f| !flags.contains(f)) {
        flags.push(f);
    }
}

fn int_flags(r: &Request) -> Vec<Flag> {
    let range = r.int(RANGE);
    let mut rejected = false;
    let mut limits = Vec::new();
    let (_, next) = round(r).int_traced(range, r.int(CURSOR), &mut |a| {
        rejected |= !a.accepted;
        limit_flags(range, &a, &mut limits);
    });
    let mut flags = Vec::new();
    if rejected {
        flags.push(Flag::Rejection);
    }
    flags.extend(limits);
    if byte_width_edges().contains(&range) {
        flags.push(Flag::ByteWidthEdge);
    }
    if next > MAX_SAFE_INTEGER {
        flags.push(Flag::CursorAbove53);
    }
    if range == 1 {
        flags.push(Flag::RangeOne);
    }
    if bytes_needed(range) > 1 {
        flags.push(Flag::MultiByte);
    }
    if range > 1 << 32 {
        flags.push(Flag::LargeRange);
    }
    flags
}

fn shuffle_flags(r: &Request) -> Vec<Flag> {
    let mut rejected = false;
    let mut limits = Vec::new();
    let (_, next) = round(r).shuffle_traced(count(r), r.int(CURSOR), &mut |i, a| {
        rejected |= !a.accepted;
        limit_flags(i as u64 + 1, &a, &mut limits);
    });
    let mut flags = Vec::new();
    if rejected {
        flags.push(Flag::Rejection);
    }
    flags.extend(limits);
    if next > MAX_SAFE_INTEGER {
        flags.push(Flag::CursorAbove53);
    }
    if count(r) > 65_536 {
        flags.push(Flag::Above16Bits);
    }
    flags.extend(Flag::heavy(count(r) as u64));
    // The draw for i = 256 is int(257), the first that reads two bytes.
    if count(r) > 256 {
        flags.push(Flag::MultiByte);
    }
    if r.int(CURSOR) != 0 && count(r) >= 2 {
        flags.push(Flag::NonzeroCursor);
    }
    flags
}

/// Describes an `int` draw from its trace: every attempt, accepted or not.
fn int_story(round: &Round, range: u64, at: u64) -> String {
    let mut steps = Vec::new();
    let limit = limit(range);
    let _ = round.int_traced(range, at, &mut |a| {
        steps.push(format!(
            "cursor {} read {} ({} {limit}: {})",
            a.cursor,
            a.raw_value,
            if a.accepted { "<" } else { ">=" },
            if a.accepted { "kept" } else { "rejected" }
        ));
    });
    steps.join("; ")
}

/// The step of cursor `cursor` of the request's round.
fn step_at(r: &Request, cursor: u64) -> Step {
    raw_step(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE), cursor)
}

/// A raw that differs is a MAC that differs: its key or message (or the HMAC).
fn explain_raw(r: &Request, w: &Value, g: &Value) -> Option<Parting> {
    let at = r.int(CURSOR);
    Some(
        Parting::new(
            "raw differs",
            format!(
                "the MAC of cursor {at} differs: provably {}, target {}",
                w["raw"],
                crate::op::short(&g["raw"])
            ),
        )
        .at(step_at(r, at).mac()),
    )
}

/// A float is read from the first four bytes of one MAC.
fn explain_float(r: &Request, w: &Value, g: &Value) -> Option<Parting> {
    let at = r.int(CURSOR);
    let raw = round(r).raw(at);
    Some(
        Parting::new(
            "float differs",
            format!(
                "provably reads bytes {} of the MAC of cursor {at}: {}/256 + {}/256^2 + {}/256^3 + {}/256^4 = {}; the target says {}",
                crate::base::crypto::hex(&raw[..4]),
                raw[0],
                raw[1],
                raw[2],
                raw[3],
                w["float"],
                crate::op::short(&g["float"])
            ),
        )
        .at(step_at(r, at)),
    )
}

fn explain_int(r: &Request, w: &Value, g: &Value) -> Option<Parting> {
    let range = r.int(RANGE);
    let got_next = g.get("cursorNext").and_then(Value::as_u64);
    let want_next = w.get("cursorNext").and_then(Value::as_u64);
    let k = bytes_needed(range);
    let story = int_story(&round(r), range, r.int(CURSOR));
    let width = format!("{k}-byte draws");
    // The step where the sides part: the attempt after the last one both
    // made (the one a side kept and the other rejected), else the first.
    let start = r.int(CURSOR);
    let parting_cursor = match (want_next, got_next) {
        (Some(wn), Some(gn)) if gn != wn => wn.min(gn).saturating_sub(1).max(start),
        _ => start,
    };
    let parting = match (want_next, got_next) {
        (Some(wn), Some(gn)) if gn < wn => Parting::new(
            format!("kept a draw provably rejects ({width})"),
            format!(
                "the target stopped at cursor {} where provably went on: it kept a draw provably rejects. provably, {k} byte(s) per attempt: {story}",
                gn.saturating_sub(1)
            ),
        ),
        (Some(wn), Some(gn)) if gn > wn => Parting::new(
            format!("rejected a draw provably keeps ({width})"),
            format!("the target made more attempts (cursorNext {gn}, provably {wn}): it rejected a draw provably keeps. provably, {k} byte(s) per attempt: {story}"),
        ),
        _ => Parting::new(
            format!("same attempts, another value ({width})"),
            format!("same number of attempts, different value: the byte count, byte order or modulo differs. provably, {k} byte(s) per attempt: {story}"),
        ),
    };
    Some(parting.at(step_at(r, parting_cursor)))
}

fn explain_shuffle(r: &Request, w: &Value, g: &Value) -> Option<Parting> {
    // Fisher–Yates from the back: the first draw fixes the last position,
    // so the highest differing index is the first draw that differs.
    let Some(i) = last_difference(w, g, "order") else {
        return Some(Parting::new(
            "the orders agree, cursorNext differs",
            format!(
                "the orders agree; cursorNext differs: provably {} / target {}",
                w["cursorNext"], g["cursorNext"]
            ),
        ));
    };
    if i >= count(r) {
        return Some(Parting::new(
            "the order has another length",
            format!(
                "provably's order holds {} items; the target's differs at position {i}",
                count(r)
            ),
        ));
    }
    let (mut draws, mut attempts) = (Vec::new(), Vec::new());
    round(r).shuffle_traced(count(r), r.int(CURSOR), &mut |pos, a| {
        if pos == i {
            attempts.push(a.clone());
        }
        if a.accepted {
            let j = usize::try_from(a.raw_value % (pos as u64 + 1)).expect("j <= i");
            draws.push((pos, j));
        }
    });
    let start: Vec<Value> = (0..count(r)).map(Value::from).collect();
    let target_j = g["order"].get(i).and_then(|v| target_draw(start, &draws, i, v));
    let mine = draws.iter().find(|(pos, _)| *pos == i).map(|(_, j)| *j);
    // A target j that equals a rejected attempt's value mod i + 1 kept that attempt.
    let kept_rejected = attempts
        .iter()
        .any(|a| !a.accepted && target_j == usize::try_from(a.raw_value % (i as u64 + 1)).ok());
    let k = bytes_needed(i as u64 + 1);
    // Position 0 has no draw: the first attempt of draw i = 1 reads the MAC.
    let parting_cursor = attempts.first().map_or(r.int(CURSOR), |a| a.cursor);
    let group = if kept_rejected {
        format!("first differing draw keeps a value provably rejects ({k}-byte draws)")
    } else {
        format!("first differing draw: another j ({k}-byte draws)")
    };
    let limit = limit(i as u64 + 1);
    let read: Vec<String> = attempts
        .iter()
        .map(|a| {
            format!(
                "cursor {} read {} ({})",
                a.cursor,
                a.raw_value,
                if a.accepted { "kept" } else { "rejected" }
            )
        })
        .collect();
    Some(Parting::new(
        group,
        format!(
            "position {i} is the first one the draws fix differently: the draw j = int({}) for i = {i} (limit {limit}): provably {}, so j = {}; the target drew j = {}; cursorNext provably {} / target {}",
            i + 1,
            read.join(", "),
            mine.map_or("none (position 0 takes what is left)".into(), |j| j.to_string()),
            drawn(target_j, g["order"].get(i)),
            w["cursorNext"],
            crate::op::short(&g["cursorNext"])
        ),
    )
    .at(step_at(r, parting_cursor)))
}

/// The `cursor.raw` request of cursor `cursor` in the round `server`,
/// `client`, `nonce`, with its HMAC message `client:nonce:cursor`: the lower
/// op the harness asks when a cursor op diverges. A cursor past 2^53−1 (a
/// `cursorNext` may be) has no `cursor.raw` to ask.
pub(crate) fn raw_step(server: &str, client: &str, nonce: u64, cursor: u64) -> Step {
    let lower = Request::parse_with(
        &serde_json::json!({
            "op": RAW.name,
            "serverSeed": server,
            "clientSeed": client,
            "nonce": nonce,
            "cursor": cursor,
        }),
        |name| (name == RAW.name).then_some(&RAW),
    )
    .ok();
    Step::new(server, format!("{client}:{nonce}:{cursor}"), lower)
}
