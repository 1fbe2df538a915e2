//! The statistics of the toy coin: the side, ⌊f·2⌋ of a float u/2³², is
//! heads for the 2³¹ words below 2³¹ and tails for the rest: exactly one
//! half each ([`pick_law`]`(2)`). One family; serial along the nonces of
//! a seed pair.

use crate::op::fields::{CLIENT_SEED, NONCE};
use crate::op::stats::{pick_law, Family, Layout, Model, Step};

use super::SIDES;

pub(crate) const COIN: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (1, 2),
    layout: |_| {
        let mut l = Layout::new("");
        l.test("side (heads, tails)", pick_law(2));
        l.serial(pick_law(2))
    },
    sample: |_, r, ok, cells| {
        let shown = ok.get("side")?.as_str()?;
        let side = SIDES.iter().position(|s| *s == shown)?;
        let side = u16::try_from(side).ok()?;
        cells.push((0, side));
        Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], r.int(NONCE), side)))
    },
};
