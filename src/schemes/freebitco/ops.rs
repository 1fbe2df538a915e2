//! The op of Freebitco.in: `freebitco.roll`.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::{quotient, roll, roll_of, stats, value};
use crate::op::fields::{CLIENT_SEED, NONCE, SERVER_SEED};
use crate::op::stats::Stats;
use crate::op::{strategy, OpSpec, Outcome, Parting, Request, Scheme, SERVER_SEED_SECRET};
use crate::op::{Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "freebitco",
    source: "Freebitco.in's provably fair text, as monk-afk/freebitco.in_roll-calculator quotes it",
    ops: &[&ROLL],
    generated: &[],
};

pub(crate) static ROLL: OpSpec = OpSpec {
    name: "freebitco.roll",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE],
    ok: &[OkField::new("roll", Shape::int(0, 10_000))],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct RollOk {
            roll: u16,
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
        let x = value(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
        let checks = [
            (quotient(x).fract() >= 0.5, Flag::RoundsUp),
            (roll_of(x) == 0 || roll_of(x) == 10_000, Flag::RollEdge),
        ];
        checks.iter().filter(|(hit, _)| *hit).map(|(_, f)| *f).collect()
    },
    explain,
    reach: Reach {
        vectors: &[Flag::RoundsUp, Flag::RollEdge, Flag::PublishedField],
        generated: &[Flag::RoundsUp],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::ROLL),
};

fn explain(r: &Request, _: &Value, g: &Value) -> Option<Parting> {
    let x = value(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
    Some(Parting::new(
        if quotient(x).fract() >= 0.5 {
            "another roll where the quotient rounds up"
        } else {
            "another roll where the quotient rounds down"
        },
        format!(
            "provably reads {x:08x} = {x}, ÷ 429496.7295 = {}, roll {}; the target says {}",
            quotient(x),
            roll_of(x),
            crate::op::short(g)
        ),
    ))
}
