//! Certificates: the exact output distribution of every op's mapping from
//! HMAC output to outcome, given that the HMAC output is uniform.
//!
//! * **Rejection** (`cursor.int`, the shoe's `index(m)`): k bytes give
//!   v uniform on [0, 256^k); limit = 256^k − (256^k mod m) is a multiple of
//!   m, so the accepted v ∈ [0, limit) hold every residue exactly limit/m
//!   times: the draw is exactly uniform. Each attempt reads fresh bytes, so
//!   attempts are independent and the rejection only costs bytes.
//! * **Dice**: a byte b < 252 gives b mod 6 + 1; 252 = 6 × 42, so each face
//!   has 42 of the 252 accepted bytes: exactly 1/6, and the die is
//!   `exhausted` only if all 512 bytes of 16 MACs are ≥ 252, (4/256)^512.
//! * **Fisher–Yates** from the back with exactly uniform j ∈ [0, i]: the
//!   n! draw sequences map one to one onto the n! permutations, so every
//!   order is equally likely and every position holds every card with
//!   probability 1/n (a shoe's rank 1/13, suit 1/4, at every position).
//! * **numpy** (`selfpoker.deck`): `random_interval` masks and rejects,
//!   never takes a remainder: uniform given uniform 32-bit output. PCG64 is
//!   not a MAC; this is the only certificate that assumes a generator's
//!   output uniform rather than HMAC-SHA256's.
//! * **`cursor.float`** = v / 2³² on the 2⁻³² grid: P(f = k·2⁻³²) = 2⁻³²,
//!   P(f < x) = ⌈x·2³²⌉ / 2³², mean 1/2 − 2⁻³³: not uniform on [0, 1).
//! * **The ladder** (`ladder.shuffle`): j = ⌊v·(i+1)/2³²⌋ takes value t for
//!   c_t = ⌈(t+1)·2³²/(i+1)⌉ − ⌈t·2³²/(i+1)⌉ of the 2³² words, which is
//!   ⌊2³²/(i+1)⌋ or one more: biased by less than (i+1)/2³² unless i+1 is
//!   a power of two. [`shuffle_marginals`] carries the bias through the
//!   shuffle exactly.
//! * **The cut card**: index(2·spread+1) is uniform (rejection), then
//!   shifted and clamped to [max(20, round(total/2)), total − 15]: the clamps
//!   put the mass of every offset beyond them on the bound
//!   ([`cut_distribution`]).
//!
//! Every formula here is checked against enumeration of all inputs of a
//! reduced width, and against the scheme's own code at the boundaries
//! (tests/stats.rs).

use std::fmt::Write as _;

// The laws live with the schemes they belong to (and the generic ones
// below the schemes); the certificates name them here.
pub use crate::op::stats::{pick_counts, shuffle_marginals};
pub use crate::schemes::cursor::stats::{int_bin, int_bins};
pub use crate::schemes::ladder::stats::pick as ladder_pick;
pub use crate::schemes::shoe::stats::{cut_distribution, cut_parameters, cut_support, CutDistribution};

/// The rejection limit 2^bits − (2^bits mod m), for any width (the
/// scheme's is bits = 8·k).
pub fn limit(m: u64, bits: u32) -> u128 {
    let pot = 1u128 << bits;
    pot - pot % u128::from(m)
}

