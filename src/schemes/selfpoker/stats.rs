//! The statistics of `selfpoker.deck` (`audit --stats`): numpy's
//! `random_interval` masks and rejects, so the permutation is uniform given
//! uniform 32-bit output (PCG64 is not a MAC: the one certificate that
//! assumes a generator's output uniform rather than HMAC-SHA256's).
//!
//! | family | tests |
//! |---|---|
//! | — | value (13) and suit (4) at every position |
//!
//! `selfpoker.commit` (a commitment) has nothing to test.

use crate::op::stats::{at, small, Family, Layout, Model};

pub(crate) const DECK: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (104, 13),
    layout: |_| {
        let names: Vec<String> = (0..52).map(|p| format!("at position {p}")).collect();
        let mut l = Layout::new("");
        l.cards(&names, "value", "suit");
        l
    },
    sample: |_, _, ok, cells| {
        for (p, c) in ok.get("deck")?.as_array()?.iter().enumerate() {
            let c = small(c)?;
            cells.push((at(p), c / 4));
            cells.push((at(52 + p), c % 4));
        }
        Some(None)
    },
};
