//! HMAC, the one primitive every scheme's numbers come from.
//!
//! Every HMAC in `provably` is HMAC-SHA256 keyed with the server seed **as its
//! UTF-8 text**. The seeds are published as 64 hex characters, and the most
//! common bug in third-party verifiers is to hex-decode them first; there is
//! deliberately no API here that takes key bytes from hex.
//!
//! `hmac_sha256` is HMAC as RFC 2104 states it, H((K ⊕ opad) ‖
//! H((K ⊕ ipad) ‖ m)) on `sha2`'s SHA-256: the plain form, held to RFC
//! 4231's vectors and the `hmac` crate in the tests. The schemes ask for
//! MACs through [`Keyed`] (one key, message after message) and [`Counter`]
//! (one key and message prefix, a counter after it), chosen once below:
//! with `--features plain` they are the plain form's, each MAC computed
//! whole; otherwise they are those of `base::midstate`, which keeps the
//! key's and the prefix's SHA-256 states and makes each MAC from its last
//! blocks. `hmac_sha512` is the other operators' HMAC, plain.

use sha2::{Digest, Sha256};

#[cfg(feature = "count-compressions")]
use super::crypto::compressions;
use super::crypto::sha256;

// The one place the HMAC's form is chosen.
#[cfg(not(feature = "plain"))]
pub use super::midstate::{Counter, Keyed};
#[cfg(feature = "plain")]
pub use plain::{Counter, Keyed};

/// HMAC-SHA256 (RFC 2104 on SHA-256's 64-byte block) of `message` under
/// `key`, both as given: the plain form every MAC of a scheme is held to.
/// A key longer than the block is hashed first; a shorter one is padded
/// with zeros to the block.
pub(crate) fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > block.len() {
        block[..32].copy_from_slice(&sha256(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    // The inner hash's key block and message, then the outer's key block
    // and the inner hash, each with its padding, in whole blocks.
    #[cfg(feature = "count-compressions")]
    compressions::add((64 + message.len() as u64 + 9).div_ceil(64) + 2);
    let inner = Sha256::new()
        .chain_update(block.map(|b| b ^ 0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(block.map(|b| b ^ 0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// [`Keyed`] and [`Counter`] in the plain form: each MAC is
/// [`hmac_sha256`] of the whole message, nothing kept between MACs but
/// the key's and the prefix's bytes.
#[cfg(any(test, feature = "plain"))]
mod plain {
    use super::hmac_sha256;
    use crate::base::crypto::decimal;

    /// HMAC-SHA256 under one server seed's text.
    #[derive(Clone)]
    pub struct Keyed {
        key: Vec<u8>,
    }

    impl Keyed {
        /// Keys the HMAC with the UTF-8 text of `server_seed`.
        pub fn new(server_seed: &str) -> Self {
            Keyed {
                key: server_seed.as_bytes().to_vec(),
            }
        }

        /// Returns HMAC(server seed, message).
        pub fn mac(&self, message: &[u8]) -> [u8; 32] {
            hmac_sha256(&self.key, message)
        }

        /// The MACs of the prefix that is `parts` one after another,
        /// followed by a counter.
        pub(crate) fn counter_of(&self, parts: &[&[u8]]) -> Counter {
            Counter {
                keyed: self.clone(),
                prefix: parts.concat(),
            }
        }
    }

    /// HMAC(server seed, prefix ‖ decimal(n)) for any n.
    #[derive(Clone)]
    pub struct Counter {
        keyed: Keyed,
        prefix: Vec<u8>,
    }

    impl Counter {
        /// Returns the MAC of the prefix followed by the decimal digits of `n`.
        pub(crate) fn mac(&self, n: u64) -> [u8; 32] {
            let mut message = self.prefix.clone();
            message.extend_from_slice(decimal(n, &mut [0u8; 20]));
            self.keyed.mac(&message)
        }
    }
}

/// HMAC-SHA512 (RFC 2104 on SHA-512's 128-byte block) of `message` under
/// `key`, both as given: the schemes of other operators (the lucky-number
/// dice, skin.club, Freebitco.in) sign with SHA-512, and some key on the
/// client's text, so this takes the key's bytes and names no seed. Plain
/// (no prefix absorbed ahead): each of those bets signs one message.
pub(crate) fn hmac_sha512(key: &[u8], message: &[u8]) -> [u8; 64] {
    use sha2::Sha512;
    let mut block = [0u8; 128];
    if key.len() > block.len() {
        block[..64].copy_from_slice(&Sha512::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let inner = Sha512::new()
        .chain_update(block.map(|b| b ^ 0x36))
        .chain_update(message)
        .finalize();
    Sha512::new()
        .chain_update(block.map(|b| b ^ 0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::crypto::hex;
    use hmac::{Hmac, Mac};
    use proptest::prelude::*;

    /// RFC 4231, test cases 1, 2, 4, 6 (a key longer than a block) and 7
    /// (a key and a message longer than a block).
    #[test]
    fn hmac_sha256_equals_rfc_4231() {
        let case_4_key: Vec<u8> = (1..=25).collect();
        for (key, message, mac) in [
            (&[0x0b; 20][..], &b"Hi There"[..], "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (b"Jefe", b"what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            (&case_4_key, &[0xcd; 50], "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            (
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            ),
            (
                &[0xaa; 131],
                b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            ),
        ] {
            assert_eq!(hex(&hmac_sha256(key, message)), mac, "key of {} bytes", key.len());
        }
    }

    proptest! {
        /// Keys and messages of every length around the block against the
        /// `hmac` crate; and the plain `Counter` is the MAC of its prefix
        /// and the counter's digits.
        #[test]
        fn hmac_sha256_equals_the_hmac_crate(
            key in prop::collection::vec(any::<u8>(), 0..150),
            message in prop::collection::vec(any::<u8>(), 0..200),
            n in any::<u64>(),
        ) {
            let mut m = Hmac::<Sha256>::new_from_slice(&key).unwrap();
            m.update(&message);
            let want: [u8; 32] = m.finalize().into_bytes().into();
            prop_assert_eq!(hmac_sha256(&key, &message), want);
            let text = String::from_utf8_lossy(&key).into_owned();
            let (a, b) = message.split_at(message.len() / 2);
            let mut whole = message.clone();
            whole.extend_from_slice(n.to_string().as_bytes());
            prop_assert_eq!(plain::Keyed::new(&text).counter_of(&[a, b]).mac(n), hmac_sha256(text.as_bytes(), &whole));
        }
    }

    /// RFC 4231's HMAC-SHA-512 results of test cases 2 and 6 (a key longer
    /// than SHA-512's 128-byte block), and the `hmac` crate on key lengths
    /// around the block.
    #[test]
    fn hmac_sha512_equals_rfc_4231_and_the_hmac_crate() {
        assert_eq!(
            hex(&hmac_sha512(b"Jefe", b"what do ya want for nothing?")),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        );
        assert_eq!(
            hex(&hmac_sha512(&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First")),
            "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"
        );
        for len in [0, 1, 64, 127, 128, 129, 300] {
            let key = vec![b'k'; len];
            let mut m = Hmac::<sha2::Sha512>::new_from_slice(&key).unwrap();
            m.update(b"client-7");
            let want: [u8; 64] = m.finalize().into_bytes().into();
            assert_eq!(hmac_sha512(&key, b"client-7"), want, "key of {len} bytes");
        }
    }
}
