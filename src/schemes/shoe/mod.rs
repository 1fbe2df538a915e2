//! `shoe`: a multi-deck blackjack shoe with a cut card (seed 000).
//!
//! Unlike `cursor`, the draws read one continuous byte stream: block b is
//! HMAC(serverSeed, "clientSeed:nonce:b") and a draw that needs two bytes may
//! take the last byte of one block and the first of the next. The same inputs
//! therefore give a different deck than `cursor` does.

use serde::Serialize;

use crate::base::crypto::{Counter, Keyed};
use crate::base::modulo;

pub(crate) mod ops;
pub mod stats;

pub(crate) use ops::SCHEME;

/// Suits in shoe order: spades, hearts, diamonds, clubs.
pub(crate) const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];
/// Ranks in shoe order; `T` is the ten.
pub(crate) const RANKS: [char; 13] = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];

/// The published server is TypeScript, so rounding is JavaScript's
/// `Math.round`: halves go up (towards +∞), unlike Rust's `f64::round`.
#[allow(clippy::cast_possible_truncation, reason = "a shoe's products are below 417")]
pub fn js_round(x: f64) -> i64 {
    let f = x.floor();
    // x − ⌊x⌋ is exact for every magnitude a shoe reaches.
    if x - f >= 0.5 {
        f as i64 + 1
    } else {
        f as i64
    }
}

/// Bytes the stream holds: two MAC blocks.
const BUFFER: usize = 64;

/// The byte generator Stake publishes: MAC blocks concatenated, consumed in order.
pub struct ByteStream {
    macs: Counter,
    /// The next two blocks: MACs are made in pairs ([`Counter::macs`]).
    block: [u8; BUFFER],
    next_block: u64,
    pos: usize,
    /// Rejected draws by byte width (index 1 = one byte, 2 = two bytes, …).
    pub rejections: [u64; 4],
    /// Draws that read exactly their rejection limit, by byte width.
    pub at_limit: [u64; 4],
    /// Draws that read their rejection limit minus one (the largest value
    /// kept, when the limit is below 256^k), by byte width.
    pub below_limit: [u64; 4],
}

impl ByteStream {
    pub fn new(server_seed: &str, client_seed: &str, nonce: u64) -> Self {
        ByteStream {
            macs: Keyed::new(server_seed).counter_of(&[
                client_seed.as_bytes(),
                b":",
                crate::base::crypto::decimal(nonce, &mut [0u8; 20]),
                b":",
            ]),
            block: [0; BUFFER],
            next_block: 0,
            pos: BUFFER,
            rejections: [0; 4],
            at_limit: [0; 4],
            below_limit: [0; 4],
        }
    }

    /// How many bytes have been read so far.
    pub(crate) fn consumed(&self) -> u64 {
        // Blocks made so far, less what is left in the buffer (`pos` starts
        // at its end with no block made). Derived, not counted: a counter
        // bumped per byte costs a shuffle a tenth of its time.
        self.next_block * 32 + self.pos as u64 - BUFFER as u64
    }

