//! `crash`: the bustabit family of crash games (bustabit v1 and v2,
//! Roobet, BC.Game) and their hash chains.
//!
//! A crash game plays a chain of SHA-256 hashes backwards: the operator
//! fixes a chain, commits to its last hash (the terminating hash), and game
//! i's hash is h\[i\]; the game before it has h\[i−1\] = link(h\[i\]). Each game's
//! hash is mixed with a public salt (a block hash chosen after the chain was
//! fixed) by HMAC-SHA256. The code is the specification; the formulas, with
//! the sources they are read from (each read in full):
//!
//! **Links** ([`Link`]):
//! - `text`: h\[i−1\] = SHA-256(the 64-character lowercase hex text of h\[i\]).
//!   bustabit v1 (bustabit/v1-gameserver `server/lib.js`, `genGameHash`),
//!   bustabit v2's previous chain (games 1 … 10,000,000: bustabit/verifier
//!   `src/verifier.worker.ts`, "hash of the hex-encoded value"), Roobet
//!   (the copies of its script below), BC.Game (bcgame-project/verify
//!   `crash.html`, `CryptoJS.SHA256(String(prevHash))`). Stake's crash
//!   chain is the same link (`stake.crash.chain` walks it, as `crash.chain.bytes` walks the other,
//!   with [`crate::base::chain`]).
//! - `bytes`: h\[i−1\] = SHA-256(the 32 bytes of h\[i\]). bustabit v2's current
//!   chain (the same worker, "hash of the binary value").
//!
//! **`crash.v1`** (bustabit v1 and Roobet): m = HMAC_SHA256(key = the game
//! hash's hex text, message = the salt's text). If m, read as a 256-bit
//! big-endian integer, is divisible by `divisor`, the game crashes at once
//! with the point `instant`; otherwise, with h = the first 13 hex digits of
//! m (52 bits) and e = 2^52, the point is ⌊(100·e − h)/(e − h)⌋/100, the
//! division in binary64 as JavaScript does it.
//! - bustabit v1 (`server/lib.js`, `crashPointFromHash`): divisor 101 ("in
//!   1 of 101 games the game crashes instantly"), instant point 0; the
//!   function answers cents, which the game shows divided by 100. Salt:
//!   Bitcoin block 339,300's hash.
//! - Roobet (copies of its verification script: rorybain96/roobet
//!   `roobet.js`, IsiraUdaththa/Roobet-Crash-Analysis `crash.py` and
//!   `index-checkpoint.js`): the same, with divisor `parseInt(100/5)` = 20
//!   (`crash.py`: `% 20`), `parseInt(100/4)` = 25 in the copy salted with
//!   Ethereum block 17,985,520, and 33 in earlier copies; the instant point
//!   is 1 (`return 1`), and the result is divided by 100 in the script.
//!   The Ethereum salt is written with its `0x` (`"0xd286…4f14"`): the salt
//!   is a text, and that text is the message, `0x` and all.
//!
//! **`crash.v2`** (bustabit v2 and BC.Game): m = HMAC_SHA256(key = the
//! salt's UTF-8 text, message = the game hash's **32 raw bytes**); X = the
//! first 52 bits of m / 2^52; the point is max(1, ⌊99/(1 − X)⌋/100).
//! - bustabit v2 (bustabit/verifier `src/utils/math.ts` `gameResult`,
//!   `src/verifier.worker.ts`, `src/constants.ts`): key = `PREV_GAME_SALT`
//!   (block 505,750) on the previous chain, `utf8ToBytes(GAME_SALT)` after
//!   game 12,279,450 on the current one.
//! - BC.Game (`crash.html`, `gameResult`): the same HMAC
//!   (`HmacSHA256(CryptoJS.enc.Hex.parse(seed), salt)`), then
//!   `X = parseFloat(X.toPrecision(9))` before the division: the field
//!   `bcgame` (`to_precision9`). About 2 in 10,000 games change by 0.01.
//!
//! Decisions, where the sources leave a choice:
//! - **raw bytes, not hex text, as v2's HMAC message.** bustabit's seeding
//!   post (bitcointalk 2807542) writes `HMAC_SHA256(key=salt, message=hash)`
//!   without saying which form of the hash; the official verifier hex-
//!   decodes it, and the `bustabit` crate 0.2.1's published outcomes
//!   (`b2acd37f…` → 1.26, `5d07719b…` → 2055.9) match only so (the hex text
//!   gives 1.78 and 3.46). The verifier and the published numbers decide.
//! - **game 10,000,000.** The official verifier treats a game as one of the
//!   previous chain when `gameNumber < PREV_CHAIN_LENGTH` (10^7), so game
//!   10,000,000 itself is walked with the raw-byte link although the
//!   seeding post says the previous chain holds games 1 … 10,000,000. The
//!   ops here take the link as a field and decide nothing by game number:
//!   a verifier that needs a link for game 10^7 must choose, and
//!   docs/schemes.md says which the official verifier uses.
//! - **BC.Game when X rounds to 1.** For X ≥ 1 − 5·10^−10 (about one game in
//!   two billion) `toPrecision(9)` answers `"1.00000000"` and the page shows
//!   `Infinity`. No JSON number says that: the op answers `exhausted`.
//! - **the edge field of BC.Game's page** (`?r=`, read with
//!   `parseInt(Number(r), 2)`, base 2) is not a field here: the page's
//!   default 1 (99 over 1 − X) is the game, as on bustabit.
//! - **bustabit's Vx period** (games 10,000,001 … 12,279,450 of the current
//!   chain, keyed on a BLS12-381 signature of the hash) is out of scope: it
//!   needs a BLS signature, and no maintained crate makes it cheap here.
//!   The current chain's link, and every game after it, are in scope.

