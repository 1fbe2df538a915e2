//! Blackjack (seed 003): the published basic strategy as an op, a house-edge
//! simulation anyone can re-deal, and an exact check of the table.
//!
//! Seed 003 publishes `basisstrategie`, a TypeScript basic-strategy table for
//! its rules (6 decks, dealer hits soft 17, double after split, no
//! surrender, blackjack pays 6:5), and says the binding house edge is the
//! result of a simulation that plays it. This module holds:
//!
//! * [`strategy`]: the table as three charts (pairs, soft, hard, in the
//!   order the published comment insists on) and the input domain
//!   ([`strategy::validate`]); [`ops`], the `blackjack.strategy` op of
//!   protocol v1, and [`vectors`], its canonical vectors;
//!   [`situations::situations`], every legal situation, numbered, for
//!   exhaustive conformance checks;
//! * [`sim`]: rounds dealt from `cursor.shuffle` (verifiable) or a fast
//!   seeded generator, on every core, deterministic for a seed;
//! * [`exact`]: expected values of every action in every cell of the table,
//!   by recursion over the 6-deck shoe less the cards in view, and the
//!   table's edge for the finite shoe;
//! * [`infinite`]: the table's edge for an infinite deck, by separate code,
//!   as an independent check of both.

pub mod cards;
pub mod exact;
pub mod infinite;
pub mod ops;
pub mod report;
pub mod rules;
pub mod sim;
pub mod situations;
pub mod strategy;
pub(crate) mod vectors;

pub(crate) use ops::SCHEME;
pub use rules::Rules;
pub use situations::{situations, Situation};
pub use strategy::{strategy, Action};
