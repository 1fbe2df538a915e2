//! The JSON Schemas of the vector files and of protocol v1, generated from
//! the op table ([`crate::op`]) so that neither can drift from the parser.
//! `provably vectors` writes both; `--check` holds them to the code.

use serde_json::{json, Map, Value};

use crate::op::{self, Kind, OpSpec};

/// The schema of a request field.
fn field(kind: Kind) -> Value {
    match kind {
        Kind::Text => json!({ "type": "string" }),
        Kind::Int { only: Some(values), .. } => json!({ "type": "integer", "enum": values }),
        Kind::Int { min, max, .. } => uint(min, max),
        Kind::Fraction => json!({ "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1 }),
        Kind::Cards { min, max, max_copies } => cards(min, max, max_copies),
        Kind::DecimalSeed => {
            json!({ "type": "string", "pattern": "^(0|[1-9][0-9]{0,18})$", "description": "plain decimal, below 2^63" })
        }
        Kind::Bool => json!({ "type": "boolean" }),
        Kind::Word(words) => json!({ "type": "string", "enum": words }),
        Kind::Hex64 => json!({ "type": "string", "pattern": "^[0-9a-f]{64}$" }),
    }
}

/// An object with exactly these properties, all required but `optional`.
fn closed_object(props: Map<String, Value>, optional: &[&str]) -> Value {
    let required: Vec<String> = props
        .keys()
        .filter(|k| !optional.contains(&k.as_str()))
        .cloned()
        .collect();
    json!({ "type": "object", "properties": Value::Object(props), "required": required, "additionalProperties": false })
}

/// The request object of `op` (`with_id` for a protocol line, without for a vector's `input`).
fn request(op: &OpSpec, with_id: bool) -> Value {
    let mut props = Map::new();
    if with_id {
        props.insert("id".into(), json!({ "type": "integer" }));
    }
    props.insert("op".into(), json!({ "const": op.name }));
    for f in op.fields {
        let mut schema = field(f.kind);
        // An optional field says what a request that leaves it out gets.
        match f.default {
            Some(op::FieldDefault::Bool(b)) => schema["default"] = Value::Bool(b),
            Some(op::FieldDefault::Int(v)) => schema["default"] = Value::from(v),
            None => {}
        }
        props.insert(f.name.to_string(), schema);
    }
    let optional: Vec<&str> = op
        .fields
        .iter()
        .filter(|f| f.default.is_some())
        .map(|f| f.name)
        .collect();
    closed_object(props, &optional)
}

/// The `ok` object of `op`.
fn ok(op: &OpSpec) -> Value {
    closed_object(
        op.ok.iter().map(|f| (f.name.to_string(), f.shape.schema())).collect(),
        &[],
    )
}

/// The handshake's request and `ok` objects.
fn hello() -> (Value, Value) {
    let request = closed_object(
        [
            ("id".to_string(), json!({ "type": "integer" })),
            ("op".to_string(), json!({ "const": "hello" })),
            ("protocol".to_string(), json!({ "const": 1 })),
        ]
        .into_iter()
        .collect(),
        &[],
    );
    let ok = closed_object(
        [
            ("name".to_string(), json!({ "type": "string" })),
            (
                "ops".to_string(),
                json!({ "type": "array", "items": { "enum": crate::registry::names() } }),
            ),
        ]
        .into_iter()
        .collect(),
        &[],
    );
    (request, ok)
}

/// An integer in `min ..= max`.
fn uint(min: u64, max: u64) -> Value {
    json!({ "type": "integer", "minimum": min, "maximum": max })
}

/// A list of card numbers 0..=51, `min ..= max` of them, no card number
/// more than `max_copies` times. JSON Schema has no keyword for "each
/// value at most n times", so for 1 < n < max the limit is written out
/// card by card (`contains` with `maxContains`), which is exact.
fn cards(min: usize, max: usize, max_copies: usize) -> Value {
    let mut s = json!({ "type": "array", "items": uint(0, 51), "minItems": min, "maxItems": max });
    if max_copies == 1 {
        s["uniqueItems"] = Value::Bool(true);
    } else if max_copies < max {
        let each: Vec<Value> = (0..52)
            .map(|c| json!({ "contains": { "const": c }, "minContains": 0, "maxContains": max_copies }))
            .collect();
        s["allOf"] = Value::Array(each);
        s["description"] = Value::from(format!("no card number more than {max_copies} times"));
    }
    s
}

/// harness/protocol.schema.json: one request line or one response line.
pub(crate) fn protocol() -> Value {
    let mut defs = Map::new();
    let (hello_request, hello_ok) = hello();
    defs.insert("request:hello".into(), hello_request);
    defs.insert("ok:hello".into(), hello_ok);
    let mut requests = vec![json!({ "$ref": "#/$defs/request:hello" })];
    let mut oks = vec![json!({ "$ref": "#/$defs/ok:hello" })];
    for op in crate::registry::ops() {
        let name = op.name;
        defs.insert(format!("request:{name}"), request(op, true));
        defs.insert(format!("ok:{name}"), ok(op));
        requests.push(json!({ "$ref": format!("#/$defs/request:{name}") }));
        oks.push(json!({ "$ref": format!("#/$defs/ok:{name}") }));
    }
    defs.insert("request".into(), json!({ "oneOf": requests }));
    let error = closed_object(
        [
            (
                "kind".to_string(),
                json!({ "enum": ["unsupported", "invalid", "exhausted", "declined"] }),
            ),
            ("message".to_string(), json!({ "type": "string" })),
        ]
        .into_iter()
        .collect(),
        &[],
    );
    defs.insert(
        "response".into(),
        json!({
            "type": "object",
            "properties": {
                "id": { "type": ["integer", "null"] },
                // shoe.deal and shoe.tournament answer alike, so any match will do.
                "ok": { "anyOf": oks },
                "error": error,
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

/// The members every test has.
fn test_members(result: &str) -> Map<String, Value> {
    [
        ("tcId".to_string(), json!({ "type": "integer", "minimum": 1 })),
        ("comment".to_string(), json!({ "type": "string" })),
        (
            "flags".to_string(),
            json!({ "type": "array", "items": { "type": "string" }, "uniqueItems": true }),
        ),
        ("result".to_string(), json!({ "const": result })),
    ]
    .into_iter()
    .collect()
}

/// One valid test of `op` in a vector file (or, with `scheme`, in the self-test bundle).
fn test(op: &str, scheme: Option<&str>) -> Value {
    let mut props = test_members("valid");
    props.insert("input".into(), json!({ "$ref": format!("#/$defs/input:{op}") }));
    props.insert("expected".into(), json!({ "$ref": format!("#/$defs/expected:{op}") }));
    if let Some(scheme) = scheme {
        props.insert("scheme".into(), json!({ "const": scheme }));
    }
    closed_object(props, &[])
}

/// One invalid test: a request line without id that every implementation
/// must answer with kind `invalid`; `input` is the line as a JSON value when
/// it is one (not for a key given twice or a lone surrogate).
fn invalid_test(schemes: Option<&[&str]>) -> Value {
    let mut props = test_members("invalid");
    props.insert(
        "line".into(),
        json!({ "type": "string", "pattern": "^\\{", "description": "the exact request text without id" }),
    );
    props.insert("input".into(), json!({ "type": "object" }));
    if let Some(schemes) = schemes {
        props.insert("scheme".into(), json!({ "enum": schemes }));
    }
    closed_object(props, &["input"])
}

/// vectors/vectors.schema.json: a scheme's vector file, or the self-test bundle.
pub(crate) fn vectors() -> Value {
    let mut defs = Map::new();
    let mut groups = Vec::new();
    let mut selftests = Vec::new();
    for op in crate::registry::ops() {
        let name = op.name;
        defs.insert(format!("input:{name}"), request(op, false));
        defs.insert(format!("expected:{name}"), ok(op));
        groups.push(json!({
            "type": "object",
            "properties": { "op": { "const": name }, "tests": { "type": "array", "items": { "oneOf": [test(name, None), { "$ref": "#/$defs/invalidTest" }] }, "minItems": 1 } },
            "required": ["op", "tests"],
            "additionalProperties": false,
        }));
        selftests.push(test(name, Some(op.scheme())));
    }
    let schemes: Vec<&str> = crate::registry::schemes().iter().map(|s| s.name).collect();
    defs.insert("invalidTest".into(), invalid_test(None));
    selftests.push(invalid_test(Some(&schemes)));
    defs.insert(
        "vectorFile".into(),
        json!({
            "type": "object",
            "properties": {
                "scheme": { "enum": schemes },
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
                "omitted": {
                    "type": "object",
                    "description": "vectors of the scheme files left out of the bundle, and why",
                    "properties": {
                        "note": { "type": "string" },
                        "tests": {
                            "type": "array",
                            "items": closed_object(
                                [
                                    ("scheme".to_string(), json!({ "enum": schemes })),
                                    ("tcId".to_string(), json!({ "type": "integer", "minimum": 1 })),
                                    ("comment".to_string(), json!({ "type": "string" })),
                                ]
                                .into_iter()
                                .collect(),
                                &[],
                            ),
                        },
                    },
                    "required": ["note", "tests"],
                    "additionalProperties": false,
                },
            },
            "required": ["generator", "numberOfTests", "tests", "omitted"],
            "additionalProperties": false,
        }),
    );
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "provably canonical vectors: one scheme's file, or the web page's self-test bundle",
        "description": "A valid test's input is a protocol v1 request without id and its expected the ok object; an invalid test's line is a request text without id that must be answered with error kind invalid. Generated by `provably vectors`; do not edit.",
        "$defs": defs,
        "oneOf": [{ "$ref": "#/$defs/vectorFile" }, { "$ref": "#/$defs/selftest" }],
    })
}

/// An `ok` field's schema as an observation may hold it: any array may be
/// shorter or longer (lengths are compared, not enforced), hold `null` for
/// an item not seen, and repeat items.
fn observed(schema: &Value) -> Value {
    let Value::Object(m) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (k, v) in m {
        match k.as_str() {
            "minItems" | "maxItems" | "uniqueItems" => {}
            "items" => {
                out.insert(k.clone(), json!({ "anyOf": [observed(v), { "type": "null" }] }));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// A round of `op` in a proof: the request without its secret, with
/// `seats` for `clientSeed`, `external` and `observed`.
fn proof_round(op: &OpSpec) -> Value {
    let secret = op.secret.map(|s| s.field);
    let client = op::fields::CLIENT_SEED.name;
    let mut props = Map::new();
    props.insert("op".into(), json!({ "const": op.name }));
    for f in op.fields.iter().filter(|f| Some(f.name) != secret) {
        props.insert(f.name.to_string(), field(f.kind));
    }
    let takes_seats = op.field(client).is_some();
    if takes_seats {
        props.insert("seats".into(), json!({ "$ref": "#/$defs/seats" }));
    }
    props.insert(
        "external".into(),
        json!({ "type": "string", "minLength": 1, "maxLength": crate::proof::round::MAX_EXTERNAL, "description": "the round did not come from the seed (Telegram's dice): skipped with this reason" }),
    );
    let ok: Map<String, Value> = op
        .ok
        .iter()
        .map(|f| (f.name.to_string(), observed(&f.shape.schema())))
        .collect();
    props.insert(
        "observed".into(),
        json!({ "type": "object", "properties": ok, "additionalProperties": false }),
    );
    let mut optional: Vec<&str> = op
        .fields
        .iter()
        .filter(|f| f.default.is_some())
        .map(|f| f.name)
        .collect();
    optional.extend(["seats", "external", "observed"]);
    if takes_seats {
        optional.push(client);
    }
    let mut round = closed_object(props, &optional);
    if takes_seats {
        round["oneOf"] = json!([{ "required": [client] }, { "required": ["seats"] }]);
    }
    round
}

/// One epoch definition per kind of secret (and one for rounds without a
/// secret), each listing the rounds it may hold; returns their references.
fn epoch_defs(rounds: &[&OpSpec], defs: &mut Map<String, Value>) -> Vec<Value> {
    let commit = json!({ "anyOf": [{ "type": "string", "pattern": "^[0-9a-fA-F]{64}$" }, { "type": "null" }] });
    let mut epochs = Vec::new();
    let mut groups: Vec<Option<(&'static str, Kind)>> = vec![None];
    for o in rounds {
        if let Some(s) = o.secret {
            let kind = o.field(s.field).expect("the secret is a field").kind;
            if !groups.contains(&Some((s.field, kind))) {
                groups.push(Some((s.field, kind)));
            }
        }
    }
    for group in groups {
        let members: Vec<Value> = rounds
            .iter()
            .filter(|o| o.secret.is_none() || o.secret.map(|s| s.field) == group.map(|g| g.0))
            .map(|o| json!({ "$ref": format!("#/$defs/round:{}", o.name) }))
            .collect();
        let mut props = Map::new();
        // Without a secret there is nothing to check a commitment against.
        props.insert(
            "commit".into(),
            if group.is_some() {
                commit.clone()
            } else {
                json!({ "type": "null" })
            },
        );
        if let Some((name, kind)) = group {
            props.insert(name.into(), field(kind));
        }
        props.insert(
            "rounds".into(),
            json!({ "type": "array", "items": { "anyOf": members } }),
        );
        let name = group.map_or("epoch:none".to_string(), |g| format!("epoch:{}", g.0));
        defs.insert(name.clone(), closed_object(props, &["commit"]));
        epochs.push(json!({ "$ref": format!("#/$defs/{name}") }));
    }
    epochs
}

/// A crash history's epoch (version 2, docs/proofs.md "Crash histories"):
/// `chain` (terminating hash, link, first game, salt, and the variant: a
/// game op and its parameters) and its games.
fn chain_epoch(defs: &mut Map<String, Value>) -> Value {
    let games: Vec<&OpSpec> = crate::registry::ops()
        .filter(|o| crate::proof::chain::is_game_op(o))
        .collect();
    let variants: Vec<Value> = games
        .iter()
        .map(|o| {
            let mut v = request(o, false);
            let props = v["properties"].as_object_mut().expect("properties");
            props.remove("hash");
            props.remove("salt");
            let required: Vec<Value> = v["required"]
                .as_array()
                .expect("required")
                .iter()
                .filter(|r| *r != "hash" && *r != "salt")
                .cloned()
                .collect();
            v["required"] = Value::from(required);
            v
        })
        .collect();
    let chain = closed_object(
        [
            ("terminatingHash".to_string(), field(Kind::Hex64)),
            ("link".to_string(), field(Kind::Word(&crate::schemes::crash::LINKS))),
            ("firstGame".to_string(), uint(0, op::error::MAX_SAFE_INTEGER)),
            ("salt".to_string(), field(Kind::Text)),
            ("variant".to_string(), json!({ "anyOf": variants })),
        ]
        .into_iter()
        .collect(),
        &["firstGame"],
    );
    let observed: Vec<Value> = games
        .iter()
        .map(|o| {
            let ok: Map<String, Value> =
                o.ok.iter()
                    .map(|f| (f.name.to_string(), observed(&f.shape.schema())))
                    .collect();
            json!({ "type": "object", "properties": ok, "additionalProperties": false })
        })
        .collect();
    let game = closed_object(
        [
            ("game".to_string(), uint(0, op::error::MAX_SAFE_INTEGER)),
            ("hash".to_string(), field(Kind::Hex64)),
            ("observed".to_string(), json!({ "anyOf": observed })),
        ]
        .into_iter()
        .collect(),
        &["hash", "observed"],
    );
    defs.insert("game".into(), game);
    defs.insert(
        "epoch:chain".into(),
        closed_object(
            [
                ("chain".to_string(), chain),
                (
                    "rounds".to_string(),
                    json!({ "type": "array", "items": { "$ref": "#/$defs/game" } }),
                ),
            ]
            .into_iter()
            .collect(),
            &[],
        ),
    );
    json!({ "$ref": "#/$defs/epoch:chain" })
}

/// vectors/proof.schema.json: a proof document (its `$defs/epoch` is one
/// line of a JSON-lines archive), the report of `provably audit --report`,
/// and the proof vector file.
pub(crate) fn proof() -> Value {
    let mut defs = Map::new();
    let rounds: Vec<&OpSpec> = crate::registry::ops()
        .filter(|o| o.secret.is_none_or(|s| s.commit_op != o.name))
        .collect();
    for o in &rounds {
        defs.insert(format!("round:{}", o.name), proof_round(o));
    }
    defs.insert(
        "seats".into(),
        json!({
            "type": "array",
            "description": "the client seed is the seeds ordered by ascending player, concatenated; a player may sit once",
            "items": closed_object(
                [("player".to_string(), uint(0, crate::op::error::MAX_SAFE_INTEGER)), ("seed".to_string(), json!({ "type": "string" }))]
                    .into_iter()
                    .collect(),
                &[],
            ),
        }),
    );
    let mut epochs = epoch_defs(&rounds, &mut defs);
    epochs.push(chain_epoch(&mut defs));
    defs.insert("epoch".into(), json!({ "anyOf": epochs }));
    defs.insert(
        "document".into(),
        closed_object(
            [
                ("proof".to_string(), json!({ "enum": crate::proof::READS })),
                ("title".to_string(), json!({ "type": "string" })),
                (
                    "epochs".to_string(),
                    json!({ "type": "array", "items": { "$ref": "#/$defs/epoch" } }),
                ),
            ]
            .into_iter()
            .collect(),
            &["title"],
        ),
    );
    report_defs(&mut defs);
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "provably proof document, versions 1 and 2 (docs/proofs.md; 2 holds crash histories); a JSON-lines archive holds one #/$defs/epoch per line",
        "description": "Generated by `provably vectors` from the op table; do not edit. Not expressible here: a player seated twice, a key given twice, and which secret an op takes are checked by the reader.",
        "$defs": defs,
        "$ref": "#/$defs/document",
    })
}

/// The counts of an audit (report, file, partial part), in report order.
const COUNT_KEYS: [&str; 12] = [
    "epochs",
    "rounds",
    "match",
    "mismatch",
    "skipped",
    "invalid",
    "unobserved",
    "commitOk",
    "commitMismatch",
    "commitAbsent",
    "invalidOther",
    "gaps",
];

/// vectors/partial.schema.json: one line of a partial audit (`provably
/// audit --partial`, src/proof/partial.rs); a partial is JSON lines, each
/// line one `record`.
pub(crate) fn partial() -> Value {
    let count = json!({ "type": "integer", "minimum": 0 });
    let index = json!({ "type": ["integer", "null"], "minimum": 0 });
    let obj = |props: Vec<(&str, Value)>, optional: &[&str]| {
        closed_object(props.into_iter().map(|(k, v)| (k.to_string(), v)).collect(), optional)
    };
    let one = |key: &str, body: Value| obj(vec![(key, body)], &[]);
    let counts = obj(COUNT_KEYS.iter().map(|k| (*k, count.clone())).collect(), &[]);
    let records = vec![
        one(
            "partial",
            obj(
                vec![
                    ("version", json!({ "const": crate::proof::partial::PARTIAL_VERSION })),
                    (
                        "provably",
                        json!({ "type": "string", "description": "the version of provably that wrote it: parts of two versions do not merge" }),
                    ),
                    (
                        "stats",
                        json!({ "type": "boolean", "description": "audited with --stats: then the last line is `statistics`" }),
                    ),
                ],
                &[],
            ),
        ),
        one(
            "part",
            obj(
                vec![
                    (
                        "source",
                        json!({ "type": "string", "description": "the whole input this part is of (the report's file)" }),
                    ),
                    ("firstEpoch", count.clone()),
                    ("firstLine", count.clone()),
                ],
                &[],
            ),
        ),
        one("finding", closed_object(finding_props(&index), &[])),
        one(
            "bets",
            obj(
                vec![
                    ("server", json!({ "type": "string" })),
                    ("client", json!({ "type": "string" })),
                    ("nonce", count.clone()),
                    ("count", json!({ "type": "integer", "minimum": 1 })),
                    ("epoch", count.clone()),
                    ("round", count.clone()),
                    ("line", json!({ "type": ["integer", "null"], "minimum": 1 })),
                    (
                        "verdict",
                        json!({ "enum": ["match", "mismatch", "skipped", "unobserved"] }),
                    ),
                    (
                        "game",
                        json!({ "const": true, "description": "games of a crash history: server is its chain, nonce its first game" }),
                    ),
                ],
                &["game"],
            ),
        ),
        one("end", partial_end(counts)),
        one("statistics", partial_tables()),
        one("close", partial_close()),
    ];
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "provably partial audit, one line (docs/scale.md)",
        "description": "Generated by `provably vectors`; do not edit. A partial is JSON lines: a `partial` header, then per part a `part`, its `finding` and `bets` records in document order and an `end` (its length and digest), with --stats a `statistics` line, and last a `close` (the parts and the digest of every line before).",
        "$defs": { "record": { "oneOf": records } },
        "$ref": "#/$defs/record",
    })
}

/// The `end` record of a partial's part: its counts, length and digest.
fn partial_end(counts: Value) -> Value {
    let records = json!({ "type": "integer", "minimum": 1, "description": "the part's records before this one, its `part` included" });
    let props = [
        ("counts", counts),
        ("records", records),
        ("sha256", sha256("of those records' lines, newlines included")),
    ];
    closed_object(props.into_iter().map(|(k, v)| (k.to_string(), v)).collect(), &[])
}

/// The `close` record, a partial's last line: its parts and the digest of every line before.
fn partial_close() -> Value {
    let props = [
        ("parts", json!({ "type": "integer", "minimum": 0 })),
        ("sha256", sha256("of every line before this one, newlines included")),
    ];
    closed_object(props.into_iter().map(|(k, v)| (k.to_string(), v)).collect(), &[])
}

/// A SHA-256 in lowercase hex, and what of.
fn sha256(of: &str) -> Value {
    json!({ "type": "string", "pattern": "^[0-9a-f]{64}$", "description": format!("SHA-256 {of}") })
}

/// The `statistics` record of a partial: the count tables (src/proof/partial.rs).
fn partial_tables() -> Value {
    let count = json!({ "type": "integer", "minimum": 0 });
    let counts_array = json!({ "type": "array", "items": count.clone() });
    let obj = |props: Vec<(&str, Value)>, optional: &[&str]| {
        closed_object(props.into_iter().map(|(k, v)| (k.to_string(), v)).collect(), optional)
    };
    obj(
        vec![
            ("rounds", count.clone()),
            ("untested", count.clone()),
            (
                "tables",
                json!({ "type": "array", "items": obj(
                            vec![
                                ("op", json!({ "type": "string" })),
                                ("a", count.clone()),
                                ("b", count.clone()),
                                ("rounds", count.clone()),
                                ("counts", counts_array.clone()),
                                ("pairs", counts_array.clone()),
                            ],
                            &[],
                        ) }),
            ),
            (
                "past",
                json!({ "type": "array", "items": obj(
                            vec![("op", json!({ "type": "string" })), ("a", count.clone()), ("b", count.clone())],
                            &[],
                        ) }),
            ),
        ],
        &[],
    )
}

/// The members of one finding of an audit report (docs/proofs.md).
fn finding_props(index: &Value) -> Map<String, Value> {
    [
        ("epoch", index.clone()),
        ("round", index.clone()),
        (
            "kind",
            json!({ "enum": ["mismatch", "commit", "invalid", "skipped", "unobserved", "gap"] }),
        ),
        ("field", json!({ "type": ["string", "null"] })),
        ("index", index.clone()),
        ("derived", json!({})),
        ("observed", json!({})),
        ("reason", json!({ "type": ["string", "null"] })),
        ("line", json!({ "type": ["integer", "null"], "minimum": 1 })),
        ("differences", json!({ "type": ["integer", "null"], "minimum": 1 })),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The report, a finding and the proof vector file.
fn report_defs(defs: &mut Map<String, Value>) {
    let count = json!({ "type": "integer", "minimum": 0 });
    let index = json!({ "type": ["integer", "null"], "minimum": 0 });
    let counts: Vec<(String, Value)> = COUNT_KEYS
        .iter()
        .map(|k| ((*k).to_string(), count.clone()))
        .chain([(
            "verdict".to_string(),
            json!({ "enum": ["match", "unobserved", "mismatch", "invalid"] }),
        )])
        .collect();
    let finding = finding_props(&index);
    defs.insert("finding".into(), closed_object(finding.clone(), &[]));
    let mut with_file = finding;
    with_file.insert("file".into(), json!({ "type": "string" }));
    defs.insert("reportFinding".into(), closed_object(with_file, &[]));
    let mut file: Map<String, Value> = counts.iter().cloned().collect();
    file.insert("file".into(), json!({ "type": "string" }));
    let mut report: Map<String, Value> = counts.iter().cloned().collect();
    report.insert(
        "files".into(),
        json!({ "type": "array", "items": closed_object(file, &[]) }),
    );
    // `audit --stats` only (docs/statistics.md).
    report.insert("statistics".into(), crate::stats::schema());
    report.insert(
        "findings".into(),
        json!({ "type": "array", "items": { "$ref": "#/$defs/reportFinding" } }),
    );
    defs.insert("report".into(), closed_object(report, &["statistics"]));
    let mut expected: Map<String, Value> = counts.into_iter().collect();
    expected.insert(
        "findings".into(),
        json!({ "type": "array", "items": { "$ref": "#/$defs/finding" } }),
    );
    let test = closed_object(
        [
            ("tcId".to_string(), json!({ "type": "integer", "minimum": 1 })),
            ("comment".to_string(), json!({ "type": "string" })),
            ("class".to_string(), json!({ "enum": ["valid", "tampered", "invalid"] })),
            ("text".to_string(), json!({ "type": "string" })),
            ("expected".to_string(), closed_object(expected, &[])),
        ]
        .into_iter()
        .collect(),
        &[],
    );
    defs.insert(
        "vectorFile".into(),
        json!({
            "type": "object",
            "properties": {
                "format": { "type": "string" },
                "generatorVersion": { "type": "string" },
                "notes": { "type": "object", "additionalProperties": { "type": "string" } },
                "numberOfTests": { "type": "integer", "minimum": 1 },
                "tests": { "type": "array", "items": test, "minItems": 1 },
            },
            "required": ["format", "generatorVersion", "notes", "numberOfTests", "tests"],
            "additionalProperties": false,
        }),
    );
}
