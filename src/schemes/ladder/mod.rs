//! `ladder`: the Deal-or-No-Deal case shuffle (seed 004).
//!
//! block\[i\] = HMAC(serverSeed, "clientSeed:i") with no nonce; each block gives
//! eight big-endian u32 words, r = v / 2^32, and Fisher–Yates from the back
//! takes j = ⌊r · (i + 1)⌋.
//!
//! This module is that algorithm, one block at a time. The words have a
//! fast form in `runs.rs` (blocks made up to four at a time), chosen in
//! `first_words` unless `--features plain`; its tests and every vector
//! hold it to this module.

use crate::base::hmac::Keyed;

pub mod fields;
pub mod ops;
#[cfg(not(feature = "plain"))]
mod runs;
pub mod stats;

pub use ops::SCHEME;

/// The size of the published game's ladder.
pub const DEFAULT_SIZE: u64 = 25;

/// The block stream's words, one block at a time: block b =
/// HMAC(serverSeed, "clientSeed:b"), b = 0, 1, …, gives eight big-endian u32.
pub fn block_words(server_seed: &str, client_seed: &str) -> impl Iterator<Item = u32> {
    let blocks = Keyed::new(server_seed).counter_of(&[client_seed.as_bytes(), b":"]);
    words_of(move |b| blocks.mac(b))
}

/// The words of the blocks `block(b)` = HMAC(serverSeed, "clientSeed:b")
/// makes, whoever makes them (`src/wild/` holds other packages' HMACs to
/// this logic): eight big-endian u32 each.
pub(crate) fn words_of(mut block: impl FnMut(u64) -> [u8; 32]) -> impl Iterator<Item = u32> {
    (0u64..).flat_map(move |b| {
        let mac = block(b);
        (0..8).map(move |w| u32::from_be_bytes([mac[4 * w], mac[4 * w + 1], mac[4 * w + 2], mac[4 * w + 3]]))
    })
}

/// The first `count` words of the block stream, made by the fast form
/// (blocks up to four at a time) unless `--features plain` (the one place
/// it is chosen).
fn first_words(server_seed: &str, client_seed: &str, count: usize) -> impl Iterator<Item = u32> {
    #[cfg(not(feature = "plain"))]
    {
        runs::Words::new(server_seed, client_seed, count)
    }
    #[cfg(feature = "plain")]
    {
        block_words(server_seed, client_seed).take(count)
    }
}

/// The first `count` words of the block stream.
pub(crate) fn words(server_seed: &str, client_seed: &str, count: usize) -> Vec<u32> {
    first_words(server_seed, client_seed, count).collect()
}

/// j = ⌊(v / 2^32) · (i + 1)⌋.
///
/// In binary64 this is exact: v has 32 significant bits and i + 1 at most
/// 17, so the product fits the 53-bit significand and integer arithmetic
/// gives the same j.
pub fn pick(v: u32, i: usize) -> usize {
    let j = (u64::from(v) * (i as u64 + 1)) >> 32;
    usize::try_from(j).expect("j <= i")
}

/// Whether an implementation that normalises the word by its largest value,
/// j = ⌊v / (2^32 − 1) · (i + 1)⌋, draws another j than [`pick`]: only where
/// an integer lies between v·(i+1)/2^32 and v·(i+1)/(2^32 − 1).
pub(crate) fn parts_by_max(v: u32, i: usize) -> bool {
    let by_max = u64::from(v) * (i as u64 + 1) / u64::from(u32::MAX);
    by_max != pick(v, i) as u64
}

/// Returns `order`: case k gets ladder entry `order[k]`.
pub fn shuffle(server_seed: &str, client_seed: &str, size: usize) -> Vec<u32> {
    shuffle_of(size, first_words(server_seed, client_seed, size.saturating_sub(1)))
}

/// Fisher–Yates from the back over a ladder of `size`, the draw for i
/// taking the next of `words`: j = [`pick`]`(v, i)`.
pub(crate) fn shuffle_of(size: usize, words: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut order: Vec<u32> = (0..u32::try_from(size).expect("a ladder is not that long")).collect();
    for (i, v) in (1..size).rev().zip(words) {
        order.swap(i, pick(v, i));
    }
    order
}