pub mod fields;
pub mod ops;
pub mod stats;

pub use ops::SCHEME;

use crate::base::chain::step;
pub use crate::base::chain::{bytes_of, Link};
use crate::base::hmac::{hmac_sha256, Keyed};

/// The largest `limit` of a chain walk: the chains are 10^7 long, as Stake's is.
pub use crate::schemes::stake::crash::MAX_LIMIT;

/// 2^52, the divisor of a game's 13 hex digits.
const TWO_52: f64 = 4_503_599_627_370_496.0;

/// The link fields' words, in [`Link`] order.
pub(crate) const LINKS: [&str; 2] = ["text", "bytes"];

/// The link a word of [`LINKS`] names.
pub(crate) fn link_of(word: &str) -> Link {
    if word == "bytes" {
        Link::Bytes
    } else {
        Link::Text
    }
}

/// The previous game's hash: h\[i−1\] = link(h\[i\]).
pub(crate) fn previous(link: Link, hash: &str) -> [u8; 32] {
    step(link, &bytes_of(hash))
}

pub use crate::schemes::stake::crash::walk as distance;

/// The first 52 bits of a MAC, big-endian (its first 13 hex digits).
pub(crate) fn first52(mac: &[u8; 32]) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&mac[..8]);
    u64::from_be_bytes(b) >> 12
}

/// The MAC, read as a 256-bit big-endian integer, modulo `divisor`.
///
/// Long division by as many bytes at a time as the remainder leaves room
/// for in 64 bits: one division per seven bytes for the sources' divisors
/// (a division per byte cost more than the game's five compressions), and
/// for those divisors a division by a constant, which the compiler makes
/// a multiplication (a division by a value is a fifth of a game's time).
pub(crate) fn remainder(mac: &[u8; 32], divisor: u64) -> u64 {
    match divisor {
        20 => long_division(mac, 20, |v| v % 20),
        25 => long_division(mac, 25, |v| v % 25),
        33 => long_division(mac, 33, |v| v % 33),
        101 => long_division(mac, 101, |v| v % 101),
        d => long_division(mac, d, |v| v % d),
    }
}

/// `mac` modulo `divisor`, `modulo` taking a u64 to its remainder.
fn long_division(mac: &[u8; 32], divisor: u64, modulo: impl Fn(u64) -> u64) -> u64 {
    let room = divisor.leading_zeros() / 8;
    if room == 0 {
        let d = u128::from(divisor);
        let r = mac.iter().fold(0u128, |r, &b| ((r << 8) | u128::from(b)) % d);
        return u64::try_from(r).expect("below the divisor");
    }
    let bytes = usize::try_from(room.min(7)).expect("at most 7");
    mac.chunks(bytes).fold(0, |r, chunk| {
        modulo(chunk.iter().fold(r, |v, &b| (v << 8) | u64::from(b)))
    })
}

/// Whether the MAC is divisible by `divisor`: the instant-crash rule of v1
/// (every bit counts, not only the 52 the point is read from).
pub(crate) fn divisible(mac: &[u8; 32], divisor: u64) -> bool {
    remainder(mac, divisor) == 0
}

/// v1's MAC: HMAC_SHA256(key = the game hash's hex text, message = the salt).
pub(crate) fn v1_mac(hash: &str, salt: &str) -> [u8; 32] {
    hmac_sha256(hash.as_bytes(), salt.as_bytes())
}

