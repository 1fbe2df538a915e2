//! The two primitives every scheme is built from.
//!
//! Every HMAC in `provably` is HMAC-SHA256 keyed with the server seed **as its
//! UTF-8 text**. The seeds are published as 64 hex characters, and the most
//! common bug in third-party verifiers is to hex-decode them first; there is
//! deliberately no API here that takes key bytes from hex.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// A keyed HMAC-SHA256 whose key schedule is computed once.
///
/// A 312-card shuffle makes hundreds of MACs under the same key; cloning the
/// keyed state skips rehashing the key each time.
#[derive(Clone)]
pub struct Keyed(Hmac<Sha256>);

impl Keyed {
    /// Keys the HMAC with the UTF-8 text of `server_seed`.
    pub fn new(server_seed: &str) -> Self {
        Keyed(Hmac::<Sha256>::new_from_slice(server_seed.as_bytes()).expect("HMAC takes any key length"))
    }

    /// Returns HMAC(server seed, message).
    pub fn mac(&self, message: &[u8]) -> [u8; 32] {
        let mut m = self.0.clone();
        m.update(message);
        m.finalize().into_bytes().into()
    }

    /// Returns HMAC(server seed, `prefix` followed by the decimal digits of `n`).
    ///
    /// Every scheme's message is some text, a colon, and a counter; this
    /// formats the counter without allocating.
    pub fn mac_counter(&self, prefix: &[u8], n: u64) -> [u8; 32] {
        let mut m = self.0.clone();
        m.update(prefix);
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
    }
}
