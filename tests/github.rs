//! GitHub Actions: action.yml's step run as the runner runs it, the step
//! summary rendered by a real Markdown library (pulldown-cmark, with GFM
//! tables), and one `::error` annotation per finding.

use std::collections::BTreeMap;
use std::path::Path;

use pulldown_cmark::{html, Options, Parser};
use yaml_rust2::{Yaml, YamlLoader};

use crate::support::{python, root};

/// Markdown to HTML, as GitHub renders a step summary (tables on).
fn render(md: &str) -> String {
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(md, Options::ENABLE_TABLES));
    out
}

fn action() -> Yaml {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    YamlLoader::load_from_str(&text).unwrap().remove(0)
}

/// Runs action.yml's steps as the runner does: each step's `env` with
/// `${{ inputs.NAME }}` put in, its `run` under bash, in a fresh folder.
/// Returns the last step's status, and all of stdout and of stderr.
fn run_action(inputs: &BTreeMap<&str, &str>, dir: &Path) -> (i32, String, String) {
    let a = action();
    let steps = a["runs"]["steps"].as_vec().unwrap();
    assert_eq!(a["runs"]["using"].as_str(), Some("composite"));
    let (mut code, mut stdout, mut stderr) = (0, String::new(), String::new());
    for step in steps {
        let mut cmd = std::process::Command::new("bash");
        cmd.args(["-e", "-c", step["run"].as_str().unwrap()])
            .current_dir(root())
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_ACTION_PATH", root())
            .env("GITHUB_OUTPUT", dir.join("output"))
            .env("GITHUB_STEP_SUMMARY", dir.join("summary.md"))
            .env("RUNNER_TEMP", dir);
        for (k, v) in step["env"].as_hash().into_iter().flatten() {
            let v = v.as_str().unwrap();
            let name = v.trim_start_matches("${{ inputs.").trim_end_matches(" }}");
            cmd.env(k.as_str().unwrap(), inputs.get(name).copied().unwrap_or(""));
        }
        let out = cmd.output().unwrap();
        code = out.status.code().unwrap_or(-1);
        stdout.push_str(&String::from_utf8_lossy(&out.stdout));
        stderr.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    (code, stdout, stderr)
}

#[test]
fn the_action_runs_the_diff_writes_summary_and_annotations_and_hands_back_both_reports() {
    let a = action();
    for input in ["target-cmd", "cases", "seed"] {
        assert!(!a["inputs"][input]["description"].is_badvalue(), "input {input}");
    }
    assert_eq!(
        a["outputs"]["junit"]["value"].as_str(),
        Some("${{ steps.diff.outputs.junit }}")
    );
    assert_eq!(
        a["outputs"]["report"]["value"].as_str(),
        Some("${{ steps.diff.outputs.report }}")
    );
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!("{} tests/auditor/target.py latin1-key", python());
    let bin = crate::support::bin();
    let inputs = BTreeMap::from([
        ("target-cmd", cmd.as_str()),
        ("cases", "40"),
        ("seed", "3"),
        ("provably", bin.to_str().unwrap()),
    ]);
    let (code, stdout, _) = run_action(&inputs, dir.path());
    assert_eq!(code, 1, "a divergence fails the step: {stdout}");
    let outputs = std::fs::read_to_string(dir.path().join("output")).unwrap();
    let output = |name: &str| {
        outputs
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("no output {name}: {outputs}"))
            .to_string()
    };
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(output("report")).unwrap()).unwrap();
    assert_eq!(report["seed"], 3);
    assert!(std::fs::read_to_string(output("junit"))
        .unwrap()
        .contains("<testsuite "));
    let findings: Vec<&serde_json::Value> = report["targets"][0]["ops"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["findings"].as_array().unwrap())
        .collect();
    assert_eq!(findings.len(), 4, "one per op: {findings:#?}");
    let errors: Vec<&str> = stdout.lines().filter(|l| l.starts_with("::error title=")).collect();
    assert_eq!(errors.len(), findings.len(), "one annotation per finding: {stdout}");
    assert!(errors.iter().all(|e| e.contains("latin1-key")), "{errors:#?}");
    let page = render(&std::fs::read_to_string(dir.path().join("summary.md")).unwrap());
    assert!(
        page.contains("<table>") && page.matches("<tr>").count() == 2,
        "the table, one target: {page}"
    );
    assert_eq!(page.matches("<h3>").count(), findings.len(), "{page}");
    for f in &findings {
        let request = f["request"].as_str().unwrap();
        assert!(
            page.contains(request),
            "the minimal request in a code block: {request}\n{page}"
        );
    }
    assert!(
        page.contains("<strong>separates:</strong> `serverSeed` has a non-ASCII character"),
        "{page}"
    );
}

