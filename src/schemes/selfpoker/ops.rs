//! The `selfpoker` ops of protocol v1: the commitment and the numpy deck.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::stats;
use super::{commit, deck, MAX_SEED};
use crate::op::stats::Stats;
use crate::op::{no_story, Arg, Field, Kind, OpSpec, Outcome, Parting, Request, Scheme, Secret};
use crate::op::{ok, Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "selfpoker",
    source: "seed 002 (numpy.random.default_rng(seed).permutation(52))",
    ops: &[&COMMIT, &DECK],
    generated: &[],
};

const SEED: Field = Field::new("seed", Kind::DecimalSeed);

/// The seeds at the edges of numpy's SeedSequence word split.
pub(crate) const NUMPY_EDGES: [u64; 6] = [0, 1, (1 << 32) - 1, 1 << 32, 1 << 62, MAX_SEED];

/// A hand's seed is committed as SHA-256 of `selfpoker:<seed>`.
pub(crate) const SEED_SECRET: Secret = Secret {
    field: "seed",
    commit: |a| match a {
        Arg::Seed(s) => commit(*s),
        other => unreachable!("a selfpoker seed is a decimal seed, not {other:?}"),
    },
    commit_op: "selfpoker.commit",
};

/// Seeds: any 63-bit seed, numpy's word-split edges, and the seeds around
/// 2^53 where a JavaScript Number stops holding every integer.
fn seeds(op: &'static OpSpec) -> BoxedStrategy<Request> {
    let js_edges = vec![(1 << 53) - 1, 1 << 53, (1 << 53) + 1];
    prop_oneof![
        8 => 0u64..=MAX_SEED,
        2 => prop::sample::select(NUMPY_EDGES.to_vec()),
        1 => prop::sample::select(js_edges),
    ]
    .prop_map(move |s| Request::of(op, vec![Arg::Seed(s)]))
    .boxed()
}

fn flags(r: &Request) -> Vec<Flag> {
    let seed = r.int(SEED);
    let mut flags = Vec::new();
    if NUMPY_EDGES.contains(&seed) {
        flags.push(Flag::NumpyEdge);
    }
    if seed > crate::op::error::MAX_SAFE_INTEGER {
        flags.push(Flag::JsUnsafe);
    }
    flags
}

pub(crate) static COMMIT: OpSpec = OpSpec {
    name: "selfpoker.commit",
    fields: &[SEED],
    ok: &[OkField::new("commit", ok::HEX64)],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct CommitOk {
            commit: String,
        }
        Ok(Outcome::new(CommitOk {
            commit: commit(r.int(SEED)),
        }))
    },
    generate: || seeds(&COMMIT),
    flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::NumpyEdge, Flag::JsUnsafe, Flag::MaxSafeInteger, Flag::Uint32Edge],
        generated: &[Flag::NumpyEdge, Flag::JsUnsafe],
    },
    secret: Some(SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::None("a commitment: the SHA-256 of the seed, no outcome"),
};

pub(crate) static DECK: OpSpec = OpSpec {
    name: "selfpoker.deck",
    fields: &[SEED],
    ok: &[OkField::new(
        "deck",
        Shape::List {
            items: &ok::CARD,
            min: Some(52),
            max: Some(52),
            unique: true,
        },
    )],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct DeckOk {
            deck: Vec<u32>,
        }
        Ok(Outcome::new(DeckOk {
            deck: deck(r.int(SEED)),
        }))
    },
    generate: || seeds(&DECK),
    flags,
    explain: |r, w, g| {
        let i = crate::op::last_difference(w, g, "deck")?;
        let draws = crate::schemes::selfpoker::numpy::draws(r.int(SEED), 52);
        let start: Vec<Value> = (0..52u32).map(Value::from).collect();
        let target_j = g["deck"]
            .get(i)
            .and_then(|v| crate::op::target_draw(start, &draws, i, v));
        let mine = draws.iter().find(|(at, _)| *at == i).map_or(0, |(_, j)| *j);
        Some(Parting::new(
            "first differing numpy draw",
            format!(
                "deck[{i}] is the first position the draws fix differently: numpy's draw for i = {i}, random_interval({i}), gives j = {mine}; the target drew j = {}",
                target_j.map_or("(not among the first i + 1)".into(), |j| j.to_string())
            ),
        ))
    },
    reach: Reach {
        vectors: &[Flag::NumpyEdge, Flag::JsUnsafe, Flag::MaxSafeInteger, Flag::Uint32Edge],
        generated: &[Flag::NumpyEdge, Flag::JsUnsafe],
    },
    secret: Some(SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::DECK),
};
