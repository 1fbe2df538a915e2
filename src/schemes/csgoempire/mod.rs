//! `csgoempire`: CSGOEmpire's roulette.
//!
//! As the operator's PHP script computes it (help.csgoempire.com, "How is
//! roulette fair?", article 8474037): `hash = hash('sha256', $server_seed .
//! "-" . $public_seed . "-" . $round)` as hex, `roll = hexdec(substr($hash,
//! 0, 8)) % 15` (0 ..= 14), and the colour is `bonus` for 0, `orange` for
//! 1 ..= 7 and `black` for 8 ..= 14. Plain SHA-256, no HMAC: the server seed
//! is text in the message like the others. One server seed serves a day's
//! rounds, revealed at 00:00 UTC the next day; the public seed is published
//! with it ("5 pairs of random numbers, 01 to 39").
//!
//! Evidence: the operator's own script, read, not run against a published
//! outcome. Its example (server `96f3e04d…3cd0`, public `460670512935`,
//! round 321) shows its result only in a screenshot of the roll history,
//! so no published number backs it; the example's inputs are a vector of
//! what this op computes (roll 0, bonus), not a `PublishedField` one. The
//! page does not say how the server seed is hashed while it is secret, so
//! the op names no commitment.
//!
//! Traps: the separator `-` on both sides of the public seed, the order
//! server, public, round, and the colours' edges (7 orange, 8 black).
//! 8 hex digits are 32 bits: `hexdec` and `parseInt` are exact here.

use crate::base::crypto::sha256;

pub mod fields;
pub mod ops;
pub mod stats;

pub use ops::SCHEME;

/// The wheel's 15 pockets.
pub(crate) const POCKETS: u32 = 15;

/// The colours of the script, in the order of its tests.
pub(crate) const COLOURS: [&str; 3] = ["bonus", "orange", "black"];

/// The first 8 hex digits of SHA-256(server + "-" + public + "-" + round).
pub(crate) fn value(server_seed: &str, public_seed: &str, round: u64) -> u32 {
    let digest = sha256(format!("{server_seed}-{public_seed}-{round}").as_bytes());
    u32::from_be_bytes(digest[..4].try_into().expect("4 bytes"))
}

/// The roll of a value: value mod 15.
pub(crate) fn roll_of(value: u32) -> u32 {
    value % POCKETS
}

/// The colour of a roll.
pub(crate) fn colour(roll: u32) -> &'static str {
    match roll {
        0 => COLOURS[0],
        1..=7 => COLOURS[1],
        _ => COLOURS[2],
    }
}
