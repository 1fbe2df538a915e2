//! The statistics of `freebitco.roll`: the roll is a non-decreasing function
//! of x, uniform on the 2³² values of 8 hex digits, so the x that give a
//! roll below r are a prefix [0, X(r)) of them, and X(r) is found by
//! bisection on the roll's own function: exact, with no formula to trust.
//! The test is on the roll in steps of 200, min(⌊roll/200⌋, 49) (50 cells:
//! the last holds 9,800 ..= 10,000; a cell of 10,000 alone, half as likely
//! as any other roll, would expect 20 counts only past 400,000 rolls, and
//! cells of 100 only past 2,000).
//!
//! | family | tests |
//! |---|---|
//! | — | min(⌊roll/200⌋, 49) (50 cells); serial along the nonces of a seed pair |

use super::roll_of;
use crate::op::fields::{CLIENT_SEED, NONCE};
use crate::op::stats::{Family, Layout, Model, Step};

/// Rolls per cell, and the cells (the last also holds 10,000).
const WIDTH: u16 = 200;
const CELLS: usize = 50;

/// How many x < 2³² give a roll below `r`.
pub(crate) fn below(r: u16) -> u64 {
    let (mut lo, mut hi) = (0u64, 1u64 << 32);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if roll_of(u32::try_from(mid).expect("below 2^32")) < r {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The exact law of min(⌊roll/200⌋, 49).
pub(crate) fn steps_law() -> Vec<f64> {
    let mut bounds: Vec<u64> = (0..CELLS)
        .map(|j| below(u16::try_from(j).expect("small") * WIDTH))
        .collect();
    bounds.push(1 << 32);
    #[allow(clippy::cast_precision_loss, reason = "counts up to 2^32 are exact")]
    bounds
        .windows(2)
        .map(|w| (w[1] - w[0]) as f64 / 4_294_967_296.0)
        .collect()
}

pub(crate) const ROLL: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (1, CELLS),
    layout: |_| {
        let mut l = Layout::new("");
        l.test("roll in steps of 200", steps_law());
        l.serial(steps_law())
    },
    sample: |_, r, ok, cells| {
        let cell = small_cell(ok.get("roll")?.as_u64()?)?;
        cells.push((0, cell));
        Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], r.int(NONCE), cell)))
    },
};

fn small_cell(roll: u64) -> Option<u16> {
    let last = u16::try_from(CELLS - 1).expect("small");
    u16::try_from(roll)
        .ok()
        .filter(|&r| r <= 10_000)
        .map(|r| (r / WIDTH).min(last))
}
