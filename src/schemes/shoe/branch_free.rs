//! The fast form of a deal's shuffle (step 4 of [`super`]) and of a long
//! read of the stream: the same bytes and the same shoe, in less time.
//! Built unless `--features plain`; [`super::deal`] and [`super::stream`]
//! choose it, and the tests below hold it to the plain form.
//!
//! What is faster here, and why:
//! - MACs are made two at a time ([`Counter::macs`]): the next block's MAC
//!   is known before its bytes are read, and two independent chains of
//!   compressions keep the SHA unit busy while the other waits.
//! - A draw's remainder is taken by a multiplication ([`modulo::rem`]),
//!   its limit and reciprocal read from one table ([`SMALL_DRAWS`]): a
//!   hardware division per draw costs a third of the MAC it follows.
//! - The shuffle moves positions in the ordered shoe (two bytes each, on
//!   the stack), and the labels are looked up once at the end.
//! - While m = i + 1 is above 128, a byte is kept or not without a branch:
//!   there up to half the bytes are thrown away (three in four of a shoe's
//!   rejections), a coin toss the branch predictor loses at the cost of
//!   several draws. For 128 < m ≤ 256 the limit is m itself and a kept
//!   byte is its own remainder, so nothing on the path from one byte to
//!   the next waits for memory.

use super::{blocks, cut_card, ByteSource, Shoe, Tally, DECK, MAX_DECKS};
use crate::base::hmac::Counter;
use crate::base::modulo;

/// Bytes the stream holds: two MAC blocks.
const BUFFER: usize = 64;

/// The stream of [`super::ByteStream`], its MACs made in pairs.
pub(super) struct Paired {
    macs: Counter,
    /// The next two blocks.
    block: [u8; BUFFER],
    next_block: u64,
    pos: usize,
}

impl Paired {
    pub(super) fn new(server_seed: &str, client_seed: &str, nonce: u64) -> Self {
        Paired {
            macs: blocks(server_seed, client_seed, nonce),
            block: [0; BUFFER],
            next_block: 0,
            pos: BUFFER,
        }
    }

    /// Appends the next `count` bytes to `out`, a block at a time.
    pub(super) fn read_into(&mut self, count: u64, out: &mut Vec<u8>) {
        let mut left = count;
        while left > 0 {
            if self.pos == BUFFER {
                // A last block alone: a pair would make a MAC nobody reads.
                if left <= 32 {
                    self.refill_one();
                } else {
                    self.refill();
                }
            }
            let take = (BUFFER - self.pos).min(usize::try_from(left).unwrap_or(usize::MAX));
            out.extend_from_slice(&self.block[self.pos..self.pos + take]);
            self.pos += take;
            left -= take as u64;
        }
    }

    /// Moves to the next two blocks.
    fn refill(&mut self) {
        let [a, b] = self.macs.macs::<2>(self.next_block);
        self.block[..32].copy_from_slice(&a);
        self.block[32..].copy_from_slice(&b);
        self.next_block += 2;
        self.pos = 0;
    }

    /// Moves to the next block, which fills the buffer's second half.
    fn refill_one(&mut self) {
        self.block[32..].copy_from_slice(&self.macs.mac(self.next_block));
        self.next_block += 1;
        self.pos = 32;
    }

    /// The draws of a shuffle for i from `top` down to `bottom` (m = i + 1,
    /// one byte each up to m = 256 and two above, as `TWO` says), each kept
    /// j swapped into place: step 4 with the position in the block in a
    /// register rather than in `self` (a store and a load per byte
    /// otherwise), and one byte kept or not without a branch while m is
    /// above 128.
    fn shuffle<const TWO: bool>(&mut self, order: &mut [u16; MAX_CARDS + 1], top: usize, bottom: usize) {
        const { assert!(MAX_CARDS > 255) };
        debug_assert!(bottom >= 1 && (TWO || top <= 255));
        let k = if TWO { 2 } else { 1 };
        let mut i = top;
        let (mut block, mut pos) = (self.block, self.pos);
        while i >= bottom {
            let v = if pos + k <= BUFFER {
                let at = pos;
                pos += k;
                if TWO {
                    u32::from(block[at]) << 8 | u32::from(block[at + 1])
                } else {
                    u32::from(block[at])
                }
            } else {
                // The block is spent, or a pair straddles it and the next.
                self.pos = pos;
                let v = if TWO {
                    u32::from(self.next_byte()) << 8 | u32::from(self.next_byte())
                } else {
                    u32::from(self.next_byte())
                };
                (block, pos) = (self.block, self.pos);
                v
            };
            if !TWO && i >= 128 {
                // limit = m = i + 1: 256 − (256 mod m) for 128 < m ≤ 256.
                let v = v as usize;
                let keep = v <= i;
                // Both positions are read whatever the byte, and a rejected
                // byte writes them to a spare slot past the shoe: the next
                // byte, drawn again for i, reads order[i] without waiting
                // for a store to it.
                let (a, b) = (order[i & 255], order[v & 255]);
                let (to_i, to_j) = if keep { (i & 255, v & 255) } else { (SPARE, SPARE) };
                order[to_j] = a;
                order[to_i] = b;
                i -= usize::from(keep);
                continue;
            }
            let Small { limit, inv } = SMALL_DRAWS[i + 1];
            if v < limit {
                let m = u32::try_from(i + 1).expect("at most 416 cards");
                let j = modulo::rem(v, m, inv) as usize;
                order.swap(i, j);
                i -= 1;
            }
        }
        self.pos = pos;
    }
}

