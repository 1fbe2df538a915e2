//! The fields of the `crash` ops that their statistics read too: declared
//! here, below both `ops.rs` and `stats.rs`, so that the ops name their
//! statistics and the statistics name no op.

use crate::op::{Field, FieldDefault, Kind};

/// The instant-crash divisors the sources use: Roobet's 20, 25 and 33,
/// bustabit v1's 101.
pub(crate) const DIVISORS: [u64; 4] = [20, 25, 33, 101];

pub(crate) const DIVISOR: Field = Field::new(
    "divisor",
    Kind::Int {
        min: 20,
        max: 101,
        size: false,
        only: Some(&DIVISORS),
    },
)
.or(FieldDefault::Int(101));
pub(crate) const INSTANT: Field = Field::new(
    "instant",
    Kind::Int {
        min: 0,
        max: 1,
        size: false,
        only: None,
    },
)
.or(FieldDefault::Int(0));
pub(crate) const BCGAME: Field = Field::new("bcgame", Kind::Bool).or(FieldDefault::Bool(false));
