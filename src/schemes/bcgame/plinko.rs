//! BC.Game's Plinko (`plinko.html`, the old generation): the MAC is
//! HMAC-SHA512 (128 hex digits, 64 bytes), each four bytes a number
//! `b0/256 + b1/256² + b2/256³ + b3/256⁴` (exact: u/2³² for the big-endian
//! u32 u), 16 numbers for the 16 pins; the page's table writes each row's
//! direction as `num > .5 ? 'Right' : 'Left'`.
//!
//! Decisions:
//! - **the direction is `num > .5`**, the page's code; its column
//!   "Number*2" suggests ⌊num·2⌋, which differs at num = 0.5 exactly
//!   (u = 2³¹, one float in 2³²: Left by the code, Right by ⌊num·2⌋).
//! - **a board of n rows takes the first n numbers** (8 ..= 16 rows). The
//!   page lists all 16 and says nothing of fewer rows; no published bet of
//!   a smaller board was found to check it against.
//! - the bucket is the number of Rights (0 ..= rows), as on every plinko
//!   board; the page shows no bucket and no payout, and BC.Game publishes
//!   no payout table with it, so the op answers none.

/// The numbers of the MAC (16 for 64 bytes), as their u32s.
pub(crate) fn words(mac: &[u8]) -> Vec<u32> {
    mac.chunks_exact(4)
        .map(|c| u32::from_be_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// `num > .5` for num = u/2³²: Right (1), else Left (0).
pub(crate) fn direction(u: u32) -> u8 {
    u8::from(u > 1 << 31)
}

/// The path of a board of `rows` rows: the first `rows` directions.
pub fn path(mac: &[u8], rows: usize) -> Vec<u8> {
    words(mac).into_iter().take(rows).map(direction).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_half_goes_left_and_the_next_float_right() {
        assert_eq!(direction(1 << 31), 0);
        assert_eq!(direction((1 << 31) + 1), 1);
        assert_eq!(direction(u32::MAX), 1);
        assert_eq!(direction(0), 0);
    }
}
