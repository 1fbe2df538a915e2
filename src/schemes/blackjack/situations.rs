//! Every legal situation of the `blackjack.strategy` op, for exhaustive checks.
//!
//! Two parts, numbered 0, 1, … in this order ([`situation`] maps a number
//! to its situation, so a generator can pick one uniformly and a run of
//! [`COUNT`] cases can ask each exactly once):
//! * **every two-card hand**: all 52 × 52 ordered pairs of card numbers
//!   (equal numbers too: a 6-deck shoe holds six of each), against every
//!   up-card 2…11, with and without `canDouble`, with and without `canSplit`
//!   where the two cards are a pair, and `doubleAfterSplit` true and false;
//! * **every reachable multi-card hand**: every multiset of 3 or more pip
//!   values whose hard total is at most 21, each written with card numbers
//!   that cycle through the suits (and, for ten-valued cards, through ten,
//!   jack, queen and king) so no card number occurs more than six times,
//!   against every up-card, `canDouble` and `canSplit` false (the domain
//!   allows neither with three cards), `doubleAfterSplit` true and false.
//!
//! Every multi-card total (hard 6…21, soft 13…21) is reached, by every
//! composition that reaches it.

use std::sync::OnceLock;

use serde::Serialize;

use super::cards::count_value;
use super::strategy::{decision, Action, Decision};

/// One request of the op, with the wire's field names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Situation {
    /// The player's cards as card numbers 0 to 51 (`poker_referenz.py`'s numbering; from a 6-deck shoe, so a number may repeat).
    pub cards: Vec<u8>,
    pub(crate) dealer: u8,
    pub(crate) can_double: bool,
    pub(crate) can_split: bool,
    pub(crate) double_after_split: bool,
}

impl Situation {
    /// The table's decision and its cell; every enumerated situation is legal.
    pub(crate) fn decision(&self) -> Decision {
        decision(
            &self.cards,
            self.dealer,
            self.can_double,
            self.can_split,
            self.double_after_split,
        )
        .expect("enumerated situations are legal")
    }

    /// The table's action.
    pub fn action(&self) -> Action {
        self.decision().action
    }
}

/// The card number for the `k`-th card (k < 24) of pip `pip` in a multiset.
fn card_for(pip: u8, k: usize) -> u8 {
    let k = u8::try_from(k).expect("at most 21 cards of a pip");
    if pip == 10 {
        // ten, jack, queen, king, then the next suit
        (k / 4 % 4) * 13 + 9 + k % 4
    } else {
        (k % 4) * 13 + (pip - 1)
    }
}

/// Every multiset of pips 1…10 with `len` ≥ 3 cards and hard total ≤ 21,
/// as card-number lists (pips ascending), in the order they are numbered.
pub(crate) fn multi_card_hands() -> &'static [Vec<u8>] {
    fn grow(min_pip: u8, total: u8, pips: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if pips.len() >= 3 {
            let mut seen = [0usize; 11];
            out.push(
                pips.iter()
                    .map(|&p| {
                        seen[usize::from(p)] += 1;
                        card_for(p, seen[usize::from(p)] - 1)
                    })
                    .collect(),
            );
        }
        for p in min_pip..=10 {
            if total + p > 21 {
                break;
            }
            pips.push(p);
            grow(p, total + p, pips, out);
            pips.pop();
        }
    }
    static HANDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    HANDS.get_or_init(|| {
        let mut out = Vec::new();
        grow(1, 0, &mut Vec::new(), &mut out);
        out
    })
}

/// How many multisets [`multi_card_hands`] lists.
pub(crate) const MULTI_CARD_HANDS: usize = 3_017;

/// Situations per two-card hand: 10 up-cards × `canDouble` × `canSplit`
/// (both values only for a pair) × `doubleAfterSplit`.
fn per_two_card_hand(pair: bool) -> usize {
    if pair {
        80
    } else {
        40
    }
}

/// Two-card situations: 2,704 ordered pairs, 400 of them pairs by count
/// value (each of the nine count values 2…9 and 11 has 4 card numbers, so
/// 16 ordered pairs; the ten-valued 16 card numbers make 256).
const TWO_CARD: usize = (2704 - 400) * 40 + 400 * 80;

/// How many situations there are: 184,500.
pub const COUNT: usize = TWO_CARD + MULTI_CARD_HANDS * 20;

