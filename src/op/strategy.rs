//! Shared strategies for generated cases, and the edge values the canonical
//! vectors put in every field: text as seeds are typed and as they go wrong
//! (every Unicode plane, U+E000–U+FFFF, decomposed and compatibility forms,
//! whitespace and invisible characters, keys longer than HMAC's 64-byte
//! block), integers across the whole 53-bit range with their 32-bit edges.
//! Each op's own generator (in its scheme's `ops` module) builds on these.
//!
//! Weights keep a default run fast: a 10,000-byte text turns up in about
//! one text in 150, often enough that a run of 1,000 cases per op sends a
//! dozen, rarely enough that it does not dominate the run.

use proptest::num::usize::BinarySearch;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, NewTree, ValueTree};
use proptest::test_runner::{TestRng, TestRunner};

use crate::op::error::MAX_SAFE_INTEGER;

/// "Café" with a precomposed é (U+00E9), the NFC form.
pub const COMPOSED: &str = "Caf\u{e9}";
/// "Café" with e and a combining acute accent (U+0301), the NFD form: the
/// same text to a reader, other bytes to HMAC.
pub const DECOMPOSED: &str = "Cafe\u{301}";

/// One character from each of the 17 Unicode planes, the BMP's private-use
/// and specials block, and the astral planes' private use and noncharacters.
pub(crate) const EVERY_PLANE: &str = "A\u{1f600}\u{20bb7}\u{30000}\u{40000}\u{50000}\u{60000}\u{70000}\u{80000}\u{90000}\u{a0000}\u{b0000}\u{c0000}\u{d0000}\u{e0041}\u{f0000}\u{10fffd}";

/// U+E000–U+FFFF: private use, a noncharacter of the Arabic block, the
/// replacement character and the two noncharacters at the BMP's end.
pub(crate) const HIGH_BMP: &str = "\u{e000}x\u{f8ff}\u{fdd0}\u{fffd}\u{fffe}\u{ffff}";

/// `len` bytes of ASCII: a repeated phrase, cut.
pub(crate) fn ascii(len: usize) -> String {
    "provably-fair-seed-".chars().cycle().take(len).collect()
}

/// The texts every text field of every op gets in the canonical vectors:
/// (what it is, the text).
pub fn edge_texts() -> Vec<(&'static str, String)> {
    vec![
        ("empty", String::new()),
        ("1 byte", ascii(1)),
        ("63 bytes", ascii(63)),
        ("64 bytes, HMAC's block size", ascii(64)),
        ("65 bytes, one past HMAC's block", ascii(65)),
        ("128 bytes", ascii(128)),
        ("10,000 bytes", ascii(10_000)),
        (
            "33 characters, 66 bytes: over the block in bytes, not in characters",
            "\u{e9}".repeat(33),
        ),
        ("a character from each of the 17 Unicode planes", EVERY_PLANE.into()),
        (
            "U+E000-U+FFFF: private use, noncharacters, U+FFFD, U+FFFE, U+FFFF",
            HIGH_BMP.into(),
        ),
        ("composed Caf\u{e9} (NFC)", COMPOSED.into()),
        (
            "decomposed Cafe\u{301} (NFD): other bytes than the composed form",
            DECOMPOSED.into(),
        ),
        (
            "compatibility characters (NFKC would change them)",
            "\u{fb01}\u{ff53}\u{b2}".into(),
        ),
        ("leading and trailing whitespace and tabs", " \tseed \t".into()),
        (
            "a byte-order mark in front, a zero-width space behind",
            "\u{feff}seed\u{200b}".into(),
        ),
        (
            "quotes, a backslash and control characters",
            "\"q\" \\ \u{1}\u{7f}\u{85}".into(),
        ),
        ("colons, as in the MAC message", "a:1:2".into()),
    ]
}

