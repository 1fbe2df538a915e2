//! `shoe`: a multi-deck blackjack shoe with a cut card (seed 000).
//!
//! The algorithm as the page states it ("Das Verfahren in Worten"), one
//! item each below:
//! 1. The ordered shoe: deck after deck, in each the suits spades, hearts,
//!    diamonds, clubs, and in each suit the ranks ace to king ([`ordered`]).
//! 2. A byte stream: block c is HMAC-SHA256(serverSeed, "clientSeed:nonce:c"),
//!    c = 0, 1, …, keyed with the server seed's text; the 32 bytes of a
//!    block are read in order, then the next block's ([`ByteStream`]).
//! 3. An index in [0, n): k bytes with 256^k ≥ n, big-endian; a value at
//!    or above 256^k − (256^k mod n) is thrown away and k fresh bytes read;
//!    then mod n (`index`).
//! 4. Fisher–Yates from the back: for i from the last position down to 1,
//!    j = index(i + 1), and the cards at i and j swap (`fisher_yates`).
//! 5. The cut card from the same stream, right after: base =
//!    round(total × penetration), spread = max(1, round(total × 0.02)),
//!    base + index(2·spread + 1) − spread, clamped to
//!    [max(20, round(total × 0.5)), total − 15] (`cut_card`).
//! 6. A tournament hand k of tournament T: client seed "T:k", nonce k
//!    (`tournament`).
//!
//! Unlike `cursor`, the draws read one continuous byte stream: a draw that
//! needs two bytes may take the last byte of one block and the first of
//! the next. The same inputs therefore give a different deck than `cursor`
//! does.
//!
//! This module is that algorithm and nothing faster. A deal's shuffle and
//! a long read of the stream have a fast form in `branch_free.rs` (MACs two
//! at a time, remainders by a multiplication, rejections without a
//! branch), chosen in [`deal`] and [`stream`] unless `--features plain`;
//! its tests hold it to this module, and so does every vector (`make test`
//! checks them on both builds).

use serde::Serialize;

use crate::base::crypto::decimal;
use crate::base::hmac::{Counter, Keyed};

#[cfg(not(feature = "plain"))]
mod branch_free;
pub mod fields;
pub mod ops;
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

/// The bytes of one block of the stream: one MAC.
const BLOCK: usize = 32;

/// The MACs of a round's stream: block c is HMAC(serverSeed, "clientSeed:nonce:c").
pub(crate) fn blocks(server_seed: &str, client_seed: &str, nonce: u64) -> Counter {
    Keyed::new(server_seed).counter_of(&[client_seed.as_bytes(), b":", decimal(nonce, &mut [0u8; 20]), b":"])
}

/// Where the draws read their bytes from, one at a time and in order:
/// the stream ([`ByteStream`]), its fast form, or another implementation's
/// bytes (`src/wild/` holds third-party generators to this module's logic).
pub trait ByteSource {
    /// The next byte.
    fn next_byte(&mut self) -> u8;
}

/// Step 2, the byte generator Stake publishes: MAC blocks, consumed in order.
pub struct ByteStream {
    blocks: Counter,
    block: [u8; BLOCK],
    next_block: u64,
    pos: usize,
}

impl ByteStream {
    /// The stream of one round, before its first byte.
    pub fn new(server_seed: &str, client_seed: &str, nonce: u64) -> Self {
        ByteStream {
            blocks: blocks(server_seed, client_seed, nonce),
            block: [0; BLOCK],
            next_block: 0,
            pos: BLOCK,
        }
    }

    /// Appends the next `count` bytes to `out`.
    pub fn read_into(&mut self, count: u64, out: &mut Vec<u8>) {
        for _ in 0..count {
            out.push(self.next_byte());
        }
    }
}

impl ByteSource for ByteStream {
    fn next_byte(&mut self) -> u8 {
        if self.pos == BLOCK {
            self.block = self.blocks.mac(self.next_block);
            self.next_block += 1;
            self.pos = 0;
        }
        self.pos += 1;
        self.block[self.pos - 1]
    }
}

/// The first `count` bytes of a round's stream (`shoe.stream`), read two
/// blocks at a time by the fast form unless `--features plain` (the one
/// place that is chosen).
pub fn stream(server_seed: &str, client_seed: &str, nonce: u64, count: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    #[cfg(not(feature = "plain"))]
    branch_free::Paired::new(server_seed, client_seed, nonce).read_into(count, &mut out);
    #[cfg(feature = "plain")]
    ByteStream::new(server_seed, client_seed, nonce).read_into(count, &mut out);
    out
}

