//! The ops of BC.Game's originals: the MAC every page signs, and one op per
//! game page. Their contract is docs/schemes.md ("`bcgame`") and
//! docs/protocol.md.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

use super::fields::{MINES as MINES_FIELD, ROUNDS, ROWS};
use super::{classicdice, coinflip, hashdice, limbo, mac, mac_hex, plinko, rotation, stats, window, Hash, HASHES};
use crate::op::error::OpError;
use crate::op::fields::{CLIENT_SEED, NONCE, SERVER_SEED};
use crate::op::reading::Reading;
use crate::op::stats::Stats;
use crate::op::{no_flags, no_story, strategy, Field, Kind, OpSpec, Outcome, Request, Scheme, SERVER_SEED_SECRET};
use crate::op::{Flag, OkField, Reach, Shape};
use crate::schemes::lucky::DUCKDICE;
use crate::schemes::stake::ops::num;

pub static SCHEME: Scheme = Scheme {
    name: "bcgame",
    source: "BC.Game's verification pages (bcgame-project/verify)",
    ops: &[
        &HMAC,
        &CLASSICDICE_OLD,
        &CLASSICDICE,
        &DICE,
        &LIMBO,
        &HASHDICE,
        &MINES,
        &KENO,
        &PLINKO,
        &COINFLIP_OLD,
        &COINFLIP,
    ],
    generated: &[],
};

const ROUND: [Field; 3] = [SERVER_SEED, CLIENT_SEED, NONCE];
const HASH_FIELD: Field = Field::new("hash", Kind::Word(&HASHES));

const ROLL_100: Shape = Shape::Number { min: 0, below: 101 };
const TILE: Shape = Shape::int(1, 25);
const NUMBER_40: Shape = Shape::int(1, 40);
const DIRECTION: Shape = Shape::int(0, 1);
/// A MAC's lowercase hex: 64 digits (SHA-256) or 128 (SHA-512).
const MAC_HEX: Shape = Shape::Text {
    pattern: "^([0-9a-f]{64}|[0-9a-f]{128})$",
    max_length: None,
};

fn usize_of(v: u64) -> usize {
    usize::try_from(v).expect("a small field")
}

fn mac_of(r: &Request, hash: Hash) -> Vec<u8> {
    mac(hash, r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE))
}

fn hex_of(r: &Request, hash: Hash) -> String {
    mac_hex(hash, r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE))
}

/// A bet's generator: its seeds and nonce, then `extra` field values.
fn bet(op: &'static OpSpec, extra: BoxedStrategy<Vec<crate::op::Arg>>) -> BoxedStrategy<Request> {
    (strategy::round(), extra)
        .prop_map(move |((s, c, n), more)| {
            let mut args = vec![s.into(), c.into(), n.into()];
            args.extend(more);
            Request::of(op, args)
        })
        .boxed()
}

fn none() -> BoxedStrategy<Vec<crate::op::Arg>> {
    Just(Vec::new()).boxed()
}

/// An answer of one member, `{"<name>": value}`.
fn one(name: &str, value: Value) -> Result<Outcome, OpError> {
    let mut answer = serde_json::Map::new();
    answer.insert(name.to_string(), value);
    Ok(Outcome::new(Value::Object(answer)))
}

pub(crate) static HMAC: OpSpec = OpSpec {
    name: "bcgame.hmac",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, HASH_FIELD],
    ok: &[OkField::new("hmac", MAC_HEX)],
    run: |r| one("hmac", hex_of(r, Hash::of(r.text(HASH_FIELD))).into()),
    generate: || {
        bet(
            &HMAC,
            prop::sample::select(HASHES.to_vec())
                .prop_map(|h| vec![h.to_string().into()])
                .boxed(),
        )
    },
    flags: no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::None("the MAC of a bet, not a game's outcome"),
};

/// The old page's float of a bet.
fn old_u32(r: &Request) -> u32 {
    classicdice::first_u32(&mac_of(r, Hash::Sha256))
}

pub(crate) static CLASSICDICE_OLD: OpSpec = OpSpec {
    name: "bcgame.classicdice.old",
    fields: &ROUND,
    ok: &[OkField::new("roll", ROLL_100)],
    run: |r| one("roll", num(classicdice::old_roll(old_u32(r)))),
    generate: || bet(&CLASSICDICE_OLD, none()),
    flags: |r| {
        let u = old_u32(r);
        let checks = [
            (
                classicdice::old_roll(u) != classicdice::old_roll_without_tofixed(u),
                Flag::ToFixedParts,
            ),
            (u < 1 << 16, Flag::TinyFloat),
            (u >= u32::MAX - 0xffff, Flag::TopFloat),
        ];
        checks.iter().filter(|(hit, _)| *hit).map(|(_, f)| *f).collect()
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::ToFixedParts, Flag::TinyFloat, Flag::TopFloat],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[NO_TOFIXED],
    bet: true,
    stats: Stats::Tables(stats::CLASSICDICE_OLD),
};

