//! One document, one verdict: the audit reads some documents on fast paths
//! (keys and seeds without escapes, a shoe's labels at their stride, whole
//! epochs handed to workers) and the rest through serde. Every proof vector
//! and example, written again in ways that change its bytes but not its
//! meaning (white space anywhere, key order, `\u` escapes in keys and
//! strings, an escaped solidus, a BOM, CRLF, one document or JSON lines),
//! gets the report of the original, however it is read (one worker or
//! seven, batches of one round, with `--stats`);
//! with its keys in another order the same findings, listed where what they
//! are about stands in the text (docs/proofs.md). Two rules of the format
//! stay: a document's first key is the seven bytes `"proof"`, and a key
//! given twice is a finding (a `Value` cannot write one).
//! Integers written `6.0` or `6e0` change the meaning under the documented
//! rule (docs/proofs.md: an integer field takes an integer literal), so
//! there only the readers must agree with each other.
//!
//! CI runs 256 cases (about 3 s); `PROPTEST_CASES=20000 cargo test
//! --features wild --test tests reading::` goes deeper.

use proptest::prelude::*;
use proptest::test_runner::TestRng;
use serde_json::{json, Value};

use provably::proof::run::{Audit, Options};
use provably::proof::Counts;

use crate::support::root;

/// Every proof the project holds whose meaning a `Value` keeps: the proof
/// vectors and the examples, minus texts that are no JSON or give a key
/// twice (a `Value` cannot say either).
fn proofs() -> Vec<(String, Value)> {
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("vectors/proofs.json")).unwrap()).unwrap();
    let mut texts: Vec<(String, String)> = file["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["comment"].as_str().unwrap().to_string(),
                t["text"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for entry in std::fs::read_dir(root().join("examples/proofs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            texts.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    let mut out = Vec::new();
    for (name, text) in texts {
        // JSON lines become a document of their epochs (written back as lines below).
        let value = serde_json::from_str::<Value>(&text).ok().or_else(|| {
            let epochs: Option<Vec<Value>> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).ok())
                .collect();
            epochs.map(|e| json!({ "proof": 1, "epochs": e }))
        });
        let Some(value) = value else { continue };
        if text.contains("given twice") || name.contains("key given twice") {
            continue;
        }
        out.push((name, value));
    }
    assert!(out.len() > 40, "the proofs to rewrite: {}", out.len());
    out
}

/// How a text is rewritten.
#[derive(Debug, Clone, Copy)]
struct Style {
    /// Probability (per mille) of white space at each place it may go.
    space: u32,
    /// Keys in a random order.
    shuffle: bool,
    /// Probability (per mille) of a `\u` escape for each character of a string.
    escape: u32,
    /// `/` written `\/`.
    solidus: bool,
    /// Integers written `n.0` or `ne0` (per mille).
    number: u32,
    bom: bool,
    crlf: bool,
}

fn space(out: &mut String, rng: &mut TestRng, style: &Style, newlines: bool) {
    while rng.random_range(0..1000) < style.space {
        let choices: &[&str] = if newlines {
            if style.crlf {
                &[" ", "\t", "\r\n", "  "]
            } else {
                &[" ", "\t", "\n", "  "]
            }
        } else {
            &[" ", "\t", "  "]
        };
        out.push_str(choices[rng.random_range(0..choices.len())]);
    }
}

fn string(out: &mut String, s: &str, rng: &mut TestRng, style: &Style) {
    out.push('"');
    for c in s.chars() {
        let escape = rng.random_range(0..1000) < style.escape;
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' if style.solidus => out.push_str("\\/"),
            c if (c as u32) < 0x20 || escape => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    // Upper or lower case hex: both are JSON.
                    if rng.random_bool(0.5) {
                        out.push_str(&format!("\\u{u:04x}"));
                    } else {
                        out.push_str(&format!("\\u{u:04X}"));
                    }
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write(out: &mut String, v: &Value, rng: &mut TestRng, style: &Style, newlines: bool) {
    space(out, rng, style, newlines);
    match v {
        Value::Object(m) => {
            out.push('{');
            let mut keys: Vec<&String> = m.keys().collect();
            if style.shuffle {
                for i in (1..keys.len()).rev() {
                    keys.swap(i, rng.random_range(0..=i));
                }
                // A document is one by its first key (docs/proofs.md): that order is the format's.
                if let Some(p) = keys.iter().position(|k| *k == "proof" && m.contains_key("epochs")) {
                    let k = keys.remove(p);
                    keys.insert(0, k);
                }
            }
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(out, rng, style, newlines);
                if *k == "proof" && m.contains_key("epochs") {
                    // The document's mark is seven bytes, not a key's meaning (docs/proofs.md).
                    out.push_str("\"proof\"");
                } else {
                    string(out, k, rng, style);
                }
                space(out, rng, style, newlines);
                out.push(':');
                write(out, &m[*k], rng, style, newlines);
            }
            space(out, rng, style, newlines);
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, x, rng, style, newlines);
            }
            space(out, rng, style, newlines);
            out.push(']');
        }
        Value::String(s) => string(out, s, rng, style),
        Value::Number(n) if n.is_u64() && rng.random_range(0..1000) < style.number => {
            if rng.random_bool(0.5) {
                out.push_str(&format!("{n}.0"));
            } else {
                out.push_str(&format!("{n}e0"));
            }
        }
        other => out.push_str(&other.to_string()),
    }
    space(out, rng, style, newlines);
}