/// What the draws of a deal read, for vectors and reports: the flags of a
/// vector are read off it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Bytes read.
    pub(crate) bytes: u64,
    /// Rejected draws by byte width (index 1 = one byte, 2 = two bytes, …).
    pub(crate) rejections: [u64; 5],
    /// Draws that read exactly their rejection limit, by byte width.
    pub(crate) at_limit: [u64; 5],
    /// Draws that read their rejection limit minus one (the largest value
    /// kept, when the limit is below 256^k), by byte width.
    pub(crate) below_limit: [u64; 5],
}

/// Step 3: a uniform index in `0..n` (n ≥ 1): k bytes with 256^k ≥ n,
/// big-endian; values at or above 256^k − (256^k mod n) are thrown away
/// and k fresh bytes read; then mod n. Every attempt is counted in `tally`.
pub(crate) fn index(bytes: &mut impl ByteSource, n: u32, tally: &mut Tally) -> u32 {
    let mut k = 1;
    while 256u64.pow(k) < u64::from(n) {
        k += 1;
    }
    let pot = 256u64.pow(k);
    let limit = pot - pot % u64::from(n);
    let width = k as usize;
    loop {
        let v = (0..k).fold(0u64, |acc, _| (acc << 8) | u64::from(bytes.next_byte()));
        tally.bytes += u64::from(k);
        tally.at_limit[width] += u64::from(v == limit);
        tally.below_limit[width] += u64::from(v + 1 == limit && limit < pot);
        if v < limit {
            return u32::try_from(v % u64::from(n)).expect("below n");
        }
        tally.rejections[width] += 1;
    }
}

/// Step 4: Fisher–Yates from the back, each draw reported to `on_draw`.
pub(crate) fn fisher_yates<T>(
    bytes: &mut impl ByteSource,
    cards: &mut [T],
    tally: &mut Tally,
    on_draw: &mut dyn FnMut(Draw),
) {
    for i in (1..cards.len()).rev() {
        let start = tally.bytes;
        let j = index(bytes, u32::try_from(i + 1).expect("a shoe's size fits 32 bits"), tally) as usize;
        on_draw(Draw {
            i,
            j,
            bytes: start..tally.bytes,
        });
        cards.swap(i, j);
    }
}

/// Step 5: the cut card of a shoe of `total` cards, drawn from the stream
/// right after the shuffle.
pub(crate) fn cut_card(bytes: &mut impl ByteSource, total: usize, penetration: f64, tally: &mut Tally) -> Cut {
    let count = u32::try_from(total).expect("a shoe's size fits 32 bits");
    let total = f64::from(count);
    let base = js_round(total * penetration);
    let spread = js_round(total * 0.02).max(1);
    let draw = u32::try_from(2 * spread + 1).expect("the spread is small");
    let unclamped = base + i64::from(index(bytes, draw, tally)) - spread;
    let low = js_round(total * 0.5).max(20);
    let high = i64::from(count) - 15;
    Cut {
        bytes: tally.bytes,
        rejections: tally.rejections,
        at_limit: tally.at_limit,
        below_limit: tally.below_limit,
        base,
        spread,
        unclamped,
        low,
        high,
        cut: unclamped.clamp(low, high),
    }
}

/// The 52 labels of one deck in shoe order: spades, hearts, diamonds, clubs,
/// each ace to king.
pub(crate) const DECK: [&str; 52] = [
    "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", //
    "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", //
    "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", //
    "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC",
];

/// Returns the ordered shoe: deck after deck. Labels are static, so a
/// shuffle moves pointers and an 8-deck shoe allocates once.
pub fn ordered(decks: usize) -> Vec<&'static str> {
    DECK.iter().copied().cycle().take(52 * decks).collect()
}

/// A shuffled shoe and the position of its cut card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shoe {
    /// The shuffled cards, first to last, as labels (`AS`, `TD`).
    pub cards: Vec<&'static str>,
    /// The position of the cut card (step 5).
    pub cut: u32,
}

/// How the shoe was drawn and the cut card placed, for vectors and reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// Bytes read from the stream, shuffle and cut together.
    pub bytes: u64,
    /// Rejected draws by byte width, as [`Tally::rejections`].
    pub(crate) rejections: [u64; 5],
    /// Draws at their rejection limit and one below it, as [`Tally::at_limit`].
    pub(crate) at_limit: [u64; 5],
    pub(crate) below_limit: [u64; 5],
    /// round(total × penetration): where the cut would lie with no spread.
    pub base: i64,
    /// max(1, round(total × 0.02)): how far the draw moves the cut either way.
    pub spread: i64,
    /// base + index(2·spread + 1) − spread, before clamping.
    pub(crate) unclamped: i64,
    /// The lowest cut allowed: max(20, round(total × 0.5)).
    pub low: i64,
    /// The highest cut allowed: total − 15.
    pub high: i64,
    /// The cut card's position: `unclamped` clamped to `low ..= high`.
    pub(crate) cut: i64,
}

