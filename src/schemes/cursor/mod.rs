//! `cursor`: one HMAC per number, addressed by a cursor (seed 003, `referenz.py`).
//!
//! `raw(cursor) = HMAC(serverSeed, "<clientSeed>:<nonce>:<cursor>")`. Integers
//! take as many big-endian bytes of one MAC as the range needs and reject the
//! top remainder; every attempt, accepted or not, moves the cursor by one.
//! A shuffle is Fisher–Yates from the back, j = int(i + 1).
//!
//! This module is that algorithm as `referenz.py` computes it. A shuffle,
//! and a scan of consecutive cursors, have a fast form in `paired.rs` (MACs
//! two at a time, remainders by a multiplication), chosen in
//! [`Round::shuffle`] and `Round::raws_from` unless `--features plain`;
//! its tests and every vector hold it to this module.

use crate::base::crypto::sha256_hex;
use crate::base::hmac::{Counter, Keyed};

pub mod ops;
#[cfg(not(feature = "plain"))]
mod paired;
pub mod stats;

pub use ops::SCHEME;

/// Returns the commitment to a server seed: hex SHA-256 of its text.
pub fn hash(server_seed: &str) -> String {
    sha256_hex(server_seed)
}

/// The numbers of one round (one server seed, client seed and nonce).
#[derive(Clone)]
pub struct Round {
    macs: Counter,
}

/// One attempt of [`Round::int`]: which cursor was read, what value, and
/// whether it was kept. The harness prints these to show where two
/// implementations part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// The cursor read: which MAC of the round, `raw(cursor)`.
    pub cursor: u64,
    pub(crate) raw_value: u64,
    pub(crate) accepted: bool,
}

/// Returns how many bytes `int(range)` reads: max(1, ⌈bitlen(range − 1) / 8⌉).
pub fn bytes_needed(range: u64) -> u32 {
    let bits = 64 - (range - 1).leading_zeros();
    bits.div_ceil(8).max(1)
}

/// Returns the rejection limit 256^k − (256^k mod range): values at or above it are discarded.
pub fn limit(range: u64) -> u128 {
    let k = bytes_needed(range);
    // A 128-bit remainder costs more than the MAC it guards: stay in 64 bits
    // below eight bytes (every range the protocol allows).
    if k < 8 {
        let pot = 1u64 << (8 * k);
        u128::from(pot - pot % range)
    } else {
        let pot = 1u128 << 64;
        pot - pot % u128::from(range)
    }
}

impl Round {
    /// The round of `nonce` under these seeds: its numbers are read from HMAC(serverSeed, "clientSeed:nonce:cursor").
    pub fn new(server_seed: &str, client_seed: &str, nonce: u64) -> Self {
        Round::with_key(&Keyed::new(server_seed), client_seed, nonce)
    }

    /// [`Round::new`] with the server seed keyed already: an audit of one
    /// seed's rounds keys it once and skips even the cache's lookup.
    pub fn with_key(server_seed: &Keyed, client_seed: &str, nonce: u64) -> Self {
        let mut digits = [0u8; 20];
        let nonce = crate::base::crypto::decimal(nonce, &mut digits);
        Round {
            macs: server_seed.counter_of(&[client_seed.as_bytes(), b":", nonce, b":"]),
        }
    }

    /// Returns HMAC(serverSeed, "clientSeed:nonce:cursor").
    pub fn raw(&self, cursor: u64) -> [u8; 32] {
        self.macs.mac(cursor)
    }

