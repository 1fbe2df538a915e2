//! Shared strategies for generated cases: text as seeds are typed, integers
//! across the whole 53-bit range. Each op's own generator (in its scheme's
//! `ops` module) builds on these.

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

use crate::error::MAX_SAFE_INTEGER;

/// Text as seeds are typed: empty, hex (lower and upper case), ASCII, and
/// Unicode with combining marks, zero-width joiners, astral characters and colons.
pub fn text() -> BoxedStrategy<String> {
    let unusual = prop::sample::select(vec![
        ':',
        ':',
        'ß',
        'é',
        '\u{301}',
        '\u{308}',
        '\u{200d}',
        '😀',
        '中',
        'Ω',
        '\t',
        '\n',
        '"',
        '\\',
        '\u{7f}',
        '\u{a0}',
        '\u{feff}',
        '\u{10ffff}',
    ]);
    let ch = prop_oneof![
        6 => (0x20u8..0x7f).prop_map(char::from),
        3 => unusual,
        // NUL cannot travel in a command-line argument (austeilen takes the seeds as argv).
        1 => any::<char>().prop_filter("no NUL", |c| *c != '\0'),
    ];
    prop_oneof![
        1 => Just(String::new()),
        5 => prop::collection::vec(ch, 0..16).prop_map(String::from_iter),
        3 => hex(false),
        1 => hex(true),
        1 => "[a-z0-9]{1,8}:[a-z0-9]{1,8}",
    ]
    .boxed()
}

/// Non-empty text: the published dice code cannot key WebCrypto's HMAC with
/// an empty seed, and a real server seed is never empty.
pub fn nonempty_text() -> BoxedStrategy<String> {
    text().prop_filter("non-empty", |s| !s.is_empty()).boxed()
}

/// 64 hex characters, as server seeds are published.
pub fn hex(upper: bool) -> BoxedStrategy<String> {
    let digits: &'static [u8] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    prop::collection::vec(0usize..16, 64)
        .prop_map(move |v| v.into_iter().map(|d| char::from(digits[d])).collect())
        .boxed()
}

/// Integers 0 ..= 2^53−1, most of them small, some at the top.
pub fn big_int() -> BoxedStrategy<u64> {
    prop_oneof![
        4 => 0u64..1000,
        2 => 0u64..=MAX_SAFE_INTEGER,
        1 => Just(MAX_SAFE_INTEGER),
        1 => (MAX_SAFE_INTEGER - 1000)..=MAX_SAFE_INTEGER,
    ]
    .boxed()
}

/// A server seed, a client seed and a nonce: the inputs of most rounds.
pub fn round() -> BoxedStrategy<(String, String, u64)> {
    (text(), text(), big_int()).boxed()
}
