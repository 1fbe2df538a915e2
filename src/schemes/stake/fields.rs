//! The fields of the `stake` ops that their statistics read too: declared
//! here, below both `ops.rs` and `stats.rs`, so that the ops name their
//! statistics and the statistics name no op.

use super::tables;
use crate::op::Field;

pub(crate) const ROWS: Field = Field::size("rows", 8, 16);
pub(crate) const SEGMENTS: Field = Field::size_of("segments", &tables::SEGMENT_COUNTS);
pub(crate) const MINES_FIELD: Field = Field::size("mines", 1, 24);
