//! The op of the lucky-number dice: `lucky.roll`.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

use super::{lucky, roll, stats, Variant, DUCKDICE, GROUPS, PROVABLYFAIR, RUNEBANKS};
use crate::op::fields::{CLIENT_SEED, NONCE, SERVER_SEED};
use crate::op::reading::Reading;
use crate::op::stats::Stats;
use crate::op::{strategy, OpSpec, Outcome, Parting, Request, Scheme, SERVER_SEED_SECRET};
use crate::op::{Flag, OkField, Reach, Shape};
use crate::schemes::stake::ops::num;

pub static SCHEME: Scheme = Scheme {
    name: "lucky",
    source: "Primedice's classic implementation (lucky-number dice) and its clones",
    ops: &[&ROLL],
    generated: &[],
};

/// A roll's answer: the lucky number and the roll shown.
#[derive(Serialize, Debug)]
struct RollOk {
    lucky: u32,
    roll: Value,
}

fn answer(lucky: u32) -> RollOk {
    RollOk {
        lucky,
        roll: num(roll(lucky)),
    }
}

pub(crate) static ROLL: OpSpec = OpSpec {
    name: "lucky.roll",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE],
    ok: &[
        OkField::new("lucky", Shape::int(0, 999_999)),
        OkField::new("roll", Shape::Number { min: 0, below: 100 }),
    ],
    run: |r| {
        let l = lucky(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
        Ok(Outcome::new(answer(l.lucky)))
    },
    generate: || {
        strategy::round()
            .prop_map(|(s, c, n)| Request::of(&ROLL, vec![s.into(), c.into(), n.into()]))
            .boxed()
    },
    flags: |r| {
        let mac = super::mac_hex(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
        group_flags(&mac)
    },
    explain,
    reach: Reach {
        vectors: &[Flag::LateGroup, Flag::GroupAtLimit, Flag::PublishedField],
        generated: &[Flag::LateGroup],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[LAST_THREE, RUNEBANKS_READING, DUCKDICE_READING],
    bet: true,
    stats: Stats::Tables(stats::ROLL),
};

/// The flags of a MAC's groups: a later group kept, a group of exactly
/// 1,000,000 skipped.
pub(crate) fn group_flags(mac: &str) -> Vec<Flag> {
    let checks = [
        (super::scan(mac).group.is_some_and(|g| g > 0), Flag::LateGroup),
        (super::skips_the_limit(mac), Flag::GroupAtLimit),
    ];
    checks.iter().filter(|(hit, _)| *hit).map(|(_, f)| *f).collect()
}

fn explain(r: &Request, _: &Value, g: &Value) -> Option<Parting> {
    let l = lucky(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
    let (group, story) = match l.group {
        Some(0) => (
            "another lucky number from group 0",
            "group 0 (hex digits 0..5)".to_string(),
        ),
        Some(k) => (
            "another lucky number where group 0 reads 1,000,000 or more",
            format!(
                "group {k} (hex digits {}..{}), the first below 1,000,000",
                5 * k,
                5 * k + 5
            ),
        ),
        None => (
            "another lucky number where no group is kept",
            format!("no group of {GROUPS}: 9999"),
        ),
    };
    Some(Parting::new(
        group,
        format!(
            "provably reads {story}: lucky {}, roll {}; the target says {}",
            l.lucky,
            roll(l.lucky),
            crate::op::short(g)
        ),
    ))
}

/// The clones' exhaustion rule (PyPI provablyfair 1.0.0, runebanks, DuckDice):
/// the last three hex digits when no group is kept.
pub(crate) const LAST_THREE: Reading = Reading {
    name: "last-three",
    source: "PyPI provablyfair 1.0.0, ProvablyFair.roll",
    ok: |r| as_shown(PROVABLYFAIR, r),
};

/// A clone's lucky number, shown as Primedice shows it: the reading's
/// answer to the same request.
fn as_shown(v: Variant, r: &Request) -> Option<Value> {
    let l = v.lucky(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
    Some(json!({ "lucky": l, "roll": num(roll(l)) }))
}

/// runebanks: HMAC-SHA512(server, "client:nonce"), the last three digits.
pub(crate) const RUNEBANKS_READING: Reading = Reading {
    name: "runebanks",
    source: "https://runebanks.net/provability",
    ok: |r| as_shown(RUNEBANKS, r),
};

/// DuckDice: SHA-512(server + client + nonce), the last three digits; its
/// roll lucky % 10000 is the same hundredths.
pub(crate) const DUCKDICE_READING: Reading = Reading {
    name: "duckdice",
    source: "https://help.duckdice.io, Provably Fair, Randomization and Verify",
    ok: |r| as_shown(DUCKDICE, r),
};
