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

/// Returns `order`: case k gets ladder entry `order[k]`.
pub fn shuffle(server_seed: &str, client_seed: &str, size: usize) -> Vec<u32> {
    let key = Keyed::new(server_seed);
    let prefix = format!("{client_seed}:").into_bytes();
    let mut words = (0u64..).flat_map(|b| {
        let block = key.mac_counter(&prefix, b);
        (0..8).map(move |w| u32::from_be_bytes(block[4 * w..4 * w + 4].try_into().unwrap()))
    });
    let mut order: Vec<u32> = (0..u32::try_from(size).expect("a ladder is not that long")).collect();
    for i in (1..size).rev() {
        let v = u64::from(words.next().expect("endless"));
        // ⌊(v / 2^32) · (i + 1)⌋ in binary64 is exact here: v has 32
        // significant bits and i + 1 at most 17, so the product fits the
        // 53-bit significand and integer arithmetic gives the same j.
        let j = (v * (i as u64 + 1)) >> 32;
        order.swap(i, usize::try_from(j).expect("j <= i"));
    }
    order
}
