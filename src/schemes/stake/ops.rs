//! The `stake` ops of protocol v1: one op per game, the float stream itself,
//! and crash's hash chain. Their contract is docs/schemes.md ("`stake`":
//! the byte stream, each game's formula and its canonical reading) and
//! docs/protocol.md (the fields and answers).

use proptest::prelude::*;
use serde::ser::SerializeMap;
use serde::Serialize;
use serde_json::{json, Value};

use super::crash::{self, MAX_LIMIT};
use super::fields::{MINES_FIELD, ROWS, SEGMENTS};
use super::stats;
use super::tables::{self, risk_index, RISKS};
use super::{Floats, MAX_FLOATS};
use crate::base::chain::{self, Link};
use crate::op::error::OpError;
use crate::op::fields::{CLIENT_SEED, NONCE, SERVER_SEED};
use crate::op::ok::CARD;
use crate::op::reading::Reading;
use crate::op::stats::Stats;
use crate::op::{no_story, strategy, Field, Kind, OpSpec, Outcome, Request, Scheme, SERVER_SEED_SECRET};
use crate::op::{Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "stake",
    source: "Stake's provably fair pages (implementation, conversions, game events) and Crash's seeding event",
    ops: &[
        &FLOATS,
        &DICE,
        &LIMBO,
        &PLINKO,
        &ROULETTE,
        &WHEEL,
        &KENO,
        &MINES,
        &HILO,
        &BLACKJACK,
        &BACCARAT,
        &VIDEOPOKER,
        &DIAMONDS,
        &CRASH,
        &CRASH_CHAIN,
    ],
    generated: &[(tables::JS_PATH, tables::js_module)],
};

const COUNT: Field = Field::size("count", 1, MAX_FLOATS);
const RISK: Field = Field::new("risk", Kind::Word(&RISKS));
const HASH: Field = Field::new("hash", Kind::Hex64);
const SALT: Field = Field::text("salt");
const TERMINATING: Field = Field::new("terminatingHash", Kind::Hex64);
const LIMIT: Field = Field::size("limit", 1, MAX_LIMIT);

const ROUND: [Field; 3] = [SERVER_SEED, CLIENT_SEED, NONCE];

/// A float of the stream, in [0, 1).
const FLOAT: Shape = Shape::Number { min: 0, below: 1 };
const DIRECTION: Shape = Shape::int(0, 1);
const SQUARE: Shape = Shape::int(1, 40);
const TILE: Shape = Shape::int(0, 24);
const GEM: Shape = Shape::OneOf(&super::GEMS);
const CARDS_52: Shape = Shape::sized(&CARD, 52, 52);
const HAND: Shape = Shape::sized(&CARD, 2, 3);

/// A number as JavaScript's `String(x)` writes it: an integral value as an
/// integer (`1`, not serde's `1.0`), any other as the shortest round trip.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "checked integral and below 2^53"
)]
pub(crate) fn num(x: f64) -> Value {
    if x.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&x) {
        Value::from(x as u64)
    } else {
        Value::from(x)
    }
}

fn floats_of(r: &Request) -> Floats {
    Floats::new(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE))
}

fn first(r: &Request) -> f64 {
    floats_of(r).next_float()
}

/// An answer of one member, `{"<name>": value}`, written straight from the
/// typed value: a `Value` built with `json!` cost every answer a map, a
/// hashed key and its allocations, in `serve` and in the harness alike.
#[derive(Debug)]
struct One<T> {
    name: &'static str,
    value: T,
}

impl<T: Serialize> Serialize for One<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.name, &self.value)?;
        m.end()
    }
}

fn one<T: Serialize + std::fmt::Debug + Send + Sync + 'static>(
    name: &'static str,
    value: T,
) -> Result<Outcome, OpError> {
    Ok(Outcome::new(One { name, value }))
}

/// [`num`] written without building its `Value` first.
#[derive(Debug, Clone, Copy)]
struct Num(f64);

impl Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        num(self.0).serialize(s)
    }
}

fn usize_of(v: u64) -> usize {
    usize::try_from(v).expect("a small field")
}

