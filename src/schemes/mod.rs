//! The schemes, one folder each: the algorithm (`mod.rs`) and its ops
//! (`ops.rs`), above the op table and below the registry. A scheme may
//! build on another's primitives (Stake's bytes are the shoe's stream) but
//! names no layer above it.

pub(crate) mod bcgame;
pub mod blackjack;
pub mod crash;
pub(crate) mod csgoempire;
pub mod cursor;
pub mod dice;
pub(crate) mod freebitco;
pub mod ladder;
pub(crate) mod lucky;
pub mod poker;
pub mod selfpoker;
pub mod shoe;
pub(crate) mod skinclub;
pub mod stake;
#[cfg(feature = "toy")]
pub mod toy;
