//! `bcgame`: BC.Game's own games ("originals"), as its verification pages
//! compute them.
//!
//! Source: github.com/bcgame-project/verify, one runnable HTML page per
//! game (read at its snapshot of 2025-12-26), and `lib/utils.js`. Every page
//! signs the same message with the server seed as the key:
//! `hmac_sha256(client_seed:nonce, server_seed)` (crypto-js's
//! `HmacSHA256(message, key)`), written as lowercase hex: the MAC of
//! [`mac_hex`], HMAC-SHA256 for most games and HMAC-SHA512 for hash dice and
//! plinko. There is no round or cursor suffix: one bet, one MAC. The pages
//! show `sha256(server_seed)` as the commitment.
//!
//! Two generations of pages live side by side, and this module keeps one
//! file per page, each stating its page's computation:
//! - the old generation reads bytes of the MAC as floats Σ bᵢ/256^(i+1):
//!   `classicdice.html` (one float, `toFixed(9)`) in [`classicdice`],
//!   `plinko.html` (16 floats of an HMAC-SHA512) in [`plinko`];
//! - the new generation reads a window of the MAC's hex
//!   (`lib/utils.js`'s `slideWindowNumber`, [`window`]):
//!   `classicdice_new.html`, `dice.html` and `ultimatedice_new.html` in
//!   [`classicdice`];
//! - `limbo.html` reads 13 hex digits as bustabit does ([`limbo`]),
//!   `hashdice.html` the lucky-number groups of Primedice's family
//!   ([`hashdice`]), `mines.html` and `keno_single.html` sort a fixed
//!   starting list by rotations of SHA-256 texts ([`rotation`]).
//!
//! Where a page's prose and its code disagree, the code is the canonical
//! reading and the prose a named reading (as DESIGN.md decided for the dice
//! page of seed 001): each module says which, and docs/schemes.md lists them.

use crate::base::crypto::hex;
use crate::base::hmac::{hmac_sha512, Keyed};

pub(crate) mod classicdice;
pub(crate) mod coinflip;
pub mod fields;
pub(crate) mod hashdice;
pub(crate) mod limbo;
pub mod ops;
pub(crate) mod plinko;
pub(crate) mod rotation;
pub mod stats;
pub(crate) mod window;

pub use ops::SCHEME;

/// The hash a page's HMAC is built on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hash {
    Sha256,
    Sha512,
}

/// The words of the `hash` field, in [`enum@Hash`] order.
pub(crate) const HASHES: [&str; 2] = ["sha256", "sha512"];

impl Hash {
    /// The hash a word of [`HASHES`] names.
    pub(crate) fn of(word: &str) -> Hash {
        if word == "sha512" {
            Hash::Sha512
        } else {
            Hash::Sha256
        }
    }
}

/// The message every page signs: `clientSeed + ':' + nonce`.
pub(crate) fn message(client_seed: &str, nonce: u64) -> String {
    format!("{client_seed}:{nonce}")
}

/// The MAC's bytes: HMAC(key = serverSeed, message = "clientSeed:nonce").
pub(crate) fn mac(hash: Hash, server_seed: &str, client_seed: &str, nonce: u64) -> Vec<u8> {
    let m = message(client_seed, nonce);
    match hash {
        Hash::Sha256 => Keyed::new(server_seed).mac(m.as_bytes()).to_vec(),
        Hash::Sha512 => hmac_sha512(server_seed.as_bytes(), m.as_bytes()).to_vec(),
    }
}

/// The MAC as the pages show it: lowercase hex (64 or 128 digits).
pub(crate) fn mac_hex(hash: Hash, server_seed: &str, client_seed: &str, nonce: u64) -> String {
    hex(&mac(hash, server_seed, client_seed, nonce))
}
