//! The house edge of seed 003's blackjack table: a simulation anyone can
//! re-deal, an exact check of the table, and the report that prints both.
//!
//! The scheme itself (the published basic strategy as an op, the rules, the
//! cards) is [`crate::schemes::blackjack`]; this module only plays it.
//!
//! * [`sim`]: rounds dealt from `cursor.shuffle` (verifiable) or a fast
//!   seeded generator, on every core, deterministic for a seed;
//! * [`exact`]: expected values of every action in every cell of the table,
//!   by recursion over the 6-deck shoe less the cards in view, and the
//!   table's edge for the finite shoe;
//! * [`infinite`]: the table's edge for an infinite deck, by separate code,
//!   as an independent check of both;
//! * [`render`]: the text and JSON that `provably house-edge` prints.

pub mod exact;
pub mod infinite;
pub mod render;
pub mod sim;