/// v1's point of a game that does not crash at once: ⌊(100·e − h)/(e − h)⌋
/// in cents, in binary64 as `server/lib.js` computes it.
#[allow(
    clippy::cast_precision_loss,
    reason = "h is below 2^52, exact in binary64; 100·e − h rounds as JavaScript's does"
)]
pub(crate) fn v1_cents(h: u64) -> f64 {
    let h = h as f64;
    whole((100.0 * TWO_52 - h) / (TWO_52 - h))
}

/// ⌊x⌋ of an x in [0, 2^63): its integer part, exact as a binary64 (every
/// point's quotient is below 100·2^52). `f64::floor` without SSE4.1 is a
/// call into libm, a tenth of a game's time.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "x in [0, 2^63): truncation toward zero is the floor, and the integer part of a binary64 is one"
)]
fn whole(x: f64) -> f64 {
    debug_assert!((0.0..9.2e18).contains(&x), "{x}");
    (x as u64) as f64
}

/// v1's crash point: `instant` when the MAC is divisible by `divisor`,
/// else `v1_cents` / 100.
pub fn v1_point(hash: &str, salt: &str, divisor: u64, instant: u64) -> f64 {
    let mac = v1_mac(hash, salt);
    if divisible(&mac, divisor) {
        #[allow(clippy::cast_precision_loss, reason = "0 or 1")]
        return instant as f64;
    }
    v1_cents(first52(&mac)) / 100.0
}

/// v2's MAC: HMAC_SHA256(key = the salt's text, message = the hash's 32 bytes).
pub fn v2_mac(hash: &str, salt: &str) -> [u8; 32] {
    v2_mac_of(&bytes_of(hash), salt)
}

/// [`v2_mac`] of the hash's bytes (a chain walked holds them already).
pub(crate) fn v2_mac_of(hash: &[u8; 32], salt: &str) -> [u8; 32] {
    Keyed::new(salt).mac(hash)
}

/// X = the first 52 bits / 2^52, exact in binary64.
#[allow(clippy::cast_precision_loss, reason = "below 2^52: exact")]
pub fn v2_x(mac: &[u8; 32]) -> f64 {
    first52(mac) as f64 / TWO_52
}

/// ⌊99/(1 − X)⌋/100: v2's point of X before the clamp, below 1 for X < 0.01.
pub(crate) fn v2_unclamped(x: f64) -> f64 {
    whole(99.0 / (1.0 - x)) / 100.0
}

/// max(1, ⌊99/(1 − X)⌋/100): v2's point of X.
pub(crate) fn v2_of(x: f64) -> f64 {
    v2_unclamped(x).max(1.0)
}

/// JavaScript's `parseFloat(x.toPrecision(9))` for x = r/2^52 with r below
/// 2^52: x rounded to 9 significant decimal digits, a tie away from zero
/// (ECMA-262 Number.prototype.toPrecision: "if there are two such sets of
/// e and n, pick the e and n for which n × 10^(e–p+1) is larger"), then
/// read back to the nearest binary64. Exact: x·10^k is a fraction over
/// 2^52 whose numerator stays below 2^82.
pub(crate) fn to_precision9(r: u64) -> f64 {
    if r == 0 {
        return 0.0;
    }
    // The power k with 10^8 ≤ x·10^k < 10^9, found on the exact fraction
    // (x < 1, so k ≥ 9; x ≥ 2^-52 > 10^-16, so k ≤ 24): the first k whose
    // threshold r reaches, r·10^k ≥ 10^8·2^52.
    let den: u128 = 1 << 52;
    let k = (9..=24)
        .find(|&k| r >= PRECISION_THRESHOLDS[k - 9])
        .expect("r ≥ 1 reaches k = 24");
    let scaled = u128::from(r) * 10u128.pow(u32::try_from(k).expect("at most 24"));
    let (int, rest) = (scaled / den, scaled % den);
    let n = u64::try_from(if 2 * rest >= den { int + 1 } else { int }).expect("at most 10^9");
    // n/10^k read back to the nearest binary64: n (below 2^30) and 10^k
    // (k ≤ 22) are exact doubles, and a division of two is correctly
    // rounded, as reading the decimal n·10^−k is. Past 10^22 (x below
    // 10^−14, r below 46) by the decimal.
    #[allow(clippy::cast_precision_loss, reason = "n is below 2^30: exact")]
    match POWERS_OF_TEN.get(k) {
        Some(&p) => n as f64 / p,
        None => format!("{n}e-{k}").parse().expect("a decimal number"),
    }
}

