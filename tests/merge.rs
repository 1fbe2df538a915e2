//! `provably audit --partial` and `provably merge`: an archive cut into
//! parts, each part audited alone and the partials merged, gives the report,
//! the text and the exit status of one `provably audit` over the whole
//! archive, whatever the cut and the order of the partials; partials that do
//! not belong together are refused.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::support::{bin, root};

/// The outcome of one command: exit status, stdout, and the --report file.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    code: i32,
    text: String,
    report: String,
}

fn cmd(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = duct::cmd(bin(), args)
        .dir(dir)
        .stdout_capture()
        .stderr_capture()
        .unchecked()
        .run()
        .expect("provably runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

fn with_stats<'a>(stats: bool, args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    if stats {
        v.insert(1, "--stats");
    }
    v
}

/// `provably audit` over the whole source, named `name` in `dir`.
fn audit(dir: &Path, name: &str, text: &str, stats: bool) -> Outcome {
    std::fs::write(dir.join(name), text).unwrap();
    let _ = std::fs::remove_file(dir.join("one.json"));
    let (code, text, err) = cmd(dir, &with_stats(stats, &["audit", "--report", "one.json", name]));
    assert!(
        !err.contains("error:") && code != 101,
        "audit failed (exit {code}): {err}"
    );
    Outcome {
        code,
        text,
        report: std::fs::read_to_string(dir.join("one.json")).unwrap(),
    }
}

/// One part of a source: its text and where it lies.
#[derive(Debug, Clone)]
struct Part {
    text: String,
    first_epoch: u64,
    first_line: u64,
}

/// Audits each part alone into `p<i>.partial`; returns the partials' names.
fn partials(dir: &Path, name: &str, parts: &[Part], stats: bool) -> Vec<String> {
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let input = format!("part{i}");
            let out = format!("p{i}.partial");
            std::fs::write(dir.join(&input), &p.text).unwrap();
            let (epoch, line) = (p.first_epoch.to_string(), p.first_line.to_string());
            let args = [
                "audit",
                "--partial",
                &out,
                "--part-of",
                name,
                "--first-epoch",
                &epoch,
                "--first-line",
                &line,
                &input,
            ];
            let (code, _, err) = cmd(dir, &with_stats(stats, &args));
            assert_eq!(code, 0, "audit --partial of part {i} failed: {err}");
            out
        })
        .collect()
}

fn merge(dir: &Path, partials: &[String], stats: bool) -> Outcome {
    let _ = std::fs::remove_file(dir.join("merged.json"));
    let mut args = vec!["merge", "--report", "merged.json"];
    args.extend(partials.iter().map(String::as_str));
    let (code, text, err) = cmd(dir, &with_stats(stats, &args));
    // Exit 2 is also the verdict on invalid input; a refusal says "error:".
    assert!(
        !err.contains("error:") && code != 101,
        "merge failed (exit {code}): {err}"
    );
    Outcome {
        code,
        text,
        report: std::fs::read_to_string(dir.join("merged.json")).unwrap(),
    }
}

/// A document's epochs as written (each epoch's own bytes), when the
/// document holds nothing but `proof` 1 and its epochs.
fn document_epochs(text: &str) -> Option<Vec<String>> {
    let doc: Map<String, Value> = serde_json::from_str(text).ok()?;
    // A title says nothing the audit checks; any other key is the document's own finding.
    let known = doc.keys().all(|k| ["proof", "epochs", "title"].contains(&k.as_str()));
    if !known || doc.get("proof") != Some(&Value::from(1)) {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Epochs<'a> {
        #[serde(borrow)]
        epochs: Vec<&'a RawValue>,
    }
    let e: Epochs = serde_json::from_str(text).ok()?;
    Some(e.epochs.iter().map(|r| r.get().to_string()).collect())
}