impl ByteSource for Paired {
    fn next_byte(&mut self) -> u8 {
        if self.pos == BUFFER {
            self.refill();
        }
        let b = self.block[self.pos];
        self.pos += 1;
        b
    }
}

/// The rejection limit of a draw of m and the reciprocal its remainder is
/// taken with, side by side: one load per draw.
#[derive(Clone, Copy)]
struct Small {
    /// 256^k − (256^k mod m), k = 1 up to m = 256 and 2 above.
    limit: u32,
    /// [`modulo::reciprocal_of`] m.
    inv: u64,
}

/// [`Small`] for m = 1 … [`modulo::SMALL`] (entry 0 unused), computed at
/// compile time.
static SMALL_DRAWS: [Small; modulo::SMALL as usize + 1] = {
    let mut t = [Small { limit: 0, inv: 0 }; modulo::SMALL as usize + 1];
    let mut m = 1;
    while m <= modulo::SMALL {
        let pot = if m > 256 { 1 << 16 } else { 1 << 8 };
        t[m as usize] = Small {
            limit: pot - pot % m,
            inv: modulo::reciprocal_of(m),
        };
        m += 1;
    }
    t
};

/// The cards of the largest shoe.
const MAX_CARDS: usize = 52 * 8;
const _: () = assert!(MAX_CARDS as u64 == 52 * MAX_DECKS);

/// The slot of a shoe's positions past its last card, which the
/// branch-free draws write a rejected byte's swap to.
const SPARE: usize = MAX_CARDS;

/// The label of every position of the largest ordered shoe: position p
/// holds `DECK[p mod 52]`, looked up without the division.
static LABELS: [&str; MAX_CARDS] = {
    let mut t = [""; MAX_CARDS];
    let mut p = 0;
    while p < MAX_CARDS {
        t[p] = DECK[p % 52];
        p += 1;
    }
    t
};

/// [`super::deal`]: the shuffle's draws of m = i + 1 > 256 read two bytes,
/// the rest one (two loops, each with its width fixed), then the cut card
/// as step 5 draws it, from the same stream.
pub(super) fn deal(server_seed: &str, client_seed: &str, nonce: u64, decks: usize, penetration: f64) -> Shoe {
    assert!(decks >= 1, "a shoe has at least one deck");
    let len = 52 * decks;
    let mut order = [0u16; MAX_CARDS + 1];
    for (p, slot) in order.iter_mut().enumerate().take(len) {
        *slot = u16::try_from(p).expect("at most 416 cards");
    }
    let mut stream = Paired::new(server_seed, client_seed, nonce);
    if len > 256 {
        stream.shuffle::<true>(&mut order, len - 1, 256);
    }
    stream.shuffle::<false>(&mut order, (len - 1).min(255), 1);
    let cards = order[..len].iter().map(|&p| LABELS[usize::from(p)]).collect();
    let cut = cut_card(&mut stream, len, penetration, &mut Tally::default()).cut;
    Shoe {
        cards,
        cut: u32::try_from(cut).expect("the cut lies within the shoe"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{deal_traced, ByteStream};
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Blocks are made in pairs, or one alone when a read needs no
        /// more: read in any pieces, mixed with single bytes, the fast
        /// stream is the plain one.
        #[test]
        fn the_paired_stream_read_in_any_pieces_is_the_plain_stream(pieces in prop::collection::vec(0u64..100, 0..12)) {
            let mut fast = Paired::new("server", "client", 7);
            let mut got = Vec::new();
            for (k, &n) in pieces.iter().enumerate() {
                if k % 3 == 2 {
                    got.push(fast.next_byte());
                } else {
                    fast.read_into(n, &mut got);
                }
            }
            let mut want = Vec::new();
            ByteStream::new("server", "client", 7).read_into(got.len() as u64, &mut want);
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn the_limit_table_is_the_plain_limit_for_every_small_m() {
        // The plain form's limit, 256^k − (256^k mod m) with k the bytes m
        // needs, as the cursor scheme computes it per call.
        for (m, small) in SMALL_DRAWS.iter().enumerate().skip(2) {
            assert_eq!(
                u128::from(small.limit),
                crate::schemes::cursor::limit(m as u64),
                "m = {m}"
            );
        }
    }

    #[test]
    fn the_fast_deal_is_the_plain_deal_for_every_shoe_size() {
        // Enough deals that the plain draws reject, read their limit and
        // one below it with one byte, and reject with two: the branches
        // the fast form takes without a branch or by a table. (A two-byte
        // draw reads its limit once in 65,536: the vectors hold those.)
        let mut seen = [0u64; 4];
        for decks in 1..=8 {
            for nonce in 0..60 {
                let (plain, cut) = deal_traced("s", "c", nonce, decks, 0.75);
                assert_eq!(
                    deal("s", "c", nonce, decks, 0.75),
                    plain,
                    "{decks} decks, nonce {nonce}"
                );
                seen[0] += cut.rejections[1];
                seen[1] += cut.at_limit[1];
                seen[2] += cut.below_limit[1];
                seen[3] += cut.rejections[2];
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }
}
