//! The `ladder` op of protocol v1.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::fields::SIZE;
use super::stats;
use super::{shuffle, DEFAULT_SIZE};
use crate::op::error::MAX_COUNT;
use crate::op::fields::{CLIENT_SEED, SERVER_SEED};
use crate::op::stats::Stats;
use crate::op::strategy;
use crate::op::{Flag, OkField, Reach, Shape};
use crate::op::{OpSpec, Outcome, Parting, Request, Scheme, Step, SERVER_SEED_SECRET};

pub static SCHEME: Scheme = Scheme {
    name: "ladder",
    source: "seed 004 (Deal or No Deal)",
    ops: &[&SHUFFLE],
    generated: &[],
};

fn size(r: &Request) -> usize {
    usize::try_from(r.int(SIZE)).expect("at most 100,000 cases")
}

pub(crate) static SHUFFLE: OpSpec = OpSpec {
    name: "ladder.shuffle",
    fields: &[SERVER_SEED, CLIENT_SEED, SIZE],
    ok: &[OkField::new("order", Shape::list(&Shape::int(0, MAX_COUNT)))],
    run: |r| {
        #[derive(Serialize, Debug)]
        struct OrderOk {
            order: Vec<u32>,
        }
        Ok(Outcome::new(OrderOk {
            order: shuffle(r.text(SERVER_SEED), r.text(CLIENT_SEED), size(r)),
        }))
    },
    generate: || {
        (
            strategy::text(),
            strategy::text(),
            prop_oneof![4 => strategy::size(1, MAX_COUNT), 1 => Just(DEFAULT_SIZE)],
        )
            .prop_map(|(s, c, n)| Request::of(&SHUFFLE, vec![s.into(), c.into(), n.into()]))
            .boxed()
    },
    flags: |r| {
        let mut flags = Vec::new();
        if size(r) as u64 == DEFAULT_SIZE {
            flags.push(Flag::DefaultSize);
        }
        // Eight words a block: the draws for size − 1 … 1 pass word 8 from size 10 on.
        if size(r) > 9 {
            flags.push(Flag::BlockBoundary);
        }
        if size(r) > 65_536 {
            flags.push(Flag::Above16Bits);
        }
        flags.extend(Flag::heavy(size(r) as u64));
        let n = size(r);
        let words = super::words(r.text(SERVER_SEED), r.text(CLIENT_SEED), n.saturating_sub(1));
        if (1..n).rev().zip(words).any(|(i, v)| super::parts_by_max(v, i)) {
            flags.push(Flag::ByMaxParts);
        }
        flags
    },
    explain,
    reach: Reach {
        vectors: &[
            Flag::DefaultSize,
            Flag::BlockBoundary,
            Flag::MinValue,
            Flag::MaxValue,
            Flag::Above16Bits,
            Flag::Heavy,
            Flag::ByMaxParts,
        ],
        generated: &[Flag::Heavy, Flag::MinValue],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::SHUFFLE),
};

/// Where two ladders part: the first differing draw, its word and block,
/// and the j each side drew. Any answer is explained: an order of another
/// length, or one that differs only at position 0 (which no draw fixes).
fn explain(r: &Request, w: &Value, g: &Value) -> Option<Parting> {
    let n = size(r);
    let got = g.get("order").and_then(Value::as_array);
    if got.map(Vec::len) != Some(n) {
        return Some(Parting::new(
            "the order has another length",
            format!(
                "provably's order holds {n} cases; the target's {}",
                got.map_or("is not a list".into(), |o| format!("holds {}", o.len()))
            ),
        ));
    }
    let i = crate::op::last_difference(w, g, "order")?;
    let (server, client) = (r.text(SERVER_SEED), r.text(CLIENT_SEED));
    if i == 0 {
        return Some(Parting::new(
            "position 0 differs (no draw fixes it)",
            format!(
                "only position 0 differs (provably {}, target {}): every draw agrees, so the target's order is not a permutation of 0..{n}",
                w["order"][0],
                crate::op::short(&g["order"][0])
            ),
        ));
    }
    let draw = n - 1 - i;
    let words = super::words(server, client, draw + 1);
    let draws: Vec<(usize, usize)> = (1..n)
        .rev()
        .zip(&words)
        .map(|(at, &v)| (at, super::pick(v, at)))
        .collect();
    let start: Vec<Value> = (0..n).map(Value::from).collect();
    let target_j = g["order"]
        .get(i)
        .and_then(|v| crate::op::target_draw(start, &draws, i, v));
    let word = words[draw];
    let block = draw / 8;
    let message = format!("{client}:{block}");
    Some(
        Parting::new(
            if draw < 8 {
                "first differing draw in block 0"
            } else {
                "first differing draw past block 0 (block boundary)"
            },
            format!(
                "position {i} is the first one the draws fix differently: the draw for i = {i} is word {} of block {block} (HMAC message {}): v = {word}, j = floor(v / 2^32 * {}) = {}; the target drew j = {}",
                draw % 8,
                Value::from(message.as_str()),
                i + 1,
                super::pick(word, i),
                crate::op::drawn(target_j, g["order"].get(i)),
            ),
        )
        .at(Step::new(server, message, None)),
    )
}
