//! The published basic strategy (`basisstrategie`, seed 003) as three charts.
//!
//! The published function decides in a fixed order, and so does
//! `decide`: first the pair chart (only when splitting is allowed), then
//! the soft chart, then the hard chart. The order matters: A,A is a pair
//! *and* soft 12, and is played as a pair.
//!
//! The charts reproduce what the published code *does*, including two
//! places where it does something other than its comments suggest:
//!
//! * **A,A that may not be split is soft 12**, and the published soft branch
//!   starts at soft 13, so soft 12 falls through to the hard rows: it stands
//!   against 4, 5 and 6 like a hard 12. Basic strategy hits soft 12 always.
//!   The row `SOFT[12]` below says so.
//! * **`doubleAfterSplit` never changes the answer.** The only branch that
//!   reads it ("4,4 nur mit Double nach Split; ohne DAS wird gezogen") comes
//!   *after* the split test, so 4,4 is split against 5 and 6 with or without
//!   DAS; and when 4,4 is not split it is a hard 8, which the hard chart hits
//!   anyway. The flag is accepted, validated and documented, and has no
//!   effect, exactly as in the published function.
//!
//! The charts are written from the published lists (`SPLIT_GEGEN`,
//! `SOFT_DOUBLE_GEGEN`, `HART_DOUBLE_GEGEN` and the stand/hit lines), not
//! translated from its control flow; the conformance test runs the published
//! TypeScript on every enumerated situation and compares.

use serde::Serialize;

use super::cards::{count_value, pip, Hand, HandValue};
use crate::op::error::InvalidInput;

/// A decision, with the published function's German names on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Split the pair.
    Teilen,
    /// Double down: double the bet, take one card, stand.
    Verdoppeln,
    /// Stand.
    Stehen,
    /// Hit: take a card.
    Ziehen,
}

impl Action {
    /// The wire name: `teilen`, `verdoppeln`, `stehen` or `ziehen`.
    pub fn name(self) -> &'static str {
        match self {
            Action::Teilen => "teilen",
            Action::Verdoppeln => "verdoppeln",
            Action::Stehen => "stehen",
            Action::Ziehen => "ziehen",
        }
    }

    /// One letter, as strategy charts print it: P (split), D, S, H.
    pub(crate) fn letter(self) -> char {
        match self {
            Action::Teilen => 'P',
            Action::Verdoppeln => 'D',
            Action::Stehen => 'S',
            Action::Ziehen => 'H',
        }
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One chart cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    /// Hit.
    H,
    /// Stand.
    S,
    /// Double if allowed, else hit.
    Dh,
    /// Double if allowed, else stand.
    Ds,
    /// Split (pair chart).
    P,
    /// Do not split: play the hand by the soft or hard chart (pair chart).
    N,
}
use Cell::{Dh, Ds, H, N, P, S};

/// Columns: the dealer's up-card count value 2, 3, …, 10, 11 (ace).
type Row = [Cell; 10];

/// Pairs by count value, index 2…11 (0 and 1 unused). From `SPLIT_GEGEN`.
const PAIRS: [Row; 12] = [
    [N; 10],
    [N; 10],
    /* 2,2   */ [P, P, P, P, P, P, N, N, N, N],
    /* 3,3   */ [P, P, P, P, P, P, N, N, N, N],
    /* 4,4   */ [N, N, N, P, P, N, N, N, N, N],
    /* 5,5   */ [N; 10],
    /* 6,6   */ [P, P, P, P, P, N, N, N, N, N],
    /* 7,7   */ [P, P, P, P, P, P, N, N, N, N],
    /* 8,8   */ [P; 10],
    /* 9,9   */ [P, P, P, P, P, N, P, P, N, N],
    /* 10,10 */ [N; 10],
    /* A,A   */ [P; 10],
];

/// Soft totals, index 12…21 (0…11 unused). From `SOFT_DOUBLE_GEGEN` and
/// the soft stand/hit lines; soft 12 is the published fall-through to hard 12.
const SOFT: [Row; 22] = {
    let mut t = [[H; 10]; 22];
    t[12] = [H, H, S, S, S, H, H, H, H, H];
    t[13] = [H, H, H, Dh, Dh, H, H, H, H, H];
    t[14] = [H, H, H, Dh, Dh, H, H, H, H, H];
    t[15] = [H, H, Dh, Dh, Dh, H, H, H, H, H];
    t[16] = [H, H, Dh, Dh, Dh, H, H, H, H, H];
    t[17] = [H, Dh, Dh, Dh, Dh, H, H, H, H, H];
    t[18] = [Ds, Ds, Ds, Ds, Ds, S, S, H, H, H];
    t[19] = [S, S, S, S, Ds, S, S, S, S, S];
    t[20] = [S; 10];
    t[21] = [S; 10];
    t
};

