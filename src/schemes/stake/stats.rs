//! The statistics of the `stake` ops: what each game's outcome
//! is, and its exact distribution under uniform HMAC output.
//!
//! Every game event is ⌊f·m⌋ of a float f = u/2³² with u uniform on 32 bits
//! (src/schemes/stake/mod.rs), so its exact law is [`pick_counts`]`(m, 32)`
//! over 2³²: f·m is exact in binary64 for m < 2²¹, so the floor is the
//! integer one. Limbo's and Crash's multipliers are non-increasing functions
//! of their u32 (every step is monotone: the product, the floor, the
//! division, the clamp), so the words that reach a multiplier of at least x
//! are a prefix [0, U) of the 32-bit words, and U is found by bisection on
//! the game's own function: exact, with no formula to trust.
//!
//! | op | family | tests |
//! |---|---|---|
//! | `stake.floats` | — | the first float in sixteenths (exactly 1/16 each); serial along nonces |
//! | `stake.dice` | — | the roll in 16 bins ⌊k·16/10001⌋ of k = roll·100; serial along nonces |
//! | `stake.limbo` | — | the multiplier in [`THRESHOLDS`] cells; serial along nonces |
//! | `stake.plinko` | rows | the bucket, the edge buckets pooled to 1 % or more a side (exact binomial); serial |
//! | `stake.roulette` | — | the pocket (37 cells); serial |
//! | `stake.wheel` | segments | the segment; serial |
//! | `stake.keno`, `stake.mines` (per mines), `stake.videopoker` | | the pick at each draw: the rank of the drawn item among those left, ⌊f·(n−i)⌋ |
//! | `stake.hilo`, `stake.blackjack` | — | rank (13) and suit (4) at each of the 52 positions; serial on the first card's rank |
//! | `stake.baccarat` | — | rank and suit of the 6 cards; the winner (exact, over every value of the 6 cards) |
//! | `stake.diamonds` | — | the gem at each of the 5 positions (7 cells) |
//! | `stake.crash` | — | the crash point in [`THRESHOLDS`] cells (no serial: a chain, not nonces) |
//!
//! The draws without replacement are tested on their picks, not their
//! items: the pick at draw i is the float's own event ⌊f·(n−i)⌋, exactly
//! known and independent of the other draws, and the picks name the items
//! one to one (the first pick is the first item itself). The item at a
//! later draw is a mixture over the earlier ones whose exact law would need
//! every subset of the items left.

use serde_json::Value;

use super::fields::{MINES_FIELD, ROWS, SEGMENTS};
use crate::op::fields::{CLIENT_SEED, NONCE};
#[cfg(doc)]
use crate::op::stats::pick_counts;
use crate::op::stats::{at, pick_law, pooled, small, uniform, Family, Layout, Model, Step};
use crate::op::Request;

/// The cells of a multiplier: [1, 1.05), [1.05, 1.1), …, [25, ∞).
pub const THRESHOLDS: [f64; 13] = [1.05, 1.1, 1.2, 1.35, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0, 25.0];

/// Plinko's edge buckets are pooled until each side holds this much.
const PLINKO_TAIL: f64 = 0.01;

/// Dice's and the float's bins.
const BINS: u64 = 16;

/// The bin of dice's k = roll·100 in 0 ..= 10000.
pub fn dice_bin(k: u64) -> u64 {
    k * BINS / 10_001
}

