//! The op of CSGOEmpire's roulette: `csgoempire.roulette`.

use proptest::prelude::*;
use serde::Serialize;

use super::fields::{PUBLIC_SEED, ROUND};
use super::{colour, roll_of, stats, value, COLOURS};
use crate::op::fields::SERVER_SEED;
use crate::op::stats::Stats;
use crate::op::{no_story, strategy, OpSpec, Outcome, Request, Scheme};
use crate::op::{Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "csgoempire",
    source: "CSGOEmpire's roulette script (help.csgoempire.com, How is roulette fair?)",
    ops: &[&ROULETTE],
    generated: &[],
};

fn roll(r: &Request) -> u32 {
    roll_of(value(r.text(SERVER_SEED), r.text(PUBLIC_SEED), r.int(ROUND)))
}

/// A roulette answer: the roll and its colour.
#[derive(Serialize, Debug)]
struct RouletteOk {
    roll: u32,
    colour: &'static str,
}

pub(crate) static ROULETTE: OpSpec = OpSpec {
    name: "csgoempire.roulette",
    fields: &[SERVER_SEED, PUBLIC_SEED, ROUND],
    ok: &[
        OkField::new("roll", Shape::int(0, 14)),
        OkField::new("colour", Shape::OneOf(&COLOURS)),
    ],
    run: |r| {
        let roll = roll(r);
        Ok(Outcome::new(RouletteOk {
            roll,
            colour: colour(roll),
        }))
    },
    generate: || {
        strategy::round()
            .prop_map(|(s, p, n)| Request::of(&ROULETTE, vec![s.into(), p.into(), n.into()]))
            .boxed()
    },
    flags: |r| {
        if matches!(roll(r), 0 | 7 | 8) {
            vec![Flag::ColourEdge]
        } else {
            vec![]
        }
    },
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::ColourEdge],
        generated: &[Flag::ColourEdge],
    },
    // The script does not say how the server seed is hashed while secret.
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::ROULETTE),
};