/// The most decks a shoe holds.
pub(crate) const MAX_DECKS: u64 = 8;

/// Deals one shoe of `decks` decks (1 to `MAX_DECKS`): steps 1 to 5.
/// `penetration` lies strictly between 0 and 1. The shuffle's fast form
/// deals unless `--features plain` (the one place it is chosen).
///
/// # Panics
/// When `decks` is 0 (an empty shoe has no cut card).
pub fn deal(server_seed: &str, client_seed: &str, nonce: u64, decks: usize, penetration: f64) -> Shoe {
    #[cfg(not(feature = "plain"))]
    {
        branch_free::deal(server_seed, client_seed, nonce, decks, penetration)
    }
    #[cfg(feature = "plain")]
    {
        deal_traced(server_seed, client_seed, nonce, decks, penetration).0
    }
}

/// Like [`deal`], also returning how the cut was placed and what the
/// draws read (always the plain form: vectors and reports read it).
pub fn deal_traced(server_seed: &str, client_seed: &str, nonce: u64, decks: usize, penetration: f64) -> (Shoe, Cut) {
    let mut stream = ByteStream::new(server_seed, client_seed, nonce);
    deal_from(&mut stream, decks, penetration, &mut |_| {})
}

/// One draw of the shuffle: position i, the j it drew, and the stream
/// bytes it read (rejected attempts included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Draw {
    pub(crate) i: usize,
    pub(crate) j: usize,
    pub(crate) bytes: std::ops::Range<u64>,
}

/// Every draw of the shuffle, in draw order (i from the back).
pub(crate) fn draws(server_seed: &str, client_seed: &str, nonce: u64, decks: usize) -> Vec<Draw> {
    let mut out = Vec::new();
    let mut stream = ByteStream::new(server_seed, client_seed, nonce);
    deal_from(&mut stream, decks, 0.5, &mut |d| out.push(d));
    out
}

/// Steps 1, 4 and 5 on the bytes of `bytes`, every draw reported to
/// `on_draw`: the stream's shoe, or the one another implementation's
/// bytes make (`src/wild/`).
///
/// # Panics
/// As [`deal`].
pub(crate) fn deal_from(
    bytes: &mut impl ByteSource,
    decks: usize,
    penetration: f64,
    on_draw: &mut dyn FnMut(Draw),
) -> (Shoe, Cut) {
    assert!(decks >= 1, "a shoe has at least one deck");
    let mut cards = ordered(decks);
    let mut tally = Tally::default();
    fisher_yates(bytes, &mut cards, &mut tally, on_draw);
    let cut = cut_card(bytes, cards.len(), penetration, &mut tally);
    let shoe = Shoe {
        cards,
        cut: u32::try_from(cut.cut).expect("the cut lies within the shoe"),
    };
    (shoe, cut)
}

/// Returns the client seed and nonce of hand `hand` of tournament `tournament_id`.
pub(crate) fn tournament_round(tournament_id: &str, hand: u64) -> (String, u64) {
    (format!("{tournament_id}:{hand}"), hand)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hmac::{Hmac, Mac};

    #[test]
    fn a_stream_is_the_macs_of_its_blocks_in_order() {
        // The `hmac` crate: HMAC(serverSeed, "client:nonce:b") for b = 0, 1, ….
        let mut got = Vec::new();
        ByteStream::new("server", "client", 7).read_into(100, &mut got);
        let mut want = Vec::new();
        for b in 0..4 {
            let mut mac = Hmac::<sha2::Sha256>::new_from_slice(b"server").unwrap();
            mac.update(format!("client:7:{b}").as_bytes());
            want.extend_from_slice(&mac.finalize().into_bytes());
        }
        want.truncate(100);
        assert_eq!(got, want);
    }

    #[test]
    fn an_index_reads_the_bytes_it_needs_and_rejects_at_the_limit() {
        // Bytes given by hand: n = 6 takes one byte, limit 252; n = 257 two, limit 65,535.
        struct Given(std::vec::IntoIter<u8>);
        impl ByteSource for Given {
            fn next_byte(&mut self) -> u8 {
                self.0.next().expect("enough bytes")
            }
        }
        let mut tally = Tally::default();
        let mut bytes = Given(vec![252, 251, 0xff, 0xff, 0x01, 0x02].into_iter());
        assert_eq!(index(&mut bytes, 6, &mut tally), 251 % 6);
        assert_eq!(index(&mut bytes, 257, &mut tally), 0x0102 % 257);
        assert_eq!(tally.bytes, 6);
        assert_eq!(
            (tally.rejections[1], tally.at_limit[1], tally.below_limit[1]),
            (1, 1, 1)
        );
        assert_eq!(
            (tally.rejections[2], tally.at_limit[2], tally.below_limit[2]),
            (1, 1, 0)
        );
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
