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

/// Any JSON value: what a wrong target may answer in a field.
fn any_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        (0u64..520).prop_map(Value::from),
        ".{0,6}".prop_map(Value::from),
        "[0-9a-f]{0,70}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::from),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A wrong answer to `want`: one field replaced, an element changed,
/// the list cut or grown, a field dropped or added, or anything at all.
fn wrong(want: serde_json::Value) -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let keys: Vec<String> = want
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let keys = if keys.is_empty() { vec!["x".to_string()] } else { keys };
    (
        prop::sample::select(keys),
        any_value(),
        any::<prop::sample::Index>(),
        0u8..6,
    )
        .prop_map(move |(key, v, at, how)| {
            let mut got = want.clone();
            let Some(obj) = got.as_object_mut() else { return v };
            match (how, obj.get_mut(&key)) {
                (0, Some(Value::Array(a))) if !a.is_empty() => {
                    let i = at.index(a.len());
                    a[i] = v;
                }
                (1, Some(Value::Array(a))) => a.truncate(at.index(a.len() + 1)),
                (2, Some(Value::Array(a))) => a.push(v),
                (3, _) => {
                    obj.remove(&key);
                }
                (4, _) => {
                    obj.insert("extra".into(), v);
                }
                (5, _) => return v,
                _ => {
                    obj.insert(key, v);
                }
            }
            got
        })
}

/// Every op's explainer, through the one cause decision, survives any
/// answer (and any answer to the lower op it asks): explaining wrong
/// answers is its whole job. Bounded for CI; `make fuzz` raises
/// PROPTEST_CASES.
#[test]
fn every_explainer_survives_any_answer() {
    use provably::harness::cases::{generated, Ask};
    use provably::harness::cause::decide;
    use provably::protocol::Reply;
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(24);
    for op in provably::registry::ops() {
        let requests = (0..64u64).filter_map(|k| match generated(7, op, k).ask {
            Ask::Request(r) => Some(r),
            _ => None,
        });
        let requests: Vec<_> = requests.take(8).collect();
        let strategy = prop::sample::select(requests).prop_flat_map(|r| {
            let want = r.run_value().unwrap_or(serde_json::Value::Null);
            (Just(r), Just(want.clone()), wrong(want), any_value())
        });
        proptest!(ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() },
            |((request, want, got, lower) in strategy)| {
            let mut probe = |_: &provably::op::Request| Some(Reply::Ok(lower.clone()));
            let d = decide(&Ask::Request(request), &Reply::Ok(want), &Reply::Ok(got), &mut probe);
            prop_assert!(!d.group.is_empty());
        });
    }
}
