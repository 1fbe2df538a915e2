//! The `ladder` vectors: the published 25 cases and the block edges.

use serde_json::json;

use crate::vectors::cursor::{CLIENT_B, UNICODE_CLIENT};
use crate::vectors::vektoren::SEED_B;
use crate::vectors::VectorSet;

pub(crate) fn add(v: &mut VectorSet) {
    for (comment, client, size) in [
        ("the published 25 cases", CLIENT_B, 25),
        ("25 cases, another client seed", "player-seed-0001", 25),
        ("25 cases, empty client seed", "", 25),
        ("25 cases, Unicode client seed", UNICODE_CLIENT, 25),
        ("size 1: no draw", CLIENT_B, 1),
        ("size 2: one draw", CLIENT_B, 2),
        ("size 9: eight draws, exactly one block", CLIENT_B, 9),
        ("size 10: the ninth draw opens block 1", CLIENT_B, 10),
        ("size 1000", CLIENT_B, 1000),
        // A mapping that errs only for large i (j from 32-bit or binary32
        // arithmetic, a product that overflows 2^48) shows only here.
        ("size 65537: draws for i past 2^16", CLIENT_B, 65_537),
        ("size 100000: the largest ladder", CLIENT_B, 100_000),
    ] {
        v.add(
            comment,
            json!({ "op": "ladder.shuffle", "serverSeed": SEED_B, "clientSeed": client, "size": size }),
        );
    }
    v.edges(json!({ "op": "ladder.shuffle", "serverSeed": SEED_B, "clientSeed": CLIENT_B, "size": 25 }));
    v.variants(json!({ "op": "ladder.shuffle", "serverSeed": "s", "clientSeed": "c", "size": 3 }));
    // Found by search, and last so that the vectors before keep their ids:
    // the draw for i = 83 (word 0 of block 2, v = 3834792228) takes j = 74
    // from v / 2^32 and 75 from v / (2^32 − 1). No other vector has such a
    // draw, so only this one fails a port that normalises by the word's
    // largest value.
    v.add(
        "size 100: a draw where v / 2^32 and v / (2^32 - 1) part",
        json!({ "op": "ladder.shuffle", "serverSeed": SEED_B, "clientSeed": "norm-1318717", "size": 100 }),
    );
}
