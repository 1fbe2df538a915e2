//! BC.Game's Mines (`mines.html`) and Keno (`keno_single.html`): no float
//! per tile, but a fixed starting list sorted twice by rotations of
//! SHA-256 texts.
//!
//! As both pages compute it, with `hash` the HMAC-SHA256 MAC's hex text:
//! - `createNums(list, seed)`: `h = SHA256(seed)` as 64 hex digits; the
//!   k-th item of `list` is paired with h rotated left by k characters
//!   (`h = h.substring(1) + h.charAt(0)` after each item); the pairs are
//!   sorted by those strings (`<` on strings; `Array.prototype.sort` is
//!   stable, which decides only between equal rotations);
//! - `getResult(hash)`: `createNums(START, hash)`, then `createNums` of that
//!   list with `seed = SHA256(hash)`, so the second sort's strings are
//!   rotations of SHA256(SHA256(hash)).
//!
//! Mines shows the 25 tiles in that order ("Final Result"); the game's k
//! mines are the first k (nucleare/DeepSearch_HashGames,
//! `BCGame/Mines/BCGamesMinesvsStakeMines.md`: server `3ab06c36…66ba`,
//! client `00ff0000ff000000ff`, nonce 1921, ten mines on `24 16 25 20 10 3 4
//! 11 21 6`). Keno draws the first 10 of its 40 numbers.
//!
//! The starting lists are the pages' constants: the tiles 1 ..= 25 and the
//! numbers 1 ..= 40 in a fixed shuffled order.

use crate::base::crypto::sha256_hex;

/// `mines.html`'s starting list of the tiles 1 ..= 25.
pub(crate) const MINES_START: [u8; 25] = [
    7, 2, 19, 25, 1, 13, 5, 24, 14, 6, 15, 9, 22, 16, 3, 17, 18, 20, 8, 21, 4, 12, 10, 23, 11,
];

/// `keno_single.html`'s starting list of the numbers 1 ..= 40.
pub(crate) const KENO_START: [u8; 40] = [
    1, 30, 11, 40, 2, 29, 12, 39, 3, 28, 13, 38, 4, 27, 14, 37, 5, 26, 15, 36, 6, 25, 16, 35, 7, 24, 17, 34, 8, 23, 18,
    33, 9, 22, 19, 32, 10, 21, 20, 31,
];

/// The numbers Keno draws.
pub(crate) const KENO_DRAWN: usize = 10;

/// `createNums(list, seed)`: `list` sorted by the rotations of SHA256(seed)
/// paired with it; the sort is stable.
pub(crate) fn sort_by_rotations(list: &[u8], seed: &str) -> Vec<u8> {
    let h = sha256_hex(seed);
    let mut pairs: Vec<(String, u8)> = list
        .iter()
        .enumerate()
        .map(|(k, &item)| (format!("{}{}", &h[k..], &h[..k]), item))
        .collect();
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    pairs.into_iter().map(|(_, item)| item).collect()
}

/// `getResult(hash)`: `start` sorted by rotations of SHA256(hash), then by
/// rotations of SHA256(SHA256(hash)).
pub(crate) fn order(hash: &str, start: &[u8]) -> Vec<u8> {
    let first = sort_by_rotations(start, hash);
    sort_by_rotations(&first, &sha256_hex(hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_lists_hold_each_number_once() {
        let mut m = MINES_START.to_vec();
        m.sort_unstable();
        assert_eq!(m, (1..=25).collect::<Vec<u8>>());
        let mut k = KENO_START.to_vec();
        k.sort_unstable();
        assert_eq!(k, (1..=40).collect::<Vec<u8>>());
    }
}
