//! The op table: every registered op carries everything the layers read
//! from it, so a new op cannot land half-registered.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::root;

#[test]
fn every_op_has_canonical_vectors() {
    let with_vectors: BTreeSet<&str> = provably::vectors::schemes()
        .iter()
        .flat_map(|v| v.cases.iter().map(|c| c.request.op()))
        .collect();
    for o in provably::registry::ops() {
        assert!(
            with_vectors.contains(o.name),
            "{}: no vector in its scheme's vectors.rs",
            o.name
        );
    }
}

#[test]
fn every_op_belongs_to_the_scheme_its_name_says() {
    for s in provably::registry::schemes() {
        for o in s.ops {
            assert_eq!(o.scheme(), s.name, "{} is declared in scheme {}", o.name, s.name);
        }
    }
}

#[test]
fn every_op_has_request_and_ok_schemas_in_the_committed_protocol_schema() {
    let text = std::fs::read_to_string(root().join("harness/protocol.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    for o in provably::registry::ops() {
        for def in [format!("request:{}", o.name), format!("ok:{}", o.name)] {
            assert!(
                schema["$defs"].get(&def).is_some(),
                "harness/protocol.schema.json lacks {def}: run `provably vectors`"
            );
        }
    }
}

/// A generator's cases are requests the op answers: valid, and answered
/// `ok` (or, for dice, `exhausted`, which a generator cannot rule out).
#[test]
fn every_op_generates_requests_it_answers() {
    for o in provably::registry::ops() {
        let mut kinds = BTreeSet::new();
        for i in 0..40 {
            // Every eighth generated case is a negative one, checked in tests/negative.rs.
            let provably::harness::Ask::Request(request) = provably::harness::cases::generated(7, o, i).ask else {
                assert_eq!(i % 8, 7, "{}: only every eighth case is invalid", o.name);
                continue;
            };
            assert_eq!(request.op(), o.name);
            let reparsed = provably::registry::parse(&request.to_value()).expect("generated requests are valid");
            assert_eq!(reparsed, request, "{}: the wire form reads back", o.name);
            match request.run() {
                Ok(_) => kinds.insert("ok"),
                Err(e) => kinds.insert(e.kind()),
            };
        }
        assert_eq!(
            kinds,
            BTreeSet::from(["ok"]),
            "{}: generated cases must be answerable",
            o.name
        );
    }
}

/// `serve` and the harness write an answer with the op's own writer
/// (shuffles, shoes, hex fields skip serde): it must be the bytes serde
/// writes for the same answer as a value, on every vector and on generated
/// cases, or the harness's byte-for-byte fast path would call a conforming
/// target's answer different and parse it.
#[test]
fn every_answer_is_written_as_the_bytes_serde_writes_for_its_value() {
    let vectors = provably::vectors::schemes()
        .iter()
        .flat_map(|v| v.cases.iter().map(|c| c.request.clone()));
    let generated = provably::registry::ops().flat_map(|o| {
        (0..24).filter_map(move |i| match provably::harness::cases::generated(11, o, i).ask {
            provably::harness::Ask::Request(r) => Some(r),
            provably::harness::Ask::Invalid(_) => None,
        })
    });
    let mut ops = BTreeSet::new();
    for request in vectors.chain(generated) {
        let Ok(outcome) = request.run() else { continue };
        let mut written = Vec::new();
        outcome.write_json(&mut written);
        let by_serde = serde_json::to_vec(&outcome.to_value()).unwrap();
        assert!(
            written == by_serde,
            "{}: {} written, serde writes {}",
            request.op(),
            String::from_utf8_lossy(&written),
            String::from_utf8_lossy(&by_serde)
        );
        ops.insert(request.op());
    }
    assert_eq!(
        ops.len(),
        provably::registry::ops().count(),
        "every op answered at least once"
    );
}

/// The JavaScript implementation claims exactly the ops of the table.
#[test]
fn every_op_has_a_javascript_implementation() {
    let script = "import('./reference/js/provably.mjs').then(m => console.log(JSON.stringify(m.OPS)))";
    let out = duct::cmd("node", ["--input-type=module", "-e", script])
        .dir(root())
        .stdout_capture()
        .run()
        .expect("node runs reference/js/provably.mjs");
    let js: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    let js: BTreeSet<&str> = js.iter().map(String::as_str).collect();
    let rust: BTreeSet<&str> = provably::registry::ops().map(|o| o.name).collect();
    assert_eq!(js, rust, "reference/js claims other ops than the Rust op table");
}

/// The generators reach the classes the vectors pin, often enough that a
/// default run of 1,000 cases per op sends each of them: 1,000 cases of
/// each op, from a fixed seed, hit every class listed.
#[test]
fn generators_reach_every_class_of_input() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use provably::op::Kind;
    for o in provably::registry::ops() {
        let mut runner =
            TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[3; 32]));
        let mut seen = BTreeSet::new();
        for _ in 0..1000 {
            let r = (o.generate)().new_tree(&mut runner).unwrap().current();
            seen.extend(provably::vectors::derived_flags(&r).into_iter().map(|f| f.name()));
        }
        let mut want: Vec<&str> = Vec::new();
        let texts = o.fields.iter().filter(|f| f.kind == Kind::Text).count();
        if texts > 0 {
            want.extend([
                "EmptySeed",
                "Unicode",
                "HugeText",
                "Astral",
                "HighBmp",
                "Noncharacter",
                "Decomposed",
                "Compatibility",
                "Whitespace",
                "Control",
                "Invisible",
                "Colon",
            ]);
        }
        if o.secret
            .is_some_and(|s| o.field(s.field).is_some_and(|f| f.kind == Kind::Text))
        {
            want.push("LongKey");
        }
        if o.fields
            .iter()
            .any(|f| matches!(f.kind, Kind::Int { max, .. } if max > 1 << 32))
        {
            want.extend(["Int32Edge", "Uint32Edge", "MaxSafeInteger"]);
        }
        want.extend(o.reach.generated.iter().map(|f| f.name()));
        let missing: Vec<&&str> = want.iter().filter(|w| !seen.contains(**w)).collect();
        assert!(
            missing.is_empty(),
            "{}: 1,000 generated cases never reach {missing:?}",
            o.name
        );
    }
}

