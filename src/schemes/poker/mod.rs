//! Texas hold'em on the `cursor` scheme (seed 003, `poker_referenz.py`).
//!
//! The deck is `cursor` shuffle(52) at cursor 0. Card c has rank c % 13
//! (0 = ace, 9 = ten, 10..12 = J Q K) and suit c / 13 (♣ ♦ ♥ ♠).
//!
//! The evaluator is built differently from the published one on purpose: it
//! reads the category off rank counts and per-suit rank bit masks instead of
//! trying every five-card combination, so that a shared mistake is unlikely.

use serde::Serialize;

use crate::schemes::cursor::Round;

pub mod fields;
pub mod ops;
pub mod stats;

pub use ops::SCHEME;

/// The category names exactly as `poker_referenz.py` prints them, weakest first.
pub const CATEGORIES: [&str; 9] = [
    "high_card",
    "paar",
    "zwei_paare",
    "drilling",
    "strasse",
    "flush",
    "full_house",
    "vierling",
    "straight_flush",
];

/// The most and fewest players a deal has positions for: the river of 22
/// players is card 51.
pub(crate) const PLAYERS: std::ops::RangeInclusive<u64> = 2..=22;

/// The cards of one hand, as the published program reads them off the deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Deal {
    /// Each seat's two hole cards (card numbers 0 to 51), seat by seat.
    pub hole: Vec<[u8; 2]>,
    /// The flop, turn and river, each read past one burn card.
    pub board: [u8; 5],
}

/// Deck positions for `n` players: hole cards (i, n + i), then flop, turn and
/// river with one burn card before each.
pub(crate) fn positions(n: usize) -> (Vec<[usize; 2]>, [usize; 5]) {
    let hole = (0..n).map(|i| [i, n + i]).collect();
    (hole, [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7])
}

/// Shuffles the deck for one hand and deals `players` seats.
///
/// # Panics
/// When `players` is outside `PLAYERS`: there are no positions for them.
pub fn deal(server_seed: &str, client_seed: &str, nonce: u64, players: usize) -> Deal {
    assert!(
        PLAYERS.contains(&(players as u64)),
        "{players} players: 2 to 22 have positions"
    );
    let (deck, _) = Round::new(server_seed, client_seed, nonce).shuffle(52, 0);
    let card = |p: usize| u8::try_from(deck[p]).expect("a card is below 52");
    let (hole, board) = positions(players);
    Deal {
        hole: hole.iter().map(|&[a, b]| [card(a), card(b)]).collect(),
        board: board.map(card),
    }
}

/// The best five-card hand: category index into [`CATEGORIES`] and five
/// ranks (ace = 14, a wheel straight is 5-high), padded with zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hand {
    pub(crate) category: u8,
    pub(crate) ranks: [u8; 5],
}

impl Hand {
    pub(crate) fn category_name(&self) -> &'static str {
        CATEGORIES[self.category as usize]
    }
}

/// Reads a card written as rank and suit, `9c`, `Td`, `As` (ranks A 2-9 T J Q
/// K, suits c d h s for ♣ ♦ ♥ ♠, either case): its number c, with rank
/// c % 13 (0 = ace) and suit c / 13.
pub(crate) fn card_from_text(text: &str) -> Option<u8> {
    let mut chars = text.chars();
    let (r, s) = (chars.next()?, chars.next()?);
    if chars.next().is_some() {
        return None;
    }
    let rank = "A23456789TJQK".find(r.to_ascii_uppercase())?;
    let suit = "cdhs".find(s.to_ascii_lowercase())?;
    u8::try_from(suit * 13 + rank).ok()
}

/// Poker rank of card c: 2..=14 with the ace high.
fn rank(card: u8) -> u8 {
    match card % 13 {
        0 => 14,
        r => r + 1,
    }
}

/// Returns the highest card of a straight within `mask` (bit r set for rank
/// r, with the ace also at bit 1), or `None`.
fn straight_high(mask: u16) -> Option<u8> {
    (5..=14u8).rev().find(|&h| (mask >> (h - 4)) & 0b11111 == 0b11111)
}

/// Pads `ranks` with zeros to five.
fn pad(ranks: &[u8]) -> [u8; 5] {
    let mut out = [0u8; 5];
    out[..ranks.len()].copy_from_slice(ranks);
    out
}

