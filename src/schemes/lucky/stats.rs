//! The statistics of `lucky.roll`: the kept group is uniform on
//! 0 ..= 999,999 (each group is, and the first one below 10⁶ is kept), and
//! 10⁶ = 100 · 10⁴, so the roll's hundredths lucky mod 10⁴ are uniform and
//! its whole part ⌊roll⌋ is exactly 1/100 each. (Exhaustion, with
//! probability about 4.5·10⁻³⁴, adds that much to 99: below any float's
//! resolution at 1/100.)
//!
//! | family | tests |
//! |---|---|
//! | — | ⌊roll⌋ (100 cells); serial along the nonces of a seed pair |

use crate::op::fields::{CLIENT_SEED, NONCE};
use crate::op::stats::{uniform, Family, Layout, Model, Step};

pub(crate) const ROLL: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (1, 100),
    layout: |_| {
        let mut l = Layout::new("");
        l.test("whole part of the roll", uniform(100));
        l.serial(uniform(100))
    },
    sample: |_, r, ok, cells| {
        let lucky = ok.get("lucky")?.as_u64()?;
        let whole = u16::try_from(lucky % 10_000 / 100).ok()?;
        cells.push((0, whole));
        Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], r.int(NONCE), whole)))
    },
};