/// How many 32-bit words reach at least `x` under `game`, which does not
/// increase with its word: the first word below `x`, by bisection.
pub fn words_reaching(x: f64, game: &dyn Fn(u32) -> f64) -> u64 {
    let (mut lo, mut hi) = (0u64, 1u64 << 32);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if game(u32::try_from(mid).expect("below 2^32")) >= x {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// A multiplier's exact cell law under `game`: P(cell j) from the words reaching each threshold.
pub fn multiplier_law(game: &dyn Fn(u32) -> f64) -> Vec<f64> {
    let mut reach = vec![1u64 << 32];
    reach.extend(THRESHOLDS.iter().map(|&x| words_reaching(x, game)));
    reach.push(0);
    #[allow(clippy::cast_precision_loss, reason = "word counts up to 2^32 are exact")]
    reach
        .windows(2)
        .map(|w| (w[0] - w[1]) as f64 / 4_294_967_296.0)
        .collect()
}

/// The cell of a multiplier: how many thresholds it reaches.
pub fn multiplier_cell(m: f64) -> usize {
    THRESHOLDS.iter().filter(|&&x| m >= x).count()
}

/// Limbo's multiplier of a word, canonical reading.
pub fn limbo_of(u: u32) -> f64 {
    super::limbo(super::float_of(u))
}

/// Crash's point of a game's word, canonical reading.
pub fn crash_of(n: u32) -> f64 {
    super::floor2(super::readings::crash_unrounded(n))
}

/// C(n, k) for n ≤ 16.
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Plinko's pooled bucket cells for `rows`: the smallest `lo` with
/// P(bucket ≤ lo) ≥ 1 %, buckets below it pooled into it and above rows − lo
/// into that one.
pub(crate) fn plinko_low(rows: u64) -> u64 {
    let total = 1u64 << rows;
    let mut below = 0;
    for b in 0..=rows {
        below += binomial(rows, b);
        #[allow(clippy::cast_precision_loss, reason = "at most 2^16")]
        if below as f64 / total as f64 >= PLINKO_TAIL {
            return b;
        }
    }
    0
}

/// The exact law of plinko's pooled bucket cells: each of the `rows`
/// directions is the float's top bit, exactly one half.
pub fn plinko_law(rows: u64) -> Vec<f64> {
    let lo = plinko_low(rows);
    let mut words = vec![0u64; usize::try_from(rows - 2 * lo + 1).expect("small")];
    for b in 0..=rows {
        words[plinko_cell(b, rows)] += binomial(rows, b);
    }
    #[allow(clippy::cast_precision_loss, reason = "at most 2^16")]
    words.into_iter().map(|w| w as f64 / (1u64 << rows) as f64).collect()
}

/// The pooled cell of a plinko bucket.
pub fn plinko_cell(bucket: u64, rows: u64) -> usize {
    let lo = plinko_low(rows);
    usize::try_from(bucket.clamp(lo, rows - lo) - lo).expect("small")
}

/// Rank ⌊c/4⌋ and suit c mod 4 laws of a card ⌊f·52⌋.
fn card_laws() -> (Vec<f64>, Vec<f64>) {
    (
        pooled(52, 13, |c| usize::try_from(c / 4).expect("small")),
        pooled(52, 4, |c| usize::try_from(c % 4).expect("small")),
    )
}

/// The winner's exact law (player, banker, tie): every value of the 6 cards
/// (ten baccarat values, each with its words), in lexicographic order.
/// Computed once (a million coups).
pub fn baccarat_law() -> Vec<f64> {
    static LAW: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    LAW.get_or_init(enumerate_coups).clone()
}

fn enumerate_coups() -> Vec<f64> {
    let values = pooled(52, 10, |c| {
        usize::from(super::baccarat_value(u8::try_from(c).expect("a card")))
    });
    // A card of each baccarat value: 0 a ten, 1 an ace, 2 … 9 their pips.
    let card = |v: usize| -> u8 {
        match v {
            0 => 32,
            1 => 48,
            v => u8::try_from(4 * (v - 2)).expect("a card"),
        }
    };
    let mut law = [0.0f64; 3];
    let mut digits = [0usize; 6];
    for code in 0..1_000_000usize {
        let mut rest = code;
        for d in digits.iter_mut().rev() {
            *d = rest % 10;
            rest /= 10;
        }
        let p = digits.iter().fold(1.0, |acc, &d| acc * values[d]);
        let coup = super::baccarat(digits.iter().map(|&d| card(d)).collect());
        law[winner_cell(coup.winner)] += p;
    }
    law.to_vec()
}

fn winner_cell(w: &str) -> usize {
    match w {
        "player" => 0,
        "banker" => 1,
        _ => 2,
    }
}

/// A cell as a count table's index.
fn cell(c: usize) -> Option<u16> {
    u16::try_from(c).ok()
}

/// One value per bet, followed along the nonces of its seed pair: the
/// round's serial step (every game with a nonce and a client seed).
fn along_nonces(r: &Request, value: u16) -> Option<Option<Step>> {
    Some(Some(Step::new(&[r.text(CLIENT_SEED).as_bytes()], r.int(NONCE), value)))
}

/// A game of one value per bet: one test of `cells` cells with law `law`,
/// serial along nonces; `value` reads the cell off the derived `ok`.
macro_rules! one_value {
    ($cells:expr, $name:expr, $law:expr, $value:expr) => {
        Model {
            family: |_| Some(Family::ONE),
            shape: |_| (1, $cells),
            layout: |_| {
                let p: Vec<f64> = $law;
                let mut l = Layout::new("");
                l.test($name, p.clone());
                l.serial(p)
            },
            sample: |_, r, ok, cells| {
                let v: u16 = ($value)(ok)?;
                cells.push((0, v));
                along_nonces(r, v)
            },
        }
    };
}

pub(crate) const FLOATS: Model = one_value!(16, "first float in sixteenths", uniform(16), |ok: &Value| {
    let f = ok.get("floats")?.as_array()?.first()?.as_f64()?;
    Some(crate::schemes::cursor::stats::sixteenth(f))
});

pub(crate) const DICE: Model = one_value!(
    16,
    "roll in 16 bins ⌊k·16/10001⌋ of k = roll·100",
    pooled(10_001, 16, |k| usize::try_from(dice_bin(k)).expect("small")),
    |ok: &Value| {
        let roll = ok.get("roll")?.as_f64()?;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "0 ≤ roll ≤ 100")]
        let k = (roll * 100.0).round() as u64;
        u16::try_from(dice_bin(k.min(10_000))).ok()
    }
);

