use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::root;

fn load(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(root().join(name)).unwrap()).unwrap()
}

#[test]
fn committed_vectors_and_schemas_match_the_generator() {
    let drift = provably::vectors::check(root());
    let report: Vec<String> = drift.iter().map(|d| format!("{}:\n{}", d.file, d.diff)).collect();
    assert!(
        drift.is_empty(),
        "run `make vectors` and review:\n{}",
        report.join("\n")
    );
}

fn validator(path: &str) -> jsonschema::Validator {
    jsonschema::validator_for(&load(path)).unwrap_or_else(|e| panic!("{path} is not a valid schema: {e}"))
}

#[test]
fn every_vector_file_and_the_selftest_bundle_validate_against_the_schema() {
    let v = validator("vectors/vectors.schema.json");
    for name in [
        "cursor",
        "poker",
        "shoe",
        "dice",
        "selfpoker",
        "ladder",
        "blackjack",
        "selftest",
    ] {
        let doc = load(&format!("vectors/{name}.json"));
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .take(5)
            .collect();
        assert!(errors.is_empty(), "vectors/{name}.json: {errors:#?}");
    }
}

#[test]
fn schema_rejects_a_vector_with_an_out_of_range_field() {
    let v = validator("vectors/vectors.schema.json");
    let mut doc = load("vectors/cursor.json");
    doc["testGroups"][3]["tests"][0]["input"]["range"] = Value::from(0);
    assert!(!v.is_valid(&doc), "range 0 must not validate");
    let mut doc = load("vectors/dice.json");
    doc["testGroups"][0]["tests"][0]["expected"]["face"] = Value::from(7);
    assert!(!v.is_valid(&doc), "face 7 must not validate");
}

/// The schema holds a blackjack hand to six copies of a card number, and an
/// optional field to its stated default, exactly as the parser does.
#[test]
fn schema_holds_blackjack_cards_to_six_copies_and_states_the_default() {
    let v = validator("vectors/vectors.schema.json");
    let doc = load("vectors/blackjack.json");
    let mut six = doc.clone();
    six["testGroups"][0]["tests"][0]["input"]["cards"] = serde_json::json!([0, 0, 0, 0, 0, 0, 1]);
    assert!(v.is_valid(&six), "six copies of a card number validate");
    let mut seven = doc.clone();
    seven["testGroups"][0]["tests"][0]["input"]["cards"] = serde_json::json!([0, 0, 0, 0, 0, 0, 0]);
    assert!(!v.is_valid(&seven), "seven copies must not validate");
    let mut left_out = doc;
    left_out["testGroups"][0]["tests"][0]["input"]
        .as_object_mut()
        .unwrap()
        .remove("doubleAfterSplit");
    assert!(v.is_valid(&left_out), "doubleAfterSplit is optional");
    let protocol = load("harness/protocol.schema.json");
    let request = &protocol["$defs"]["request:blackjack.strategy"];
    assert_eq!(request["properties"]["doubleAfterSplit"]["default"], true);
    assert!(!request["required"]
        .as_array()
        .unwrap()
        .contains(&Value::from("doubleAfterSplit")));
    for (cards, ok) in [
        (serde_json::json!([0, 0, 0, 0, 0, 0, 1]), true),
        (serde_json::json!([0, 0, 0, 0, 0, 0, 0]), false),
    ] {
        let parsed = provably::op::Request::parse(&serde_json::json!({
            "op": "blackjack.strategy", "cards": cards, "dealer": 9, "canDouble": false, "canSplit": false
        }));
        assert_eq!(parsed.is_ok(), ok, "the parser agrees with the schema on {cards}");
    }
}

#[test]
fn every_file_counts_its_tests_and_numbers_them_uniquely() {
    for name in ["cursor", "poker", "shoe", "dice", "selfpoker", "ladder", "blackjack"] {
        let doc = load(&format!("vectors/{name}.json"));
        let ids: Vec<u64> = doc["testGroups"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["tests"].as_array().unwrap())
            .map(|t| t["tcId"].as_u64().unwrap())
            .collect();
        assert_eq!(ids.len() as u64, doc["numberOfTests"].as_u64().unwrap(), "{name}");
        assert_eq!(
            ids.iter().collect::<BTreeSet<_>>().len(),
            ids.len(),
            "{name}: duplicate tcId"
        );
        let notes = doc["notes"].as_object().unwrap();
        for t in doc["testGroups"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["tests"].as_array().unwrap())
        {
            for f in t["flags"].as_array().unwrap() {
                assert!(notes.contains_key(f.as_str().unwrap()), "{name}: flag {f} has no note");
            }
        }
    }
}

