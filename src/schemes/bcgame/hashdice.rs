//! BC.Game's Hash Dice (`hashdice.html`): the lucky-number dice of
//! Primedice's family on BC.Game's MAC.
//!
//! The page's code: the MAC is HMAC-SHA512(key = serverSeed, message =
//! "clientSeed:nonce") as 128 hex digits; `do { lucky = parseInt(hash.substr(
//! index, 5), 16); index += 5 } while (lucky >= 1000000)`, and the result is
//! `lucky % 100000`, 0 ..= 99,999. When all 25 groups are 10⁶ or more the
//! loop reads `substr(125, 5)`, the last three digits, which are below 10⁶:
//! the exhaustion rule of runebanks, DuckDice and PyPI `provablyfair`, not
//! Primedice's 9999. The lucky number is [`crate::schemes::lucky::RUNEBANKS`]'s.
//!
//! The help centre ("How to Play Hash Dice?") says "combination = Server
//! Seed + Client Seed + Nonce … SHA-512 hash of that combination", DuckDice's
//! text word for word, and "divided by 100,000". The page's code and its
//! own label `hmac_sha512(client_seed:nonce, server_seed)` say HMAC; the
//! code is canonical, the help centre's plain SHA-512 is the reading
//! `help-centre` ([`crate::schemes::lucky::DUCKDICE`]'s lucky number mod
//! 10⁵).

use crate::schemes::lucky::{self, Variant};

/// Results run 0 ..= this − 1.
pub(crate) const MODULUS: u32 = 100_000;

/// The page's lucky number of a bet, and the group it was found in.
pub(crate) fn lucky(server_seed: &str, client_seed: &str, nonce: u64) -> lucky::Lucky {
    let mac = lucky::RUNEBANKS.hex(server_seed, client_seed, nonce);
    let found = lucky::scan(&mac);
    lucky::Lucky {
        lucky: lucky::last_three(&mac),
        ..found
    }
}

/// The result shown: lucky mod 10⁵.
pub fn roll(lucky: u32) -> u32 {
    lucky % MODULUS
}

/// A clone's lucky number of a bet under BC.Game's result.
pub(crate) fn roll_of(v: Variant, server_seed: &str, client_seed: &str, nonce: u64) -> (u32, u32) {
    let l = v.lucky(server_seed, client_seed, nonce);
    (l, roll(l))
}
