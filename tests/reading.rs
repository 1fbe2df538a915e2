//! One document, one verdict: every proof vector and example, written
//! again in ways that change its bytes but not its meaning (white space
//! anywhere, key order, the observations' key order alone, `\u` escapes in
//! keys and strings, an escaped solidus, a BOM, CRLF, one document or JSON
//! lines), gets the report of the original, however it is read (one worker
//! or seven, epochs walked by the reader or handed whole, batches of one
//! round, with `--stats`); with its keys in
//! another order the same findings, listed where what they are about
//! stands in the text (docs/proofs.md). Two rules of the format stay: a
//! document's first key is the seven bytes `"proof"`, and a key given
//! twice is a finding (a `Value` cannot write one).
//! Integers written `6.0` or `6e0` change the meaning under the documented
//! rule (docs/proofs.md: an integer field takes an integer literal), so
//! there only the readers must agree with each other.
//! Two rewrites change the text's meaning in a known way: a round that
//! matches, observed in part (some of its fields, a list's prefix, `null`
//! for items not seen), still matches; and a line of form feeds among JSON
//! lines is an epoch that is not JSON (a form feed is no JSON white space),
//! one finding more, the epochs after it numbered one on.
//!
//! CI runs 256 cases (about 3 s); `PROPTEST_CASES=20000 cargo test
//! --features wild --test tests reading::` goes deeper.

use proptest::prelude::*;
use proptest::test_runner::TestRng;
use serde_json::{json, Value};

use provably::proof::run::{Audit, Options};
use provably::proof::{Counts, Event, RoundVerdict};

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
    /// The observations' keys (alone) in a random order.
    reorder: bool,
    /// The rounds that match observed in part.
    partial: bool,
    /// A line of form feeds among JSON lines.
    form_feed: bool,
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
    write_in(out, v, rng, style, newlines, false);
}

