//! The `lucky` vectors: the published Primedice bet, a seed pair's first
//! bets, bets whose group 0 is 10⁶ or more (the lucky number from a later
//! group), and the edges of the inputs.

use serde_json::{json, Value};

use crate::op::error::MAX_SAFE_INTEGER;
use crate::op::Flag;
use crate::vectors::cursor::UNICODE_CLIENT;
use crate::vectors::VectorSet;

/// The published bets: request, the answer its source prints, and the source.
pub(crate) fn published() -> Vec<(Value, Value, &'static str)> {
    vec![(
        roll(
            "293d5d2ddd365f54759283a8097ab2640cbe6f8864adc2b1b31e65c14c999f04",
            "ClientSeedForDiceSites.com",
            0,
        ),
        json!({ "lucky": 697_969, "roll": 79.69 }),
        "Primedice's classic scheme, the worked example of provably-fair/provably-fair-app's README (MAC aa671aad…, lucky 697969, roll 79.69)",
    )]
}

const SERVER: &str = "c7c0c5a6f5bd4bd3ab0a0ba1f1d3e3ba71da9c92fb9bc8d2d5bd9a0d1f9e5b51";
const CLIENT: &str = "provably";

fn roll(server: &str, client: &str, nonce: u64) -> Value {
    json!({ "op": "lucky.roll", "serverSeed": server, "clientSeed": client, "nonce": nonce })
}

pub fn add(v: &mut VectorSet) {
    for (request, answer, source) in published() {
        v.add(format!("{source}: {answer}"), request).tag(Flag::PublishedField);
    }
    for n in 0..4 {
        v.add(format!("bet {n}"), roll(SERVER, CLIENT, n));
    }
    // Group 0 reads 10⁶ or more: a reader of group 0 alone, or of lucky
    // mod 10⁶, answers otherwise.
    let late = (0..).filter_map(|n| {
        let found = crate::schemes::lucky::lucky(SERVER, CLIENT, n);
        found.group.filter(|&g| g > 0).map(|g| (n, g))
    });
    for (n, g) in late.take(3) {
        v.add(
            format!("bet {n}: group 0 is 10^6 or more, lucky from group {g}"),
            roll(SERVER, CLIENT, n),
        );
    }
    // Found by searching the nonces of (SERVER, CLIENT) once (1.3 million
    // MACs): group 0 reads exactly 1,000,000 (f4240), skipped; the flag
    // GroupAtLimit says so, or the reach test fails.
    v.add(
        "bet 1272217: group 0 reads exactly 1,000,000, skipped",
        roll(SERVER, CLIENT, 1_272_217),
    );
    v.add("nonce 2^53-1", roll(SERVER, CLIENT, MAX_SAFE_INTEGER));
    v.add("Unicode client seed", roll(SERVER, UNICODE_CLIENT, 1));
    v.add("a client seed with the separator in it", roll(SERVER, "a-1", 2));
    v.edges(roll(SERVER, CLIENT, 1));
    v.variants(roll("s", "c", 1));
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_published_bets_are_answered_as_published() {
        for (request, answer, source) in super::published() {
            let got = crate::registry::parse(&request).unwrap().run_value().unwrap();
            assert_eq!(got, answer, "{source}");
        }
    }
}
