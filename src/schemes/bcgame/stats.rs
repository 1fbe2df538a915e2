//! The statistics of BC.Game's originals, each op's exact law under a
//! uniform MAC.
//!
//! | op | tests | law |
//! |:--|:--|:--|
//! | `bcgame.classicdice.old` | min(⌊roll/2⌋, 49) (50 cells) | the floats u/2³² whose roll reaches k are a suffix of the 2³² words, found by bisection on the page's own function |
//! | `bcgame.classicdice` | min(⌊roll/2⌋, 49) (50 cells) | [`window_below`]: the window's number, counted exactly over the 47 indices |
//! | `bcgame.dice` | ⌊roll/200⌋ (50 cells) | the same, on `parseInt(… 10000)` |
//! | `bcgame.limbo` | multiplier in Stake's cells | bustabit v2's point law of 52 bits ([`crate::schemes::crash::stats::point_law`]) |
//! | `bcgame.hashdice` | ⌊roll/1000⌋ (100 cells) | uniform: lucky is uniform on 10⁶ = 10·10⁵ values (exhaustion, about 4.5·10⁻³⁴, is below any double's resolution at 1/100) |
//! | `bcgame.plinko` | bucket, edges pooled (1 % a side) | binomial: each row is Right with probability (2³¹ − 1)/2³² (`num > .5`) |
//! | `bcgame.coinflip.old`, `bcgame.coinflip` | tails among the rounds, edges pooled | binomial: a flip is tails with probability 1/2 (the top bit) or the window's mass from 2⁵² ([`new_tails`]) |
//! | `bcgame.mines`, `bcgame.keno` | none | see [`ROTATION_UNTESTED`] |
//!
//! Each one-value test has its serial test along the nonces of a seed pair.
//! The cells are wide enough that each expects 20 counts (the least a table
//! is tested with) in a history of 2,000 bets: the dice's last cell holds
//! their rare top rolls (100.00 and 100.01).
//!
//! **The window's law.** `slideWindowNumber` reads 14 hex digits from an
//! index the first 15 digits choose (mod 47). For an index of 15 or more
//! the window lies after those digits and is uniform; below 15 it overlaps
//! them, and the digits it shares are held to V ≡ index (mod 47). The law
//! counts both exactly: for each index i, the 15-digit values V ≡ i and the
//! window values below a bound, over the digits they span (at most 29, so
//! a count below 2¹¹⁶ in a u128).

use serde_json::Value;

use super::fields::{ROUNDS, ROWS};
use super::{classicdice, limbo, window};
use crate::op::fields::{CLIENT_SEED, NONCE};
use crate::op::stats::{uniform, Family, Layout, Model, Step};
use crate::schemes::crash::stats::point_law;
use crate::schemes::stake::stats::{multiplier_cell, THRESHOLDS};

/// Why Mines and Keno have no test.
pub(crate) const ROTATION_UNTESTED: &str = "the rotation sort's law is not computed: one sort of 25 rotations of a uniform text is not uniform (its end items take the first and last place about 4 % more often, measured), two sorts in a row are closer, and no exact law of either is derived here";

/// All MAC digit patterns the window's law counts over: 16²⁹.
const SPAN: u128 = 1 << 116;

/// #{x ∈ [0, n) : x ≡ c (mod 47)}.
fn in_class(n: u128, c: u128) -> u128 {
    if c >= n {
        0
    } else {
        (n - 1 - c) / 47 + 1
    }
}

/// The inverse of m mod 47 (47 is prime: m^45).
fn inverse47(m: u128) -> u128 {
    (0..45).fold(1, |acc, _| acc * (m % 47) % 47)
}

/// How many patterns of the first 29 hex digits (out of 16²⁹) have window
/// number below `t` (0 ..= 2⁵³): the window's 14 digits below w = 8t.
pub(crate) fn window_below(t: u64) -> u128 {
    let w = u128::from(t) * 8;
    let sixteen = |k: u32| 16u128.pow(k);
    let mut total = 0u128;
    // Index 0: the window is V's first 14 digits, V < 16·w.
    total += in_class(16 * w, 0) * sixteen(14);
    for i in 1..15u32 {
        // V = q·M + o: o the 15 − i digits the window shares, q the i before.
        let (m, q, p) = (sixteen(15 - i), sixteen(i), sixteen(i - 1));
        let m_inv = inverse47(m);
        let class = |o: u128| (u128::from(i) + 47 - o % 47) % 47 * m_inv % 47;
        let (full, rest) = (w / p, w % p);
        let full_os = full.min(m);
        let mut count = 0u128;
        for r in 0..47u128 {
            count += in_class(full_os, r) * in_class(q, class(r));
        }
        count *= p;
        if full < m {
            count += rest * in_class(q, class(full));
        }
        total += count * sixteen(15 - i);
    }
    // Index 15 …: the window lies after V, independent of it.
    for i in 15..47u128 {
        total += in_class(sixteen(15), i) * w;
    }
    total
}

