//! Hash chains as crash games play them: h\[i−1\] = link(h\[i\]), the operator
//! committing to the chain's last hash. Stake's crash (`stake.crash.chain`)
//! and the bustabit family (`crash.*`) walk the same two links from here.

#[cfg(feature = "plain")]
use super::crypto::{sha256_of_32, sha256_of_hex};
#[cfg(not(feature = "plain"))]
use super::midstate::{sha256_of_32, sha256_of_hex};

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
    // A digit's value by table: a branch per digit cost more than a
    // game's MAC's outer compression.
    static VALUE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut c: u8 = 0;
        while c < 10 {
            t[(b'0' + c) as usize] = c;
            c += 1;
        }
        let mut c: u8 = 0;
        while c < 6 {
            t[(b'a' + c) as usize] = 10 + c;
            c += 1;
        }
        t
    };
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(hex.as_bytes().chunks_exact(2)) {
        *o = (VALUE[usize::from(pair[0])] << 4) | VALUE[usize::from(pair[1])];
    }
    out
}

/// h\[i−1\] from h\[i\]: the compressions the link needs and nothing
/// else (the text link's digits go straight into its first block), so a
/// walk allocates nothing.
pub(crate) fn step(link: Link, h: &[u8; 32]) -> [u8; 32] {
    match link {
        Link::Text => sha256_of_hex(h),
        Link::Bytes => sha256_of_32(h),
    }
}

/// The hash `steps` links on from `h`: `link` applied `steps` times, as a
/// chain is built from its start (a generated case's or a vector's).
pub fn after(link: Link, h: &[u8; 32], steps: u64) -> [u8; 32] {
    let mut h = *h;
    for _ in 0..steps {
        h = step(link, &h);
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
    for d in 0..=limit {
        if h == *to {
            return Some(d);
        }
        if d < limit {
            h = step(link, &h);
        }
    }
    None
}
