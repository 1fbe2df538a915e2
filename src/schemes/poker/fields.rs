//! The fields of the `poker` ops that their statistics read too: declared
//! here, below both `ops.rs` and `stats.rs`, so that the ops name their
//! statistics and the statistics name no op.

use super::PLAYERS;
use crate::op::Field;

pub(crate) const PLAYERS_FIELD: Field = Field::size("players", *PLAYERS.start(), *PLAYERS.end());
