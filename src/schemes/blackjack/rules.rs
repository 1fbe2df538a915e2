//! The table rules a simulation or an exact calculation plays by.
//!
//! Seed 003 fixes six decks, dealer hits soft 17, double after split and no
//! surrender, and pays blackjack 6:5. It leaves open the deal order, whether
//! the dealer peeks, how often one may split, and whether split aces may be
//! hit. Those are rules here too, with the defaults of the rule-effect table
//! the issue quotes: dealer peeks, resplit to four hands but not aces, one
//! card on each split ace.

use crate::op::error::InvalidInput;

/// Who gets which card of the initial deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DealOrder {
    /// Each seat one card, the dealer's up-card, each seat a second card,
    /// the dealer's hole card: the order at a real table.
    Alternating,
    /// Each seat two cards in a row, then the dealer's up-card and hole card.
    PlayersFirst,
}

impl DealOrder {
    /// The flag value that names it (`--deal-order alternating`).
    pub fn name(self) -> &'static str {
        match self {
            DealOrder::Alternating => "alternating",
            DealOrder::PlayersFirst => "players-first",
        }
    }
}

/// Which two-card hands may be doubled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoubleOn {
    /// Any first two cards (the published table doubles soft hands, so this is its rule).
    Any,
    /// Hard 9, 10 and 11 only.
    NineToEleven,
    /// Hard 10 and 11 only.
    TenEleven,
}

impl DoubleOn {
    /// The flag value that names it (`--double 9-11`).
    pub fn name(self) -> &'static str {
        match self {
            DoubleOn::Any => "any",
            DoubleOn::NineToEleven => "9-11",
            DoubleOn::TenEleven => "10-11",
        }
    }

    /// Whether a two-card hand of this value may be doubled.
    pub(crate) fn allows(self, total: u8, soft: bool) -> bool {
        match self {
            DoubleOn::Any => true,
            DoubleOn::NineToEleven => !soft && (9..=11).contains(&total),
            DoubleOn::TenEleven => !soft && (10..=11).contains(&total),
        }
    }
}

/// A blackjack payout `num:den`, in whole tenths of the bet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payout {
    /// The numerator: a blackjack wins `num / den` times the bet (6 in 6:5).
    pub num: u32,
    /// The denominator (5 in 6:5).
    pub den: u32,
}

impl Payout {
    /// Parses `3:2`, `6:5`, `1:1`, …; the win must be a whole number of tenths.
    pub fn parse(text: &str) -> Result<Payout, InvalidInput> {
        let bad = |why: &str| InvalidInput::new("blackjack-pays", format!("{text:?}: {why}"));
        let (a, b) = text
            .split_once(':')
            .ok_or_else(|| bad("expected NUM:DEN such as 3:2 or 6:5"))?;
        let num: u32 = a.parse().map_err(|_| bad("NUM is not a whole number"))?;
        let den: u32 = b.parse().map_err(|_| bad("DEN is not a whole number"))?;
        if den == 0 || num == 0 || num > 100 * den {
            return Err(bad("NUM and DEN must be positive and NUM/DEN at most 100"));
        }
        if (10 * num) % den != 0 {
            return Err(bad("the win must be a whole number of tenths of the bet"));
        }
        Ok(Payout { num, den })
    }

    /// The win on a bet of 10 tenths.
    pub(crate) fn tenths(self) -> i64 {
        i64::from(10 * self.num / self.den)
    }

    pub(crate) fn ratio(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }
}

impl std::fmt::Display for Payout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.num, self.den)
    }
}

/// The rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Decks in the shoe, 1 to 8.
    pub decks: u8,
    /// H17: the dealer hits soft 17.
    pub hit_soft_17: bool,
    /// Double after split.
    pub das: bool,
    /// The dealer checks for blackjack under an ace or ten before anyone
    /// acts; without a peek, a dealer blackjack takes every bet, doubles and
    /// splits included (the European no-hole-card rule).
    pub peek: bool,
    /// Most hands a seat may hold after splitting (1 = no splitting).
    pub max_hands: u8,
    /// A split ace that receives another ace may be split again (within `max_hands`).
    pub resplit_aces: bool,
    /// A split ace's hand may draw more than one card (and double, where doubling is allowed).
    pub hit_split_aces: bool,
    /// Which two-card hands may be doubled.
    pub double_on: DoubleOn,
    /// What a player blackjack pays.
    pub blackjack_pays: Payout,
    /// Who gets which card of the initial deal.
    pub deal_order: DealOrder,
}

impl Default for Rules {
    /// Seed 003's table with the rule-effect table's assumptions.
    fn default() -> Self {
        Rules {
            decks: 6,
            hit_soft_17: true,
            das: true,
            peek: true,
            max_hands: 4,
            resplit_aces: false,
            hit_split_aces: false,
            double_on: DoubleOn::Any,
            blackjack_pays: Payout { num: 6, den: 5 },
            deal_order: DealOrder::Alternating,
        }
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

impl Rules {
    /// One line with every rule, as the command-line flags that set it.
    pub fn describe(&self) -> String {
        format!(
            "--decks {} --soft-17 {} --das {} --peek {} --max-hands {} --resplit-aces {} --hit-split-aces {} --double {} --blackjack-pays {} --deal-order {} (surrender: none)",
            self.decks,
            if self.hit_soft_17 { "hit" } else { "stand" },
            yes(self.das),
            yes(self.peek),
            self.max_hands,
            yes(self.resplit_aces),
            yes(self.hit_split_aces),
            self.double_on.name(),
            self.blackjack_pays,
            self.deal_order.name(),
        )
    }

    /// Checks the ranges; combinations are checked where the flags are read.
    pub fn check(&self) -> Result<(), InvalidInput> {
        if !(1..=8).contains(&self.decks) {
            return Err(InvalidInput::new("decks", format!("{} is outside 1..=8", self.decks)));
        }
        if !(1..=8).contains(&self.max_hands) {
            return Err(InvalidInput::new(
                "max-hands",
                format!("{} is outside 1..=8", self.max_hands),
            ));
        }
        Ok(())
    }
}
