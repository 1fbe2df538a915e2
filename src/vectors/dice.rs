//! The `dice` vectors: a 1v1 game's dice, dice whose byte 0 is 252 or more,
//! and the edges of the inputs.

use serde_json::json;

use crate::op::error::MAX_SAFE_INTEGER;
use crate::vectors::cursor::UNICODE_CLIENT;
use crate::vectors::vektoren::SEED_B;
use crate::vectors::VectorSet;

/// Two players' seeds joined by a colon, as a 1v1 game's client seed.
const GAME: &str = "a26460084a0ef89b:d4f28bac6efd1b6e";

pub(crate) fn add(v: &mut VectorSet) {
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
        let found = crate::schemes::dice::roll_traced(SEED_B, GAME, n).expect("a face turns up");
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
    v.edges(roll(GAME, 0));
    // A skipped byte of exactly 252 (`<=` for `<` would keep it), and a
    // face from byte 251, the largest kept.
    for (what, at_limit) in [
        ("a byte of exactly 252 is skipped", true),
        ("the face comes from byte value 251, the largest kept", false),
    ] {
        let hit = |f: crate::schemes::dice::Found| if at_limit { f.skipped_limit } else { f.byte == 251 };
        let n = (0..)
            .find(|&n| crate::schemes::dice::roll_traced(SEED_B, GAME, n).is_ok_and(hit))
            .expect("such a die turns up");
        v.add(format!("die {n}: {what}"), roll(GAME, n));
    }
    v.variants(json!({ "op": "dice.roll", "serverSeed": "s", "clientSeed": "c", "n": 1 }));
}
