//! The statistics of the cursor ops (`audit --stats`): what each outcome
//! is, and its exact distribution under uniform HMAC output.
//!
//! | op | family | tests |
//! |---|---|---|
//! | `cursor.int` | range ≥ 2 | the value (range ≤ 16) or 16 bins of ⌊v·16/range⌋ (exact counts); serial along nonces |
//! | `cursor.float` | — | 16 bins of ⌊f·16⌋ (exact: 16 divides 2³²); serial along nonces |
//! | `cursor.shuffle` | count 2 … 64 | the value at each position (uniform: Fisher–Yates with exact draws) |
//!
//! `cursor.hash` (a commitment) and `cursor.raw` (bytes, not a game) have nothing to test.
//! A serial sequence is one client seed at one cursor, along nonces.

use serde_json::Value;

use crate::op::fields::{CLIENT_SEED, COUNT, CURSOR, NONCE, RANGE};
use crate::op::stats::{at, small, uniform, Family, Layout, Model, Step};
use crate::op::Request;

/// Bins of `cursor.int` with a large range and of `cursor.float`.
pub const BINS: u64 = 16;

/// The largest `cursor.shuffle` whose positions are tested.
pub(crate) const MAX_SHUFFLE: u64 = 64;

/// The bin of `cursor.int`'s value: itself for range ≤ 16, else ⌊v·16/range⌋.
pub fn int_bin(v: u64, range: u64) -> u64 {
    if range <= BINS {
        v
    } else {
        u64::try_from(u128::from(v) * u128::from(BINS) / u128::from(range)).expect("below 16")
    }
}

/// The exact probability of each bin of [`int_bin`] (the value is uniform).
pub fn int_bins(range: u64) -> Vec<f64> {
    let bins = range.min(BINS);
    #[allow(clippy::cast_precision_loss, reason = "a probability")]
    if range <= BINS {
        vec![1.0 / range as f64; usize::try_from(range).expect("small")]
    } else {
        // Bin b holds the v with b·range ≤ 16·v < (b+1)·range.
        let start = |b: u64| (u128::from(b) * u128::from(range)).div_ceil(u128::from(bins));
        (0..bins)
            .map(|b| (start(b + 1) - start(b)) as f64 / range as f64)
            .collect()
    }
}

/// The serial step of a cursor round: its client seed and cursor, along nonces.
fn step(r: &Request, value: u16) -> Option<Option<Step>> {
    let cursor = r.int(CURSOR).to_be_bytes();
    Some(Some(Step::new(
        &[r.text(CLIENT_SEED).as_bytes(), &cursor],
        r.int(NONCE),
        value,
    )))
}

pub(crate) const INT: Model = Model {
    family: |r| (r.int(RANGE) >= 2).then(|| Family::of(r.int(RANGE))),
    shape: |f| (1, usize::try_from(f.a.min(BINS)).expect("small")),
    layout: |f| {
        let p = int_bins(f.a);
        let mut l = Layout::new(format!("range={}", f.a));
        l.test("value", p.clone());
        l.serial(p)
    },
    sample: |f, r, ok, cells| {
        let bin = u16::try_from(int_bin(ok.get("value")?.as_u64()?, f.a)).ok()?;
        cells.push((0, bin));
        step(r, bin)
    },
};

/// ⌊f·16⌋ of a float in [0, 1).
pub(crate) fn sixteenth(f: f64) -> u16 {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "0 ≤ f < 1")]
    let bin = (f * 16.0).floor() as u16;
    bin.min(15)
}

pub(crate) const FLOAT: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (1, 16),
    layout: |_| {
        let mut l = Layout::new("");
        l.test("value in sixteenths", uniform(16));
        l.serial(uniform(16))
    },
    sample: |_, r, ok, cells| {
        let bin = sixteenth(ok.get("float")?.as_f64()?);
        cells.push((0, bin));
        step(r, bin)
    },
};

/// The value at each position of an order (the ladder's too).
pub(crate) fn order_cells(ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<Option<Step>> {
    for (k, v) in ok.get("order")?.as_array()?.iter().enumerate() {
        cells.push((at(k), small(v)?));
    }
    Some(None)
}

pub(crate) const SHUFFLE: Model = Model {
    family: |r| {
        let n = r.int(COUNT);
        (2..=MAX_SHUFFLE).contains(&n).then(|| Family::of(n))
    },
    shape: |f| (f.size(), f.size()),
    layout: |f| {
        let n = f.size();
        let mut l = Layout::new(format!("count={n}"));
        for k in 0..n {
            l.test(format!("value at position {k}"), uniform(n));
        }
        l
    },
    sample: |_, _, ok, cells| order_cells(ok, cells),
};
