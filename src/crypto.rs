//! The two primitives every scheme is built from.
//!
//! Every HMAC in `provably` is HMAC-SHA256 keyed with the server seed **as its
//! UTF-8 text**. The seeds are published as 64 hex characters, and the most
//! common bug in third-party verifiers is to hex-decode them first; there is
//! deliberately no API here that takes key bytes from hex.

use std::cell::RefCell;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// A keyed HMAC-SHA256 whose key schedule is computed once.
///
/// Keying costs two SHA-256 compressions (the ipad and opad blocks; a key
/// over 64 bytes is hashed first), as much as the MAC itself. A 312-card
/// shuffle makes hundreds of MACs under one key, and an audit or a harness
/// run asks hundreds of rounds of one server seed, so the keyed state is
/// cloned, not rebuilt: per MAC, and across calls through a small
/// per-thread cache of recent keys.
#[derive(Clone)]
pub struct Keyed(Hmac<Sha256>);

/// How many recent keys each thread keeps.
const CACHED_KEYS: usize = 16;

thread_local! {
    /// Recently keyed seeds, most recent first.
    static KEYS: RefCell<Vec<(Box<str>, Keyed)>> = const { RefCell::new(Vec::new()) };
}

impl Keyed {
    /// Keys the HMAC with the UTF-8 text of `server_seed`.
    pub fn new(server_seed: &str) -> Self {
        KEYS.with(|cell| {
            let mut keys = cell.borrow_mut();
            if let Some(i) = keys.iter().position(|(k, _)| &**k == server_seed) {
                let hit = keys.remove(i);
                let keyed = hit.1.clone();
                keys.insert(0, hit);
                return keyed;
            }
            let keyed = Keyed::uncached(server_seed);
            keys.truncate(CACHED_KEYS - 1);
            keys.insert(0, (server_seed.into(), keyed.clone()));
            keyed
        })
    }

    /// Keys the HMAC without looking at the cache (for benchmarks).
    pub fn uncached(server_seed: &str) -> Self {
        Keyed(Hmac::<Sha256>::new_from_slice(server_seed.as_bytes()).expect("HMAC takes any key length"))
    }

    /// Returns HMAC(server seed, message).
    pub fn mac(&self, message: &[u8]) -> [u8; 32] {
        let mut m = self.0.clone();
        m.update(message);
        m.finalize().into_bytes().into()
    }

    /// Returns HMAC(server seed, `prefix` followed by the decimal digits of `n`).
    pub fn mac_counter(&self, prefix: &[u8], n: u64) -> [u8; 32] {
        self.counter(prefix).mac(n)
    }

    /// The MACs of `prefix` followed by a counter, with the prefix absorbed once.
    pub fn counter(&self, prefix: &[u8]) -> Counter {
        let mut m = self.0.clone();
        m.update(prefix);
        Counter(m)
    }
}

/// HMAC(server seed, prefix ‖ decimal(n)) for any n, the prefix absorbed
/// once: every scheme's message is some text, a colon, and a counter.
/// A long client seed is hashed once per round, not once per MAC.
#[derive(Clone)]
pub struct Counter(Hmac<Sha256>);

impl Counter {
    /// Keys with `server_seed` (through the cache) and absorbs `prefix`.
    pub fn new(server_seed: &str, prefix: &[u8]) -> Counter {
        Keyed::new(server_seed).counter(prefix)
    }

    /// Returns the MAC of the prefix followed by the decimal digits of `n`,
    /// formatted without allocating.
    pub fn mac(&self, n: u64) -> [u8; 32] {
        let mut m = self.0.clone();
        let mut buf = [0u8; 20];
        m.update(decimal(n, &mut buf));
        m.finalize().into_bytes().into()
    }
}

/// Writes `n` in plain decimal into `buf` and returns the digits.
pub fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// Returns the lowercase hex SHA-256 of `text`'s UTF-8 bytes.
pub fn sha256_hex(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// Lowercase hex, the only byte encoding the protocol uses.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_formats_edges() {
        let mut b = [0u8; 20];
        assert_eq!(decimal(0, &mut b), b"0");
        assert_eq!(decimal(u64::MAX, &mut b), u64::MAX.to_string().as_bytes());
    }

    #[test]
    fn mac_counter_equals_mac_of_formatted_message() {
        let k = Keyed::new("seed");
        assert_eq!(k.mac_counter(b"c:1:", 907), k.mac(b"c:1:907"));
        assert_eq!(Counter::new("seed", b"c:1:").mac(907), k.mac(b"c:1:907"));
    }

    #[test]
    fn cached_keys_give_the_mac_of_their_own_seed() {
        // More seeds than the cache holds, twice round: every hit and every
        // eviction must still key with the seed asked for.
        let seeds: Vec<String> = (0..CACHED_KEYS + 3).map(|i| "s".repeat(i * 7)).collect();
        for _ in 0..2 {
            for s in &seeds {
                assert_eq!(
                    Keyed::new(s).mac(b"m"),
                    Keyed::uncached(s).mac(b"m"),
                    "{} bytes",
                    s.len()
                );
            }
        }
    }
}