/// Situation number `k` (0 ≤ k < [`COUNT`]), or `None` past the end.
pub fn situation(k: usize) -> Option<Situation> {
    if k < TWO_CARD {
        return Some(two_card(k));
    }
    let k = k - TWO_CARD;
    let cards = multi_card_hands().get(k / 20)?.clone();
    let rest = k % 20;
    Some(Situation {
        cards,
        dealer: 2 + u8::try_from(rest / 2).expect("below 10"),
        can_double: false,
        can_split: false,
        double_after_split: rest % 2 == 0,
    })
}

/// Two-card situation `k` (k < [`TWO_CARD`]): first card, second card,
/// up-card, `canDouble` (false first), `canSplit` (false first), DAS (true first).
fn two_card(mut k: usize) -> Situation {
    for a in 0u8..52 {
        // Cards with a's count value: 16 for ten-valued cards, else 4.
        let pairs_in_row = if count_value(a) == 10 { 16 } else { 4 };
        let row = 52 * 40 + pairs_in_row * 40;
        if k >= row {
            k -= row;
            continue;
        }
        for b in 0u8..52 {
            let pair = count_value(a) == count_value(b);
            let size = per_two_card_hand(pair);
            if k >= size {
                k -= size;
                continue;
            }
            let splits = if pair { 2 } else { 1 };
            let (dealer, rest) = (k / (4 * splits), k % (4 * splits));
            return Situation {
                cards: vec![a, b],
                dealer: 2 + u8::try_from(dealer).expect("below 10"),
                can_double: rest / (2 * splits) == 1,
                can_split: rest % (2 * splits) / 2 == 1,
                double_after_split: rest % 2 == 0,
            };
        }
        unreachable!("a row holds its situations");
    }
    unreachable!("k is below TWO_CARD");
}

/// Every legal situation, in their numbered order: the enumeration written
/// as nested loops, as it was first written. [`situation`] numbers exactly
/// these, in this order (tested), but finds each by counting rows: a walk
/// over all of them (the rare ones are picked out once per run) asking it
/// for each took 24 ms of every harness run's start.
pub fn situations() -> impl Iterator<Item = Situation> {
    let two = (0u8..52).flat_map(|a| {
        (0u8..52).flat_map(move |b| {
            let pair = count_value(a) == count_value(b);
            (2u8..=11).flat_map(move |dealer| {
                [false, true].into_iter().flat_map(move |can_double| {
                    let splits: &[bool] = if pair { &[false, true] } else { &[false] };
                    splits.iter().flat_map(move |&can_split| {
                        [true, false].into_iter().map(move |das| Situation {
                            cards: vec![a, b],
                            dealer,
                            can_double,
                            can_split,
                            double_after_split: das,
                        })
                    })
                })
            })
        })
    });
    let multi = multi_card_hands().iter().flat_map(|cards| {
        (2u8..=11).flat_map(move |dealer| {
            [true, false].into_iter().map(move |das| Situation {
                cards: cards.clone(),
                dealer,
                can_double: false,
                can_split: false,
                double_after_split: das,
            })
        })
    });
    two.chain(multi)
}

#[cfg(test)]
mod tests {
    use super::super::cards::{hand_of_pips, pip};
    use super::*;
    use std::collections::{BTreeSet, HashSet};

    #[test]
    fn numbering_lists_the_nested_enumeration_in_order_and_ends_at_count() {
        let mut n = 0;
        for (k, want) in situations().enumerate() {
            assert_eq!(situation(k).as_ref(), Some(&want), "situation {k}");
            n += 1;
        }
        assert_eq!(n, COUNT);
        assert_eq!(COUNT, 184_500);
        assert_eq!(multi_card_hands().len(), MULTI_CARD_HANDS);
        assert_eq!(situation(COUNT), None);
    }

    #[test]
    fn every_enumerated_situation_is_legal_distinct_and_multi_card_totals_are_all_reached() {
        let mut totals = BTreeSet::new();
        let mut seen = HashSet::new();
        for s in situations() {
            let _ = s.action();
            if s.cards.len() > 2 {
                let v = hand_of_pips(s.cards.iter().map(|&c| pip(c))).value();
                totals.insert((v.soft, v.total));
            }
            assert!(seen.insert(s.clone()), "{s:?} twice");
        }
        let want: BTreeSet<(bool, u8)> = (6..=21)
            .map(|t| (false, t))
            .chain((13..=21).map(|t| (true, t)))
            .collect();
        assert_eq!(totals, want);
    }

    #[test]
    fn the_longest_enumerated_hand_is_21_aces_within_six_copies() {
        let longest = multi_card_hands().iter().max_by_key(|h| h.len()).unwrap();
        assert_eq!(longest.len(), 21);
        for c in longest {
            assert!(longest.iter().filter(|&x| x == c).count() <= 6);
        }
    }
}
