//! The new generation's number: `lib/utils.js`'s
//! `slideWindowNumber(hash, events)`.
//!
//! As the page computes it, on the MAC's hex text `hash`:
//! 1. `index = BigInt('0x' + hash.substring(0, 15)) % 47`: the first 15 hex
//!    digits (60 bits) as an exact integer, mod 47, so 0 ..= 46;
//! 2. `num = BigInt('0x' + hash.substring(index, index + 14)) >> 3`: the 14
//!    hex digits from there (56 bits), the last 3 bits dropped: 53 bits;
//! 3. `Number(num) * 2^-53 * events`: num·2⁻⁵³ is exact in binary64, times
//!    `events` rounds once.
//!
//! The classic dice page's prose ("Take the first 15 characters … Perform
//! modulus 47 … take 14 characters … Divide by 8 … Multiply by 2^-53") says
//! the same.
//!
//! Traps, each seen in a port:
//! - **15 hex digits through a double.** 60 bits exceed 2⁵³: `parseInt` of
//!   them rounds, and the rounded value mod 47 is another index in about
//!   46 of 47 MACs ([`index_through_double`]). The page uses `BigInt`.
//! - **no shift.** `Number(BigInt(14 digits)) / 8` (a port's division
//!   instead of `>> 3`) keeps the three low bits as a fraction, after
//!   rounding 56 bits to 53: another number in most MACs.

/// 2⁻⁵³, the page's `MAX_BORDER`.
const MAX_BORDER: f64 = 1.0 / 9_007_199_254_740_992.0;

/// The page's modulus of the first 15 digits.
pub(crate) const MODULUS: u64 = 47;

/// Where the window starts: the first 15 hex digits, exactly, mod 47.
pub(crate) fn index(hash: &str) -> usize {
    let first = u64::from_str_radix(&hash[..15], 16).expect("15 hex digits");
    usize::try_from(first % MODULUS).expect("below 47")
}

/// The window's 14 hex digits, shifted right by 3: an integer below 2⁵³.
pub(crate) fn num(hash: &str) -> u64 {
    let i = index(hash);
    u64::from_str_radix(&hash[i..i + 14], 16).expect("14 hex digits") >> 3
}

/// num·2⁻⁵³: a number in [0, 1), exact.
#[allow(clippy::cast_precision_loss, reason = "below 2^53: exact")]
pub(crate) fn fraction(num: u64) -> f64 {
    num as f64 * MAX_BORDER
}

/// `slideWindowNumber(hash, events)`: num·2⁻⁵³·events, rounded once.
pub(crate) fn number(hash: &str, events: f64) -> f64 {
    fraction(num(hash)) * events
}

/// The index a port that reads the first 15 digits with `parseInt` gets:
/// the 60-bit value rounded to the nearest double (ties to even), mod 47 in
/// binary64 (exact).
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the trap itself: 60 bits through a double; the remainder is below 47"
)]
pub(crate) fn index_through_double(hash: &str) -> usize {
    let first = u64::from_str_radix(&hash[..15], 16).expect("15 hex digits");
    ((first as f64) % 47.0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_reads_60_bits_exactly_where_a_double_rounds_them() {
        // 0xfffffffffffffff = 2^60 − 1 ≡ 2^60 − 1 mod 47; as a double it is
        // 2^60, another residue.
        let hash = format!("{}{}", "f".repeat(15), "0".repeat(49));
        let exact = ((1u64 << 60) - 1) % 47;
        assert_eq!(index(&hash), usize::try_from(exact).unwrap());
        assert_eq!(index_through_double(&hash), usize::try_from((1u64 << 60) % 47).unwrap());
        assert_ne!(index(&hash), index_through_double(&hash));
    }

    #[test]
    fn the_window_drops_three_bits_and_stays_below_one() {
        let hash = "f".repeat(64);
        // 2^60 − 1 ≡ 27 mod 47: the window at 27 is 14 f's, 2^56 − 1 >> 3.
        assert_eq!(index(&hash), 27);
        assert_eq!(num(&hash), (1 << 53) - 1);
        assert!(number(&hash, 1.0) < 1.0);
        assert_eq!(number(&"0".repeat(64), 10_001.0), 0.0);
    }
}
