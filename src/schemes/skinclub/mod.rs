//! `skinclub`: skin.club's case rolls.
//!
//! roll = (the first 15 hex digits of HMAC-SHA512(key = "clientSeed-nonce",
//! message = serverSeed)) mod 100,000 + 1, 1 ..= 100,000. The public hash
//! shown before play is HMAC-SHA256(key = secret salt, message = serverSeed).
//! A case battle's roll puts the battle's public `beacon` where a regular
//! roll has the server seed, with no salt and no public hash.
//!
//! Source: skin.club's own validator, github.com/skinclub-tech/
//! provably-fair-validator (`index.php`'s `generateRoll` and
//! `calculatePublicHash`, and `tests/run-tests.php`, whose fixtures are
//! vectors here: `c4ca4238a0b92382` / `my_seed` / 4 → 21752 with salt
//! `0dcc509a6f75849b` → public hash `dc883b29…f493`; battle beacon
//! `Tt5qAdTwoTeygDdghVlfEWtNJQkGYg5q` / `12354,abgd` / 9 → 5415), and a
//! player's exported rolls in <https://github.com/hashcat/hashcat/issues/3674> (server
//! `5cde7ef61f82edc3b4f37cf7ad2c1e20`, client `xcvbdfgnfxn`, nonce 0 →
//! 79537, salt `12537aab67008133` → `efca1bc8…bb5b`).
//!
//! Decisions and traps:
//! - PHP's `hash_hmac(algo, data, key)` takes the message first: the key is
//!   the client's string, the message the server seed (the validator's
//!   tests say "HMAC-SHA512(key: client_seed-nonce, message: server_seed)").
//!   The usual order (the server seed as key) gives other rolls.
//! - 15 hex digits are 60 bits, above 2⁵³ in all but 1/128 of rolls:
//!   PHP's `hexdec` and JavaScript's `parseInt` return a rounded double
//!   there, and the roll from it is off. The validator's fixtures agree
//!   with the exact integer (21752; the double gives 21729), so the value
//!   is read exactly (u64 here, BigInt in JavaScript).

use crate::base::crypto::hex;
use crate::base::hmac::{hmac_sha512, Keyed};

pub mod ops;
pub mod stats;

pub(crate) use ops::SCHEME;

/// Rolls run 1 ..= this.
pub(crate) const ROLLS: u64 = 100_000;

/// The first 15 hex digits of the roll's MAC, as an integer below 2⁶⁰.
pub(crate) fn value(server_seed: &str, client_seed: &str, nonce: u64) -> u64 {
    let mac = hmac_sha512(format!("{client_seed}-{nonce}").as_bytes(), server_seed.as_bytes());
    // 15 hex digits: the first 7½ bytes, the top 60 bits of the first 8.
    u64::from_be_bytes(mac[..8].try_into().expect("8 bytes")) >> 4
}

/// The roll of a value: value mod 100,000 + 1.
pub(crate) fn roll_of(value: u64) -> u64 {
    value % ROLLS + 1
}

/// A roll.
pub fn roll(server_seed: &str, client_seed: &str, nonce: u64) -> u64 {
    roll_of(value(server_seed, client_seed, nonce))
}

/// The roll a double reading of the value gives: the trap of `hexdec` and
/// `parseInt`. The value rounds to the nearest double (ties to even), which
/// is an integer here.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "the trap itself: a 60-bit value through a double, which holds an integer below 2^64"
)]
pub(crate) fn roll_through_double(value: u64) -> u64 {
    (value as f64) as u64 % ROLLS + 1
}

/// The public hash: HMAC-SHA256(key = salt, message = serverSeed), hex.
pub(crate) fn public_hash(salt: &str, server_seed: &str) -> String {
    hex(&Keyed::new(salt).mac(server_seed.as_bytes()))
}
