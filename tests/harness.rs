//! The harness holds itself to account: every fault kind is provoked by
//! tests/faux/faux.py and must be classified as such; outside programs plug
//! in with --target-cmd and no code change.

use std::path::Path;

use rstest::rstest;

use provably::harness::manifest::Manifest;
use provably::harness::process::ProcessTarget;
use provably::harness::run::{run_target, Options, TargetReport};
use provably::harness::FaultKind;

use crate::support::{python, root, run};

/// A faux target's manifest. The start-up limit is short only for the mode
/// that tests it: on a loaded 2-core machine a Python start can take
/// seconds, and a limit there is a hang guard, not a speed claim.
fn faux(mode: &str, request_timeout_ms: u64) -> Manifest {
    let startup_timeout_ms = if mode == "slow-start" { 3000 } else { 30_000 };
    let text = format!(
        r#"name = "faux-{mode}"
command = ["{py}", "tests/faux/faux.py", "{mode}"]
workdir = "."
startup_timeout_ms = {startup_timeout_ms}
request_timeout_ms = {request_timeout_ms}
"#,
        py = python()
    );
    Manifest::parse(&text, root(), "test").unwrap()
}

fn run_faux(mode: &str, cases: u64) -> TargetReport {
    let opts = Options {
        cases,
        ..Options::default()
    };
    run_target(
        // Only a hanging target waits out its request limit.
        &|| {
            Box::new(ProcessTarget::new(faux(
                mode,
                if mode == "hang" { 3000 } else { 30_000 },
            )))
        },
        1,
        None,
        &opts,
        &|_| {},
    )
}

fn kinds(r: &TargetReport) -> Vec<FaultKind> {
    r.faults.iter().map(|f| f.kind).collect()
}

#[test]
fn correct_faux_agrees_everywhere_and_skips_the_ops_it_does_not_claim() {
    let r = run_faux("correct", 100);
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    assert_eq!(r.total(|o| o.diverge), 0);
    assert_eq!(r.claimed_ops(), 5);
    assert!(r.total(|o| o.agree) >= 5 * 100);
    let unclaimed: Vec<&str> = r.ops.iter().filter(|o| !o.claimed).map(|o| o.op.as_str()).collect();
    assert!(unclaimed.contains(&"shoe.deal"));
    // What was never asked is not skipped: it declined nothing.
    assert_eq!(r.total(|o| o.skipped), 0);
    assert_eq!(r.total(|o| o.cases), r.total(|o| o.agree));
}

