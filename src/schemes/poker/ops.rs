//! The poker ops of protocol v1: a deal read off a `cursor` deck, and the
//! best five of five to seven cards.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::fields::PLAYERS_FIELD;
use super::stats;
use super::{deal, evaluate, CATEGORIES};
use crate::op::fields::{CLIENT_SEED, NONCE, SERVER_SEED};
use crate::op::stats::Stats;
use crate::op::strategy;
use crate::op::{no_story, Field, Kind, OpSpec, Outcome, Parting, Request, Scheme, SERVER_SEED_SECRET};
use crate::op::{ok, Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "poker",
    source: "seed 003 (poker_referenz.py)",
    ops: &[&DEAL, &EVALUATE],
    generated: &[],
};

const CARDS: Field = Field::new(
    "cards",
    Kind::Cards {
        min: 5,
        max: 7,
        max_copies: 1,
    },
);

fn players(r: &Request) -> usize {
    usize::try_from(r.int(PLAYERS_FIELD)).expect("2 to 22 players")
}

pub(crate) static DEAL: OpSpec = OpSpec {
    name: "poker.deal",
    fields: &[SERVER_SEED, CLIENT_SEED, NONCE, PLAYERS_FIELD],
    ok: &[
        OkField::new("hole", Shape::sized(&Shape::sized(&ok::CARD, 2, 2), 2, 22)),
        OkField::new("board", Shape::sized(&ok::CARD, 5, 5)),
    ],
    run: |r| {
        Ok(Outcome::new(deal(
            r.text(SERVER_SEED),
            r.text(CLIENT_SEED),
            r.int(NONCE),
            players(r),
        )))
    },
    generate: || {
        (strategy::round(), 2u64..=22)
            .prop_map(|((s, c, n), p)| Request::of(&DEAL, vec![s.into(), c.into(), n.into(), p.into()]))
            .boxed()
    },
    flags: |r| {
        if players(r) == 22 {
            vec![Flag::DealPositions, Flag::MaxPlayers]
        } else {
            vec![Flag::DealPositions]
        }
    },
    explain: explain_deal,
    reach: Reach {
        vectors: &[Flag::DealPositions, Flag::MaxPlayers, Flag::MinValue, Flag::MaxValue],
        generated: &[],
    },
    secret: Some(SERVER_SEED_SECRET),
    readings: &[],
    bet: false,
    stats: Stats::Tables(stats::DEAL),
};

/// A deal is the cursor shuffle of 52 cards at cursor 0, dealt to fixed
/// positions: the lower op is that `cursor.shuffle`, and the step is the
/// MAC of cursor 0.
fn explain_deal(r: &Request, w: &Value, g: &Value) -> Option<Parting> {
    let (server, client, nonce) = (r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
    let field = ["hole", "board"].into_iter().find(|k| w.get(*k) != g.get(*k))?;
    let mut step = crate::schemes::cursor::ops::raw_step(server, client, nonce, 0);
    step.lower = Some(Request::of(
        &crate::schemes::cursor::ops::SHUFFLE,
        vec![server.into(), client.into(), nonce.into(), 0u64.into(), 52u64.into()],
    ));
    Some(
        Parting::new(
            format!("{field} differs"),
            format!(
                "{field} differs: provably {}, target {}; the deal is cursor.shuffle of 52 cards from cursor 0 dealt to fixed positions",
                crate::op::short(&w[field]),
                crate::op::short(&g[field])
            ),
        )
        .at(step),
    )
}

#[derive(Serialize, Debug)]
struct HandOk {
    category: &'static str,
    ranks: [u8; 5],
}

pub(crate) static EVALUATE: OpSpec = OpSpec {
    name: "poker.evaluate",
    fields: &[CARDS],
    ok: &[
        OkField::new("category", Shape::OneOf(&CATEGORIES)),
        OkField::new("ranks", Shape::sized(&Shape::int(0, 14), 5, 5)),
    ],
    run: |r| {
        let hand = evaluate(r.cards(CARDS));
        Ok(Outcome::new(HandOk {
            category: hand.category_name(),
            ranks: hand.ranks,
        }))
    },
    generate: || {
        cards()
            .prop_map(|c| Request::of(&EVALUATE, vec![crate::op::Arg::Cards(c)]))
            .boxed()
    },
    flags: evaluate_flags,
    explain: no_story,
    reach: Reach {
        vectors: &[Flag::Category, Flag::Wheel, Flag::SevenCards, Flag::CardEdge],
        generated: &[],
    },
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::None("no randomness: the value of a given hand"),
};

/// Five to seven distinct cards: random ones, and ones packed into few ranks
/// and suits so that flushes, straights, full houses and quads turn up.
fn cards() -> BoxedStrategy<Vec<u8>> {
    // Drawn as u64 as they always were, so a run's seed asks the same hands.
    let random = prop::sample::subsequence((0u64..52).collect::<Vec<_>>(), 5..=7).prop_shuffle();
    let packed = (
        0u64..9,
        1u64..=2,
        prop::collection::vec((0u64..5, 0u64..4, 0u64..4), 5..=7),
    )
        .prop_map(|(low, suits, picks)| {
            let mut cards: Vec<u64> = picks
                .into_iter()
                .map(|(r, s, t)| ((s * suits / 4 + t % suits) % 4) * 13 + (low + r) % 13)
                .collect();
            let mut seen = 0u64;
            cards.retain(|&c| {
                let fresh = seen & (1 << c) == 0;
                seen |= 1 << c;
                fresh
            });
            cards
        });
    prop_oneof![1 => random, 2 => packed.prop_filter("5 to 7 distinct cards", |c| c.len() >= 5)]
        .prop_map(|cards| cards.into_iter().map(|c| u8::try_from(c).expect("a card")).collect())
        .boxed()
}

fn evaluate_flags(r: &Request) -> Vec<Flag> {
    let cards = r.cards(CARDS);
    let mut flags = vec![Flag::Category];
    // Ranks 0..=4 are the ace to the five: the cards hold a wheel.
    if (0..5).all(|rank| cards.iter().any(|c| c % 13 == rank)) {
        flags.push(Flag::Wheel);
    }
    if cards.len() == 7 {
        flags.push(Flag::SevenCards);
    }
    if cards.iter().any(|&c| c == 0 || c == 51) {
        flags.push(Flag::CardEdge);
    }
    flags
}