/// The certificate table, as Markdown (what `provably certify` prints).
pub fn table() -> String {
    let mut out = String::new();
    out.push_str("| op | mapping | exact distribution | uniform? | bias |\n|---|---|---|---|---|\n");
    let mut row = |cells: [&str; 5]| {
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    };
    row([
        "`cursor.int`, shoe `index(m)`",
        "k bytes, reject v ≥ 256ᵏ − 256ᵏ mod m, v mod m",
        "each value limit/m of limit accepted words",
        "yes",
        "0 (costs rejected bytes only)",
    ]);
    row([
        "`dice.roll`",
        "first byte < 252, b mod 6 + 1",
        "each face 42 of 252 bytes",
        "yes",
        "0; exhausted with (4/256)⁵¹²",
    ]);
    row([
        "`cursor.shuffle`, `poker.deal`, `shoe.*`",
        "Fisher–Yates from the back, uniform j ≤ i",
        "each of n! orders once",
        "yes",
        "0",
    ]);
    row([
        "`selfpoker.deck`",
        "numpy masked rejection, Fisher–Yates",
        "each order once, given uniform PCG64 words",
        "yes (PCG64 assumed uniform)",
        "0",
    ]);
    row([
        "`cursor.float`",
        "v / 2³²",
        "2⁻³² on each multiple of 2⁻³² in [0, 1 − 2⁻³²]",
        "on the grid only",
        "mean 1/2 − 2⁻³³; P(f < x) = ⌈x·2³²⌉/2³²",
    ]);
    let ladder = ladder_bias(25);
    row([
        "`ladder.shuffle`",
        "j = ⌊v·(i+1)/2³²⌋",
        "c_t = ⌈(t+1)2³²/(i+1)⌉ − ⌈t·2³²/(i+1)⌉ words for j = t",
        "no",
        &ladder,
    ]);
    row([
        "`shoe.*` cut card",
        "clamp(base + index(2s+1) − s, max(20, round(n/2)), n − 15)",
        "offsets uniform, clamped mass on the bounds",
        "no (see below)",
        "see the cut table",
    ]);
    let stake = stake_bias();
    row([
        "`stake.*` game events",
        "f = u/2³², j = ⌊f·m⌋ (m = 37 pockets, 52 cards, 10,001 rolls, 40 − i squares, …)",
        "c_t = ⌈(t+1)2³²/m⌉ − ⌈t·2³²/m⌉ words for j = t",
        "only where m divides 2³² (plinko's directions, the float's sixteenths)",
        &stake,
    ]);
    row([
        "`stake.limbo`, `stake.crash`",
        "a non-increasing function of u (or of the game's word)",
        "the words reaching x: a prefix [0, U), U by bisection",
        "no",
        "cells of the audit: `src/schemes/stake/stats.rs`",
    ]);
    out.push('\n');
    out.push_str(&rejection_table());
    out.push('\n');
    out.push_str(&ladder_table(25));
    out.push('\n');
    out.push_str(&cut_table());
    out
}

/// The ladder's worst draw and worst case, for `size` cases, in words.
fn ladder_bias(size: usize) -> String {
    let (mut worst, mut at) = (0.0f64, 0);
    for i in 1..size {
        let dev = max_relative_deviation(&ladder_pick(i));
        if dev > worst {
            (worst, at) = (dev, i);
        }
    }
    let cases = shuffle_marginals(size, &ladder_pick)
        .iter()
        .map(|row| max_relative_deviation(row))
        .fold(0.0, f64::max);
    format!("size {size}: worst draw i = {at}, {worst:.3e} relative; worst case entry {cases:.3e} relative to 1/{size}")
}

/// The worst relative bias of the ⌊f·m⌋ events Stake's games draw.
fn stake_bias() -> String {
    let ms = (1..=52u64).chain([10_001]);
    let (mut worst, mut at) = (0.0f64, 1);
    for m in ms {
        #[allow(clippy::cast_precision_loss, reason = "counts below 2^32 are exact")]
        let p: Vec<f64> = pick_counts(m, 32)
            .into_iter()
            .map(|c| c as f64 / 4_294_967_296.0)
            .collect();
        let dev = max_relative_deviation(&p);
        if dev > worst {
            (worst, at) = (dev, m);
        }
    }
    format!("m ≤ 52 and 10,001: worst m = {at}, {worst:.3e} relative")
}