/// The help centre's and the blog's old Classic Dice: no `toFixed(9)`.
pub(crate) const NO_TOFIXED: Reading = Reading {
    name: "no-tofixed",
    source:
        "BC.Game help centre, Game \"Classic Dice\" Fairness; blog.bc.game, How is provably fair used in Classic Dice",
    ok: |r| Some(json!({ "roll": num(classicdice::old_roll_without_tofixed(old_u32(r))) })),
};

/// Flags of a new-generation bet: where a double's index parts.
fn window_flags(r: &Request) -> Vec<Flag> {
    let hash = hex_of(r, Hash::Sha256);
    if window::index_through_double(&hash) == window::index(&hash) {
        vec![]
    } else {
        vec![Flag::WindowIndexParts]
    }
}

const WINDOW_REACH: Reach = Reach {
    vectors: &[Flag::WindowIndexParts],
    generated: &[Flag::WindowIndexParts],
};

pub(crate) static CLASSICDICE: OpSpec = OpSpec {
    name: "bcgame.classicdice",
    fields: &ROUND,
    ok: &[OkField::new("roll", ROLL_100)],
    run: |r| one("roll", num(classicdice::new_roll(&hex_of(r, Hash::Sha256)))),
    generate: || bet(&CLASSICDICE, none()),
    flags: window_flags,
    explain: no_story,
    reach: WINDOW_REACH,
    secret: Some(SERVER_SEED_SECRET),
    readings: &[PROSE],
    bet: true,
    stats: Stats::Tables(stats::CLASSICDICE),
};

/// The prose of `classicdice_new.html`: ×10000, the integer part.
pub(crate) const PROSE: Reading = Reading {
    name: "prose",
    source: "bcgame-project/verify classicdice_new.html, its Calculation Process",
    ok: |r| Some(json!({ "roll": classicdice::dice(&hex_of(r, Hash::Sha256)) })),
};

pub(crate) static DICE: OpSpec = OpSpec {
    name: "bcgame.dice",
    fields: &ROUND,
    ok: &[OkField::new("roll", Shape::int(0, 9999))],
    run: |r| one("roll", classicdice::dice(&hex_of(r, Hash::Sha256)).into()),
    generate: || bet(&DICE, none()),
    flags: window_flags,
    explain: no_story,
    reach: WINDOW_REACH,
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::DICE),
};

fn limbo_r(r: &Request) -> u64 {
    limbo::r_of(&mac_of(r, Hash::Sha256))
}

pub(crate) static LIMBO: OpSpec = OpSpec {
    name: "bcgame.limbo",
    fields: &ROUND,
    ok: &[OkField::new(
        "multiplier",
        Shape::Number {
            min: 1,
            below: 4_503_599_627_370_496,
        },
    )],
    run: |r| one("multiplier", num(limbo::multiplier_of(limbo_r(r)))),
    generate: || bet(&LIMBO, none()),
    flags: |r| {
        if limbo::clamped(limbo_r(r)) {
            vec![Flag::CrashAtOne]
        } else {
            vec![]
        }
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::CrashAtOne],
        generated: &[Flag::CrashAtOne],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::LIMBO),
};

/// A hash dice answer: the lucky number and the result shown.
#[derive(Serialize, Debug)]
struct HashDiceOk {
    lucky: u32,
    roll: u32,
}

pub(crate) static HASHDICE: OpSpec = OpSpec {
    name: "bcgame.hashdice",
    fields: &ROUND,
    ok: &[
        OkField::new("lucky", Shape::int(0, 999_999)),
        OkField::new("roll", Shape::int(0, 99_999)),
    ],
    run: |r| {
        let l = hashdice::lucky(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
        Ok(Outcome::new(HashDiceOk {
            lucky: l.lucky,
            roll: hashdice::roll(l.lucky),
        }))
    },
    generate: || bet(&HASHDICE, none()),
    flags: |r| crate::schemes::lucky::ops::group_flags(&hex_of(r, Hash::Sha512)),
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::LateGroup, Flag::GroupAtLimit],
        generated: &[Flag::LateGroup],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[HELP_CENTRE],
    bet: true,
    stats: Stats::Tables(stats::HASHDICE),
};

