//! The op of the toy scheme: `toy.coin`.

use proptest::prelude::*;
use serde::Serialize;

use super::{flip, stats, SIDES};
use crate::op::fields::{CLIENT_SEED, NONCE, SERVER_SEED};
use crate::op::stats::Stats;
use crate::op::{no_flags, no_story, strategy, OpSpec, Outcome, Request, Scheme, SERVER_SEED_SECRET};
use crate::op::{Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "toy",
    source: "none: a toy game (docs/contributing.md), heads or tails from Stake's float stream",
    ops: &[&COIN],
    generated: &[],
};

pub(crate) static COIN: OpSpec = OpSpec {
    name: "toy.coin",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE],
    ok: &[OkField::new("side", Shape::OneOf(&SIDES))],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct CoinOk {
            side: &'static str,
        }
        let side = SIDES[flip(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE))];
        Ok(Outcome::new(CoinOk { side }))
    },
    generate: || {
        strategy::round()
            .prop_map(|(s, c, n)| Request::of(&COIN, vec![s.into(), c.into(), n.into()]))
            .boxed()
    },
    flags: no_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::MinValue, Flag::MaxValue],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: true,
    stats: Stats::Tables(stats::COIN),
};