/// Cuts `text` before the epochs (document) or lines (JSON lines) at `cuts`
/// (positions among its pieces; out of range ones are ignored).
fn cut(text: &str, cuts: &[usize]) -> Vec<Part> {
    if let Some(epochs) = document_epochs(text) {
        let mut at: Vec<usize> = cuts.iter().copied().filter(|&c| c > 0 && c < epochs.len()).collect();
        at.extend([0, epochs.len()]);
        at.sort_unstable();
        at.dedup();
        return at
            .windows(2)
            .map(|w| Part {
                text: format!("{{\"proof\":1,\"epochs\":[{}]}}", epochs[w[0]..w[1]].join(",")),
                first_epoch: w[0] as u64,
                first_line: 0,
            })
            .collect();
    }
    // A document cut nowhere (the sniff of docs/proofs.md: its first key is "proof").
    let first_key = text.trim_start().strip_prefix('{').map(str::trim_start);
    if first_key.is_some_and(|k| k.starts_with("\"proof\"")) {
        return vec![Part {
            text: text.to_string(),
            first_epoch: 0,
            first_line: 0,
        }];
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut at: Vec<usize> = cuts.iter().copied().filter(|&c| c > 0 && c < lines.len()).collect();
    at.extend([0, lines.len()]);
    at.sort_unstable();
    at.dedup();
    let blank = |l: &str| l.bytes().all(|b| b.is_ascii_whitespace());
    at.windows(2)
        .map(|w| Part {
            text: lines[w[0]..w[1]].concat(),
            first_epoch: lines[..w[0]].iter().filter(|l| !blank(l)).count() as u64,
            first_line: w[0] as u64,
        })
        .collect()
}

/// Whether a report lists a finding placed in no epoch (the document's own):
/// every part of a cut document would have it.
fn has_document_finding(report: &str) -> bool {
    let r: Value = serde_json::from_str(report).unwrap();
    r["findings"].as_array().unwrap().iter().any(|f| f["epoch"].is_null())
}

/// Audits `text` whole and in `cuts`, merges the partials given in `order`
/// (a permutation seed) and says where they differ.
fn same_as_one_audit(dir: &Path, text: &str, cuts: &[usize], stats: bool, order: u64) -> Result<(), String> {
    let name = "archive.proof";
    let one = audit(dir, name, text, stats);
    let parts = if has_document_finding(&one.report) && document_epochs(text).is_some() {
        cut(text, &[])
    } else {
        cut(text, cuts)
    };
    let mut names = partials(dir, name, &parts, stats);
    // Any order: rotate and reverse by the seed.
    let n = names.len();
    names.rotate_left(usize::try_from(order).unwrap() % n);
    if order % 2 == 1 {
        names.reverse();
    }
    let merged = merge(dir, &names, stats);
    if merged != one {
        return Err(format!(
            "{} parts (cuts {cuts:?}), stats {stats}: merge differs from one audit\n--- audit (exit {})\n{}\n{}\n--- merge (exit {})\n{}\n{}",
            parts.len(),
            one.code,
            one.text,
            one.report,
            merged.code,
            merged.text,
            merged.report
        ));
    }
    Ok(())
}

fn proof_vectors() -> Vec<(String, String)> {
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("vectors/proofs.json")).unwrap()).unwrap();
    file["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["comment"].as_str().unwrap_or("").to_string(),
                t["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_proof_vector_cut_at_every_epoch_and_merged_gives_the_report_of_one_audit() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (comment, text)) in proof_vectors().iter().enumerate() {
        let every: Vec<usize> = (1..200).collect();
        for stats in [false, true] {
            if let Err(e) = same_as_one_audit(dir.path(), text, &every, stats, i as u64) {
                panic!("proof vector {i} ({comment}): {e}");
            }
        }
    }
}

