//! `stake`: Stake's published games on one byte stream.
//!
//! The stream is the one of seed 000's shoe ([`crate::schemes::shoe::ByteStream`]):
//! block b is HMAC_SHA256(key = serverSeed, message = "clientSeed:nonce:b"),
//! the blocks' bytes read in order (Stake's `byteGenerator`, where the round
//! is ⌊cursor/32⌋). Each 4 bytes make one float Σ_{i=0..3} b_i / 256^(i+1),
//! which is the big-endian u32 of the 4 bytes over 2^32, exact in binary64
//! (Stake's `generateFloats`). Sources:
//! - <https://stake.com/provably-fair/implementation> (the byte generator),
//! - <https://stake.com/provably-fair/conversions> (bytes to floats, floats
//!   to game events, the shuffle of game events),
//! - <https://stake.com/provably-fair/game-events> (each game's mapping),
//! - the `fair` crate 0.0.13 (`src/games/`), a transcription of the client
//!   code, for the payout tables and Limbo's floor (read as a source).
//!
//! Game events, float by float (f is the next float):
//! - dice: roll = ⌊f·10001⌋/100, 0.00 ..= 100.00 (10,001 outcomes);
//! - limbo: see `limbo` and its readings;
//! - plinko: one float per row, direction ⌊f·2⌋ (0 left, 1 right); the
//!   bucket is the number of rights; the multiplier is the row count's and
//!   risk's table at the bucket (`tables`);
//! - roulette: pocket ⌊f·37⌋;
//! - wheel: segment ⌊f·segments⌋, multiplier from `tables`;
//! - keno: 10 floats; each picks ⌊f·(40−i)⌋ from the squares 1..=40 not yet
//!   drawn, kept in order (no square twice);
//! - mines: `mines` floats; each picks ⌊f·(25−i)⌋ from the tiles 0..=24 not
//!   yet drawn (row-major on the 5×5 grid);
//! - hilo, blackjack: 52 floats, card ⌊f·52⌋ each, with replacement (Stake
//!   deals from an unlimited number of decks);
//! - baccarat: 6 floats, card ⌊f·52⌋ each with replacement; player, player,
//!   banker, banker, then the third-card rules (the player draws on 0–5; the
//!   banker by its total and the player's third card);
//! - video poker: 52 floats; each picks ⌊f·(52−i)⌋ from the cards not yet
//!   drawn, kept in order: a deck without replacement;
//! - diamonds: 5 floats, gem ⌊f·7⌋.
//!
//! Cards are Stake's CARDS index: ♦2, ♥2, ♠2, ♣2, ♦3, …, ♣A (rank ⌊c/4⌋ from
//! 2 up to the ace, suit c mod 4 in ♦ ♥ ♠ ♣). Crash is a scheme of its own
//! (`crash`).

use crate::schemes::shoe::{ByteSource, ByteStream};

pub mod crash;
pub mod fields;
pub mod ops;
pub mod readings;
pub mod stats;
pub mod tables;

pub use ops::SCHEME;

/// Stake's GEMS list, in index order.
pub(crate) const GEMS: [&str; 7] = ["green", "purple", "yellow", "red", "cyan", "orange", "blue"];

/// The largest `count` of `stake.floats`.
pub(crate) const MAX_FLOATS: u64 = 1024;

/// 2^32, the divisor of a float's u32.
const TWO_32: f64 = 4_294_967_296.0;

/// The floats of a bet, in order, as their u32s (4 bytes big-endian).
pub(crate) struct Floats {
    stream: ByteStream,
}

impl Floats {
    pub fn new(server_seed: &str, client_seed: &str, nonce: u64) -> Floats {
        Floats {
            stream: ByteStream::new(server_seed, client_seed, nonce),
        }
    }

    /// The next float's 4 bytes as a big-endian integer.
    pub(crate) fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        for x in &mut b {
            *x = self.stream.next_byte();
        }
        u32::from_be_bytes(b)
    }

    /// The next float: Σ b_i / 256^(i+1), which is u32 / 2^32 exactly.
    pub(crate) fn next_float(&mut self) -> f64 {
        f64::from(self.next_u32()) / TWO_32
    }
}

