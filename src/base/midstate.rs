//! HMAC-SHA256 from kept SHA-256 states: the fast form of
//! [`super::hmac::hmac_sha256`], which is the plain one.
//!
//! HMAC is H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)) (RFC 2104). Written here on
//! SHA-256's compression function: the two key blocks are compressed once
//! per key and kept as states, a round's message prefix is absorbed once,
//! and each MAC then costs what the specification cannot avoid: the
//! compressions of its last message block (one, for every message a
//! scheme makes from a short prefix) and of the outer block. Keyed states
//! are kept across calls in a small per-thread cache of recent keys, and
//! MACs of consecutive counters are made side by side ([`Counter::macs`]).
//!
//! Built unless `--features plain`; [`super::hmac`] chooses it. The tests
//! hold every path here to RFC 4231 and the `hmac` crate, as the plain
//! form's hold it, and every vector holds it to the plain form
//! (`scripts/plain-check`).

use std::cell::RefCell;

use sha2::digest::generic_array::GenericArray;

use super::crypto::{decimal, sha256};

/// SHA-256's initial state.
pub(crate) const IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// The outer block of every HMAC-SHA256 but its first 32 bytes (the inner
/// hash): the padding of a 96-byte message.
const OUTER_PADDING: [u8; 64] = {
    let mut b = [0u8; 64];
    b[32] = 0x80;
    // 96 bytes = 768 bits, big-endian in the last eight bytes.
    b[62] = 0x03;
    b
};

