//! An auditor's own target (tests/auditor/target.py, written from
//! docs/schemes.md alone) claiming four ops and no lower op, with one bug
//! planted at a time: each bug is one finding per op, named by
//! the known bug it answers as, and the findings of an input bug say which
//! field separates their cases.

use rstest::rstest;

use crate::support::{python, root};

/// `provably diff` of the target with `bug`: its report.
fn run(bug: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let cmd = format!("{} tests/auditor/target.py {bug}", python());
    let out = std::process::Command::new(crate::support::bin())
        .args([
            "diff",
            "--target-cmd",
            &cmd,
            "--cases",
            "100",
            "--seed",
            "0",
            "--quiet",
            "--report",
        ])
        .arg(&report)
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{bug}: a planted bug diverges: {stdout}");
    serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap()
}

/// Each bug: the ops it shows in, the known bug of harness/bugs/ each op's
/// finding answers as, and the field that separates its cases (if one does).
#[rstest]
#[case::latin1_key("latin1-key", &[("cursor.int", "latin1-key"), ("shoe.deal", "latin1-key"), ("dice.roll", "latin1-key"), ("ladder.shuffle", "latin1-key")], Some("serverSeed"))]
#[case::nonce_g15("nonce-g15", &[("cursor.int", "nonce-g15"), ("shoe.deal", "nonce-g15"), ("dice.roll", "nonce-g15")], Some("nonce"))]
#[case::reject_gt("reject-gt", &[("cursor.int", "int-accept-at-limit"), ("shoe.deal", "shoe-accept-at-limit"), ("dice.roll", "dice-accept-252")], None)]
#[case::cut_python_round("cut-python-round", &[("shoe.deal", "shoe-cut-bankers")], None)]
#[case::cut_no_clamp("cut-no-clamp", &[("shoe.deal", "shoe-no-high-clamp")], None)]
#[case::ladder_le("ladder-le", &[("ladder.shuffle", "ladder-nine-words")], Some("size"))]
#[case::dice_byte0("dice-byte0", &[("dice.roll", "dice-byte0-only")], None)]
fn each_planted_bug_is_one_finding_per_op_named_after_its_known_bug(
    #[case] bug: &str,
    #[case] shows: &[(&str, &str)],
    #[case] field: Option<&str>,
) {
    let report = run(bug);
    let ops = report["targets"][0]["ops"].as_array().unwrap();
    for o in ops.iter().filter(|o| o["claimed"] == true) {
        let op = o["op"].as_str().unwrap();
        let findings = o["findings"].as_array().unwrap();
        let expected = shows.iter().find(|(name, _)| *name == op);
        assert_eq!(
            findings.len(),
            usize::from(expected.is_some()),
            "{bug} {op}: {findings:#?}"
        );
        let Some((_, known)) = expected else { continue };
        let f = &findings[0];
        assert_eq!(
            f["count"], o["diverge"],
            "{bug} {op}: the finding holds every divergence"
        );
        assert_eq!(f["known"]["name"], *known, "{bug} {op}: {f:#}");
        assert!(f["headline"]
            .as_str()
            .unwrap()
            .starts_with(&format!("answers as the known bug `{known}` would")));
        if bug == "nonce-g15" && op != "dice.roll" {
            // The exact boundary: "%.15g" writes 10^15 - 1 as digits, 10^15 as "1e+15".
            assert_eq!(f["separates"]["property"], "`nonce` ≥ 10^15", "{f:#}");
        }
        match field {
            // The die's nonce is its `n`.
            Some("nonce") if op == "dice.roll" => assert_eq!(f["separates"]["field"], "n", "{f:#}"),
            Some(name) => {
                assert_eq!(f["separates"]["field"], name, "{bug} {op}: {f:#}");
                assert!(f["separates"]["confirmedBy"].as_u64().unwrap() > 0, "{f:#}");
                assert_eq!(f["separates"]["divergingWith"], f["separates"]["diverging"], "{f:#}");
            }
            None => {}
        }
    }
}
