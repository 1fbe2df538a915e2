//! Crash: a chain of SHA-256 hashes, played backwards, salted with a
//! Bitcoin block hash (its own scheme, not the seed-pair stream).
//!
//! Source: Stake's seeding event,
//! <https://bitcointalk.org/index.php?topic=5162888.0> (quoted in
//! <https://bitcointalksearch.org/topic/stakecom-crash-seeding-event-5162888/2-page.html>):
//! "a chain of 10,000,000 SHA256 hashes where each hash is the hash of the
//! hexadecimal representation of the previous hash", and
//! `hmac = createHmac('sha256', gameHash); hmac.update(blockHash);
//! int = parseInt(hmac.digest('hex').substr(0, 8), 16);
//! crashpoint = max(1, 2^32/(int+1)·(1−0.01))`. The key and the message
//! are the hashes' hex text. The game shows the crash point down to two
//! decimals: ⌊x·100⌋/100 (the canonical reading; the post's and the `fair`
//! crate's unrounded value is the reading `unrounded`).

use crate::base::chain::{bytes_of, Link};
use crate::base::hmac::hmac_sha256;
use crate::op::error::OpError;

/// The largest `limit` of `stake.crash.chain`: Stake's chain is 10^7 long.
pub const MAX_LIMIT: u64 = 10_000_000;

/// The first 4 bytes of HMAC_SHA256(key = game hash, message = salt), big-endian.
pub(crate) fn game_int(hash: &str, salt: &str) -> u32 {
    let mac = hmac_sha256(hash.as_bytes(), salt.as_bytes());
    u32::from_be_bytes([mac[0], mac[1], mac[2], mac[3]])
}

/// The crash point of a game: max(1, 2^32/(n+1)·0.99), down to two decimals.
pub fn crash_point(hash: &str, salt: &str) -> f64 {
    super::floor2(super::readings::crash_unrounded(game_int(hash, salt)))
}

/// How many steps h → SHA-256(hex h) lead from `hash` to `terminating`
/// (0 when they are equal), if at most `limit`.
pub(crate) fn distance(hash: &str, terminating: &str, limit: u64) -> Result<u64, OpError> {
    walk(Link::Text, hash, terminating, limit)
}

/// How many links of either kind lead from `hash` to `terminating`, if at
/// most `limit` (the crash family walks the raw-byte link with it too).
///
/// This is the costliest round of any op: up to `limit` ≤ [`MAX_LIMIT`]
/// SHA-256 steps, each into the same buffer, with nothing allocated.
pub fn walk(link: Link, hash: &str, terminating: &str, limit: u64) -> Result<u64, OpError> {
    crate::base::chain::walk(link, &bytes_of(hash), &bytes_of(terminating), limit).ok_or_else(|| OpError::Exhausted {
        message: format!("the terminating hash is not within {limit} SHA-256 steps of the hash"),
    })
}
