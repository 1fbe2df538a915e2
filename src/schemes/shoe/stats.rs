//! The statistics of the shoe ops (`audit --stats`): a shoe's positions
//! and its cut card, with their exact distributions under uniform HMAC output.
//!
//! | op | family | tests |
//! |---|---|---|
//! | `shoe.deal`, `shoe.tournament` | decks, penetration | rank (13) and suit (4) at every position; the cut card's position (its exact clamped distribution); serial on the first card's rank |
//!
//! Fisher–Yates from the back with exactly uniform draws makes every order
//! equally likely, so every position holds each rank with 1/13 and each suit
//! with 1/4. The cut card: index(2·spread+1) is uniform (rejection), then
//! shifted and clamped to [max(20, round(total/2)), total − 15]: the clamps
//! put the mass of every offset beyond them on the bound ([`cut_distribution`]).
//! `shoe.stream` (bytes, not a game) has nothing to test.
//!
//! A serial sequence is a client seed along nonces (`shoe.deal`) or a
//! tournament along hands (`shoe.tournament`).

use serde_json::Value;

use super::fields::{DECKS, HAND, PENETRATION, TOURNAMENT_ID};
use super::{js_round, RANKS, SUITS};
use crate::base::pyfmt::js_number;
use crate::op::fields::{CLIENT_SEED, NONCE};
use crate::op::stats::{at, uniform, Family, Layout, Model, Step};
use crate::op::Request;

/// The cut card's parameters for a shoe of `decks` decks, as the scheme
/// computes them: (base, spread, low, high).
pub fn cut_parameters(decks: usize, penetration: f64) -> (i64, i64, i64, i64) {
    let count = 52 * decks;
    #[allow(clippy::cast_precision_loss, reason = "at most 416 cards")]
    let total = count as f64;
    let base = js_round(total * penetration);
    let spread = js_round(total * 0.02).max(1);
    let low = js_round(total * 0.5).max(20);
    let high = i64::try_from(count).expect("small") - 15;
    (base, spread, low, high)
}

/// The smallest and largest cut position.
pub fn cut_support(decks: usize, penetration: f64) -> (usize, usize) {
    let (base, spread, low, high) = cut_parameters(decks, penetration);
    let at = |v: i64| usize::try_from(v.clamp(low, high)).expect("within the shoe");
    (at(base - spread), at(base + spread))
}

/// The exact distribution of the cut card's position.
#[derive(Debug, Clone, PartialEq)]
pub struct CutDistribution {
    /// The smallest position with mass.
    pub low: usize,
    /// How many of the 2·spread + 1 equally likely offsets land on each
    /// position from `low` on.
    pub(crate) weights: Vec<u64>,
}

impl CutDistribution {
    pub fn probabilities(&self) -> Vec<f64> {
        let total: u64 = self.weights.iter().sum();
        #[allow(clippy::cast_precision_loss, reason = "at most 17 offsets")]
        self.weights.iter().map(|&w| w as f64 / total as f64).collect()
    }
}

/// The cut card's exact distribution: offset o uniform on [−spread, spread]
/// (a uniform index), cut = clamp(base + o, low, high).
pub fn cut_distribution(decks: usize, penetration: f64) -> CutDistribution {
    let (base, spread, low, high) = cut_parameters(decks, penetration);
    let (lo, hi) = cut_support(decks, penetration);
    let mut weights = vec![0u64; hi - lo + 1];
    for o in -spread..=spread {
        let cut = usize::try_from((base + o).clamp(low, high)).expect("within the shoe");
        weights[cut - lo] += 1;
    }
    CutDistribution { low: lo, weights }
}

/// A family: the deck count and the penetration's bits.
fn family(r: &Request) -> Option<Family> {
    Some(Family {
        a: r.int(DECKS),
        b: r.number(PENETRATION).to_bits(),
    })
}

fn shape(f: Family) -> (usize, usize) {
    let cut = cut_support(f.size(), f64::from_bits(f.b));
    (2 * 52 * f.size() + 1, 13.max(cut.1 - cut.0 + 1))
}

fn layout(f: Family) -> Layout {
    let (decks, penetration) = (f.size(), f64::from_bits(f.b));
    let mut l = Layout::new(format!("decks={decks} penetration={}", js_number(penetration)));
    let names: Vec<String> = (0..52 * decks).map(|p| format!("at position {p}")).collect();
    l.cards(&names, "rank", "suit");
    l.test(
        "cut card position",
        cut_distribution(decks, penetration).probabilities(),
    );
    l.serial(uniform(13))
}

/// A card's label (`"AS"`) as its rank and suit.
fn card_label(v: &Value) -> Option<(u16, u16)> {
    let s = v.as_str()?.as_bytes();
    let (r, u) = (char::from(*s.first()?), char::from(*s.get(1)?));
    let rank = RANKS.iter().position(|&x| x == r)?;
    let suit = SUITS.iter().position(|&x| x == u)?;
    Some((u16::try_from(rank).ok()?, u16::try_from(suit).ok()?))
}

/// Every position's rank and suit and the cut's position; returns the first card's rank.
fn cells_of(f: Family, ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<u16> {
    let cards = ok.get("cards")?.as_array()?;
    let n = cards.len();
    let mut first = 0;
    for (p, c) in cards.iter().enumerate() {
        let (rank, suit) = card_label(c)?;
        cells.push((at(p), rank));
        cells.push((at(n + p), suit));
        if p == 0 {
            first = rank;
        }
    }
    let lo = cut_support(f.size(), f64::from_bits(f.b)).0;
    let cut = usize::try_from(ok.get("cut")?.as_u64()?).ok()?;
    cells.push((at(2 * n), u16::try_from(cut.checked_sub(lo)?).ok()?));
    Some(first)
}

pub(crate) const DEAL: Model = Model {
    family,
    shape,
    layout,
    sample: |f, r, ok, cells| {
        let first = cells_of(f, ok, cells)?;
        Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], r.int(NONCE), first)))
    },
};

pub(crate) const TOURNAMENT: Model = Model {
    family,
    shape,
    layout,
    sample: |f, r, ok, cells| {
        let first = cells_of(f, ok, cells)?;
        Some(Some(Step::new(&[r.text(TOURNAMENT_ID).as_bytes()], r.int(HAND), first)))
    },
};
