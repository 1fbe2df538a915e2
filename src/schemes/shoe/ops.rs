//! The `shoe` ops of protocol v1: a free round's shoe, a tournament hand,
//! and the raw byte stream both are drawn from (`shoe.stream`, so that a
//! byte generator with no shoe of its own can be held to the scheme).

use proptest::prelude::*;
use serde_json::Value;

use super::fields::{DECKS, HAND, PENETRATION, TOURNAMENT_ID};
use super::stats;
use super::{deal, deal_traced, draws, stream, tournament_round, MAX_DECKS};
use crate::op::error::MAX_COUNT;
use crate::op::fields::{CLIENT_SEED, COUNT, NONCE, SERVER_SEED};
use crate::op::stats::Stats;
use crate::op::strategy;
use crate::op::{
    drawn, last_difference, target_draw, OpSpec, Outcome, Parting, Request, Scheme, Step, SERVER_SEED_SECRET,
};
use crate::op::{Flag, OkField, Reach, Shape};

/// The step of stream block `block` of the shoe's stream, answered by the
/// `shoe.stream` of its first `count` bytes.
fn stream_step(server: &str, client: &str, nonce: u64, block: u64, count: u64) -> Step {
    let lower = Request::of(
        &STREAM,
        vec![server.into(), client.into(), nonce.into(), count.min(MAX_COUNT).into()],
    );
    Step::new(server, format!("{client}:{nonce}:{block}"), Some(lower))
}

pub(crate) static SCHEME: Scheme = Scheme {
    name: "shoe",
    source: "seed 000 (Rechne uns nach)",
    ops: &[&DEAL, &TOURNAMENT, &STREAM],
    generated: &[],
};

/// What 1,000 generated deals reach: every tie and clamp of the cut card.
const CUT_REACHED: &[Flag] = &[
    Flag::RoundTie,
    Flag::TieByRounding,
    Flag::NearTie,
    Flag::FractionEdge,
    Flag::CutClampLow,
    Flag::CutClampHigh,
];

/// The answer of `shoe.deal` and `shoe.tournament`: the shoe and the cut.
const SHOE_OK: &[OkField] = &[
    OkField::new(
        "cards",
        Shape::sized(
            &Shape::Text {
                pattern: "^[A2-9TJQK][SHDC]$",
                max_length: None,
            },
            52,
            416,
        ),
    ),
    OkField::new("cut", Shape::int(26, 401)),
];

fn decks(r: &Request) -> usize {
    usize::try_from(r.int(DECKS)).expect("1 to 8 decks")
}

/// The client seed and nonce the shoe is drawn from: the request's own, or
/// for a tournament hand `T:k` and k.
fn stream_of(r: &Request) -> (String, u64) {
    if r.op() == TOURNAMENT.name {
        tournament_round(r.text(TOURNAMENT_ID), r.int(HAND))
    } else {
        (r.text(CLIENT_SEED).to_string(), r.int(NONCE))
    }
}

fn run(r: &Request) -> Result<Outcome, crate::op::error::OpError> {
    let (client, nonce) = stream_of(r);
    Ok(Outcome::new(deal(
        r.text(SERVER_SEED),
        &client,
        nonce,
        decks(r),
        r.number(PENETRATION),
    )))
}

pub(crate) static DEAL: OpSpec = OpSpec {
    name: "shoe.deal",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, DECKS, PENETRATION],
    ok: SHOE_OK,
    run,
    generate: || {
        (strategy::round(), decks_and_penetration())
            .prop_map(|((s, c, n), (d, p))| Request::of(&DEAL, vec![s.into(), c.into(), n.into(), d.into(), p.into()]))
            .boxed()
    },
    flags,
    explain,
    reach: Reach {
        vectors: &[
            Flag::CutClampLow,
            Flag::CutClampHigh,
            Flag::RoundTie,
            Flag::TieByRounding,
            Flag::NearTie,
            Flag::FractionEdge,
            Flag::TwoByteDraws,
            Flag::Rejection1,
            Flag::Rejection2,
            Flag::RejectAtLimit1,
            Flag::KeepBelowLimit1,
            Flag::RejectAtLimit2,
            Flag::KeepBelowLimit2,
            Flag::BlockBoundary,
            Flag::MinValue,
            Flag::MaxValue,
        ],
        generated: CUT_REACHED,
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::DEAL),
};

pub(crate) static TOURNAMENT: OpSpec = OpSpec {
    name: "shoe.tournament",
    fields: &[SERVER_SEED, TOURNAMENT_ID, HAND, DECKS, PENETRATION],
    ok: SHOE_OK,
    run,
    generate: || {
        (strategy::round(), decks_and_penetration())
            .prop_map(|((s, t, k), (d, p))| {
                Request::of(&TOURNAMENT, vec![s.into(), t.into(), k.into(), d.into(), p.into()])
            })
            .boxed()
    },
    flags,
    explain,
    reach: Reach {
        vectors: &[
            Flag::CutClampHigh,
            Flag::TwoByteDraws,
            Flag::Rejection1,
            Flag::RejectAtLimit1,
            Flag::KeepBelowLimit1,
            Flag::BlockBoundary,
            Flag::Tournament,
            Flag::MinValue,
            Flag::MaxValue,
        ],
        generated: CUT_REACHED,
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::TOURNAMENT),
};

