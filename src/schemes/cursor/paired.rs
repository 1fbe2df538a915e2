//! The fast form of a cursor shuffle and of a scan of consecutive
//! cursors: the same draws as [`super`]'s plain form, in less time. Built
//! unless `--features plain`; `Round::shuffle` and `Round::raws_from`
//! choose it, and the tests below hold it to the plain form.
//!
//! What is faster here, and why:
//! - Every attempt reads the next cursor, kept or not, so the MACs are
//!   known ahead of the draws: they are made two at a time
//!   ([`Counter::macs`]), two independent chains of compressions side by
//!   side.
//! - A range of at most [`modulo::SMALL`] (every draw of a shuffle of up
//!   to 1,025 cards) takes its limit and its remainder by a
//!   multiplication ([`modulo::rem`]): a division per draw would cost a
//!   tenth of its MAC. Larger ranges draw as the plain form does, from
//!   the paired MACs.

use super::{int_from, Attempt};
use crate::base::hmac::Counter;
use crate::base::modulo;

/// The MACs at consecutive cursors, made in pairs: the second of a pair
/// waits for the next attempt.
struct Paired<'a> {
    macs: &'a Counter,
    second: Option<(u64, [u8; 32])>,
}

impl<'a> Paired<'a> {
    fn new(macs: &'a Counter) -> Self {
        Paired { macs, second: None }
    }

    #[inline]
    fn raw(&mut self, cursor: u64) -> [u8; 32] {
        if let Some((at, mac)) = self.second.take() {
            if at == cursor {
                return mac;
            }
        }
        match cursor.checked_add(1) {
            Some(next) => {
                let [mac, second] = self.macs.macs::<2>(cursor);
                self.second = Some((next, second));
                mac
            }
            None => self.macs.mac(cursor),
        }
    }
}

/// `Round::raws_from`: the MAC at every cursor from `start` on.
pub(super) fn raws_from(macs: &Counter, start: u64) -> impl Iterator<Item = (u64, [u8; 32])> + '_ {
    let mut paired = Paired::new(macs);
    (start..).map(move |c| (c, paired.raw(c)))
}

/// `Round::shuffle`.
pub(super) fn shuffle(macs: &Counter, count: usize, mut cursor: u64) -> (Vec<u32>, u64) {
    let mut deck: Vec<u32> = (0..u32::try_from(count).expect("a count fits 32 bits")).collect();
    let mut paired = Paired::new(macs);
    for i in (1..count).rev() {
        let range = i as u64 + 1;
        let small = u32::try_from(range)
            .ok()
            .and_then(|m| modulo::reciprocal(m).map(|inv| (m, inv)));
        let (j, next) = match small {
            Some((m, inv)) => small_int(m, inv, cursor, &mut paired),
            None => int_from(range, cursor, &mut |c| paired.raw(c), &mut |_: Attempt| {}),
        };
        cursor = next;
        deck.swap(i, usize::try_from(j).expect("j <= i"));
    }
    (deck, cursor)
}

/// `int` of a range m of at least 2 and at most [`modulo::SMALL`]: one or
/// two bytes, and every remainder (the limit's too) by a multiplication.
#[inline]
fn small_int(m: u32, inv: u64, mut cursor: u64, paired: &mut Paired<'_>) -> (u64, u64) {
    let two = m > 256;
    let pot: u32 = if two { 1 << 16 } else { 1 << 8 };
    let limit = pot - modulo::rem(pot, m, inv);
    loop {
        let raw = paired.raw(cursor);
        let v = if two {
            u32::from(raw[0]) << 8 | u32::from(raw[1])
        } else {
            u32::from(raw[0])
        };
        cursor += 1;
        if v < limit {
            return (u64::from(modulo::rem(v, m, inv)), cursor);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Round;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Shuffles of every size around the byte widths (one byte up to
        /// 256 cards, two above, the general draw past 1,025), from small
        /// cursors and from cursors of 20 digits, are the plain shuffle's
        /// order and cursor.
        #[test]
        fn the_fast_shuffle_is_the_plain_shuffle(
            count in prop::sample::select(vec![0usize, 1, 2, 3, 52, 255, 256, 257, 258, 312, 1024, 1025, 1026, 1100]),
            cursor in prop_oneof![0u64..1000, Just(u64::MAX - 3000)],
            nonce in 0u64..1000,
        ) {
            let round = Round::new("server", "client", nonce);
            let fast = shuffle(&round.macs, count, cursor);
            prop_assert_eq!(fast, round.shuffle_traced(count, cursor, &mut |_, _| {}));
        }
    }

    #[test]
    fn a_paired_scan_is_the_mac_at_every_cursor() {
        let round = Round::new("server", "client", 3);
        for start in [0, 1, u64::MAX - 3] {
            let scanned: Vec<(u64, [u8; 32])> = raws_from(&round.macs, start).take(3).collect();
            let plain: Vec<(u64, [u8; 32])> = (0..3).map(|k| (start + k, round.raw(start + k))).collect();
            assert_eq!(scanned, plain, "from {start}");
        }
    }
}
