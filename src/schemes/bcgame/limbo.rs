//! BC.Game's Limbo (`limbo.html`): the first 13 hex digits of the
//! HMAC-SHA256 MAC are r, `X = r / 2^52`, `X = (100 − edge) / (1 − X)`, and
//! the multiplier is `Math.max(1, Math.floor(X) / 100)`. The page reads the
//! edge from its query (`Number(qs.he) || 1`, so 0 or no edge is 1); the
//! game's is 1, and the op has no edge field: 99/(1 − X).
//!
//! This is bustabit v2's point of X ([`crate::schemes::crash::v2_of`]), on a
//! MAC of the seeds instead of a game hash and salt. The help centre
//! ("Game Limbo Fairness") works one MAC through: `6b5124897c3c48d0…` →
//! X = 0.419206889692064 → 99/(1 − X) = 170.45656748150867 → 1.70; it
//! gives no seeds, so it is a test of [`multiplier_of`], not a vector.
//!
//! The page answers nothing for an empty server seed (`this.server_seed ?
//! … : ''`); the op answers the formula for every seed.

use crate::schemes::crash::{first52, v2_of, v2_unclamped};

/// 2⁵², the divisor of the 13 hex digits.
const TWO_52: f64 = 4_503_599_627_370_496.0;

/// r/2⁵², exact.
#[allow(clippy::cast_precision_loss, reason = "below 2^52: exact")]
pub(crate) fn x_of(r: u64) -> f64 {
    r as f64 / TWO_52
}

/// The first 52 bits of an HMAC-SHA256 MAC.
pub(crate) fn r_of(mac: &[u8]) -> u64 {
    first52(mac[..32].try_into().expect("32 bytes"))
}

/// The multiplier of r: max(1, ⌊99/(1 − X)⌋/100).
pub(crate) fn multiplier_of(r: u64) -> f64 {
    v2_of(x_of(r))
}

/// Whether the clamp at 1 decides (X below 0.01: ⌊99/(1 − X)⌋ < 100).
pub(crate) fn clamped(r: u64) -> bool {
    v2_unclamped(x_of(r)) < 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_centres_mac_gives_its_multiplier() {
        let r = u64::from_str_radix("6b5124897c3c4", 16).unwrap();
        assert_eq!(r, 1_887_939_992_208_324);
        assert_eq!(x_of(r), 0.419_206_889_692_064);
        assert_eq!(99.0 / (1.0 - x_of(r)), 170.456_567_481_508_67);
        assert_eq!(multiplier_of(r), 1.7);
    }
}