/// Adding an op touches its scheme's `ops.rs` and vectors file, one JS file
/// and the generated files (docs/contributing.md). So no hand-written file
/// may list every op: such a list would have to be edited for the next op.
/// Documentation (`*.md`) and the catalog of known bugs with its mutants
/// (harness/bugs/, tests/mutants/: written per op by design) are exempt; a manifest that runs every op says `ops = ["*"]`.
#[test]
fn no_hand_written_file_lists_every_op() {
    let ops: Vec<&str> = provably::registry::names();
    let generated = ["vectors/", "harness/protocol.schema.json", "reference/js/generated/"];
    let mut lists = Vec::new();
    let mut stack = vec![root().to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
            let skip = [
                ".git",
                "target",
                "node_modules",
                ".venv",
                "tests/mutants",
                "harness/bugs",
            ];
            if skip.iter().any(|s| rel == *s) || generated.iter().any(|g| rel.starts_with(g)) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if rel.ends_with(".md") || rel.ends_with(".png") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let named = ops
                .iter()
                .filter(|op| ['"', '\''].iter().any(|q| text.contains(&format!("{q}{op}{q}"))))
                .count();
            if named == ops.len() {
                lists.push(rel);
            }
        }
    }
    lists.sort();
    assert!(
        lists.is_empty(),
        "hand-written lists of every op (derive them from the op table): {lists:?}"
    );
}

/// Whether `rel` is a file of the scheme `scheme`'s own: its Rust folder,
/// its JS module, its views on the page, its vectors.
fn own_file(rel: &str, scheme: &str) -> bool {
    rel.starts_with(&format!("src/schemes/{scheme}/"))
        || rel == format!("reference/js/{scheme}.mjs")
        || rel.starts_with(&format!("reference/js/{scheme}/"))
        || (rel.starts_with(&format!("web/{scheme}")) && rel.ends_with(".mjs"))
}