/// The cell law of a function of the window's number, given each cell's
/// first number (ascending, the first 0).
fn window_law(starts: &[u64]) -> Vec<f64> {
    let mut bounds: Vec<u128> = starts.iter().map(|&t| window_below(t)).collect();
    bounds.push(SPAN);
    #[allow(clippy::cast_precision_loss, reason = "one rounding of each cell's exact count")]
    bounds.windows(2).map(|b| (b[1] - b[0]) as f64 / SPAN as f64).collect()
}

/// The first of `0 ..= top` where `reaches` holds (it holds from there on).
fn first_reaching(top: u64, reaches: &dyn Fn(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (0u64, top);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if reaches(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

const TWO_53: u64 = 1 << 53;

/// The dice's cells: min(⌊roll/2⌋, 49), or ⌊roll/200⌋ for `bcgame.dice`.
const DICE_CELLS: u64 = 50;

/// The new Classic Dice's ⌊roll⌋ of a window number.
fn new_whole(num: u64) -> f64 {
    (window::fraction(num) * 10_001.0 / 100.0).floor()
}

/// The law of the new Classic Dice's cells.
pub(crate) fn classicdice_law() -> Vec<f64> {
    #[allow(clippy::cast_precision_loss, reason = "k is at most 49")]
    let starts: Vec<u64> = (0..DICE_CELLS)
        .map(|k| first_reaching(TWO_53, &|n| new_whole(n) >= 2.0 * k as f64))
        .collect();
    window_law(&starts)
}

/// `bcgame.dice`'s roll of a window number.
fn dice_of(num: u64) -> u64 {
    classicdice::parse_int(window::fraction(num) * 10_000.0)
}

/// The law of `bcgame.dice`'s ⌊roll/200⌋, 0 ..= 49.
pub(crate) fn dice_law() -> Vec<f64> {
    let starts: Vec<u64> = (0..DICE_CELLS)
        .map(|k| {
            if k == 0 {
                0
            } else {
                first_reaching(TWO_53, &|n| dice_of(n) >= 200 * k)
            }
        })
        .collect();
    window_law(&starts)
}

/// The law of the old Classic Dice's cells, over the 2³² floats.
pub(crate) fn classicdice_old_law() -> Vec<f64> {
    let top = 1u64 << 32;
    #[allow(clippy::cast_precision_loss, reason = "k is at most 49")]
    let reach = |k: u64| {
        first_reaching(top, &|u| {
            classicdice::old_roll(u32::try_from(u).expect("below 2^32")).floor() >= 2.0 * k as f64
        })
    };
    let mut starts: Vec<u64> = (0..DICE_CELLS).map(reach).collect();
    starts.push(top);
    #[allow(clippy::cast_precision_loss, reason = "counts up to 2^32 are exact")]
    starts.windows(2).map(|b| (b[1] - b[0]) as f64 / top as f64).collect()
}

/// P(Right) of one plinko row: the words above 2³¹, (2³¹ − 1)/2³².
pub(crate) const RIGHT: f64 = 2_147_483_647.0 / 4_294_967_296.0;

/// P(tails) of the new Coin Flip: the window numbers from 2⁵², exactly.
pub(crate) fn new_tails() -> f64 {
    #[allow(clippy::cast_precision_loss, reason = "one rounding of the exact count")]
    let p = (SPAN - window_below(1 << 52)) as f64 / SPAN as f64;
    p
}

/// The binomial law of n trials of probability p: each term C(n, k) (a
/// running product) times p, k times, and 1 − p, n − k times, in that order
/// in binary64 (the JavaScript twin multiplies in the same order).
fn binomial(n: u64, p: f64) -> Vec<f64> {
    let mut choose = 1.0f64;
    (0..=n)
        .map(|k| {
            let mut term = choose;
            for _ in 0..k {
                term *= p;
            }
            for _ in k..n {
                term *= 1.0 - p;
            }
            #[allow(clippy::cast_precision_loss, reason = "at most 100")]
            let next = (n - k) as f64 / (k + 1) as f64;
            choose *= next;
            term
        })
        .collect()
}

/// Counts below this much at an edge are pooled.
const TAIL: f64 = 0.01;

/// The pooled edge of n trials of probability p: the smallest lo with
/// P(count ≤ lo) ≥ 1 % (counts below lo pooled into it, above n − lo into
/// that one).
pub(crate) fn pooled_low(n: u64, p: f64) -> u64 {
    let mut below = 0.0;
    for (k, term) in (0u64..).zip(binomial(n, p)) {
        below += term;
        if below >= TAIL || 2 * (k + 1) > n {
            return k;
        }
    }
    0
}

/// The pooled cell of a count k of n trials.
pub(crate) fn pooled_cell(k: u64, n: u64, lo: u64) -> usize {
    usize::try_from(k.clamp(lo, n - lo) - lo).expect("small")
}

/// The law of the pooled cells of n trials of probability p.
pub(crate) fn pooled_law(n: u64, p: f64) -> Vec<f64> {
    let lo = pooled_low(n, p);
    let mut law = vec![0.0; usize::try_from(n - 2 * lo + 1).expect("small")];
    for (k, term) in (0u64..).zip(binomial(n, p)) {
        law[pooled_cell(k, n, lo)] += term;
    }
    law
}

/// One serial step along the nonces of the round's seed pair.
fn along_nonces(r: &crate::op::Request, cell: u16) -> Option<Option<Step>> {
    Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], r.int(NONCE), cell)))
}

