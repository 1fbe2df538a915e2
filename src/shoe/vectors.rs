//! The `shoe` vectors: every shoe size, both cut clamps, `Math.round` ties,
//! a rejected two-byte draw, and consecutive tournament hands.

use serde_json::json;

use crate::cursor::vectors::{CLIENT_B, UNICODE_CLIENT};
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
}
