//! Cards and hand values.
//!
//! A card is a number 0…51 as in seed 003's `poker_referenz.py`: rank =
//! card % 13 with 0 = ace, 1…8 = two…nine, 9 = ten, 10…12 = jack, queen,
//! king. Blackjack only needs the *count value*: ace 11 (or 1), two…nine
//! their pip value, ten and the faces 10. The published `basisstrategie`
//! compares count values (`kartenwert`), not ranks: a ten and a king are a
//! pair (`istPaar`: "gleicher Zaehlwert, nicht gleicher Rang").
//!
//! Inside this module a card's value is a *pip* 1…10 (ace = 1), because
//! hand totals are sums of pips with one ace promoted to 11 when that does
//! not bust; the count value 2…11 is what the table's dealer column and the
//! op's `dealer` field use.

/// The rank of a card number: 0 = ace … 12 = king.
pub(crate) fn rank(card: u8) -> u8 {
    card % 13
}

/// The pip value of a card number: ace 1, two…nine 2…9, ten and faces 10.
pub fn pip(card: u8) -> u8 {
    (rank(card) + 1).min(10)
}

/// The count value of a card number (`kartenwert`): ace 11, tens and faces 10.
pub(crate) fn count_value(card: u8) -> u8 {
    pip_to_count(pip(card))
}

/// Pip 1…10 to count value 2…11 (ace 1 becomes 11).
pub(crate) fn pip_to_count(pip: u8) -> u8 {
    if pip == 1 {
        11
    } else {
        pip
    }
}

/// A hand's value: the best total and whether an ace counts 11 in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HandValue {
    /// The total with one ace counted 11 if that does not pass 21; above 21 the hand is bust.
    pub total: u8,
    /// True if and only if an ace is counted 11 in `total`.
    pub(crate) soft: bool,
}

/// Running hand state over pips: the hard sum (aces 1) and whether an ace is present.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Hand {
    /// Sum of pips, every ace counted 1.
    pub(crate) hard: u8,
    /// At least one ace.
    pub(crate) ace: bool,
    /// Number of cards.
    pub cards: u8,
}

impl Hand {
    /// Adds a card by its pip 1…10.
    pub fn add(&mut self, pip: u8) {
        self.hard += pip;
        self.ace |= pip == 1;
        self.cards += 1;
    }

    /// The value: at most one ace can count 11 (two would make 22).
    pub(crate) fn value(&self) -> HandValue {
        if self.ace && self.hard + 10 <= 21 {
            HandValue {
                total: self.hard + 10,
                soft: true,
            }
        } else {
            HandValue {
                total: self.hard,
                soft: false,
            }
        }
    }

    /// The hand is over 21 even with every ace counted 1.
    pub(crate) fn bust(&self) -> bool {
        self.hard > 21
    }

    /// Exactly two cards totalling 21: an ace and a ten-valued card.
    pub(crate) fn natural(&self) -> bool {
        self.cards == 2 && self.ace && self.hard == 11
    }
}

/// The value of a list of pips.
pub(crate) fn hand_of_pips(pips: impl IntoIterator<Item = u8>) -> Hand {
    let mut h = Hand::default();
    for p in pips {
        h.add(p);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_poker_referenz_card_numbering() {
        // poker_referenz.py: Rang = Karte % 13 (0 = Ass, 9 = Zehn, 10..12 = Bube, Dame, Koenig).
        assert_eq!(count_value(0), 11, "ace of clubs");
        assert_eq!(count_value(13), 11, "ace of diamonds");
        assert_eq!(count_value(1), 2);
        assert_eq!(count_value(8), 9);
        for face in [9, 10, 11, 12, 22, 51] {
            assert_eq!(count_value(face), 10, "card {face}");
        }
    }

    #[test]
    fn textbook_totals() {
        // A,6 is soft 17; A,6,10 is hard 17; A,A is soft 12; A,A,9 soft 21; 10,6,6 is bust.
        let v = |p: &[u8]| hand_of_pips(p.iter().copied()).value();
        assert_eq!(v(&[1, 6]), HandValue { total: 17, soft: true });
        assert_eq!(v(&[1, 6, 10]), HandValue { total: 17, soft: false });
        assert_eq!(v(&[1, 1]), HandValue { total: 12, soft: true });
        assert_eq!(v(&[1, 1, 9]), HandValue { total: 21, soft: true });
        assert!(hand_of_pips([10, 6, 6]).bust());
        assert!(hand_of_pips([1, 10]).natural());
        assert!(!hand_of_pips([1, 5, 5]).natural());
    }
}
