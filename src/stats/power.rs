//! Power: how many rounds a test needs to see a given skew.
//!
//! Under an alternative p₁ near the exact p₀, Pearson's χ² on n rounds is
//! approximately non-central χ² with df degrees of freedom and
//! non-centrality λ = n · Σ (p₁ − p₀)² / p₀ (the standard local-alternative
//! approximation). The test rejects when χ² exceeds c = the χ²_df quantile
//! at α/m (Bonferroni over a family of m tests: Holm's first step). The
//! rounds needed for power β are the n whose λ makes
//! P(χ²_df(λ) ≥ c) = β; λ is found by bisection on
//! `super::math::noncentral_chi2_sf`, then n = λ / Σ (p₁ − p₀)²/p₀.

use std::fmt::Write as _;

use super::{certify, math, model};

/// The power the table is computed for.
pub(crate) const POWER: f64 = 0.9;

/// The λ at which P(χ²_df(λ) ≥ critical) = power.
pub(crate) fn lambda_for(critical: f64, df: f64, power: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    while math::noncentral_chi2_sf(critical, df, hi) < power {
        hi *= 2.0;
    }
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if math::noncentral_chi2_sf(critical, df, mid) < power {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// Rounds a χ² test of `p0` needs to reject `p1` with [`POWER`] at
/// level `alpha / tests`.
pub(crate) fn rounds_needed(p0: &[f64], p1: &[f64], alpha: f64, tests: usize) -> f64 {
    #[allow(clippy::cast_precision_loss, reason = "small counts")]
    let (df, m) = ((p0.len() - 1) as f64, tests as f64);
    let critical = math::chi2_isf(alpha / m, df);
    let per_round: f64 = p0.iter().zip(p1).map(|(a, b)| (b - a) * (b - a) / a).sum();
    lambda_for(critical, df, POWER) / per_round
}

/// `p0` with cell `cell` moved to p·(1 + rel), the other cells scaled to keep the sum 1.
pub(crate) fn skewed(p0: &[f64], cell: usize, rel: f64) -> Vec<f64> {
    let moved = p0[cell] * (1.0 + rel);
    let rest = (1.0 - moved) / (1.0 - p0[cell]);
    p0.iter()
        .enumerate()
        .map(|(i, &p)| if i == cell { moved } else { p * rest })
        .collect()
}

/// Best of two: the operator draws up to two seeds and keeps the first
/// whose outcome lies in `good` (else the second): P(good) = 1 − (1 − g)².
pub(crate) fn best_of_two(p0: &[f64], good: &[usize]) -> Vec<f64> {
    let g: f64 = good.iter().map(|&i| p0[i]).sum();
    let kept = 1.0 - (1.0 - g) * (1.0 - g);
    p0.iter()
        .enumerate()
        .map(|(i, &p)| {
            if good.contains(&i) {
                p / g * kept
            } else {
                p / (1.0 - g) * (1.0 - kept)
            }
        })
        .collect()
}

/// One row of the power table: a test, its family size, and its cells.
struct Row {
    test: &'static str,
    tests: usize,
    p0: Vec<f64>,
    good: Vec<usize>,
}

fn rows() -> Vec<Row> {
    let shoe = model::layout(model::Key::of("shoe.deal", 6, 0.75f64.to_bits()).expect("a tested op"));
    let dice = model::layout(model::Key::of("dice.roll", 0, 0).expect("a tested op"));
    let ladder = certify::shuffle_marginals(25, &certify::ladder_pick);
    let cut = certify::cut_distribution(6, 0.75).probabilities();
    // Families as an audit runs them: the dice's 17 tables and 3 serial
    // tests; a six-deck shoe's 625 tables and 3; a 25-case ladder's 25.
    let (shoe_m, dice_m) = (shoe.tests.len() + 3, dice.tests.len() + 3);
    let uniform = |n: usize| vec![1.0 / f64::from(u32::try_from(n).expect("small")); n];
    vec![
        Row {
            test: "dice.roll: face of die n (6 cells)",
            tests: dice_m,
            p0: uniform(6),
            good: vec![5],
        },
        Row {
            test: "shoe.deal 6 decks: rank at a position (13 cells)",
            tests: shoe_m,
            p0: uniform(13),
            good: vec![0, 9, 10, 11, 12],
        },
        Row {
            test: "shoe.deal 6 decks: suit at a position (4 cells)",
            tests: shoe_m,
            p0: uniform(4),
            good: vec![0],
        },
        Row {
            test: "shoe.deal 6 decks, penetration 0.75: cut card (13 cells)",
            tests: shoe_m,
            p0: cut,
            good: vec![12],
        },
        Row {
            test: "ladder.shuffle 25: entry in a case (25 cells)",
            tests: 25,
            p0: ladder[0].clone(),
            good: vec![24],
        },
        Row {
            test: "dice.roll: serial pairs (36 cells)",
            tests: dice_m,
            p0: uniform(36),
            good: vec![35],
        },
    ]
}

/// The power table as Markdown: rounds needed per test and skew.
pub fn table(alpha: f64) -> String {
    let shown = crate::base::pyfmt::js_number(alpha);
    let mut out = format!(
        "Rounds for power {POWER} at family-wise α = {shown} (Bonferroni over the family's m tests), \
         non-central χ² approximation. A skew of x % moves the first cell's probability \
         to p·(1 + x/100) (the others scaled down); \"best of 2\" is an operator who draws two \
         seeds and keeps the first whose feature is good (the listed good cells).\n\n\
         | test | m | +1 % | +5 % | +10 % | +50 % | best of 2 (good cells) |\n|---|---|---|---|---|---|---|\n"
    );
    for r in rows() {
        let cells: Vec<String> = [0.01, 0.05, 0.10, 0.50]
            .iter()
            .map(|&rel| {
                format!(
                    "{:.0}",
                    rounds_needed(&r.p0, &skewed(&r.p0, r.good[0], rel), alpha, r.tests)
                )
            })
            .collect();
        let best = rounds_needed(&r.p0, &best_of_two(&r.p0, &r.good), alpha, r.tests);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {best:.0} ({:?}) |",
            r.test,
            r.tests,
            cells.join(" | "),
            r.good
        );
    }
    out
}