/// Hard totals, index 4…21 (0…3 unused). From `HART_DOUBLE_GEGEN` and the
/// hard stand/hit lines.
const HARD: [Row; 22] = {
    let mut t = [[H; 10]; 22];
    t[9] = [H, Dh, Dh, Dh, Dh, H, H, H, H, H];
    t[10] = [Dh, Dh, Dh, Dh, Dh, Dh, Dh, Dh, H, H];
    t[11] = [Dh; 10];
    t[12] = [H, H, S, S, S, H, H, H, H, H];
    let mut total = 13;
    while total <= 16 {
        t[total] = [S, S, S, S, S, H, H, H, H, H];
        total += 1;
    }
    while total <= 21 {
        t[total] = [S; 10];
        total += 1;
    }
    t
};

/// Which chart a decision was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Chart {
    Pair,
    Soft,
    Hard,
}

impl Chart {
    pub fn name(self) -> &'static str {
        match self {
            Chart::Pair => "pair",
            Chart::Soft => "soft",
            Chart::Hard => "hard",
        }
    }
}

/// A decision with the cell it was read from: what `explain` and the
/// vectors' flags say about a situation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Decision {
    pub action: Action,
    /// The chart whose cell decided.
    pub(crate) chart: Chart,
    /// The row: the pair's count value (pair chart) or the total.
    pub(crate) row: u8,
    /// The column: the up-card's count value 2…11.
    pub(crate) dealer: u8,
    /// The pair row that was consulted and said "do not split", if any.
    pub(crate) pair_declined: Option<u8>,
    /// The cell says double, but doubling is not allowed.
    pub(crate) double_refused: bool,
}

/// The published decision for a hand that is not bust.
///
/// `pair` is the count value of a two-card pair (2…11) or `None`; `dealer`
/// is the up-card's count value 2…11. No validation: the caller has a legal
/// situation (see [`strategy`] for the checked entry point).
pub(crate) fn decide(value: HandValue, pair: Option<u8>, dealer: u8, can_double: bool, can_split: bool) -> Action {
    decide_traced(value, pair, dealer, can_double, can_split).action
}

/// [`decide`], with the cell the decision was read from.
pub(crate) fn decide_traced(
    value: HandValue,
    pair: Option<u8>,
    dealer: u8,
    can_double: bool,
    can_split: bool,
) -> Decision {
    let col = usize::from(dealer - 2);
    let consulted = pair.filter(|_| can_split);
    if let Some(p) = consulted {
        if PAIRS[usize::from(p)][col] == P {
            return Decision {
                action: Action::Teilen,
                chart: Chart::Pair,
                row: p,
                dealer,
                pair_declined: None,
                double_refused: false,
            };
        }
    }
    let (chart, rows) = if value.soft {
        (Chart::Soft, &SOFT)
    } else {
        (Chart::Hard, &HARD)
    };
    let cell = rows[usize::from(value.total)][col];
    let action = match cell {
        H => Action::Ziehen,
        S => Action::Stehen,
        Dh | Ds if can_double => Action::Verdoppeln,
        Dh => Action::Ziehen,
        Ds => Action::Stehen,
        P | N => unreachable!("split cells live in the pair chart only"),
    };
    Decision {
        action,
        chart,
        row: value.total,
        dealer,
        pair_declined: consulted,
        double_refused: matches!(cell, Dh | Ds) && !can_double,
    }
}

/// The most cards a hand can hold without being bust: 21 aces (a 6-deck
/// shoe has 24). Longer lists are refused before they are read.
pub(crate) const MAX_CARDS: usize = 21;

/// How many of each card number a shoe of the published rules (6 decks) holds.
pub(crate) const COPIES: usize = 6;

