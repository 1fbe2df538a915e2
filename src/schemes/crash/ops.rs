//! The `crash` ops of protocol v1: the game results of the two
//! constructions (v1: keyed on the game hash; v2: keyed on the salt, the
//! hash's bytes as message), one link of either chain, and the walk of the
//! raw-byte chain (the hex-text chain's walk is `stake.crash.chain`).

use proptest::prelude::*;
use serde::Serialize;

use super::fields::{BCGAME, DIVISOR, DIVISORS, INSTANT};
use super::{stats, Link, LINKS, MAX_LIMIT};
use crate::op::error::OpError;
use crate::op::stats::Stats;
use crate::op::{no_story, strategy, Field, Kind, OpSpec, Outcome, Request, Scheme};
use crate::op::{Flag, OkField, Reach, Shape};
use crate::schemes::stake::ops::num;

pub static SCHEME: Scheme = Scheme {
    name: "crash",
    source: "bustabit/v1-gameserver server/lib.js; bustabit/verifier; copies of Roobet's script; bcgame-project/verify crash.html",
    ops: &[&V1, &V2, &LINK, &CHAIN_BYTES],
    generated: &[],
};

const HASH: Field = Field::new("hash", Kind::Hex64);
const SALT: Field = Field::text("salt");
const LINK_FIELD: Field = Field::new("link", Kind::Word(&LINKS));
const TERMINATING: Field = Field::new("terminatingHash", Kind::Hex64);
const LIMIT: Field = Field::size("limit", 1, MAX_LIMIT);

/// A crash point: 0 (bustabit v1's instant crash) up to about 4.5·10^15
/// (99·2^52/100, X at its largest).
const POINT: Shape = Shape::Number {
    min: 0,
    below: 4_503_599_627_370_497,
};

#[derive(Debug, Serialize)]
struct PointOk {
    #[serde(rename = "crashPoint")]
    crash_point: serde_json::Value,
}

fn point(x: f64) -> Result<Outcome, OpError> {
    Ok(Outcome::new(PointOk { crash_point: num(x) }))
}

/// 64 lowercase hex characters.
fn hex64() -> BoxedStrategy<String> {
    prop::array::uniform32(any::<u8>())
        .prop_map(|b| crate::base::crypto::hex(&b))
        .boxed()
}

/// A salt: a block hash (with `0x` now and then), or any text (every
/// class of text, as the generated cases must reach).
fn salt() -> BoxedStrategy<String> {
    prop_oneof![2 => hex64(), 1 => hex64().prop_map(|h| format!("0x{h}")), 2 => strategy::text()].boxed()
}

pub(crate) static V1: OpSpec = OpSpec {
    name: "crash.v1",
    fields: &[HASH, SALT, DIVISOR, INSTANT],
    ok: &[OkField::new("crashPoint", POINT)],
    run: |r| {
        point(super::v1_point(
            r.text(HASH),
            r.text(SALT),
            r.int(DIVISOR),
            r.int(INSTANT),
        ))
    },
    generate: || {
        (hex64(), salt(), prop::sample::select(&DIVISORS[..]), 0u64..=1)
            .prop_map(|(h, s, d, i)| Request::of(&V1, vec![h.into(), s.into(), d.into(), i.into()]))
            .boxed()
    },
    flags: |r| {
        let mac = super::v1_mac(r.text(HASH), r.text(SALT));
        let d = r.int(DIVISOR);
        let mut out = Vec::new();
        if super::divisible(&mac, d) {
            out.push(Flag::InstantCrash);
        } else if DIVISORS.iter().any(|&o| super::divisible(&mac, o)) {
            out.push(Flag::InstantOtherDivisor);
        }
        out
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::InstantCrash, Flag::InstantOtherDivisor],
        generated: &[Flag::InstantCrash, Flag::InstantOtherDivisor],
    },
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::V1),
};

