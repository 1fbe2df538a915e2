//! The JSON Schemas of the vector files and of protocol v1, generated from
//! one table of fields so the two cannot drift apart.
//! `provably vectors` writes both; `--check` holds them to the code.

use serde_json::{json, Map, Value};

use crate::error::{MAX_COUNT, MAX_SAFE_INTEGER};
use crate::poker::CATEGORIES;
use crate::protocol::OPS;

fn uint(min: u64, max: u64) -> Value {
    json!({ "type": "integer", "minimum": min, "maximum": max })
}

fn hex64() -> Value {
    json!({ "type": "string", "pattern": "^[0-9a-f]{64}$" })
}

/// The schema of a request field.
fn field(name: &str) -> Value {
    match name {
        "serverSeed" | "clientSeed" | "tournamentId" => json!({ "type": "string" }),
        "nonce" | "cursor" | "n" | "hand" => uint(0, MAX_SAFE_INTEGER),
        "range" => uint(1, MAX_SAFE_INTEGER),
        "count" => uint(0, MAX_COUNT),
        "size" => uint(1, MAX_COUNT),
        "players" => uint(2, 22),
        "decks" => uint(1, 8),
        "penetration" => json!({ "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1 }),
        "cards" => json!({ "type": "array", "items": uint(0, 51), "minItems": 5, "maxItems": 7, "uniqueItems": true }),
        "seed" => {
            json!({ "type": "string", "pattern": "^(0|[1-9][0-9]{0,18})$", "description": "plain decimal, below 2^63" })
        }
        "protocol" => json!({ "const": 1 }),
        other => panic!("no schema for field {other}"),
    }
}

/// The request fields of each op, and the schemas of its `ok` fields.
fn op_table(op: &str) -> (&'static [&'static str], Vec<(&'static str, Value)>) {
    let cursor_fields: &[&str] = &["serverSeed", "clientSeed", "nonce", "cursor"];
    let order = json!({ "type": "array", "items": uint(0, MAX_COUNT) });
    let card = uint(0, 51);
    let shoe_ok = vec![
        (
            "cards",
            json!({ "type": "array", "items": { "type": "string", "pattern": "^[A2-9TJQK][SHDC]$" }, "minItems": 52, "maxItems": 416 }),
        ),
        ("cut", uint(26, 401)),
    ];
    match op {
        "hello" => (
            &["protocol"],
            vec![
                ("name", json!({ "type": "string" })),
                ("ops", json!({ "type": "array", "items": { "enum": OPS } })),
            ],
        ),
        "cursor.hash" => (&["serverSeed"], vec![("hash", hex64())]),
        "cursor.raw" => (cursor_fields, vec![("raw", hex64())]),
        "cursor.float" => (
            cursor_fields,
            vec![(
                "float",
                json!({ "type": "number", "minimum": 0, "exclusiveMaximum": 1 }),
            )],
        ),
        "cursor.int" => (
            &["serverSeed", "clientSeed", "nonce", "cursor", "range"],
            vec![
                ("value", uint(0, MAX_SAFE_INTEGER)),
                ("cursorNext", json!({ "type": "integer", "minimum": 1 })),
            ],
        ),
        "cursor.shuffle" => (
            &["serverSeed", "clientSeed", "nonce", "cursor", "count"],
            vec![
                ("order", order),
                ("cursorNext", json!({ "type": "integer", "minimum": 0 })),
            ],
        ),
        "poker.deal" => (
            &["serverSeed", "clientSeed", "nonce", "players"],
            vec![
                (
                    "hole",
                    json!({ "type": "array", "items": { "type": "array", "items": card, "minItems": 2, "maxItems": 2 }, "minItems": 2, "maxItems": 22 }),
                ),
                (
                    "board",
                    json!({ "type": "array", "items": card, "minItems": 5, "maxItems": 5 }),
                ),
            ],
        ),
        "poker.evaluate" => (
            &["cards"],
            vec![
                ("category", json!({ "enum": CATEGORIES })),
                (
                    "ranks",
                    json!({ "type": "array", "items": uint(0, 14), "minItems": 5, "maxItems": 5 }),
                ),
            ],
        ),
        "shoe.deal" => (&["serverSeed", "clientSeed", "nonce", "decks", "penetration"], shoe_ok),
        "shoe.tournament" => (&["serverSeed", "tournamentId", "hand", "decks", "penetration"], shoe_ok),
        "dice.roll" => (&["serverSeed", "clientSeed", "n"], vec![("face", uint(1, 6))]),
        "selfpoker.commit" => (&["seed"], vec![("commit", hex64())]),
        "selfpoker.deck" => (
            &["seed"],
            vec![(
                "deck",
                json!({ "type": "array", "items": card, "minItems": 52, "maxItems": 52, "uniqueItems": true }),
            )],
        ),
        "ladder.shuffle" => (
            &["serverSeed", "clientSeed", "size"],
            vec![("order", json!({ "type": "array", "items": uint(0, MAX_COUNT) }))],
        ),
        other => panic!("unknown op {other}"),
    }
}

fn closed_object(props: Map<String, Value>) -> Value {
    let required: Vec<&String> = props.keys().collect();
    json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false })
}

