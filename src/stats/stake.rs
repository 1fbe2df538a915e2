//! The statistics of the `stake` ops (issue 28): what each game's outcome
//! is, and its exact distribution under uniform HMAC output.
//!
//! Every game event is ⌊f·m⌋ of a float f = u/2³² with u uniform on 32 bits
//! (src/schemes/stake/mod.rs), so its exact law is [`certify::pick_counts`]`(m, 32)`
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

use super::certify::pick_counts;
use super::model::{int, Key, Layout, Step};
use crate::op::{Arg, Request};

/// The cells of a multiplier: [1, 1.05), [1.05, 1.1), …, [25, ∞).
pub const THRESHOLDS: [f64; 13] = [1.05, 1.1, 1.2, 1.35, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0, 25.0];

/// Plinko's edge buckets are pooled until each side holds this much.
const PLINKO_TAIL: f64 = 0.01;

/// Dice's and the float's bins.
const BINS: u64 = 16;

const TWO_32: f64 = 4_294_967_296.0;

/// Whether a stake op has tests: every game of the op table; not
/// `stake.crash.chain`, whose answer is a distance along the chain.
pub(crate) fn is_tested(op: &str) -> bool {
    op != "stake.crash.chain" && crate::schemes::stake::SCHEME.ops.iter().any(|spec| spec.name == op)
}

/// The family of a stake round.
pub(crate) fn key_of(req: &Request) -> Option<Key> {
    let op = req.op();
    let key = |a| Some(Key { op, a, b: 0 });
    match op {
        "stake.plinko" => key(int(req, "rows")?),
        "stake.wheel" => key(int(req, "segments")?),
        "stake.mines" => key(int(req, "mines")?),
        _ if is_tested(op) => key(0),
        _ => None,
    }
}

/// ⌊f·m⌋'s exact law: the words of each value over 2³².
pub fn pick_law(m: u64) -> Vec<f64> {
    #[allow(clippy::cast_precision_loss, reason = "counts below 2^32 are exact")]
    pick_counts(m, 32).into_iter().map(|c| c as f64 / TWO_32).collect()
}

/// Sums the counts of ⌊f·m⌋ into the cells `cell(value)` (exact in u64, one division).
fn pooled(m: u64, cells: usize, cell: impl Fn(u64) -> usize) -> Vec<f64> {
    let mut words = vec![0u64; cells];
    for (v, c) in (0..m).zip(pick_counts(m, 32)) {
        words[cell(v)] += c;
    }
    #[allow(clippy::cast_precision_loss, reason = "sums of at most 2^32 words are exact")]
    words.into_iter().map(|w| w as f64 / TWO_32).collect()
}

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
    reach.windows(2).map(|w| (w[0] - w[1]) as f64 / TWO_32).collect()
}

/// The cell of a multiplier: how many thresholds it reaches.
pub fn multiplier_cell(m: f64) -> usize {
    THRESHOLDS.iter().filter(|&&x| m >= x).count()
}

/// Limbo's multiplier of a word, canonical reading.
pub fn limbo_of(u: u32) -> f64 {
    crate::schemes::stake::limbo(crate::schemes::stake::float_of(u))
}

/// Crash's point of a game's word, canonical reading.
pub fn crash_of(n: u32) -> f64 {
    crate::schemes::stake::floor2(crate::schemes::stake::readings::crash_unrounded(n))
}