pub(crate) static V2: OpSpec = OpSpec {
    name: "crash.v2",
    fields: &[HASH, SALT, BCGAME],
    ok: &[OkField::new("crashPoint", POINT)],
    run: |r| match super::v2_point(r.text(HASH), r.text(SALT), r.flag(BCGAME)) {
        Some(x) => point(x),
        None => Err(OpError::Exhausted {
            message: "toPrecision(9) rounds X to 1: BC.Game's page divides by 0 and shows Infinity".to_string(),
        }),
    },
    generate: || {
        (hex64(), salt(), any::<bool>())
            .prop_map(|(h, s, b)| Request::of(&V2, vec![h.into(), s.into(), b.into()]))
            .boxed()
    },
    flags: |r| {
        let mac = super::v2_mac(r.text(HASH), r.text(SALT));
        let (plain, rounded) = (super::v2_x(&mac), super::bcgame_x(&mac));
        let mut out = Vec::new();
        if super::v2_unclamped(plain) < 1.0 {
            out.push(Flag::CrashAtOne);
        }
        if rounded < 1.0 && super::v2_of(plain) != super::v2_of(rounded) {
            out.push(Flag::PrecisionParts);
        }
        out
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::CrashAtOne, Flag::PrecisionParts, Flag::PublishedCrash],
        generated: &[Flag::CrashAtOne],
    },
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::V2),
};

#[derive(Debug, Serialize)]
struct LinkOk {
    previous: String,
}

pub(crate) static LINK: OpSpec = OpSpec {
    name: "crash.link",
    fields: &[HASH, LINK_FIELD],
    ok: &[OkField::new(
        "previous",
        Shape::Text {
            pattern: "^[0-9a-f]{64}$",
            max_length: Some(64),
        },
    )],
    run: |r| {
        let previous = crate::base::crypto::hex(&super::previous(super::link_of(r.text(LINK_FIELD)), r.text(HASH)));
        Ok(Outcome::new(LinkOk { previous }))
    },
    generate: || {
        (hex64(), prop::sample::select(&LINKS[..]))
            .prop_map(|(h, l)| Request::of(&LINK, vec![h.into(), l.into()]))
            .boxed()
    },
    flags: crate::op::no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::PublishedCrash],
        generated: &[],
    },
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::None("a hash of the chain, not the outcome of a game"),
};

#[derive(Debug, Serialize)]
struct DistanceOk {
    distance: u64,
}

pub(crate) static CHAIN_BYTES: OpSpec = OpSpec {
    name: "crash.chain.bytes",
    fields: &[HASH, TERMINATING, LIMIT],
    ok: &[OkField::new(
        "distance",
        Shape::Int {
            min: 0,
            max: Some(MAX_LIMIT),
        },
    )],
    run: |r| {
        let distance = super::distance(Link::Bytes, r.text(HASH), r.text(TERMINATING), r.int(LIMIT))?;
        Ok(Outcome::new(DistanceOk { distance }))
    },
    // A chain from a random start, walked 0..=60 links to its tip, with a
    // limit at or above the distance.
    generate: || {
        (hex64(), 0u64..=60, 0u64..=3)
            .prop_map(|(start, d, slack)| {
                let tip =
                    crate::base::crypto::hex(&crate::base::chain::after(Link::Bytes, &super::bytes_of(&start), d));
                let limit = (d + slack).max(1);
                Request::of(&CHAIN_BYTES, vec![start.into(), tip.into(), limit.into()])
            })
            .boxed()
    },
    // A walk of more than 10,000 links is heavy, as stake.crash.chain's is.
    flags: |r| {
        let limit = r.int(LIMIT);
        let steps = super::distance(Link::Bytes, r.text(HASH), r.text(TERMINATING), limit).unwrap_or(limit);
        Flag::heavy(steps).into_iter().collect()
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::MinValue],
        generated: &[],
    },
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::None("a distance along the hash chain, not the outcome of a game"),
};
