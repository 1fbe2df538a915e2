//! The request parser of `provably serve` and the response parser of the
//! harness must survive anything: no panic, and an answer for every line.
//! `make fuzz` runs these with 1,000,000 cases each (PROPTEST_CASES).

use proptest::prelude::*;

use provably::protocol::{answer_line, Response};

/// Lines that look like protocol messages, then get mangled.
fn line() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "id",
        "op",
        "serverSeed",
        "clientSeed",
        "nonce",
        "cursor",
        "range",
        "count",
        "cards",
        "seed",
        "penetration",
        "decks",
        "ok",
        "error",
        "kind",
        "message",
        "players",
        "size",
        "n",
        "hand",
        "tournamentId",
        "protocol",
    ]);
    let op = prop::sample::select(
        provably::registry::names()
            .iter()
            .map(|s| s.to_string())
            .chain(["hello".into(), "".into()])
            .collect::<Vec<_>>(),
    );
    let scalar = prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| format!("{v:e}")),
        Just("9007199254740992".to_string()),
        Just("1e400".to_string()),
        Just("-0".to_string()),
        ".{0,12}".prop_map(|s| serde_json::to_string(&s).unwrap()),
        Just("null".to_string()),
        Just("[1,2,3,4,5]".to_string()),
        Just("{}".to_string()),
        Just("\"\\ud800\"".to_string()),
    ];
    let object = prop::collection::vec((key, scalar), 0..8).prop_flat_map(move |fields| {
        op.clone().prop_map(move |op| {
            let mut s = format!("{{\"op\":\"{op}\"");
            for (k, v) in &fields {
                s += &format!(",\"{k}\":{v}");
            }
            s + "}"
        })
    });
    prop_oneof![
        4 => object.clone(),
        2 => (object, any::<prop::sample::Index>(), any::<u8>()).prop_map(|(s, at, b)| {
            let mut bytes = s.into_bytes();
            let i = at.index(bytes.len());
            bytes[i] = b;
            String::from_utf8_lossy(&bytes).into_owned()
        }),
        1 => ".{0,80}",
        1 => prop::collection::vec(prop::sample::select(vec!["{", "}", "[", "]", ",", ":", "\"", "1", "e", "-", " "]), 0..40).prop_map(|v| v.concat()),
    ]
}

proptest! {
    #[test]
    fn serve_answers_every_fuzzed_line_with_one_valid_response(s in line()) {
        let answer = answer_line(&s);
        let text = answer.to_line();
        prop_assert!(!text.contains('\n'));
        prop_assert_eq!(Response::parse(&text).unwrap(), answer.into_response());
    }

    #[test]
    fn harness_response_parser_never_panics(s in line()) {
        let _ = Response::parse(&s);
    }
}
