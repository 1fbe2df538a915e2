//! Blackjack (seed 003): the published basic strategy as an op.
//!
//! Seed 003 publishes `basisstrategie`, a TypeScript basic-strategy table for
//! its rules (6 decks, dealer hits soft 17, double after split, no
//! surrender, blackjack pays 6:5), and says the binding house edge is the
//! result of a simulation that plays it. This module holds:
//!
//! * `strategy`: the table as three charts (pairs, soft, hard, in the
//!   order the published comment insists on) and the input domain
//!   (`strategy::validate`); [`ops`], the `blackjack.strategy` op of
//!   protocol v1 (its canonical vectors are `crate::vectors::blackjack`);
//!   [`situations::situations`], every legal situation, numbered, for
//!   exhaustive conformance checks;
//! * [`cards`] and [`rules`]: the cards and the table's rules.
//!
//! The house edge that plays this table is [`crate::house_edge`].

pub mod cards;
pub mod ops;
pub mod rules;
pub mod situations;
pub mod strategy;

pub use ops::SCHEME;
pub use rules::Rules;
pub use situations::{situations, Situation};
pub use strategy::{strategy, Action};