/// For k = 9 … 24, the least r < 2^52 with r·10^k ≥ 10^8·2^52: ⌈10^8·2^52/10^k⌉.
#[allow(
    clippy::cast_possible_truncation,
    reason = "k below 16, and each threshold below 2^52"
)]
const PRECISION_THRESHOLDS: [u64; 16] = {
    let mut t = [0u64; 16];
    let top: u128 = 100_000_000 << 52;
    let mut k = 0;
    while k < 16 {
        let p = 10u128.pow(9 + k as u32);
        t[k] = top.div_ceil(p) as u64;
        k += 1;
    }
    t
};

/// 10^0 … 10^22, every power of ten a binary64 holds exactly.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// BC.Game's X: [`to_precision9`] of the first 52 bits.
pub(crate) fn bcgame_x(mac: &[u8; 32]) -> f64 {
    to_precision9(first52(mac))
}

/// v2's crash point; with `bcgame`, X rounded as BC.Game's page does.
/// `None` when BC.Game's X rounds to 1 (the page shows `Infinity`).
pub(crate) fn v2_point(hash: &str, salt: &str, bcgame: bool) -> Option<f64> {
    v2_point_of(&bytes_of(hash), salt, bcgame)
}

/// [`v2_point`] of the hash's bytes.
pub(crate) fn v2_point_of(hash: &[u8; 32], salt: &str, bcgame: bool) -> Option<f64> {
    v2_point_keyed(&Keyed::new(salt), hash, bcgame)
}

/// `v2_point` of the hash's bytes under the salt's key, keyed once for
/// all the games of a chain (two compressions a game).
pub fn v2_point_keyed(salt: &Keyed, hash: &[u8; 32], bcgame: bool) -> Option<f64> {
    let mac = salt.mac(hash);
    let x = if bcgame { bcgame_x(&mac) } else { v2_x(&mac) };
    (x < 1.0).then(|| v2_of(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_precision9_rounds_a_tie_up_and_reads_back_the_nearest_double() {
        // 513/1024 = 0.5009765625 exactly: 10 significant digits ending in 5.
        let r = 513u64 << 42;
        assert_eq!(to_precision9(r), 0.500_976_563);
        assert_eq!(to_precision9(1u64 << 51), 0.5);
        // 2^-52 = 2.220446049250313e-16 → 2.22044605e-16.
        assert_eq!(to_precision9(1), 2.220_446_05e-16);
        // Just below 1: rounds to 1, where BC.Game's page divides by 0.
        assert_eq!(to_precision9((1u64 << 52) - 1), 1.0);
    }

    #[test]
    fn to_precision9_by_division_is_the_decimal_read_back_for_every_power() {
        // Each power k the fast path divides by, at the ends of its range
        // and between, against reading n·10^−k as text (the decimal's own
        // nearest binary64): the two must agree to the bit.
        let mut r = 46u64;
        while r < 1 << 52 {
            for x in [r, r + 1, r * 3 / 2, (r * 7 / 4).min((1 << 52) - 1)] {
                let den: u128 = 1 << 52;
                let (mut scaled, mut k) = (u128::from(x), 0);
                while scaled < 100_000_000 * den {
                    scaled *= 10;
                    k += 1;
                }
                let n = (scaled + den / 2) / den;
                let read: f64 = format!("{n}e-{k}").parse().unwrap();
                assert_eq!(to_precision9(x).to_bits(), read.to_bits(), "r = {x}");
            }
            r = r * 2 + 1;
        }
    }

    #[test]
    fn remainder_by_seven_bytes_is_the_remainder_byte_by_byte() {
        let mut mac = [0u8; 32];
        for (i, b) in mac.iter_mut().enumerate() {
            *b = u8::try_from((i * 97 + 13) % 256).unwrap();
        }
        for d in [
            2,
            20,
            25,
            33,
            101,
            255,
            256,
            257,
            65_537,
            1 << 40,
            (1 << 63) + 5,
            u64::MAX,
        ] {
            let bytewise = mac
                .iter()
                .fold(0u128, |r, &b| (r * 256 + u128::from(b)) % u128::from(d));
            assert_eq!(u128::from(remainder(&mac, d)), bytewise, "divisor {d}");
        }
    }

    #[test]
    fn divisible_reads_every_bit_of_the_mac() {
        let mut mac = [0u8; 32];
        mac[31] = 101;
        assert!(divisible(&mac, 101));
        mac[0] = 1; // 2^248 + 101: 2^248 mod 101 is not 0
        assert!(!divisible(&mac, 101));
    }
}