/// A round's generator: a bet's seeds and nonce, and `extra` fields.
fn bet(op: &'static OpSpec, extra: BoxedStrategy<Vec<Value>>) -> BoxedStrategy<Request> {
    (strategy::round(), extra)
        .prop_map(move |((s, c, n), more)| {
            // The extra values follow the bet's three in field order, read
            // as any request is (a field left out takes its default).
            let values = [Value::from(s), c.into(), n.into()].into_iter().chain(more);
            let mut members: Vec<(String, Value)> = vec![("op".into(), op.name.into())];
            members.extend(op.fields.iter().map(|f| f.name.to_string()).zip(values));
            Request::read(members, |name| (name == op.name).then_some(op))
                .unwrap_or_else(|e| panic!("{}: {e}", op.name))
        })
        .boxed()
}

fn none() -> BoxedStrategy<Vec<Value>> {
    Just(Vec::new()).boxed()
}

/// The flags of the stream every game reads: where its floats sit.
fn stream_flags(r: &Request, n_floats: usize) -> Vec<Flag> {
    let mut fl = floats_of(r);
    let us: Vec<u32> = (0..n_floats).map(|_| fl.next_u32()).collect();
    let mut out = Vec::new();
    if n_floats > 8 {
        out.push(Flag::BlockBoundary);
    }
    if us.iter().any(|&u| u < 1 << 16) {
        out.push(Flag::TinyFloat);
    }
    if us.iter().any(|&u| u >= u32::MAX - 0xffff) {
        out.push(Flag::TopFloat);
    }
    out
}

const STREAM_REACH: &[Flag] = &[Flag::TinyFloat, Flag::TopFloat];

pub(crate) static FLOATS: OpSpec = OpSpec {
    name: "stake.floats",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, COUNT],
    ok: &[OkField::new("floats", Shape::sized(&FLOAT, 1, MAX_FLOATS))],
    run: |r| {
        let mut fl = floats_of(r);
        let floats: Vec<Num> = (0..r.int(COUNT)).map(|_| Num(fl.next_float())).collect();
        one("floats", floats)
    },
    generate: || {
        bet(
            &FLOATS,
            strategy::size(1, MAX_FLOATS).prop_map(|k| vec![k.into()]).boxed(),
        )
    },
    flags: |r| stream_flags(r, usize_of(r.int(COUNT))),
    explain: no_story,
    reach: Reach {
        vectors: &[
            Flag::BlockBoundary,
            Flag::TinyFloat,
            Flag::TopFloat,
            Flag::MinValue,
            Flag::MaxValue,
        ],
        generated: &[Flag::BlockBoundary],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::FLOATS),
};

pub(crate) static DICE: OpSpec = OpSpec {
    name: "stake.dice",
    fields: &ROUND,
    ok: &[OkField::new("roll", Shape::Number { min: 0, below: 101 })],
    run: |r| one("roll", Num(super::dice(first(r)))),
    generate: || bet(&DICE, none()),
    flags: |r| stream_flags(r, 1),
    explain: no_story,
    reach: Reach {
        vectors: STREAM_REACH,
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::DICE),
};

/// Flags of a limbo bet: which non-canonical readings it tells apart.
fn limbo_flags(r: &Request) -> Vec<Flag> {
    let f = first(r);
    let mut out = stream_flags(r, 1);
    let canonical = super::limbo(f);
    if super::readings::limbo_docs(f) != Some(canonical) {
        out.push(Flag::ReadingDocs);
    }
    if super::readings::limbo_floor(f) != canonical {
        out.push(Flag::ReadingFair);
    }
    out
}

pub(crate) static LIMBO: OpSpec = OpSpec {
    name: "stake.limbo",
    fields: &ROUND,
    ok: &[OkField::new(
        "multiplier",
        Shape::Number {
            min: 1,
            below: 100_000_000,
        },
    )],
    run: |r| one("multiplier", Num(super::limbo(first(r)))),
    generate: || bet(&LIMBO, none()),
    flags: limbo_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[
            Flag::TinyFloat,
            Flag::TopFloat,
            Flag::ReadingDocs,
            Flag::ReadingFair,
            Flag::PublishedStake,
        ],
        generated: &[Flag::ReadingFair],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[LIMBO_DOCS, LIMBO_FAIR],
    bet: true,
    stats: Stats::Tables(stats::LIMBO),
};

/// The request reader holds `risk` to its words (`Kind::Word`).
fn risk_of(r: &Request) -> usize {
    risk_index(r.text(RISK)).expect("risk is one of RISKS")
}

fn risk_strategy() -> BoxedStrategy<Value> {
    prop::sample::select(RISKS.to_vec()).prop_map(Value::from).boxed()
}