/// The cards by rank: how many of each rank (2 ..= 14), each suit's ranks as
/// a bit mask, and all ranks as one; an ace sets bit 1 too, for the wheel.
///
/// # Panics
/// As [`evaluate`].
fn tally(cards: &[u8]) -> ([u8; 15], [u16; 4], u16) {
    assert!(
        (5..=7).contains(&cards.len()),
        "{} cards: 5 to 7 are evaluated",
        cards.len()
    );
    let mut seen = 0u64;
    let mut counts = [0u8; 15];
    let mut suit_masks = [0u16; 4];
    let mut all = 0u16;
    for &c in cards {
        assert!(
            c <= 51 && seen & (1 << c) == 0,
            "card {c} is not a card or appears twice"
        );
        seen |= 1 << c;
        let r = rank(c);
        counts[r as usize] += 1;
        let bit = 1 << r | if r == 14 { 1 << 1 } else { 0 };
        suit_masks[(c / 13) as usize] |= bit;
        all |= bit;
    }

    (counts, suit_masks, all)
}

/// Returns the best five-card hand among 5 to 7 distinct cards in 0..52.
///
/// # Panics
/// When there are fewer than 5 or more than 7 cards, a card above 51, or a
/// card twice (the protocol's `cards` field cannot hold such a list).
pub fn evaluate(cards: &[u8]) -> Hand {
    let (counts, suit_masks, all) = tally(cards);

    // Ranks with at least `n` cards, highest first.
    let with = |n: u8| (2..=14u8).rev().filter(move |&r| counts[r as usize] >= n);
    // The highest `k` ranks not in `skip`, one per rank.
    let kickers = |skip: &[u8], k: usize| -> Vec<u8> {
        (2..=14u8)
            .rev()
            .filter(|r| counts[*r as usize] > 0 && !skip.contains(r))
            .take(k)
            .collect()
    };

    // With at most seven cards a flush rules out quads and a full house, so
    // the flush suit is decided first.
    if let Some(&suit) = suit_masks.iter().find(|m| (*m >> 2).count_ones() >= 5) {
        if let Some(h) = straight_high(suit) {
            return Hand {
                category: 8,
                ranks: pad(&[h]),
            };
        }
        let top: Vec<u8> = (2..=14u8).rev().filter(|r| suit & (1 << r) != 0).take(5).collect();
        return Hand {
            category: 5,
            ranks: pad(&top),
        };
    }
    if let Some(q) = with(4).next() {
        return Hand {
            category: 7,
            ranks: pad(&[q, kickers(&[q], 1)[0]]),
        };
    }
    let trips: Vec<u8> = with(3).collect();
    if let Some(&t) = trips.first() {
        if let Some(p) = with(2).find(|&r| r != t) {
            return Hand {
                category: 6,
                ranks: pad(&[t, p]),
            };
        }
    }
    if let Some(h) = straight_high(all) {
        return Hand {
            category: 4,
            ranks: pad(&[h]),
        };
    }
    if let Some(&t) = trips.first() {
        let k = kickers(&[t], 2);
        return Hand {
            category: 3,
            ranks: pad(&[t, k[0], k[1]]),
        };
    }
    let pairs: Vec<u8> = with(2).collect();
    if pairs.len() >= 2 {
        let (hi, lo) = (pairs[0], pairs[1]);
        return Hand {
            category: 2,
            ranks: pad(&[hi, lo, kickers(&[hi, lo], 1)[0]]),
        };
    }
    if let Some(&p) = pairs.first() {
        let k = kickers(&[p], 3);
        return Hand {
            category: 1,
            ranks: pad(&[p, k[0], k[1], k[2]]),
        };
    }
    Hand {
        category: 0,
        ranks: pad(&kickers(&[], 5)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Card number of rank r (2..=14) in suit s.
    fn card(r: u8, s: u8) -> u8 {
        s * 13 + if r == 14 { 0 } else { r - 1 }
    }

    #[test]
    fn wheel_is_a_five_high_straight() {
        let h = evaluate(&[card(14, 0), card(2, 1), card(3, 2), card(4, 3), card(5, 0)]);
        assert_eq!((h.category_name(), h.ranks), ("strasse", [5, 0, 0, 0, 0]));
    }

    #[test]
    fn three_pairs_keep_the_third_pair_as_a_kicker() {
        let cards = [
            card(9, 0),
            card(9, 1),
            card(7, 0),
            card(7, 1),
            card(5, 2),
            card(5, 3),
            card(2, 0),
        ];
        let h = evaluate(&cards);
        assert_eq!((h.category_name(), h.ranks), ("zwei_paare", [9, 7, 5, 0, 0]));
    }
}
