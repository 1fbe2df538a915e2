//! What the harness asks: every canonical vector, and cases generated from
//! properties of each op's inputs.
//!
//! Each generated case has its own RNG seed, derived from the run's seed,
//! the op and the case number, so any single case can be rebuilt (for
//! shrinking, or from a report) without replaying the others.

use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sha2::{Digest, Sha256};

use crate::error::{MAX_COUNT, MAX_SAFE_INTEGER};
use crate::protocol::Request;
use crate::selfpoker::MAX_SEED;

/// Where a case comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Vector {
        scheme: &'static str,
        tc_id: usize,
        comment: String,
    },
    Property {
        index: u64,
    },
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Vector { scheme, tc_id, comment } => write!(f, "vector {scheme} tcId {tc_id} ({comment})"),
            Origin::Property { index } => write!(f, "property case {index}"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Case {
    pub origin: Origin,
    pub request: Request,
}

/// The canonical vectors of `op`, as requests.
pub fn vectors_for(op: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for scheme in crate::vectors::schemes() {
        for (i, c) in scheme.cases.iter().enumerate() {
            if c.request.op() == op {
                out.push(Case {
                    origin: Origin::Vector {
                        scheme: scheme.name,
                        tc_id: i + 1,
                        comment: c.comment.clone(),
                    },
                    request: c.request.clone(),
                });
            }
        }
    }
    out
}

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
        .prop_map(move |v| v.into_iter().map(|d| digits[d] as char).collect())
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

/// Ranges: small ones (where a rejection happens often), ranges just above
/// a power of two at every byte width, and ranges up to 2^53−1.
pub fn range() -> BoxedStrategy<u64> {
    prop_oneof![
        6 => 1u64..=300,
        2 => 1u64..=70_000,
        2 => (1u32..=7, 0u64..=300).prop_map(|(k, d)| ((1u64 << (8 * k - 1)) + d).min(MAX_SAFE_INTEGER)),
        1 => 1u64..=MAX_SAFE_INTEGER,
        1 => prop::sample::select(vec![1, 2, 255, 256, 257, 65536, 65537, 1 << 32, (1 << 32) + 1, MAX_SAFE_INTEGER]),
    ]
    .boxed()
}

/// One-byte ranges that do not divide 256, so the rejection limit is a byte value.
fn boundary_range() -> BoxedStrategy<u64> {
    (2u64..=255)
        .prop_filter("256 mod range is not 0", |r| 256 % r != 0)
        .boxed()
}

/// The first cursor from `start` whose first attempt reads exactly the
/// rejection limit: the one value an off-by-one (`>` for `>=`) accepts.
/// Random cursors hit it once in 256 attempts at best; searching makes every
/// such case test the boundary.
pub fn boundary_cursor(server_seed: &str, client_seed: &str, nonce: u64, start: u64, range: u64) -> u64 {
    let round = crate::cursor::Round::new(server_seed, client_seed, nonce);
    let limit = crate::cursor::limit(range);
    let start = start.min(MAX_SAFE_INTEGER - 4096);
    (start..start + 4096)
        .find(|&c| u128::from(round.raw(c)[0]) == limit)
        .unwrap_or(start)
}

fn count() -> BoxedStrategy<u64> {
    prop_oneof![6 => 0u64..=60, 3 => 0u64..=300, 1 => 0u64..=1000].boxed()
}

/// Penetrations: k/1024 (many of which make total × penetration end in .5),
/// arbitrary doubles in (0, 1), and round numbers.
fn penetration() -> BoxedStrategy<f64> {
    prop_oneof![
        3 => (1u32..1024).prop_map(|k| f64::from(k) / 1024.0),
        1 => (1u64..(1 << 53)).prop_map(|k| k as f64 / (1u64 << 53) as f64),
        1 => prop::sample::select(vec![0.5, 0.625, 0.75, 0.8, 0.9, 0.99, 0.01, 0.1, 0.3]),
    ]
    .boxed()
}

/// Five to seven distinct cards: random ones, and ones packed into few ranks
/// and suits so that flushes, straights, full houses and quads turn up.
fn cards() -> BoxedStrategy<Vec<u64>> {
    let random = prop::sample::subsequence((0u64..52).collect::<Vec<_>>(), 5..=7).prop_shuffle();
    let packed = (
        0u64..9,
        1u64..=2,
        prop::collection::vec((0u64..5, 0u64..4, 0u64..4), 5..=7),
    )
        .prop_map(|(low, suits, picks)| {
            let mut cards: Vec<u64> = picks
                .into_iter()
                .map(|(r, s, t)| ((s * suits / 4 + t % suits) % 4) * 13 + (low + r) % 13)
                .collect();
            let mut seen = 0u64;
            cards.retain(|&c| {
                let fresh = seen & (1 << c) == 0;
                seen |= 1 << c;
                fresh
            });
            cards
        });
    prop_oneof![1 => random, 2 => packed.prop_filter("5 to 7 distinct cards", |c| c.len() >= 5)].boxed()
}

/// The strategy for `op`'s requests.
pub fn strategy(op: &str) -> BoxedStrategy<Request> {
    let seeds = || (text(), text(), big_int());
    match op {
        "cursor.hash" => text().prop_map(|server_seed| Request::CursorHash { server_seed }).boxed(),
        "cursor.raw" => (seeds(), big_int())
            .prop_map(|((server_seed, client_seed, nonce), cursor)| Request::CursorRaw { server_seed, client_seed, nonce, cursor })
            .boxed(),
        "cursor.float" => (seeds(), big_int())
            .prop_map(|((server_seed, client_seed, nonce), cursor)| Request::CursorFloat { server_seed, client_seed, nonce, cursor })
            .boxed(),
        "cursor.int" => prop_oneof![
            3 => (seeds(), big_int(), range())
                .prop_map(|((server_seed, client_seed, nonce), cursor, range)| Request::CursorInt { server_seed, client_seed, nonce, cursor, range }),
            1 => (seeds(), big_int(), boundary_range()).prop_map(|((server_seed, client_seed, nonce), start, range)| {
                let cursor = boundary_cursor(&server_seed, &client_seed, nonce, start, range);
                Request::CursorInt { server_seed, client_seed, nonce, cursor, range }
            }),
        ]
        .boxed(),
        "cursor.shuffle" => (seeds(), big_int(), count())
            .prop_map(|((server_seed, client_seed, nonce), cursor, count)| Request::CursorShuffle { server_seed, client_seed, nonce, cursor, count })
            .boxed(),
        "poker.deal" => (seeds(), 2u64..=22)
            .prop_map(|((server_seed, client_seed, nonce), players)| Request::PokerDeal { server_seed, client_seed, nonce, players })
            .boxed(),
        "poker.evaluate" => cards().prop_map(|cards| Request::PokerEvaluate { cards }).boxed(),
        "shoe.deal" => (seeds(), 1u64..=8, penetration())
            .prop_map(|((server_seed, client_seed, nonce), decks, penetration)| Request::ShoeDeal { server_seed, client_seed, nonce, decks, penetration })
            .boxed(),
        "shoe.tournament" => (text(), text(), big_int(), 1u64..=8, penetration())
            .prop_map(|(server_seed, tournament_id, hand, decks, penetration)| Request::ShoeTournament { server_seed, tournament_id, hand, decks, penetration })
            .boxed(),
        "dice.roll" => (nonempty_text(), text(), big_int())
            .prop_map(|(server_seed, client_seed, n)| Request::DiceRoll { server_seed, client_seed, n })
            .boxed(),
        "selfpoker.commit" | "selfpoker.deck" => {
            let deck = op == "selfpoker.deck";
            prop_oneof![
                4 => 0u64..=MAX_SEED,
                1 => prop::sample::select(vec![0, 1, (1 << 32) - 1, 1 << 32, 1 << 62, MAX_SEED]),
            ]
            .prop_map(move |s| {
                let seed = s.to_string();
                if deck {
                    Request::SelfpokerDeck { seed }
                } else {
                    Request::SelfpokerCommit { seed }
                }
            })
            .boxed()
        }
        "ladder.shuffle" => (text(), text(), prop_oneof![3 => 1u64..=30, 1 => 1u64..=1000, 1 => Just(25u64)])
            .prop_map(|(server_seed, client_seed, size)| Request::LadderShuffle { server_seed, client_seed, size: size.min(MAX_COUNT) })
            .boxed(),
        other => panic!("no strategy for op {other:?}"),
    }
}

/// The RNG of case `index` of `op` in the run with seed `seed`.
fn rng(seed: u64, op: &str, index: u64) -> TestRng {
    let digest = Sha256::digest(format!("provably-diff:{seed}:{op}:{index}"));
    TestRng::from_seed(RngAlgorithm::ChaCha, &digest)
}

/// The value tree of one generated case: its current value is the case,
/// and it can be simplified (shrunk) step by step.
pub fn tree(seed: u64, op: &str, index: u64) -> Box<dyn ValueTree<Value = Request>> {
    let mut runner = TestRunner::new_with_rng(Config::default(), rng(seed, op, index));
    strategy(op)
        .new_tree(&mut runner)
        .expect("strategies always produce a value")
}

/// Generated case `index` of `op`.
pub fn generated(seed: u64, op: &str, index: u64) -> Case {
    Case {
        origin: Origin::Property { index },
        request: tree(seed, op, index).current(),
    }
}
