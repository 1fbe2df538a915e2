//! Hash chains as crash games play them: h\[i−1\] = link(h\[i\]), the operator
//! committing to the chain's last hash. Stake's crash (`stake.crash.chain`)
//! and the bustabit family (`crash.*`) walk the same two links from here.

use super::crypto::{hex_into, sha256};

/// One step down a chain: how h\[i−1\] is made from h\[i\].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// SHA-256 of the hash's 64 lowercase hex characters (two compressions).
    Text,
    /// SHA-256 of the hash's 32 bytes (one compression).
    Bytes,
}

/// The 32 bytes of a hash written as 64 lowercase hex digits (checked by
/// the caller: a `Hex64` field). A chain's hash is decoded so to be walked
/// or to be a message; a key is always its text ([`super::crypto`]).
pub fn bytes_of(hex: &str) -> [u8; 32] {
    let digit = |c: u8| match c {
        b'0'..=b'9' => c - b'0',
        _ => c - b'a' + 10,
    };
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(hex.as_bytes().chunks_exact(2)) {
        *o = (digit(pair[0]) << 4) | digit(pair[1]);
    }
    out
}

/// h\[i−1\] from h\[i\], with `text` a buffer the text link writes its 64
/// digits into (so a walk allocates nothing).
pub fn step(link: Link, h: &[u8; 32], text: &mut Vec<u8>) -> [u8; 32] {
    match link {
        Link::Text => {
            text.clear();
            hex_into(h, text);
            sha256(text)
        }
        Link::Bytes => sha256(h),
    }
}

/// The hash `steps` links on from `h`: `link` applied `steps` times, as a
/// chain is built from its start (a generated case's or a vector's).
pub fn after(link: Link, h: &[u8; 32], steps: u64) -> [u8; 32] {
    let mut h = *h;
    let mut text = Vec::with_capacity(64);
    for _ in 0..steps {
        h = step(link, &h, &mut text);
    }
    h
}

/// How many links lead from `from` to `to` (0 when they are equal), if at
/// most `limit`; `None` when `to` is not within `limit` links.
///
/// Up to `limit` SHA-256 steps (10^7 for a whole chain), each into the
/// same buffer, with nothing allocated.
pub fn walk(link: Link, from: &[u8; 32], to: &[u8; 32], limit: u64) -> Option<u64> {
    let mut h = *from;
    let mut text = Vec::with_capacity(64);
    for d in 0..=limit {
        if h == *to {
            return Some(d);
        }
        if d < limit {
            h = step(link, &h, &mut text);
        }
    }
    None
}
