//! The `dice` vectors: a 1v1 game's dice, dice whose byte 0 is 252 or more,
//! and the edges of the inputs.

use serde_json::json;

use crate::cursor::vectors::UNICODE_CLIENT;
use crate::error::MAX_SAFE_INTEGER;
use crate::vectors::VectorSet;
use crate::vektoren::SEED_B;

/// Two players' seeds joined by a colon, as a 1v1 game's client seed.
const GAME: &str = "a26460084a0ef89b:d4f28bac6efd1b6e";

pub fn add(v: &mut VectorSet) {
    let roll = |client: &str, n: u64| json!({ "op": "dice.roll", "serverSeed": SEED_B, "clientSeed": client, "n": n });
    for n in 0..6 {
        v.add(
            format!("die {n} of a 1v1 game (client seeds joined by a colon)"),
            roll(GAME, n),
        );
    }
    // Dice whose byte 0 is 252 or more: the published code scans on, the
    // page's one-line formula would not.
    let late = (0..).filter_map(|n| {
        let found = super::roll_traced(SEED_B, GAME, n).expect("a face turns up");
        (found.offset > 0).then_some((n, found.offset))
    });
    for (n, offset) in late.take(3) {
        v.add(
            format!("die {n}: byte 0 is 252 or more, face from byte {offset}"),
            roll(GAME, n),
        );
    }
    v.add("die 2^53-1", roll("x", MAX_SAFE_INTEGER));
    v.add("Unicode client seed", roll(UNICODE_CLIENT, 1));
    v.add("empty client seed", roll("", 0));
}
