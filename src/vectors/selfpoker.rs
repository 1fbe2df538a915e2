//! The `selfpoker` vectors: numpy's seed edges and seeds above 2^53.

use serde_json::json;

use crate::vectors::VectorSet;

const SEEDS: [(&str, u64); 10] = [
    ("seed 0: a single zero entropy word", 0),
    ("seed 1", 1),
    ("seed 42", 42),
    ("seed 12345, traced step by step in docs/schemes.md", 12345),
    ("seed 2^32-1: the largest one-word seed", (1 << 32) - 1),
    ("seed 2^32: the smallest two-word seed", 1 << 32),
    ("seed 2^62", 1 << 62),
    ("seed 2^63-1: the largest 63-bit seed", (1 << 63) - 1),
    ("the page's example seed", 1_234_567_890_123_456_789),
    ("a random 63-bit seed", 6_012_398_147_733_912_337),
];

/// Seeds where a JavaScript Number stops holding every integer.
const JS_EDGES: [(&str, u64); 3] = [
    (
        "seed 2^53-1: the largest a JavaScript Number holds exactly",
        (1 << 53) - 1,
    ),
    ("seed 2^53: a Number still holds it, but not its successor", 1 << 53),
    ("seed 2^53+1: a Number rounds it to 2^53", (1 << 53) + 1),
];

pub(crate) fn add(v: &mut VectorSet) {
    for op in ["selfpoker.commit", "selfpoker.deck"] {
        for (comment, seed) in SEEDS {
            v.add(comment, json!({ "op": op, "seed": seed.to_string() }));
        }
    }
    for op in ["selfpoker.commit", "selfpoker.deck"] {
        for (comment, seed) in JS_EDGES {
            v.add(comment, json!({ "op": op, "seed": seed.to_string() }));
        }
        v.variants(json!({ "op": op, "seed": "42" }));
    }
}