/// [`write`]; `observation`: `v` is a round's observation.
fn write_in(out: &mut String, v: &Value, rng: &mut TestRng, style: &Style, newlines: bool, observation: bool) {
    space(out, rng, style, newlines);
    match v {
        Value::Object(m) => {
            out.push('{');
            let mut keys: Vec<&String> = m.keys().collect();
            if style.shuffle || (style.reorder && observation) {
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
                let observed = *k == "observed" && m.contains_key("op");
                write_in(out, &m[*k], rng, style, newlines, observed);
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
        let epochs = doc["epochs"].as_array().unwrap();
        for (i, e) in epochs.iter().enumerate() {
            write(&mut out, e, rng, style, false);
            out.push_str(if style.crlf { "\r\n" } else { "\n" });
            if style.form_feed && i + 1 == form_feed_after(epochs.len()) {
                out.push_str("\u{c}\u{c}\n");
            }
        }
    } else {
        write(&mut out, doc, rng, style, true);
    }
    out
}

/// After how many epochs a line of form feeds goes: never first, where it
/// would make the file no proof at all (docs/proofs.md, JSON lines).
fn form_feed_after(epochs: usize) -> usize {
    epochs.div_ceil(2).max(1)
}

/// What a line of form feeds after epoch `k - 1` does to an outcome: an
/// epoch more, invalid (its reason is the reader's), and every finding of a
/// later epoch one epoch on.
fn with_form_feed(mut o: Value, k: u64, invalid: &Value) -> Value {
    o["counts"]["epochs"] = json!(o["counts"]["epochs"].as_u64().unwrap() + 1);
    o["counts"]["invalidOther"] = json!(o["counts"]["invalidOther"].as_u64().unwrap() + 1);
    let findings = o["findings"].as_array_mut().unwrap();
    for f in findings.iter_mut() {
        if let Some(e) = f["epoch"].as_u64().filter(|&e| e >= k) {
            f["epoch"] = json!(e + 1);
        }
    }
    let at = findings
        .iter()
        .position(|f| f["epoch"].as_u64().is_some_and(|e| e > k) || f["kind"] == "gap")
        .unwrap_or(findings.len());
    findings.insert(at, invalid.clone());
    o
}

/// The document with every round that matches (`matched`: epoch, round)
/// observed in part: some of its fields, a list's prefix, `null` for some
/// items; a round left with nothing to compare keeps its observation.
fn partly(doc: &Value, matched: &[(u64, u64)], rng: &mut TestRng) -> Value {
    fn seen(v: &Value, rng: &mut TestRng) -> Value {
        match v {
            Value::Array(items) => {
                let keep = rng.random_range(0..=items.len());
                Value::Array(
                    items[..keep]
                        .iter()
                        .map(|x| {
                            if rng.random_bool(0.2) {
                                Value::Null
                            } else {
                                seen(x, rng)
                            }
                        })
                        .collect(),
                )
            }
            other => other.clone(),
        }
    }
    fn leaf(v: &Value) -> bool {
        match v {
            Value::Null => false,
            Value::Array(items) => items.iter().any(leaf),
            Value::Object(m) => m.values().any(leaf),
            _ => true,
        }
    }
    let mut doc = doc.clone();
    for &(e, r) in matched {
        let (e, r) = (usize::try_from(e).unwrap(), usize::try_from(r).unwrap());
        let Some(observed) = doc["epochs"][e]["rounds"][r].get_mut("observed") else {
            continue;
        };
        let Some(fields) = observed.as_object() else { continue };
        let mut part = serde_json::Map::new();
        for (k, v) in fields {
            if rng.random_bool(0.7) {
                part.insert(k.clone(), seen(v, rng));
            }
        }
        let part = Value::Object(part);
        if leaf(&part) {
            *observed = part;
        }
    }
    doc
}

/// The rounds that match, by epoch and round.
fn matched(text: &str) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    provably::proof::audit(text.as_bytes(), &Options::default(), &mut |e| {
        if let Event::Round {
            epoch,
            round,
            verdict: RoundVerdict::Match,
            ..
        } = e
        {
            out.push((*epoch, *round));
        }
        Ok(())
    })
    .unwrap();
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

/// The ways to read: one worker walking every epoch, seven workers handed
/// whole epochs, batches of one round, and `--stats`.
fn readers() -> Vec<(&'static str, Options)> {
    let one = Options {
        jobs: 1,
        whole_epochs: 0,
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
        ("one worker, walked", one),
        ("seven, whole epochs", seven),
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
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(space, shuffle, escape, solidus, number, bom, crlf, (reorder, partial, form_feed))| Style {
                space,
                shuffle,
                escape,
                solidus,
                number,
                bom,
                crlf,
                reorder,
                partial,
                form_feed,
            },
        )
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
        // The meaning: the document written plainly, read the plain way.
        let plain = Style { space: 0, shuffle: false, escape: 0, solidus: false, number: 0, bom: false, crlf: false, reorder: false, partial: false, form_feed: false };
        let original = render(doc, &mut rng, &plain, false);
        let shown = if style.partial { partly(doc, &matched(&original), &mut rng) } else { doc.clone() };
        let text = render(&shown, &mut rng, &style, lines);
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
            if lines && style.form_feed {
                let k = form_feed_after(doc["epochs"].as_array().unwrap().len()) as u64;
                let invalid = first["findings"].as_array().unwrap().iter().find(|f| f["epoch"] == json!(k) && f["round"].is_null() && f["kind"] == "invalid").cloned();
                prop_assert!(invalid.is_some(), "{}: the line of form feeds is no invalid epoch {}\n{}", name, k, text);
                meaning = with_form_feed(meaning, k, &invalid.unwrap());
                // Statistics follow epochs; with one more epoch they are not the original's.
                first["statistics"] = Value::Null;
                meaning["statistics"] = Value::Null;
            }
            if style.shuffle {
                // Findings are listed where what they are about stands in
                // the text (docs/proofs.md): another key order may list the
                // same findings in another order.
                for o in [&mut first, &mut meaning] {
                    o["findings"].as_array_mut().unwrap().sort_by_key(Value::to_string);
                }
            }
            prop_assert_eq!(&first, &meaning, "{}: rewritten ({:?}, lines {}) it gives another report\n{}", name, style, lines, text);
            if !(lines && style.form_feed) {
                let stats = readers.last().unwrap();
                prop_assert_eq!(outcome(&text, &stats.1)["statistics"].clone(), outcome(&original, &stats.1)["statistics"].clone());
            }
        }
    }
}
