//! `ladder`: the Deal-or-No-Deal case shuffle (seed 004).
//!
//! block\[i\] = HMAC(serverSeed, "clientSeed:i") with no nonce; each block gives
//! eight big-endian u32 words, r = v / 2^32, and Fisher–Yates from the back
//! takes j = ⌊r · (i + 1)⌋.

use crate::base::crypto::{Counter, Keyed};

pub(crate) mod fields;
pub(crate) mod ops;
pub mod stats;

pub(crate) use ops::SCHEME;

/// The size of the published game's ladder.
pub const DEFAULT_SIZE: u64 = 25;

/// The first `count` words of the block stream: block b = HMAC(serverSeed,
/// "clientSeed:b") gives eight big-endian u32.
pub fn words(server_seed: &str, client_seed: &str, count: usize) -> Vec<u32> {
    Words::new(server_seed, client_seed, count).collect()
}

/// The first words of the block stream, the blocks made up to four at a
/// time ([`Counter::macs`]): the ladder of the published game is three.
struct Words {
    macs: Counter,
    /// Up to four blocks' words, and how many of them are read.
    words: [u32; RUN * 8],
    read: usize,
    next_block: u64,
    left: usize,
}

/// Blocks made at a time.
const RUN: usize = 4;

impl Words {
    fn new(server_seed: &str, client_seed: &str, count: usize) -> Self {
        Words {
            macs: Keyed::new(server_seed).counter_of(&[client_seed.as_bytes(), b":"]),
            words: [0; RUN * 8],
            read: RUN * 8,
            next_block: 0,
            left: count,
        }
    }

    /// Makes the next blocks, as many as are left to read up to [`RUN`],
    /// into the end of the buffer.
    fn refill(&mut self) {
        match self.left.div_ceil(8) {
            1 => self.fill::<1>(),
            2 => self.fill::<2>(),
            3 => self.fill::<3>(),
            _ => self.fill::<RUN>(),
        }
    }

    fn fill<const N: usize>(&mut self) {
        let macs = self.macs.macs::<N>(self.next_block);
        self.read = (RUN - N) * 8;
        for (word, bytes) in self.words[self.read..]
            .iter_mut()
            .zip(macs.as_flattened().chunks_exact(4))
        {
            *word = u32::from_be_bytes(bytes.try_into().expect("four bytes"));
        }
        self.next_block += N as u64;
    }
}

impl Iterator for Words {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.left == 0 {
            return None;
        }
        if self.read == RUN * 8 {
            self.refill();
        }
        self.read += 1;
        self.left -= 1;
        Some(self.words[self.read - 1])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
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
pub fn parts_by_max(v: u32, i: usize) -> bool {
    let by_max = u64::from(v) * (i as u64 + 1) / u64::from(u32::MAX);
    by_max != pick(v, i) as u64
}

/// Returns `order`: case k gets ladder entry `order[k]`.
pub fn shuffle(server_seed: &str, client_seed: &str, size: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..u32::try_from(size).expect("a ladder is not that long")).collect();
    for (i, v) in (1..size)
        .rev()
        .zip(Words::new(server_seed, client_seed, size.saturating_sub(1)))
    {
        order.swap(i, pick(v, i));
    }
    order
}
