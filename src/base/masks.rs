//! Byte classes of 64-byte blocks as bit masks (bit k for byte k): the
//! inner loop of the audit's reader, which finds where each round ends;
//! and how many bytes of 16 are of a few (JSON white space skipped in an
//! indented text).
//!
//! The plain form reads the block byte by byte. With SSE2 (part of
//! x86-64) the fast form puts 16 bytes through one compare, by
//! `safe_arch`'s safe wrappers (the crate forbids `unsafe`); compilers do
//! not turn the byte loop into mask moves. The fast form is chosen there
//! unless `--features plain`; elsewhere the plain form is the only one,
//! and the tests hold the fast form to it.

/// One byte class: the bytes `b` with `b | fold == byte`. `fold` 0 is the
/// byte itself; 0x20 takes `[` with `{` and `]` with `}`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Class {
    pub(crate) fold: u8,
    pub(crate) byte: u8,
}

impl Class {
    pub(crate) const fn byte(byte: u8) -> Class {
        Class { fold: 0, byte }
    }
    pub(crate) const fn folded(fold: u8, byte: u8) -> Class {
        Class { fold, byte }
    }
}

/// Each class's mask of `block`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "plain")))]
#[inline]
pub(crate) fn masks<const N: usize>(block: &[u8; 64], classes: [Class; N]) -> [u64; N] {
    use safe_arch::{bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i, set_splat_i8_m128i};
    #[allow(clippy::cast_possible_wrap, reason = "a byte as the intrinsic's i8")]
    let splat = |c: u8| set_splat_i8_m128i(c as i8);
    let mut m = [0u64; N];
    for (j, lane) in block.chunks_exact(16).enumerate() {
        let v = load_unaligned_m128i(lane.try_into().expect("16 bytes"));
        for (out, c) in m.iter_mut().zip(classes) {
            let x = if c.fold == 0 { v } else { bitor_m128i(v, splat(c.fold)) };
            let bits = move_mask_i8_m128i(cmp_eq_mask_i8_m128i(x, splat(c.byte)));
            // 16 bits in the low half of an i32.
            *out |= u64::from(u16::try_from(bits).expect("16 mask bits")) << (16 * j);
        }
    }
    m
}

/// Each class's mask of `block`: the plain form, byte by byte.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "plain"))))]
pub(crate) fn masks<const N: usize>(block: &[u8; 64], classes: [Class; N]) -> [u64; N] {
    masks_bytewise(block, classes)
}

#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(feature = "plain")),
    allow(dead_code, reason = "the vector way's check")
)]
fn masks_bytewise<const N: usize>(block: &[u8; 64], classes: [Class; N]) -> [u64; N] {
    let mut m = [0u64; N];
    for (k, &b) in block.iter().enumerate() {
        for (out, c) in m.iter_mut().zip(classes) {
            *out |= u64::from(b | c.fold == c.byte) << k;
        }
    }
    m
}

/// How many of the 16 bytes of `block`, from its first, are one of `bytes`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
pub fn leading<const N: usize>(block: &[u8; 16], bytes: [u8; N]) -> u32 {
    use safe_arch::{cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i, set_splat_i8_m128i};
    let v = load_unaligned_m128i(block);
    #[allow(clippy::cast_possible_wrap, reason = "a byte as the intrinsic's i8")]
    let hits = bytes.iter().fold(0, |m, &b| {
        m | move_mask_i8_m128i(cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b as i8)))
    });
    // 16 mask bits in the low half of an i32: the high half ends the count at 16.
    (!hits).trailing_zeros().min(16)
}

/// How many of the 16 bytes of `block`, from its first, are one of `bytes`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
pub fn leading<const N: usize>(block: &[u8; 16], bytes: [u8; N]) -> u32 {
    leading_bytewise(block, bytes)
}

#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    allow(dead_code, reason = "the vector way's check")
)]
fn leading_bytewise<const N: usize>(block: &[u8; 16], bytes: [u8; N]) -> u32 {
    u32::try_from(block.iter().take_while(|b| bytes.contains(b)).count()).unwrap_or(16)
}

/// Bit k: an odd number of bits set in `m` at or below k. For a quote
/// mask: the bytes from an opening quote up to (not including) its
/// closing one, that is, inside a string of a block that starts outside.
#[inline]
pub(crate) fn prefix_parity(m: u64) -> u64 {
    let mut x = m;
    for shift in [1, 2, 4, 8, 16, 32] {
        x ^= x << shift;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CLASSES: [Class; 6] = [
        Class::byte(b'"'),
        Class::byte(b'\\'),
        Class::folded(0x20, b'{'),
        Class::folded(0x20, b'}'),
        Class::byte(b' '),
        Class::byte(b'\n'),
    ];

    proptest! {
        /// The vector masks are the byte-by-byte masks, for bytes near
        /// every class and for any byte at all.
        #[test]
        fn vector_masks_are_the_bytewise_masks(
            near in prop::array::uniform32(prop::sample::select(b"\"\\[]{} \n\x80\xff\x7b\x5b\x02\x00a".to_vec())),
            any_bytes in prop::array::uniform32(any::<u8>()),
        ) {
            let mut b = [0u8; 64];
            b[..32].copy_from_slice(&near);
            b[32..].copy_from_slice(&any_bytes);
            prop_assert_eq!(masks(&b, CLASSES), masks_bytewise(&b, CLASSES));
            b.reverse();
            prop_assert_eq!(masks(&b, CLASSES), masks_bytewise(&b, CLASSES));
        }

        #[test]
        fn vector_leading_runs_are_the_bytewise_runs(
            block in prop::array::uniform16(prop::sample::select(b" \t\n\r\x0ca\x00\xa0".to_vec())),
            spaces in 0usize..=16,
        ) {
            let mut b = block;
            b[..spaces].fill(b' ');
            let set = [b' ', b'\t', b'\r', b'\n'];
            prop_assert_eq!(leading(&b, set), leading_bytewise(&b, set));
        }

        #[test]
        fn prefix_parity_is_the_running_parity(m in any::<u64>()) {
            let below = |k: u32| if k == 63 { u64::MAX } else { (2u64 << k) - 1 };
            let want = (0..64).fold(0u64, |acc, k| acc | (u64::from((m & below(k)).count_ones() % 2 == 1) << k));
            prop_assert_eq!(prefix_parity(m), want);
        }
    }
}
