//! `ladder`: the Deal-or-No-Deal case shuffle (seed 004).
//!
//! block[i] = HMAC(serverSeed, "clientSeed:i") with no nonce; each block gives
//! eight big-endian u32 words, r = v / 2^32, and Fisher–Yates from the back
//! takes j = ⌊r · (i + 1)⌋.

use crate::crypto::Keyed;

pub(crate) mod ops;
pub(crate) mod vectors;

pub(crate) use ops::SCHEME;

/// The size of the published game's ladder.
pub const DEFAULT_SIZE: u64 = 25;

/// The first `count` words of the block stream: block b = HMAC(serverSeed,
/// "clientSeed:b") gives eight big-endian u32.
pub fn words(server_seed: &str, client_seed: &str, count: usize) -> Vec<u32> {
    let macs = Keyed::new(server_seed).counter_of(&[client_seed.as_bytes(), b":"]);
    (0u64..)
        .flat_map(|b| {
            let block = macs.mac(b);
            (0..8).map(move |w| u32::from_be_bytes(block[4 * w..4 * w + 4].try_into().expect("four bytes")))
        })
        .take(count)
        .collect()
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

/// Returns `order`: case k gets ladder entry `order[k]`.
pub fn shuffle(server_seed: &str, client_seed: &str, size: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..u32::try_from(size).expect("a ladder is not that long")).collect();
    let words = words(server_seed, client_seed, size.saturating_sub(1));
    for (i, v) in (1..size).rev().zip(words) {
        order.swap(i, pick(v, i));
    }
    order
}
