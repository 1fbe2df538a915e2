//! The `shoe` vectors: every shoe size, both cut clamps, `Math.round` ties,
//! a rejected two-byte draw, and consecutive tournament hands.

use serde_json::json;

use crate::op::error::MAX_SAFE_INTEGER;
use crate::vectors::cursor::{CLIENT_B, UNICODE_CLIENT};
use crate::vectors::vektoren::{SEED_A, SEED_B};
use crate::vectors::VectorSet;

pub(crate) fn add(v: &mut VectorSet) {
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
        .find(|&n| {
            crate::schemes::shoe::deal_traced(SEED_B, CLIENT_B, n, 5, 0.75)
                .1
                .rejections[2]
                > 0
        })
        .expect("a rejected two-byte draw turns up");
    v.add("260 cards: a two-byte draw is rejected", deal(CLIENT_B, two, 5, 0.75));
    for hand in [0u64, 1, 2] {
        v.add(
            format!("tournament T-2026-11, hand {hand}"),
            json!({ "op": "shoe.tournament", "serverSeed": SEED_A, "tournamentId": "T-2026-11", "hand": hand, "decks": 6, "penetration": 0.75 }),
        );
    }
    add_domain(v);
    add_stream(v);
    add_invalid(v);
}

/// Every field over its whole domain, decimal penetrations at and next to
/// rounding ties, the extreme penetrations, and draws that read exactly
/// the rejection limit or one below it.
pub(crate) fn add_domain(v: &mut VectorSet) {
    let deal = json!({ "op": "shoe.deal", "serverSeed": SEED_B, "clientSeed": CLIENT_B, "nonce": 1, "decks": 1, "penetration": 0.75 });
    v.edges(deal.clone());
    v.edges(
        json!({ "op": "shoe.tournament", "serverSeed": SEED_A, "tournamentId": "T-2026-11", "hand": 0, "decks": 1, "penetration": 0.75 }),
    );
    for (decks, p, what) in ties() {
        let mut input = deal.clone();
        input["decks"] = json!(decks);
        input["penetration"] = json!(p);
        v.add(format!("{decks} deck(s), penetration {p:?}: {what}"), input);
    }
    for (p, what) in [
        (
            f64::from_bits(0.625f64.to_bits() - 1),
            "one ulp below 0.625: 52 × p is one ulp below the tie 32.5",
        ),
        (
            f64::from_bits(0.625f64.to_bits() + 1),
            "one ulp above 0.625: 52 × p is one ulp above the tie 32.5",
        ),
        (f64::from_bits(1), "the smallest positive double"),
        (1.0 - f64::EPSILON / 2.0, "the largest double below 1"),
    ] {
        let mut input = deal.clone();
        input["penetration"] = json!(p);
        v.add(format!("penetration {p:?}: {what}"), input);
    }
    add_limit_hits(v, &deal);
}