#[test]
fn every_example_proof_cut_at_every_epoch_and_merged_gives_the_report_of_one_audit() {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(root().join("examples/proofs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let every: Vec<usize> = (1..200).collect();
            same_as_one_audit(dir.path(), &text, &every, true, 1).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

/// A request line of a round `provably proof` derives.
fn request(op: u8, seed: u8, client: u8, nonce: u64, range: u64) -> String {
    match op % 4 {
        0 | 3 => format!(
            r#"{{"op":"cursor.int","serverSeed":"s{seed}","clientSeed":"c{client}","nonce":{nonce},"cursor":0,"range":{range}}}"#
        ),
        1 => format!(r#"{{"op":"stake.dice","serverSeed":"s{seed}","clientSeed":"c{client}","nonce":{nonce}}}"#),
        _ => format!(
            r#"{{"op":"stake.mines","serverSeed":"s{seed}","clientSeed":"c{client}","nonce":{nonce},"mines":{}}}"#,
            1 + range % 24
        ),
    }
}

/// JSON lines of the rounds, derived by `provably proof` (grouped rounds of
/// one seed share an epoch), with some rounds' observations changed.
fn archive(dir: &Path, rounds: &[(u8, u8, u8, u64, u64)], tamper: &[usize], blank: &[usize]) -> String {
    let requests: String = rounds
        .iter()
        .map(|&(op, seed, client, nonce, range)| request(op, seed, client, nonce, range) + "\n")
        .collect();
    std::fs::write(dir.join("requests.jsonl"), requests).unwrap();
    let (code, text, err) = cmd(
        dir,
        &[
            "proof",
            "--group",
            "--commit",
            "--lines",
            "--requests",
            "requests.jsonl",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for &t in tamper {
        let i = t % lines.len();
        // A changed outcome: the first digit after "observed" moved by one.
        if let Some(at) = lines[i].find("\"observed\":") {
            let rest = &lines[i][at..];
            if let Some(d) = rest.find(|c: char| c.is_ascii_digit()) {
                let pos = at + d;
                let digit = lines[i].as_bytes()[pos];
                let new = if digit == b'9' { b'8' } else { digit + 1 };
                lines[i].replace_range(pos..=pos, &char::from(new).to_string());
            }
        }
    }
    for &b in blank {
        let i = b % (lines.len() + 1);
        lines.insert(i, String::new());
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random archives: cursor.int over up to 128 ranges (more families
    /// than the cap), Stake bets of two seeds and three client seeds with
    /// nonces bet twice and missing across epochs, tampered rounds, blank
    /// lines; cut anywhere, merged in any order.
    #[test]
    fn a_random_archive_cut_anywhere_merges_into_the_report_of_one_audit(
        rounds in prop::collection::vec((0u8..4, 0u8..2, 0u8..3, 0u64..12, 2u64..130), 1..300),
        tamper in prop::collection::vec(any::<usize>(), 0..3),
        blank in prop::collection::vec(any::<usize>(), 0..2),
        cuts in prop::collection::vec(0usize..200, 0..9),
        stats in any::<bool>(),
        order in any::<u64>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let text = archive(dir.path(), &rounds, &tamper, &blank);
        if let Err(e) = same_as_one_audit(dir.path(), &text, &cuts, stats, order) {
            prop_assert!(false, "{}\narchive:\n{}", e, text);
        }
    }

    /// Merging is associative: partials merged in two groups (`merge
    /// --partial`) and the groups merged give what all at once gives.
    #[test]
    fn merging_merged_partials_gives_what_merging_all_at_once_gives(
        rounds in prop::collection::vec((0u8..3, 0u8..2, 0u8..3, 0u64..12, 2u64..92), 1..120),
        cuts in prop::collection::vec(0usize..120, 2..8),
        split in any::<usize>(),
        stats in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let text = archive(d, &rounds, &[1], &[]);
        let parts = cut(&text, &cuts);
        let names = partials(d, "archive.proof", &parts, stats);
        let all = merge(d, &names, stats);
        let k = split % (names.len() + 1);
        let mut groups = Vec::new();
        for (g, chunk) in [&names[..k], &names[k..]].iter().enumerate() {
            if chunk.is_empty() {
                continue;
            }
            let out = format!("group{g}.partial");
            let mut args = vec!["merge", "--partial", out.as_str()];
            args.extend(chunk.iter().map(String::as_str));
            let (code, _, err) = cmd(d, &args);
            prop_assert_eq!(code, 0, "{}", err);
            groups.push(out);
        }
        groups.reverse();
        let grouped = merge(d, &groups, stats);
        prop_assert_eq!(grouped, all);
    }
}

/// A small archive audited as two parts: the partials' paths.
fn two_partials(dir: &Path, stats: bool) -> Vec<PathBuf> {
    let rounds: Vec<(u8, u8, u8, u64, u64)> = (0..6)
        .map(|n| (1, 0, 0, n, 2))
        .chain((0..6).map(|n| (0, 1, 0, n, 6)))
        .collect();
    let text = archive(dir, &rounds, &[], &[]);
    std::fs::write(dir.join("archive.proof"), &text).unwrap();
    let parts = cut(&text, &[1]);
    partials(dir, "archive.proof", &parts, stats)
        .iter()
        .map(|n| dir.join(n))
        .collect()
}

fn refused(dir: &Path, args: &[&str]) -> String {
    let (code, _, err) = cmd(dir, args);
    assert_eq!(code, 2, "expected a refusal (exit 2): {err}");
    err
}

fn edit(path: &Path, f: impl FnOnce(&mut Vec<String>)) {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    f(&mut lines);
    std::fs::write(path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
}

#[test]
fn a_partial_of_another_version_of_provably_or_of_the_format_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let p = two_partials(dir.path(), false);
    edit(&p[1], |l| {
        l[0] = l[0].replace("\"provably\":\"", "\"provably\":\"0.0.0-other+")
    });
    let err = refused(dir.path(), &["merge", p[0].to_str().unwrap(), p[1].to_str().unwrap()]);
    assert!(
        err.contains("p1.partial") && err.contains("0.0.0-other") && err.contains("one version"),
        "{err}"
    );
    // The form before parts closed with their length and digest.
    edit(&p[1], |l| {
        l[0] = r#"{"partial":{"version":1,"provably":"0.1.0","stats":false}}"#.into()
    });
    let err = refused(dir.path(), &["merge", p[0].to_str().unwrap(), p[1].to_str().unwrap()]);
    assert!(err.contains("p1.partial") && err.contains("format 1"), "{err}");
}

#[test]
fn partials_audited_with_and_without_stats_do_not_merge() {
    let dir = tempfile::tempdir().unwrap();
    let with = two_partials(dir.path(), true);
    let other = dir.path().join("plain");
    std::fs::create_dir(&other).unwrap();
    let without = two_partials(&other, false);
    let err = refused(
        dir.path(),
        &["merge", with[0].to_str().unwrap(), without[1].to_str().unwrap()],
    );
    assert!(err.contains("without --stats") && err.contains("same options"), "{err}");
    // Asking a merge for statistics the parts did not count.
    let err = refused(
        &other,
        &[
            "merge",
            "--stats",
            without[0].to_str().unwrap(),
            without[1].to_str().unwrap(),
        ],
    );
    assert!(err.contains("without --stats"), "{err}");
}

#[test]
fn a_partial_cut_short_is_refused_and_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    for stats in [false, true] {
        let p = two_partials(dir.path(), stats);
        edit(&p[0], |l| {
            l.pop();
        });
        let err = refused(dir.path(), &["merge", p[0].to_str().unwrap(), p[1].to_str().unwrap()]);
        assert!(
            err.contains("p0.partial") && (err.contains("cut short") || err.contains("statistics are missing")),
            "{err}"
        );
    }
    // Half a line.
    let p = two_partials(dir.path(), false);
    let text = std::fs::read_to_string(&p[0]).unwrap();
    std::fs::write(&p[0], &text[..text.len() - 5]).unwrap();
    let err = refused(dir.path(), &["merge", p[0].to_str().unwrap(), p[1].to_str().unwrap()]);
    assert!(err.contains("p0.partial, line"), "{err}");
}

#[test]
fn a_part_merged_twice_or_parts_that_overlap_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = two_partials(dir.path(), false);
    let twice = dir.path().join("again.partial");
    std::fs::copy(&p[1], &twice).unwrap();
    let err = refused(
        dir.path(),
        &[
            "merge",
            p[0].to_str().unwrap(),
            p[1].to_str().unwrap(),
            twice.to_str().unwrap(),
        ],
    );
    assert!(err.contains("overlaps") && err.contains("merged once"), "{err}");
    // The whole source and one of its parts.
    let whole = dir.path().join("whole.partial");
    let (code, _, err) = cmd(
        dir.path(),
        &[
            "audit",
            "--partial",
            whole.to_str().unwrap(),
            "--part-of",
            "archive.proof",
            "archive.proof",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let err = refused(dir.path(), &["merge", whole.to_str().unwrap(), p[1].to_str().unwrap()]);
    assert!(err.contains("overlaps"), "{err}");
}

#[test]
fn something_that_is_no_partial_is_refused_by_name_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let err = refused(
        dir.path(),
        &["merge", root().join("examples/proofs/ladder.json").to_str().unwrap()],
    );
    assert!(
        err.contains("ladder.json, line 1") && err.contains("--partial"),
        "{err}"
    );
    let p = two_partials(dir.path(), false);
    edit(&p[0], |l| l.insert(2, r#"{"surprise":1}"#.into()));
    let err = refused(dir.path(), &["merge", p[0].to_str().unwrap()]);
    assert!(err.contains("p0.partial, line 3"), "{err}");
}

#[test]
fn placing_a_part_takes_one_input_and_a_partial_takes_no_report() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = ("examples/proofs/ladder.json", "examples/proofs/dice-game.json");
    let r = root().to_str().unwrap();
    let err = refused(Path::new(r), &["audit", "--partial", "-", "--first-epoch", "3", a, b]);
    assert!(err.contains("one FILE"), "{err}");
    let (code, _, err) = cmd(Path::new(r), &["audit", "--partial", "-", "--report", "x.json", a]);
    assert_eq!(code, 2, "{err}");
    let _ = dir;
}

#[test]
fn a_partial_validates_against_its_schema_line_by_line() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("vectors/partial.schema.json")).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for stats in [false, true] {
        for p in two_partials(dir.path(), stats) {
            for (i, line) in std::fs::read_to_string(&p).unwrap().lines().enumerate() {
                let v: Value = serde_json::from_str(line).unwrap();
                assert!(validator.is_valid(&v), "{} line {}: {line}", p.display(), i + 1);
            }
        }
    }
    // A stake history with a finding and bets.
    let text = std::fs::read_to_string(root().join("examples/proofs/stake-history.json")).unwrap();
    let changed = text.replacen("\"roll\":", "\"roll\":1", 1);
    std::fs::write(dir.path().join("h.json"), changed).unwrap();
    let (code, out, err) = cmd(dir.path(), &["audit", "--stats", "--partial", "-", "h.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("{\"finding\":") && out.contains("{\"bets\":"), "{out}");
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(validator.is_valid(&v), "{line}");
    }
}

/// Gives every part of an edited partial the length and digest of its
/// records again, and the partial its close, as anyone who alters a
/// partial can: what refuses it then is what the merge derives. A partial
/// of the form before parts were closed is left as it is.
fn reseal(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    if !text.contains("{\"close\":") {
        return;
    }
    let mut out = String::new();
    let mut part: Option<(Sha256, u64)> = None;
    let mut parts = 0u64;
    for line in text.lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        let line = if let Some(end) = v.get_mut("end") {
            let (digest, records) = part.take().unwrap();
            end["records"] = records.into();
            end["sha256"] = format!("{:x}", digest.finalize()).into();
            parts += 1;
            v.to_string()
        } else if v.get("close").is_some() {
            let sha256 = format!("{:x}", Sha256::digest(out.as_bytes()));
            out.push_str(&serde_json::json!({ "close": { "parts": parts, "sha256": sha256 } }).to_string());
            out.push('\n');
            continue;
        } else {
            if v.get("part").is_some() {
                part = Some((Sha256::new(), 0));
            }
            line.to_string()
        };
        if let Some((digest, records)) = &mut part {
            digest.update(format!("{line}\n"));
            *records += 1;
        }
        out.push_str(&line);
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
}

/// Edits the `end` record of the partial's first part (its counts as JSON) and reseals it.
fn edit_counts(path: &Path, f: impl FnOnce(&mut Map<String, Value>)) {
    edit(path, |lines| {
        let at = lines.iter().position(|l| l.starts_with("{\"end\":")).unwrap();
        let mut v: Value = serde_json::from_str(&lines[at]).unwrap();
        f(v["end"]["counts"].as_object_mut().unwrap());
        lines[at] = v.to_string();
    });
    reseal(path);
}

/// Runs provably with a hang guard: a run still going after a minute is
/// killed, and the test fails saying so (a refusal takes well under a
/// second). With `memory`, its address space is held to that many KiB.
fn guarded(dir: &Path, args: &[&str], memory: Option<u64>) -> (i32, String, String) {
    let bin = bin();
    let mut all = vec![bin.to_str().unwrap()];
    all.extend(args);
    let limit = memory.map_or(String::new(), |kib| format!("ulimit -v {kib} && "));
    let script = format!("{limit}exec \"$0\" \"$@\"");
    let handle = duct::cmd("sh", ["-c", script.as_str()].iter().chain(&all))
        .dir(dir)
        .stdout_capture()
        .stderr_capture()
        .unchecked()
        .start()
        .expect("provably runs");
    let start = Instant::now();
    while handle.try_wait().expect("waiting for provably").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            handle.kill().expect("killing provably");
            panic!("provably {args:?} still ran after a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = handle.into_output().expect("provably ran");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

/// Every output a merge can write, none of which a refusal may leave behind.
const OUTPUTS: [&str; 3] = ["out.partial", "out.json", "out.xml"];

/// A merge of `partials` asking for every output: refused (exit 2, the
/// message on stderr), no output written.
fn refused_whole(dir: &Path, partials: &[&Path]) -> String {
    refused_within(dir, partials, None)
}

/// [`refused_whole`] with the merge's address space held to `memory` KiB.
fn refused_within(dir: &Path, partials: &[&Path], memory: Option<u64>) -> String {
    let mut args = vec![
        "merge",
        "--partial",
        OUTPUTS[0],
        "--report",
        OUTPUTS[1],
        "--junit",
        OUTPUTS[2],
    ];
    args.extend(partials.iter().map(|p| p.to_str().unwrap()));
    let (code, out, err) = guarded(dir, &args, memory);
    assert_eq!(code, 2, "expected a refusal (exit 2): {err}\n{out}");
    for o in OUTPUTS {
        assert!(!dir.join(o).exists(), "a refused merge wrote {o}");
    }
    err
}

#[test]
fn a_partial_of_several_parts_cut_between_two_records_is_refused() {
    // One partial of two parts (`audit --partial` of two files), cut
    // right after its first part's end: every line left is whole.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = two_partials(d, false);
    let (code, _, err) = cmd(d, &["audit", "--partial", "both.partial", "part0", "part1"]);
    assert_eq!(code, 0, "{err}");
    let both = d.join("both.partial");
    edit(&both, |lines| {
        let end = lines.iter().position(|l| l.starts_with("{\"end\":")).unwrap();
        lines.truncate(end + 1);
    });
    let err = refused_whole(d, &[&both]);
    assert!(err.contains("both.partial, line") && err.contains("cut short"), "{err}");
    let _ = p;
}

#[test]
fn counts_that_say_match_while_the_part_holds_a_mismatch_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A round whose observed outcome was changed: a mismatch finding.
    let rounds: Vec<(u8, u8, u8, u64, u64)> = (0..16).map(|n| (0, 0, 0, n, 6)).collect();
    let text = archive(d, &rounds, &[0], &[]);
    let p = partials(d, "archive.proof", &cut(&text, &[]), false);
    let p = d.join(&p[0]);
    let lines = std::fs::read_to_string(&p).unwrap();
    assert!(
        lines.contains("{\"finding\":{") && lines.contains("\"mismatch\":1"),
        "{lines}"
    );
    // Its counts say all 16 rounds matched.
    edit_counts(&p, |c| {
        c["match"] = 16.into();
        c["mismatch"] = 0.into();
    });
    let err = refused_whole(d, &[&p]);
    let end = lines.lines().position(|l| l.starts_with("{\"end\":")).unwrap() + 1;
    assert!(
        err.contains(&format!("p0.partial, line {end}:"))
            && err.contains("mismatch 0")
            && err.contains("1 rounds with mismatch findings"),
        "{err}"
    );
}

#[test]
fn counts_that_add_up_past_2_to_the_64_are_refused_not_wrapped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = two_partials(d, false);
    // Consistent on its own: 2^64 − 1 rounds, all matched (a match leaves
    // no record); with the other part's rounds the sums pass 2^64 − 1.
    edit_counts(&p[0], |c| {
        c["rounds"] = u64::MAX.into();
        c["match"] = u64::MAX.into();
    });
    let err = refused_whole(d, &[&p[0], &p[1]]);
    assert!(err.contains("2^64 − 1") && err.contains(".partial"), "{err}");
}

#[test]
fn a_run_of_2_to_the_62_bets_is_checked_against_the_rounds_not_walked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = two_partials(d, false);
    let run = |lines: &mut Vec<String>| {
        let at = lines.iter().position(|l| l.starts_with("{\"bets\":")).unwrap();
        let mut v: Value = serde_json::from_str(&lines[at]).unwrap();
        v["bets"]["count"] = (1u64 << 62).into();
        lines[at] = v.to_string();
    };
    // A run of 2^62 rounds in a part of a few.
    let alone = d.join("alone.partial");
    std::fs::copy(&p[0], &alone).unwrap();
    edit(&alone, run);
    reseal(&alone);
    let err = refused_whole(d, &[&alone, &p[1]]);
    assert!(
        err.contains("alone.partial, line") && err.contains("runs of bets hold"),
        "{err}"
    );
    // The same run in a part that counts its rounds merges, its nonces
    // followed as one interval.
    let (code, _, err) = cmd(
        d,
        &[
            "merge",
            "--report",
            "one.json",
            p[0].to_str().unwrap(),
            p[1].to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let before: Value = serde_json::from_str(&std::fs::read_to_string(d.join("one.json")).unwrap()).unwrap();
    let count = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        let line = text.lines().find(|l| l.starts_with("{\"bets\":")).unwrap();
        serde_json::from_str::<Value>(line).unwrap()["bets"]["count"]
            .as_u64()
            .unwrap()
    };
    let grown = (1u64 << 62) - count(&p[0]);
    edit(&p[0], run);
    edit_counts(&p[0], |c| {
        for k in ["rounds", "match"] {
            c[k] = (c[k].as_u64().unwrap() + grown).into();
        }
    });
    let (code, _, err) = guarded(
        d,
        &[
            "merge",
            "--report",
            "big.json",
            p[0].to_str().unwrap(),
            p[1].to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let big: Value = serde_json::from_str(&std::fs::read_to_string(d.join("big.json")).unwrap()).unwrap();
    let rounds = |r: &Value| r["rounds"].as_u64().unwrap();
    assert_eq!(rounds(&big) - rounds(&before), grown, "{big}");
}

#[test]
fn a_record_line_of_200_mib_is_refused_at_the_line_cap() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = two_partials(d, false);
    let header = std::fs::read_to_string(&p[0])
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    // Written a MiB at a time: the test holds no more than that either.
    let long = d.join("long.partial");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&long).unwrap());
    writeln!(f, "{header}").unwrap();
    f.write_all(br#"{"finding":{"reason":""#).unwrap();
    let mib = vec![b'a'; 1 << 20];
    for _ in 0..200 {
        f.write_all(&mib).unwrap();
    }
    f.write_all(b"\"}}\n").unwrap();
    f.into_inner().unwrap().sync_all().unwrap();
    // Held to less memory than the line takes (it is refused after the
    // cap's 64 MiB are read: some 70 MB in all).
    let err = refused_within(d, &[&long, &p[1]], Some(200 << 10));
    assert!(
        err.contains("long.partial, line 2") && err.contains("longer than"),
        "{err}"
    );
}