/// Holds each field to its own limits at wire width, and returns the cards
/// and the up-card narrowed. These are the limits the op's request parser
/// enforces from the field declarations (`src/schemes/blackjack/ops.rs`); this is
/// the same check for callers of the library that do not go through it.
///
/// * `cards`: 2…21 card numbers 0…51; no card number more than 6 times (the
///   table is for a 6-deck shoe).
/// * `dealer`: the up-card's count value 2…11 (ace = 11).
fn check_fields(cards: &[u64], dealer: u64) -> Result<(Vec<u8>, u8), InvalidInput> {
    let n = cards.len();
    if n < 2 {
        return Err(InvalidInput::new(
            "cards",
            format!("{n} card(s); a hand has at least 2"),
        ));
    }
    if n > MAX_CARDS {
        return Err(InvalidInput::new(
            "cards",
            format!("{n} cards; a hand that is not bust has at most {MAX_CARDS}"),
        ));
    }
    let mut copies = [0usize; 52];
    let mut narrow = Vec::with_capacity(n);
    for (i, &c) in cards.iter().enumerate() {
        let Some(card) = u8::try_from(c).ok().filter(|&c| c <= 51) else {
            return Err(InvalidInput::new(
                "cards",
                format!("card {c} at position {i} is outside 0..=51"),
            ));
        };
        copies[usize::from(card)] += 1;
        if copies[usize::from(card)] > COPIES {
            return Err(InvalidInput::new(
                "cards",
                format!("card {card} appears more than {COPIES} times; a 6-deck shoe holds {COPIES} of each"),
            ));
        }
        narrow.push(card);
    }
    match u8::try_from(dealer) {
        Ok(d) if (2..=11).contains(&d) => Ok((narrow, d)),
        _ => Err(InvalidInput::new("dealer", format!("{dealer} is outside 2..=11"))),
    }
}

/// Checks the rules that tie the fields together, for a situation whose
/// fields are each within their limits, and returns the hand.
///
/// * `cards` not bust: hard total (aces 1) at most 21. A two-card 21 is
///   allowed: after a split it is an ordinary 21, and the published
///   function answers it (`stehen`).
/// * `canDouble`: only with exactly two cards (doubling is a first-two-cards
///   decision in the published rules; the table doubles soft hands, so "any
///   two cards").
/// * `canSplit`: only with exactly two cards of equal count value
///   (`istPaar`: equal count value, not equal rank; K,10 is a pair).
/// * `doubleAfterSplit`: any boolean; the table is the same either way.
pub(crate) fn validate(cards: &[u8], can_double: bool, can_split: bool) -> Result<Hand, InvalidInput> {
    let n = cards.len();
    let hand = super::cards::hand_of_pips(cards.iter().map(|&c| pip(c)));
    if hand.bust() {
        return Err(InvalidInput::new(
            "cards",
            format!(
                "the hand is bust (hard total {}); there is no decision to make",
                hand.hard
            ),
        ));
    }
    if can_double && n != 2 {
        return Err(InvalidInput::new(
            "canDouble",
            format!("true with {n} cards; doubling is only allowed on the first two cards"),
        ));
    }
    if can_split {
        if n != 2 {
            return Err(InvalidInput::new(
                "canSplit",
                format!("true with {n} cards; only a two-card pair can be split"),
            ));
        }
        let (a, b) = (count_value(cards[0]), count_value(cards[1]));
        if a != b {
            return Err(InvalidInput::new(
                "canSplit",
                format!("true but the cards are not a pair (count values {a} and {b})"),
            ));
        }
    }
    Ok(hand)
}

/// The count value of a two-card pair, or `None`.
pub(crate) fn pair_of(cards: &[u8]) -> Option<u8> {
    match cards {
        [a, b] if count_value(*a) == count_value(*b) => Some(count_value(*a)),
        _ => None,
    }
}

/// The published table's decision, with its cell, for a situation whose
/// fields are each within their limits (what the op's parser hands over):
/// the cross-field rules of [`validate`] are checked here.
/// `double_after_split` is accepted and, as in the published function,
/// changes no answer.
pub(crate) fn decision(
    cards: &[u8],
    dealer: u8,
    can_double: bool,
    can_split: bool,
    double_after_split: bool,
) -> Result<Decision, InvalidInput> {
    let hand = validate(cards, can_double, can_split)?;
    let _ = double_after_split;
    Ok(decide_traced(
        hand.value(),
        pair_of(cards),
        dealer,
        can_double,
        can_split,
    ))
}

