//! `dice` (seed 001), exactly as the page's published JavaScript computes it.
//!
//! The page's one-line formula looks at byte 0 only; the published code scans
//! every byte of each MAC for the first one below 252. The code is the
//! specification, so this scans too.

use crate::base::hmac::Keyed;
use crate::op::error::OpError;

pub mod fields;
pub mod ops;
pub mod stats;

pub use ops::SCHEME;

/// How many MACs a die may read before it gives up.
pub(crate) const ROUNDS: u64 = 16;

/// The die's byte, where it was found, and its face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// The MAC round (0 to 15) whose bytes gave the face.
    pub round: u64,
    pub(crate) offset: usize,
    pub(crate) byte: u8,
    pub(crate) face: u8,
    /// A byte skipped before the face was exactly 252, the limit.
    pub(crate) skipped_limit: bool,
}

/// Returns die number `n`: the first byte b < 252 of HMAC(serverSeed,
/// "clientSeed:n:round") for round = 0..16, as b % 6 + 1.
pub fn roll(server_seed: &str, client_seed: &str, n: u64) -> Result<u8, OpError> {
    roll_traced(server_seed, client_seed, n).map(|f| f.face)
}

/// Like [`roll`], also saying which round and byte gave the face.
pub fn roll_traced(server_seed: &str, client_seed: &str, n: u64) -> Result<Found, OpError> {
    roll_with_key(&Keyed::new(server_seed), client_seed, n)
}

/// [`roll_traced`] with the server seed keyed already: an audit of one
/// seed's dice keys it once and skips even the cache's lookup.
pub fn roll_with_key(server_seed: &Keyed, client_seed: &str, n: u64) -> Result<Found, OpError> {
    let mut digits = [0u8; 20];
    let n_digits = crate::base::crypto::decimal(n, &mut digits);
    let macs = server_seed.counter_of(&[client_seed.as_bytes(), b":", n_digits, b":"]);
    roll_from(n, &mut |round| macs.mac(round))
}

/// Die `n` from the MACs `mac(round)` = HMAC(serverSeed,
/// "clientSeed:n:round") make, whoever makes them (`src/wild/` holds
/// other packages' HMACs to this logic).
pub(crate) fn roll_from(n: u64, mac: &mut dyn FnMut(u64) -> [u8; 32]) -> Result<Found, OpError> {
    let mut skipped_limit = false;
    for round in 0..ROUNDS {
        let mac = mac(round);
        // 252 = 6 × 42: every face gets exactly 42 byte values.
        if let Some(offset) = mac.iter().position(|&b| b < 252) {
            let byte = mac[offset];
            skipped_limit |= mac[..offset].contains(&252);
            return Ok(Found {
                round,
                offset,
                byte,
                face: byte % 6 + 1,
                skipped_limit,
            });
        }
        skipped_limit |= mac.contains(&252);
    }
    Err(OpError::Exhausted {
        message: format!("die {n}: no byte below 252 in {ROUNDS} rounds"),
    })
}
