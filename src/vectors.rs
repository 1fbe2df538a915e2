//! The canonical vectors: one Wycheproof-style file per scheme under
//! `vectors/`, and the web page's self-test bundle.
//!
//! Cases are chosen to force branches, not sampled: rejections at every byte
//! width, block boundaries, clamps, rounding ties, Unicode, the largest
//! integers. Flags that depend on what the computation did (a rejection, a
//! clamp) are read off a trace of the computation, never asserted by hand, so
//! a flag cannot claim a branch the case does not reach.

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::cursor::{self, Round};
use crate::error::MAX_SAFE_INTEGER;
use crate::protocol::{execute, Request};
use crate::vektoren::{self, SEED_A, SEED_B};
use crate::{dice, shoe};

/// One test before it is run: what it asks and why it is there.
pub struct Case {
    pub comment: String,
    pub flags: Vec<&'static str>,
    pub request: Request,
}

/// The vectors of one scheme.
pub struct Scheme {
    pub name: &'static str,
    pub source: &'static str,
    pub notes: &'static [(&'static str, &'static str)],
    pub cases: Vec<Case>,
}

fn case(comment: impl Into<String>, flags: &[&'static str], request: Request) -> Case {
    Case {
        comment: comment.into(),
        flags: flags.to_vec(),
        request,
    }
}

const CLIENT_B: &str = "MarcTestet";

/// comment, flags, server seed, client seed, nonce, cursor.
type CursorRow = (
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static str,
    u64,
    u64,
);
/// comment, flags, server seed, client seed, nonce, cursor, count.
type ShuffleRow = (
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static str,
    u64,
    u64,
    u64,
);
/// comment, flags, client seed, nonce, decks, penetration.
type ShoeRow = (&'static str, &'static [&'static str], &'static str, u64, u64, f64);
/// Non-ASCII text: a combining acute accent, an eszett, an astral-plane emoji, and a colon.
const UNICODE_CLIENT: &str = "Spie\u{301}ler:ß-😀";

fn s(x: &str) -> String {
    x.to_string()
}

const CURSOR_NOTES: &[(&str, &str)] = &[
    ("Published", "The case is printed by `referenz.py vektoren` on the seed 003 page."),
    ("Rejection", "At least one attempt is rejected (value at or above 256^k - 256^k mod range), so the cursor moves more than once. Guards against modulo bias and against not advancing the cursor on rejection."),
    ("MultiByte", "The range needs more than one byte. Guards against reading a fixed byte count."),
    ("LargeRange", "The range is above 2^32. Guards against 32-bit arithmetic and JavaScript Number overflow in 256^k."),
    ("RangeOne", "Range 1 returns 0 and moves the cursor by one without a MAC."),
    ("MaxSafeInteger", "A nonce, cursor or range at 2^53-1, the largest integer a JavaScript Number holds exactly."),
    ("NonzeroCursor", "The shuffle starts at a cursor other than 0."),
    ("EmptySeed", "An empty client or server seed."),
    ("Unicode", "Non-ASCII text (combining mark, eszett, emoji); the message and key are UTF-8."),
    ("Colon", "A colon inside a seed; the message is not parsed back, so it must simply be kept."),
    ("NotHex", "A server seed that is not 64 lowercase hex characters. The key is the text; decoding hex would give another MAC."),
    ("SmallFloat", "A float below 1e-4, where Python's repr switches to scientific notation."),
    ("DealPositions", "Hole cards at (i, n+i), burns before flop, turn and river."),
    ("Category", "A hand of the named category; every category appears."),
    ("Wheel", "A-2-3-4-5, the five-high straight."),
    ("SevenCards", "Best five of seven: the evaluator must choose among subsets."),
];

/// Adds a flag once.
fn add_flag(flags: &mut Vec<&'static str>, flag: &'static str) {
    if !flags.contains(&flag) {
        flags.push(flag);
    }
}

/// Finds the first cursor whose draw of `range` is rejected at least `rejections` times.
fn cursor_with_rejections(round: &Round, range: u64, rejections: usize) -> u64 {
    (0..)
        .find(|&c| {
            let mut rejected = 0;
            let mut first = true;
            round
                .int_traced(range, c, &mut |a| {
                    if first && !a.accepted {
                        rejected += 1;
                    } else {
                        first = false;
                    }
                })
                .unwrap();
            rejected >= rejections
        })
        .expect("a rejection turns up")
}

/// Flags that an `int` draw reached: read off its trace.
fn int_flags(round: &Round, range: u64, cursor: u64, base: &[&'static str]) -> Vec<&'static str> {
    let mut flags = base.to_vec();
    let mut rejected = false;
    round
        .int_traced(range, cursor, &mut |a| rejected |= !a.accepted)
        .unwrap();
    let mut add = |f| add_flag(&mut flags, f);
    if rejected {
        add("Rejection");
    }
    if range == 1 {
        add("RangeOne");
    }
    if cursor::bytes_needed(range) > 1 {
        add("MultiByte");
    }
    if range > 1 << 32 {
        add("LargeRange");
    }
    if range == MAX_SAFE_INTEGER || cursor == MAX_SAFE_INTEGER {
        add("MaxSafeInteger");
    }
    flags
}

fn cursor_scheme() -> Scheme {
    let mut cases = Vec::new();
    let raw_like = |op: &str, seed: &str, client: &str, nonce: u64, cur: u64| {
        let (server_seed, client_seed) = (s(seed), s(client));
        match op {
            "raw" => Request::CursorRaw {
                server_seed,
                client_seed,
                nonce,
                cursor: cur,
            },
            _ => Request::CursorFloat {
                server_seed,
                client_seed,
                nonce,
                cursor: cur,
            },
        }
    };
    let hashes: [(&str, &[&'static str], &str); 6] = [
        ("published seed A", &["Published"], SEED_A),
        ("published seed B", &["Published"], SEED_B),
        ("empty server seed", &["EmptySeed"], ""),
        (
            "uppercase hex is other text, so another hash",
            &["NotHex"],
            "A3F1C9D4E5B6072839A0B1C2D3E4F5061728394A5B6C7D8E9F0A1B2C3D4E5F60",
        ),
        ("non-ASCII server seed", &["Unicode", "NotHex"], "Sé😀d"),
        ("a passphrase, not hex", &["NotHex"], "correct horse battery staple"),
    ];
    for (comment, flags, seed) in hashes {
        cases.push(case(comment, flags, Request::CursorHash { server_seed: s(seed) }));
    }
    for op in ["raw", "float"] {
        for (seed, client, nonce, cur) in vektoren::RAW_CASES {
            let mut flags = vec!["Published"];
            if client.is_empty() {
                flags.push("EmptySeed");
            }
            cases.push(case(
                format!("referenz.py vektoren {op}"),
                &flags,
                raw_like(op, seed, client, nonce, cur),
            ));
        }
        let extra: [CursorRow; 5] = [
            (
                "nonce 2^53-1",
                &["MaxSafeInteger"],
                SEED_B,
                CLIENT_B,
                MAX_SAFE_INTEGER,
                0,
            ),
            (
                "cursor 2^53-1",
                &["MaxSafeInteger"],
                SEED_B,
                CLIENT_B,
                0,
                MAX_SAFE_INTEGER,
            ),
            (
                "client seed with combining mark, eszett, emoji and a colon",
                &["Unicode", "Colon"],
                SEED_B,
                UNICODE_CLIENT,
                7,
                3,
            ),
            (
                "server seed that is not hex",
                &["NotHex"],
                "not hex at all",
                CLIENT_B,
                1,
                1,
            ),
            ("empty server and client seed", &["EmptySeed"], "", "", 0, 0),
        ];
        for (comment, flags, seed, client, nonce, cur) in extra {
            cases.push(case(comment, flags, raw_like(op, seed, client, nonce, cur)));
        }
    }
    // The first cursor of SEED_B/"MarcTestet"/42 whose float is below 1e-4.
    let round = Round::new(SEED_B, CLIENT_B, 42);
    let small = (0..).find(|&c| round.float(c) < 1e-4).unwrap();
    cases.push(case(
        "float below 1e-4",
        &["SmallFloat"],
        raw_like("float", SEED_B, CLIENT_B, 42, small),
    ));

    let int = |round_args: (&str, &str, u64), cur: u64, range: u64| Request::CursorInt {
        server_seed: s(round_args.0),
        client_seed: s(round_args.1),
        nonce: round_args.2,
        cursor: cur,
        range,
    };
    let b = (SEED_B, CLIENT_B, 42);
    for range in vektoren::INT_RANGES {
        let flags = int_flags(&round, range, 0, &["Published"]);
        cases.push(case(
            format!("referenz.py vektoren int range {range}"),
            &flags,
            int(b, 0, range),
        ));
    }
    // For each byte width k, a range just above 2^(8k-1) rejects about half
    // of all values; k = 7 is capped by 2^53-1, where a range near 2^56/9
    // still rejects about one value in nine.
    for k in 1..=7u32 {
        let range = if k < 7 {
            (1u64 << (8 * k - 1)) + 1
        } else {
            (1u64 << 56) / 9 + 1
        };
        let cur = cursor_with_rejections(&round, range, 1);
        let flags = int_flags(&round, range, cur, &[]);
        cases.push(case(
            format!("{k}-byte range {range}, first attempt rejected"),
            &flags,
            int(b, cur, range),
        ));
    }
    let thrice = cursor_with_rejections(&round, 129, 3);
    cases.push(case(
        "range 129, three rejections in a row",
        &int_flags(&round, 129, thrice, &[]),
        int(b, thrice, 129),
    ));
    for (comment, cur, range) in [
        ("range 1 at cursor 0", 0, 1),
        ("range 1 at cursor 2^53-1", MAX_SAFE_INTEGER, 1),
        ("range 2^32", 0, 1 << 32),
        ("range 2^32+1 needs five bytes", 0, (1 << 32) + 1),
        ("range 2^53-1", 5, MAX_SAFE_INTEGER),
        ("range 256 is still one byte", 0, 256),
        ("range 257 is two bytes", 0, 257),
    ] {
        cases.push(case(comment, &int_flags(&round, range, cur, &[]), int(b, cur, range)));
    }
    let u = Round::new(SEED_A, UNICODE_CLIENT, 3);
    cases.push(case(
        "Unicode client seed",
        &int_flags(&u, 52, 0, &["Unicode", "Colon"]),
        int((SEED_A, UNICODE_CLIENT, 3), 0, 52),
    ));

    let shuffle = |seed: &str, client: &str, nonce: u64, cur: u64, count: u64| Request::CursorShuffle {
        server_seed: s(seed),
        client_seed: s(client),
        nonce,
        cursor: cur,
        count,
    };
    for count in vektoren::SHUFFLE_COUNTS {
        cases.push(case(
            format!("referenz.py vektoren shuffle of {count}"),
            &["Published", "Rejection"],
            shuffle(SEED_B, CLIENT_B, 42, 0, count),
        ));
    }
    let more: [ShuffleRow; 8] = [
        (
            "count 0: empty order, cursor unchanged",
            &[],
            SEED_B,
            CLIENT_B,
            42,
            9,
            0,
        ),
        ("count 1: no draw", &[], SEED_B, CLIENT_B, 42, 9, 1),
        ("count 2: one draw", &["NonzeroCursor"], SEED_B, CLIENT_B, 42, 9, 2),
        (
            "52 cards from cursor 1000",
            &["NonzeroCursor", "Rejection"],
            SEED_B,
            CLIENT_B,
            42,
            1000,
            52,
        ),
        (
            "52 cards at nonce 2^53-1",
            &["MaxSafeInteger", "Rejection"],
            SEED_A,
            "spieler-1",
            MAX_SAFE_INTEGER,
            0,
            52,
        ),
        (
            "52 cards, Unicode client seed",
            &["Unicode", "Colon", "Rejection"],
            SEED_B,
            UNICODE_CLIENT,
            0,
            0,
            52,
        ),
        (
            "52 cards, empty client seed",
            &["EmptySeed", "Rejection"],
            SEED_A,
            "",
            0,
            0,
            52,
        ),
        (
            "1000 values: two-byte draws from i = 256 up",
            &["MultiByte", "Rejection"],
            SEED_B,
            CLIENT_B,
            1,
            0,
            1000,
        ),
    ];
    for (comment, flags, seed, client, nonce, cur, count) in more {
        cases.push(case(comment, flags, shuffle(seed, client, nonce, cur, count)));
    }
    Scheme {
        name: "cursor",
        source: "seed 003 (referenz.py)",
        notes: CURSOR_NOTES,
        cases,
    }
}

/// Card number (`cursor` poker convention) of a rank 2..=14 and suit 0..4.
fn card(rank: u8, suit: u8) -> u64 {
    u64::from(suit * 13 + if rank == 14 { 0 } else { rank - 1 })
}

fn poker_scheme() -> Scheme {
    let mut cases = Vec::new();
    for players in crate::poker::PLAYERS {
        let flags: &[&'static str] = if players == 22 {
            &["DealPositions", "MaxPlayers"]
        } else {
            &["DealPositions"]
        };
        cases.push(case(
            format!("deal for {players} players"),
            flags,
            Request::PokerDeal {
                server_seed: s(SEED_B),
                client_seed: s(CLIENT_B),
                nonce: players,
                players,
            },
        ));
    }
    cases.push(case(
        "table round: seat seeds concatenated in player order",
        &["DealPositions", "Unicode"],
        Request::PokerDeal {
            server_seed: s(SEED_A),
            client_seed: s("seat1-ä\u{301}seat2-😀seat3"),
            nonce: MAX_SAFE_INTEGER,
            players: 3,
        },
    ));
    let hands: [(&str, &[&'static str], Vec<u64>); 18] = [
        (
            "royal flush",
            &["Category"],
            vec![card(14, 3), card(13, 3), card(12, 3), card(11, 3), card(10, 3)],
        ),
        (
            "steel wheel: five-high straight flush",
            &["Category", "Wheel"],
            vec![card(14, 0), card(2, 0), card(3, 0), card(4, 0), card(5, 0)],
        ),
        (
            "quads with the best kicker of three",
            &["Category", "SevenCards"],
            vec![
                card(9, 0),
                card(9, 1),
                card(9, 2),
                card(9, 3),
                card(2, 0),
                card(13, 1),
                card(7, 2),
            ],
        ),
        (
            "full house from two trips",
            &["Category", "SevenCards"],
            vec![
                card(4, 0),
                card(4, 1),
                card(4, 2),
                card(11, 0),
                card(11, 1),
                card(11, 2),
                card(2, 3),
            ],
        ),
        (
            "full house: trips and the higher of two pairs",
            &["Category", "SevenCards"],
            vec![
                card(6, 0),
                card(6, 1),
                card(6, 2),
                card(3, 0),
                card(3, 1),
                card(12, 2),
                card(12, 3),
            ],
        ),
        (
            "flush of six cards keeps the top five",
            &["Category"],
            vec![card(2, 1), card(5, 1), card(7, 1), card(9, 1), card(11, 1), card(13, 1)],
        ),
        (
            "flush beats a straight in the same seven",
            &["Category", "SevenCards"],
            vec![
                card(5, 2),
                card(6, 0),
                card(7, 2),
                card(8, 2),
                card(9, 1),
                card(12, 2),
                card(2, 2),
            ],
        ),
        (
            "straight, ace high",
            &["Category"],
            vec![card(10, 0), card(11, 1), card(12, 2), card(13, 3), card(14, 0)],
        ),
        (
            "wheel among seven cards",
            &["Category", "Wheel", "SevenCards"],
            vec![
                card(14, 0),
                card(2, 1),
                card(3, 2),
                card(4, 3),
                card(5, 0),
                card(9, 1),
                card(13, 2),
            ],
        ),
        (
            "six-high straight beats the wheel in the same cards",
            &["Category", "Wheel", "SevenCards"],
            vec![
                card(14, 0),
                card(2, 1),
                card(3, 2),
                card(4, 3),
                card(5, 0),
                card(6, 1),
                card(13, 2),
            ],
        ),
        (
            "trips",
            &["Category", "SevenCards"],
            vec![
                card(8, 0),
                card(8, 1),
                card(8, 2),
                card(3, 0),
                card(12, 1),
                card(5, 2),
                card(10, 3),
            ],
        ),
        (
            "two pair with the third pair as kicker",
            &["Category", "SevenCards"],
            vec![
                card(9, 0),
                card(9, 1),
                card(7, 0),
                card(7, 1),
                card(5, 2),
                card(5, 3),
                card(2, 0),
            ],
        ),
        (
            "two pair",
            &["Category"],
            vec![card(14, 0), card(14, 1), card(13, 0), card(13, 1), card(12, 2)],
        ),
        (
            "pair",
            &["Category", "SevenCards"],
            vec![
                card(10, 0),
                card(10, 1),
                card(2, 2),
                card(4, 3),
                card(6, 0),
                card(8, 1),
                card(13, 2),
            ],
        ),
        (
            "high card",
            &["Category", "SevenCards"],
            vec![
                card(2, 0),
                card(4, 1),
                card(6, 2),
                card(8, 3),
                card(10, 0),
                card(12, 1),
                card(13, 2),
            ],
        ),
        (
            "high card, five cards",
            &["Category"],
            vec![card(2, 0), card(3, 1), card(4, 2), card(5, 3), card(7, 0)],
        ),
        (
            "ace-low straight flush among seven with a higher plain straight",
            &["Category", "Wheel", "SevenCards"],
            vec![
                card(14, 1),
                card(2, 1),
                card(3, 1),
                card(4, 1),
                card(5, 1),
                card(6, 2),
                card(7, 3),
            ],
        ),
        (
            "six cards: pair",
            &["Category"],
            vec![
                card(3, 0),
                card(3, 1),
                card(9, 2),
                card(11, 3),
                card(13, 0),
                card(14, 1),
            ],
        ),
    ];
    for (comment, flags, cards) in hands {
        cases.push(case(comment, flags, Request::PokerEvaluate { cards }));
    }
    Scheme {
        name: "poker",
        source: "seed 003 (poker_referenz.py)",
        notes: &[
            (
                "DealPositions",
                "Hole cards at (i, n+i), burns before flop, turn and river.",
            ),
            (
                "MaxPlayers",
                "22 players: the river is the deck's last card (position 51).",
            ),
            ("Unicode", "A non-ASCII client seed made of concatenated seat seeds."),
            (
                "Category",
                "A hand of the category in its comment; every category appears.",
            ),
            ("Wheel", "A-2-3-4-5, the five-high straight, where the ace counts one."),
            (
                "SevenCards",
                "Best five of seven: the evaluator must choose among subsets.",
            ),
        ],
        cases,
    }
}

/// Flags a shoe reached, read off its trace.
fn shoe_flags(
    server: &str,
    client: &str,
    nonce: u64,
    decks: u64,
    pen: f64,
    base: &[&'static str],
) -> Vec<&'static str> {
    let (_, cut) = shoe::deal_traced(server, client, nonce, decks, pen).expect("valid shoe");
    let mut flags = base.to_vec();
    let mut add = |f| add_flag(&mut flags, f);
    if cut.unclamped < cut.low {
        add("CutClampLow");
    }
    if cut.unclamped > cut.high {
        add("CutClampHigh");
    }
    let product = 52.0 * decks as f64 * pen;
    if product.fract() == 0.5 {
        add("RoundTie");
    }
    if decks * 52 > 256 {
        add("TwoByteDraws");
    }
    if cut.rejections[1] > 0 {
        add("Rejection1");
    }
    if cut.rejections[2] > 0 {
        add("Rejection2");
    }
    if cut.bytes > 32 {
        add("BlockBoundary");
    }
    flags
}

fn shoe_scheme() -> Scheme {
    let mut cases = Vec::new();
    let deal = |client: &str, nonce: u64, decks: u64, penetration: f64| Request::ShoeDeal {
        server_seed: s(SEED_B),
        client_seed: s(client),
        nonce,
        decks,
        penetration,
    };
    for decks in 1..=8 {
        let flags = shoe_flags(SEED_B, CLIENT_B, decks, decks, 0.75, &[]);
        cases.push(case(
            format!("{decks} deck(s), penetration 0.75"),
            &flags,
            deal(CLIENT_B, decks, decks, 0.75),
        ));
    }
    // Penetration 0.625 on one deck: 52 × 0.625 = 32.5 exactly; Math.round
    // gives 33 where round-half-even gives 32.
    let extra: [ShoeRow; 5] = [
        ("cut clamped low: penetration 0.1", &[], CLIENT_B, 1, 1, 0.1),
        ("cut clamped high: penetration 0.99", &[], CLIENT_B, 1, 1, 0.99),
        (
            "Math.round tie: 52 × 0.625 = 32.5 rounds up",
            &[],
            CLIENT_B,
            3,
            1,
            0.625,
        ),
        (
            "Math.round tie on six decks: 312 × 0.5625 = 175.5 rounds up",
            &[],
            CLIENT_B,
            4,
            6,
            0.5625,
        ),
        (
            "Unicode client seed with colons",
            &["Unicode"],
            UNICODE_CLIENT,
            0,
            6,
            0.8,
        ),
    ];
    for (comment, base, client, nonce, decks, pen) in extra {
        let flags = shoe_flags(SEED_B, client, nonce, decks, pen, base);
        cases.push(case(comment, &flags, deal(client, nonce, decks, pen)));
    }
    // A five-deck shoe whose two-byte draws include a rejection.
    let two = (0..)
        .find(|&n| shoe::deal_traced(SEED_B, CLIENT_B, n, 5, 0.75).unwrap().1.rejections[2] > 0)
        .unwrap();
    cases.push(case(
        "260 cards: a two-byte draw is rejected",
        &shoe_flags(SEED_B, CLIENT_B, two, 5, 0.75, &[]),
        deal(CLIENT_B, two, 5, 0.75),
    ));
    for hand in [0u64, 1, 2] {
        let (client, nonce) = shoe::tournament_round("T-2026-11", hand);
        let flags = shoe_flags(SEED_A, &client, nonce, 6, 0.75, &["Tournament"]);
        cases.push(case(
            format!("tournament T-2026-11, hand {hand}"),
            &flags,
            Request::ShoeTournament {
                server_seed: s(SEED_A),
                tournament_id: s("T-2026-11"),
                hand,
                decks: 6,
                penetration: 0.75,
            },
        ));
    }
    Scheme {
        name: "shoe",
        source: "seed 000 (Rechne uns nach)",
        notes: &[
            ("CutClampLow", "base + offset falls below max(20, round(total × 0.5)) and is clamped up."),
            ("CutClampHigh", "base + offset rises above total − 15 and is clamped down."),
            ("RoundTie", "total × penetration ends in .5 exactly: JavaScript's Math.round goes up, Python's round and banker's rounding go to even."),
            ("TwoByteDraws", "More than 256 cards: the first draws read two bytes."),
            ("Rejection1", "A one-byte draw is rejected and one fresh byte read."),
            ("Rejection2", "A two-byte draw is rejected and two fresh bytes read."),
            ("BlockBoundary", "The draws run past the first 32-byte block into the next HMAC block."),
            ("Tournament", "Client seed `T:k` and nonce k; consecutive hands of one tournament."),
            ("Unicode", "A non-ASCII client seed containing colons."),
        ],
        cases,
    }
}

fn dice_scheme() -> Scheme {
    let mut cases = Vec::new();
    let client = "a26460084a0ef89b:d4f28bac6efd1b6e";
    let roll = |client: &str, n: u64| Request::DiceRoll {
        server_seed: s(SEED_B),
        client_seed: s(client),
        n,
    };
    for n in 0..6 {
        cases.push(case(
            format!("die {n} of a 1v1 game (client seeds joined by a colon)"),
            &["Colon"],
            roll(client, n),
        ));
    }
    // Dice whose byte 0 is 252 or more: the published code scans on, the
    // page's one-line formula would not.
    let late: Vec<u64> = (0..)
        .filter(|&n| dice::roll_traced(SEED_B, client, n).unwrap().offset > 0)
        .take(3)
        .collect();
    for n in late {
        let f = dice::roll_traced(SEED_B, client, n).unwrap();
        cases.push(case(
            format!("die {n}: byte 0 is 252 or more, face from byte {}", f.offset),
            &["LateByte", "Colon"],
            roll(client, n),
        ));
    }
    cases.push(case("die 2^53-1", &["MaxSafeInteger"], roll("x", MAX_SAFE_INTEGER)));
    cases.push(case("Unicode client seed", &["Unicode"], roll(UNICODE_CLIENT, 1)));
    cases.push(case("empty client seed", &["EmptySeed"], roll("", 0)));
    Scheme {
        name: "dice",
        source: "seed 001 (published JavaScript)",
        notes: &[
            ("LateByte", "Byte 0 of the MAC is 252 or more, so the face comes from a later byte. The page's formula reads byte 0 only; its published code, the specification, scans on."),
            ("Colon", "The 1v1 client seed is two seeds joined by a colon and is used as one opaque string."),
            ("MaxSafeInteger", "Die number 2^53-1."),
            ("Unicode", "A non-ASCII client seed."),
            ("EmptySeed", "An empty client seed."),
        ],
        cases,
    }
}

fn selfpoker_scheme() -> Scheme {
    let mut cases = Vec::new();
    let seeds: [(&str, &[&'static str], u64); 10] = [
        ("seed 0: a single zero entropy word", &["NumpyEdge"], 0),
        ("seed 1", &["NumpyEdge"], 1),
        ("seed 42", &[], 42),
        ("seed 12345, traced step by step in docs/schemes.md", &[], 12345),
        ("seed 2^32-1: the largest one-word seed", &["NumpyEdge"], (1 << 32) - 1),
        ("seed 2^32: the smallest two-word seed", &["NumpyEdge"], 1 << 32),
        ("seed 2^62", &["NumpyEdge"], 1 << 62),
        (
            "seed 2^63-1: the largest 63-bit seed",
            &["NumpyEdge", "JsUnsafe"],
            (1 << 63) - 1,
        ),
        ("the page's example seed", &["JsUnsafe"], 1_234_567_890_123_456_789),
        ("a random 63-bit seed", &["JsUnsafe"], 6_012_398_147_733_912_337),
    ];
    for op in ["commit", "deck"] {
        for (comment, flags, seed) in seeds {
            let seed = seed.to_string();
            let request = if op == "commit" {
                Request::SelfpokerCommit { seed }
            } else {
                Request::SelfpokerDeck { seed }
            };
            cases.push(case(comment, flags, request));
        }
    }
    Scheme {
        name: "selfpoker",
        source: "seed 002 (numpy.random.default_rng(seed).permutation(52))",
        notes: &[
            (
                "NumpyEdge",
                "A seed at an edge of numpy's SeedSequence word split: 0, 1, 2^32-1, 2^32, 2^62, 2^63-1.",
            ),
            (
                "JsUnsafe",
                "A seed above 2^53: it must travel as a string and be handled as a BigInt in JavaScript.",
            ),
        ],
        cases,
    }
}

fn ladder_scheme() -> Scheme {
    let mut cases = Vec::new();
    let ladder = |client: &str, size: u64| Request::LadderShuffle {
        server_seed: s(SEED_B),
        client_seed: s(client),
        size,
    };
    let sizes: [(&str, &[&'static str], &str, u64); 9] = [
        ("the published 25 cases", &["DefaultSize"], CLIENT_B, 25),
        (
            "25 cases, another client seed",
            &["DefaultSize"],
            "player-seed-0001",
            25,
        ),
        ("25 cases, empty client seed", &["DefaultSize", "EmptySeed"], "", 25),
        (
            "25 cases, Unicode client seed",
            &["DefaultSize", "Unicode"],
            UNICODE_CLIENT,
            25,
        ),
        ("size 1: no draw", &[], CLIENT_B, 1),
        ("size 2: one draw", &[], CLIENT_B, 2),
        ("size 9: eight draws, exactly one block", &[], CLIENT_B, 9),
        (
            "size 10: the ninth draw opens block 1",
            &["BlockBoundary"],
            CLIENT_B,
            10,
        ),
        ("size 1000", &["BlockBoundary"], CLIENT_B, 1000),
    ];
    for (comment, flags, client, size) in sizes {
        cases.push(case(comment, flags, ladder(client, size)));
    }
    Scheme {
        name: "ladder",
        source: "seed 004 (Deal or No Deal)",
        notes: &[
            ("DefaultSize", "The published game's 25 cases."),
            (
                "BlockBoundary",
                "More than eight draws: block 1 (message `clientSeed:1`) is used.",
            ),
            ("EmptySeed", "An empty client seed."),
            ("Unicode", "A non-ASCII client seed."),
        ],
        cases,
    }
}

/// Every scheme's vectors, before they are run. Built once: several cases
/// are found by searching (the first cursor with a rejection, …).
pub fn schemes() -> &'static [Scheme] {
    static SCHEMES: std::sync::OnceLock<Vec<Scheme>> = std::sync::OnceLock::new();
    SCHEMES.get_or_init(|| {
        vec![
            cursor_scheme(),
            poker_scheme(),
            shoe_scheme(),
            dice_scheme(),
            selfpoker_scheme(),
            ladder_scheme(),
        ]
    })
}

/// The generator named in every file.
pub const GENERATOR: &str = concat!("provably ", env!("CARGO_PKG_VERSION"));

/// Runs a scheme's cases and lays them out as its vector file.
pub fn file(scheme: &Scheme) -> Value {
    let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for (i, c) in scheme.cases.iter().enumerate() {
        let expected = execute(&c.request).unwrap_or_else(|e| panic!("vector {:?} fails: {e}", c.comment));
        let test = json!({
            "tcId": i + 1,
            "comment": c.comment,
            "flags": c.flags,
            "input": c.request.to_value(),
            "expected": expected,
        });
        let op = c.request.op();
        match groups.iter_mut().find(|(o, _)| *o == op) {
            Some((_, tests)) => tests.push(test),
            None => groups.push((op, vec![test])),
        }
    }
    let mut notes = Map::new();
    for (flag, note) in scheme.notes {
        notes.insert(flag.to_string(), Value::from(*note));
    }
    json!({
        "scheme": scheme.name,
        "source": scheme.source,
        "generatorVersion": GENERATOR,
        "numberOfTests": scheme.cases.len(),
        "notes": notes,
        "testGroups": groups.into_iter().map(|(op, tests)| json!({ "op": op, "tests": tests })).collect::<Vec<_>>(),
    })
}

/// The web page's self-test: every vector of every scheme, flattened.
pub fn selftest(files: &[Value]) -> Value {
    let mut tests = Vec::new();
    for f in files {
        for group in f["testGroups"].as_array().into_iter().flatten() {
            for t in group["tests"].as_array().into_iter().flatten() {
                let mut t = t.as_object().unwrap().clone();
                t.insert("scheme".into(), f["scheme"].clone());
                tests.push(Value::Object(t));
            }
        }
    }
    json!({ "generator": GENERATOR, "numberOfTests": tests.len(), "tests": tests })
}

/// Every file `provably vectors` writes, as (path relative to the repository root, text).
pub fn render() -> Vec<(String, String)> {
    let files: Vec<Value> = schemes().iter().map(file).collect();
    let mut out: Vec<(String, String)> = files
        .iter()
        .map(|f| (format!("vectors/{}.json", f["scheme"].as_str().unwrap()), pretty(f)))
        .collect();
    out.push((
        "vectors/selftest.json".into(),
        serde_json::to_string(&selftest(&files)).unwrap() + "\n",
    ));
    out.push(("vectors/vectors.schema.json".into(), pretty(&crate::schema::vectors())));
    out.push((
        "harness/protocol.schema.json".into(),
        pretty(&crate::schema::protocol()),
    ));
    out
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

/// A generated file on disk that differs from what the code generates.
#[derive(Debug)]
pub struct Drift {
    pub file: String,
    pub diff: String,
}

/// Compares the files under `root` with what [`render`] generates; returns those that differ.
pub fn check(root: &Path) -> Vec<Drift> {
    render()
        .into_iter()
        .filter_map(|(name, want)| {
            let have = std::fs::read_to_string(root.join(&name)).unwrap_or_default();
            (have != want).then(|| Drift {
                diff: crate::report::unified_diff(
                    &have,
                    &want,
                    &format!("{name} (on disk)"),
                    &format!("{name} (generated)"),
                ),
                file: name,
            })
        })
        .collect()
}

/// Writes every generated file under `root`, each atomically (a temporary file renamed into place).
pub fn write(root: &Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    for (name, text) in render() {
        let path = root.join(&name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::fsutil::write_atomic(&path, text.as_bytes())?;
        names.push(name);
    }
    Ok(names)
}