pub(crate) const LIMBO: Model = one_value!(
    THRESHOLDS.len() + 1,
    "multiplier in cells from 1.05 to 25",
    multiplier_law(&limbo_of),
    |ok: &Value| cell(multiplier_cell(ok.get("multiplier")?.as_f64()?))
);

pub(crate) const ROULETTE: Model = one_value!(37, "pocket", pick_law(37), |ok: &Value| small(ok.get("pocket")?));

/// Crash: its games follow a hash chain, not nonces, so no serial test.
pub(crate) const CRASH: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (1, THRESHOLDS.len() + 1),
    layout: |_| {
        let mut l = Layout::new("");
        l.test("crash point in cells from 1.05 to 25", multiplier_law(&crash_of));
        l
    },
    sample: |_, _, ok, cells| {
        cells.push((0, cell(multiplier_cell(ok.get("crashPoint")?.as_f64()?))?));
        Some(None)
    },
};

pub(crate) const PLINKO: Model = Model {
    family: |r| Some(Family::of(r.int(ROWS))),
    shape: |f| (1, usize::try_from(f.a - 2 * plinko_low(f.a) + 1).expect("small")),
    layout: |f| {
        let p = plinko_law(f.a);
        let mut l = Layout::new(format!("rows={}", f.a));
        l.test(format!("bucket, edges pooled below {}", plinko_low(f.a)), p.clone());
        l.serial(p)
    },
    sample: |f, r, ok, cells| {
        let c = cell(plinko_cell(ok.get("bucket")?.as_u64()?, f.a))?;
        cells.push((0, c));
        along_nonces(r, c)
    },
};

pub(crate) const WHEEL: Model = Model {
    family: |r| Some(Family::of(r.int(SEGMENTS))),
    shape: |f| (1, f.size()),
    layout: |f| {
        let mut l = Layout::new(format!("segments={}", f.a));
        l.test("segment", pick_law(f.a));
        l.serial(pick_law(f.a))
    },
    sample: |_, r, ok, cells| {
        let v = small(ok.get("segment")?)?;
        cells.push((0, v));
        along_nonces(r, v)
    },
};