    /// Appends the next `count` bytes to `out`, a block at a time.
    pub fn read_into(&mut self, count: u64, out: &mut Vec<u8>) {
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

    pub fn next_byte(&mut self) -> u8 {
        if self.pos == BUFFER {
            self.refill();
        }
        let b = self.block[self.pos];
        self.pos += 1;
        b
    }

    /// Returns a uniform index in `0..m` (m ≥ 1): k bytes with 256^k ≥ m,
    /// big-endian; values at or above 256^k − (256^k mod m) are thrown away
    /// and k fresh bytes read.
    pub fn index(&mut self, m: u32) -> u32 {
        if m <= modulo::SMALL {
            return self.small_index(m);
        }
        let mut k = 1;
        while 256u64.pow(k) < u64::from(m) {
            k += 1;
        }
        let pot = 256u64.pow(k);
        let limit = pot - pot % u64::from(m);
        loop {
            let v = (0..k).fold(0u64, |acc, _| (acc << 8) | u64::from(self.next_byte()));
            self.at_limit[k as usize] += u64::from(v == limit);
            self.below_limit[k as usize] += u64::from(v + 1 == limit && limit < pot);
            if v < limit {
                return u32::try_from(v % u64::from(m)).expect("below m");
            }
            self.rejections[k as usize] += 1;
        }
    }

    /// [`ByteStream::index`] for the m of a shoe (at most
    /// [`modulo::SMALL`]), one or two bytes, with the remainders taken by a
    /// multiplication instead of a division: the draws of a shuffle cost
    /// little more than their MACs.
    fn small_index(&mut self, m: u32) -> u32 {
        if m > 256 {
            self.draw::<true>(m)
        } else {
            self.draw::<false>(m)
        }
    }

    /// A draw of m ≤ [`modulo::SMALL`] with the byte width a constant (one
    /// byte for m ≤ 256, two above), so that the shuffle's two loops each
    /// read straight from the block while it lasts.
    #[inline(always)]
    fn draw<const TWO: bool>(&mut self, m: u32) -> u32 {
        let Small { limit, inv } = SMALL_DRAWS[m as usize];
        let (k, pot): (usize, u32) = if TWO { (2, 1 << 16) } else { (1, 1 << 8) };
        loop {
            let v = if self.pos + k <= BUFFER {
                let at = self.pos;
                self.pos += k;
                if TWO {
                    u32::from(self.block[at]) << 8 | u32::from(self.block[at + 1])
                } else {
                    u32::from(self.block[at])
                }
            } else if TWO {
                u32::from(self.next_byte()) << 8 | u32::from(self.next_byte())
            } else {
                u32::from(self.next_byte())
            };
            if v < limit {
                self.below_limit[k] += u64::from(v + 1 == limit && limit < pot);
                return modulo::rem(v, m, inv);
            }
            self.at_limit[k] += u64::from(v == limit);
            self.rejections[k] += 1;
        }
    }

    /// The draws of a shuffle for i from `top` down to `bottom` (m = i + 1,
    /// one byte each up to m = 256 and two above, as `TWO` says), each kept
    /// j swapped into place: what [`ByteStream::draw`] does, with the
    /// position in the block and the counts in registers rather than in
    /// `self` (a store and a load per byte otherwise). While m is above
    /// 128 a byte is kept or not without a branch: there up to half the
    /// bytes are thrown away (three in four of a shoe's rejections), a coin
    /// toss the branch predictor loses at the cost of several draws. For
    /// 128 < m ≤ 256 the limit is m itself and a kept byte is its own
    /// remainder, so nothing on the path from one byte to the next waits
    /// for memory.
    fn shuffle<const TWO: bool, const COUNTS: bool>(
        &mut self,
        order: &mut [u16; MAX_CARDS + 1],
        top: usize,
        bottom: usize,
    ) {
        const { assert!(MAX_CARDS > 255) };
        debug_assert!(bottom >= 1 && (TWO || top <= 255));
        let (k, pot): (usize, u32) = if TWO { (2, 1 << 16) } else { (1, 1 << 8) };
        let mut i = top;
        let (mut block, mut pos) = (self.block, self.pos);
        let (mut rejected, mut at_limit, mut below_limit) = (0u64, 0u64, 0u64);
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
                if COUNTS {
                    rejected += u64::from(!keep);
                    at_limit += u64::from(v == i + 1);
                    below_limit += u64::from(v == i && i < 255);
                }
                i -= usize::from(keep);
                continue;
            }
            let Small { limit, inv } = SMALL_DRAWS[i + 1];
            if v < limit {
                let m = u32::try_from(i + 1).expect("at most 416 cards");
                let j = modulo::rem(v, m, inv) as usize;
                order.swap(i, j);
                if COUNTS {
                    below_limit += u64::from(v + 1 == limit && limit < pot);
                }
                i -= 1;
            } else if COUNTS {
                at_limit += u64::from(v == limit);
                rejected += 1;
            }
        }
        self.pos = pos;
        self.rejections[k] += rejected;
        self.at_limit[k] += at_limit;
        self.below_limit[k] += below_limit;
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

/// The 52 labels of one deck in shoe order: spades, hearts, diamonds, clubs,
/// each ace to king.
pub(crate) const DECK: [&str; 52] = [
    "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", //
    "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", //
    "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", //
    "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC",
];

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

/// Returns the ordered shoe: deck after deck. Labels are static, so a
/// shuffle moves pointers and an 8-deck shoe allocates once.
pub fn ordered(decks: usize) -> Vec<&'static str> {
    DECK.iter().copied().cycle().take(52 * decks).collect()
}

/// A shuffled shoe and the position of its cut card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shoe {
    pub cards: Vec<&'static str>,
    pub cut: u32,
}

/// How the shoe was drawn and the cut card placed, for vectors and reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// Bytes read from the stream, shuffle and cut together.
    pub bytes: u64,
    /// Rejected draws by byte width, as [`ByteStream::rejections`].
    pub rejections: [u64; 4],
    /// Draws at their rejection limit and one below it, as [`ByteStream::at_limit`].
    pub at_limit: [u64; 4],
    pub below_limit: [u64; 4],
    pub base: i64,
    pub spread: i64,
    /// base + index(2·spread + 1) − spread, before clamping.
    pub unclamped: i64,
    pub low: i64,
    pub high: i64,
    pub cut: i64,
}