/// C(n, k) for n ≤ 16.
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Plinko's pooled bucket cells for `rows`: the smallest `lo` with
/// P(bucket ≤ lo) ≥ 1 %, buckets below it pooled into it and above rows − lo
/// into that one.
pub fn plinko_low(rows: u64) -> u64 {
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
        usize::from(crate::schemes::stake::baccarat_value(u8::try_from(c).expect("a card")))
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
        let coup = crate::schemes::stake::baccarat(digits.iter().map(|&d| card(d)).collect());
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

fn uniform(n: usize) -> Vec<f64> {
    #[allow(clippy::cast_precision_loss, reason = "small n")]
    let p = 1.0 / n as f64;
    vec![p; n]
}

/// The draws of a game without replacement: items n and draws k.
fn draws(key: Key) -> Option<(u64, u64)> {
    match key.op {
        "stake.keno" => Some((40, 10)),
        "stake.mines" => Some((25, key.a)),
        "stake.videopoker" => Some((52, 10)),
        _ => None,
    }
}

/// The layout of a stake family.
pub(crate) fn layout(key: Key) -> Layout {
    let mut tests: Vec<(String, Vec<f64>)> = Vec::new();
    let mut label = key.op.to_string();
    let serial = match key.op {
        "stake.floats" => {
            tests.push(("first float in sixteenths".into(), uniform(16)));
            Some(uniform(16))
        }
        "stake.dice" => {
            let p = pooled(10_001, 16, |k| usize::try_from(dice_bin(k)).expect("small"));
            tests.push(("roll in 16 bins ⌊k·16/10001⌋ of k = roll·100".into(), p.clone()));
            Some(p)
        }
        "stake.limbo" | "stake.crash" => {
            let p = if key.op == "stake.limbo" {
                multiplier_law(&limbo_of)
            } else {
                multiplier_law(&crash_of)
            };
            let name = if key.op == "stake.limbo" {
                "multiplier"
            } else {
                "crash point"
            };
            tests.push((format!("{name} in cells from 1.05 to 25"), p.clone()));
            (key.op == "stake.limbo").then_some(p)
        }
        "stake.plinko" => {
            label = format!("stake.plinko rows={}", key.a);
            let p = plinko_law(key.a);
            tests.push((format!("bucket, edges pooled below {}", plinko_low(key.a)), p.clone()));
            Some(p)
        }
        "stake.roulette" => {
            tests.push(("pocket".into(), pick_law(37)));
            Some(pick_law(37))
        }
        "stake.wheel" => {
            label = format!("stake.wheel segments={}", key.a);
            tests.push(("segment".into(), pick_law(key.a)));
            Some(pick_law(key.a))
        }
        "stake.hilo" | "stake.blackjack" | "stake.baccarat" => {
            let (rank, suit) = card_laws();
            let n = if key.op == "stake.baccarat" { 6 } else { 52 };
            tests.extend((0..n).map(|p| (format!("rank at position {p}"), rank.clone())));
            tests.extend((0..n).map(|p| (format!("suit at position {p}"), suit.clone())));
            if key.op == "stake.baccarat" {
                tests.push(("winner: player, banker, tie".into(), baccarat_law()));
                None
            } else {
                Some(rank)
            }
        }
        "stake.diamonds" => {
            tests.extend((0..5).map(|p| (format!("gem at position {p}"), pick_law(7))));
            None
        }
        _ => {
            let (n, k) = draws(key).expect("a stake op with tests");
            if key.op == "stake.mines" {
                label = format!("stake.mines mines={k}");
            }
            tests.extend((0..k).map(|i| (format!("pick at draw {i} (of {})", n - i), pick_law(n - i))));
            None
        }
    };
    Layout { label, tests, serial }
}

/// The tests and the most cells of any.
pub(crate) fn shape(key: Key) -> (usize, usize) {
    let small = |v: u64| usize::try_from(v).expect("small");
    match key.op {
        "stake.floats" | "stake.dice" => (1, 16),
        "stake.limbo" | "stake.crash" => (1, THRESHOLDS.len() + 1),
        "stake.plinko" => (1, small(key.a - 2 * plinko_low(key.a) + 1)),
        "stake.roulette" => (1, 37),
        "stake.wheel" => (1, small(key.a)),
        "stake.hilo" | "stake.blackjack" => (104, 13),
        "stake.baccarat" => (13, 13),
        "stake.diamonds" => (5, 7),
        _ => {
            let (n, k) = draws(key).expect("a stake op with tests");
            (small(k), small(n))
        }
    }
}

fn small(v: &Value) -> Option<u16> {
    v.as_u64().and_then(|v| u16::try_from(v).ok())
}

/// Appends (test, cell) for every test a stake round feeds; returns its serial step.
pub(crate) fn sample(key: Key, req: &Request, ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<Option<Step>> {
    let cell = |c: usize| u16::try_from(c).ok();
    let value: Option<u16> = match key.op {
        "stake.floats" => {
            let f = ok.get("floats")?.as_array()?.first()?.as_f64()?;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "0 ≤ f < 1")]
            let bin = ((f * 16.0).floor() as u16).min(15);
            cells.push((0, bin));
            Some(bin)
        }
        "stake.dice" => {
            let roll = ok.get("roll")?.as_f64()?;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "0 ≤ roll ≤ 100")]
            let k = (roll * 100.0).round() as u64;
            let bin = u16::try_from(dice_bin(k.min(10_000))).ok()?;
            cells.push((0, bin));
            Some(bin)
        }
        "stake.limbo" | "stake.crash" => {
            let field = if key.op == "stake.limbo" {
                "multiplier"
            } else {
                "crashPoint"
            };
            let c = cell(multiplier_cell(ok.get(field)?.as_f64()?))?;
            cells.push((0, c));
            Some(c)
        }
        "stake.plinko" => {
            let c = cell(plinko_cell(ok.get("bucket")?.as_u64()?, key.a))?;
            cells.push((0, c));
            Some(c)
        }
        "stake.roulette" | "stake.wheel" => {
            let v = small(ok.get(if key.op == "stake.roulette" {
                "pocket"
            } else {
                "segment"
            })?)?;
            cells.push((0, v));
            Some(v)
        }
        "stake.hilo" | "stake.blackjack" | "stake.baccarat" => {
            let cards = ok.get("cards")?.as_array()?;
            let n = cards.len();
            for (p, c) in cards.iter().enumerate() {
                let c = small(c)?;
                cells.push((u32::try_from(p).ok()?, c / 4));
                cells.push((u32::try_from(n + p).ok()?, c % 4));
            }
            if key.op == "stake.baccarat" {
                cells.push((12, cell(winner_cell(ok.get("winner")?.as_str()?))?));
            }
            Some(small(cards.first()?)? / 4)
        }
        "stake.diamonds" => {
            for (p, g) in ok.get("gems")?.as_array()?.iter().enumerate() {
                let gem = crate::schemes::stake::GEMS
                    .iter()
                    .position(|x| Some(*x) == g.as_str())?;
                cells.push((u32::try_from(p).ok()?, cell(gem)?));
            }
            None
        }
        _ => {
            picks(key, ok, cells)?;
            None
        }
    };
    // Every game with one value per bet follows it along the nonces of its
    // seed pair (crash has no nonce: its games follow a hash chain).
    let (Some(value), Some(Arg::Text(client))) = (value, req.get("clientSeed")) else {
        return Some(None);
    };
    Some(Some(Step {
        stream: super::model::stream_hash(&[client.as_bytes()]),
        index: int(req, "nonce")?,
        value,
    }))
}

/// The pick of each draw without replacement: the drawn item's rank among the items left.
fn picks(key: Key, ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<()> {
    let (n, _) = draws(key)?;
    let field = match key.op {
        "stake.keno" => "hits",
        "stake.mines" => "mines",
        _ => "cards",
    };
    let first = u64::from(key.op == "stake.keno");
    let items = ok.get(field)?.as_array()?;
    let mut drawn: Vec<u64> = Vec::with_capacity(items.len());
    for (i, v) in items.iter().take(cells_of(key)).enumerate() {
        let item = v.as_u64()?.checked_sub(first).filter(|&x| x < n)?;
        let earlier = drawn.iter().filter(|&&d| d < item).count() as u64;
        drawn.push(item);
        cells.push((u32::try_from(i).ok()?, u16::try_from(item - earlier).ok()?));
    }
    Some(())
}

/// The draws a family tests (keno 10, mines all, video poker the 10 a hand can show).
fn cells_of(key: Key) -> usize {
    draws(key).map_or(0, |(_, k)| usize::try_from(k).expect("small"))
}