pub(crate) static PLINKO: OpSpec = OpSpec {
    name: "stake.plinko",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, ROWS, RISK],
    ok: &[
        OkField::new("path", Shape::sized(&DIRECTION, 8, 16)),
        OkField::new("bucket", Shape::int(0, 16)),
        OkField::new("multiplier", Shape::Number { min: 0, below: 1001 }),
    ],
    run: |r| {
        let risk = risk_of(r);
        let rows = usize_of(r.int(ROWS));
        let mut fl = floats_of(r);
        let path: Vec<usize> = (0..rows).map(|_| super::pick(fl.next_float(), 2)).collect();
        let bucket: usize = path.iter().sum();
        #[derive(Debug, Serialize)]
        struct PlinkoOk {
            path: Vec<usize>,
            bucket: usize,
            multiplier: Num,
        }
        let multiplier = Num(tables::plinko(rows, risk, bucket));
        Ok(Outcome::new(PlinkoOk {
            path,
            bucket,
            multiplier,
        }))
    },
    generate: || {
        bet(
            &PLINKO,
            (8u64..=16, risk_strategy())
                .prop_map(|(n, k)| vec![n.into(), k])
                .boxed(),
        )
    },
    flags: |r| stream_flags(r, usize_of(r.int(ROWS))),
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::BlockBoundary, Flag::MinValue, Flag::MaxValue],
        generated: &[Flag::BlockBoundary],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::PLINKO),
};

pub(crate) static ROULETTE: OpSpec = OpSpec {
    name: "stake.roulette",
    fields: &ROUND,
    ok: &[OkField::new("pocket", Shape::int(0, 36))],
    run: |r| one("pocket", super::pick(first(r), 37)),
    generate: || bet(&ROULETTE, none()),
    flags: |r| stream_flags(r, 1),
    explain: no_story,
    reach: Reach {
        vectors: STREAM_REACH,
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::ROULETTE),
};

/// The field takes only the wheel's segment counts ([`Field::size_of`]).
fn segments_of(r: &Request) -> Result<usize, OpError> {
    Ok(usize_of(r.int(SEGMENTS)))
}

pub(crate) static WHEEL: OpSpec = OpSpec {
    name: "stake.wheel",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, SEGMENTS, RISK],
    ok: &[
        OkField::new("segment", Shape::int(0, 49)),
        OkField::new("multiplier", Shape::Number { min: 0, below: 50 }),
    ],
    run: |r| {
        let (segments, risk) = (segments_of(r)?, risk_of(r));
        let segment = super::pick(first(r), segments);
        #[derive(Debug, Serialize)]
        struct WheelOk {
            segment: usize,
            multiplier: Num,
        }
        let multiplier = Num(tables::wheel(segments, risk, segment));
        Ok(Outcome::new(WheelOk { segment, multiplier }))
    },
    generate: || {
        bet(
            &WHEEL,
            (1u64..=5, risk_strategy())
                .prop_map(|(k, risk)| vec![(10 * k).into(), risk])
                .boxed(),
        )
    },
    flags: |r| stream_flags(r, 1),
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::MinValue, Flag::MaxValue],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::WHEEL),
};

pub(crate) static KENO: OpSpec = OpSpec {
    name: "stake.keno",
    fields: &ROUND,
    ok: &[OkField::new(
        "hits",
        Shape::List {
            items: &SQUARE,
            min: Some(10),
            max: Some(10),
            unique: true,
        },
    )],
    run: |r| one("hits", super::draw_without(&mut floats_of(r), (1..=40).collect(), 10)),
    generate: || bet(&KENO, none()),
    flags: |r| stream_flags(r, 10),
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::BlockBoundary],
        generated: &[Flag::BlockBoundary],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::KENO),
};

pub(crate) static MINES: OpSpec = OpSpec {
    name: "stake.mines",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, MINES_FIELD],
    ok: &[OkField::new(
        "mines",
        Shape::List {
            items: &TILE,
            min: Some(1),
            max: Some(24),
            unique: true,
        },
    )],
    run: |r| {
        let k = usize_of(r.int(MINES_FIELD));
        one("mines", super::draw_without(&mut floats_of(r), (0..25).collect(), k))
    },
    generate: || bet(&MINES, (1u64..=24).prop_map(|k| vec![k.into()]).boxed()),
    flags: |r| stream_flags(r, usize_of(r.int(MINES_FIELD))),
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::BlockBoundary, Flag::MinValue, Flag::MaxValue],
        generated: &[Flag::BlockBoundary],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::MINES),
};