/// A number of decks and a penetration for it.
fn decks_and_penetration() -> BoxedStrategy<(u64, f64)> {
    (1u64..=MAX_DECKS)
        .prop_flat_map(|d| (Just(d), penetration(52 * u32::try_from(d).expect("at most 8 decks"))))
        .boxed()
}

/// Penetrations for a shoe of `total` cards: k/1024 (many of which make
/// total × penetration end in .5), arbitrary doubles in (0, 1), round
/// numbers, the extremes, and the doubles nearest (2n + 1) / (2 · total) and
/// their neighbours, whose products land on n + 0.5 or one ulp from it.
#[allow(clippy::cast_precision_loss, reason = "k < 2^53 converts exactly")]
fn penetration(total: u32) -> BoxedStrategy<f64> {
    let near_tie = (0..total, -2i64..=2).prop_map(move |(n, ulps)| {
        let p = f64::from(2 * n + 1) / f64::from(2 * total);
        let p = f64::from_bits(p.to_bits().saturating_add_signed(ulps));
        p.clamp(f64::from_bits(1), 1.0 - f64::EPSILON / 2.0)
    });
    prop_oneof![
        3 => (1u32..1024).prop_map(|k| f64::from(k) / 1024.0),
        1 => (1u64..(1 << 53)).prop_map(|k| k as f64 / (1u64 << 53) as f64),
        1 => prop::sample::select(vec![0.5, 0.625, 0.75, 0.8, 0.9, 0.99, 0.01, 0.1, 0.3, f64::from_bits(1), 1.0 - f64::EPSILON / 2.0]),
        2 => near_tie,
    ]
    .boxed()
}

/// How total × penetration meets a rounding tie in binary64: (the product
/// is n + 0.5 although the exact product is not, the product is one ulp
/// from n + 0.5).
pub(crate) fn tie(total: u32, penetration: f64) -> (bool, bool) {
    let t = f64::from(total);
    let product = t * penetration;
    // The error of a product is itself a double: fma gives it exactly.
    let exact = t.mul_add(penetration, -product) == 0.0;
    let half = product.floor() + 0.5;
    let by_rounding = product == half && !exact;
    let bits = half.to_bits();
    let near = product != half && (product.to_bits() == bits + 1 || product.to_bits() + 1 == bits);
    (by_rounding, near)
}

/// Flags a shoe reached, read off its trace.
fn flags(r: &Request) -> Vec<Flag> {
    let (client, nonce) = stream_of(r);
    let pen = r.number(PENETRATION);
    let (_, cut) = deal_traced(r.text(SERVER_SEED), &client, nonce, decks(r), pen);
    let mut flags = Vec::new();
    if r.op() == TOURNAMENT.name {
        flags.push(Flag::Tournament);
    }
    let total = 52 * r.int(DECKS);
    let (by_rounding, near) = tie(u32::try_from(total).expect("at most 416"), pen);
    let checks = [
        (cut.unclamped < cut.low, Flag::CutClampLow),
        (cut.unclamped > cut.high, Flag::CutClampHigh),
        (
            (f64::from(u32::try_from(total).expect("at most 416")) * pen).fract() == 0.5,
            Flag::RoundTie,
        ),
        (total > 256, Flag::TwoByteDraws),
        (cut.rejections[1] > 0, Flag::Rejection1),
        (cut.rejections[2] > 0, Flag::Rejection2),
        (cut.bytes > 32, Flag::BlockBoundary),
        (cut.at_limit[1] > 0, Flag::RejectAtLimit1),
        (cut.below_limit[1] > 0, Flag::KeepBelowLimit1),
        (cut.at_limit[2] > 0, Flag::RejectAtLimit2),
        (cut.below_limit[2] > 0, Flag::KeepBelowLimit2),
        (by_rounding, Flag::TieByRounding),
        (near, Flag::NearTie),
    ];
    flags.extend(checks.iter().filter(|(hit, _)| *hit).map(|(_, f)| *f));
    flags
}