/// The most decks a shoe holds.
pub(crate) const MAX_DECKS: u64 = 8;
/// The cards of the largest shoe.
const MAX_CARDS: usize = 52 * 8;
const _: () = assert!(MAX_CARDS as u64 == 52 * MAX_DECKS);

/// Deals one shoe of `decks` decks (1 to `MAX_DECKS`): Fisher–Yates from
/// the back, then the cut card from the same stream. `penetration` lies
/// strictly between 0 and 1.
///
/// # Panics
/// When `decks` is 0 (an empty shoe has no cut card).
pub fn deal(server_seed: &str, client_seed: &str, nonce: u64, decks: usize, penetration: f64) -> Shoe {
    deal_with::<false>(server_seed, client_seed, nonce, decks, penetration, None).0
}

/// Like [`deal`], also returning how the cut was placed.
pub fn deal_traced(server_seed: &str, client_seed: &str, nonce: u64, decks: usize, penetration: f64) -> (Shoe, Cut) {
    deal_with::<true>(server_seed, client_seed, nonce, decks, penetration, None)
}

/// One draw of the shuffle: position i, the j it drew, and the stream
/// bytes it read (rejected attempts included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    pub i: usize,
    pub j: usize,
    pub bytes: std::ops::Range<u64>,
}

/// Every draw of the shuffle, in draw order (i from the back).
pub fn draws(server_seed: &str, client_seed: &str, nonce: u64, decks: usize) -> Vec<Draw> {
    let mut out = Vec::new();
    deal_with::<true>(server_seed, client_seed, nonce, decks, 0.5, Some(&mut |d| out.push(d)));
    out
}

/// The deal. Without a callback, the draws take the loops of
/// [`ByteStream::shuffle`]; with one, every draw is reported as it is
/// made. Both give the same shoe and counts (tested). Without `COUNTS`
/// the shuffle's draws are not counted in the [`Cut`] ([`deal`] drops it).
fn deal_with<const COUNTS: bool>(
    server_seed: &str,
    client_seed: &str,
    nonce: u64,
    decks: usize,
    penetration: f64,
    mut on_draw: Option<&mut dyn FnMut(Draw)>,
) -> (Shoe, Cut) {
    assert!(decks >= 1, "a shoe has at least one deck");
    // The shuffle moves positions in the ordered shoe (two bytes each, on
    // the stack), and the labels are looked up once at the end: position
    // p of the ordered shoe is DECK[p mod 52].
    let len = 52 * decks;
    let mut order = [0u16; MAX_CARDS + 1];
    for (p, slot) in order.iter_mut().enumerate().take(len) {
        *slot = u16::try_from(p).expect("at most 416 cards");
    }
    let mut stream = ByteStream::new(server_seed, client_seed, nonce);
    let branch_free = on_draw.is_none();
    // Draws of m = i + 1 > 256 read two bytes, the rest one: two loops,
    // each with its width fixed.
    let mut report = |i: usize, j: usize, start: u64, stream: &ByteStream| {
        if let Some(report) = on_draw.as_mut() {
            report(Draw {
                i,
                j,
                bytes: start..stream.consumed(),
            });
        }
    };
    if branch_free {
        if len > 256 {
            stream.shuffle::<true, COUNTS>(&mut order, len - 1, 256);
        }
        stream.shuffle::<false, COUNTS>(&mut order, (len - 1).min(255), 1);
    } else {
        for i in (256..len).rev() {
            let start = stream.consumed();
            let j = stream.draw::<true>(u32::try_from(i + 1).expect("at most 416 cards")) as usize;
            report(i, j, start, &stream);
            order.swap(i, j);
        }
        for i in (1..len.min(256)).rev() {
            let start = stream.consumed();
            let j = stream.draw::<false>(u32::try_from(i + 1).expect("at most 256")) as usize;
            report(i, j, start, &stream);
            order.swap(i, j);
        }
    }
    let cards: Vec<&'static str> = order[..len].iter().map(|&p| LABELS[usize::from(p)]).collect();
    let count = u32::try_from(cards.len()).expect("at most 416 cards");
    let total = f64::from(count);
    let base = js_round(total * penetration);
    let spread = js_round(total * 0.02).max(1);
    let draw = u32::try_from(2 * spread + 1).expect("the spread is small");
    let unclamped = base + i64::from(stream.index(draw)) - spread;
    let low = js_round(total * 0.5).max(20);
    let high = i64::from(count) - 15;
    let cut = unclamped.clamp(low, high);
    let (bytes, rejections) = (stream.consumed(), stream.rejections);
    let (at_limit, below_limit) = (stream.at_limit, stream.below_limit);
    (
        Shoe {
            cards,
            cut: u32::try_from(cut).expect("the cut lies within the shoe"),
        },
        Cut {
            bytes,
            rejections,
            at_limit,
            below_limit,
            base,
            spread,
            unclamped,
            low,
            high,
            cut,
        },
    )
}

