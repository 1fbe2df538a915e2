//! The `freebitco` vectors: the operator's example, rolls that round up and
//! down, the ends 0 and 10,000, and the edges of the inputs.

use serde_json::{json, Value};

use crate::op::error::MAX_SAFE_INTEGER;
use crate::op::Flag;
use crate::schemes::freebitco::{quotient, roll_of, value};
use crate::vectors::cursor::UNICODE_CLIENT;
use crate::vectors::VectorSet;

/// The published roll: request, the answer its source prints, the source.
pub(crate) fn published() -> Vec<(Value, Value, &'static str)> {
    vec![(
        roll("monk", "knom", 123_456),
        json!({ "roll": 8009 }),
        "Freebitco.in's scheme, the example of monk-afk/freebitco.in_roll-calculator's README, which the operator's verifier page reproduces",
    )]
}

const SERVER: &str = "c7c0c5a6f5bd4bd3ab0a0ba1f1d3e3ba71da9c92fb9bc8d2d5bd9a0d1f9e5b51";
const CLIENT: &str = "provably";

fn roll(server: &str, client: &str, nonce: u64) -> Value {
    json!({ "op": "freebitco.roll", "serverSeed": server, "clientSeed": client, "nonce": nonce })
}

/// What a roll's x must satisfy for a case.
type Hit = fn(u32) -> bool;

/// The first nonce from 1 whose x satisfies `hit`.
fn nonce_where(hit: impl Fn(u32) -> bool) -> u64 {
    (1..)
        .find(|&n| hit(value(SERVER, CLIENT, n)))
        .expect("such a roll turns up")
}

pub(crate) fn add(v: &mut VectorSet) {
    for (request, answer, source) in published() {
        v.add(format!("{source}: {answer}"), request).tag(Flag::PublishedField);
    }
    for n in 1..5 {
        v.add(format!("roll of nonce {n}"), roll(SERVER, CLIENT, n));
    }
    let cases: [(&str, Hit); 4] = [
        ("the quotient rounds up", |x| quotient(x).fract() >= 0.5),
        ("the quotient rounds down", |x| quotient(x).fract() < 0.5),
        ("roll 0", |x| roll_of(x) == 0),
        ("roll 10,000", |x| roll_of(x) == 10_000),
    ];
    for (what, hit) in cases {
        let n = nonce_where(hit);
        v.add(format!("nonce {n}: {what}"), roll(SERVER, CLIENT, n));
    }
    v.add("nonce 0", roll(SERVER, CLIENT, 0));
    v.add("nonce 2^53-1", roll(SERVER, CLIENT, MAX_SAFE_INTEGER));
    v.add("Unicode client seed", roll(SERVER, UNICODE_CLIENT, 1));
    v.add("a client seed with the separator in it", roll(SERVER, "1:a:1", 1));
    v.edges(roll(SERVER, CLIENT, 1));
    v.variants(roll("s", "c", 1));
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_published_roll_is_answered_as_published() {
        for (request, answer, source) in super::published() {
            let got = crate::registry::parse(&request).unwrap().run_value().unwrap();
            assert_eq!(got, answer, "{source}");
        }
    }
}
