//! Hostile targets: a target must not be able to make the harness lie, run
//! out of memory, or outlive it. Each faux mode below is one attempt; each
//! test asserts the bounded, truthful outcome.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::{bin, python, root, run};

fn faux(mode: &str) -> String {
    format!("{} tests/faux/faux.py {mode}", python())
}

/// Runs `provably diff` on one faux mode with a JSON report; returns
/// (exit code, stdout, stderr, report).
fn diff_with_report(mode: &str, extra: &[&str]) -> (i32, String, String, Value) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let junit = dir.path().join("j.xml");
    let mut args = vec![
        "diff",
        "--target-cmd",
        &*Box::leak(faux(mode).into_boxed_str()),
        "--vectors-only",
        "--report",
        report.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args, "");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    // The JUnit file must be well-formed XML whatever the target wrote.
    let parsed = Command::new(python())
        .args(["-c", "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])"])
        .arg(&junit)
        .output()
        .unwrap();
    assert!(
        parsed.status.success(),
        "{mode}: JUnit is not well-formed XML: {}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    (code, out, err, report)
}

fn assert_nothing_hidden(what: &str, text: &str) {
    for c in ['\u{1b}', '\r', '\u{202e}', '\u{fffe}', '\u{ffff}'] {
        assert!(!text.contains(c), "{what} shows U+{:04X} raw:\n{text}", u32::from(c));
    }
}

#[test]
fn terminal_escapes_from_a_target_are_shown_escaped_and_cannot_forge_the_summary() {
    let (code, out, err, report) = diff_with_report("terminal-escapes", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_nothing_hidden("stdout", &out);
    assert_nothing_hidden("stderr", &err);
    // The forged summary is there only inside the escaped divergence, never as a line of its own.
    assert!(
        !out.lines().any(|l| l.trim_start().starts_with("ALL TARGETS AGREE")),
        "{out}"
    );
    assert!(out.contains(r"\u001b[2J"), "the report shows the escape: {out}");
    let text = report.to_string();
    assert!(text.contains(r"\\u{1b}[2J") || text.contains(r"\u001b[2J"), "{text}");
}

#[test]
fn noncharacters_in_answers_and_stderr_keep_junit_well_formed() {
    let (code, out, err, _) = diff_with_report("noncharacters", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_nothing_hidden("stdout", &out);
}

#[test]
fn huge_valid_answers_are_held_within_a_memory_bound() {
    let (code, out, err, report) = diff_with_report("huge-answers", &["--jobs", "1"]);
    assert_eq!(code, 0, "padded answers are still right: {out}{err}");
    let peak = report["peakRssKiB"].as_u64().expect("the report gives the peak RSS");
    // 64 answers of 16 MiB are 1 GiB; the harness holds at most its 64 MiB
    // budget of lines in flight, plus one line being parsed.
    assert!(peak < 400 * 1024, "peak RSS {peak} KiB");
}

#[test]
fn a_setsid_grandchild_does_not_outlive_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let out = Command::new(bin())
        .args([
            "diff",
            "--vectors-only",
            "--quiet",
            "--target-cmd",
            &faux("setsid-child"),
        ])
        .current_dir(root())
        .env("FAUX_CHILD_PID", &pid_file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let pid: i32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    // Reaped means gone: not even a zombie is left (kill(pid, 0) fails).
    let gone = (0..200).any(|_| {
        let alive = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok();
        if alive {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        !alive
    });
    assert!(gone, "the setsid() grandchild {pid} outlived the run");
}

/// `provably … | head`: a closed stdout is no panic, and a diff still writes
/// its report files.
#[test]
fn a_closed_stdout_is_not_a_panic_and_loses_no_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let junit = dir.path().join("j.xml");
    let report_arg = report.to_str().unwrap().to_string();
    let junit_arg = junit.to_str().unwrap().to_string();
    let runs: [Vec<&str>; 3] = [
        vec![
            "derive",
            "cursor.shuffle",
            "--server-seed",
            "s",
            "--client-seed",
            "c",
            "--nonce",
            "1",
            "--count",
            "100000",
        ],
        vec!["vektoren"],
        vec![
            "diff",
            "--target",
            "provably-serve",
            "--vectors-only",
            "--report",
            &report_arg,
            "--junit",
            &junit_arg,
        ],
    ];
    for args in runs {
        let mut child = Command::new(bin())
            .args(&args)
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away at once
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
    }
    assert!(
        report.exists() && junit.exists(),
        "diff | true still writes its reports"
    );
}
