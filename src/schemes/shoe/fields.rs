//! The fields of the shoe's ops that their statistics read too: declared
//! here, below both `ops.rs` and `stats.rs`, so that the ops name their
//! statistics and the statistics name no op.

use super::MAX_DECKS;
use crate::op::{Field, Kind};

pub(crate) const DECKS: Field = Field::size("decks", 1, MAX_DECKS);
pub(crate) const PENETRATION: Field = Field::new("penetration", Kind::Fraction);
pub(crate) const TOURNAMENT_ID: Field = Field::text("tournamentId");
pub(crate) const HAND: Field = Field::counter("hand");
