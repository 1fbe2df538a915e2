//! The statistics of `skinclub.roll`: roll − 1 = v mod 100,000 for v
//! uniform on the 2⁶⁰ values of 15 hex digits. 2⁶⁰ = 100,000·q + 46,976,
//! so the residues below 46,976 have q + 1 values each and the others q:
//! not uniform, by about 10⁻¹¹. The test is on the roll in steps of 2,000,
//! ⌊(roll − 1)/2000⌋ (50 cells), each with its exact count over 2⁶⁰. (Cells
//! of 1,000 expect 20 counts, the least a table is tested with, only past
//! 2,000 rolls: the cells without the extra value hold just under 1/100.)
//!
//! | family | tests |
//! |---|---|
//! | — | ⌊(roll − 1)/2000⌋ (50 cells); serial along the nonces of a seed pair |

use super::ROLLS;
use crate::op::fields::{CLIENT_SEED, NONCE};
use crate::op::stats::{Family, Layout, Model, Step};

/// Rolls per cell.
const WIDTH: u64 = 2000;

/// The exact law of ⌊(roll − 1)/2000⌋: each cell's count of the 2⁶⁰
/// values over 2⁶⁰.
pub(crate) fn steps_law() -> Vec<f64> {
    let all: u64 = 1 << 60;
    let (q, r) = (all / ROLLS, all % ROLLS);
    (0..ROLLS / WIDTH)
        .map(|j| share(WIDTH * q + r.saturating_sub(j * WIDTH).min(WIDTH), all))
        .collect()
}

/// count / all, the count rounded to a double once (as JavaScript's
/// `Number(bigint)` does), then divided by a power of two exactly.
#[allow(clippy::cast_precision_loss, reason = "the one rounding the law states")]
fn share(count: u64, all: u64) -> f64 {
    count as f64 / all as f64
}

pub(crate) const ROLL: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (1, 50),
    layout: |_| {
        let mut l = Layout::new("");
        l.test("roll in steps of 2,000", steps_law());
        l.serial(steps_law())
    },
    sample: |_, r, ok, cells| {
        let roll = ok.get("roll")?.as_u64()?;
        let cell = u16::try_from(roll.checked_sub(1)? / WIDTH).ok()?;
        cells.push((0, cell));
        Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], r.int(NONCE), cell)))
    },
};
