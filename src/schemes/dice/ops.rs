//! The `dice` op of protocol v1.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::fields::N;
use super::stats;
use super::{roll, roll_traced};
use crate::op::fields::{CLIENT_SEED, SERVER_SEED};
use crate::op::stats::Stats;
use crate::op::strategy;
use crate::op::{Flag, OkField, Reach, Shape};
use crate::op::{OpSpec, Outcome, Parting, Request, Scheme, SERVER_SEED_SECRET};

pub static SCHEME: Scheme = Scheme {
    name: "dice",
    source: "seed 001 (published JavaScript)",
    ops: &[&ROLL],
    generated: &[],
};

pub(crate) static ROLL: OpSpec = OpSpec {
    name: "dice.roll",
    fields: &[SERVER_SEED, CLIENT_SEED, N],
    ok: &[OkField::new("face", Shape::int(1, 6))],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct FaceOk {
            face: u8,
        }
        let face = roll(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(N))?;
        Ok(Outcome::new(FaceOk { face }))
    },
    // The published dice code cannot key WebCrypto's HMAC with an empty
    // seed, and a real server seed is never empty.
    generate: || {
        (strategy::nonempty_text(), strategy::text(), strategy::big_int())
            .prop_map(|(s, c, n)| Request::of(&ROLL, vec![s.into(), c.into(), n.into()]))
            .boxed()
    },
    flags: |r| {
        let Ok(found) = roll_traced(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(N)) else {
            return vec![];
        };
        let checks = [
            (found.offset > 0 || found.round > 0, Flag::LateByte),
            (found.skipped_limit, Flag::RejectAtLimit1),
            (found.byte == 251, Flag::KeepBelowLimit1),
        ];
        checks.iter().filter(|(hit, _)| *hit).map(|(_, f)| *f).collect()
    },
    explain,
    reach: Reach {
        vectors: &[Flag::LateByte, Flag::RejectAtLimit1, Flag::KeepBelowLimit1],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::ROLL),
};

fn explain(r: &Request, _: &Value, g: &Value) -> Option<Parting> {
    let (server, client, n) = (r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(N));
    Some(match roll_traced(server, client, n) {
        Ok(f) => Parting::new(
            if f.offset == 0 && f.round == 0 {
                "another face from byte 0 of round 0"
            } else {
                "another face where byte 0 is 252 or more (the face comes from a later byte)"
            },
            format!(
                "provably takes byte {} (value {}) of round {}; face = {} % 6 + 1 = {}; the target says {}",
                f.offset,
                f.byte,
                f.round,
                f.byte,
                f.face,
                crate::op::short(&g["face"])
            ),
        )
        .at(crate::op::Step::new(server, format!("{client}:{n}:{}", f.round), None)),
        Err(e) => Parting::new("provably finds no face", e.to_string()),
    })
}
