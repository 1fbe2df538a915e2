//! The fields of the `dice` ops that their statistics read too: declared
//! here, below both `ops.rs` and `stats.rs`, so that the ops name their
//! statistics and the statistics name no op.

use crate::op::Field;

/// The die's number in the game.
pub(crate) const N: Field = Field::counter("n");
