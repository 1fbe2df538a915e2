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
fn run_action(inputs: &BTreeMap<&str, &str>, dir: &Path) -> (i32, String) {
    let a = action();
    let steps = a["runs"]["steps"].as_vec().unwrap();
    assert_eq!(a["runs"]["using"].as_str(), Some("composite"));
    let (mut code, mut stdout) = (0, String::new());
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
    }
    (code, stdout)
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
    let (code, stdout) = run_action(&inputs, dir.path());
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
    let page = render(&provably::harness::github::summary(&run));
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