/// The request object of `op` (`with_id` for a protocol line, without for a vector's `input`).
fn request(op: &str, with_id: bool) -> Value {
    let (fields, _) = op_table(op);
    let mut props = Map::new();
    if with_id {
        props.insert("id".into(), json!({ "type": "integer" }));
    }
    props.insert("op".into(), json!({ "const": op }));
    for f in fields {
        props.insert(f.to_string(), field(f));
    }
    closed_object(props)
}

/// The `ok` object of `op`.
fn ok(op: &str) -> Value {
    let (_, outs) = op_table(op);
    closed_object(outs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// harness/protocol.schema.json: one request line or one response line.
pub fn protocol() -> Value {
    let all_ops = std::iter::once("hello").chain(OPS);
    let mut defs = Map::new();
    let mut requests = Vec::new();
    let mut oks = Vec::new();
    for op in all_ops {
        defs.insert(format!("request:{op}"), request(op, true));
        defs.insert(format!("ok:{op}"), ok(op));
        requests.push(json!({ "$ref": format!("#/$defs/request:{op}") }));
        oks.push(json!({ "$ref": format!("#/$defs/ok:{op}") }));
    }
    defs.insert("request".into(), json!({ "oneOf": requests }));
    defs.insert(
        "response".into(),
        json!({
            "type": "object",
            "properties": {
                "id": { "type": ["integer", "null"] },
                // shoe.deal and shoe.tournament answer alike, so any match will do.
                "ok": { "anyOf": oks },
                "error": closed_object(
                    [("kind".to_string(), json!({ "enum": ["unsupported", "invalid", "exhausted"] })), ("message".to_string(), json!({ "type": "string" }))]
                        .into_iter()
                        .collect()
                ),
            },
            "required": ["id"],
            "oneOf": [{ "required": ["ok"] }, { "required": ["error"] }],
            "additionalProperties": false,
        }),
    );
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "provably target protocol, version 1: one request line or one response line",
        "description": "See docs/protocol.md. Generated by `provably vectors`; do not edit.",
        "$defs": defs,
        "anyOf": [{ "$ref": "#/$defs/request" }, { "$ref": "#/$defs/response" }],
    })
}

/// vectors/vectors.schema.json: a scheme's vector file, or the self-test bundle.
pub fn vectors() -> Value {
    let mut defs = Map::new();
    let mut groups = Vec::new();
    let mut selftests = Vec::new();
    let test = |op: &str, extra: Option<(&str, Value)>| {
        let mut props: Map<String, Value> = [
            ("tcId".to_string(), json!({ "type": "integer", "minimum": 1 })),
            ("comment".to_string(), json!({ "type": "string" })),
            (
                "flags".to_string(),
                json!({ "type": "array", "items": { "type": "string" }, "uniqueItems": true }),
            ),
            ("input".to_string(), json!({ "$ref": format!("#/$defs/input:{op}") })),
            (
                "expected".to_string(),
                json!({ "$ref": format!("#/$defs/expected:{op}") }),
            ),
        ]
        .into_iter()
        .collect();
        if let Some((k, v)) = extra {
            props.insert(k.into(), v);
        }
        closed_object(props)
    };
    for op in OPS {
        defs.insert(format!("input:{op}"), request(op, false));
        defs.insert(format!("expected:{op}"), ok(op));
        groups.push(json!({
            "type": "object",
            "properties": { "op": { "const": op }, "tests": { "type": "array", "items": test(op, None), "minItems": 1 } },
            "required": ["op", "tests"],
            "additionalProperties": false,
        }));
        let scheme = crate::protocol::scheme_of(op);
        selftests.push(test(op, Some(("scheme", json!({ "const": scheme })))));
    }
    defs.insert(
        "vectorFile".into(),
        json!({
            "type": "object",
            "properties": {
                "scheme": { "enum": ["cursor", "poker", "shoe", "dice", "selfpoker", "ladder"] },
                "source": { "type": "string" },
                "generatorVersion": { "type": "string" },
                "numberOfTests": { "type": "integer", "minimum": 1 },
                "notes": { "type": "object", "additionalProperties": { "type": "string" } },
                "testGroups": { "type": "array", "items": { "oneOf": groups }, "minItems": 1 },
            },
            "required": ["scheme", "source", "generatorVersion", "numberOfTests", "notes", "testGroups"],
            "additionalProperties": false,
        }),
    );
    defs.insert(
        "selftest".into(),
        json!({
            "type": "object",
            "properties": {
                "generator": { "type": "string" },
                "numberOfTests": { "type": "integer", "minimum": 1 },
                "tests": { "type": "array", "items": { "oneOf": selftests } },
            },
            "required": ["generator", "numberOfTests", "tests"],
            "additionalProperties": false,
        }),
    );
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "provably canonical vectors: one scheme's file, or the web page's self-test bundle",
        "description": "A test's input is a protocol v1 request without id; its expected is the ok object. Generated by `provably vectors`; do not edit.",
        "$defs": defs,
        "oneOf": [{ "$ref": "#/$defs/vectorFile" }, { "$ref": "#/$defs/selftest" }],
    })
}
