//! The statistics of `poker.deal` (`audit --stats`): every dealt card of a
//! uniformly shuffled deck, rank 1/13 and suit 1/4 in every slot.
//!
//! | family | tests |
//! |---|---|
//! | players | rank and suit of every dealt card (hole cards, board); serial on seat 0's first card |
//!
//! `poker.evaluate` has no randomness to test.

use super::fields::PLAYERS_FIELD;
use crate::op::fields::{CLIENT_SEED, NONCE};
use crate::op::stats::{at, small, uniform, Family, Layout, Model, Step};

pub(crate) const DEAL: Model = Model {
    family: |r| Some(Family::of(r.int(PLAYERS_FIELD))),
    shape: |f| (2 * (2 * f.size() + 5), 13),
    layout: |f| {
        let mut names: Vec<String> = (0..f.a)
            .flat_map(|i| (0..2).map(move |c| format!("of seat {i} card {c}")))
            .collect();
        names.extend((0..5).map(|b| format!("of board card {b}")));
        let mut l = Layout::new(format!("players={}", f.a));
        l.cards(&names, "rank", "suit");
        l.serial(uniform(13))
    },
    sample: |f, r, ok, cells| {
        let mut cards = Vec::with_capacity(2 * f.size() + 5);
        for seat in ok.get("hole")?.as_array()? {
            cards.extend(seat.as_array()?.iter().map(small));
        }
        cards.extend(ok.get("board")?.as_array()?.iter().map(small));
        let slots = cards.len();
        for (s, c) in cards.iter().enumerate() {
            let c = (*c)?;
            cells.push((at(s), c % 13));
            cells.push((at(slots + s), c / 13));
        }
        let first = cards.first().copied().flatten()? % 13;
        Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], r.int(NONCE), first)))
    },
};
