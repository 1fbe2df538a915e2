//! A toy game, `toy.coin`: heads or tails, ⌊f·2⌋ of the first float of
//! Stake's stream (src/schemes/stake/mod.rs) for a server seed, a client
//! seed and a nonce. 0 is heads, 1 tails.
//!
//! It is no published game: it exists behind the cargo feature `toy` to
//! show that a new game is the few files docs/contributing.md lists
//! (`ops.rs` and `stats.rs` here, its vectors, its JS twin, its mutant),
//! and CI builds and tests it end to end (`make test-toy`).

pub mod ops;
pub mod stats;

pub use ops::SCHEME;

use crate::schemes::stake::Floats;

/// The coin's sides, by ⌊f·2⌋.
pub const SIDES: [&str; 2] = ["heads", "tails"];

/// The side a bet lands on: ⌊f·2⌋ of its first float.
pub(crate) fn flip(server_seed: &str, client_seed: &str, nonce: u64) -> usize {
    let f = Floats::new(server_seed, client_seed, nonce).next_float();
    // f < 1, so f·2 < 2; f·2 is exact in binary64.
    usize::from(f >= 0.5)
}