    /// [`Round::raw`] at every cursor from `start` on, with its cursor
    /// (scans for a wanted value): the MACs made two at a time by the fast
    /// form unless `--features plain` (the one place that is chosen).
    pub(crate) fn raws_from(&self, start: u64) -> impl Iterator<Item = (u64, [u8; 32])> + '_ {
        #[cfg(not(feature = "plain"))]
        {
            paired::raws_from(&self.macs, start)
        }
        #[cfg(feature = "plain")]
        {
            (start..).map(move |c| (c, self.raw(c)))
        }
    }

    /// Returns b0/256 + b1/256² + b2/256³ + b3/256⁴ of `raw(cursor)`.
    ///
    /// The sum of the four terms is exact in binary64, so it equals the
    /// 32-bit big-endian value divided by 2^32.
    pub fn float(&self, cursor: u64) -> f64 {
        let b = self.raw(cursor);
        f64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])) / 4_294_967_296.0
    }

    /// Returns an integer in `0..range` and the cursor after it.
    ///
    /// # Panics
    /// When `range` is 0 (the protocol's `range` field is at least 1).
    pub fn int(&self, range: u64, cursor: u64) -> (u64, u64) {
        int_from(range, cursor, &mut |c| self.raw(c), &mut |_| {})
    }

    /// Like [`Round::int`], reporting every attempt to `trace`.
    pub fn int_traced(&self, range: u64, cursor: u64, trace: &mut dyn FnMut(Attempt)) -> (u64, u64) {
        int_from(range, cursor, &mut |c| self.raw(c), trace)
    }

    /// Fisher–Yates from the back over `0..count`, j = int(i + 1). Returns the
    /// order and the cursor after the last draw. The fast form shuffles
    /// unless `--features plain` (the one place it is chosen).
    pub fn shuffle(&self, count: usize, cursor: u64) -> (Vec<u32>, u64) {
        #[cfg(not(feature = "plain"))]
        {
            paired::shuffle(&self.macs, count, cursor)
        }
        #[cfg(feature = "plain")]
        {
            self.shuffle_traced(count, cursor, &mut |_, _| {})
        }
    }

    /// Like [`Round::shuffle`], reporting each draw (position i, attempts)
    /// to `trace` (always the plain form).
    pub fn shuffle_traced(&self, count: usize, cursor: u64, trace: &mut dyn FnMut(usize, Attempt)) -> (Vec<u32>, u64) {
        shuffle_from(count, cursor, &mut |c| self.raw(c), trace)
    }
}

/// The shuffle of `count` from `cursor`, the MAC at each cursor read from
/// `raw`, each draw's attempts reported to `trace`: Fisher–Yates from the
/// back, j = int(i + 1).
pub(crate) fn shuffle_from(
    count: usize,
    mut cursor: u64,
    raw: &mut dyn FnMut(u64) -> [u8; 32],
    trace: &mut dyn FnMut(usize, Attempt),
) -> (Vec<u32>, u64) {
    let mut deck: Vec<u32> = (0..u32::try_from(count).expect("a count fits 32 bits")).collect();
    for i in (1..count).rev() {
        let (j, next) = int_from(i as u64 + 1, cursor, raw, &mut |a| trace(i, a));
        cursor = next;
        deck.swap(i, usize::try_from(j).expect("j <= i"));
    }
    (deck, cursor)
}

/// `int` as `referenz.py` computes it, the MAC at each cursor read from
/// `raw` (this crate's, the fast form's pairs, or another package's:
/// `src/wild/`), every attempt reported to `trace`: k = bytes_needed(range)
/// big-endian bytes of one MAC per attempt, values at or above the limit
/// rejected, the cursor moved by one per attempt; range 1 moves the cursor
/// without a MAC.
pub(crate) fn int_from<R: FnMut(u64) -> [u8; 32] + ?Sized, F: FnMut(Attempt) + ?Sized>(
    range: u64,
    mut cursor: u64,
    raw: &mut R,
    trace: &mut F,
) -> (u64, u64) {
    assert!(range >= 1, "int(0) has no value to return");
    // Range 1 has one answer; the published code still moves the cursor
    // (and computes no MAC), so a verifier must too.
    if range == 1 {
        return (0, cursor + 1);
    }
    let k = bytes_needed(range) as usize;
    let limit = limit(range);
    loop {
        let raw = raw(cursor);
        let v = raw[..k].iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        let accepted = u128::from(v) < limit;
        trace(Attempt {
            cursor,
            raw_value: v,
            accepted,
        });
        cursor += 1;
        if accepted {
            return (v % range, cursor);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_needed_matches_the_published_formula_at_byte_edges() {
        // max(1, ((range - 1).bit_length() + 7) // 8)
        for (range, k) in [
            (2, 1),
            (256, 1),
            (257, 2),
            (65536, 2),
            (65537, 3),
            (1 << 32, 4),
            ((1 << 32) + 1, 5),
        ] {
            assert_eq!(bytes_needed(range), k, "range {range}");
        }
        assert_eq!(bytes_needed(crate::op::error::MAX_SAFE_INTEGER), 7);
    }

    #[test]
    fn range_one_moves_the_cursor_without_a_mac() {
        let r = Round::new("s", "c", 0);
        assert_eq!(r.int(1, 41), (0, 42));
    }
}
