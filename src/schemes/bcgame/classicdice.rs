//! BC.Game's dice: Classic Dice in both generations, and the newer Dice.
//!
//! **Old generation** (`classicdice.html`): the MAC is HMAC-SHA256; its
//! first four bytes make a float, summed as the page sums them,
//! `num += list[i] / Math.pow(256, i + 1)` (exact: f = u/2³² for the
//! big-endian u32 u), then `numResult = num.toFixed(9)`, a string of nine
//! decimals, and the roll shown is
//! `Math.floor(numResult * 100.01 * 100) / 100`: the string read back as
//! the nearest double, times 100.01, times 100, floored, over 100
//! ([`old_roll`]). The BC.Game help centre ("Game Classic Dice Fairness")
//! and blog ("How is provably fair used in Classic Dice": bytes 7, 203, 73,
//! 221 → 0.030445687 → 3.044873157, "the final result … is 3.04") say the
//! float "multiplied by 10001 and divided by 100", without the `toFixed(9)`:
//! the reading `no-tofixed` ([`old_roll_without_tofixed`]), which parts
//! from the page in about 2.5 bets in a million (trap 4 of the field
//! survey: an extra rounding).
//!
//! **New generation** (`classicdice_new.html`): the page's prose says
//! "Multiply by 10000 … take the integer part of the result", its code
//! answers `slideWindowNumber(hash, 10001) / 100`, not floored. Decision:
//! the code is canonical ([`new_roll`]): it is what the page shows as the
//! final result, and its 10,001 outcomes per hundred are the old
//! generation's range 0 ..= 100.00 (the game's two decimals are its first
//! two). The prose is the reading `prose`: `parseInt(slideWindowNumber(hash,
//! 10000))`, an integer 0 ..= 9,999 — exactly the code of `dice.html` and
//! `ultimatedice_new.html`, which carry the same prose and whose code
//! agrees with it ([`dice`]).
//!
//! `parseInt` of a number reads its decimal text: below 10⁻⁶ JavaScript
//! writes a number with an exponent (`5e-7`), and `parseInt` takes its
//! first digit. [`parse_int`] does the same; a window number below
//! 10⁻¹⁰ (about one MAC in 10¹⁰) gets there.

use super::window;

/// The old page's float: the first four bytes of the MAC, big-endian, as a
/// u32 (the float is u/2³², exact).
pub(crate) fn first_u32(mac: &[u8]) -> u32 {
    u32::from_be_bytes(mac[..4].try_into().expect("4 bytes"))
}

/// `(u / 2^32).toFixed(9)` as the integer n of n/10⁹: the exact value
/// rounded to nine decimals, a tie up (ECMA-262 Number.prototype.toFixed:
/// "If there are two such n, pick the larger n"). Exact: u·10⁹ < 2⁶².
pub(crate) fn to_fixed9(u: u32) -> u64 {
    (u64::from(u) * 1_000_000_000 + (1 << 31)) >> 32
}

/// The decimal text n/10⁹ read back as a double (JavaScript's string to
/// number: the nearest double, as Rust's parse).
pub(crate) fn fixed_value(n: u64) -> f64 {
    format!("{}.{:09}", n / 1_000_000_000, n % 1_000_000_000)
        .parse()
        .expect("a decimal number")
}

/// `Math.floor(x * 100.01 * 100) / 100`, as the page evaluates it.
fn shown(x: f64) -> f64 {
    (x * 100.01 * 100.0).floor() / 100.0
}

/// The old page's roll of the float u/2³².
pub(crate) fn old_roll(u: u32) -> f64 {
    shown(fixed_value(to_fixed9(u)))
}

/// The reading `no-tofixed`: the page's formula on the float itself.
pub(crate) fn old_roll_without_tofixed(u: u32) -> f64 {
    shown(f64::from(u) / 4_294_967_296.0)
}

/// The new page's roll: `slideWindowNumber(hash, 10001) / 100`.
pub(crate) fn new_roll(hash: &str) -> f64 {
    window::number(hash, 10_001.0) / 100.0
}

/// JavaScript's `parseInt(x)` of a number x ≥ 0 below 10²¹: the integer
/// part, except that below 10⁻⁶ `String(x)` has an exponent and the first
/// digit of its shortest decimal is read.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "x is at least 0 and below 10^21, its floor an integer"
)]
pub(crate) fn parse_int(x: f64) -> u64 {
    if x > 0.0 && x < 1e-6 {
        // Rust's `{:e}` writes the shortest round-trip digits, as String() does.
        let text = format!("{x:e}");
        return u64::from(text.as_bytes()[0] - b'0');
    }
    x.floor() as u64
}

/// `dice.html` (and the prose of `classicdice_new.html`):
/// `parseInt(slideWindowNumber(hash, 10000))`, 0 ..= 9,999.
pub fn dice(hash: &str) -> u64 {
    parse_int(window::number(hash, 10_000.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blog's worked example: bytes 7, 203, 73, 221 → 3.04.
    #[test]
    fn the_blogs_bytes_give_its_roll() {
        let u = u32::from_be_bytes([7, 203, 73, 221]);
        assert_eq!(to_fixed9(u), 30_445_687);
        assert_eq!(old_roll(u), 3.04);
    }

    #[test]
    fn to_fixed9_rounds_a_tie_up_and_the_top_floats_to_one() {
        // u = 2^22: u·10^9/2^32 = 976,562.5 exactly.
        assert_eq!(to_fixed9(1 << 22), 976_563);
        // 1 − 2^-32 rounds to 1.000000000: the page shows 100.01.
        assert_eq!(to_fixed9(u32::MAX), 1_000_000_000);
        assert_eq!(old_roll(u32::MAX), 100.01);
        assert_eq!(old_roll_without_tofixed(u32::MAX), 100.0);
    }

    #[test]
    fn parse_int_reads_the_first_digit_of_an_exponent() {
        assert_eq!(parse_int(5.5e-7), 5);
        assert_eq!(parse_int(1e-6), 0);
        assert_eq!(parse_int(0.0), 0);
        assert_eq!(parse_int(9999.999), 9999);
    }
}
