//! `provably vektoren`: the text `python3 referenz.py vektoren` prints,
//! produced by the Rust implementation. The same inputs, the same key order,
//! the same two-space indentation, Python's float repr; a test holds the two
//! texts equal byte for byte.

use serde_json::{json, Map, Value};

use crate::base::crypto::hex;
use crate::base::pyfmt::{dumps_indent2, float_repr};
use crate::schemes::cursor::{hash, Round};

/// The published program's two server seeds.
pub(crate) const SEED_A: &str = "0000000000000000000000000000000000000000000000000000000000000000";
pub const SEED_B: &str = "a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60";

/// The published program's raw/float cases: server seed, client seed, nonce, cursor.
pub(crate) const RAW_CASES: [(&str, &str, u64, u64); 6] = [
    (SEED_A, "spieler-1", 0, 0),
    (SEED_A, "spieler-1", 0, 1),
    (SEED_A, "spieler-1", 1, 0),
    (SEED_A, "", 0, 0),
    (SEED_B, "MarcTestet", 42, 7),
    (SEED_B, "a-b_c", 999999, 123),
];

/// The published program's ranges for `int`, all at SEED_B, "MarcTestet", nonce 42, cursor 0.
pub(crate) const INT_RANGES: [u64; 7] = [2, 6, 37, 52, 200, 312, 10_000];

/// The published program's shuffle sizes, at the same round.
pub(crate) const SHUFFLE_COUNTS: [u64; 3] = [5, 52, 312];

/// Returns the published vectors as a JSON value, keys in the program's order.
pub(crate) fn value() -> Value {
    let mut out = Map::new();
    let hashes: Vec<Value> = [SEED_A, SEED_B]
        .iter()
        .map(|s| json!({ "serverSeed": s, "hash": hash(s) }))
        .collect();
    let (mut raws, mut floats) = (Vec::new(), Vec::new());
    for (seed, client, nonce, cursor) in RAW_CASES {
        let round = Round::new(seed, client, nonce);
        raws.push(json!({
            "serverSeed": seed, "clientSeed": client, "nonce": nonce, "cursor": cursor,
            "raw": hex(&round.raw(cursor)),
        }));
        floats.push(json!({
            "serverSeed": seed, "clientSeed": client, "nonce": nonce, "cursor": cursor,
            "value": float_repr(round.float(cursor)),
        }));
    }
    let round = Round::new(SEED_B, "MarcTestet", 42);
    let ints: Vec<Value> = INT_RANGES
        .iter()
        .map(|&range| {
            let (value, next) = round.int(range, 0);
            json!({
                "range": range, "serverSeed": SEED_B, "clientSeed": "MarcTestet",
                "nonce": 42, "cursor": 0, "value": value, "cursorNext": next,
            })
        })
        .collect();
    let shuffles: Vec<Value> = SHUFFLE_COUNTS
        .iter()
        .map(|&count| {
            let (order, next) = round.shuffle(usize::try_from(count).expect("published counts are small"), 0);
            json!({
                "count": count, "serverSeed": SEED_B, "clientSeed": "MarcTestet", "nonce": 42,
                "order": order, "cursorNext": next,
            })
        })
        .collect();
    out.insert("hash".into(), hashes.into());
    out.insert("raw".into(), raws.into());
    out.insert("float".into(), floats.into());
    out.insert("int".into(), ints.into());
    out.insert("shuffle".into(), shuffles.into());
    Value::Object(out)
}

/// Returns the text `referenz.py vektoren` prints, final newline included.
pub fn text() -> String {
    dumps_indent2(&value()) + "\n"
}