/// Where two shoes part: the shuffle fixes positions from the back, so the
/// highest differing position is the first draw that differs; name the
/// bytes of the stream it read, and the j each side drew.
fn explain(r: &Request, w: &Value, g: &Value) -> Option<Parting> {
    let (client, nonce) = stream_of(r);
    let server = r.text(SERVER_SEED);
    let card = |v: &Value, i: usize| v["cards"].get(i).map_or("nothing".into(), crate::op::short);
    let Some(i) = last_difference(w, g, "cards") else {
        return Some(
            Parting::new(
                "the cards agree, the cut differs",
                format!(
                    "the cards agree; the cut differs: provably {} / target {} (rounding, clamps, or a different byte count before the cut draw)",
                    w["cut"],
                    crate::op::short(&g["cut"])
                ),
            )
            .at(stream_step(server, &client, nonce, 0, 32)),
        );
    };
    let draws = draws(server, &client, nonce, decks(r));
    let Some(d) = draws.iter().find(|d| d.i == i) else {
        return Some(Parting::new(
            "a card differs",
            format!("position {i} differs (provably {}, target {})", card(w, i), card(g, i)),
        ));
    };
    let start: Vec<Value> = super::ordered(decks(r)).into_iter().map(Value::from).collect();
    let pairs: Vec<(usize, usize)> = draws.iter().map(|d| (d.i, d.j)).collect();
    let target_j = g["cards"].get(i).and_then(|c| target_draw(start, &pairs, i, c));
    let width = if i + 1 > 256 { 2 } else { 1 };
    let rejected = d.bytes.end - d.bytes.start > width;
    let group = format!(
        "first differing draw reads {width} byte{}{}",
        if width > 1 { "s" } else { "" },
        if rejected { ", after a rejection" } else { "" }
    );
    let block = d.bytes.start / 32;
    Some(
        Parting::new(
            group,
            format!(
                "position {i} is the first one the draws fix differently (provably {}, target {}): provably's draw j = index({}) for i = {i} read stream bytes {}..{} (block {block}, byte {}){} and drew j = {}; the target drew j = {}",
                card(w, i),
                card(g, i),
                i + 1,
                d.bytes.start,
                d.bytes.end,
                d.bytes.start % 32,
                if rejected { ", after a rejection" } else { "" },
                d.j,
                drawn(target_j, g["cards"].get(i)),
            ),
        )
        .at(stream_step(server, &client, nonce, block, d.bytes.end)),
    )
}

pub(crate) static STREAM: OpSpec = OpSpec {
    name: "shoe.stream",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, COUNT],
    ok: &[OkField::new(
        "bytes",
        Shape::Text {
            pattern: "^([0-9a-f]{2})*$",
            max_length: Some(2 * MAX_COUNT),
        },
    )],
    run: |r| {
        let bytes = stream(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE), r.int(COUNT));
        Ok(Outcome::hex_field("bytes", bytes))
    },
    generate: || {
        // Block edges (32·b − 1, 32·b, 32·b + 1) most, any short length,
        // and now and then the longest stream a request may ask.
        let count = prop_oneof![
            4 => 0u64..=96,
            3 => (1u64..=40, 0u64..=2).prop_map(|(b, d)| 32 * b + d - 1),
            2 => 0u64..=4096,
            1 => Just(MAX_COUNT),
        ];
        (strategy::round(), count)
            .prop_map(|((s, c, n), k)| Request::of(&STREAM, vec![s.into(), c.into(), n.into(), k.into()]))
            .boxed()
    },
    flags: |r| {
        let mut flags = Vec::new();
        if r.int(COUNT) > 32 {
            flags.push(Flag::BlockBoundary);
        }
        flags.extend(Flag::heavy(r.int(COUNT)));
        flags
    },
    explain: explain_stream,
    reach: Reach {
        vectors: &[Flag::BlockBoundary, Flag::MinValue, Flag::MaxValue],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::None("bytes of the stream, not the outcome of a game"),
};

/// Where two streams part: the first differing byte, its block and the
/// message that block is the MAC of. A block 0 that differs is the key or
/// the message text (an encoder, a hex-decoded seed); a later block alone
/// is the counter or the byte order across blocks.
fn explain_stream(r: &Request, w: &Value, g: &Value) -> Option<Parting> {
    let text = |v: &Value| v["bytes"].as_str().unwrap_or_default().to_string();
    let (w, g) = (text(w), text(g));
    let at = w
        .as_bytes()
        .iter()
        .zip(g.as_bytes())
        .position(|(a, b)| a != b)
        .map(|k| k / 2);
    let Some(i) = at else {
        return Some(Parting::new(
            "answers a different number of bytes",
            format!(
                "the first {} bytes agree; provably answers {}, the target {}",
                w.len().min(g.len()) / 2,
                w.len() / 2,
                g.len() / 2
            ),
        ));
    };
    let block = i / 32;
    let step = Step::new(
        r.text(SERVER_SEED),
        format!("{}:{}:{block}", r.text(CLIENT_SEED), r.int(NONCE)),
        None,
    );
    let group = if block == 0 {
        "block 0 differs"
    } else {
        "block 0 agrees, a later block differs"
    };
    Some(Parting::new(
        group,
        format!(
            "byte {i} is the first that differs (provably {}, target {}): byte {} of block {block}, the MAC of the client seed {} followed by \":{}:{block}\"",
            &w[2 * i..2 * i + 2],
            g.get(2 * i..2 * i + 2).unwrap_or("??"),
            i % 32,
            Value::from(r.text(CLIENT_SEED)),
            r.int(NONCE),
        ),
    )
    .at(step.mac()))
}