/// Flags each file must carry at least once: the branches the vectors exist to force.
#[test]
fn vectors_force_every_listed_branch() {
    let required: [(&str, &[&str]); 7] = [
        (
            "cursor",
            &[
                "Published",
                "Rejection",
                "MultiByte",
                "LargeRange",
                "RangeOne",
                "MaxSafeInteger",
                "NonzeroCursor",
                "EmptySeed",
                "Unicode",
                "Colon",
                "NotHex",
                "SmallFloat",
            ],
        ),
        (
            "poker",
            &["DealPositions", "MaxPlayers", "Category", "Wheel", "SevenCards"],
        ),
        (
            "shoe",
            &[
                "CutClampLow",
                "CutClampHigh",
                "RoundTie",
                "TwoByteDraws",
                "Rejection1",
                "Rejection2",
                "BlockBoundary",
                "Tournament",
                "Unicode",
            ],
        ),
        ("dice", &["LateByte", "Colon", "MaxSafeInteger", "Unicode", "EmptySeed"]),
        ("selfpoker", &["NumpyEdge", "JsUnsafe"]),
        ("ladder", &["DefaultSize", "BlockBoundary", "EmptySeed", "Unicode"]),
        (
            "blackjack",
            &[
                "Pair",
                "TenPair",
                "AcePair",
                "Soft",
                "Hard",
                "SoftTwelve",
                "SoftTotalEdge",
                "HardTotalEdge",
                "DoubleRefused",
                "AceCountsOne",
                "MultiCard",
                "MaxCards",
                "FourFourNoDas",
                "WithoutDas",
                "DealerAce",
                "TwoCardTwentyOne",
            ],
        ),
    ];
    for (name, flags) in required {
        let doc = load(&format!("vectors/{name}.json"));
        let seen: BTreeSet<String> = doc["testGroups"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["tests"].as_array().unwrap())
            .flat_map(|t| {
                t["flags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f.as_str().unwrap().to_string())
            })
            .collect();
        for f in flags {
            assert!(seen.contains(*f), "{name}: no vector carries {f}");
        }
    }
}

#[test]
fn rejection_is_forced_at_every_cursor_byte_width() {
    let doc = load("vectors/cursor.json");
    let mut widths = BTreeSet::new();
    for t in doc["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["op"] == "cursor.int")
        .flat_map(|g| g["tests"].as_array().unwrap())
    {
        if t["flags"].as_array().unwrap().iter().any(|f| f == "Rejection") {
            widths.insert(provably::cursor::bytes_needed(t["input"]["range"].as_u64().unwrap()));
        }
    }
    assert_eq!(widths, (1..=7).collect(), "a rejection at every byte width 1..=7");
}

#[test]
fn every_poker_category_appears_including_the_wheel() {
    let doc = load("vectors/poker.json");
    let cats: BTreeSet<&str> = doc["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["op"] == "poker.evaluate")
        .flat_map(|g| g["tests"].as_array().unwrap())
        .map(|t| t["expected"]["category"].as_str().unwrap())
        .collect();
    assert_eq!(cats, provably::poker::CATEGORIES.into_iter().collect());
    let players: BTreeSet<u64> = doc["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["op"] == "poker.deal")
        .flat_map(|g| g["tests"].as_array().unwrap())
        .map(|t| t["input"]["players"].as_u64().unwrap())
        .collect();
    assert!((2..=10).all(|p| players.contains(&p)));
}

#[test]
fn selftest_bundle_holds_every_vector() {
    let bundle = load("vectors/selftest.json");
    let total: u64 = ["cursor", "poker", "shoe", "dice", "selfpoker", "ladder", "blackjack"]
        .iter()
        .map(|n| load(&format!("vectors/{n}.json"))["numberOfTests"].as_u64().unwrap())
        .sum();
    assert_eq!(bundle["numberOfTests"].as_u64(), Some(total));
    assert_eq!(bundle["tests"].as_array().unwrap().len() as u64, total);
}

/// The snapshots hold the vectors: a change to any expected value shows up
/// in review (`cargo insta review`) as well as in `vectors --check`.
#[test]
fn vector_snapshots() {
    for v in provably::vectors::schemes() {
        let file = provably::vectors::file(v);
        let name = v.scheme.name;
        insta::with_settings!({ snapshot_suffix => name, description => format!("vectors/{name}.json"), omit_expression => true }, {
            insta::assert_json_snapshot!("vectors", file);
        });
    }
}

/// One long stream, one digest: thousands of derived outcomes of every
/// scheme hashed together, to catch drift that sampled vectors miss.
#[test]
fn long_stream_digest_is_pinned() {
    use provably::{cursor::Round, dice, ladder, numpy, poker, shoe};
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for i in 0..1000u64 {
        let round = Round::new("stream", &format!("digest-{i}"), i);
        h.update(round.raw(i));
        h.update(round.float(i).to_bits().to_be_bytes());
        let (v, next) = round.int(i * 7919 + 1, i);
        h.update(v.to_be_bytes());
        h.update(next.to_be_bytes());
        h.update([dice::roll("stream", "dice", i).unwrap()]);
        for c in numpy::permutation(i.wrapping_mul(2654435761) >> 1, 52) {
            h.update([u8::try_from(c).unwrap()]);
        }
        if i % 10 == 0 {
            for c in round.shuffle(52, i).0 {
                h.update([u8::try_from(c).unwrap()]);
            }
            for c in ladder::shuffle("stream", &i.to_string(), 25) {
                h.update([u8::try_from(c).unwrap()]);
            }
            let d = poker::deal("stream", "poker", i, usize::try_from(2 + i % 21).unwrap());
            h.update(serde_json::to_vec(&d).unwrap());
        }
        if i % 50 == 0 {
            let s = shoe::deal("stream", "shoe", i, usize::try_from(1 + i % 8).unwrap(), 0.75);
            h.update(s.cards.concat());
            h.update(s.cut.to_be_bytes());
        }
    }
    insta::assert_snapshot!("long_stream_digest", provably::crypto::hex(&h.finalize()));
}
