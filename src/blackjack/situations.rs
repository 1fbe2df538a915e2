//! Every legal situation of the `blackjack.strategy` op, for exhaustive checks.
//!
//! Two parts:
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

use serde::Serialize;

use super::strategy::{strategy, Action};

/// One request of the op, with the wire's field names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Situation {
    pub cards: Vec<u8>,
    pub dealer: u8,
    pub can_double: bool,
    pub can_split: bool,
    pub double_after_split: bool,
}

impl Situation {
    /// The table's action; every enumerated situation is legal.
    pub fn action(&self) -> Action {
        let cards: Vec<u64> = self.cards.iter().map(|&c| u64::from(c)).collect();
        strategy(
            &cards,
            u64::from(self.dealer),
            self.can_double,
            self.can_split,
            self.double_after_split,
        )
        .expect("enumerated situations are legal")
    }
}

/// The card number for the `k`-th card of pip `pip` in a multiset.
fn card_for(pip: u8, k: usize) -> u8 {
    let k = k as u8;
    if pip == 10 {
        // ten, jack, queen, king, then the next suit
        (k / 4 % 4) * 13 + 9 + k % 4
    } else {
        (k % 4) * 13 + (pip - 1)
    }
}

/// Every multiset of pips 1…10 with `len` ≥ 3 cards and hard total ≤ 21,
/// as card-number lists (pips ascending).
pub fn multi_card_hands() -> Vec<Vec<u8>> {
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
    let mut out = Vec::new();
    grow(1, 0, &mut Vec::new(), &mut out);
    out
}

/// Every legal situation, two-card hands first.
pub fn situations() -> impl Iterator<Item = Situation> {
    let two = (0u8..52).flat_map(|a| {
        (0u8..52).flat_map(move |b| {
            let pair = super::cards::count_value(a) == super::cards::count_value(b);
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
    let multi = multi_card_hands().into_iter().flat_map(|cards| {
        (2u8..=11).flat_map(move |dealer| {
            let cards = cards.clone();
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
    use std::collections::BTreeSet;

    #[test]
    fn every_enumerated_situation_is_legal_and_multi_card_totals_are_all_reached() {
        let mut totals = BTreeSet::new();
        let mut n = 0;
        for s in situations() {
            let _ = s.action();
            if s.cards.len() > 2 {
                let v = hand_of_pips(s.cards.iter().map(|&c| pip(c))).value();
                totals.insert((v.soft, v.total));
            }
            n += 1;
        }
        let want: BTreeSet<(bool, u8)> = (6..=21)
            .map(|t| (false, t))
            .chain((13..=21).map(|t| (true, t)))
            .collect();
        assert_eq!(totals, want);
        // 2704 ordered pairs, of which 9·16 + 256 = 400 are pairs by count value.
        let two = (2704 + 400) * 10 * 2 * 2;
        assert_eq!(n, two + multi_card_hands().len() * 10 * 2);
    }

    #[test]
    fn the_longest_enumerated_hand_is_21_aces_within_six_copies() {
        let longest = multi_card_hands().into_iter().max_by_key(Vec::len).unwrap();
        assert_eq!(longest.len(), 21);
        for c in &longest {
            assert!(longest.iter().filter(|&x| x == c).count() <= 6);
        }
    }
}