/// max |p·n − 1| over the cells of a distribution that would be uniform.
pub(crate) fn max_relative_deviation(p: &[f64]) -> f64 {
    #[allow(clippy::cast_precision_loss, reason = "n is small")]
    let n = p.len() as f64;
    p.iter().map(|&x| (x * n - 1.0).abs()).fold(0.0, f64::max)
}

/// The range in [lo, hi] with the smallest acceptance limit/2^bits: with
/// q = ⌊2^bits/m⌋ the acceptance is q·m/2^bits, smallest just above
/// 2^bits/(q+1), i.e. at m = ⌊2^bits/(q+1)⌋ + 1 for the smallest q the
/// interval allows (and its neighbours).
pub fn worst_range(lo: u64, hi: u64, bits: u32) -> u64 {
    let pot = 1u128 << bits;
    let q0 = pot / u128::from(hi);
    let accept = |m: u64| limit(m, bits);
    (q0..q0 + 4)
        .filter_map(|q| u64::try_from(pot / (q + 1) + 1).ok())
        .chain([lo, hi])
        .filter(|m| (lo..=hi).contains(m))
        .min_by_key(|&m| accept(m))
        .unwrap_or(lo)
}

/// Rejection at every width: the ranges it covers and its worst acceptance.
pub(crate) fn rejection_table() -> String {
    let mut out = String::from("| bytes k | ranges | worst range | acceptance there | expected MACs per value there |\n|---|---|---|---|---|\n");
    for k in 1..=7u32 {
        let lo = if k == 1 { 2 } else { 1u64 << (8 * (k - 1)) | 1 };
        let hi = if k == 7 { (1u64 << 53) - 1 } else { 1u64 << (8 * k) };
        let worst = worst_range(lo, hi, 8 * k);
        #[allow(clippy::cast_precision_loss, reason = "a ratio")]
        let accept = limit(worst, 8 * k) as f64 / (1u128 << (8 * k)) as f64;
        let _ = writeln!(
            out,
            "| {k} | {lo} … {hi} | {worst} | {accept:.6} | {:.4} |",
            1.0 / accept
        );
    }
    out
}

/// The ladder's draw counts for one size: per step, the two counts and how many j get the larger.
pub(crate) fn ladder_table(size: usize) -> String {
    let mut out = format!("| ladder step i (size {size}) | words for j (min … max) | j with the larger count | max relative bias |\n|---|---|---|---|\n");
    for i in (1..size).rev() {
        let c = pick_counts(i as u64 + 1, 32);
        let (min, max) = (
            c.iter().min().copied().unwrap_or(0),
            c.iter().max().copied().unwrap_or(0),
        );
        let larger = c.iter().filter(|&&x| x == max && max != min).count();
        let _ = writeln!(
            out,
            "| {i} | {min} … {max} | {larger} | {:.3e} |",
            max_relative_deviation(&ladder_pick(i))
        );
    }
    out
}

/// The cut card's distribution per deck count, at penetrations that show the clamps.
pub(crate) fn cut_table() -> String {
    let mut out = String::from("| decks | penetration | base | spread | clamp | positions (offsets of 2s+1 on each) |\n|---|---|---|---|---|---|\n");
    for decks in 1..=8 {
        for penetration in [0.5, 0.75, 0.9] {
            let (base, spread, low, high) = cut_parameters(decks, penetration);
            let d = cut_distribution(decks, penetration);
            let cells: Vec<String> = d
                .weights
                .iter()
                .enumerate()
                .map(|(i, w)| format!("{}:{w}", d.low + i))
                .collect();
            let _ = writeln!(
                out,
                "| {decks} | {penetration} | {base} | {spread} | [{low}, {high}] | {} |",
                compress(&cells)
            );
        }
    }
    out
}

/// A long list of `position:weight` cells, the equal middle ones elided.
fn compress(cells: &[String]) -> String {
    if cells.len() <= 6 {
        return cells.join(" ");
    }
    format!(
        "{} {} … {} {}",
        cells[0],
        cells[1],
        cells[cells.len() - 2],
        cells[cells.len() - 1]
    )
}
