//! BC.Game's Coin Flip, a run of flips from one bet: flip k (1, 2, …) signs
//! its own message `clientSeed:nonce:k` (`[clientSeed, nonce, round].join(":")`,
//! HMAC-SHA256 keyed with the server seed), and 0 is heads, 1 tails.
//!
//! - **Old generation** (`coinflip.html`): the first four bytes of flip k's
//!   MAC, `Math.floor((b0/256 + b1/256² + b2/256³ + b3/256⁴) * 2)`: the top
//!   bit of the first byte ([`old_coin`]). A game's verification as BC.Game
//!   showed it (nucleare/DeepSearch_HashGames, `BCGame/CoinFlip/
//!   Referencedata.md`: server `18fbbc01…13e8`, client
//!   `34b3304ea17b8faed51f1a72af1bfb8f`, nonce 6371, four rounds → 1, 1, 0,
//!   1) is this computation.
//! - **New generation** (`coinflip_new.html`): `Math.floor(
//!   slideWindowNumber(hash, 2))` of flip k's MAC ([`new_coin`]).
//!
//! The pages take any number of rounds (10 by default); the ops take 1 ..=
//! 100.

use super::window;
use crate::base::crypto::hex;
use crate::base::hmac::Keyed;

/// The MAC of flip `round` (from 1).
pub(crate) fn mac(server_seed: &str, client_seed: &str, nonce: u64, round: u64) -> [u8; 32] {
    Keyed::new(server_seed).mac(format!("{client_seed}:{nonce}:{round}").as_bytes())
}

/// The old page's coin: ⌊f·2⌋ of the first four bytes, the top bit.
pub(crate) fn old_coin(mac: &[u8; 32]) -> u8 {
    mac[0] >> 7
}

/// The new page's coin: ⌊slideWindowNumber(hash, 2)⌋.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a number in [0, 2)"
)]
pub(crate) fn new_coin(mac: &[u8; 32]) -> u8 {
    window::number(&hex(mac), 2.0).floor() as u8
}

/// The flips 1 ..= rounds of a bet, by `coin`.
pub(crate) fn flips(
    server_seed: &str,
    client_seed: &str,
    nonce: u64,
    rounds: u64,
    coin: fn(&[u8; 32]) -> u8,
) -> Vec<u8> {
    (1..=rounds)
        .map(|k| coin(&mac(server_seed, client_seed, nonce, k)))
        .collect()
}
