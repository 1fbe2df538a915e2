//! The statistics of `ladder.shuffle` (`audit --stats`): the entry in each
//! case, exact from the scheme's ⌊r·(i+1)⌋ draw carried through its shuffle.
//!
//! j = ⌊v·(i+1)/2³²⌋ takes value t for c_t = ⌈(t+1)·2³²/(i+1)⌉ − ⌈t·2³²/(i+1)⌉
//! of the 2³² words, which is ⌊2³²/(i+1)⌋ or one more: biased by less than
//! (i+1)/2³² unless i+1 is a power of two, so the cells are not uniform and
//! [`shuffle_marginals`] carries the bias through the shuffle exactly.
//!
//! | family | tests |
//! |---|---|
//! | size 2 … 64 | the entry in each case |

use super::fields::SIZE;
use crate::op::stats::{pick_law, shuffle_marginals, Family, Layout, Model};
use crate::schemes::cursor::stats::{order_cells, MAX_SHUFFLE};

/// The ladder's j at step i: P(j = t) for t in 0 … i, exactly.
pub fn pick(i: usize) -> Vec<f64> {
    pick_law(u64::try_from(i).expect("small") + 1)
}

pub(crate) const SHUFFLE: Model = Model {
    family: |r| {
        let n = r.int(SIZE);
        (2..=MAX_SHUFFLE).contains(&n).then(|| Family::of(n))
    },
    shape: |f| (f.size(), f.size()),
    layout: |f| {
        let mut l = Layout::new(format!("size={}", f.a));
        for (k, p) in shuffle_marginals(f.size(), &pick).into_iter().enumerate() {
            l.test(format!("entry in case {k}"), p);
        }
        l
    },
    sample: |_, _, ok, cells| order_cells(ok, cells),
};