/// Each broken behaviour is classified as its own fault, the target is
/// restarted once (so the fault shows twice where it recurs), and the run ends.
#[rstest]
#[case::crash("crash", FaultKind::Crash, true)]
#[case::garbage("garbage", FaultKind::NotJson, true)]
#[case::wrong_id("wrong-id", FaultKind::WrongId, true)]
#[case::too_few("too-few", FaultKind::MissingAnswer, true)]
#[case::too_many("too-many", FaultKind::ExtraAnswer, true)]
#[case::huge_line("huge-line", FaultKind::LineTooLong, true)]
#[case::stderr_flood("stderr-flood", FaultKind::StderrFlood, true)]
#[case::bad_utf8("bad-utf8", FaultKind::NotUtf8, true)]
#[case::hang("hang", FaultKind::Timeout, false)]
fn each_fault_kind_is_caught_and_restarted_once(
    #[case] mode: &str,
    #[case] kind: FaultKind,
    #[case] answers_first: bool,
) {
    let r = run_faux(mode, 20);
    assert_eq!(kinds(&r), vec![kind, kind], "{mode}: {:#?}", r.faults);
    let f = &r.faults[0];
    assert!(
        f.request.as_deref().is_some_and(|r| r.starts_with(r#"{"id":"#)),
        "{mode}: the fault names the request line in turn: {:?}",
        f.request
    );
    if answers_first {
        assert!(
            r.total(|o| o.agree) > 0,
            "{mode}: the answers before the fault still count"
        );
    }
}

#[test]
fn crash_carries_exit_status_and_stderr() {
    let r = run_faux("crash", 20);
    let f = &r.faults[0];
    assert!(f.exit_status.as_deref().is_some_and(|s| s.contains('3')), "{f:?}");
    assert!(f.stderr_tail.contains("Traceback"), "{f:?}");
}

#[test]
fn slow_start_is_a_startup_timeout() {
    let r = run_faux("slow-start", 5);
    // The start and its restart time out alike: one fault, said twice over.
    assert_eq!(kinds(&r), vec![FaultKind::StartupTimeout], "{:#?}", r.faults);
    assert!(r.faults[0].detail.ends_with("(2 times: every copy and its restart)"));
    assert_eq!(r.total(|o| o.cases), 0);
}

#[test]
fn claiming_an_op_and_answering_unsupported_fails() {
    let r = run_faux("lies-unsupported", 20);
    assert_eq!(kinds(&r), vec![FaultKind::ClaimedUnsupported]);
    let int = r.ops.iter().find(|o| o.op == "cursor.int").unwrap();
    // Only the negative cases, answered invalid, agree.
    let negative = provably::vectors::schemes()[0]
        .invalid
        .iter()
        .filter(|i| i.op.name == "cursor.int")
        .count() as u64;
    assert!(int.faults > 0 && int.agree <= negative + 20 / 8 + 1, "{int:?}");
}

#[test]
fn nonzero_exit_at_end_of_input_is_a_fault() {
    let r = run_faux("exit-nonzero", 5);
    assert_eq!(kinds(&r), vec![FaultKind::ExitStatus]);
    assert_eq!(r.total(|o| o.diverge), 0);
}

#[test]
fn manifest_ops_missing_from_hello_is_a_fault() {
    let required = vec!["cursor.int".to_string(), "dice.roll".to_string()];
    let r = run_target(
        &|| Box::new(ProcessTarget::new(faux("correct", 30_000))),
        1,
        Some(&required),
        &Options {
            cases: 2,
            ..Options::default()
        },
        &|_| {},
    );
    assert_eq!(kinds(&r), vec![FaultKind::MissingOp]);
    assert!(r.faults[0].detail.contains("dice.roll"));
}

#[test]
fn a_program_that_does_not_exist_is_a_spawn_fault_not_a_hang() {
    let m = Manifest::parse(
        "name = \"ghost\"\ncommand = [\"/nonexistent/target\"]\n",
        root(),
        "test",
    )
    .unwrap();
    let r = run_target(
        &|| Box::new(ProcessTarget::new(m.clone())),
        4,
        None,
        &Options::default(),
        &|_| {},
    );
    // Once, not once per job and restart.
    assert_eq!(kinds(&r), vec![FaultKind::Spawn], "{:#?}", r.faults);
    assert!(
        r.faults[0].detail.ends_with("(8 times: every copy and its restart)"),
        "{}",
        r.faults[0].detail
    );
    assert_eq!((r.claimed_ops(), r.total(|o| o.cases)), (0, 0));
}

/// `provably diff --quiet` against a mode of tests/faux/faux.py, `cases` per op.
fn faux_diff(mode: &str, cases: &str, extra: &[&str]) -> (i32, String, String) {
    let cmd = format!("{} tests/faux/faux.py {mode}", python());
    let mut args = vec!["diff", "--target-cmd", &cmd, "--cases", cases, "--quiet"];
    args.extend_from_slice(extra);
    run(&args, "")
}

#[test]
fn subtle_off_by_one_exits_1_with_a_minimal_case_and_where_the_sides_part() {
    let (code, out, err) = faux_diff("subtle", "400", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("DIVERGENCE in") && out.contains("cursor.int"), "{out}");
    assert!(
        out.contains("first step where the two sides part (on the minimal request): the target stopped at cursor"),
        "{out}"
    );
    assert!(out.contains("rejected"), "{out}");
}

#[test]
fn divergence_shrinks_to_the_smallest_count_that_shows_it() {
    let (code, out, _) = faux_diff("subtle-shuffle", "200", &[]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            r#"minimal: {"op":"cursor.shuffle","serverSeed":"","clientSeed":"","nonce":0,"cursor":0,"count":101}"#
        ),
        "{out}"
    );
    assert!(
        out.contains("--- provably (Rust)") && out.contains("+++ target"),
        "{out}"
    );
}

#[test]
fn shrink_budget_zero_reports_the_case_as_found_without_asking_again() {
    let (code, out, _) = faux_diff("subtle-shuffle", "200", &["--shrink-budget", "0"]);
    assert_eq!(code, 1, "{out}");
    let line = |prefix: &str| {
        out.lines()
            .find_map(|l| l.trim_start().strip_prefix(prefix))
            .map(|rest| rest.split(" (").next().unwrap().to_string())
            .unwrap_or_else(|| panic!("no {prefix} line in {out}"))
    };
    assert_eq!(line("minimal: "), line("found:   "), "{out}");
    assert!(out.contains("(0 shrink steps)"), "{out}");
    // Not asked again, so nothing may be claimed about a repeat.
    assert!(!out.contains("asked again alone"), "{out}");
}

#[test]
fn a_fault_in_one_target_leaves_the_others_unaffected() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let junit = dir.path().join("junit.xml");
    let (code, out, _) = run(
        &[
            "diff",
            "--quiet",
            "--cases",
            "20",
            "--target-cmd",
            &format!("{} tests/faux/faux.py crash", python()),
            "--target-cmd",
            &format!("{} tests/faux/faux.py correct", python()),
            "--report",
            report.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 2, "{out}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let correct = &v["targets"][1];
    assert_eq!(correct["faults"].as_array().unwrap().len(), 0);
    let agree: u64 = correct["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["agree"].as_u64().unwrap())
        .sum();
    assert!(agree >= 5 * 20);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<error type=\"crash\"") && xml.contains("<testsuite name="),
        "{xml}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("faux.py correct") && l.split_whitespace().rev().nth(1) == Some("0")),
        "{out}"
    );
}

/// Copies a template out of the repository and runs it from there, as an
/// auditor's program would be: no manifest, no code change.
fn outside_copy(template: &str, edit: impl Fn(String) -> String) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("docs/templates").join(template)).unwrap();
    let path = dir.path().join(template);
    std::fs::write(&path, edit(text)).unwrap();
    (dir, path)
}