/// A float's u32 as the float.
pub fn float_of(u: u32) -> f64 {
    f64::from(u) / TWO_32
}

/// ⌊f·n⌋ for a float f in [0, 1): an index below n.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "f·n lies in [0, n) for n ≤ 2^32, which converts exactly"
)]
pub fn pick(f: f64, n: usize) -> usize {
    (f * n as f64).floor() as usize
}

/// Dice: ⌊f·10001⌋/100.
#[allow(clippy::cast_precision_loss, reason = "at most 10,000")]
pub fn dice(f: f64) -> f64 {
    pick(f, 10_001) as f64 / 100.0
}

/// Rounds a multiplier down to two decimals, as Stake shows it: ⌊x·100⌋/100.
pub(crate) fn floor2(x: f64) -> f64 {
    (x * 100.0).floor() / 100.0
}

/// Limbo's canonical reading (`clamped-floor`): the client code's
/// 1e8/(⌊f·1e8⌋+1)·0.99, down to two decimals, at least 1.
/// docs/schemes.md says why this one is canonical.
pub(crate) fn limbo(f: f64) -> f64 {
    readings::limbo_floor(f).max(1.0)
}

/// Draws `k` items without replacement from `items`: each float picks
/// ⌊f·(n−i)⌋ among those left, which keep their order.
pub(crate) fn draw_without(fl: &mut Floats, mut items: Vec<u8>, k: usize) -> Vec<u8> {
    (0..k)
        .map(|_| {
            let i = pick(fl.next_float(), items.len());
            items.remove(i)
        })
        .collect()
}

/// `k` cards ⌊f·52⌋ with replacement.
pub(crate) fn cards_with(fl: &mut Floats, k: usize) -> Vec<u8> {
    (0..k)
        .map(|_| u8::try_from(pick(fl.next_float(), 52)).expect("below 52"))
        .collect()
}

/// A card's baccarat value: 2..9 their pips, tens and faces 0, the ace 1.
pub(crate) fn baccarat_value(card: u8) -> u8 {
    match card / 4 {
        r @ 0..=7 => r + 2,
        12 => 1,
        _ => 0,
    }
}

/// A baccarat coup: the 6 cards of the bet and who got which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coup {
    /// The 6 cards drawn for the bet, in order (Stake's numbering: rank `card / 4`, two first, ace last); the tableau uses 4 to 6 of them.
    pub cards: Vec<u8>,
    pub(crate) player: Vec<u8>,
    pub(crate) banker: Vec<u8>,
    /// Who won: `player`, `banker` or `tie`.
    pub winner: &'static str,
}

fn total(hand: &[u8]) -> u8 {
    hand.iter().map(|&c| baccarat_value(c)).sum::<u8>() % 10
}

/// Whether the banker draws on `banker` when the player drew `third`.
fn banker_draws(banker: u8, third: u8) -> bool {
    match banker {
        0..=2 => true,
        3 => third != 8,
        4 => (2..=7).contains(&third),
        5 => (4..=7).contains(&third),
        6 => (6..=7).contains(&third),
        _ => false,
    }
}

/// Deals a baccarat coup from 6 cards: P, P, B, B, then the tableau.
pub fn baccarat(cards: Vec<u8>) -> Coup {
    let mut next = cards.iter().copied().skip(4);
    let mut player = vec![cards[0], cards[1]];
    let mut banker = vec![cards[2], cards[3]];
    let (p, b) = (total(&player), total(&banker));
    if p < 8 && b < 8 {
        if p <= 5 {
            let third = next.next().expect("6 cards");
            player.push(third);
            if banker_draws(b, baccarat_value(third)) {
                banker.push(next.next().expect("6 cards"));
            }
        } else if b <= 5 {
            banker.push(next.next().expect("6 cards"));
        }
    }
    let (p, b) = (total(&player), total(&banker));
    let winner = match p.cmp(&b) {
        std::cmp::Ordering::Greater => "player",
        std::cmp::Ordering::Less => "banker",
        std::cmp::Ordering::Equal => "tie",
    };
    Coup {
        cards,
        player,
        banker,
        winner,
    }
}
