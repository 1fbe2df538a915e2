//! `provably audit` and `provably proof`: the proof vectors give exactly
//! their reports (library and command line), the examples audit clean,
//! documents and JSON lines agree, bad input is exit 2 with its place, and
//! reading streams.

use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Value};

use provably::proof::report::counts_value;
use provably::proof::run::audit_text;
use provably::proof::{self, FindingKind, Options};

use crate::support::{bin, root, run};

fn load(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(root().join(name)).unwrap()).unwrap()
}

fn vectors() -> Vec<Value> {
    load("vectors/proofs.json")["tests"].as_array().unwrap().clone()
}

/// The report an audit of `text` gives, as the vectors hold it.
fn report(text: &str, options: &Options) -> Value {
    let (counts, findings) = audit_text(text, options);
    let mut m = counts_value(&counts);
    m.insert("findings".into(), serde_json::to_value(findings).unwrap());
    Value::Object(m)
}

/// Reason is free text except for skipped findings (vectors/proofs.json, notes).
fn without_free_text(mut report: Value) -> Value {
    for f in report["findings"].as_array_mut().unwrap() {
        if f["kind"] != "skipped" {
            f["reason"] = Value::Null;
        }
    }
    report
}

#[test]
fn every_proof_vector_gives_exactly_its_expected_report() {
    for t in vectors() {
        // Epochs read whole by the workers, and walked round by round by the reader.
        for (jobs, whole_epochs) in [(1, 0), (3, 0), (1, 1 << 20), (3, 1 << 20)] {
            let options = Options {
                jobs,
                batch_rounds: 2,
                whole_epochs,
                ..Options::default()
            };
            let got = report(t["text"].as_str().unwrap(), &options);
            assert_eq!(
                got, t["expected"],
                "tcId {} ({}), {jobs} jobs, whole epochs up to {whole_epochs} bytes",
                t["tcId"], t["comment"]
            );
        }
    }
}

#[test]
fn a_break_inside_an_epoch_read_whole_stops_the_reading_as_in_place() {
    let good = r#"{"commit":null,"serverSeed":"s","rounds":[{"op":"dice.roll","clientSeed":"c","n":0,"observed":{"face":1}}]}"#;
    // Balanced brackets, so the reader cuts the epoch out whole; a comma missing inside it.
    let broken = r#"{"commit":null,"serverSeed":"s","rounds":[{"op":"dice.roll","clientSeed":"c","n":1}] "x":1}"#;
    let text = format!("{{\"proof\":1,\"epochs\":[\n{good},\n{broken},\n{good}],\n\"bogus\":1}}");
    let whole = report(&text, &Options::default());
    let in_place = report(
        &text,
        &Options {
            whole_epochs: 0,
            ..Options::default()
        },
    );
    assert_eq!(whole, in_place);
    assert_eq!(whole["epochs"], 2, "the epoch after the break is not read: {whole}");
    let last = whole["findings"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["kind"].as_str(), last["epoch"].as_u64(), last["line"].as_u64()),
        (Some("invalid"), Some(1), Some(3)),
        "{last}"
    );
}

