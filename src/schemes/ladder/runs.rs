//! The fast form of the ladder's words: the blocks of [`super`]'s stream
//! made up to four at a time ([`Counter::macs`]: independent chains of
//! compressions side by side), as many as are left to read; the published
//! game's ladder needs three. Built unless `--features plain`; the tests
//! below hold it to the plain form, one block at a time.

use crate::base::hmac::{Counter, Keyed};

/// The first words of the block stream, the blocks made up to four at a
/// time ([`Counter::macs`]): the ladder of the published game is three.
pub(super) struct Words {
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
    pub(super) fn new(server_seed: &str, client_seed: &str, count: usize) -> Self {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_made_in_runs_are_the_words_of_one_block_at_a_time() {
        // Counts that end inside a block, on its end, and past one to
        // five runs.
        for count in (0..=40).chain([63, 64, 65, 95, 96, 97, 200]) {
            let fast: Vec<u32> = Words::new("server", "client", count).collect();
            let plain: Vec<u32> = super::super::block_words("server", "client").take(count).collect();
            assert_eq!(fast, plain, "{count} words");
        }
    }
}