/// Files that may name a scheme's ops by design: tests and benchmarks,
/// manifests and schemas (`harness/`), vectors and their sources, the
/// adapters of other programs (the stacks in the wild, the published
/// programs' driver), docs, the mutant catalog and what is generated.
fn may_name_ops(rel: &str) -> bool {
    let dirs = [
        "tests/",
        "benches/",
        "examples/",
        "scripts/",
        "docs/",
        "harness/",
        "vectors/",
        "src/vectors/",
        "src/wild/",
        "src/bin/wild",
        "reference/wild/",
        "reference/adapters/",
        "reference/js/bench/",
        "reference/js/testkit/",
        "reference/js/generated/",
        "reference/published/",
    ];
    dirs.iter().any(|d| rel.starts_with(d))
        || rel.contains("/test/")
        || rel == "src/harness/published.rs"
        || [".md", ".json", ".png", ".snap", ".lock"]
            .iter()
            .any(|e| rel.ends_with(e))
}

/// Every file of the repository (not `.git`, builds or installed packages), relative.
fn repository_files() -> Vec<String> {
    let mut files = Vec::new();
    let mut stack = vec![root().to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
            if [".git", "target", "node_modules", ".venv"].contains(&rel.as_str()) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(rel);
            }
        }
    }
    files.sort();
    files
}

/// A game's whole story lives in its declaration (issue "a game in one
/// place"): a product file outside a scheme's own files that names three
/// or more of its ops (as string literals) is a per-scheme list that the
/// next game of that scheme would have to be added to, and that a layer
/// could forget. Derive such lists from the op table instead.
#[test]
fn no_product_file_outside_a_scheme_lists_its_ops() {
    let mut lists = Vec::new();
    for rel in repository_files() {
        if may_name_ops(&rel) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root().join(&rel)) else {
            continue;
        };
        for scheme in provably::registry::schemes() {
            if own_file(&rel, scheme.name) {
                continue;
            }
            let named: Vec<&str> = scheme
                .ops
                .iter()
                .map(|o| o.name)
                .filter(|op| ['"', '\''].iter().any(|q| text.contains(&format!("{q}{op}{q}"))))
                .collect();
            if named.len() >= 3 {
                lists.push(format!(
                    "{rel}: {} of {} ({})",
                    named.len(),
                    scheme.name,
                    named.join(", ")
                ));
            }
        }
    }
    assert!(
        lists.is_empty(),
        "files that list a scheme's ops by hand (declare it with the op instead):\n{}",
        lists.join("\n")
    );
}

/// The strict reader refuses a request or round of more than
/// `base::json::MAX_ITEMS` list items and object members (so that a 60 MB
/// round of zeros is not built as 2 GB of values). Every op's largest
/// answer, each integer field in turn at its largest value, stays below
/// half of that: no honest round comes near the limit.
#[test]
fn no_answer_comes_near_the_item_limit_of_the_strict_reader() {
    fn items(v: &Value) -> usize {
        match v {
            Value::Array(a) => a.len() + a.iter().map(items).sum::<usize>(),
            Value::Object(m) => m.len() + m.values().map(items).sum::<usize>(),
            _ => 0,
        }
    }
    let limit = provably::base::json::MAX_ITEMS / 2;
    let mut largest = (0, String::new());
    for o in provably::registry::ops() {
        let provably::harness::Ask::Request(request) = provably::harness::cases::generated(7, o, 0).ask else {
            panic!("{}: the first generated case is a request", o.name);
        };
        let base = request.to_value();
        for f in o.fields {
            let provably::op::Kind::Int { max, only, .. } = f.kind else {
                continue;
            };
            let mut input = base.clone();
            input[f.name] = Value::from(only.and_then(|v| v.last().copied()).unwrap_or(max));
            let Ok(request) = provably::registry::parse(&input) else {
                continue;
            };
            if let Ok(outcome) = request.run() {
                let n = items(&outcome.to_value());
                assert!(n < limit, "{} with {} = {max}: {n} items", o.name, f.name);
                if n > largest.0 {
                    largest = (n, format!("{} {}", o.name, f.name));
                }
            }
        }
    }
    // The shuffles of MAX_COUNT entries: the test reaches the largest answers.
    assert!(largest.0 >= 100_000, "largest answer reached: {largest:?}");
}