/// Returns the client seed and nonce of hand `hand` of tournament `tournament_id`.
pub(crate) fn tournament_round(tournament_id: &str, hand: u64) -> (String, u64) {
    (format!("{tournament_id}:{hand}"), hand)
}

/// Deals hand `hand` of a tournament: client seed `T:k`, nonce k, the
/// tournament seed as server seed; everything else as [`deal`].
pub fn tournament(server_seed: &str, tournament_id: &str, hand: u64, decks: usize, penetration: f64) -> Shoe {
    let (client_seed, nonce) = tournament_round(tournament_id, hand);
    deal(server_seed, &client_seed, nonce, decks, penetration)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hmac::{Hmac, Mac};
    use proptest::prelude::*;

    proptest! {
        /// Blocks are made in pairs, or one alone when a read needs no
        /// more: read in any pieces, mixed with single bytes and draws'
        /// bytes, the stream is HMAC(serverSeed, "client:nonce:b") for
        /// b = 0, 1, … (the `hmac` crate), and `consumed` counts it.
        #[test]
        fn a_stream_read_in_any_pieces_is_the_macs_of_its_blocks_in_order(pieces in prop::collection::vec(0u64..100, 0..12)) {
            let mut stream = ByteStream::new("server", "client", 7);
            let mut got = Vec::new();
            for (k, &n) in pieces.iter().enumerate() {
                if k % 3 == 2 {
                    got.push(stream.next_byte());
                } else {
                    stream.read_into(n, &mut got);
                }
                prop_assert_eq!(stream.consumed(), got.len() as u64);
            }
            let mut want = Vec::new();
            for b in 0..got.len().div_ceil(32) {
                let mut mac = Hmac::<sha2::Sha256>::new_from_slice(b"server").unwrap();
                mac.update(format!("client:7:{b}").as_bytes());
                want.extend_from_slice(&mac.finalize().into_bytes());
            }
            want.truncate(got.len());
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn small_limit_table_equals_the_formula_for_every_small_m() {
        // The cursor scheme's limit is the same rule, 256^k − (256^k mod m)
        // with k the bytes m needs, computed per call.
        for (m, small) in SMALL_DRAWS.iter().enumerate().skip(2) {
            assert_eq!(
                u128::from(small.limit),
                crate::schemes::cursor::limit(m as u64),
                "m = {m}"
            );
        }
    }

    #[test]
    fn branch_free_one_byte_draws_deal_the_shoe_and_counts_of_the_reported_draws() {
        // Every shoe size, and enough deals that rejections, draws at the
        // limit and one below it all occur (the counts are compared too).
        let mut seen = [0u64; 3];
        for decks in 1..=8 {
            for nonce in 0..60 {
                let fast = deal_with::<true>("s", "c", nonce, decks, 0.75, None);
                let reported = deal_with::<true>("s", "c", nonce, decks, 0.75, Some(&mut |_| {}));
                assert_eq!(fast, reported, "{decks} decks, nonce {nonce}");
                let uncounted = deal_with::<false>("s", "c", nonce, decks, 0.75, None);
                assert_eq!(fast.0, uncounted.0, "{decks} decks, nonce {nonce}");
                seen[0] += fast.1.rejections[1];
                seen[1] += fast.1.at_limit[1];
                seen[2] += fast.1.below_limit[1];
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    #[test]
    fn js_round_sends_halves_up_and_rust_round_does_not() {
        assert_eq!(js_round(32.5), 33);
        assert_eq!(js_round(-0.5), 0); // Math.round(-0.5) is -0
        assert_eq!((-0.5f64).round(), -1.0);
        assert_eq!(js_round(2.4999999999999996), 2);
    }

    #[test]
    fn ordered_shoe_starts_with_the_ace_of_spades_and_ends_with_the_king_of_clubs() {
        let s = ordered(2);
        assert_eq!((s[0], s[9], s[51], s[52], s.len()), ("AS", "TS", "KC", "AS", 104));
    }

    #[test]
    fn deck_table_is_ranks_within_suits_in_the_published_order() {
        let built: Vec<String> = SUITS
            .iter()
            .flat_map(|s| RANKS.iter().map(move |r| format!("{r}{s}")))
            .collect();
        assert_eq!(DECK.to_vec(), built);
    }
}
