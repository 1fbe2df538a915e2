//! The `cursor` vectors: the published `referenz.py vektoren` cases, then
//! cases that force every branch of `int` and `shuffle`.

use serde_json::json;

use crate::op::error::MAX_SAFE_INTEGER;
use crate::op::Flag;
use crate::schemes::cursor::Round;
use crate::vectors::vektoren::{self, SEED_A, SEED_B};
use crate::vectors::VectorSet;

/// The published program's client seed.
pub(crate) const CLIENT_B: &str = "MarcTestet";
/// Non-ASCII text: a combining acute accent, an eszett, an astral-plane emoji, and a colon.
pub(crate) const UNICODE_CLIENT: &str = "Spie\u{301}ler:ß-😀";

/// Finds the first cursor whose draw of `range` is rejected at least `rejections` times in a row.
fn cursor_with_rejections(round: &Round, range: u64, rejections: usize) -> u64 {
    (0..)
        .find(|&c| {
            let (mut rejected, mut run) = (0, true);
            let _ = round.int_traced(range, c, &mut |a| {
                run &= !a.accepted;
                rejected += usize::from(run);
            });
            rejected >= rejections
        })
        .expect("a rejection turns up")
}

pub(crate) fn add(v: &mut VectorSet) {
    for (comment, seed) in [
        ("published seed A", SEED_A),
        ("published seed B", SEED_B),
        ("empty server seed", ""),
        (
            "uppercase hex is other text, so another hash",
            "A3F1C9D4E5B6072839A0B1C2D3E4F5061728394A5B6C7D8E9F0A1B2C3D4E5F60",
        ),
        ("non-ASCII server seed", "Sé😀d"),
        ("a passphrase, not hex", "correct horse battery staple"),
    ] {
        let case = v.add(comment, json!({ "op": "cursor.hash", "serverSeed": seed }));
        if comment.starts_with("published") {
            case.tag(Flag::Published);
        }
    }
    for op in ["cursor.raw", "cursor.float"] {
        let short = &op[7..];
        for (seed, client, nonce, cursor) in vektoren::RAW_CASES {
            let input = json!({ "op": op, "serverSeed": seed, "clientSeed": client, "nonce": nonce, "cursor": cursor });
            v.add(format!("referenz.py vektoren {short}"), input)
                .tag(Flag::Published);
        }
        for (comment, seed, client, nonce, cursor) in [
            ("nonce 2^53-1", SEED_B, CLIENT_B, MAX_SAFE_INTEGER, 0),
            ("cursor 2^53-1", SEED_B, CLIENT_B, 0, MAX_SAFE_INTEGER),
            (
                "client seed with combining mark, eszett, emoji and a colon",
                SEED_B,
                UNICODE_CLIENT,
                7,
                3,
            ),
            ("server seed that is not hex", "not hex at all", CLIENT_B, 1, 1),
            ("empty server and client seed", "", "", 0, 0),
        ] {
            let input = json!({ "op": op, "serverSeed": seed, "clientSeed": client, "nonce": nonce, "cursor": cursor });
            v.add(comment, input);
        }
    }
    let round = Round::new(SEED_B, CLIENT_B, 42);
    let small = (0..).find(|&c| round.float(c) < 1e-4).expect("a small float turns up");
    let input =
        json!({ "op": "cursor.float", "serverSeed": SEED_B, "clientSeed": CLIENT_B, "nonce": 42, "cursor": small });
    v.add("float below 1e-4", input);
    add_ints(v, &round);
    add_shuffles(v);
    add_domain(v, &round);
    add_invalid(v);
}

/// For each (range, below), the first cursor whose first attempt at
/// `range` reads `limit(range) - below`: one scan for all of them, since a
/// two-byte value turns up once in 65,536 MACs and every harness run waits
/// for the vectors.
fn cursors_at_limits(round: &Round, wanted: &[(u64, u128)]) -> Vec<u64> {
    let targets: Vec<(usize, u128)> = wanted
        .iter()
        .map(|&(range, below)| {
            (
                crate::schemes::cursor::bytes_needed(range) as usize,
                crate::schemes::cursor::limit(range) - below,
            )
        })
        .collect();
    let mut found = vec![None; targets.len()];
    for (c, raw) in round.raws_from(0) {
        for (slot, &(k, target)) in found.iter_mut().zip(&targets) {
            if slot.is_none() && raw[..k].iter().fold(0u128, |acc, &b| (acc << 8) | u128::from(b)) == target {
                *slot = Some(c);
            }
        }
        if found.iter().all(Option::is_some) {
            break;
        }
    }
    found
        .into_iter()
        .map(|c| c.expect("every byte value turns up"))
        .collect()
}