/// The `blackjack.strategy` op as a library function: the published table's
/// action for a situation given at wire width.
///
/// `cards` and `dealer` are taken as `u64` so that no value is narrowed
/// before it is checked: first each field against its limits (the op's
/// parser does the same from the declarations), then the rules that tie
/// the fields together (`validate`).
pub fn strategy(
    cards: &[u64],
    dealer: u64,
    can_double: bool,
    can_split: bool,
    double_after_split: bool,
) -> Result<Action, InvalidInput> {
    let (cards, dealer) = check_fields(cards, dealer)?;
    decision(&cards, dealer, can_double, can_split, double_after_split).map(|d| d.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(cards: &[u64], dealer: u64, d: bool, s: bool) -> Action {
        strategy(cards, dealer, d, s, true).unwrap()
    }

    // Card numbers: rank = card % 13, 0 = ace, 9 = ten, 12 = king.
    const A: u64 = 0;
    const TEN: u64 = 9;
    const KING: u64 = 12;

    #[test]
    fn published_lists_cell_by_cell() {
        // Straight from the published comments and lists.
        assert_eq!(act(&[A, 13], 6, true, true), Action::Teilen, "Asse immer");
        assert_eq!(act(&[TEN, KING], 6, true, true), Action::Stehen, "Zehner nie");
        assert_eq!(act(&[8, 21], 7, true, true), Action::Stehen, "9,9 nicht gegen 7");
        assert_eq!(act(&[8, 21], 8, true, true), Action::Teilen, "9,9 gegen 8");
        assert_eq!(act(&[4, 17], 6, true, true), Action::Verdoppeln, "5,5 als harte 10");
        assert_eq!(
            act(&[A, 6], 2, true, false),
            Action::Verdoppeln,
            "Soft 18 gegen 2 (H17)"
        );
        assert_eq!(act(&[A, 7], 6, true, false), Action::Verdoppeln, "Soft 19 gegen 6");
        assert_eq!(act(&[A, 7], 6, false, false), Action::Stehen, "Soft 19 ohne Double");
        assert_eq!(act(&[A, 9], 5, false, false), Action::Stehen, "Soft 21");
        assert_eq!(act(&[8, 1], 11, true, false), Action::Verdoppeln, "11 gegen Ass");
        assert_eq!(act(&[TEN, 5], 10, true, false), Action::Ziehen, "16 gegen 10");
        assert_eq!(act(&[TEN, 1], 3, true, false), Action::Ziehen, "12 gegen 3");
        assert_eq!(act(&[TEN, 1], 4, true, false), Action::Stehen, "12 gegen 4");
    }

    #[test]
    fn soft_18_without_double_stands_to_8_and_hits_9_up() {
        for d in 2..=8 {
            assert_eq!(act(&[A, 2, 3], d, false, false), Action::Stehen, "dealer {d}");
        }
        for d in 9..=11 {
            assert_eq!(act(&[A, 2, 3], d, false, false), Action::Ziehen, "dealer {d}");
        }
    }

    #[test]
    fn unsplittable_aces_play_as_hard_12_as_published() {
        // The published soft branch starts at soft 13; A,A falls to the hard 12 row.
        assert_eq!(act(&[A, 13], 5, true, false), Action::Stehen);
        assert_eq!(act(&[A, 13], 3, true, false), Action::Ziehen);
    }

    #[test]
    fn double_after_split_changes_no_answer() {
        for d in 2..=11 {
            for cards in [[3u64, 16], [1, 14], [5, 18], [A, 13]] {
                let with = strategy(&cards, d, true, true, true).unwrap();
                let without = strategy(&cards, d, true, true, false).unwrap();
                assert_eq!(with, without, "{cards:?} vs {d}");
            }
        }
    }

    #[test]
    fn bad_input_names_its_field() {
        let field = |r: Result<Action, InvalidInput>| r.unwrap_err().field;
        assert_eq!(field(strategy(&[5], 5, false, false, true)), "cards");
        assert_eq!(field(strategy(&[5, 52], 5, false, false, true)), "cards");
        assert_eq!(field(strategy(&[TEN, KING, 5], 5, false, false, true)), "cards", "bust");
        assert_eq!(field(strategy(&[0; 7], 5, false, false, true)), "cards", "7 copies");
        assert_eq!(field(strategy(&[0; 22], 5, false, false, true)), "cards", "22 cards");
        assert_eq!(field(strategy(&[1, 2], 1, false, false, true)), "dealer");
        assert_eq!(field(strategy(&[1, 2], 12, false, false, true)), "dealer");
        assert_eq!(field(strategy(&[1, 2, 3], 5, true, false, true)), "canDouble");
        assert_eq!(field(strategy(&[1, 2], 5, false, true, true)), "canSplit");
        assert_eq!(field(strategy(&[1, 14, 27], 5, false, true, true)), "canSplit");
    }

    #[test]
    fn the_largest_legal_hand_is_21_aces() {
        let aces: Vec<u64> = (0..21).map(|i| [0, 13, 26, 39][i % 4]).collect();
        assert_eq!(act(&aces, 10, false, false), Action::Stehen);
    }
}
