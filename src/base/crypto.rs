//! SHA-256 and the protocol's texts of bytes and numbers: hex and decimal.
//! The HMACs built on SHA-256 are [`super::hmac`]'s.

use sha2::{Digest, Sha256};

/// SHA-256 of `bytes` (through `sha2`'s own padding and buffer).
pub(crate) fn sha256(bytes: &[u8]) -> [u8; 32] {
    // The message, the 0x80 byte and the 8-byte length, in whole blocks.
    #[cfg(feature = "count-compressions")]
    compressions::add((bytes.len() as u64 + 9).div_ceil(64));
    Sha256::digest(bytes).into()
}

/// SHA-256 of 32 bytes (a hash chain's raw-byte link), as stated: the
/// digest of the bytes. Its fast form in `midstate` writes them into one block.
#[cfg(feature = "plain")]
pub(crate) fn sha256_of_32(bytes: &[u8; 32]) -> [u8; 32] {
    sha256(bytes)
}

/// SHA-256 of the 64 lowercase hex digits of 32 bytes (a hash chain's
/// hex-text link), as stated: the digest of the hex text. Its fast form
/// in `midstate` writes the digits straight into the first block.
#[cfg(feature = "plain")]
pub(crate) fn sha256_of_hex(bytes: &[u8; 32]) -> [u8; 32] {
    sha256(hex(bytes).as_bytes())
}

/// The padding block of a 64-byte message: the end mark and the length,
/// 512 bits, big-endian in the last eight bytes.
/// How many SHA-256 compressions the process has done, for measuring an op
/// against the cost of its hashes (`scripts/bench-mix.sh`): a build with
/// `--features count-compressions` counts them, and `provably serve` then
/// prints the count to stderr at its end. Never in a release build: an
/// atomic add per compression.
#[cfg(feature = "count-compressions")]
pub mod compressions {
    use std::sync::atomic::{AtomicU64, Ordering};

    static DONE: AtomicU64 = AtomicU64::new(0);

    pub fn add(n: u64) {
        DONE.fetch_add(n, Ordering::Relaxed);
    }

    /// The compressions done so far, by every thread.
    pub fn total() -> u64 {
        DONE.load(Ordering::Relaxed)
    }
}

/// Writes `n` in plain decimal into `buf` and returns the digits.
pub fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + u8::try_from(n % 10).expect("a digit");
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// Returns the lowercase hex SHA-256 of `text`'s UTF-8 bytes.
pub fn sha256_hex(text: &str) -> String {
    hex(&sha256(text.as_bytes()))
}

/// Lowercase hex, the only byte encoding the protocol uses.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = Vec::with_capacity(bytes.len() * 2);
    hex_into(bytes, &mut s);
    String::from_utf8(s).expect("hex digits are ASCII")
}

/// Appends the lowercase hex of `bytes` to `out`, two digits per byte from
/// one table lookup (a `String::push` per digit costs more than a stream's MACs).
pub(crate) fn hex_into(bytes: &[u8], out: &mut Vec<u8>) {
    // Sized once and written in place: a push per byte checks the length
    // each time (a shoe.stream answer is up to 200,000 digits).
    let start = out.len();
    out.resize(start + bytes.len() * 2, 0);
    for (pair, &b) in out[start..].chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&HEX_PAIRS[usize::from(b)]);
    }
}

/// A byte's two lowercase hex digits.
pub(crate) static HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut t = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = [DIGITS[b >> 4], DIGITS[b & 15]];
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    #[test]
    fn decimal_formats_edges() {
        let mut b = [0u8; 20];
        assert_eq!(decimal(0, &mut b), b"0");
        assert_eq!(decimal(u64::MAX, &mut b), u64::MAX.to_string().as_bytes());
    }

    proptest! {
        #[test]
        fn hex_appended_after_any_prefix_is_each_byte_formatted_in_two_lowercase_digits(
            prefix in proptest::collection::vec(any::<u8>(), 0..5),
            bytes in proptest::collection::vec(any::<u8>(), 0..300),
        ) {
            let mut out = prefix.clone();
            hex_into(&bytes, &mut out);
            let want: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            prop_assert_eq!(&out[..prefix.len()], &prefix[..]);
            prop_assert_eq!(std::str::from_utf8(&out[prefix.len()..]).unwrap(), want);
        }
    }
}