/// What a target controls cannot add markup, links or images to the
/// summary, nor close its code block, nor end an annotation early.
#[test]
fn a_hostile_report_renders_as_text() {
    let hostile = r#"{"version":2,"seed":1,"cases":2,"vectorsOnly":false,"jobs":1,"targets":[{"target":"<img src=x onerror=alert(1)>","instances":1,"seconds":0.5,"ops":[
        {"op":"cursor.raw","claimed":true,"cases":3,"agree":2,"diverge":1,"skipped":0,"faults":0,"findings":[
          {"op":"cursor.raw","headline":"[click](https://example.invalid) ![x](y)\n::error::forged","group":"g","symptoms":[{"group":"g","count":1}],
           "separates":{"text":"<script>x</script> | a | b","diverging":1,"divergingWith":0,"agreeing":2,"agreeingWith":0,"confirmedBy":0},
           "cause":"input","count":1,"origin":"vector","found":"","request":"{\"clientSeed\":\"```\\n</code></pre><b>x\"}","shrink_steps":0,"expected":"{}","got":"{}","diff":"","parted":""}]}],"faults":[]}]}"#;
    let run: provably::harness::report::Run = serde_json::from_str(hostile).unwrap();
    let page = render(&provably::harness::github::summary(
        &run,
        provably::harness::github::SUMMARY_LIMIT,
    ));
    for raw in ["<img", "<a ", "<script", "<b>", "</code></pre><b>"] {
        assert!(!page.contains(raw), "{raw} reached the page: {page}");
    }
    assert_eq!(
        page.matches("<pre>").count(),
        1,
        "one code block, not closed early: {page}"
    );
    let annotations = provably::harness::github::annotations(&run);
    assert_eq!(annotations.lines().count(), 1, "{annotations}");
    // The line feed is shown as an escape by the one rule, before the
    // workflow command's own encoding.
    assert!(annotations.contains(r"\u{a}::error::forged"), "{annotations}");
}

/// The lines of `text` as a runner or a terminal may break it: at LF and
/// CR (the runner reads lines as .NET's `ReadLine` does), and at VT, FF,
/// NEL and the Unicode line and paragraph separators.
fn lines_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(['\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}'])
}

/// Whether the runner reads `line` as a workflow command: `::` at its
/// start after white space, or the legacy `##[` anywhere.
fn command(line: &str) -> bool {
    line.trim_start().starts_with("::") || line.contains("##[")
}

