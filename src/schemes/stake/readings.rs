//! Limbo's readings: the sources disagree on the formula.
//!
//! - `docs` (<https://stake.com/provably-fair/game-events>, as the `fair`
//!   crate 0.0.13 quotes it in src/games/limbo.rs):
//!   `floatPoint = 1e8 / (float·1e8) · 0.99`, then ⌊·100⌋/100 and at least 1.
//!   At float 0 it is infinite: no JSON number answers it.
//! - `fair-0.0.13` (the `fair` crate, src/games/limbo.rs, "found by reverse
//!   engineering the client side JavaScript verification source code"):
//!   `1e8 / (⌊float·1e8⌋ + 1) · 0.99`, then ⌊·100⌋/100, with no clamp at 1
//!   (a float of 0.99000001 or more gives 0.99).
//! - canonical `clamped-floor`: the client code's floor (the crate's test
//!   reproduces Stake's own calculation page at a tiny float, 3807692.3,
//!   where the docs' form gives another number) with the docs' clamp at 1
//!   (Stake's Limbo never shows a multiplier below 1.00).
//!
//! A third, 2^24 form is named in a bug report without a source; it is not a
//! reading here until one is found.

/// The client code's multiplier before the clamp: 1e8/(⌊f·1e8⌋+1)·0.99,
/// down to two decimals.
pub(crate) fn limbo_floor(f: f64) -> f64 {
    super::floor2(1e8 / ((f * 1e8).floor() + 1.0) * 0.99)
}

/// The docs' multiplier: 1e8/(f·1e8)·0.99, down to two decimals, at least
/// 1; `None` at f = 0, where it is infinite.
pub(crate) fn limbo_docs(f: f64) -> Option<f64> {
    let x = super::floor2(1e8 / (f * 1e8) * 0.99).max(1.0);
    x.is_finite().then_some(x)
}

/// Crash's unrounded reading (the seeding post and the `fair` crate): the
/// multiplier max(1, 2^32/(n+1)·0.99) with every digit, not cut to two
/// decimals.
pub(crate) fn crash_unrounded(n: u32) -> f64 {
    (4_294_967_296.0 / (f64::from(n) + 1.0) * 0.99).max(1.0)
}
