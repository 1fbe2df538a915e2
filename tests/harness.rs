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

fn faux(mode: &str, request_timeout_ms: u64) -> Manifest {
    let text = format!(
        r#"name = "faux-{mode}"
command = ["{py}", "tests/faux/faux.py", "{mode}"]
workdir = "."
startup_timeout_ms = 3000
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
        &|| Box::new(ProcessTarget::new(faux(mode, 3000))),
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
    let skipped: Vec<&str> = r.ops.iter().filter(|o| !o.claimed).map(|o| o.op.as_str()).collect();
    assert!(skipped.contains(&"shoe.deal") && r.total(|o| o.skipped) > 0);
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
    assert_eq!(kinds(&r), vec![FaultKind::StartupTimeout, FaultKind::StartupTimeout]);
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
        1,
        None,
        &Options::default(),
        &|_| {},
    );
    assert_eq!(kinds(&r), vec![FaultKind::Spawn, FaultKind::Spawn]);
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
        out.contains("first step where the two sides part: the target stopped at cursor"),
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
        let out = std::process::Command::new(&copy)
            .args(args)
            .current_dir(dir.path())
            .env_remove("PROVABLY_TARGETS")
            .env_remove("PROVABLY_BIN")
            .output()
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
