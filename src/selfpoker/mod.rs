//! `selfpoker` (seed 002): a committed 63-bit seed and numpy's permutation of 52.
//!
//! Card c has value c / 4 (0 = two … 12 = ace) and suit c % 4 (♣ ♦ ♥ ♠);
//! player i holds deck[2i] and deck[2i + 1], the board is deck[2n..2n + 5].

use crate::crypto::sha256_hex;
use crate::error::InvalidInput;

pub(crate) mod ops;
pub(crate) mod vectors;

pub(crate) use ops::SCHEME;

/// Seeds are drawn with `secrets.randbits(63)`, so 2^63 − 1 is the largest.
pub const MAX_SEED: u64 = (1 << 63) - 1;

/// Parses a seed: plain decimal digits, no sign, no leading zeros, below 2^63.
///
/// Seeds travel as strings because a 63-bit integer does not survive a
/// JavaScript `Number`.
/// `field` names the field in the error.
pub fn parse_seed(field: &str, text: &str) -> Result<u64, InvalidInput> {
    let bad = |why: &str| InvalidInput::new(field, format!("{text:?} {why}"));
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("is not plain decimal digits"));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(bad("has a leading zero"));
    }
    match text.parse::<u64>() {
        Ok(v) if v <= MAX_SEED => Ok(v),
        _ => Err(bad("is 2^63 or more")),
    }
}

/// Returns the commitment published before the hand: hex SHA-256 of `selfpoker:<seed>`.
pub fn commit(seed: u64) -> String {
    sha256_hex(&format!("selfpoker:{seed}"))
}

/// Returns the deck: `numpy.random.default_rng(seed).permutation(52)`.
pub fn deck(seed: u64) -> Vec<u32> {
    crate::numpy::permutation(seed, 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_text_is_strict() {
        assert_eq!(parse_seed("seed", "0"), Ok(0));
        assert_eq!(parse_seed("seed", "9223372036854775807"), Ok(MAX_SEED));
        for bad in [
            "",
            "-1",
            "+1",
            "01",
            " 1",
            "1e3",
            "9223372036854775808",
            "99999999999999999999",
        ] {
            assert_eq!(parse_seed("seed", bad).unwrap_err().field, "seed", "{bad:?}");
        }
    }
}