/// The help centre's Hash Dice: DuckDice's plain SHA-512, mod 10⁵.
pub(crate) const HELP_CENTRE: Reading = Reading {
    name: "help-centre",
    source: "BC.Game help centre, How to Play Hash Dice?",
    ok: |r| {
        let (l, roll) = hashdice::roll_of(DUCKDICE, r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
        Some(json!({ "lucky": l, "roll": roll }))
    },
};

/// The order a rotation page gives a bet.
fn order_of(r: &Request, start: &[u8]) -> Vec<u8> {
    rotation::order(&hex_of(r, Hash::Sha256), start)
}

/// A mines answer: the game's mines and the page's whole order.
#[derive(Serialize, Debug)]
struct MinesOk {
    mines: Vec<u8>,
    order: Vec<u8>,
}

pub(crate) static MINES: OpSpec = OpSpec {
    name: "bcgame.mines",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, MINES_FIELD],
    ok: &[
        OkField::new(
            "mines",
            Shape::List {
                items: &TILE,
                min: Some(1),
                max: Some(24),
                unique: true,
            },
        ),
        OkField::new(
            "order",
            Shape::List {
                items: &TILE,
                min: Some(25),
                max: Some(25),
                unique: true,
            },
        ),
    ],
    run: |r| {
        let order = order_of(r, &rotation::MINES_START);
        let mines = order[..usize_of(r.int(MINES_FIELD))].to_vec();
        Ok(Outcome::new(MinesOk { mines, order }))
    },
    generate: || bet(&MINES, (1u64..=24).prop_map(|k| vec![k.into()]).boxed()),
    flags: no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::MinValue, Flag::MaxValue, Flag::PublishedField],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::None(stats::ROTATION_UNTESTED),
};

pub(crate) static KENO: OpSpec = OpSpec {
    name: "bcgame.keno",
    fields: &ROUND,
    ok: &[OkField::new(
        "hits",
        Shape::List {
            items: &NUMBER_40,
            min: Some(10),
            max: Some(10),
            unique: true,
        },
    )],
    run: |r| {
        let order = order_of(r, &rotation::KENO_START);
        one("hits", json!(order[..rotation::KENO_DRAWN]))
    },
    generate: || bet(&KENO, none()),
    flags: no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::None(stats::ROTATION_UNTESTED),
};

/// A plinko answer: the directions row by row and the bucket.
#[derive(Serialize, Debug)]
struct PlinkoOk {
    path: Vec<u8>,
    bucket: usize,
}

pub(crate) static PLINKO: OpSpec = OpSpec {
    name: "bcgame.plinko",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, ROWS],
    ok: &[
        OkField::new("path", Shape::sized(&DIRECTION, 8, 16)),
        OkField::new("bucket", Shape::int(0, 16)),
    ],
    run: |r| {
        let path = plinko::path(&mac_of(r, Hash::Sha512), usize_of(r.int(ROWS)));
        let bucket = path.iter().filter(|&&d| d == 1).count();
        Ok(Outcome::new(PlinkoOk { path, bucket }))
    },
    generate: || bet(&PLINKO, (8u64..=16).prop_map(|n| vec![n.into()]).boxed()),
    flags: no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::MinValue, Flag::MaxValue],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::PLINKO),
};

fn coins_of(r: &Request, coin: fn(&[u8; 32]) -> u8) -> Vec<u8> {
    let (s, c, n) = (r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
    coinflip::flips(s, c, n, r.int(ROUNDS), coin)
}

const COINS: Shape = Shape::sized(&DIRECTION, 1, 100);

fn rounds() -> BoxedStrategy<Vec<crate::op::Arg>> {
    strategy::size(1, 100).prop_map(|k| vec![k.into()]).boxed()
}

pub(crate) static COINFLIP_OLD: OpSpec = OpSpec {
    name: "bcgame.coinflip.old",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, ROUNDS],
    ok: &[OkField::new("coins", COINS)],
    run: |r| one("coins", json!(coins_of(r, coinflip::old_coin))),
    generate: || bet(&COINFLIP_OLD, rounds()),
    flags: no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::MinValue, Flag::MaxValue, Flag::PublishedField],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::COINFLIP_OLD),
};

pub(crate) static COINFLIP: OpSpec = OpSpec {
    name: "bcgame.coinflip",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, ROUNDS],
    ok: &[OkField::new("coins", COINS)],
    run: |r| one("coins", json!(coins_of(r, coinflip::new_coin))),
    generate: || bet(&COINFLIP, rounds()),
    flags: |r| {
        let (s, c, n) = (r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
        let parts = (1..=r.int(ROUNDS)).any(|k| {
            let hash = crate::base::crypto::hex(&coinflip::mac(s, c, n, k));
            window::index_through_double(&hash) != window::index(&hash)
        });
        if parts {
            vec![Flag::WindowIndexParts]
        } else {
            vec![]
        }
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::WindowIndexParts, Flag::MinValue, Flag::MaxValue],
        generated: &[Flag::WindowIndexParts],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::COINFLIP),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lucky_and_hashdice_share_the_clones_lucky_number() {
        // Hash dice's lucky number is runebanks': one scan, two displays.
        let l = hashdice::lucky("s", "c", 7);
        assert_eq!(l.lucky, crate::schemes::lucky::RUNEBANKS.lucky("s", "c", 7));
    }
}