/// A model of one value with `cells` cells, its law and its cell.
macro_rules! one_value {
    ($cells:expr, $name:expr, $law:expr, $cell:expr) => {
        Model {
            family: |_| Some(Family::ONE),
            shape: |_| (1, $cells),
            layout: |_| {
                let mut l = Layout::new("");
                l.test($name, $law);
                l.serial($law)
            },
            sample: |_, r, ok, cells| {
                let c: u16 = ($cell)(ok)?;
                cells.push((0, c));
                along_nonces(r, c)
            },
        }
    };
}

fn cell_of(v: Option<u64>) -> Option<u16> {
    u16::try_from(v?).ok()
}

/// A Classic Dice roll's cell: min(⌊roll/2⌋, 49).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a roll in 0 ..= 100.01"
)]
fn dice_cell(ok: &Value) -> Option<u16> {
    let roll = ok.get("roll")?.as_f64()?;
    (0.0..101.0)
        .contains(&roll)
        .then(|| ((roll / 2.0).floor() as u16).min(49))
}

pub(crate) const CLASSICDICE_OLD: Model = one_value!(50, "roll in steps of 2", classicdice_old_law(), dice_cell);

pub(crate) const CLASSICDICE: Model = one_value!(50, "roll in steps of 2", classicdice_law(), dice_cell);

pub(crate) const DICE: Model = one_value!(50, "roll in steps of 200", dice_law(), |ok: &Value| {
    cell_of(ok.get("roll")?.as_u64().filter(|&r| r < 10_000).map(|r| r / 200))
});

pub(crate) const LIMBO: Model = one_value!(
    THRESHOLDS.len() + 1,
    "multiplier in cells from 1.05 to 25",
    point_law(&limbo::multiplier_of),
    |ok: &Value| u16::try_from(multiplier_cell(ok.get("multiplier")?.as_f64()?)).ok()
);

pub(crate) const HASHDICE: Model = one_value!(100, "roll in thousands", uniform(100), |ok: &Value| {
    cell_of(ok.get("roll")?.as_u64().filter(|&r| r < 100_000).map(|r| r / 1000))
});

/// A model of a count of Rights or tails among `n` trials of probability
/// `p` (the family's `a` is n), pooled at the edges.
macro_rules! trials {
    ($field:expr, $count:expr, $name:expr, $p:expr) => {
        Model {
            family: |r| Some(Family::of(r.int($field))),
            shape: |f| (1, usize::try_from(f.a - 2 * pooled_low(f.a, $p) + 1).expect("small")),
            layout: |f| {
                let law = pooled_law(f.a, $p);
                let mut l = Layout::new(format!("{}={}", $field.name, f.a));
                l.test(
                    format!("{}, edges pooled below {}", $name, pooled_low(f.a, $p)),
                    law.clone(),
                );
                l.serial(law)
            },
            sample: |f, r, ok, cells| {
                let k: u64 = ($count)(ok)?;
                let c = u16::try_from(pooled_cell(k.min(f.a), f.a, pooled_low(f.a, $p))).ok()?;
                cells.push((0, c));
                along_nonces(r, c)
            },
        }
    };
}

/// The 1s of a list of 0s and 1s.
fn ones(list: Option<&Value>) -> Option<u64> {
    let items = list?.as_array()?;
    items.iter().map(Value::as_u64).sum::<Option<u64>>()
}

pub(crate) const PLINKO: Model = trials!(ROWS, |ok: &Value| ok.get("bucket")?.as_u64(), "bucket", RIGHT);

pub(crate) const COINFLIP_OLD: Model = trials!(ROUNDS, |ok: &Value| ones(ok.get("coins")), "tails", 0.5);

pub(crate) const COINFLIP: Model = trials!(ROUNDS, |ok: &Value| ones(ok.get("coins")), "tails", new_tails());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_law_counts_every_pattern_once() {
        assert_eq!(window_below(0), 0);
        assert_eq!(window_below(TWO_53), SPAN);
        // Close to uniform, not equal: half of the numbers hold half the mass
        // to within the 47 classes' remainders.
        #[allow(clippy::cast_precision_loss, reason = "a ratio")]
        let half = window_below(TWO_53 / 2) as f64 / SPAN as f64;
        assert!((half - 0.5).abs() < 1e-12, "{half}");
    }

    #[test]
    fn every_law_sums_to_one() {
        for law in [
            classicdice_law(),
            dice_law(),
            classicdice_old_law(),
            pooled_law(8, RIGHT),
            pooled_law(16, RIGHT),
            pooled_law(100, 0.5),
            pooled_law(1, new_tails()),
        ] {
            assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{law:?}");
        }
    }
}