/// Penetrations at and next to rounding ties, found by searching the
/// doubles, for every shoe size: (decks, penetration, what it is).
///
/// Decimal penetrations (three or four decimals) between 0.5 and 1 whose
/// exact product with the card count is n + 0.5 exist only for five decks
/// (p = m/40); for each of them the binary64 product either rounds onto
/// n + 0.5 or misses it by one ulp. For every size, the doubles nearest
/// (2n + 1) / (2 · cards) give the same two classes with penetrations that
/// are no decimal at all. Candidates are tried from the middle of the
/// unclamped cuts outwards, so that no clamp hides the rounding.
fn ties() -> Vec<(u64, f64, String)> {
    const BY_ROUNDING: &str = "the binary64 product ends in .5 only by rounding";
    const NEAR: &str = "the binary64 product misses n + 0.5 by one ulp";
    let mut out = Vec::new();
    for decks in 1..=8u64 {
        let total = 52 * u32::try_from(decks).expect("at most 8");
        let decimals = (500..1000u32)
            .map(|k| (k, 1000u32))
            .chain((5000..10_000u32).map(|k| (k, 10_000)));
        let decimal_ties = decimals.filter_map(|(k, scale)| {
            // k / scale × total = n + 1/2 exactly: 2 · k · total = (2n + 1) · scale.
            let twice = 2 * u64::from(k) * u64::from(total);
            let odd = twice % u64::from(scale) == 0 && (twice / u64::from(scale)) % 2 == 1;
            odd.then(|| f64::from(k) / f64::from(scale))
        });
        let nearest = (total / 2..total).map(|n| f64::from(2 * n + 1) / f64::from(2 * total));
        // Halfway between the clamps total / 2 and total − 15.
        let middle = (f64::from(total) * 1.5 - 15.0) / 2.0 / f64::from(total);
        let by_middle = |mut ps: Vec<f64>| {
            ps.sort_by(|a, b| (a - middle).abs().total_cmp(&(b - middle).abs()));
            ps
        };
        for (candidates, prefix) in [
            (
                by_middle(decimal_ties.collect()),
                "a decimal whose exact product ends in .5; ",
            ),
            (by_middle(nearest.collect()), ""),
        ] {
            for (class, what) in [(0, BY_ROUNDING), (1, NEAR)] {
                let hit = candidates.iter().copied().find(|&p| {
                    let (by_rounding, near) = crate::schemes::shoe::ops::tie(total, p);
                    [by_rounding, near][class]
                });
                if let Some(p) = hit {
                    out.push((decks, p, format!("{prefix}{what}")));
                }
            }
        }
    }
    out
}

/// Shoes whose draws read exactly the rejection limit, or one below it,
/// with one-byte draws (one deck) and two-byte draws (eight decks).
fn add_limit_hits(v: &mut VectorSet, deal: &serde_json::Value) {
    for (decks, width) in [(1u64, 1usize), (8, 2)] {
        for below in [false, true] {
            let n = (100..)
                .find(|&n| {
                    let cut =
                        crate::schemes::shoe::deal_traced(SEED_B, CLIENT_B, n, usize::try_from(decks).unwrap(), 0.75).1;
                    if below {
                        cut.below_limit[width] > 0
                    } else {
                        cut.at_limit[width] > 0
                    }
                })
                .expect("a hit turns up");
            let what = if below {
                "reads its rejection limit minus one and is kept"
            } else {
                "reads exactly its rejection limit and is rejected"
            };
            let mut input = deal.clone();
            input["nonce"] = json!(n);
            input["decks"] = json!(decks);
            v.add(format!("{decks} deck(s): a {width}-byte draw {what}"), input);
        }
    }
}

/// Every single-fault mutation of a small request of each op.
pub(crate) fn add_invalid(v: &mut VectorSet) {
    v.variants(json!({ "op": "shoe.stream", "serverSeed": "s", "clientSeed": "c", "nonce": 1, "count": 40 }));
    v.variants(
        json!({ "op": "shoe.deal", "serverSeed": "s", "clientSeed": "c", "nonce": 1, "decks": 2, "penetration": 0.75 }),
    );
    v.variants(json!({ "op": "shoe.tournament", "serverSeed": "s", "tournamentId": "T", "hand": 1, "decks": 2, "penetration": 0.75 }));
}

/// Client seeds players type that reach U+E000 … U+FFFF: a heart with its
/// emoji variation selector U+FE0F, and full-width letters (U+FF4C …). An
/// encoder that mishandles the top of the Basic Multilingual Plane (one
/// published UTF-8 encoder throws there) breaks on them.
pub(crate) const LUCKY_HEART: &str = "lucky\u{2764}\u{fe0f}";
pub(crate) const LUCKY_FULL_WIDTH: &str = "\u{ff4c}\u{ff55}\u{ff43}\u{ff4b}\u{ff59}";

/// `shoe.stream`: the bytes the shoe reads, across block edges.
fn add_stream(v: &mut VectorSet) {
    v.edges(json!({ "op": "shoe.stream", "serverSeed": SEED_B, "clientSeed": CLIENT_B, "nonce": 1, "count": 40 }));
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
