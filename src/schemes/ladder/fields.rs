//! The fields of the `ladder` ops that their statistics read too: declared
//! here, below both `ops.rs` and `stats.rs`, so that the ops name their
//! statistics and the statistics name no op.

use super::DEFAULT_SIZE;
use crate::op::error::MAX_COUNT;
use crate::op::Field;

pub(crate) const SIZE: Field = Field::size("size", 1, MAX_COUNT).cli_default(DEFAULT_SIZE);