/// The document as one text, or as JSON lines of its epochs.
fn render(doc: &Value, rng: &mut TestRng, style: &Style, lines: bool) -> String {
    let mut out = String::new();
    if style.bom {
        out.push('\u{feff}');
    }
    if lines {
        for e in doc["epochs"].as_array().unwrap() {
            write(&mut out, e, rng, style, false);
            out.push_str(if style.crlf { "\r\n" } else { "\n" });
        }
    } else {
        write(&mut out, doc, rng, style, true);
    }
    out
}

/// Whether the document's epochs alone say all it says (no document
/// field of its own but its version and title), so it can be JSON lines.
fn lines_say_the_same(doc: &Value) -> bool {
    doc.as_object().is_some_and(|m| {
        m.get("proof") == Some(&json!(1))
            && m.get("epochs").is_some_and(Value::is_array)
            && m.keys().all(|k| ["proof", "epochs", "title"].contains(&k.as_str()))
    })
}

/// The whole outcome of an audit: counts, findings (their lines left out,
/// which a JSON-lines archive has and a document has not) and statistics.
fn outcome(text: &str, options: &Options) -> Value {
    let mut audit = Audit::new(options);
    let mut findings = Vec::new();
    let mut counts: Counts = audit
        .file(0, text.as_bytes(), &mut |e| {
            findings.extend_from_slice(e.findings());
            Ok(())
        })
        .unwrap();
    audit
        .finish(&mut |_, e| {
            counts.add(e);
            findings.extend_from_slice(e.findings());
            Ok(())
        })
        .unwrap();
    let mut findings = serde_json::to_value(findings).unwrap();
    for f in findings.as_array_mut().unwrap() {
        f["line"] = Value::Null;
    }
    json!({
        "counts": counts,
        "findings": findings,
        "statistics": audit.statistics(provably::stats::DEFAULT_LEVEL),
    })
}

/// The ways to read: one worker, seven, batches of one round, and `--stats`.
fn readers() -> Vec<(&'static str, Options)> {
    let one = Options {
        jobs: 1,
        ..Options::default()
    };
    let seven = Options {
        jobs: 7,
        ..Options::default()
    };
    let tiny = Options {
        jobs: 2,
        batch_rounds: 1,
        batch_bytes: 64,
        ..Options::default()
    };
    let stats = Options {
        stats: true,
        ..Options::default()
    };
    vec![
        ("one worker", one),
        ("seven workers", seven),
        ("batches of one", tiny),
        ("--stats", stats),
    ]
}

/// 256, or `PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256)
}

fn style() -> impl Strategy<Value = Style> {
    (
        prop_oneof![Just(0u32), 0u32..600],
        any::<bool>(),
        prop_oneof![Just(0u32), 0u32..500],
        any::<bool>(),
        prop_oneof![3 => Just(0u32), 1 => 1u32..1000],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(space, shuffle, escape, solidus, number, bom, crlf)| Style {
            space,
            shuffle,
            escape,
            solidus,
            number,
            bom,
            crlf,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(cases()) })]

    #[test]
    fn a_proof_written_again_any_way_gets_the_same_report_from_every_reader(
        which in any::<prop::sample::Index>(),
        style in style(),
        lines in any::<bool>(),
        seed in any::<[u8; 32]>(),
    ) {
        let all = proofs();
        let (name, doc) = &all[which.index(all.len())];
        let lines = lines && lines_say_the_same(doc);
        let mut rng = TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &seed);
        let text = render(doc, &mut rng, &style, lines);
        // The meaning: the document written plainly, read the plain way.
        let plain = Style { space: 0, shuffle: false, escape: 0, solidus: false, number: 0, bom: false, crlf: false };
        let original = render(doc, &mut rng, &plain, false);
        let readers = readers();
        let first = outcome(&text, &readers[0].1);
        for (how, options) in &readers[1..] {
            let mut other = outcome(&text, options);
            let mut first = first.clone();
            if options.stats {
                first["statistics"] = Value::Null;
                other["statistics"] = Value::Null;
            }
            prop_assert_eq!(&other, &first, "{}: read {:?} gives another report than one worker\n{}", name, how, text);
        }
        if style.number == 0 {
            let mut meaning = outcome(&original, &readers[0].1);
            let mut first = first.clone();
            if style.shuffle {
                // Findings are listed where what they are about stands in
                // the text (docs/proofs.md): another key order may list the
                // same findings in another order.
                for o in [&mut first, &mut meaning] {
                    o["findings"].as_array_mut().unwrap().sort_by_key(Value::to_string);
                }
            }
            prop_assert_eq!(&first, &meaning, "{}: rewritten ({:?}, lines {}) it gives another report\n{}", name, style, lines, text);
            let stats = readers.last().unwrap();
            prop_assert_eq!(outcome(&text, &stats.1)["statistics"].clone(), outcome(&original, &stats.1)["statistics"].clone());
        }
    }
}
