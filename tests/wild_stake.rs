//! Stake's verifiers in the wild (harness/wild/fair-stake.toml,
//! harness/wild/provably-fair-verifier.toml): each runs its vectors under
//! its recorded expectations, and an expectation edited away turns the run
//! red naming the target, the op and the request.

use std::path::Path;

use crate::support::{bin, python, root};

/// `provably diff` of one wild target's vectors for `op`, held to the expectations in `dir`.
fn stake_run(target: &str, op: &str, dir: &Path) -> (i32, String, String) {
    let out = duct::cmd(
        bin(),
        [
            "diff",
            "--targets-dir",
            "harness/wild",
            "--target",
            target,
            "--op",
            op,
            "--vectors-only",
            "--quiet",
            "--jobs",
            "1",
            "--expectations",
            dir.to_str().unwrap(),
        ],
    )
    .dir(root())
    .env("PROVABLY_PYTHON", python())
    .stdout_capture()
    .stderr_capture()
    .unchecked()
    .run()
    .expect("provably runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The expectations folder copied, with every `[[finding]]` of `op` in `file` taken out.
fn without_findings_of(file: &str, op: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(root().join("harness/expectations")).unwrap() {
        let path = e.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if path.file_name().unwrap() == file {
            let marker = format!("op = \"{op}\"");
            let parts: Vec<&str> = text.split("[[finding]]").collect();
            let kept: Vec<&str> = std::iter::once(parts[0])
                .chain(parts[1..].iter().copied().filter(|p| !p.contains(&marker)))
                .collect();
            assert!(kept.len() < parts.len(), "{file} records no finding of {op}");
            text = kept.join("[[finding]]");
        }
        std::fs::write(dir.path().join(path.file_name().unwrap()), text).unwrap();
    }
    dir
}

fn holds_then_turns_red_without_its_findings(target: &str, op: &str) {
    let (code, out, err) = stake_run(target, op, &root().join("harness/expectations"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("expectations: as recorded"), "{out}");
    let dir = without_findings_of(&format!("{target}.toml"), op);
    let (code, out, err) = stake_run(target, op, dir.path());
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains(&format!("NEW divergence in {target} {op}")), "{out}");
    assert!(out.contains(&format!("request: {{\"op\":\"{op}\"")), "{out}");
}

#[test]
fn fair_crates_limbo_reading_is_recorded_and_ci_turns_red_when_it_is_not() {
    holds_then_turns_red_without_its_findings("fair-stake", "stake.limbo");
}

#[test]
fn win5x_verifiers_limbo_reading_is_recorded_and_ci_turns_red_when_it_is_not() {
    holds_then_turns_red_without_its_findings("provably-fair-verifier", "stake.limbo");
}
