//! The `skinclub` vectors: the validator's fixtures and a player's exported
//! roll with their public hashes, rolls whose 15 hex digits are above 2⁵³
//! (most) and one below, and the edges of the inputs.

use serde_json::{json, Value};

use crate::op::error::MAX_SAFE_INTEGER;
use crate::op::Flag;
use crate::vectors::cursor::UNICODE_CLIENT;
use crate::vectors::VectorSet;

const VALIDATOR: &str = "skinclub-tech/provably-fair-validator tests/run-tests.php";
const HASHCAT: &str = "a player's exported skin.club roll in https://github.com/hashcat/hashcat/issues/3674";

/// The published rolls and hashes: request, the answer its source prints,
/// and the source.
pub(crate) fn published() -> Vec<(Value, Value, String)> {
    vec![
        (
            roll("c4ca4238a0b92382", "my_seed", 4),
            json!({ "roll": 21_752 }),
            format!("{VALIDATOR}, the regular fixture"),
        ),
        (
            roll("Tt5qAdTwoTeygDdghVlfEWtNJQkGYg5q", "12354,abgd", 9),
            json!({ "roll": 5415 }),
            format!("{VALIDATOR}, the battle fixture (the beacon in place of the server seed)"),
        ),
        (
            roll("5cde7ef61f82edc3b4f37cf7ad2c1e20", "xcvbdfgnfxn", 0),
            json!({ "roll": 79_537 }),
            HASHCAT.to_string(),
        ),
        (
            hash("0dcc509a6f75849b", "c4ca4238a0b92382"),
            json!({ "hash": "dc883b29588c1204fcad00984aaa2404c2251f9a0e5300106eb39aaebcc0f493" }),
            format!("{VALIDATOR}, the regular fixture's public hash"),
        ),
        (
            hash("12537aab67008133", "5cde7ef61f82edc3b4f37cf7ad2c1e20"),
            json!({ "hash": "efca1bc831844ffd984be8991820909ea0f8701e623fd17c8d93558a0027bb5b" }),
            format!("{HASHCAT}, its public hash"),
        ),
    ]
}

const SERVER: &str = "c4ca4238a0b92382";
const CLIENT: &str = "provably";

fn roll(server: &str, client: &str, nonce: u64) -> Value {
    json!({ "op": "skinclub.roll", "serverSeed": server, "clientSeed": client, "nonce": nonce })
}

fn hash(salt: &str, server: &str) -> Value {
    json!({ "op": "skinclub.hash", "salt": salt, "serverSeed": server })
}

pub(crate) fn add(v: &mut VectorSet) {
    for (request, answer, source) in published() {
        v.add(format!("{source}: {answer}"), request).tag(Flag::PublishedField);
    }
    for n in 0..4 {
        v.add(format!("roll {n}"), roll(SERVER, CLIENT, n));
    }
    // One in 128 values is below 2^53: a double holds it exactly.
    let low = (0..)
        .find(|&n| crate::schemes::skinclub::value(SERVER, CLIENT, n) < 1 << 53)
        .expect("one in 128");
    v.add(
        format!("roll {low}: the 15 hex digits are below 2^53"),
        roll(SERVER, CLIENT, low),
    );
    v.add("nonce 2^53-1", roll(SERVER, CLIENT, MAX_SAFE_INTEGER));
    v.add("Unicode client seed", roll(SERVER, UNICODE_CLIENT, 1));
    v.add("a client seed with the separator in it", roll(SERVER, "a-1", 2));
    v.edges(roll(SERVER, CLIENT, 1));
    v.edges(hash("0dcc509a6f75849b", SERVER));
    v.variants(roll("s", "c", 1));
    v.variants(hash("salt", "s"));
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_published_rolls_and_hashes_are_answered_as_published() {
        for (request, answer, source) in super::published() {
            let got = crate::registry::parse(&request).unwrap().run_value().unwrap();
            assert_eq!(got, answer, "{source}");
        }
    }
}