/// Rank and suit at each of `n` positions; returns the first card's rank.
fn card_cells(ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<u16> {
    let cards = ok.get("cards")?.as_array()?;
    let n = cards.len();
    for (p, c) in cards.iter().enumerate() {
        let c = small(c)?;
        cells.push((at(p), c / 4));
        cells.push((at(n + p), c % 4));
    }
    Some(small(cards.first()?)? / 4)
}

/// The rank and suit tests of `n` cards ⌊f·52⌋.
fn card_layout(n: usize) -> Layout {
    let (rank, suit) = card_laws();
    let mut l = Layout::new("");
    for p in 0..n {
        l.test(format!("rank at position {p}"), rank.clone());
    }
    for p in 0..n {
        l.test(format!("suit at position {p}"), suit.clone());
    }
    l
}

/// Hilo's and blackjack's 52 cards: serial on the first card's rank.
pub(crate) const DECK: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (104, 13),
    layout: |_| {
        let rank = card_laws().0;
        card_layout(52).serial(rank)
    },
    sample: |_, r, ok, cells| {
        let first = card_cells(ok, cells)?;
        along_nonces(r, first)
    },
};

pub(crate) const BACCARAT: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (13, 13),
    layout: |_| {
        let mut l = card_layout(6);
        l.test("winner: player, banker, tie", baccarat_law());
        l
    },
    sample: |_, _, ok, cells| {
        card_cells(ok, cells)?;
        cells.push((12, cell(winner_cell(ok.get("winner")?.as_str()?))?));
        Some(None)
    },
};

pub(crate) const DIAMONDS: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (5, 7),
    layout: |_| {
        let mut l = Layout::new("");
        for p in 0..5 {
            l.test(format!("gem at position {p}"), pick_law(7));
        }
        l
    },
    sample: |_, _, ok, cells| {
        for (p, g) in ok.get("gems")?.as_array()?.iter().enumerate() {
            let gem = super::GEMS.iter().position(|x| Some(*x) == g.as_str())?;
            cells.push((at(p), cell(gem)?));
        }
        Some(None)
    },
};

/// The tests of `k` draws without replacement from `n` items: the pick at
/// draw i, ⌊f·(n−i)⌋.
fn draws_layout(params: String, n: u64, k: u64) -> Layout {
    let mut l = Layout::new(params);
    for i in 0..k {
        l.test(format!("pick at draw {i} (of {})", n - i), pick_law(n - i));
    }
    l
}

/// The pick of each of the first `k` draws without replacement from `n`
/// items numbered from `first`, read off the drawn items in `field`: the
/// drawn item's rank among the items left.
fn picks(ok: &Value, field: &str, n: u64, k: u64, first: u64, cells: &mut Vec<(u32, u16)>) -> Option<Option<Step>> {
    let items = ok.get(field)?.as_array()?;
    let mut drawn: Vec<u64> = Vec::with_capacity(items.len());
    for (i, v) in items.iter().take(usize::try_from(k).ok()?).enumerate() {
        let item = v.as_u64()?.checked_sub(first).filter(|&x| x < n)?;
        let earlier = drawn.iter().filter(|&&d| d < item).count() as u64;
        drawn.push(item);
        cells.push((at(i), u16::try_from(item - earlier).ok()?));
    }
    Some(None)
}

/// Keno: 10 squares drawn from 40, numbered from 1.
pub(crate) const KENO: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (10, 40),
    layout: |_| draws_layout(String::new(), 40, 10),
    sample: |_, _, ok, cells| picks(ok, "hits", 40, 10, 1, cells),
};

/// Mines: every mine drawn from 25 tiles, one family per mine count.
pub(crate) const MINES: Model = Model {
    family: |r| Some(Family::of(r.int(MINES_FIELD))),
    shape: |f| (f.size(), 25),
    layout: |f| draws_layout(format!("mines={}", f.a), 25, f.a),
    sample: |f, _, ok, cells| picks(ok, "mines", 25, f.a, 0, cells),
};

/// Video poker: the 10 cards a hand can show, drawn from 52.
pub(crate) const VIDEOPOKER: Model = Model {
    family: |_| Some(Family::ONE),
    shape: |_| (10, 52),
    layout: |_| draws_layout(String::new(), 52, 10),
    sample: |_, _, ok, cells| picks(ok, "cards", 52, 10, 0, cells),
};
