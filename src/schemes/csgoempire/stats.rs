//! The statistics of `csgoempire.roulette`: roll = v mod 15 for v uniform on
//! the 2³² values of 8 hex digits. 2³² = 15·286,331,153 + 1, so roll 0 has
//! one value more than the others: each cell's exact count over 2³².
//!
//! | family | tests |
//! |---|---|
//! | — | roll (15 cells); serial along the rounds of a public seed |

use super::fields::{PUBLIC_SEED, ROUND};
use super::POCKETS;
use crate::op::stats::{Family, Layout, Model, Step};

/// The exact law of the roll.
pub(crate) fn roll_law() -> Vec<f64> {
    let all: u64 = 1 << 32;
    let (q, r) = (all / u64::from(POCKETS), all % u64::from(POCKETS));
    #[allow(clippy::cast_precision_loss, reason = "counts below 2^32 are exact")]
    (0..u64::from(POCKETS))
        .map(|k| (q + u64::from(k < r)) as f64 / all as f64)
        .collect()
}

pub(crate) const ROULETTE: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (1, 15),
    layout: |_| {
        let mut l = Layout::new("");
        l.test("roll", roll_law());
        l.serial(roll_law())
    },
    sample: |_, r, ok, cells| {
        let roll = u16::try_from(ok.get("roll")?.as_u64()?).ok().filter(|&x| x < 15)?;
        cells.push((0, roll));
        Some(Some(Step::new(&[r.text(PUBLIC_SEED).as_bytes()], r.int(ROUND), roll)))
    },
};