/// 52 cards with replacement, for hilo and blackjack.
fn deck_with(r: &Request) -> Result<Outcome, OpError> {
    one("cards", super::cards_with(&mut floats_of(r), 52))
}

fn card_edge_flags(r: &Request, cards: &[u8], n_floats: usize) -> Vec<Flag> {
    let mut out = stream_flags(r, n_floats);
    if cards.iter().any(|&c| c == 0 || c == 51) {
        out.push(Flag::CardEdge);
    }
    out
}

pub(crate) static HILO: OpSpec = OpSpec {
    name: "stake.hilo",
    fields: &ROUND,
    ok: &[OkField::new("cards", CARDS_52)],
    run: deck_with,
    generate: || bet(&HILO, none()),
    flags: |r| card_edge_flags(r, &super::cards_with(&mut floats_of(r), 52), 52),
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::BlockBoundary, Flag::CardEdge],
        generated: &[Flag::BlockBoundary, Flag::CardEdge],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::DECK),
};

pub(crate) static BLACKJACK: OpSpec = OpSpec {
    name: "stake.blackjack",
    fields: &ROUND,
    ok: &[OkField::new("cards", CARDS_52)],
    run: deck_with,
    generate: || bet(&BLACKJACK, none()),
    flags: |r| card_edge_flags(r, &super::cards_with(&mut floats_of(r), 52), 52),
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::BlockBoundary, Flag::CardEdge],
        generated: &[Flag::BlockBoundary, Flag::CardEdge],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::DECK),
};

fn coup(r: &Request) -> super::Coup {
    super::baccarat(super::cards_with(&mut floats_of(r), 6))
}

pub(crate) static BACCARAT: OpSpec = OpSpec {
    name: "stake.baccarat",
    fields: &ROUND,
    ok: &[
        OkField::new("cards", Shape::sized(&CARD, 6, 6)),
        OkField::new("player", HAND),
        OkField::new("banker", HAND),
        OkField::new("winner", Shape::OneOf(&["player", "banker", "tie"])),
    ],
    run: |r| {
        let c = coup(r);
        #[derive(Debug, Serialize)]
        struct CoupOk {
            cards: Vec<u8>,
            player: Vec<u8>,
            banker: Vec<u8>,
            winner: &'static str,
        }
        Ok(Outcome::new(CoupOk {
            cards: c.cards,
            player: c.player,
            banker: c.banker,
            winner: c.winner,
        }))
    },
    generate: || bet(&BACCARAT, none()),
    flags: |r| {
        let c = coup(r);
        let mut out = stream_flags(r, 6);
        let drawn = [
            (c.player.len() == 3, Flag::PlayerThird),
            (c.banker.len() == 3, Flag::BankerThird),
        ];
        out.extend(drawn.iter().filter(|(hit, _)| *hit).map(|(_, f)| *f));
        if c.winner == "tie" {
            out.push(Flag::Tie);
        }
        out
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::PlayerThird, Flag::BankerThird, Flag::Tie],
        generated: &[Flag::PlayerThird, Flag::BankerThird, Flag::Tie],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::BACCARAT),
};

pub(crate) static VIDEOPOKER: OpSpec = OpSpec {
    name: "stake.videopoker",
    fields: &ROUND,
    ok: &[OkField::new(
        "cards",
        Shape::List {
            items: &CARD,
            min: Some(52),
            max: Some(52),
            unique: true,
        },
    )],
    run: |r| one("cards", super::draw_without(&mut floats_of(r), (0..52).collect(), 52)),
    generate: || bet(&VIDEOPOKER, none()),
    flags: |r| stream_flags(r, 52),
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::BlockBoundary],
        generated: &[Flag::BlockBoundary],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::VIDEOPOKER),
};

pub(crate) static DIAMONDS: OpSpec = OpSpec {
    name: "stake.diamonds",
    fields: &ROUND,
    ok: &[OkField::new("gems", Shape::sized(&GEM, 5, 5))],
    run: |r| {
        let mut fl = floats_of(r);
        let gems: Vec<&str> = (0..5).map(|_| super::GEMS[super::pick(fl.next_float(), 7)]).collect();
        one("gems", gems)
    },
    generate: || bet(&DIAMONDS, none()),
    flags: |r| stream_flags(r, 5),
    explain: no_story,
    reach: Reach {
        vectors: STREAM_REACH,
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::DIAMONDS),
};

