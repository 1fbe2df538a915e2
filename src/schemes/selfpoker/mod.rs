//! `selfpoker` (seed 002): a committed 63-bit seed and numpy's permutation of 52.
//!
//! Card c has value c / 4 (0 = two … 12 = ace) and suit c % 4 (♣ ♦ ♥ ♠);
//! player i holds deck\[2i\] and deck[2i + 1], the board is deck[2n..2n + 5].

use crate::base::crypto::sha256_hex;

pub mod numpy;
pub mod ops;
pub mod stats;

pub use ops::SCHEME;

pub use crate::op::error::{parse_seed, MAX_SEED};

/// Returns the commitment published before the hand: hex SHA-256 of `selfpoker:<seed>`.
pub fn commit(seed: u64) -> String {
    sha256_hex(&format!("selfpoker:{seed}"))
}

/// Returns the deck: `numpy.random.default_rng(seed).permutation(52)`.
pub fn deck(seed: u64) -> Vec<u32> {
    crate::schemes::selfpoker::numpy::permutation(seed, 52)
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
