//! The statistics of the crash games: the crash point in Stake's
//! multiplier cells ([`THRESHOLDS`]: [·, 1.05), [1.05, 1.1), …, [25, ∞)),
//! with the exact law of each variant. No serial test: the games follow a
//! hash chain, not nonces.
//!
//! | op | family | law |
//! |:--|:--|:--|
//! | `crash.v2` | `bcgame` (0 or 1) | P(point ≥ x) = #{r < 2^52 : point(r) ≥ x}/2^52, counted by bisection (the point does not decrease with r; BC.Game's rounded X neither) |
//! | `crash.v1` | `divisor` | the instant crash (point 0 or 1, cell 0) has mass 1/d; else the point of the 13 hex digits, as above, times (d − 1)/d |
//!
//! v1's two events are read off one MAC: the instant rule from all 256
//! bits, the point from the first 52. They are independent up to the
//! remainder of 2^256 by d (a mass below 2^−248); the law takes them as
//! independent, which no archive can tell apart.

use serde_json::Value;

use super::fields::{BCGAME, DIVISOR};
use crate::op::stats::{Family, Layout, Model};
use crate::schemes::stake::stats::{multiplier_cell, THRESHOLDS};

/// 2^52, the number of values of a game's first 13 hex digits.
const VALUES: u64 = 1 << 52;

/// How many values r < 2^52 reach at least `x` under `game`, which does
/// not decrease with r: 2^52 less the first r that reaches, by bisection.
pub(crate) fn values_reaching(x: f64, game: &dyn Fn(u64) -> f64) -> u64 {
    let (mut lo, mut hi) = (0u64, VALUES);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if game(mid) >= x {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    VALUES - lo
}

/// The cell law of a point of the 52 bits under `game`.
pub(crate) fn point_law(game: &dyn Fn(u64) -> f64) -> Vec<f64> {
    let mut reach = vec![VALUES];
    reach.extend(THRESHOLDS.iter().map(|&x| values_reaching(x, game)));
    reach.push(0);
    #[allow(clippy::cast_precision_loss, reason = "counts up to 2^52 are exact")]
    reach.windows(2).map(|w| (w[0] - w[1]) as f64 / VALUES as f64).collect()
}

/// v2's point of r, plain or as BC.Game rounds X.
pub(crate) fn v2_of_r(r: u64, bcgame: bool) -> f64 {
    #[allow(clippy::cast_precision_loss, reason = "below 2^52: exact")]
    let x = if bcgame {
        super::to_precision9(r)
    } else {
        r as f64 / VALUES as f64
    };
    super::v2_of(x)
}

/// v1's cell law under divisor `d`: the instant mass 1/d in cell 0.
#[allow(clippy::cast_precision_loss, reason = "d is at most 101")]
pub(crate) fn v1_law(d: u64) -> Vec<f64> {
    let keep = (d as f64 - 1.0) / d as f64;
    let mut law: Vec<f64> = point_law(&|h| super::v1_cents(h) / 100.0)
        .into_iter()
        .map(|p| p * keep)
        .collect();
    law[0] += 1.0 / d as f64;
    law
}

fn sample_point(ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<Option<crate::op::stats::Step>> {
    let c = u16::try_from(multiplier_cell(ok.get("crashPoint")?.as_f64()?)).ok()?;
    cells.push((0, c));
    Some(None)
}

pub(crate) const V2: Model = Model {
    family: |r| Some(Family::of(u64::from(r.flag(BCGAME)))),
    shape: |_| (1, THRESHOLDS.len() + 1),
    layout: |f| {
        let mut l = Layout::new(format!("bcgame={}", f.a == 1));
        l.test(
            "crash point in cells from 1.05 to 25",
            point_law(&|r| v2_of_r(r, f.a == 1)),
        );
        l
    },
    sample: |_, _, ok, cells| sample_point(ok, cells),
};

pub(crate) const V1: Model = Model {
    family: |r| Some(Family::of(r.int(DIVISOR))),
    shape: |_| (1, THRESHOLDS.len() + 1),
    layout: |f| {
        let mut l = Layout::new(format!("divisor={}", f.a));
        l.test("crash point in cells from 1.05 to 25", v1_law(f.a));
        l
    },
    sample: |_, _, ok, cells| sample_point(ok, cells),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_law_sums_to_one_and_puts_the_instant_mass_in_cell_0() {
        for law in [v1_law(101), v1_law(20), point_law(&|r| v2_of_r(r, false))] {
            assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{law:?}");
        }
        // v2: P(point < 1.05) = P(99/(1−X) < 105) = 1 − 99/105.
        let v2 = point_law(&|r| v2_of_r(r, false));
        assert!((v2[0] - (1.0 - 99.0 / 105.0)).abs() < 1e-9, "{}", v2[0]);
        // v1 with 20: 1/20 instantly, the rest as bustabit's 1 % edge.
        let v1 = v1_law(20);
        assert!(v1[0] > 0.05 && v1[0] < 0.05 + 0.95 * 0.06, "{}", v1[0]);
    }
}
