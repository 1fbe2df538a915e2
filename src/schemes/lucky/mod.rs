//! `lucky`: the "lucky number" dice of Primedice's classic scheme and its
//! many clones.
//!
//! The MAC is HMAC-SHA512(key = serverSeed, message = "clientSeed-nonce"),
//! written as 128 lowercase hex digits. Its digits are read five at a time,
//! at offsets 0, 5, 10, …, 120 (25 groups); the first group whose value is
//! below 1,000,000 is `lucky` (0 ..= 999,999), and the roll is
//! (lucky mod 10⁴)/100, 0.00 ..= 99.99.
//!
//! Sources:
//! - Primedice's classic implementation page, as quoted in the
//!   MerkeX/primediceverifier README ("If the roll number is over 999,999,
//!   the process is repeated with the next five characters skipping the
//!   previous set … In the astronomically unlikely event that all possible
//!   5 character combinations are greater, 99.99 is used"), and its code as
//!   copied in popmanhe/Node_Dice `cryptoroll.js` and DavidAnson/markdownlint
//!   pull request 1412 (`lucky = 9999` once `index * 5 + 5 > 129`);
//! - the worked example of provably-fair/provably-fair-app's README (a
//!   Primedice bet: server `293d5d2d…9f04`, client
//!   `ClientSeedForDiceSites.com`, nonce 0 → MAC `aa671aad…`, lucky 697969,
//!   roll 79.69);
//! - PyPI `provablyfair` 1.0.0, `ProvablyFair.roll` (its `roll` is `lucky`).
//!
//! Decisions:
//! - Exhaustion (no group below 10⁶) is Primedice's rule: lucky 9999, roll
//!   99.99. The clones that take the last three hex digits instead
//!   (`provablyfair` 1.0.0, runebanks, DuckDice) are the reading
//!   `LAST_THREE`. No seed reaches it in practice: each
//!   group is 10⁶ or more with probability 48,576/2²⁰, all 25 with about
//!   4.5·10⁻³⁴.
//! - A group of exactly 1,000,000 is skipped ("over 999,999"; the code's
//!   `lucky >= 1e6`).
//!
//! The clones vary four things: the hash, the separator, the modulus and
//! the exhaustion rule. [`Variant`] names the ones with a published source,
//! and `lucky.roll` holds each as a reading, so that a verifier written for
//! a clone is named by its finding:
//! - runebanks (runebanks.net/provability): HMAC-SHA512(server seed,
//!   "client:nonce"), the last three hex digits when no group is kept
//!   ([`RUNEBANKS`]); BC.Game's hash dice computes the same lucky number
//!   and shows it mod 10⁵ (`bcgame.hashdice`);
//! - DuckDice (help.duckdice.io, "Provably Fair, Randomization and
//!   Verify"): plain SHA-512 of serverSeed + clientSeed + nonce, no HMAC and
//!   no separator, the last three digits, and the roll `lucky % 10000`
//!   (0 ..= 9,999: the same hundredths as Primedice's) ([`DUCKDICE`]);
//! - PyPI `provablyfair` 1.0.0: Primedice's MAC, the last three digits.
//!
//! Wolf.bet's HMAC-SHA256 and `client_nonce` (its separator unconfirmed)
//! and BetBTC's groups before 2016-07-05 have no source precise enough to
//! be a reading; docs/schemes.md lists them.

use crate::base::crypto::hex;
use crate::base::hmac::hmac_sha512;

pub mod ops;
pub mod stats;

pub use ops::SCHEME;

/// The five-digit groups read, at offsets 0, 5, …, 120.
pub(crate) const GROUPS: usize = 25;

/// A group is kept when its value is below this.
pub(crate) const LIMIT: u32 = 1_000_000;

/// Primedice's lucky number when no group is kept.
pub(crate) const EXHAUSTED: u32 = 9999;

/// The MAC's hex digits: HMAC-SHA512(serverSeed, "clientSeed-nonce").
pub(crate) fn mac_hex(server_seed: &str, client_seed: &str, nonce: u64) -> String {
    Variant::PRIMEDICE.hex(server_seed, client_seed, nonce)
}

/// How a clone makes its 128 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Digest {
    /// HMAC-SHA512(key = serverSeed, message = clientSeed + separator + nonce).
    Hmac(&'static str),
    /// SHA-512(serverSeed + clientSeed + nonce), no key (DuckDice).
    Plain,
}

