//! The `shoe` vectors: every shoe size, both cut clamps, `Math.round` ties,
//! a rejected two-byte draw, and consecutive tournament hands.

use serde_json::json;

use crate::cursor::vectors::{CLIENT_B, UNICODE_CLIENT};
use crate::error::MAX_SAFE_INTEGER;
use crate::vectors::VectorSet;
use crate::vektoren::{SEED_A, SEED_B};

pub fn add(v: &mut VectorSet) {
    let deal = |client: &str, nonce: u64, decks: u64, penetration: f64| json!({ "op": "shoe.deal", "serverSeed": SEED_B, "clientSeed": client, "nonce": nonce, "decks": decks, "penetration": penetration });
    for decks in 1..=8 {
        v.add(
            format!("{decks} deck(s), penetration 0.75"),
            deal(CLIENT_B, decks, decks, 0.75),
        );
    }
    // Penetration 0.625 on one deck: 52 × 0.625 = 32.5 exactly; Math.round
    // gives 33 where round-half-even gives 32.
    for (comment, client, nonce, decks, pen) in [
        ("cut clamped low: penetration 0.1", CLIENT_B, 1, 1, 0.1),
        ("cut clamped high: penetration 0.99", CLIENT_B, 1, 1, 0.99),
        ("Math.round tie: 52 × 0.625 = 32.5 rounds up", CLIENT_B, 3, 1, 0.625),
        (
            "Math.round tie on six decks: 312 × 0.5625 = 175.5 rounds up",
            CLIENT_B,
            4,
            6,
            0.5625,
        ),
        ("Unicode client seed with colons", UNICODE_CLIENT, 0, 6, 0.8),
    ] {
        v.add(comment, deal(client, nonce, decks, pen));
    }
    // A five-deck shoe whose two-byte draws include a rejection.
    let two = (0..)
        .find(|&n| super::deal_traced(SEED_B, CLIENT_B, n, 5, 0.75).1.rejections[2] > 0)
        .expect("a rejected two-byte draw turns up");
    v.add("260 cards: a two-byte draw is rejected", deal(CLIENT_B, two, 5, 0.75));
    for hand in [0u64, 1, 2] {
        v.add(
            format!("tournament T-2026-11, hand {hand}"),
            json!({ "op": "shoe.tournament", "serverSeed": SEED_A, "tournamentId": "T-2026-11", "hand": hand, "decks": 6, "penetration": 0.75 }),
        );
    }
    add_stream(v);
}

/// Client seeds players type that reach U+E000 … U+FFFF: a heart with its
/// emoji variation selector U+FE0F, and full-width letters (U+FF4C …). An
/// encoder that mishandles the top of the Basic Multilingual Plane (one
/// published UTF-8 encoder throws there) breaks on them.
pub const LUCKY_HEART: &str = "lucky\u{2764}\u{fe0f}";
pub const LUCKY_FULL_WIDTH: &str = "\u{ff4c}\u{ff55}\u{ff43}\u{ff4b}\u{ff59}";

/// `shoe.stream`: the bytes the shoe reads, across block edges.
fn add_stream(v: &mut VectorSet) {
    let stream = |server: &str, client: &str, nonce: u64, count: u64| json!({ "op": "shoe.stream", "serverSeed": server, "clientSeed": client, "nonce": nonce, "count": count });
    for (comment, server, client, nonce, count) in [
        ("stream: no bytes", SEED_B, CLIENT_B, 1, 0),
        ("stream: exactly block 0", SEED_B, CLIENT_B, 1, 32),
        ("stream: one byte into block 1", SEED_B, CLIENT_B, 1, 33),
        ("stream: three blocks and a bit", SEED_B, CLIENT_B, 1, 100),
        ("stream: empty seeds", "", "", 0, 64),
        (
            "stream: Unicode client seed with colons, nonce 2^53-1",
            SEED_A,
            UNICODE_CLIENT,
            MAX_SAFE_INTEGER,
            40,
        ),
        ("stream: client seed lucky + heart + U+FE0F", SEED_B, LUCKY_HEART, 1, 64),
        ("stream: full-width client seed", SEED_B, LUCKY_FULL_WIDTH, 1, 32),
        (
            "stream: server seed with a private-use character U+E000",
            "\u{e000}",
            CLIENT_B,
            0,
            32,
        ),
        ("stream: 1000 bytes, into block 31", SEED_A, CLIENT_B, 7, 1000),
    ] {
        v.add(comment, stream(server, client, nonce, count));
    }
    // HMAC hashes a key longer than its 64-byte block first: the key paths
    // an HMAC package has of its own (a published seed is exactly 64 bytes).
    for (comment, server) in [
        (
            "stream: a 65-byte server seed, hashed before keying",
            format!("{SEED_A}x"),
        ),
        (
            "stream: a 130-byte server seed of two-byte characters",
            "\u{e9}".repeat(65),
        ),
    ] {
        v.add(comment, stream(&server, CLIENT_B, 3, 40));
    }
    v.add(
        "client seed lucky + heart + U+FE0F, six decks",
        json!({ "op": "shoe.deal", "serverSeed": SEED_B, "clientSeed": LUCKY_HEART, "nonce": 1, "decks": 6, "penetration": 0.75 }),
    );
}