fn diff_cmd(cmd: &str, cases: &str) -> (i32, String, String) {
    run(&["diff", "--target-cmd", cmd, "--cases", cases, "--quiet"], "")
}

#[test]
fn python_template_passes_as_it_is_from_outside_the_repository() {
    let (_dir, path) = outside_copy("target.py", |t| t);
    let (code, out, err) = diff_cmd(&format!("{} {}", python(), path.display()), "150");
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn javascript_template_passes_as_it_is_from_outside_the_repository() {
    let (_dir, path) = outside_copy("target.mjs", |t| t);
    let (code, out, err) = diff_cmd(&format!("node {}", path.display()), "150");
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_subtly_wrong_outside_program_exits_1() {
    // An auditor's bug: the modulo-biased int (no rejection at all).
    let (_dir, path) = outside_copy("target.py", |t| {
        let patched = t.replacen("if v < limit:", "if True:", 1);
        assert_ne!(patched, t, "the template's rejection test moved; update this test");
        patched
    });
    // A small shrink budget: each of its eleven groups would otherwise spend
    // up to 300 calls, some on 66,000-card shuffles in Python.
    let cmd = format!("{} {}", python(), path.display());
    let (code, out, _) = run(
        &[
            "diff",
            "--target-cmd",
            &cmd,
            "--cases",
            "100",
            "--shrink-budget",
            "40",
            "--quiet",
        ],
        "",
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("DIVERGENCE in") && out.contains("minimal:"), "{out}");
    assert!(out.contains("kept a draw provably rejects"), "{out}");
}

#[test]
fn every_manifest_in_the_repository_parses() {
    let all = provably::harness::manifest::all(&root().join("harness/targets")).unwrap();
    let names: Vec<&str> = all.iter().map(|m| m.name.as_str()).collect();
    for want in [
        "referenz",
        "poker-referenz",
        "numpy",
        "selfpoker-page",
        "dice-published",
        "node",
        "provably-serve",
        "blackjack-ts",
    ] {
        assert!(names.contains(&want), "{names:?}");
    }
    for m in &all {
        assert!(
            Path::new(&m.workdir).join("Cargo.toml").exists(),
            "{}: workdir is the repository root",
            m.name
        );
    }
}

#[test]
fn unknown_target_name_lists_the_known_ones_and_exits_2() {
    let (code, _, err) = run(&["diff", "--target", "nope"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("no target named \"nope\"") && err.contains("provably-serve"),
        "{err}"
    );
}

#[test]
fn own_server_as_an_outside_target_agrees_on_every_op() {
    let (code, out, err) = run(&["diff", "--target", "provably-serve", "--cases", "50", "--quiet"], "");
    assert_eq!(code, 0, "{out}{err}");
    let ops = provably::registry::names().len();
    assert!(out.contains(&format!("provably-serve  {ops:>3}")), "{out}");
}

/// The built-in targets that need only python3 and node, on the vectors and
/// a few generated cases (`make diff` runs them at full size).
#[rstest]
#[case::referenz("referenz")]
#[case::poker_referenz("poker-referenz")]
#[case::dice_published("dice-published")]
#[case::node("node")]
fn builtin_target_agrees_with_rust(#[case] name: &str) {
    let (code, out, err) = run(&["diff", "--target", name, "--cases", "25", "--quiet"], "");
    if name == "dice-published" {
        // The published page code cannot key WebCrypto's HMAC with the empty
        // server seed (DataError): the adapter declines that vector, which is
        // skipped with the page's own error as the reason, never a pass.
        assert!(out.contains("DECLINED by dice-published dice.roll: 1 cases"), "{out}");
        assert!(out.contains("Zero-length key"), "{out}");
    }
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn real_numpy_and_the_published_page_lines_agree_with_rust() {
    if !crate::support::numpy_available() {
        return;
    }
    for name in ["numpy", "selfpoker-page"] {
        let (code, out, err) = run(&["diff", "--target", name, "--cases", "200", "--quiet"], "");
        assert_eq!(code, 0, "{name}: {out}{err}");
    }
}

/// The whole report of a subtle divergence, as an auditor reads it. Only the
/// time column is masked; everything else is deterministic for a seed.
#[test]
fn divergence_report_snapshot() {
    let (code, out, _) = run(
        &[
            "diff",
            "--target-cmd",
            "python3 tests/faux/faux.py subtle",
            "--cases",
            "400",
            "--seed",
            "0",
            "--jobs",
            "2",
            "--quiet",
        ],
        "",
    );
    assert_eq!(code, 1);
    let masked: Vec<String> = out
        .lines()
        .map(|l| match l.rsplit_once("  ") {
            Some((head, last))
                if last.trim_end().ends_with('s') && last.trim().trim_end_matches('s').parse::<f64>().is_ok() =>
            {
                format!("{head}  [time]")
            }
            _ => l.to_string(),
        })
        .collect();
    insta::assert_snapshot!("divergence_report_faux_subtle", masked.join("\n"));
}

/// The same seed asks the same questions and reports the same findings
/// whatever the number of copies sharing the work.
#[test]
fn jobs_1_and_jobs_2_report_the_same_findings() {
    let dir = tempfile::tempdir().unwrap();
    let reports: Vec<serde_json::Value> = ["1", "2"]
        .iter()
        .map(|jobs| {
            let path = dir.path().join(format!("r{jobs}.json"));
            let (code, out, err) = run(
                &[
                    "diff",
                    "--target-cmd",
                    &format!("{} tests/faux/faux.py subtle-shuffle", python()),
                    "--cases",
                    "300",
                    "--seed",
                    "11",
                    "--jobs",
                    jobs,
                    // Enough calls to shrink each group a few steps (so the
                    // shrinker runs under both job counts); the default 300
                    // spends most of the test on 65,000-card shuffles in Python.
                    "--shrink-budget",
                    "8",
                    "--quiet",
                    "--report",
                    path.to_str().unwrap(),
                ],
                "",
            );
            assert_eq!(code, 1, "{out}{err}");
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        })
        .collect();
    let essence = |r: &serde_json::Value| -> Vec<serde_json::Value> {
        r["targets"][0]["ops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                serde_json::json!([
                    o["op"],
                    o["cases"],
                    o["agree"],
                    o["diverge"],
                    o["skipped"],
                    o["findings"]
                ])
            })
            .collect()
    };
    assert_eq!(reports[0]["targets"][0]["instances"], 1);
    assert_eq!(reports[1]["targets"][0]["instances"], 2);
    assert_eq!(essence(&reports[0]), essence(&reports[1]));
    let findings = reports[0]["targets"][0]["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["findings"].as_array().unwrap().len())
        .sum::<usize>();
    assert!(findings > 0, "the faux target diverges");
}

/// A copied binary knows no build tree: outside a checkout it runs its
/// built-in target and says what it needs for the others.
#[test]
fn a_copied_binary_runs_outside_the_checkout() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("provably");
    std::fs::copy(crate::support::bin(), &copy).unwrap();
    let run_here = |args: &[&str]| {
        let out = crate::support::spawn_copied(
            std::process::Command::new(&copy)
                .args(args)
                .current_dir(dir.path())
                .env_remove("PROVABLY_TARGETS")
                .env_remove("PROVABLY_BIN")
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped()),
        )
        .wait_with_output()
        .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = run_here(&["diff", "--target", "provably-serve", "--vectors-only", "--quiet"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, _, err) = run_here(&["diff", "--quiet"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no targets folder"), "{err}");
}

/// A verifier may support part of an op: what it declines is skipped, with
/// its reason, never counted as agreeing; declining everything is a fault.
#[test]
fn declined_requests_are_skipped_with_their_reason_and_declining_all_is_a_fault() {
    let r = run_faux("partial", 50);
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let raw = r.ops.iter().find(|o| o.op == "cursor.raw").unwrap();
    assert!(raw.agree > 0 && raw.skipped > 0, "{raw:?}");
    assert_eq!(raw.declined.get("only cursor 0 is supported here"), Some(&raw.skipped));
    assert_eq!(raw.agree + raw.skipped, raw.cases);
    // Declining every valid request is a fault, even when the invalid ones
    // are refused as they should be.
    let r = run_faux("declines-all", 20);
    let declined_all = r
        .faults
        .iter()
        .filter(|f| f.kind == FaultKind::DeclinedEverything)
        .count();
    assert_eq!(declined_all, r.claimed_ops(), "{:?}", r.faults);
}

/// `provably diff` with a report and JUnit file, against a faux mode with
/// environment `env`; returns the exit code, stdout and the parsed report.
fn faux_report(
    mode: &str,
    cases: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (i32, String, serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let (report, junit) = (dir.path().join("r.json"), dir.path().join("j.xml"));
    let cmd = format!("{} tests/faux/faux.py {mode}", python());
    let mut args = vec![
        "diff",
        "--target-cmd",
        &cmd,
        "--cases",
        cases,
        "--quiet",
        "--report",
        report.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = std::process::Command::new(crate::support::bin())
        .args(&args)
        .current_dir(root())
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let text = std::fs::read_to_string(&report).unwrap_or_else(|_| panic!("no report: {stdout}"));
    let v = serde_json::from_str(&text).unwrap();
    let xml = std::fs::read_to_string(&junit).unwrap();
    (out.status.code().unwrap_or(-1), stdout, v, xml)
}

fn findings_of(report: &serde_json::Value) -> Vec<serde_json::Value> {
    report["targets"][0]["ops"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["findings"].as_array().unwrap().clone())
        .collect()
}

/// A planted HMAC-input bug is one finding per op, named as such, with
/// provably's key and the minimal request's HMAC message; every diverging op
/// downstream of the MAC shares it.
#[rstest]
#[case::latin1_key("latin1-key", "latin1-key")]
#[case::float_nonce("float-nonce", "nonce-float-repr")]
fn an_hmac_input_bug_is_one_finding_per_op_named_with_the_minimal_message(#[case] mode: &str, #[case] known: &str) {
    let (code, out, report, _) = faux_report(mode, "150", &[], &[]);
    assert_eq!(code, 1, "{out}");
    let findings = findings_of(&report);
    let mut ops: Vec<&str> = findings.iter().map(|f| f["op"].as_str().unwrap()).collect();
    let n = ops.len();
    ops.dedup();
    assert_eq!(ops.len(), n, "one finding per op: {findings:#?}");
    for f in findings.iter().filter(|f| f["op"] != "cursor.hash") {
        assert_eq!(f["cause"], "input", "{f:#}");
        // Named by the known bug of harness/bugs/ it answers as.
        assert_eq!(f["known"]["name"], known, "{f:#}");
        assert_eq!(f["group"], "the HMAC input differs", "{f:#}");
        let minimal: serde_json::Value = serde_json::from_str(f["request"].as_str().unwrap()).unwrap();
        let message = f["hmac"]["message"].as_str().unwrap();
        let (client, nonce) = (minimal["clientSeed"].as_str().unwrap(), &minimal["nonce"]);
        assert!(
            message.starts_with(
                &serde_json::Value::from(format!("{client}:{nonce}:"))
                    .to_string()
                    .trim_end_matches('"')
                    .to_string()
            ),
            "{message} is not the minimal request's message: {f:#}"
        );
        let key = minimal["serverSeed"].as_str().unwrap();
        assert_eq!(
            f["hmac"]["keyHex"].as_str().unwrap(),
            provably::base::crypto::hex(key.as_bytes()),
            "{f:#}"
        );
    }
    assert!(out.contains("cause:     the HMAC input differs"), "{out}");
    assert!(out.contains("HMAC of that step (provably): key"), "{out}");
}

/// Every number of the story comes from the request shown: shrinking never
/// leaves the explanation on the request the run first found.
#[test]
fn shrinking_never_leaves_the_explanation_on_another_request() {
    let (code, out, report, _) = faux_report("subtle", "400", &[], &[]);
    assert_eq!(code, 1, "{out}");
    let int = findings_of(&report)
        .into_iter()
        .find(|f| f["op"] == "cursor.int")
        .expect("cursor.int diverges");
    assert_ne!(int["request"], int["found"], "the example was shrunk: {int:#}");
    let minimal: serde_json::Value = serde_json::from_str(int["request"].as_str().unwrap()).unwrap();
    let request = provably::registry::parse(&minimal).unwrap();
    let range = minimal["range"].as_u64().unwrap();
    let limit = provably::schemes::cursor::limit(range);
    let story = int["parted"].as_str().unwrap();
    // Every limit the story names is the minimal range's.
    for part in story.split(">= ").skip(1).chain(story.split("< ").skip(1)) {
        let n: u128 = part.split(':').next().unwrap().trim().parse().unwrap();
        assert_eq!(
            n, limit,
            "the story names limit {n}, the minimal range {range} has {limit}: {story}"
        );
    }
    // Every cursor it reads is one provably reads for the minimal request.
    let round = provably::schemes::cursor::Round::new(
        minimal["serverSeed"].as_str().unwrap(),
        minimal["clientSeed"].as_str().unwrap(),
        minimal["nonce"].as_u64().unwrap(),
    );
    let mut read = Vec::new();
    round.int_traced(range, minimal["cursor"].as_u64().unwrap(), &mut |a| read.push(a.cursor));
    for part in story.split("cursor ").skip(1) {
        let Ok(c) = part.split(' ').next().unwrap().parse::<u64>() else {
            continue;
        };
        assert!(read.contains(&c), "cursor {c} is not read by {request:?}: {story}");
    }
    let message = int["hmac"]["message"].as_str().unwrap();
    assert!(message.contains(&format!(":{}:", minimal["nonce"])), "{message}");
}

#[test]
fn a_target_claiming_four_ops_and_declining_none_shows_0_skipped() {
    let ops = "cursor.hash,cursor.raw,cursor.float,cursor.int";
    let (code, out, report, _) = faux_report("correct", "50", &[], &[("FAUX_OPS", ops)]);
    assert_eq!(code, 0, "{out}");
    let t = &report["targets"][0];
    let claimed: Vec<&serde_json::Value> = t["ops"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["claimed"] == true)
        .collect();
    assert_eq!(claimed.len(), 4);
    let skipped: u64 = t["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["skipped"].as_u64().unwrap())
        .sum();
    assert_eq!(skipped, 0, "{out}");
    let row = out
        .lines()
        .find(|l| l.starts_with("faux") || l.contains("faux.py"))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().rev().collect();
    // … ops  not-claimed  cases  agree  diverge  skipped  lost  faults  time
    assert_eq!((cells[3], cells[4]), ("0", "0"), "skipped and lost: {row}");
}

#[test]
fn diff_op_dice_roll_runs_only_dice_roll() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let (code, out, err) = run(
        &[
            "diff",
            "--target",
            "provably-serve",
            "--op",
            "dice.roll",
            "--cases",
            "30",
            "--quiet",
            "--report",
            report.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let ops: Vec<&str> = v["targets"][0]["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["op"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["dice.roll"]);
    assert!(v["targets"][0]["ops"][0]["cases"].as_u64().unwrap() >= 30);
    let (code, _, err) = run(&["diff", "--op", "dice.rol"], "");
    assert_eq!(code, 2, "{err}");
}

/// A target that claims nothing, or answers too few cases, is not "conformant":
/// exit 4, with the shortfall named.
#[test]
fn nothing_compared_exits_4_and_require_cases_sets_the_minimum() {
    let (code, out, _, _) = faux_report("correct", "5", &[], &[("FAUX_OPS", "")]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("NOTHING COMPARED"), "{out}");
    let (code, out, _, _) = faux_report("correct", "5", &["--require-cases", "1000000"], &[]);
    assert_eq!(code, 4, "{out}");
    let (code, out, _, _) = faux_report("correct", "5", &["--require-cases", "10"], &[]);
    assert_eq!(code, 0, "{out}");
}

/// An output that cannot be written fails with 5; the table and every
/// other output are still written.
#[test]
fn an_unwritable_report_still_writes_the_table_and_junit_and_exits_5() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("j.xml");
    let (code, out, err) = run(
        &[
            "diff",
            "--target",
            "provably-serve",
            "--op",
            "dice.roll",
            "--cases",
            "5",
            "--quiet",
            "--report",
            "/nonexistent/dir/r.json",
            "--junit",
            junit.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 5, "{out}{err}");
    assert!(
        out.contains("target") && out.contains("provably-serve"),
        "the table: {out}"
    );
    assert!(err.contains("/nonexistent/dir/r.json"), "{err}");
    assert!(std::fs::read_to_string(&junit).unwrap().contains("<testsuite"));
}

/// A target answering random wrong values, of any type and size, to every
/// op: the harness explains every answer and never panics.
/// One run asks every vector of every op (some 4,000 answers, each random);
/// FAUX_RUNS runs more seeds.
#[test]
fn diff_survives_a_target_answering_random_wrong_values() {
    let runs: u64 = std::env::var("FAUX_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    for seed in 0..runs {
        let seed = seed.to_string();
        let (code, out, report, xml) = faux_report(
            "random-wrong",
            "20",
            &["--seed", &seed, "--jobs", "1"],
            &[("FAUX_SEED", seed.as_str())],
        );
        assert!(code == 1 || code == 2, "seed {seed}: exit {code}: {out}");
        assert!(
            !findings_of(&report).is_empty() && xml.contains("<testsuite"),
            "seed {seed}"
        );
    }
}

/// No raw invisible or private-use character reaches a text report: the
/// terminal, JUnit or the HTML page (every class).
#[test]
fn no_invisible_character_of_any_class_reaches_a_text_report() {
    let (code, out, report, xml) = faux_report("invisible", "5", &[], &[]);
    assert_eq!(code, 1, "{out}");
    let dir = tempfile::tempdir().unwrap();
    let run_file = dir.path().join("run.json");
    std::fs::write(&run_file, report.to_string()).unwrap();
    let (page_code, _, err) = run(
        &["report", run_file.to_str().unwrap(), "-o", dir.path().to_str().unwrap()],
        "",
    );
    assert_eq!(page_code, 0, "{err}");
    let page = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    let classes = "\u{1b}\u{7}\r\u{7f}\u{9b}\u{a0}\u{ad}\u{61c}\u{200b}\u{200d}\u{200e}\u{2028}\u{202e}\u{2060}\u{2068}\u{e000}\u{f8ff}\u{fdd0}\u{fdef}\u{fe0f}\u{feff}\u{fffe}\u{ffff}\u{1fffe}\u{e0020}\u{f0000}\u{100000}\u{10ffff}";
    for (what, text) in [("stdout", &out), ("junit", &xml), ("page", &page)] {
        for c in classes.chars() {
            assert!(!text.contains(c), "{what} shows U+{:04X} raw", u32::from(c));
        }
    }
    assert!(out.contains(r"\ue000") || out.contains(r"\u{e000}"), "{out}");
}

/// The report is typed and versioned: what diff writes holds to the
/// committed schema, which is the one the code generates.
#[test]
fn written_reports_hold_to_the_committed_report_schema() {
    let committed = std::fs::read_to_string(root().join("harness/report.schema.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&committed).unwrap();
    assert_eq!(schema, provably::harness::report::schema(), "run `provably vectors`");
    let validator = jsonschema::validator_for(&schema).unwrap();
    for mode in ["subtle", "latin1-key", "crash"] {
        let (_, _, report, _) = faux_report(mode, "40", &[], &[]);
        let errors: Vec<String> = validator
            .iter_errors(&report)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{mode}: {errors:#?}");
        provably::harness::report::read(&report.to_string()).unwrap();
    }
}

/// `audit` shows a document's keys escaped (one text rule)
/// and its JUnit `tests=` counts its `<testcase>` elements, one per finding.
#[test]
fn audit_shows_hostile_keys_escaped_and_junit_counts_its_test_cases() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("examples/proofs/dice-game.json")).unwrap()).unwrap();
    doc["\u{1b}[2J\u{7}\u{202e}verdict: match\r"] = serde_json::json!(1);
    let file = dir.path().join("evil.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let junit = dir.path().join("j.xml");
    let (code, out, _) = run(
        &["audit", file.to_str().unwrap(), "--junit", junit.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 2, "{out}");
    for c in ['\u{1b}', '\u{7}', '\u{202e}', '\r'] {
        assert!(!out.contains(c), "stdout shows U+{:04X} raw: {out}", u32::from(c));
    }
    assert!(out.contains(r"\u{1b}[2J"), "{out}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    let cases = xml.matches("<testcase ").count();
    assert!(xml.contains(&format!("tests=\"{cases}\"")), "{cases} test cases: {xml}");
    assert_eq!(cases, 3, "the summary and one case per finding: {xml}");
}

/// Diverging answers of 15 MiB cost what a case may cost, not what a batch
/// holds: every answer of this target diverges.
#[test]
fn diverging_15_mib_answers_stay_within_a_memory_bound() {
    let (code, out, report, _) = faux_report("huge-wrong", "20", &["--jobs", "1", "--op", "cursor.hash"], &[]);
    assert_eq!(code, 1, "{out}");
    let peak = report["peakRssKiB"].as_u64().expect("the report gives the peak RSS");
    assert!(peak < 256 * 1024, "peak RSS {peak} KiB");
    let f = &findings_of(&report)[0];
    assert!(
        f["got"].as_str().unwrap().len() <= (1 << 20) + 100,
        "a finding shows at most 1 MiB of an answer"
    );
}

/// A target that answers Limbo by a published non-canonical reading is
/// reported as following that reading, not as a bare divergence; the
/// canonical vectors alone separate both readings.
#[rstest]
#[case::fair("limbo-fair", "fair-0.0.13 (crates.io fair 0.0.13, src/games/limbo.rs)")]
#[case::docs("limbo-docs", "docs (https://stake.com/provably-fair/game-events)")]
fn a_limbo_reading_is_named_in_the_finding(#[case] mode: &str, #[case] reading: &str) {
    let r = run_faux(mode, 0);
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let limbo = r
        .ops
        .iter()
        .find(|o| o.op == "stake.limbo")
        .expect("stake.limbo reported");
    assert!(limbo.diverge > 0, "{mode}: the vectors separate the reading");
    assert!(limbo.agree > 0, "{mode}: most bets agree");
    assert_eq!(limbo.findings.len(), 1, "{:#?}", limbo.findings);
    let f = &limbo.findings[0];
    assert_eq!(f.reading.as_deref(), Some(reading));
    assert!(f.group.starts_with("follows reading "), "{}", f.group);
    // The cursor ops it also claims agree.
    assert_eq!(r.total(|o| o.diverge), limbo.diverge);
}

#[test]
fn an_op_asked_for_twice_is_listed_once_in_the_reports_only_ops() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let args = [
        "diff",
        "--target",
        "provably-serve",
        "--op",
        "stake.dice",
        "--op",
        "cursor.int",
        "--op",
        "stake.dice",
        "--cases",
        "2",
        "--seed",
        "1",
        "--quiet",
        "--report",
        report.to_str().unwrap(),
    ];
    let (code, _, err) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(r["onlyOps"], serde_json::json!(["stake.dice", "cursor.int"]));
}

/// The run's verdict comes before an output that could not be written, as
/// in `audit`: a divergence with an unwritable JUnit file is exit 1, a
/// fault 2, and 5 is left for a run that found nothing else.
#[test]
fn an_unwritable_output_does_not_hide_a_divergence_or_a_fault() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("no/such/folder/j.xml");
    let junit = junit.to_str().unwrap();
    for (mode, code) in [("latin1-key", 1), ("crash", 2), ("correct", 5)] {
        let (got, out, err) = faux_diff(mode, "40", &["--op", "cursor.raw", "--junit", junit]);
        assert_eq!(got, code, "{mode}: {out}{err}");
        assert!(err.contains("j.xml"), "{mode}: the failed output is named: {err}");
    }
}

/// The known-bug replay is one of the harness's own children: a target
/// that crashes after the run's first divergence (the harness then clears
/// every orphan it did not start) leaves it running, and the finding is
/// still named by its known bug, not "not checked".
#[test]
fn a_target_crash_after_a_divergence_leaves_the_known_bug_replay_running() {
    let (code, out, report, _) = faux_report(
        "latin1-key",
        "300",
        &["--op", "cursor.raw", "--jobs", "1"],
        &[("FAUX_CRASH_AT", "200")],
    );
    assert_eq!(code, 2, "a fault: {out}");
    assert!(!report["targets"][0]["faults"].as_array().unwrap().is_empty(), "{out}");
    let findings = findings_of(&report);
    assert_eq!(findings.len(), 1, "{out}");
    assert_eq!(findings[0]["known"]["name"], "latin1-key", "{:#}", findings[0]);
}
