//! Remainders by a multiplication: the shuffles' draws divide by a new m
//! every time, and a hardware division costs a third of the MAC it follows.

/// The largest m with a precomputed reciprocal: above every shoe (416
/// cards), every cut draw and a poker deck.
pub(crate) const SMALL: u32 = 1024;

/// ⌈2^32 / m⌉, the reciprocal [`rem`] multiplies by (m ≥ 1).
pub(crate) const fn reciprocal_of(m: u32) -> u64 {
    (1u64 << 32).div_ceil(m as u64)
}

/// [`reciprocal_of`] m for m = 1 … [`SMALL`] (entry 0 unused).
static RECIPROCALS: [u64; SMALL as usize + 1] = {
    let mut t = [0u64; SMALL as usize + 1];
    let mut m = 1;
    while m <= SMALL {
        t[m as usize] = reciprocal_of(m);
        m += 1;
    }
    t
};

/// The reciprocal of m for [`rem`], if m is small enough to have one.
pub(crate) fn reciprocal(m: u32) -> Option<u64> {
    RECIPROCALS
        .get(usize::try_from(m).ok()?)
        .copied()
        .filter(|&inv| inv > 0)
}

/// v mod m for v ≤ 2^16 and m ≤ [`SMALL`], with `inv` = ⌈2^32 / m⌉.
///
/// With inv = (2^32 + e) / m, 0 ≤ e < m, the quotient v·inv / 2^32 exceeds
/// v / m by v·e / (m·2^32) < 1/m (as v·e < 2^16 · 2^10 < 2^32), too little
/// to reach the next multiple of 1/m: the floor is v div m exactly.
pub(crate) fn rem(v: u32, m: u32, inv: u64) -> u32 {
    debug_assert!(v <= 1 << 16 && m <= SMALL);
    let q = (u64::from(v) * inv) >> 32;
    v - u32::try_from(q).expect("q <= v") * m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainders_equal_division_for_every_value_up_to_two_bytes() {
        for m in 1..=SMALL {
            let inv = reciprocal(m).unwrap();
            for v in (0..=1u32 << 16).step_by(if m % 7 == 0 { 1 } else { 97 }) {
                assert_eq!(rem(v, m, inv), v % m, "{v} mod {m}");
            }
        }
        assert_eq!(reciprocal(0), None);
        assert_eq!(reciprocal(SMALL + 1), None);
    }
}