#[test]
fn a_shoe_observed_in_any_white_space_matches_and_only_a_value_the_rules_admit_does() {
    // Labels written as JSON writes them are read in one step against the
    // derived shoe: that shortcut only ever says "the same".
    let seed = "typed shoe";
    let req =
        json!({"op": "shoe.deal", "serverSeed": seed, "clientSeed": "c", "nonce": 1, "decks": 1, "penetration": 0.5});
    let ok = provably::registry::parse(&req).unwrap().run_value().unwrap();
    let cards = ok["cards"].as_array().unwrap().clone();
    let cut = ok["cut"].as_u64().unwrap();
    let labels: Vec<String> = cards.iter().map(|c| format!("\"{}\"", c.as_str().unwrap())).collect();
    let round = |observed: &str| {
        format!(
            r#"{{"proof":1,"epochs":[{{"commit":null,"serverSeed":"{seed}","rounds":[{{"op":"shoe.deal","clientSeed":"c","nonce":1,"decks":1,"penetration":0.5,"observed":{observed}}}]}}]}}"#
        )
    };
    let verdict = |observed: String| {
        let r = report(&round(&observed), &Options::default());
        (
            r["verdict"].as_str().unwrap().to_string(),
            r["findings"].as_array().unwrap().len(),
        )
    };
    let matched = ("match".to_string(), 0);
    assert_eq!(
        verdict(format!(r#"{{"cards":[{}],"cut":{cut}}}"#, labels.join(","))),
        matched
    );
    assert_eq!(
        verdict(format!("{{\"cards\": [{}], \"cut\": {cut}}}", labels.join(", "))),
        matched
    );
    assert_eq!(
        verdict(format!(
            "{{\n \"cards\" :\t[\r\n{}\n] ,\"cut\":{cut} }}",
            labels.join(" ,\n")
        )),
        matched
    );
    assert_eq!(
        verdict(format!(r#"{{"cut":{cut},"cards":[{}]}}"#, labels.join(","))),
        matched
    );
    // `235.0` is not an integer item: invalid, as the rules say, though equal by value.
    assert_eq!(
        verdict(format!(r#"{{"cards":[{}],"cut":{cut}.0}}"#, labels.join(","))),
        ("invalid".to_string(), 1)
    );
    // The first label with its first character escaped: `"\u0038D"` for `"8D"`.
    let mut escaped = labels.clone();
    escaped[0] = format!("\"\\u{:04x}{}", labels[0].as_bytes()[1], &labels[0][2..]);
    assert_eq!(
        verdict(format!(r#"{{"cards":[{}],"cut":{cut}}}"#, escaped.join(","))),
        matched,
        "an escape"
    );
    assert_eq!(
        verdict(format!(r#"{{"cards":[{}],"cut":{cut}}}"#, labels[..10].join(","))),
        matched,
        "a prefix"
    );
    assert_eq!(
        verdict(format!(r#"{{"cards":[{}],"cut":{}}}"#, labels.join(","), cut + 1)).0,
        "mismatch"
    );
    let mut swapped = labels.clone();
    swapped.swap(0, 1);
    let first_two_differ = labels[0] != labels[1];
    assert_eq!(
        verdict(format!(r#"{{"cards":[{}],"cut":{cut}}}"#, swapped.join(","))).0,
        if first_two_differ { "mismatch" } else { "match" }
    );
    assert_eq!(
        verdict(format!(r#"{{"cards":[{},"2S"],"cut":{cut}}}"#, labels.join(","))).0,
        "mismatch",
        "one card more"
    );
}

#[test]
fn every_tampered_and_invalid_vector_is_caught_by_the_command_line_with_its_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    for t in vectors() {
        let (code, out, err) = run(
            &["audit", "-", "--report", path.to_str().unwrap()],
            t["text"].as_str().unwrap(),
        );
        let want = match t["expected"]["verdict"].as_str().unwrap() {
            "match" | "unobserved" => 0,
            "mismatch" => 1,
            _ => 2,
        };
        assert_eq!(code, want, "tcId {}: {out}{err}", t["tcId"]);
        assert!(!err.contains("panicked"), "{err}");
        let mut report = load(path.to_str().unwrap());
        let findings = report["findings"].as_array_mut().unwrap();
        for f in findings.iter_mut() {
            assert_eq!(f.as_object_mut().unwrap().remove("file"), Some(json!("-")));
        }
        let obj = report.as_object_mut().unwrap();
        let files = obj.remove("files").unwrap();
        assert_eq!(files[0]["verdict"], t["expected"]["verdict"]);
        assert_eq!(
            without_free_text(report),
            without_free_text(t["expected"].clone()),
            "tcId {} ({})",
            t["tcId"],
            t["comment"]
        );
        // The text output lists every finding.
        let listed = out
            .lines()
            .filter(|l| l.contains("epoch") || l.contains("INVALID"))
            .count();
        assert!(
            listed >= t["expected"]["findings"].as_array().unwrap().len(),
            "tcId {}: {out}",
            t["tcId"]
        );
    }
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).unwrap()
}

/// The proof schema with its root pointed at one of its definitions.
fn schema_at(def: &str) -> Value {
    let mut s = load("vectors/proof.schema.json");
    s["$ref"] = Value::from(format!("#/$defs/{def}"));
    s
}

#[test]
fn valid_and_tampered_vectors_match_the_proof_schema_and_schema_checkable_invalid_ones_do_not() {
    let document = validator(&schema_at("document"));
    let epoch = validator(&schema_at("epoch"));
    let valid = |text: &str| -> bool {
        if text.trim_start().starts_with("{\"proof\"") {
            serde_json::from_str::<Value>(text).is_ok_and(|v| document.is_valid(&v))
        } else {
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .all(|l| serde_json::from_str::<Value>(l).is_ok_and(|v| epoch.is_valid(&v)))
        }
    };
    // What the schema cannot see: a key given twice, a player seated twice,
    // which secret an op takes, a commitment without a secret to check, an
    // op's rules that tie fields together (canSplit without a pair).
    let beyond = [
        "twice",
        "same player",
        "selfpoker epoch",
        "shoe epoch",
        "cursor.hash",
        "no pair",
    ];
    for t in vectors() {
        let text = t["text"].as_str().unwrap();
        let comment = t["comment"].as_str().unwrap();
        match t["class"].as_str().unwrap() {
            "invalid" if beyond.iter().any(|b| comment.contains(b)) => {}
            "invalid" => assert!(!valid(text), "the schema accepts tcId {} ({comment})", t["tcId"]),
            _ => assert!(valid(text), "the schema rejects tcId {} ({comment})", t["tcId"]),
        }
    }
    validator(&schema_at("vectorFile"))
        .validate(&load("vectors/proofs.json"))
        .unwrap();
}

#[test]
fn a_document_and_the_same_epochs_as_json_lines_give_the_same_findings() {
    for t in vectors().iter().filter(|t| t["class"] != "invalid") {
        let text = t["text"].as_str().unwrap();
        let Ok(doc) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let Some(epochs) = doc.get("epochs").and_then(Value::as_array) else {
            continue;
        };
        let lines: String = epochs.iter().map(|e| format!("{e}\n")).collect();
        let mut as_lines = report(&lines, &Options::default());
        for (i, f) in as_lines["findings"].as_array_mut().unwrap().iter_mut().enumerate() {
            assert_eq!(f["line"].as_u64(), f["epoch"].as_u64().map(|e| e + 1), "finding {i}");
            f["line"] = Value::Null;
        }
        assert_eq!(as_lines, t["expected"], "tcId {}", t["tcId"]);
    }
}

#[test]
fn every_example_proof_audits_with_exit_0() {
    let want = [
        ("dice-game", 1, 12, 1),
        ("tournament", 1, 10, 0),
        ("table-rotation", 1, 100, 0),
        ("selfpoker-hands", 5, 5, 0),
        ("ladder", 1, 1, 0),
        ("stake-history", 2, 40, 0),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, epochs, rounds, skipped) in want {
        let file = format!("examples/proofs/{name}.json");
        let report = dir.path().join(format!("{name}.json"));
        let (code, out, err) = run(&["audit", &file, "--report", report.to_str().unwrap()], "");
        assert_eq!(code, 0, "{name}: {out}{err}");
        let r = load(report.to_str().unwrap());
        assert_eq!(
            (r["epochs"].as_u64(), r["rounds"].as_u64(), r["skipped"].as_u64()),
            (Some(epochs), Some(rounds), Some(skipped)),
            "{name}"
        );
        assert_eq!(r["commitOk"], r["epochs"], "{name}: every epoch carries its commitment");
        assert_eq!(r["match"].as_u64(), Some(rounds - skipped), "{name}");
        assert_eq!(r["gaps"], 0, "{name}: every nonce of a bet history is there");
    }
}

#[test]
fn the_example_proofs_are_what_provably_proof_writes_from_their_rounds() {
    let out = duct::cmd!(root().join("scripts/proof-examples.sh"), "check")
        .dir(root())
        .env("PROVABLY", bin())
        .stderr_to_stdout()
        .stdout_capture()
        .unchecked()
        .run()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn changing_one_card_of_an_example_is_one_mismatch_at_that_card() {
    let mut doc = load("examples/proofs/tournament.json");
    let card = &mut doc["epochs"][0]["rounds"][6]["observed"]["cards"][11];
    *card = Value::from(if card == "AS" { "KC" } else { "AS" });
    let (code, out, _) = run(&["audit", "-"], &doc.to_string());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("epoch 0, round 6: MISMATCH in cards at index 11"), "{out}");
}

#[test]
fn a_missing_file_is_invalid_and_the_other_files_are_still_checked() {
    let (code, out, _) = run(&["audit", "no/such/proof.json", "examples/proofs/ladder.json"], "");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no/such/proof.json: INVALID: cannot read"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("examples/proofs/ladder.json") && l.ends_with("match")),
        "{out}"
    );
}

#[test]
fn junit_has_a_suite_per_file_and_a_case_per_finding() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("junit.xml");
    let tampered = vectors()
        .into_iter()
        .find(|t| t["comment"].as_str().unwrap().contains("card 17"))
        .unwrap();
    let file = dir.path().join("tampered.json");
    std::fs::write(&file, tampered["text"].as_str().unwrap()).unwrap();
    let (code, _, _) = run(
        &[
            "audit",
            "examples/proofs/ladder.json",
            file.to_str().unwrap(),
            "examples/proofs/dice-game.json",
            "--junit",
            junit.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 1);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testsuite ").count(), 3, "{xml}");
    assert_eq!(xml.matches("</testsuite>").count(), 3, "{xml}");
    assert!(xml.contains("<failure type=\"mismatch\""), "{xml}");
    assert!(xml.contains("<skipped message=\"epoch 0, round 5: skipped"), "{xml}");
}

#[test]
fn an_unwritable_report_is_exit_5_and_every_other_output_is_still_written() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("j.xml");
    let (code, out, err) = run(
        &[
            "audit",
            "examples/proofs/ladder.json",
            "--report",
            "no/such/dir/report.json",
            "--junit",
            junit.to_str().unwrap(),
        ],
        "",
    );
    // Before: exit 2, the code of invalid input, after "verdict: match".
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("no/such/dir/report.json"), "{err}");
    assert!(out.contains("verdict: match"), "{out}");
    assert!(junit.exists(), "the junit is still written");
    assert!(!root().join("no").exists());
    // A mismatch keeps its own status: the finding comes first.
    let text = std::fs::read_to_string(root().join("examples/proofs/ladder.json")).unwrap();
    let tampered = text.replacen("\"order\":[", "\"order\":[99,", 1);
    let (code, _, _) = run(&["audit", "-", "--report", "no/such/dir/report.json"], &tampered);
    assert_eq!(code, 1);
}

/// Runs the binary with stdout on /dev/full (every write fails: ENOSPC).
fn with_full_stdout(args: &[&str]) -> (Option<i32>, String) {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = std::process::Command::new(bin())
        .args(args)
        .current_dir(root())
        .stdin(std::process::Stdio::null())
        .stdout(full)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_full_stdout_is_exit_5_and_the_report_is_still_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    let (code, err) = with_full_stdout(&[
        "audit",
        "examples/proofs/ladder.json",
        "--report",
        path.to_str().unwrap(),
    ]);
    // Before: exit 2 and no report.
    assert_eq!(code, Some(5), "{err}");
    assert!(err.contains("stdout"), "{err}");
    assert_eq!(load(path.to_str().unwrap())["verdict"], "match");
    let (code, err) = with_full_stdout(&[
        "proof",
        "dice.roll",
        "--server-seed",
        "s",
        "--client-seed",
        "c",
        "--n",
        "1",
    ]);
    assert_eq!(code, Some(5), "{err}");
    let out = dir.path().join("no/p.json");
    let (code, err) = with_full_stdout(&[
        "proof",
        "dice.roll",
        "--server-seed",
        "s",
        "--client-seed",
        "c",
        "--n",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(5), "{err}");
}

#[test]
fn a_signal_during_the_report_removes_its_temporary_file() {
    use nix::sys::signal::{kill, Signal};
    let dir = tempfile::tempdir().unwrap();
    // 300,000 invalid rounds: a report of tens of megabytes, written for a while.
    let rounds = vec!["{}"; 300_000].join(",");
    let input = dir.path().join("in.json");
    std::fs::write(&input, format!(r#"{{"proof":1,"epochs":[{{"rounds":[{rounds}]}}]}}"#)).unwrap();
    for signal in [Signal::SIGTERM, Signal::SIGINT] {
        let report = dir.path().join("r.json");
        let mut child = std::process::Command::new(bin())
            .args([
                "audit",
                "--quiet",
                input.to_str().unwrap(),
                "--report",
                report.to_str().unwrap(),
            ])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let temporary = || {
            std::fs::read_dir(dir.path())
                .unwrap()
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(".r.json.provably-"))
        };
        let start = std::time::Instant::now();
        while !temporary() {
            assert!(start.elapsed().as_secs() < 300, "the report never began");
            assert!(
                child.try_wait().unwrap().is_none(),
                "the audit ended before it was signalled"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        kill(nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap()), signal).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(signal as i32)
        );
        assert!(!temporary(), "{signal}: a temporary file is left");
        assert!(!report.exists());
    }
}

/// Runs the binary with its stdout a pipe whose reader is already gone, so
/// that its first write fails with EPIPE; returns (exit code, stderr).
fn with_closed_stdout(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let (reader, writer) = nix::unistd::pipe().unwrap();
    drop(reader);
    let mut child = std::process::Command::new(bin())
        .args(args)
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::from(writer))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // The child may exit before it reads everything: a failed write here is fine.
    let _ = std::io::Write::write_all(&mut input, stdin.as_bytes());
    drop(input);
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_closed_stdout_ends_the_text_of_audit_proof_and_verify_but_not_their_work_or_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let report_arg = report.to_str().unwrap();
    // 3,000 rounds, every other one with a wrong face: a long listing and exit 1.
    let lines: String = (0..3000)
        .map(|n| {
            let face = provably::schemes::dice::roll("s", "c", n).unwrap();
            let face = if n % 2 == 0 { face % 6 + 1 } else { face };
            format!("{{\"commit\":null,\"serverSeed\":\"s\",\"rounds\":[{{\"op\":\"dice.roll\",\"clientSeed\":\"c\",\"n\":{n},\"observed\":{{\"face\":{face}}}}}]}}\n")
        })
        .collect();
    let (code, err) = with_closed_stdout(&["audit", "-", "--report", report_arg], &lines);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(load(report_arg)["rounds"], 3000, "the report is still written");

    let proof_args = ["proof", "--requests", "-"];
    let good = r#"{"op":"dice.roll","serverSeed":"s","clientSeed":"c","n":1}"#;
    assert_eq!(
        with_closed_stdout(&proof_args, &format!("{good}\n")),
        (Some(0), String::new())
    );
    let (code, err) = with_closed_stdout(&proof_args, &format!("{good}\n{{\"op\":\"dice.roll\"}}\n"));
    assert_eq!(
        code,
        Some(2),
        "a bad round after a closed stdout is still bad input: {err}"
    );
    assert!(err.contains("line 2: serverSeed"), "{err}");

    let commit = provably::schemes::cursor::hash("s");
    let face = provably::schemes::dice::roll("s", "c", 0).unwrap();
    for (observed, want) in [(face, 0), (face % 6 + 1, 1)] {
        let observed = observed.to_string();
        let args = [
            "verify",
            "dice",
            "--server-seed",
            "s",
            "--commit",
            &commit,
            "--client-seed",
            "c",
            "--observed",
            &observed,
        ];
        assert_eq!(
            with_closed_stdout(&args, ""),
            (Some(want), String::new()),
            "face {observed}"
        );
    }
}

#[test]
fn audit_piped_into_head_c1_prints_one_byte_and_keeps_its_exit_status() {
    let mut doc = load("examples/proofs/tournament.json");
    doc["epochs"][0]["commit"] = Value::from(provably::schemes::cursor::hash("another seed"));
    let out = duct::cmd(bin(), ["audit", "-"])
        .dir(root())
        .stdin_bytes(doc.to_string())
        .pipe(duct::cmd!("head", "-c1"))
        .stderr_capture()
        .stdout_capture()
        .unchecked()
        .run()
        .unwrap();
    assert_eq!(out.stdout.len(), 1);
    // duct reports the left side's status when `head` succeeds (pipefail).
    assert_eq!(
        out.status.code(),
        Some(1),
        "the commitment mismatch still decides the exit status"
    );
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn piped_output_has_no_progress_bar() {
    let (code, _, err) = run(&["audit", "examples/proofs/table-rotation.json"], "");
    assert_eq!(code, 0);
    assert!(err.is_empty(), "stderr must stay empty when stdout is a pipe: {err:?}");
}

#[test]
fn a_line_longer_than_the_limit_is_named_by_its_line_and_the_rest_is_checked() {
    let good = r#"{"commit":null,"serverSeed":"s","rounds":[{"op":"dice.roll","clientSeed":"c","n":0,"observed":{"face":4}}]}"#;
    let face = provably::schemes::dice::roll("s", "c", 0).unwrap();
    let good = good.replace("\"face\":4", &format!("\"face\":{face}"));
    let long = format!("{{\"title\":\"{}\"}}", "x".repeat(500));
    let text = format!("{good}\n\n{long}\n{good}\n");
    let options = Options {
        max_line: 300,
        ..Options::default()
    };
    let (counts, findings) = audit_text(&text, &options);
    assert_eq!((counts.epochs, counts.matched, counts.invalid_other), (3, 2, 1));
    assert_eq!((findings[0].line, findings[0].epoch), (Some(3), Some(1)));
    assert!(
        findings[0].reason.as_deref().unwrap().contains("more than 300"),
        "{findings:?}"
    );
}

/// A document produced on demand, counting how much of it has been read.
struct Lazy {
    epochs: usize,
    next: usize,
    buf: Vec<u8>,
    pos: usize,
    read: Arc<AtomicUsize>,
}

impl Read for Lazy {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
            if self.next == 0 {
                self.buf.extend_from_slice(br#"{"proof":1,"epochs":["#);
            }
            if self.next < self.epochs {
                let sep = if self.next > 0 { "," } else { "" };
                let n = self.next;
                self.buf.extend_from_slice(
                    format!(r#"{sep}{{"commit":null,"serverSeed":"s","rounds":[{{"op":"dice.roll","clientSeed":"c","n":{n}}}]}}"#)
                        .as_bytes(),
                );
            } else if self.next == self.epochs {
                self.buf.extend_from_slice(b"]}");
            }
            self.next += 1;
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        self.read.fetch_add(n, Ordering::Relaxed);
        Ok(n)
    }
}

#[test]
fn a_document_streams_the_first_findings_come_out_before_the_input_is_read() {
    let read = Arc::new(AtomicUsize::new(0));
    let input = Lazy {
        epochs: 200_000,
        next: 0,
        buf: Vec::new(),
        pos: 0,
        read: Arc::clone(&read),
    };
    let total = 200_000 * 100;
    let mut first_seen_at = None;
    let counts = proof::audit(std::io::BufReader::new(input), &Options::default(), &mut |e| {
        if let (proof::Event::Round { .. }, None) = (e, first_seen_at) {
            first_seen_at = Some(read.load(Ordering::Relaxed));
        }
        Ok(())
    })
    .unwrap();
    assert_eq!((counts.epochs, counts.unobserved), (200_000, 200_000));
    let at = first_seen_at.unwrap();
    assert!(at < total / 10, "the first round came out after {at} of ~{total} bytes");
}

#[test]
fn one_epoch_of_many_rounds_streams_with_the_secret_first_and_waits_without_it() {
    let rounds: Vec<String> = (0..3000)
        .map(|n| {
            format!(
                r#"{{"op":"dice.roll","clientSeed":"c","n":{n},"observed":{{"face":{}}}}}"#,
                provably::schemes::dice::roll("s", "c", n).unwrap()
            )
        })
        .collect();
    let rounds = rounds.join(",");
    let commit = provably::schemes::cursor::hash("s");
    let first = format!(r#"{{"proof":1,"epochs":[{{"commit":"{commit}","serverSeed":"s","rounds":[{rounds}]}}]}}"#);
    let last = format!(r#"{{"proof":1,"epochs":[{{"rounds":[{rounds}],"serverSeed":"s","commit":"{commit}"}}]}}"#);
    for text in [first, last] {
        let (counts, findings) = audit_text(&text, &Options::default());
        assert_eq!((counts.matched, counts.commit_ok), (3000, 1));
        assert!(findings.is_empty());
    }
}

#[test]
fn proof_from_flags_holds_the_derived_outcome_and_audits_clean() {
    let seed = "a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60";
    let (code, doc, err) = run(
        &[
            "proof",
            "shoe.deal",
            "--server-seed",
            seed,
            "--client-seed",
            "table-7",
            "--nonce",
            "12",
            "--decks",
            "6",
            "--penetration",
            "0.75",
            "--commit",
            "--prefix",
            "30",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&doc).unwrap();
    let shoe = provably::schemes::shoe::deal(seed, "table-7", 12, 6, 0.75);
    let epoch = &v["epochs"][0];
    assert_eq!(epoch["commit"], Value::from(provably::schemes::cursor::hash(seed)));
    let observed = &epoch["rounds"][0]["observed"];
    assert_eq!(observed["cards"], json!(shoe.cards[..30]));
    assert_eq!(observed["cut"], json!(shoe.cut));
    assert!(epoch["rounds"][0].get("serverSeed").is_none());
    let (code, out, _) = run(&["audit", "-"], &doc);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn proof_with_seats_writes_seats_and_derives_from_their_seeds_in_player_order() {
    let (code, doc, err) = run(
        &[
            "proof",
            "poker.deal",
            "--server-seed",
            "s",
            "--seat",
            "9=c",
            "--seat",
            "2=a",
            "--seat",
            "5=b",
            "--nonce",
            "3",
            "--players",
            "3",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&doc).unwrap();
    let round = &v["epochs"][0]["rounds"][0];
    assert_eq!(round["seats"][0], json!({"player": 9, "seed": "c"}));
    let deal = provably::schemes::poker::deal("s", "abc", 3, 3);
    assert_eq!(round["observed"], serde_json::to_value(deal).unwrap());
}

#[test]
fn proof_from_requests_groups_rounds_by_seed_and_writes_json_lines() {
    let requests = [
        json!({"id": 1, "op": "dice.roll", "serverSeed": "a", "clientSeed": "c", "n": 0}),
        json!({"id": 2, "op": "dice.roll", "serverSeed": "a", "clientSeed": "c", "n": 1}),
        json!({"id": 3, "op": "selfpoker.deck", "seed": "42"}),
        json!({"id": 4, "op": "dice.roll", "serverSeed": "a", "clientSeed": "c", "n": 2, "external": "telegram", "observed": {"face": 6}}),
    ];
    let input: String = requests.iter().map(|r| format!("{r}\n")).collect();
    let (code, out, err) = run(&["proof", "--requests", "-", "--group", "--commit", "--lines"], &input);
    assert_eq!(code, 0, "{err}");
    let epochs: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let sizes: Vec<usize> = epochs.iter().map(|e| e["rounds"].as_array().unwrap().len()).collect();
    assert_eq!(sizes, [2, 1, 1]);
    assert_eq!(
        epochs[1]["commit"],
        Value::from(provably::schemes::selfpoker::commit(42))
    );
    assert_eq!(epochs[1]["seed"], "42");
    assert_eq!(epochs[2]["rounds"][0]["observed"], json!({"face": 6}));
    let (code, out, _) = run(&["audit", "-"], &out);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("skipped: external (telegram)"), "{out}");
}

#[test]
fn proof_from_a_bad_request_line_names_the_line_and_field_and_writes_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("proof.json");
    let input = "{\"op\":\"dice.roll\",\"serverSeed\":\"a\",\"clientSeed\":\"c\",\"n\":0}\n\n{\"op\":\"dice.roll\",\"serverSeed\":\"a\",\"clientSeed\":\"c\",\"n\":-1}\n";
    let (code, _, err) = run(&["proof", "--requests", "-", "--out", out.to_str().unwrap()], input);
    assert_eq!(code, 2);
    assert!(err.contains("line 3: n:"), "{err}");
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no temporary file is left"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any damage to a proof (a byte changed, the text cut short) is a
    /// verdict, never a panic, and the counts still add up.
    #[test]
    fn damaged_proofs_get_a_verdict_not_a_panic(index in 0usize..40, at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<bool>()) {
        let tests = vectors();
        let text = tests[index % tests.len()]["text"].as_str().unwrap().as_bytes().to_vec();
        let mut damaged = text.clone();
        if !damaged.is_empty() {
            let i = at.index(damaged.len());
            if cut {
                damaged.truncate(i);
            } else {
                damaged[i] = byte;
            }
        }
        let mut findings = 0;
        let counts = proof::audit(&damaged[..], &Options::default(), &mut |e| {
            findings += e.findings().len();
            Ok(())
        })
        .unwrap();
        prop_assert_eq!(
            counts.rounds,
            counts.matched + counts.mismatch + counts.skipped + counts.invalid + counts.unobserved
        );
    }
}

#[test]
fn a_round_that_is_not_json_inside_a_document_is_that_rounds_finding_and_the_rest_is_read() {
    let face = provably::schemes::dice::roll("s", "c", 1).unwrap();
    let text = format!(
        "{{\"proof\":1,\"epochs\":[{{\"commit\":null,\"serverSeed\":\"s\",\"rounds\":[\n{{\"op\":\"dice.roll\",\"clientSeed\":\"c\",\"n\":01}},\n{{\"op\":\"dice.roll\",\"clientSeed\":\"c\",\"n\":1,\"observed\":{{\"face\":{face}}}}}]}},\n{{\"commit\":null,\"serverSeed\":\"s\",\"rounds\":[}}]}}"
    );
    let (counts, findings) = audit_text(&text, &Options::default());
    assert_eq!((counts.epochs, counts.invalid, counts.matched), (2, 1, 1));
    assert_eq!(
        (findings[0].epoch, findings[0].round, findings[0].field.as_deref()),
        (Some(0), Some(0), Some("round"))
    );
    // `[}` breaks the structure: not JSON at its line and epoch, and reading stops.
    let last = findings.last().unwrap();
    assert_eq!((last.epoch, last.field.as_deref(), last.line), (Some(1), None, Some(4)));
    assert!(last.reason.as_deref().unwrap().starts_with("not JSON"), "{last:?}");
}

#[test]
fn a_form_feed_is_no_json_white_space_to_any_reader_of_a_round_or_a_line() {
    // A form feed is ASCII white space but not JSON's (space, tab, LF, CR):
    // trimmed around `"observed"`, it had made a round that is not JSON a match.
    let face = provably::schemes::dice::roll("s", "c", 0).unwrap();
    let rounds = [
        "{\"op\":\"dice.roll\",\"clientSeed\":\"c\",\"n\":0,\u{c}\"observed\":{\"face\":FACE}}",
        "{\"op\":\"dice.roll\",\"clientSeed\":\"c\",\"n\":0,\"observed\"\u{c}:{\"face\":FACE}}",
        "{\"op\":\"dice.roll\",\"clientSeed\":\"c\",\"n\":0,\"observed\":{\"face\":FACE}\u{c}}",
    ];
    let walked = Options {
        jobs: 1,
        whole_epochs: 0,
        ..Options::default()
    };
    for round in rounds {
        let round = round.replace("FACE", &face.to_string());
        let epoch = format!(r#"{{"commit":null,"serverSeed":"s","rounds":[{round}]}}"#);
        for text in [format!(r#"{{"proof":1,"epochs":[{epoch}]}}"#), epoch] {
            for options in [&Options::default(), &walked] {
                let r = report(&text, options);
                assert_eq!(r["verdict"], "invalid", "{text:?}: {r}");
                // The same round with a space there matches.
                let r = report(&text.replace('\u{c}', " "), options);
                assert_eq!(r["verdict"], "match", "{text:?}: {r}");
            }
        }
    }
    // A line of form feeds is no blank line: an epoch that is not JSON, at its line.
    let text = "{\"commit\":null,\"serverSeed\":\"s\",\"rounds\":[]}\n\u{c}\u{c}\n \t\r\n";
    let (counts, findings) = audit_text(text, &Options::default());
    assert_eq!((counts.epochs, counts.invalid_other), (2, 1), "{findings:?}");
    assert_eq!((findings[0].epoch, findings[0].line), (Some(1), Some(2)));
    // `provably proof --requests` reads its lines by the same rule.
    let request = "{\"op\":\"dice.roll\",\"serverSeed\":\"a\",\"clientSeed\":\"c\",\"n\":0}";
    let (code, _, err) = run(&["proof", "--requests", "-"], &format!("{request}\n\u{c}\n{request}\n"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2"), "{err}");
    let (code, _, err) = run(&["proof", "--requests", "-"], &format!("{request}\n \t\r\n{request}\n"));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_round_its_op_refuses_is_invalid_at_the_field_the_op_names_even_when_external() {
    // blackjack.strategy's own rules tie fields together: A and 2 are no pair to split.
    let round = r#"{"op":"blackjack.strategy","cards":[0,1],"dealer":10,"canDouble":true,"canSplit":true}"#;
    let external = round.replace('}', r#","external":"telegram"}"#);
    for r in [round.to_string(), external] {
        let text = format!(r#"{{"proof":1,"epochs":[{{"commit":null,"rounds":[{r}]}}]}}"#);
        let (counts, findings) = audit_text(&text, &Options::default());
        assert_eq!((counts.invalid, counts.skipped), (1, 0), "{r}");
        assert_eq!(
            (findings[0].kind, findings[0].field.as_deref()),
            (proof::FindingKind::Invalid, Some("canSplit")),
            "{r}"
        );
        let (code, out, _) = run(&["audit", "-"], &text);
        assert_eq!(code, 2);
        assert!(out.contains("epoch 0, round 0: INVALID: canSplit"), "{out}");
    }
}

#[test]
fn a_round_that_is_not_utf8_in_its_fields_or_its_observation_is_invalid_and_the_rest_is_checked() {
    let face = provably::schemes::dice::roll("s", "c", 1).unwrap();
    let good = format!(r#"{{"op":"dice.roll","clientSeed":"c","n":1,"observed":{{"face":{face}}}}}"#);
    for bad in [
        b"{\"op\":\"dice.roll\",\"clientSeed\":\"\xff\",\"n\":1}".to_vec(),
        b"{\"op\":\"dice.roll\",\"clientSeed\":\"c\",\"n\":1,\"observed\":{\"face\":\"\xff\"}}".to_vec(),
    ] {
        let mut text =
            format!(r#"{{"proof":1,"epochs":[{{"commit":null,"serverSeed":"s","rounds":[{good},"#).into_bytes();
        text.extend_from_slice(&bad);
        text.extend_from_slice(format!(",{good}]}}]}}").as_bytes());
        let mut findings = Vec::new();
        let counts = proof::audit(&text[..], &Options::default(), &mut |e| {
            findings.extend_from_slice(e.findings());
            Ok(())
        })
        .unwrap();
        assert_eq!((counts.matched, counts.invalid), (2, 1));
        assert_eq!(
            (findings[0].round, findings[0].field.as_deref()),
            (Some(1), Some("round"))
        );
        assert!(
            findings[0].reason.as_deref().unwrap().contains("not UTF-8"),
            "{findings:?}"
        );
    }
}

/// A document of `rounds` unobserved `cursor.shuffle` rounds of `count` items, one epoch.
fn unobserved_shuffles(rounds: usize, count: u64) -> String {
    let round =
        |n: usize| format!(r#"{{"op":"cursor.shuffle","clientSeed":"c","nonce":{n},"cursor":0,"count":{count}}}"#);
    let rounds: Vec<String> = (0..rounds).map(round).collect();
    format!(
        r#"{{"proof":1,"epochs":[{{"commit":null,"serverSeed":"s","rounds":[{}]}}]}}"#,
        rounds.join(",")
    )
}

#[test]
fn unobserved_big_shuffles_do_not_list_their_outcomes_in_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let (report, junit) = (dir.path().join("r.json"), dir.path().join("j.xml"));
    let text = unobserved_shuffles(20, 100_000);
    let args = [
        "audit",
        "-",
        "--report",
        report.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ];
    let (code, out, err) = run(&args, &text);
    assert_eq!(code, 0, "{err}");
    // Before: about 700 KB of derived order per round in each output.
    assert!(out.len() < 20_000, "stdout has {} bytes", out.len());
    for path in [&report, &junit] {
        let len = std::fs::metadata(path).unwrap().len();
        assert!(len < 20_000, "{} has {len} bytes", path.display());
    }
    assert!(out.contains("more than 4096 bytes of JSON and not listed"), "{out}");
    let r = load(report.to_str().unwrap());
    assert_eq!(
        (r["unobserved"].as_u64(), r["verdict"].as_str()),
        (Some(20), Some("unobserved"))
    );
    assert!(r["findings"].as_array().unwrap().iter().all(|f| f["derived"].is_null()));
    // A small outcome is still listed whole.
    let (_, findings) = audit_text(&unobserved_shuffles(1, 52), &Options::default());
    assert_eq!(findings[0].derived["order"].as_array().map(Vec::len), Some(52));
}

#[test]
fn a_value_past_the_cap_stops_the_reading_with_a_finding_that_names_the_limit() {
    let options = Options {
        max_value: 1000,
        ..Options::default()
    };
    let big = "x".repeat(5000);
    for text in [
        // A title, a skipped unknown field, a round.
        format!(r#"{{"proof":1,"title":"{big}","epochs":[]}}"#),
        format!(r#"{{"proof":1,"junk":["{big}"],"epochs":[]}}"#),
        format!(
            r#"{{"proof":1,"epochs":[{{"serverSeed":"s","rounds":[{{"op":"dice.roll","clientSeed":"{big}","n":1}}]}}]}}"#
        ),
    ] {
        let (counts, findings) = audit_text(&text, &options);
        let last = findings.last().unwrap();
        let reason = last.reason.as_deref().unwrap();
        assert!(reason.contains("longer than 1000 bytes"), "{reason}");
        assert_eq!(counts.verdict(), proof::Verdict::Invalid);
        assert_eq!(counts.rounds, 0, "the capped round is not read");
    }
    // Values up to the cap are read as before.
    let text = format!(r#"{{"proof":1,"title":"{}","epochs":[]}}"#, "x".repeat(900));
    assert_eq!(audit_text(&text, &options).1, vec![]);
}

/// A round of more list items than any op answers is refused unread
/// (before: four 60 MB rounds of `"order": [0, 0, …]` took 2.35 GB
/// with `--jobs 1`, each built as values of 32 bytes per two of text).
#[test]
fn a_round_of_more_items_than_any_answer_is_invalid_and_the_next_round_is_read() {
    let limit = provably::base::json::MAX_ITEMS;
    let round = |order: &str| {
        format!(
            r#"{{"op":"cursor.shuffle","clientSeed":"c","nonce":0,"cursor":0,"count":52,"observed":{{"order":[{order}]}}}}"#
        )
    };
    let zeros = |n: usize| vec!["0"; n].join(",");
    for jobs in [1, 2] {
        let options = Options {
            jobs,
            ..Options::default()
        };
        let text = format!(
            r#"{{"proof":1,"epochs":[{{"commit":null,"serverSeed":"s","rounds":[{},{}]}}]}}"#,
            round(&zeros(limit + 1)),
            round(&zeros(limit - 16))
        );
        let (counts, findings) = audit_text(&text, &options);
        assert_eq!(findings.len(), 2, "{findings:?}");
        assert_eq!(findings[0].kind, FindingKind::Invalid, "{:?}", findings[0]);
        let reason = findings[0].reason.as_deref().unwrap_or_default();
        assert!(reason.contains(&format!("more than {limit} list items")), "{reason}");
        // Just under the limit the round is read and compared: a mismatch.
        assert_eq!(findings[1].kind, FindingKind::Mismatch, "{:?}", findings[1]);
        assert_eq!(counts.rounds, 2);
    }
}

/// One JSON line is one epoch of up to 64 MiB; its events go on in parts,
/// not all at the end (one line of 1,048,000 unobserved bets took 1.2 GB,
/// the same epochs in a document 56 MB). The audit runs under `ulimit -v`
/// (address space, not time: load cannot make it fail) with one malloc
/// arena per thread pool, on 300,000 unobserved bets on one line: 350 MB
/// of events before.
#[test]
fn one_json_line_of_many_rounds_streams_its_events_in_parts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one-line.jsonl");
    let rounds: Vec<String> = (0..300_000)
        .map(|n| format!(r#"{{"op":"stake.dice","clientSeed":"c","nonce":{}}}"#, 2 * n))
        .collect();
    std::fs::write(
        &path,
        format!(r#"{{"commit":null,"serverSeed":"s","rounds":[{}]}}"#, rounds.join(",")) + "\n",
    )
    .unwrap();
    let report = dir.path().join("r.json");
    let script = format!(
        "ulimit -v 262144 && exec {} audit --quiet --jobs 2 --report {} {}",
        crate::support::bin().display(),
        report.display(),
        path.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .env("MALLOC_ARENA_MAX", "2")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every bet is unobserved, and every nonce between two bets a gap.
    let r = load(report.to_str().unwrap());
    assert_eq!(
        (r["unobserved"].as_u64(), r["gaps"].as_u64()),
        (Some(300_000), Some(299_999)),
        "{stdout}"
    );
}

/// Runs `f` on another thread, failing if it has not finished after `secs`
/// (a hang guard on a loaded machine, not a speed claim).
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(f()));
    rx.recv_timeout(std::time::Duration::from_secs(secs))
        .expect("still running: the work grows faster than its input")
}

#[test]
fn distinct_keys_of_an_epoch_and_of_the_document_are_not_compared_pairwise() {
    // 200,000 distinct keys: quadratic, this took hours (160,000 took 150 s).
    let keys: Vec<String> = (0..200_000).map(|i| format!(r#""k{i}":0"#)).collect();
    let text = format!(
        r#"{{"proof":1,{0},"epochs":[{{"serverSeed":"s",{0},"rounds":[]}}]}}"#,
        keys.join(",")
    );
    let (counts, findings) = within(300, move || audit_text(&text, &Options::default()));
    assert_eq!(counts.invalid_other, 400_000);
    assert_eq!(findings.len(), 400_000);
}

#[test]
fn a_truncated_document_counts_every_complete_round_of_its_last_epoch() {
    let rounds: Vec<String> = (1..=10)
        .map(|n| format!(r#"{{"op":"dice.roll","clientSeed":"c","n":{n},"observed":{{"face":1}}}}"#))
        .collect();
    let text = format!(
        r#"{{"proof":1,"epochs":[{{"serverSeed":"s","rounds":[{}]}}]}}"#,
        rounds.join(",")
    );
    // Cut inside the tenth round, and between the ninth and the tenth.
    for cut in [text.rfind("\"n\":10").unwrap(), text.rfind(",{").unwrap() + 1] {
        for batch_rounds in [2, 256] {
            let options = Options {
                batch_rounds,
                ..Options::default()
            };
            let (counts, findings) = audit_text(&text[..cut], &options);
            assert_eq!(counts.rounds, 9, "cut at {cut}, batches of {batch_rounds}");
            let last = findings.last().unwrap();
            assert_eq!((last.epoch, last.round), (Some(0), Some(9)), "{last:?}");
            assert!(last.reason.as_deref().unwrap().starts_with("not JSON"), "{last:?}");
        }
    }
}

#[test]
fn jobs_past_256_is_a_usage_error_not_a_panic() {
    for jobs in ["18446744073709551615", "100000", "0"] {
        let (code, _, err) = run(&["audit", "--jobs", jobs, "examples/proofs/ladder.json"], "");
        assert_eq!(code, 2, "--jobs {jobs}: {err}");
        assert!(!err.contains("panicked") && err.contains("1..=256"), "{err}");
    }
    let (code, _, err) = run(&["audit", "--jobs", "256", "examples/proofs/ladder.json"], "");
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_byte_order_mark_before_the_proof_key_still_makes_a_document() {
    let text = std::fs::read_to_string(root().join("examples/proofs/ladder.json")).unwrap();
    let plain = report(&text, &Options::default());
    assert_eq!(plain["verdict"], "match");
    assert_eq!(report(&format!("\u{feff}{text}"), &Options::default()), plain);
}

#[test]
fn a_directory_is_named_and_a_text_that_is_no_proof_is_one_finding() {
    let (code, out, _) = run(&["audit", "docs"], "");
    assert_eq!(code, 2);
    assert!(out.contains("docs: is a directory"), "{out}");
    let (code, out, _) = run(&["audit", "README.md", "--quiet"], "");
    assert_eq!(code, 2);
    let (counts, findings) = audit_text(
        &std::fs::read_to_string(root().join("README.md")).unwrap(),
        &Options::default(),
    );
    assert_eq!(
        (counts.epochs, counts.invalid_other, findings.len()),
        (0, 1, 1),
        "{out}"
    );
    let reason = findings[0].reason.as_deref().unwrap();
    assert!(reason.starts_with("this is not a proof document"), "{reason}");
    assert_eq!(findings[0].line, Some(1));
}

/// The vectors' texts as Python's `json.dumps` writes them (", " and ": ",
/// non-ASCII as `\u` escapes), each round's and observation's keys in
/// reverse order when `reverse`, a document indented by `indent` spaces
/// when given (JSON lines stay one line each).
fn as_python_writes(text: &str, reverse: bool, indent: Option<u8>) -> String {
    let script = r#"
import json, sys
reverse = sys.argv[1] == "1"
indent = int(sys.argv[2]) if sys.argv[2] else None
def turn(d):
    return dict(reversed(list(d.items()))) if reverse else d
def epoch(e):
    if isinstance(e, dict) and isinstance(e.get("rounds"), list):
        e["rounds"] = [turn({k: (turn(v) if k == "observed" and isinstance(v, dict) else v) for k, v in r.items()})
                       if isinstance(r, dict) else r for r in e["rounds"]]
    return e
text = sys.stdin.read()
if text.lstrip().startswith('{"proof"'):
    doc = json.loads(text)
    doc["epochs"] = [epoch(e) for e in doc["epochs"]]
    sys.stdout.write(json.dumps(doc, indent=indent))
else:
    sys.stdout.write("\n".join(json.dumps(epoch(json.loads(l))) if l.strip() else l for l in text.split("\n")))
"#;
    let indent = indent.map(|n| n.to_string()).unwrap_or_default();
    duct::cmd(
        crate::support::python(),
        ["-c", script, if reverse { "1" } else { "0" }, &indent],
    )
    .stdin_bytes(text.as_bytes().to_vec())
    .read()
    .unwrap()
}

#[test]
fn vectors_written_by_pythons_json_dumps_in_any_key_order_or_indented_give_the_same_reports() {
    let mut texts = 0;
    for t in vectors().iter().filter(|t| t["class"] != "invalid") {
        let text = t["text"].as_str().unwrap();
        let want = report(text, &Options::default());
        for (reverse, indent) in [(false, None), (true, None), (false, Some(2))] {
            let other = as_python_writes(text, reverse, indent);
            assert_ne!(other, text);
            // Indented, a round stands on other lines: everything else is the same.
            let lines = |mut r: Value| {
                if indent.is_some() {
                    r["findings"]
                        .as_array_mut()
                        .unwrap()
                        .iter_mut()
                        .for_each(|f| f["line"] = Value::Null);
                }
                r
            };
            assert_eq!(
                lines(report(&other, &Options::default())),
                lines(want.clone()),
                "tcId {}, reversed {reverse}, indent {indent:?}",
                t["tcId"]
            );
            texts += 1;
        }
    }
    assert!(texts > 20, "{texts} texts");
}

/// A stake dice round of `client` at `nonce`, observed as derived under `server`.
fn dice_bet(server: &str, client: &str, nonce: u64) -> Value {
    let req = json!({"op": "stake.dice", "serverSeed": server, "clientSeed": client, "nonce": nonce});
    let ok = provably::registry::parse(&req).unwrap().run_value().unwrap();
    json!({"op": "stake.dice", "clientSeed": client, "nonce": nonce, "observed": ok})
}

#[test]
fn a_bet_shown_twice_in_two_epochs_of_one_seed_pair_is_a_mismatch() {
    // `provably proof` without --group writes an epoch per round: the same
    // seed pair's nonce 1 in two epochs is one bet shown twice, as it is in
    // one epoch, in a document, as JSON lines and split over two files.
    let server = "one server seed";
    let epoch = |nonces: &[u64]| {
        let rounds: Vec<Value> = nonces.iter().map(|&n| dice_bet(server, "c", n)).collect();
        json!({"commit": null, "serverSeed": server, "rounds": rounds})
    };
    let one = json!({"proof": 1, "epochs": [epoch(&[0, 1, 1])]}).to_string();
    let two = json!({"proof": 1, "epochs": [epoch(&[0, 1]), epoch(&[1])]}).to_string();
    let lines = format!("{}\n{}\n", epoch(&[0, 1]), epoch(&[1]));
    for text in [&one, &two, &lines] {
        let (counts, findings) = audit_text(text, &Options::default());
        assert_eq!(counts.verdict().name(), "mismatch", "{text}");
        assert_eq!(counts.mismatch, 1);
        let f = findings.iter().find(|f| f.kind == FindingKind::Mismatch).unwrap();
        assert_eq!((f.field.as_deref(), f.observed.as_u64()), (Some("nonce"), Some(1)));
    }
    // Another server seed is another seed pair: its nonce 1 is its own.
    let other = json!({"proof": 1, "epochs": [epoch(&[0, 1]), {"commit": null, "serverSeed": "another", "rounds": [dice_bet("another", "c", 1)]}]});
    let (counts, _) = audit_text(&other.to_string(), &Options::default());
    assert_eq!(counts.verdict().name(), "match");
    // Across files of one audit, through the binary.
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    std::fs::write(&a, format!("{}\n", epoch(&[0, 1]))).unwrap();
    std::fs::write(&b, format!("{}\n", epoch(&[2, 1]))).unwrap();
    let out = duct::cmd(bin(), ["audit", "--quiet"])
        .before_spawn(move |c| {
            c.arg(&a).arg(&b);
            Ok(())
        })
        .stdout_capture()
        .unchecked()
        .run()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn a_gap_that_a_later_epoch_fills_is_no_gap() {
    // Gaps are a property of the whole history: nonces 0, 1, 4 in one epoch
    // and 2, 3 in a later epoch of the same seed pair leave none.
    let server = "gapless";
    let epoch = |nonces: &[u64]| {
        let rounds: Vec<Value> = nonces.iter().map(|&n| dice_bet(server, "c", n)).collect();
        json!({"serverSeed": server, "rounds": rounds})
    };
    let text = json!({"proof": 1, "epochs": [epoch(&[0, 1, 4]), epoch(&[2, 3])]}).to_string();
    let (counts, findings) = audit_text(&text, &Options::default());
    assert_eq!((counts.gaps, counts.verdict().name()), (0, "match"), "{findings:?}");
    let text = json!({"proof": 1, "epochs": [epoch(&[0, 1, 4]), epoch(&[2])]}).to_string();
    let (counts, findings) = audit_text(&text, &Options::default());
    assert_eq!(counts.gaps, 1);
    let gap = findings.iter().find(|f| f.kind == FindingKind::Gap).unwrap();
    assert_eq!((gap.epoch, gap.observed.clone()), (Some(0), json!([3, 3])));
}