/// What a lucky-number clone does: its digits and its exhaustion rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Variant {
    pub(crate) digest: Digest,
    /// The last three hex digits when no group is kept (else 9999).
    pub(crate) last_three: bool,
}

impl Variant {
    /// Primedice's classic scheme.
    pub(crate) const PRIMEDICE: Variant = Variant {
        digest: Digest::Hmac("-"),
        last_three: false,
    };

    /// The clone's 128 hex digits of a bet.
    pub fn hex(self, server_seed: &str, client_seed: &str, nonce: u64) -> String {
        let bytes = match self.digest {
            Digest::Hmac(sep) => hmac_sha512(server_seed.as_bytes(), format!("{client_seed}{sep}{nonce}").as_bytes()),
            Digest::Plain => {
                use sha2::{Digest as _, Sha512};
                Sha512::digest(format!("{server_seed}{client_seed}{nonce}").as_bytes()).into()
            }
        };
        hex(&bytes)
    }

    /// The clone's lucky number of a bet.
    pub(crate) fn lucky(self, server_seed: &str, client_seed: &str, nonce: u64) -> u32 {
        let mac = self.hex(server_seed, client_seed, nonce);
        if self.last_three {
            last_three(&mac)
        } else {
            scan(&mac).lucky
        }
    }
}

/// runebanks: "client:nonce", the last three digits.
pub(crate) const RUNEBANKS: Variant = Variant {
    digest: Digest::Hmac(":"),
    last_three: true,
};

/// DuckDice: plain SHA-512 of server + client + nonce, the last three digits.
pub(crate) const DUCKDICE: Variant = Variant {
    digest: Digest::Plain,
    last_three: true,
};

/// PyPI provablyfair 1.0.0: Primedice's digits, the last three digits.
pub(crate) const PROVABLYFAIR: Variant = Variant {
    digest: Digest::Hmac("-"),
    last_three: true,
};

/// The value of the hex digits `digits`.
fn value(digits: &str) -> u32 {
    u32::from_str_radix(digits, 16).expect("at most 5 hex digits")
}

/// Where the lucky number was found: its group, or `None` when every group
/// was 10⁶ or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lucky {
    pub group: Option<usize>,
    pub(crate) lucky: u32,
}

/// The lucky number of a MAC's 128 hex digits, by Primedice's rule.
pub(crate) fn scan(mac: &str) -> Lucky {
    (0..GROUPS)
        .map(|g| (g, value(&mac[5 * g..5 * g + 5])))
        .find(|&(_, v)| v < LIMIT)
        .map_or(
            Lucky {
                group: None,
                lucky: EXHAUSTED,
            },
            |(g, lucky)| Lucky { group: Some(g), lucky },
        )
}

/// Whether a group read before the kept one is exactly 1,000,000 (`f4240`),
/// the smallest value skipped: `>` for `>=` would keep it.
pub(crate) fn skips_the_limit(mac: &str) -> bool {
    (0..GROUPS)
        .map(|g| value(&mac[5 * g..5 * g + 5]))
        .take_while(|&v| v >= LIMIT)
        .any(|v| v == LIMIT)
}

/// The clones' exhaustion rule: the last three hex digits (offset 125).
pub(crate) fn last_three(mac: &str) -> u32 {
    match scan(mac) {
        Lucky { group: None, .. } => value(&mac[5 * GROUPS..]),
        found => found.lucky,
    }
}

/// A bet's lucky number.
pub(crate) fn lucky(server_seed: &str, client_seed: &str, nonce: u64) -> Lucky {
    scan(&mac_hex(server_seed, client_seed, nonce))
}

/// The roll in hundredths: lucky mod 10⁴, 0 ..= 9999.
pub(crate) fn hundredths(lucky: u32) -> u32 {
    lucky % 10_000
}

/// The roll as the sites show it: hundredths / 100.
pub fn roll(lucky: u32) -> f64 {
    f64::from(hundredths(lucky)) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhaustion_gives_primedice_9999_and_the_clones_the_last_three_digits() {
        let all_high = "f".repeat(128);
        assert_eq!(
            scan(&all_high),
            Lucky {
                group: None,
                lucky: EXHAUSTED
            }
        );
        assert_eq!(last_three(&all_high), 0xfff);
        // A group of exactly 10⁶ (f4240) is skipped, 999,999 (f423f) kept.
        let edge = format!("f4240f423f{}", "0".repeat(118));
        assert_eq!(
            scan(&edge),
            Lucky {
                group: Some(1),
                lucky: 999_999
            }
        );
    }
}
