//! `freebitco`: Freebitco.in's free roll and dice roll.
//!
//! With STRING1 = "nonce:serverSeed:nonce" and STRING2 =
//! "nonce:clientSeed:nonce", the MAC is HMAC-SHA512(key = STRING2,
//! message = STRING1); its first 8 hex digits are an integer x < 2³², and
//! the roll is x ÷ 429,496.7295 rounded to the nearest whole number,
//! 0 ..= 10,000. The commitment shown before play is SHA-256 of the server
//! seed.
//!
//! Source: the operator's text ("THIS GAME IS PROVABLY FAIR!") as quoted in
//! monk-afk/freebitco.in_roll-calculator's README: "HMAC-SHA512 is used to
//! hash STRING1 with STRING2 as the secret key", "divided by 429496.7295
//! and rounded off to the nearest whole number", "the maximum possible
//! value being 10,000". Its example, reproduced by the operator's own
//! verifier page (s3.amazonaws.com/roll-verifier/verify.html): nonce
//! 123456, server seed `monk`, client seed `knom` → 8009, server seed hash
//! `9b550d15…f6e4`.
//!
//! Decisions and traps:
//! - The key is the client's string: with the server's string as key the
//!   example gives 619.
//! - The nonce stands on both sides of each seed (`n:x:n`).
//! - Rounding is to nearest, halves up (the calculator's
//!   ⌊x/429496.7295 + 0.5⌋, JavaScript's `Math.round`); x/429496.7295 is
//!   never exactly a half here (the divisor is no binary fraction), so
//!   halves up or to even cannot part. A floor instead parts on about
//!   half of the rolls.

use crate::base::hmac::hmac_sha512;

pub mod ops;
pub mod stats;

pub use ops::SCHEME;

/// (2³² − 1)/10⁴: the divisor that maps the largest x to 10,000.
pub(crate) const DIVISOR: f64 = 429_496.729_5;

/// The first 8 hex digits of the MAC, as an integer.
pub(crate) fn value(server_seed: &str, client_seed: &str, nonce: u64) -> u32 {
    let key = format!("{nonce}:{client_seed}:{nonce}");
    let message = format!("{nonce}:{server_seed}:{nonce}");
    let mac = hmac_sha512(key.as_bytes(), message.as_bytes());
    u32::from_be_bytes(mac[..4].try_into().expect("4 bytes"))
}

/// x ÷ 429,496.7295 before rounding.
pub(crate) fn quotient(x: u32) -> f64 {
    f64::from(x) / DIVISOR
}

/// The roll of x: the quotient rounded to nearest.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the quotient lies in 0 ..= 10000"
)]
pub(crate) fn roll_of(x: u32) -> u16 {
    (quotient(x) + 0.5).floor() as u16
}

/// A roll.
pub fn roll(server_seed: &str, client_seed: &str, nonce: u64) -> u16 {
    roll_of(value(server_seed, client_seed, nonce))
}
