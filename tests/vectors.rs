use std::collections::BTreeSet;

use provably::registry;
use serde_json::Value;

use crate::support::root;

fn load(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(root().join(name)).unwrap()).unwrap()
}

#[test]
fn committed_vectors_and_schemas_match_the_generator() {
    let drift = provably::vectors::check(root(), &provably::generated()).unwrap();
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
        let parsed = provably::registry::parse(&serde_json::json!({
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

// What every op with text fields reaches through `VectorSet::edges`.
const TEXT: &[&str] = &[
    "EmptySeed",
    "Unicode",
    "Colon",
    "NotHex",
    "LongKey",
    "LongText",
    "HugeText",
    "LongInBytes",
    "Astral",
    "AllPlanes",
    "HighBmp",
    "PrivateUse",
    "Noncharacter",
    "Decomposed",
    "Compatibility",
    "Whitespace",
    "Control",
    "Invisible",
    "Escapes",
    "MaxSafeInteger",
    "Int32Edge",
    "Uint32Edge",
];
/// The input flags each file must carry at least once (the flags each op
/// must reach besides are part of its declaration, `OpSpec::reach`).
/// A scheme whose ops have text fields reaches every text class; ladder's
/// fixed-size vectors reach the classes listed for it.
const INPUT: [(&str, &[&str]); 8] = [
    ("cursor", TEXT),
    ("poker", TEXT),
    ("shoe", TEXT),
    ("dice", TEXT),
    ("selfpoker", &[]),
    (
        "ladder",
        &[
            "EmptySeed",
            "LongKey",
            "LongText",
            "HugeText",
            "HighBmp",
            "Astral",
            "Decomposed",
            "Whitespace",
            "Invisible",
        ],
    ),
    ("blackjack", &[]),
    ("stake", TEXT),
];

fn flags_of(tests: &[Value]) -> BTreeSet<String> {
    tests
        .iter()
        .flat_map(|t| t["flags"].as_array().unwrap())
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

/// Each file carries its input flags, and each op's vectors every flag its
/// declaration says they reach: the branches the vectors exist to force.
#[test]
fn vectors_force_every_listed_branch() {
    for (name, text) in INPUT {
        let doc = load(&format!("vectors/{name}.json"));
        let groups = doc["testGroups"].as_array().unwrap();
        let all: Vec<Value> = groups
            .iter()
            .flat_map(|g| g["tests"].as_array().unwrap().clone())
            .collect();
        let seen = flags_of(&all);
        for f in text {
            assert!(seen.contains(*f), "{name}: no vector carries {f}");
        }
        let scheme = registry::schemes().iter().find(|s| s.name == name).unwrap();
        for op in scheme.ops {
            let tests: Vec<Value> = groups
                .iter()
                .filter(|g| g["op"] == op.name)
                .flat_map(|g| g["tests"].as_array().unwrap().clone())
                .collect();
            let seen = flags_of(&tests);
            for f in op.reach.vectors {
                assert!(seen.contains(f.name()), "{}: no vector carries {f}", op.name);
            }
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
            widths.insert(provably::schemes::cursor::bytes_needed(
                t["input"]["range"].as_u64().unwrap(),
            ));
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
        .filter(|t| t["result"] == "valid")
        .map(|t| t["expected"]["category"].as_str().unwrap())
        .collect();
    assert_eq!(cats, provably::schemes::poker::CATEGORIES.into_iter().collect());
    let players: BTreeSet<u64> = doc["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["op"] == "poker.deal")
        .flat_map(|g| g["tests"].as_array().unwrap())
        .filter(|t| t["result"] == "valid")
        .map(|t| t["input"]["players"].as_u64().unwrap())
        .collect();
    assert!((2..=10).all(|p| players.contains(&p)));
}

/// The bundle holds every vector but the heavy ones, which it names.
#[test]
fn selftest_bundle_holds_every_vector_but_the_heavy_ones() {
    let bundle = load("vectors/selftest.json");
    let mut kept = 0;
    let mut heavy = BTreeSet::new();
    for name in FILES {
        for t in tests_of(&load(&format!("vectors/{name}.json"))) {
            if t["flags"].as_array().unwrap().iter().any(|f| f == "Heavy") {
                heavy.insert((name.to_string(), t["tcId"].as_u64().unwrap()));
            } else {
                kept += 1;
            }
        }
    }
    assert_eq!(bundle["numberOfTests"].as_u64(), Some(kept));
    assert_eq!(bundle["tests"].as_array().unwrap().len() as u64, kept);
    let omitted: BTreeSet<(String, u64)> = bundle["omitted"]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["scheme"].as_str().unwrap().to_string(), t["tcId"].as_u64().unwrap()))
        .collect();
    assert_eq!(omitted, heavy);
    assert!(!heavy.is_empty(), "the 100,000-element shuffles are heavy");
    assert!(bundle["tests"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["result"] == "invalid"));
}

/// Arrays over 1,000 items and strings over 1,000 characters become their
/// digest: the snapshot shows that a 100,000-element order changed, the
/// vector file (held by `vectors --check`) holds the order itself.
fn digest_long(v: &mut Value) {
    use sha2::{Digest, Sha256};
    let digest =
        |what: &str, text: &str| format!("{what}, sha256 {}", provably::base::crypto::hex(&Sha256::digest(text)));
    match v {
        Value::Array(items) if items.len() > 1000 => {
            *v = Value::from(digest(
                &format!("{} items", items.len()),
                &Value::Array(items.clone()).to_string(),
            ));
        }
        Value::String(s) if s.len() > 1000 => *v = Value::from(digest(&format!("{} bytes", s.len()), s)),
        Value::Array(items) => items.iter_mut().for_each(digest_long),
        Value::Object(m) => m.values_mut().for_each(digest_long),
        _ => {}
    }
}

/// The snapshots hold the vectors: a change to any expected value shows up
/// in review (`cargo insta review`) as well as in `vectors --check`.
#[test]
fn vector_snapshots() {
    for v in provably::vectors::schemes() {
        let mut file = provably::vectors::file(v);
        digest_long(&mut file);
        let name = v.scheme.name;
        insta::with_settings!({ snapshot_suffix => name, description => format!("vectors/{name}.json"), omit_expression => true }, {
            insta::assert_snapshot!("vectors", provably::vectors::pretty(&file));
        });
    }
}

/// Every test of a file, valid and invalid, with its group's op.
fn tests_of(doc: &Value) -> Vec<Value> {
    doc["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| {
            g["tests"].as_array().unwrap().iter().map(|t| {
                let mut t = t.clone();
                t["op"] = g["op"].clone();
                t
            })
        })
        .collect()
}

const FILES: [&str; 14] = [
    "cursor",
    "poker",
    "shoe",
    "dice",
    "selfpoker",
    "ladder",
    "blackjack",
    "stake",
    "crash",
    "lucky",
    "skinclub",
    "freebitco",
    "bcgame",
    "csgoempire",
];

/// Read from the committed files, so a hand-edited line is caught too.
#[test]
fn every_invalid_vector_is_answered_invalid_and_every_valid_one_ok() {
    for name in FILES {
        for t in tests_of(&load(&format!("vectors/{name}.json"))) {
            let line = match t["result"].as_str().unwrap() {
                "invalid" => t["line"].as_str().unwrap().to_string(),
                "valid" => t["input"].to_string(),
                other => panic!("{name} tcId {}: result {other}", t["tcId"]),
            };
            assert!(line.starts_with('{'), "{name} tcId {}: {line}", t["tcId"]);
            let with_id = format!("{{\"id\":5,{}", &line[1..]);
            let answer = provably::protocol::answer_line(&with_id).into_response();
            let kind = match &answer.reply {
                provably::protocol::Reply::Ok(_) => "ok".to_string(),
                provably::protocol::Reply::Error { kind, .. } => kind.clone(),
            };
            let want = if t["result"] == "valid" { "ok" } else { "invalid" };
            assert_eq!(kind, want, "{name} tcId {} ({}): {line}", t["tcId"], t["comment"]);
            if let Some(input) = t.get("input").filter(|_| t["result"] == "invalid") {
                assert_eq!(
                    &provably::base::json::parse(&line).unwrap(),
                    input,
                    "{name} tcId {}: input is the line",
                    t["tcId"]
                );
            }
        }
    }
}

/// Each op's negative vectors cover every fault its fields allow.
#[test]
fn every_op_has_every_kind_of_negative_vector() {
    use provably::op::Kind;
    for o in provably::registry::ops() {
        let doc = load(&format!("vectors/{}.json", o.scheme()));
        let flags: BTreeSet<String> = tests_of(&doc)
            .iter()
            .filter(|t| t["op"] == o.name && t["result"] == "invalid")
            .flat_map(|t| {
                t["flags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f.as_str().unwrap().to_string())
            })
            .collect();
        let mut want = vec!["MissingField", "ExtraField", "WrongType", "DuplicateKey"];
        if o.fields.iter().any(|f| f.kind != Kind::Text) {
            want.push("AboveLimit");
        }
        if o.fields
            .iter()
            .any(|f| !matches!(f.kind, Kind::Text | Kind::DecimalSeed | Kind::Word(_)))
        {
            want.push("BelowLimit");
        }
        for f in o.fields {
            match f.kind {
                Kind::Text => want.push("LoneSurrogate"),
                Kind::Int { .. } => want.extend(["FloatInteger", "NumericString"]),
                Kind::DecimalSeed => want.push("NotDecimal"),
                Kind::Word(_) => want.push("NotAWord"),
                Kind::Hex64 => want.push("NotHex"),
                Kind::Cards { .. } => want.extend(["DuplicateCard", "FloatInteger"]),
                Kind::Fraction | Kind::Bool => {}
            }
        }
        for w in want {
            assert!(flags.contains(w), "{}: no invalid vector flagged {w}", o.name);
        }
    }
}

/// Every text field of every op holds every edge text in some valid vector.
#[test]
fn every_text_field_of_every_op_holds_every_edge_text() {
    for o in provably::registry::ops() {
        let doc = load(&format!("vectors/{}.json", o.scheme()));
        let valid: Vec<Value> = tests_of(&doc)
            .into_iter()
            .filter(|t| t["op"] == o.name && t["result"] == "valid")
            .collect();
        for f in o.fields.iter().filter(|f| f.kind == provably::op::Kind::Text) {
            for (what, text) in provably::op::strategy::edge_texts() {
                assert!(
                    valid.iter().any(|t| t["input"][f.name] == text.as_str()),
                    "{} {}: no vector with the edge text {what}",
                    o.name,
                    f.name
                );
            }
        }
    }
}

/// The composed and decomposed forms of one text are other bytes: every
/// pair of vectors that differ only in that must answer differently.
#[test]
fn composed_and_decomposed_text_give_different_answers() {
    use provably::op::strategy::{COMPOSED, DECOMPOSED};
    let mut pairs = 0;
    for name in FILES {
        let tests = tests_of(&load(&format!("vectors/{name}.json")));
        for t in tests.iter().filter(|t| t["result"] == "valid") {
            let Some((field, _)) = t["input"].as_object().unwrap().iter().find(|(_, v)| *v == DECOMPOSED) else {
                continue;
            };
            let mut twin = t["input"].clone();
            twin[field] = Value::from(COMPOSED);
            let other = tests
                .iter()
                .find(|u| u["result"] == "valid" && u["input"] == twin)
                .unwrap_or_else(|| panic!("{name} tcId {}: no composed twin", t["tcId"]));
            assert_ne!(
                t["expected"], other["expected"],
                "{name} tcId {} and {}",
                t["tcId"], other["tcId"]
            );
            pairs += 1;
        }
    }
    let text_fields: usize = provably::registry::ops()
        .map(|o| o.fields.iter().filter(|f| f.kind == provably::op::Kind::Text).count())
        .sum();
    assert_eq!(pairs, text_fields);
}

/// One long stream, one digest: thousands of derived outcomes of every
/// scheme hashed together, to catch drift that sampled vectors miss.
#[test]
fn long_stream_digest_is_pinned() {
    use provably::schemes::{cursor::Round, dice, ladder, poker, selfpoker::numpy, shoe};
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
    insta::assert_snapshot!("long_stream_digest", provably::base::crypto::hex(&h.finalize()));
}