/// A target that refuses with line feeds and `::stop-commands::`, answers
/// `##[error]` texts and 200 KB blackjack actions, through the action's
/// own step: the only commands the runner reads are provably's (the stop
/// with a token of its own, the resume, then the annotations), the step
/// summary stays under GitHub's cap, and what an earlier step wrote to it
/// (not UTF-8) is kept byte for byte.
#[test]
fn a_hostile_target_gives_the_runner_no_command_and_a_summary_it_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    let earlier: &[u8] = b"## an earlier step \xff\xfe (not UTF-8)\n";
    std::fs::write(&summary, earlier).unwrap();
    let cmd = format!("{} tests/faux/faux.py workflow-commands", python());
    let bin = crate::support::bin();
    let inputs = BTreeMap::from([
        ("target-cmd", cmd.as_str()),
        ("cases", "20"),
        ("seed", "1"),
        ("provably", bin.to_str().unwrap()),
    ]);
    let (code, stdout, stderr) = run_action(&inputs, dir.path());
    assert_eq!(code, 2, "divergences and a fault (its exit status): {stderr}");
    let lines: Vec<&str> = lines_of(&stdout).collect();
    let token = lines[0]
        .strip_prefix("::stop-commands::")
        .unwrap_or_else(|| panic!("commands are stopped first: {}", lines[0]));
    assert!(
        token.len() >= 32 && token != "x",
        "a token the target cannot guess: {token}"
    );
    let resume = format!("::{token}::");
    let at = lines.iter().position(|l| *l == resume).expect("commands are resumed");
    let annotations: Vec<&str> = lines[at + 1..].iter().copied().filter(|l| !l.is_empty()).collect();
    assert!(
        annotations.len() > 2 && annotations.iter().all(|l| l.starts_with("::error title=provably%3A ")),
        "after the resume line only provably's annotations: {annotations:#?}"
    );
    for (i, line) in lines.iter().enumerate().filter(|&(i, _)| i != 0 && i != at) {
        let own = i > at && !line.contains("##[");
        assert!(own || !command(line), "stdout line {i} is a command: {line:.300}");
    }
    for line in lines_of(&stderr) {
        assert!(!command(line), "a stderr line is a command: {line:.300}");
    }
    let written = std::fs::read(&summary).unwrap();
    assert!(
        written.starts_with(earlier),
        "the earlier step's summary is kept as it was"
    );
    assert!(
        written.len() < 1024 * 1024,
        "GitHub drops a step summary over 1,024 KiB: {} bytes",
        written.len()
    );
    for line in lines_of(&String::from_utf8_lossy(&written)) {
        assert!(!command(line), "a summary line is a command: {line:.300}");
    }
    // Findings of every op the target claims: the test reaches each path.
    let md = String::from_utf8_lossy(&written);
    for op in ["cursor.int", "cursor.float", "blackjack.strategy"] {
        assert!(
            md.contains(&format!("### {}", provably::base::text::markdown(op))),
            "{op}: {md:.3000}"
        );
    }
}

/// A summary that would pass GitHub's cap is cut at the limit, at a
/// finding's end, with a line that says how much was left out.
#[test]
fn a_summary_past_its_limit_is_cut_and_says_so() {
    let run: provably::harness::report::Run = serde_json::from_str(&hostile_run(50)).unwrap();
    let whole = provably::harness::github::summary(&run, usize::MAX);
    assert!(!whole.contains("**Cut:**"), "{whole}");
    let cut = provably::harness::github::summary(&run, whole.len() / 2);
    assert!(cut.len() <= whole.len() / 2, "{} of {}", cut.len(), whole.len() / 2);
    assert!(cut.contains("finding(s) and 0 fault(s) not shown"), "{cut}");
    assert!(render(&cut).contains("<table>"), "the table stays: {cut}");
}

/// A run of one target with `n` findings of one op.
fn hostile_run(n: usize) -> String {
    let finding = r#"{"op":"cursor.raw","headline":"h","group":"g","symptoms":[{"group":"g","count":1}],
        "separates":{"text":"t","diverging":1,"divergingWith":0,"agreeing":2,"agreeingWith":0,"confirmedBy":0},
        "cause":"input","count":1,"origin":"vector","found":"","request":"{}","shrink_steps":0,"expected":"{}","got":"{}","diff":"","parted":""}"#;
    let findings = vec![finding; n].join(",");
    format!(
        r#"{{"version":2,"seed":1,"cases":2,"vectorsOnly":false,"jobs":1,"targets":[{{"target":"t","instances":1,"seconds":0.5,"ops":[
        {{"op":"cursor.raw","claimed":true,"cases":3,"agree":2,"diverge":1,"skipped":0,"faults":0,"findings":[{findings}]}}],"faults":[]}}]}}"#
    )
}
