//! The ops of skin.club: `skinclub.roll` and its commitment `skinclub.hash`.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::{public_hash, roll, roll_of, roll_through_double, stats, value, ROLLS};
use crate::op::fields::{CLIENT_SEED, NONCE, SERVER_SEED};
use crate::op::ok::HEX64;
use crate::op::stats::Stats;
use crate::op::{no_flags, no_story, strategy, Field, OpSpec, Outcome, Parting, Request, Scheme};
use crate::op::{Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "skinclub",
    source: "skin.club's provably fair validator (skinclub-tech/provably-fair-validator)",
    ops: &[&ROLL, &HASH],
    generated: &[],
};

/// The secret salt of the public hash.
const SALT: Field = Field::text("salt");

pub(crate) static ROLL: OpSpec = OpSpec {
    name: "skinclub.roll",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE],
    ok: &[OkField::new("roll", Shape::int(1, ROLLS))],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct RollOk {
            roll: u64,
        }
        let roll = roll(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
        Ok(Outcome::new(RollOk { roll }))
    },
    generate: || {
        strategy::round()
            .prop_map(|(s, c, n)| Request::of(&ROLL, vec![s.into(), c.into(), n.into()]))
            .boxed()
    },
    flags: |r| {
        let v = value(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
        let checks = [
            (roll_through_double(v) != roll_of(v), Flag::HexAbove53),
            (v < 1 << 53, Flag::HexBelow53),
        ];
        checks.iter().filter(|(hit, _)| *hit).map(|(_, f)| *f).collect()
    },
    explain,
    reach: Reach {
        vectors: &[Flag::HexAbove53, Flag::HexBelow53, Flag::PublishedField],
        generated: &[Flag::HexAbove53],
    },
    // The public hash needs the salt, revealed with the seed; a battle's
    // beacon is public and committed to by no hash.
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::ROLL),
};

fn explain(r: &Request, _: &Value, g: &Value) -> Option<Parting> {
    let v = value(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
    Some(Parting::new(
        if roll_through_double(v) == roll_of(v) {
            "another roll where the 15 hex digits fit a double exactly"
        } else {
            "another roll where the 15 hex digits are above 2^53"
        },
        format!(
            "provably reads {v:015x} = {v}, roll {} (through a double: {}); the target says {}",
            roll_of(v),
            roll_through_double(v),
            crate::op::short(g)
        ),
    ))
}

pub(crate) static HASH: OpSpec = OpSpec {
    name: "skinclub.hash",
    fields: &[SALT, SERVER_SEED],
    ok: &[OkField::new("hash", HEX64)],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct HashOk {
            hash: String,
        }
        let hash = public_hash(r.text(SALT), r.text(SERVER_SEED));
        Ok(Outcome::new(HashOk { hash }))
    },
    generate: || {
        (strategy::text(), strategy::text())
            .prop_map(|(salt, s)| Request::of(&HASH, vec![salt.into(), s.into()]))
            .boxed()
    },
    flags: no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::PublishedField],
        generated: &[],
    },
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::None("a commitment, not the outcome of a game"),
};
