//! The roulette's fields beyond the server seed, read by the op and by its
//! statistics.

use crate::op::Field;

/// The day's public seed.
pub(crate) const PUBLIC_SEED: Field = Field::text("publicSeed");

/// The round number.
pub(crate) const ROUND: Field = Field::counter("round");