/// Every field of every cursor op over its whole domain, the byte-width
/// steps of `range`, and draws that read exactly the rejection limit or one
/// below it, at one and two bytes.
fn add_domain(v: &mut VectorSet, round: &Round) {
    let base = |op: &str| json!({ "op": op, "serverSeed": SEED_B, "clientSeed": CLIENT_B, "nonce": 42, "cursor": 0 });
    v.edges(json!({ "op": "cursor.hash", "serverSeed": SEED_B }));
    v.edges(base("cursor.raw"));
    v.edges(base("cursor.float"));
    let mut int = base("cursor.int");
    int["range"] = json!(52);
    v.edges(int.clone());
    for range in crate::schemes::cursor::ops::byte_width_edges() {
        int["range"] = json!(range);
        v.add(
            format!("range {range}: {} byte(s)", crate::schemes::cursor::bytes_needed(range)),
            int.clone(),
        );
    }
    // 52 reads one byte, limit 208; 1000 reads two, limit 65000.
    let at_limit = [
        (52, 0, "reads exactly the limit 208 and is rejected"),
        (52, 1, "reads 207, one below the limit, and is kept"),
        (1000, 0, "reads exactly the two-byte limit 65000 and is rejected"),
        (1000, 1, "reads 64999, one below the two-byte limit, and is kept"),
    ];
    let wanted: Vec<(u64, u128)> = at_limit.iter().map(|&(range, below, _)| (range, below)).collect();
    for ((range, _, what), cursor) in at_limit.into_iter().zip(cursors_at_limits(round, &wanted)) {
        int["range"] = json!(range);
        int["cursor"] = json!(cursor);
        v.add(format!("range {range}: the first attempt {what}"), int.clone());
    }
    let mut shuffle = base("cursor.shuffle");
    shuffle["count"] = json!(10);
    v.edges(shuffle.clone());
    for (count, what) in [
        (256, "the last one-byte shuffle"),
        (257, "the first draw, int(257), reads two bytes"),
    ] {
        shuffle["count"] = json!(count);
        v.add(format!("count {count}: {what}"), shuffle.clone());
    }
}

/// Every single-fault mutation of a small request of each op.
fn add_invalid(v: &mut VectorSet) {
    let round = json!({ "serverSeed": "s", "clientSeed": "c", "nonce": 1, "cursor": 2 });
    v.variants(json!({ "op": "cursor.hash", "serverSeed": "s" }));
    for (op, extra) in [
        ("cursor.raw", None),
        ("cursor.float", None),
        ("cursor.int", Some(("range", 6))),
        ("cursor.shuffle", Some(("count", 3))),
    ] {
        let mut input = round.clone();
        input["op"] = json!(op);
        if let Some((field, value)) = extra {
            input[field] = json!(value);
        }
        v.variants(input);
    }
}

fn add_ints(v: &mut VectorSet, round: &Round) {
    let int = |cursor: u64, range: u64| json!({ "op": "cursor.int", "serverSeed": SEED_B, "clientSeed": CLIENT_B, "nonce": 42, "cursor": cursor, "range": range });
    for range in vektoren::INT_RANGES {
        v.add(format!("referenz.py vektoren int range {range}"), int(0, range))
            .tag(Flag::Published);
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
        let cursor = cursor_with_rejections(round, range, 1);
        v.add(
            format!("{k}-byte range {range}, first attempt rejected"),
            int(cursor, range),
        );
    }
    let thrice = cursor_with_rejections(round, 129, 3);
    v.add("range 129, three rejections in a row", int(thrice, 129));
    for (comment, cursor, range) in [
        ("range 1 at cursor 0", 0, 1),
        ("range 1 at cursor 2^53-1", MAX_SAFE_INTEGER, 1),
        ("range 2^32", 0, 1 << 32),
        ("range 2^32+1 needs five bytes", 0, (1 << 32) + 1),
        ("range 2^53-1", 5, MAX_SAFE_INTEGER),
        ("range 256 is still one byte", 0, 256),
        ("range 257 is two bytes", 0, 257),
    ] {
        v.add(comment, int(cursor, range));
    }
    let input = json!({ "op": "cursor.int", "serverSeed": SEED_A, "clientSeed": UNICODE_CLIENT, "nonce": 3, "cursor": 0, "range": 52 });
    v.add("Unicode client seed", input);
}

fn add_shuffles(v: &mut VectorSet) {
    let shuffle = |seed: &str, client: &str, nonce: u64, cursor: u64, count: u64| json!({ "op": "cursor.shuffle", "serverSeed": seed, "clientSeed": client, "nonce": nonce, "cursor": cursor, "count": count });
    for count in vektoren::SHUFFLE_COUNTS {
        v.add(
            format!("referenz.py vektoren shuffle of {count}"),
            shuffle(SEED_B, CLIENT_B, 42, 0, count),
        )
        .tag(Flag::Published);
    }
    for (comment, seed, client, nonce, cursor, count) in [
        ("count 0: empty order, cursor unchanged", SEED_B, CLIENT_B, 42, 9, 0),
        ("count 1: no draw", SEED_B, CLIENT_B, 42, 9, 1),
        ("count 2: one draw", SEED_B, CLIENT_B, 42, 9, 2),
        ("52 cards from cursor 1000", SEED_B, CLIENT_B, 42, 1000, 52),
        ("52 cards at nonce 2^53-1", SEED_A, "spieler-1", MAX_SAFE_INTEGER, 0, 52),
        ("52 cards, Unicode client seed", SEED_B, UNICODE_CLIENT, 0, 0, 52),
        ("52 cards, empty client seed", SEED_A, "", 0, 0, 52),
        (
            "1000 values: two-byte draws from i = 256 up",
            SEED_B,
            CLIENT_B,
            1,
            0,
            1000,
        ),
    ] {
        v.add(comment, shuffle(seed, client, nonce, cursor, count));
    }
}