/// Compresses whole 64-byte blocks into `state`.
pub(crate) fn compress(state: &mut [u32; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    #[cfg(feature = "count-compressions")]
    super::crypto::compressions::add(blocks.len() as u64 / 64);
    for block in blocks.chunks_exact(64) {
        sha2::compress256(state, std::slice::from_ref(GenericArray::from_slice(block)));
    }
}

pub(crate) fn state_bytes(state: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// The outer block of an HMAC whose inner hash ended in `inner`, built
/// straight from the state's words.
fn outer_block(inner: &[u32; 8]) -> [u8; 64] {
    let mut block = OUTER_PADDING;
    for (chunk, word) in block[..32].chunks_exact_mut(4).zip(inner) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    block
}

/// Finishes a SHA-256 whose state has absorbed `done` bytes in whole
/// blocks, with `tail` (under 64 bytes) still to come: padding and length.
fn finish(mut state: [u32; 8], done: u64, tail: &[u8]) -> [u8; 32] {
    let mut buf = [0u8; 128];
    buf[..tail.len()].copy_from_slice(tail);
    buf[tail.len()] = 0x80;
    let blocks = if tail.len() + 9 <= 64 { 64 } else { 128 };
    let bits = (done + tail.len() as u64) * 8;
    buf[blocks - 8..blocks].copy_from_slice(&bits.to_be_bytes());
    compress(&mut state, &buf[..blocks]);
    state_bytes(&state)
}

/// A keyed HMAC-SHA256: the states after the ipad and the opad block.
///
/// Keying costs two compressions (a key over 64 bytes is hashed first), as
/// much as a MAC itself. A 312-card shuffle makes hundreds of MACs under one
/// key, and an audit or a harness run asks hundreds of rounds of one server
/// seed, so keyed states are kept: per round, and across calls in a small
/// per-thread cache of recent keys.
#[derive(Clone, Copy)]
pub struct Keyed {
    inner: [u32; 8],
    outer: [u32; 8],
}

/// How many recent keys each thread keeps.
const CACHED_KEYS: usize = 16;

/// A recently keyed seed, its text inline: a lookup compares bytes in
/// place, with no pointer to follow and no call to `memcmp` (14 ns a
/// lookup with boxed texts, 5 ns so).
#[derive(Clone, Copy)]
struct Cached {
    /// The text's length; [`EMPTY`] for a slot not yet used.
    len: u8,
    /// The text, zero after its length.
    text: [u8; 64],
    keyed: Keyed,
}

const EMPTY: u8 = u8::MAX;

struct Cache {
    slots: [Cached; CACHED_KEYS],
    /// The slot the next new key replaces (round robin).
    next: usize,
    /// The slot of the last hit, looked at first.
    last: usize,
}

thread_local! {
    static KEYS: RefCell<Cache> = const {
        RefCell::new(Cache {
            slots: [Cached { len: EMPTY, text: [0; 64], keyed: Keyed { inner: IV, outer: IV } }; CACHED_KEYS],
            next: 0,
            last: 0,
        })
    };
}

impl Keyed {
    /// Keys the HMAC with the UTF-8 text of `server_seed`.
    ///
    /// Seeds of up to 64 bytes (every seed the schemes publish is 64 hex
    /// digits) are kept in a per-thread cache of the last
    /// `CACHED_KEYS` (16); a longer seed is keyed on every call, so that a
    /// slot stays a fixed size.
    pub fn new(server_seed: &str) -> Self {
        let bytes = server_seed.as_bytes();
        if bytes.len() > 64 {
            return Keyed::uncached(server_seed);
        }
        let len = u8::try_from(bytes.len()).expect("at most 64");
        let holds =
            |slot: &Cached| slot.len == len && slot.text.iter().zip(bytes).fold(0, |a, (x, y)| a | (x ^ y)) == 0;
        KEYS.with(|cell| {
            let mut cache = cell.borrow_mut();
            if holds(&cache.slots[cache.last]) {
                return cache.slots[cache.last].keyed;
            }
            if let Some(i) = cache.slots.iter().position(holds) {
                cache.last = i;
                return cache.slots[i].keyed;
            }
            let keyed = Keyed::uncached(server_seed);
            let mut text = [0u8; 64];
            text[..bytes.len()].copy_from_slice(bytes);
            let i = cache.next;
            cache.slots[i] = Cached { len, text, keyed };
            cache.next = (i + 1) % CACHED_KEYS;
            cache.last = i;
            keyed
        })
    }

    /// Keys the HMAC without looking at the cache (for benchmarks).
    pub(crate) fn uncached(server_seed: &str) -> Self {
        let mut key = [0u8; 64];
        let bytes = server_seed.as_bytes();
        if bytes.len() > 64 {
            key[..32].copy_from_slice(&sha256(bytes));
        } else {
            key[..bytes.len()].copy_from_slice(bytes);
        }
        let (mut inner, mut outer) = (IV, IV);
        compress(&mut inner, &key.map(|b| b ^ 0x36));
        compress(&mut outer, &key.map(|b| b ^ 0x5c));
        Keyed { inner, outer }
    }

    /// Returns HMAC(server seed, message).
    pub fn mac(&self, message: &[u8]) -> [u8; 32] {
        // A message that fits one block with its padding (a hash's 32
        // bytes, a short round's text) goes straight into that block.
        if message.len() + 9 <= 64 {
            let mut block = [0u8; 64];
            block[..message.len()].copy_from_slice(message);
            block[message.len()] = 0x80;
            // The ipad block and the message, in bits.
            block[56..].copy_from_slice(&((64 + message.len() as u64) * 8).to_be_bytes());
            let mut inner = self.inner;
            compress(&mut inner, &block);
            let mut outer = self.outer;
            compress(&mut outer, &outer_block(&inner));
            return state_bytes(&outer);
        }
        self.counter(message).finish(&[])
    }

    /// Returns HMAC(server seed, `prefix` followed by the decimal digits of `n`).
    pub fn mac_counter(&self, prefix: &[u8], n: u64) -> [u8; 32] {
        self.counter(prefix).mac(n)
    }

    /// The MACs of `prefix` followed by a counter, with the prefix absorbed once.
    pub(crate) fn counter(&self, prefix: &[u8]) -> Counter {
        self.counter_of(&[prefix])
    }

    /// [`Keyed::counter`] of the prefix that is `parts` one after another,
    /// without putting them together first.
    pub(crate) fn counter_of(&self, parts: &[&[u8]]) -> Counter {
        let mut c = Counter {
            state: self.inner,
            done: 64,
            tail: [0u8; 64],
            tail_len: 0,
            outer: self.outer,
        };
        for part in parts {
            let mut part: &[u8] = part;
            while !part.is_empty() {
                let len = usize::from(c.tail_len);
                let take = part.len().min(64 - len);
                c.tail[len..len + take].copy_from_slice(&part[..take]);
                part = &part[take..];
                if len + take == 64 {
                    compress(&mut c.state, &c.tail);
                    c.done += 64;
                    c.tail_len = 0;
                    // Past its length the tail stays zero: finish copies it whole.
                    c.tail = [0u8; 64];
                } else {
                    c.tail_len = u8::try_from(len + take).expect("below 64");
                }
            }
        }
        c
    }
}

/// HMAC(server seed, prefix ‖ decimal(n)) for any n, the prefix absorbed
/// once: every scheme's message is some text, a colon, and a counter. A
/// long client seed is hashed once per round, not once per MAC.
#[derive(Clone, Copy)]
pub struct Counter {
    /// The inner state after the ipad block and the prefix's whole blocks.
    state: [u32; 8],
    /// Bytes absorbed into `state`.
    done: u64,
    /// The rest of the prefix.
    tail: [u8; 64],
    tail_len: u8,
    outer: [u32; 8],
}

impl Counter {
    /// Keys with `server_seed` (through the cache) and absorbs `prefix`.
    pub fn new(server_seed: &str, prefix: &[u8]) -> Counter {
        Keyed::new(server_seed).counter(prefix)
    }

    /// Returns the MAC of the prefix followed by the decimal digits of `n`,
    /// written straight into the message block.
    pub(crate) fn mac(&self, n: u64) -> [u8; 32] {
        let mut block = [0u8; 64];
        if self.block_into(n, &mut block) {
            self.finish_block(&block)
        } else {
            self.finish_long(decimal(n, &mut [0u8; 20]))
        }
    }

    /// Returns the MACs of the prefix followed by `first`, `first + 1`, …
    /// (N counters, wrapping past `u64::MAX`).
    ///
    /// One MAC is a chain of two compressions, each waiting for the last;
    /// independent chains side by side keep the SHA unit busy while the
    /// others wait (26 ns a compression against 40 ns on the machine of
    /// BENCHMARKS.md, with two chains or more). Streams and shuffles, whose
    /// next MACs are known before their bytes are used, make them in runs.
    pub(crate) fn macs<const N: usize>(&self, first: u64) -> [[u8; 32]; N] {
        let mut blocks = [[0u8; 64]; N];
        let mut n = first;
        for block in &mut blocks {
            if !self.block_into(n, block) {
                return std::array::from_fn(|k| self.mac(first.wrapping_add(k as u64)));
            }
            n = n.wrapping_add(1);
        }
        let mut inner = [self.state; N];
        for (state, block) in inner.iter_mut().zip(&blocks) {
            compress(state, block);
        }
        let mut outer = [self.outer; N];
        for (state, inner) in outer.iter_mut().zip(&inner) {
            compress(state, &outer_block(inner));
        }
        outer.map(|state| state_bytes(&state))
    }

    /// Writes the last inner block of the MAC of the prefix and `n`,
    /// padded, into `block`, when the digits and the padding fit one block
    /// (every message a scheme makes from a prefix under 35 bytes); returns
    /// false when they do not.
    fn block_into(&self, n: u64, block: &mut [u8; 64]) -> bool {
        let tail_len = usize::from(self.tail_len);
        let len = tail_len + digit_count(n);
        if len + 9 > 64 {
            return false;
        }
        *block = self.tail;
        let mut rest = n;
        for at in (tail_len..len).rev() {
            block[at] = b'0' + u8::try_from(rest % 10).expect("a digit");
            rest /= 10;
        }
        self.pad(block, len);
        true
    }

    /// Pads a last block whose message ends after `len` bytes (zero after
    /// them): the end mark, and the length of all the message in bits.
    fn pad(&self, block: &mut [u8; 64], len: usize) {
        block[len] = 0x80;
        block[56..].copy_from_slice(&((self.done + len as u64) * 8).to_be_bytes());
    }

    /// Returns the MAC of the prefix followed by `rest`.
    fn finish(&self, rest: &[u8]) -> [u8; 32] {
        let tail_len = usize::from(self.tail_len);
        let len = tail_len + rest.len();
        if len + 9 > 64 {
            return self.finish_long(rest);
        }
        let mut block = self.tail;
        block[tail_len..len].copy_from_slice(rest);
        self.pad(&mut block, len);
        self.finish_block(&block)
    }

    /// The MAC whose last inner block, padded, is `block`.
    fn finish_block(&self, block: &[u8; 64]) -> [u8; 32] {
        let mut inner = self.state;
        compress(&mut inner, block);
        let mut outer = self.outer;
        compress(&mut outer, &outer_block(&inner));
        state_bytes(&outer)
    }

    /// [`Counter::finish`] for a message that spills into another block.
    fn finish_long(&self, rest: &[u8]) -> [u8; 32] {
        let tail_len = usize::from(self.tail_len);
        let mut state = self.state;
        let mut done = self.done;
        let mut message = [0u8; 64];
        message[..tail_len].copy_from_slice(&self.tail[..tail_len]);
        let mut len = tail_len;
        let mut rest = rest;
        // Fill whole blocks from `rest` (only long messages get here).
        while len + rest.len() >= 64 {
            let take = 64 - len;
            message[len..].copy_from_slice(&rest[..take]);
            compress(&mut state, &message);
            done += 64;
            rest = &rest[take..];
            len = 0;
        }
        message[len..len + rest.len()].copy_from_slice(rest);
        let inner = finish(state, done, &message[..len + rest.len()]);
        finish(self.outer, 64, &inner)
    }
}

/// How many decimal digits `n` has (1 for 0).
fn digit_count(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

#[cfg(not(feature = "plain"))]
const PADDING_64: [u8; 64] = {
    let mut b = [0u8; 64];
    b[0] = 0x80;
    b[62] = 0x02;
    b
};

/// SHA-256 of 32 bytes: one compression, the bytes and their padding in
/// one block (a hash chain's raw-byte link).
#[cfg(not(feature = "plain"))]
pub(crate) fn sha256_of_32(bytes: &[u8; 32]) -> [u8; 32] {
    let mut block = [0u8; 64];
    block[..32].copy_from_slice(bytes);
    block[32] = 0x80;
    // 256 bits, big-endian in the last eight bytes.
    block[62] = 0x01;
    let mut state = IV;
    compress(&mut state, &block);
    state_bytes(&state)
}

/// SHA-256 of the 64 lowercase hex digits of 32 bytes: two compressions,
/// the digits written straight into the first block and the second the
/// fixed padding of a 64-byte message (a hash chain's hex-text link).
#[cfg(not(feature = "plain"))]
pub(crate) fn sha256_of_hex(bytes: &[u8; 32]) -> [u8; 32] {
    let mut block = [0u8; 64];
    for (pair, &b) in block.chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&super::crypto::HEX_PAIRS[usize::from(b)]);
    }
    let mut state = IV;
    compress(&mut state, &block);
    compress(&mut state, &PADDING_64);
    state_bytes(&state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::crypto::hex;
    use hmac::{Hmac, Mac};
    use proptest::prelude::*;

    #[test]
    fn the_chain_links_compressions_are_sha256_of_the_bytes_and_of_their_hex() {
        for seed in 0u8..20 {
            let bytes: [u8; 32] = std::array::from_fn(|i| seed.wrapping_mul(31).wrapping_add(u8::try_from(i).unwrap()));
            let digest: [u8; 32] = <sha2::Sha256 as sha2::Digest>::digest(bytes).into();
            assert_eq!(sha256_of_32(&bytes), digest);
            let digest: [u8; 32] = <sha2::Sha256 as sha2::Digest>::digest(hex(&bytes).as_bytes()).into();
            assert_eq!(sha256_of_hex(&bytes), digest);
        }
    }

    /// The `hmac` crate, which the plain form (`base::hmac`) is held to as well.
    fn oracle(key: &[u8], message: &[u8]) -> [u8; 32] {
        let mut m = Hmac::<sha2::Sha256>::new_from_slice(key).unwrap();
        m.update(message);
        m.finalize().into_bytes().into()
    }

    #[test]
    fn digits_written_into_the_block_equal_the_formatted_message_at_every_length() {
        // Each digit count, and prefixes that leave the digits just inside
        // or just past one block with its padding.
        for prefix_len in [0, 1, 34, 35, 44, 45, 54, 55, 63, 64, 65] {
            let prefix = vec![b'p'; prefix_len];
            let c = Keyed::uncached("k").counter(&prefix);
            for n in [0, 9, 10, 99, 100, 12_345, u64::from(u32::MAX), u64::MAX] {
                let mut message = prefix.clone();
                message.extend_from_slice(n.to_string().as_bytes());
                assert_eq!(c.mac(n), oracle(b"k", &message), "prefix {prefix_len}, n {n}");
            }
        }
    }

    #[test]
    fn runs_of_macs_equal_single_macs_across_digit_counts_and_block_spills() {
        // Runs whose messages differ in length (9 and 10), runs where one
        // fits a block and the next spills (prefix 45, 54), and the wrap.
        for prefix_len in [0, 1, 34, 35, 44, 45, 53, 54, 55, 64, 65] {
            let c = Keyed::uncached("k").counter(&vec![b'p'; prefix_len]);
            for first in [0, 8, 9, 97, 98, 99, 12_345, u64::MAX - 1, u64::MAX, 9_999_999_998] {
                let single = |k: u64| c.mac(first.wrapping_add(k));
                assert_eq!(c.macs::<1>(first), [single(0)], "prefix {prefix_len}, from {first}");
                assert_eq!(
                    c.macs::<2>(first),
                    [single(0), single(1)],
                    "prefix {prefix_len}, from {first}"
                );
                assert_eq!(
                    c.macs::<3>(first),
                    [single(0), single(1), single(2)],
                    "prefix {prefix_len}, from {first}"
                );
            }
        }
    }

    /// RFC 4231, test cases 2 and 6: a key longer than the block (131
    /// bytes of 0xaa, no UTF-8 text: keyed through the byte path) is
    /// hashed first.
    #[test]
    fn rfc_4231_vectors() {
        let k = Keyed::uncached("Jefe");
        assert_eq!(
            hex(&k.mac(b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        let long = [0xaau8; 131];
        let mut key = [0u8; 64];
        key[..32].copy_from_slice(&sha256(&long));
        let (mut inner, mut outer) = (IV, IV);
        compress(&mut inner, &key.map(|b| b ^ 0x36));
        compress(&mut outer, &key.map(|b| b ^ 0x5c));
        let keyed = Keyed { inner, outer };
        assert_eq!(
            hex(&keyed.mac(b"Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn mac_counter_equals_mac_of_formatted_message() {
        let k = Keyed::new("seed");
        assert_eq!(k.mac_counter(b"c:1:", 907), k.mac(b"c:1:907"));
        assert_eq!(Counter::new("seed", b"c:1:").mac(907), oracle(b"seed", b"c:1:907"));
    }

    #[test]
    fn cached_keys_give_the_mac_of_their_own_seed() {
        // More seeds than the cache holds, twice round: every hit and every
        // eviction must still key with the seed asked for. Lengths 0 to 126
        // (past a block: not cached), seeds that are prefixes of each
        // other or differ only in a trailing NUL (zero like a slot's
        // padding), or only in their last byte.
        let mut seeds: Vec<String> = (0..CACHED_KEYS + 3).map(|i| "s".repeat(i * 7)).collect();
        seeds.extend(
            [
                "a",
                "a\0",
                "a\0\0",
                "",
                "\0",
                &"x".repeat(63),
                &format!("{}y", "x".repeat(63)),
                &"x".repeat(64),
                &"x".repeat(65),
            ]
            .map(String::from),
        );
        seeds.extend((0..CACHED_KEYS).map(|i| format!("{}{i:x}", "0".repeat(63))));
        for _ in 0..2 {
            for s in seeds.iter().chain(seeds.iter().rev()) {
                assert_eq!(Keyed::new(s).mac(b"m"), oracle(s.as_bytes(), b"m"), "{} bytes", s.len());
            }
        }
    }

    proptest! {
        /// Every key length (the long-key branch above 64 bytes) and every
        /// message length (padding in one block or two, prefixes of whole
        /// blocks), cached and not, one MAC and a run of two, against the
        /// `hmac` crate.
        #[test]
        fn macs_equal_the_hmac_crate(key in ".{0,100}", prefix in prop::collection::vec(any::<u8>(), 0..200), n in any::<u64>()) {
            let mut message = prefix.clone();
            message.extend_from_slice(n.to_string().as_bytes());
            prop_assert_eq!(Keyed::uncached(&key).counter(&prefix).mac(n), oracle(key.as_bytes(), &message));
            prop_assert_eq!(Keyed::new(&key).mac(&message), oracle(key.as_bytes(), &message));
            let c = Keyed::uncached(&key).counter(&prefix);
            prop_assert_eq!(c.macs::<2>(n), [c.mac(n), c.mac(n.wrapping_add(1))]);
        }
    }
}