/// 64 lowercase hex characters.
fn hex64() -> BoxedStrategy<String> {
    prop::array::uniform32(any::<u8>())
        .prop_map(|b| crate::base::crypto::hex(&b))
        .boxed()
}

pub(crate) static CRASH: OpSpec = OpSpec {
    name: "stake.crash",
    fields: &[HASH, SALT],
    ok: &[OkField::new(
        "crashPoint",
        Shape::Number {
            min: 1,
            below: 4_294_967_295,
        },
    )],
    run: |r| one("crashPoint", Num(crash::crash_point(r.text(HASH), r.text(SALT)))),
    generate: || {
        (hex64(), prop_oneof![3 => hex64(), 1 => strategy::text()])
            .prop_map(|(h, s)| Request::of(&CRASH, vec![h.into(), s.into()]))
            .boxed()
    },
    flags: |r| {
        let n = crash::game_int(r.text(HASH), r.text(SALT));
        let unrounded = super::readings::crash_unrounded(n);
        let mut out = Vec::new();
        if unrounded != super::floor2(unrounded) {
            out.push(Flag::ReadingUnrounded);
        }
        if unrounded == 1.0 {
            out.push(Flag::CrashAtOne);
        }
        out
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::ReadingUnrounded, Flag::CrashAtOne, Flag::PublishedStake],
        generated: &[Flag::ReadingUnrounded],
    },
    secret: None,
    readings: &[CRASH_UNROUNDED],
    bet: false,
    stats: Stats::Tables(stats::CRASH),
};

pub(crate) static CRASH_CHAIN: OpSpec = OpSpec {
    name: "stake.crash.chain",
    fields: &[HASH, TERMINATING, LIMIT],
    ok: &[OkField::new(
        "distance",
        Shape::Int {
            min: 0,
            max: Some(MAX_LIMIT),
        },
    )],
    run: |r| {
        let d = crash::distance(r.text(HASH), r.text(TERMINATING), r.int(LIMIT))?;
        one("distance", d)
    },
    // A chain from a random start, walked 0..=60 steps to its tip, with a
    // limit at or above the distance.
    generate: || {
        (hex64(), 0u64..=60, 0u64..=3)
            .prop_map(|(start, d, slack)| {
                let tip = crate::base::crypto::hex(&chain::after(Link::Text, &chain::bytes_of(&start), d));
                let limit = (d + slack).max(1);
                Request::of(&CRASH_CHAIN, vec![start.into(), tip.into(), limit.into()])
            })
            .boxed()
    },
    // A walk of more than 10,000 steps (the distance, or the whole limit
    // when the tip is not within it) is heavy, as a count above 10,000 is.
    flags: |r| {
        let limit = r.int(LIMIT);
        let steps = crash::distance(r.text(HASH), r.text(TERMINATING), limit).unwrap_or(limit);
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

/// Limbo's docs reading: 1e8/(f·1e8)·0.99 (src/schemes/stake/readings.rs).
pub(crate) const LIMBO_DOCS: Reading = Reading {
    name: "docs",
    source: "https://stake.com/provably-fair/game-events",
    ok: |r| super::readings::limbo_docs(first(r)).map(|m| json!({ "multiplier": num(m) })),
};

/// Limbo as the `fair` crate reads it: the floor, no clamp at 1.
pub(crate) const LIMBO_FAIR: Reading = Reading {
    name: "fair-0.0.13",
    source: "crates.io fair 0.0.13, src/games/limbo.rs",
    ok: |r| Some(json!({ "multiplier": num(super::readings::limbo_floor(first(r))) })),
};

/// Crash unrounded, as the seeding post and the `fair` crate give it.
pub(crate) const CRASH_UNROUNDED: Reading = Reading {
    name: "unrounded",
    source: "https://bitcointalk.org/index.php?topic=5162888.0; crates.io fair 0.0.13, src/games/crash.rs",
    ok: |r| {
        let n = crash::game_int(r.text(HASH), r.text(SALT));
        Some(json!({ "crashPoint": num(super::readings::crash_unrounded(n)) }))
    },
};
