//! The `csgoempire` vectors: the help article's example inputs (its result
//! is only in a screenshot, so the answer here is what the op computes, not
//! a published number), a day's first rounds, rounds at the colours' edges,
//! and the edges of the inputs.

use serde_json::{json, Value};

use crate::op::error::MAX_SAFE_INTEGER;
use crate::vectors::VectorSet;

const SERVER: &str = "a09910148cbc5d6abda98b9f2e46deccdc672c2d410bdd8277d37498e73e1849";
const PUBLIC: &str = "1914223138";

fn roulette(server: &str, public: &str, round: u64) -> Value {
    json!({ "op": "csgoempire.roulette", "serverSeed": server, "publicSeed": public, "round": round })
}

pub fn add(v: &mut VectorSet) {
    v.add(
        "the help article's example inputs (server 96f3e04d…, public 460670512935, round 321; its result is shown only in a screenshot)",
        roulette(
            "96f3e04d221ca1b2048cc3b3b844e479f2bd9c80a870628072ee98fd1aa83cd0",
            "460670512935",
            321,
        ),
    );
    for n in 0..4 {
        v.add(format!("round {n}"), roulette(SERVER, PUBLIC, n));
    }
    // The colours' edges: bonus (0), the last orange (7), the first black (8).
    for edge in [0, 7, 8] {
        let n = (0..)
            .find(|&n| {
                crate::schemes::csgoempire::roll_of(crate::schemes::csgoempire::value(SERVER, PUBLIC, n)) == edge
            })
            .expect("one round in 15");
        v.add(format!("round {n}: roll {edge}"), roulette(SERVER, PUBLIC, n));
    }
    v.add("round 2^53-1", roulette(SERVER, PUBLIC, MAX_SAFE_INTEGER));
    v.add("a public seed with the separator in it", roulette(SERVER, "19-14", 2));
    v.edges(roulette(SERVER, PUBLIC, 1));
    v.variants(roulette("s", "p", 1));
}
