//! `numpy.random.default_rng(seed).permutation(n)` without numpy.
//!
//! SeedSequence → PCG64 (XSL-RR 128/64) → numpy's buffered 32-bit draws →
//! masked rejection → Fisher–Yates from the back. docs/schemes.md gives the
//! algorithm step by step; `make diff-numpy` holds this module to real numpy.

const INIT_A: u32 = 0x43B0_D7E5;
const MULT_A: u32 = 0x931E_8875;
const INIT_B: u32 = 0x8B51_F9DD;
const MULT_B: u32 = 0x58F3_8DED;
const MIX_MULT_L: u32 = 0xCA01_F9DD;
const MIX_MULT_R: u32 = 0x4973_F715;
const PCG_MULT: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

/// SeedSequence(seed).generate_state(4, uint64) for a seed below 2^64.
#[allow(clippy::cast_possible_truncation, reason = "numpy splits the seed into 32-bit words")]
pub fn seed_sequence_state(seed: u64) -> [u64; 4] {
    // A missing entropy word hashes as 0, so two words padded to four equal
    // numpy's shortest-word split for every seed below 2^64.
    let entropy = [seed as u32, (seed >> 32) as u32, 0, 0];
    let mut hash_const = INIT_A;
    let mut hashmix = |value: u32| {
        let mut v = value ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_A);
        v = v.wrapping_mul(hash_const);
        v ^ (v >> 16)
    };
    let mix = |x: u32, y: u32| {
        let r = MIX_MULT_L.wrapping_mul(x).wrapping_sub(MIX_MULT_R.wrapping_mul(y));
        r ^ (r >> 16)
    };
    let mut pool = [0u32; 4];
    for i in 0..4 {
        pool[i] = hashmix(entropy[i]);
    }
    for src in 0..4 {
        for dst in 0..4 {
            if src != dst {
                let h = hashmix(pool[src]);
                pool[dst] = mix(pool[dst], h);
            }
        }
    }
    let mut hash_const = INIT_B;
    let mut words = [0u32; 8];
    for (k, w) in words.iter_mut().enumerate() {
        let mut d = pool[k % 4] ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_B);
        d = d.wrapping_mul(hash_const);
        *w = d ^ (d >> 16);
    }
    // numpy views the u32 array as little-endian u64.
    std::array::from_fn(|j| u64::from(words[2 * j]) | u64::from(words[2 * j + 1]) << 32)
}

/// numpy's PCG64 with its one-word buffer for 32-bit draws.
#[derive(Debug, Clone)]
pub struct Pcg64 {
    state: u128,
    inc: u128,
    buffered: Option<u32>,
}

impl Pcg64 {
    /// `default_rng(seed)`'s bit generator.
    pub fn from_seed(seed: u64) -> Self {
        let w = seed_sequence_state(seed);
        // The first word of each pair is the HIGH half.
        let initstate = u128::from(w[0]) << 64 | u128::from(w[1]);
        let initseq = u128::from(w[2]) << 64 | u128::from(w[3]);
        let inc = initseq << 1 | 1;
        let state = inc.wrapping_add(initstate).wrapping_mul(PCG_MULT).wrapping_add(inc);
        Pcg64 {
            state,
            inc,
            buffered: None,
        }
    }

    /// The LCG steps before the output is taken from the new state.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "XSL-RR folds the 128-bit state into 64 bits"
    )]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_mul(PCG_MULT).wrapping_add(self.inc);
        let (hi, lo) = ((self.state >> 64) as u64, self.state as u64);
        (hi ^ lo).rotate_right((hi >> 58) as u32)
    }

    /// The low half of a fresh 64-bit output, then its buffered high half.
    #[allow(clippy::cast_possible_truncation, reason = "a 64-bit output is two 32-bit draws")]
    pub fn next_u32(&mut self) -> u32 {
        if let Some(hi) = self.buffered.take() {
            return hi;
        }
        let x = self.next_u64();
        self.buffered = Some((x >> 32) as u32);
        x as u32
    }

    /// A uniform integer in `0..=max` by masking and rejection (numpy's `random_interval`).
    pub(crate) fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mask = u64::MAX >> max.leading_zeros();
        loop {
            let v = if u32::try_from(max).is_ok() {
                u64::from(self.next_u32()) & mask
            } else {
                self.next_u64() & mask
            };
            if v <= max {
                return v;
            }
        }
    }
}

/// The draws of `permutation(seed, n)`: (i, j) from i = n − 1 down to 1.
pub(crate) fn draws(seed: u64, n: usize) -> Vec<(usize, usize)> {
    let mut rng = Pcg64::from_seed(seed);
    (1..n)
        .rev()
        .map(|i| (i, usize::try_from(rng.interval(i as u64)).expect("j <= i")))
        .collect()
}

/// `numpy.random.default_rng(seed).permutation(n)`.
pub fn permutation(seed: u64, n: usize) -> Vec<u32> {
    let mut rng = Pcg64::from_seed(seed);
    let mut a: Vec<u32> = (0..u32::try_from(n).expect("n fits 32 bits")).collect();
    for i in (1..n).rev() {
        let j = usize::try_from(rng.interval(i as u64)).expect("j <= i");
        a.swap(i, j);
    }
    a
}
