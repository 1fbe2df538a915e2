//! The statistics of `dice.roll` (`audit --stats`): a byte b < 252 gives
//! b mod 6 + 1, and 252 = 6 × 42, so every face has exactly 1/6.
//!
//! | family | tests |
//! |---|---|
//! | — | the face at each die index n < 16; the face over all dice; serial on the face along n |

use super::fields::N;
use crate::op::fields::CLIENT_SEED;
use crate::op::stats::{at, small, uniform, Family, Layout, Model, Step};

/// Die indices n below this have a table each.
pub(crate) const INDICES: u64 = 16;

pub(crate) const ROLL: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (usize::try_from(INDICES).expect("small") + 1, 6),
    layout: |_| {
        let mut l = Layout::new("");
        for n in 0..INDICES {
            l.test(format!("face of die n={n}"), uniform(6));
        }
        l.test("face over all dice", uniform(6));
        l.serial(uniform(6))
    },
    sample: |_, r, ok, cells| {
        let face = small(ok.get("face")?)?.checked_sub(1)?;
        let n = r.int(N);
        if n < INDICES {
            cells.push((at(usize::try_from(n).ok()?), face));
        }
        cells.push((at(usize::try_from(INDICES).ok()?), face));
        Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], n, face)))
    },
};