/// The integer edges a field takes within `min ..= max`: its limits, one,
/// the edges of 32-bit arithmetic and 2^53−1.
pub(crate) fn edge_ints(min: u64, max: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for v in [
        min,
        1,
        (1 << 31) - 1,
        1 << 31,
        (1 << 32) - 1,
        1 << 32,
        MAX_SAFE_INTEGER,
        max,
    ] {
        if (min..=max).contains(&v) && !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Characters a seed rarely holds and an implementation easily gets wrong.
const UNUSUAL: [char; 27] = [
    ':',
    ':',
    'ß',
    'é',
    '\u{301}',
    '\u{308}',
    '\u{200d}',
    '\u{200b}',
    '😀',
    '中',
    'Ω',
    '\t',
    '\n',
    '"',
    '\\',
    '\u{7f}',
    '\u{85}',
    '\u{a0}',
    '\u{feff}',
    '\u{fb01}',
    '\u{ff53}',
    '\u{e000}',
    '\u{fdd0}',
    '\u{fffd}',
    '\u{fffe}',
    '\u{ffff}',
    '\u{10ffff}',
];

/// Picks an index by weight.
fn weighted(rng: &mut TestRng, weights: &[u32]) -> usize {
    let mut x = rng.random_range(0..weights.iter().sum::<u32>());
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    unreachable!("x is below the sum of the weights")
}

fn pick<T: Copy>(rng: &mut TestRng, from: &[T]) -> T {
    from[rng.random_range(0..from.len())]
}

/// `n` characters of `alphabet` (ASCII).
fn run_of(rng: &mut TestRng, alphabet: &[u8], n: usize, out: &mut String) {
    out.extend((0..n).map(|_| char::from(pick(rng, alphabet))));
}

/// A character in `lo ..= hi` (no surrogates in the ranges asked).
fn in_plane(rng: &mut TestRng, lo: u32, hi: u32) -> char {
    char::from_u32(rng.random_range(lo..=hi)).expect("no surrogates here")
}

/// Any character but NUL: printable ASCII mostly, then the unusual ones,
/// U+E000–U+FFFF, astral characters from every plane, and anything.
fn character(rng: &mut TestRng) -> char {
    match weighted(rng, &[12, 6, 1, 1, 2]) {
        0 => in_plane(rng, 0x20, 0x7e),
        1 => pick(rng, &UNUSUAL),
        2 => in_plane(rng, 0xe000, 0xffff),
        3 => in_plane(rng, 0x1_0000, 0x10_ffff),
        // NUL cannot travel in a command-line argument (austeilen takes the seeds as argv).
        _ => loop {
            if let Some(c) = char::from_u32(rng.random_range(1..=0x10_ffff)) {
                break c;
            }
        },
    }
}

/// Text of `lo .. hi` UTF-8 bytes: ASCII, or characters of two to four bytes.
fn long(rng: &mut TestRng, lo: usize, hi: usize) -> String {
    let bytes = rng.random_range(lo..hi);
    let unit = pick(rng, &["a", "\u{e9}", "\u{e000}", "\u{1f600}", "\u{ffff}"]);
    // Whole characters up to the length, then ASCII to make it up exactly.
    let mut s = unit.repeat(bytes / unit.len());
    s.push_str(&ascii(bytes - s.len()));
    s
}

const HEX_LOWER: &[u8] = b"0123456789abcdef";
const HEX_UPPER: &[u8] = b"0123456789ABCDEF";
const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LOWER_ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// One text as [`text`] draws them.
fn sample_text(rng: &mut TestRng) -> String {
    let mut s = String::new();
    match weighted(rng, &[10, 50, 30, 10, 10, 10, 15, 1]) {
        0 => {}
        1 => {
            let n = rng.random_range(0..16);
            s.extend((0..n).map(|_| character(rng)));
        }
        2 => run_of(rng, HEX_LOWER, 64, &mut s),
        3 => run_of(rng, HEX_UPPER, 64, &mut s),
        4 => {
            let (a, b) = (rng.random_range(1..=8), rng.random_range(1..=8));
            run_of(rng, LOWER_ALNUM, a, &mut s);
            s.push(':');
            run_of(rng, LOWER_ALNUM, b, &mut s);
        }
        5 => {
            s.push_str(pick(rng, &["", " ", "\t", "\u{feff}", "\u{a0}", "  "]));
            let n = rng.random_range(0..=12);
            run_of(rng, ALNUM, n, &mut s);
            s.push_str(pick(rng, &["", " ", "\t", "\u{200b}", "\n", " \t"]));
        }
        6 => s = long(rng, 63, 129),
        _ => s = long(rng, 10_000, 10_001),
    }
    s
}

/// Text as seeds are typed: empty, hex (lower and upper case, 64 digits as
/// server seeds are published), ASCII, and Unicode from every plane with
/// combining marks, zero-width characters, noncharacters and colons; text
/// with whitespace or a byte-order mark around it; and text whose UTF-8 is
/// 63 to 128 bytes or 10,000 bytes, so that keys cross HMAC's 64-byte block.
///
/// Drawn straight from the runner's RNG rather than composed from
/// proptest's collection and union strategies: two texts are in most
/// generated cases, and the composed trees cost a deep harness run more
/// than the target's answers (3.5 µs a text against 0.3 µs). A failing text
/// shrinks to its shortest failing prefix, whole characters at a time.
pub fn text() -> BoxedStrategy<String> {
    Text.boxed()
}

#[derive(Debug, Clone, Copy)]
struct Text;

impl Strategy for Text {
    type Tree = Prefix;
    type Value = String;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let text = sample_text(runner.rng());
        let chars = text.chars().count();
        Ok(Prefix {
            text,
            chars,
            len: BinarySearch::new(chars),
        })
    }
}

/// A text and how many of its characters are kept: shrinking searches for
/// the shortest prefix that still fails.
#[derive(Debug, Clone)]
pub(crate) struct Prefix {
    text: String,
    chars: usize,
    len: BinarySearch,
}

impl ValueTree for Prefix {
    type Value = String;

    fn current(&self) -> String {
        let len = self.len.current();
        if len >= self.chars {
            return self.text.clone();
        }
        let end = self.text.char_indices().nth(len).map_or(self.text.len(), |(i, _)| i);
        self.text[..end].to_owned()
    }

    fn simplify(&mut self) -> bool {
        self.len.simplify()
    }

    fn complicate(&mut self) -> bool {
        self.len.complicate()
    }
}

/// Non-empty text: the published dice code cannot key WebCrypto's HMAC with
/// an empty seed, and a real server seed is never empty.
pub(crate) fn nonempty_text() -> BoxedStrategy<String> {
    text().prop_filter("non-empty", |s| !s.is_empty()).boxed()
}

/// Integers 0 ..= 2^53−1, most of them small, some at the top, some at the
/// edges of 32-bit arithmetic.
pub(crate) fn big_int() -> BoxedStrategy<u64> {
    prop_oneof![
        4 => 0u64..1000,
        2 => 0u64..=MAX_SAFE_INTEGER,
        1 => Just(MAX_SAFE_INTEGER),
        1 => (MAX_SAFE_INTEGER - 1000)..=MAX_SAFE_INTEGER,
        1 => prop::sample::select(edge_ints(0, MAX_SAFE_INTEGER)),
    ]
    .boxed()
}

/// A count or size in `min ..= max` (max up to 100,000): mostly small, two
/// in a thousand anywhere up to `max`, one in a thousand exactly `max`. A
/// 100,000-element cursor shuffle costs a WebCrypto target about two
/// seconds, so a default run of 1,000 cases sends about three such long ones.
pub(crate) fn size(min: u64, max: u64) -> BoxedStrategy<u64> {
    prop_oneof![
        600 => min..=max.min(60),
        300 => min..=max.min(300),
        97 => min..=max.min(1000),
        2 => min..=max,
        1 => Just(max),
    ]
    .boxed()
}

/// A server seed, a client seed and a nonce: the inputs of most rounds.
pub fn round() -> BoxedStrategy<(String, String, u64)> {
    (text(), text(), big_int()).boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_texts_have_the_byte_lengths_their_names_say() {
        let texts = edge_texts();
        for (name, bytes) in [("63 bytes", 63), ("64 bytes", 64), ("65 bytes", 65), ("128 bytes", 128)] {
            let t = &texts.iter().find(|(n, _)| n.starts_with(name)).unwrap().1;
            assert_eq!(t.len(), bytes, "{name}");
        }
        assert!(texts.iter().any(|(_, t)| t.len() == 10_000));
        assert_ne!(COMPOSED.as_bytes(), DECOMPOSED.as_bytes());
        let planes: std::collections::BTreeSet<u32> = EVERY_PLANE.chars().map(|c| u32::from(c) >> 16).collect();
        assert_eq!(planes, (0..=16).collect());
    }

    fn texts(n: usize) -> Vec<String> {
        let mut runner = TestRunner::deterministic();
        (0..n)
            .map(|_| text().new_tree(&mut runner).unwrap().current())
            .collect()
    }

    #[test]
    fn text_draws_every_kind_the_doc_promises_and_never_nul() {
        let all = texts(4000);
        let hex = |digits: &'static str| {
            move |t: &&String| t.len() == 64 && t.bytes().all(|b| digits.as_bytes().contains(&b))
        };
        type Is<'a> = &'a dyn Fn(&&String) -> bool;
        let kinds: [(&str, Is); 8] = [
            ("empty", &|t| t.is_empty()),
            ("lowercase hex", &hex("0123456789abcdef")),
            ("uppercase hex", &hex("0123456789ABCDEF")),
            ("10,000 bytes", &|t| t.len() == 10_000),
            ("63 to 128 bytes", &|t| (63..=128).contains(&t.len()) && !t.is_ascii()),
            ("astral", &|t| t.chars().any(|c| u32::from(c) > 0xffff)),
            ("padded", &|t| t.starts_with(['\u{feff}', '\u{a0}', '\t'])),
            ("colon pair", &|t| {
                t.split(':').count() == 2 && t.bytes().all(|b| b == b':' || b.is_ascii_alphanumeric())
            }),
        ];
        for (what, is) in kinds {
            assert!(all.iter().any(|t| is(&t)), "no {what} text in 4,000");
        }
        assert!(all.iter().all(|t| !t.contains('\0')));
    }

    #[test]
    fn a_failing_text_shrinks_to_its_shortest_failing_prefix() {
        let mut runner = TestRunner::deterministic();
        let found = runner.run(&text(), |t| {
            prop_assert!(t.chars().count() < 5);
            Ok(())
        });
        match found {
            Err(proptest::test_runner::TestError::Fail(_, t)) => assert_eq!(t.chars().count(), 5, "{t:?}"),
            other => panic!("texts of five characters and more exist: {other:?}"),
        }
    }

    #[test]
    fn edge_ints_stay_within_the_field() {
        assert_eq!(edge_ints(2, 22), vec![2, 22]);
        assert_eq!(edge_ints(0, 100_000), vec![0, 1, 100_000]);
        assert_eq!(edge_ints(1, MAX_SAFE_INTEGER).len(), 6);
    }
}
