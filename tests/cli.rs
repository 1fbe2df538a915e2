//! `provably derive`: one result for people, and one test per rejected input class.

use rstest::rstest;
use serde_json::Value;

use crate::support::run;

const SEED: &str = "a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60";

fn derive(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["derive"];
    all.extend_from_slice(args);
    run(&all, "")
}

#[test]
fn derive_from_flags_matches_the_published_vektoren_int() {
    // referenz.py vektoren: range 52 at SEED_B / MarcTestet / 42 / cursor 0.
    let (code, out, err) = derive(&[
        "cursor.int",
        "--server-seed",
        SEED,
        "--client-seed",
        "MarcTestet",
        "--nonce",
        "42",
        "--range",
        "52",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let published: Value = serde_json::from_str(&provably::vectors::vektoren::text()).unwrap();
    let row = published["int"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["range"] == 52)
        .unwrap();
    assert_eq!(
        (v["value"].clone(), v["cursorNext"].clone()),
        (row["value"].clone(), row["cursorNext"].clone())
    );
    assert!(err.is_empty(), "a 64-hex seed gets no warning: {err}");
}

#[test]
fn derive_from_json_equals_derive_from_flags() {
    let flags = derive(&[
        "shoe.deal",
        "--server-seed",
        SEED,
        "--client-seed",
        "c",
        "--nonce",
        "3",
        "--decks",
        "2",
        "--penetration",
        "0.75",
    ]);
    let json = run(
        &["derive", "--json", "-"],
        &format!(
            r#"{{"op":"shoe.deal","serverSeed":"{SEED}","clientSeed":"c","nonce":3,"decks":2,"penetration":0.75}}"#
        ),
    );
    assert_eq!(flags.0, 0);
    assert_eq!(flags.1, json.1);
}

#[test]
fn derive_warns_about_a_server_seed_that_is_not_lowercase_hex_but_still_answers() {
    let (code, out, err) = derive(&["cursor.hash", "--server-seed", "My Seed"]);
    assert_eq!(code, 0);
    assert!(out.contains(&provably::schemes::cursor::hash("My Seed")));
    assert!(err.contains("not 64 lowercase hex"), "{err}");
}

/// Each class of bad input: exit 2, a message naming the field, no panic.
#[rstest]
#[case::range_zero(&["cursor.int", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--range", "0"], "range")]
#[case::count_above_limit(&["cursor.shuffle", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--count", "100001"], "count")]
#[case::players_below(&["poker.deal", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--players", "1"], "players")]
#[case::players_above(&["poker.deal", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--players", "23"], "players")]
#[case::four_cards(&["poker.evaluate", "--cards", "1,2,3,4"], "cards")]
#[case::eight_cards(&["poker.evaluate", "--cards", "1,2,3,4,5,6,7,8"], "cards")]
#[case::duplicate_card(&["poker.evaluate", "--cards", "1,2,3,4,4"], "cards")]
#[case::card_52(&["poker.evaluate", "--cards", "1,2,3,4,52"], "cards")]
#[case::nonce_above_2_53(&["cursor.raw", "--server-seed", "s", "--client-seed", "c", "--nonce", "9007199254740992"], "nonce")]
#[case::cursor_above_2_53(&["cursor.raw", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--cursor", "9007199254740992"], "cursor")]
#[case::decks_zero(&["shoe.deal", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--decks", "0", "--penetration", "0.5"], "decks")]
#[case::decks_nine(&["shoe.deal", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--decks", "9", "--penetration", "0.5"], "decks")]
#[case::penetration_one(&["shoe.deal", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--decks", "1", "--penetration", "1"], "penetration")]
#[case::penetration_zero(&["shoe.deal", "--server-seed", "s", "--client-seed", "c", "--nonce", "0", "--decks", "1", "--penetration", "0"], "penetration")]
#[case::seed_2_63(&["selfpoker.deck", "--seed", "9223372036854775808"], "seed")]
#[case::seed_not_decimal(&["selfpoker.deck", "--seed", "0x10"], "seed")]
#[case::seed_leading_zero(&["selfpoker.commit", "--seed", "012"], "seed")]
#[case::size_zero(&["ladder.shuffle", "--server-seed", "s", "--client-seed", "c", "--size", "0"], "size")]
#[case::size_above_limit(&["ladder.shuffle", "--server-seed", "s", "--client-seed", "c", "--size", "100001"], "size")]
#[case::missing_field(&["cursor.raw", "--server-seed", "s", "--nonce", "0"], "clientSeed")]
#[case::field_of_another_op(&["cursor.hash", "--server-seed", "s", "--range", "5"], "range")]
fn bad_input_exits_2_naming_the_field(#[case] args: &[&str], #[case] field: &str) {
    let (code, out, err) = derive(args);
    assert_eq!(code, 2, "stdout: {out}\nstderr: {err}");
    assert!(out.is_empty(), "nothing on stdout: {out}");
    assert!(
        err.starts_with("error: ") && err.contains(field),
        "stderr must name {field}: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[rstest]
#[case::not_json("{\"op\": ", "request")]
#[case::float_nonce(
    r#"{"op":"cursor.raw","serverSeed":"s","clientSeed":"c","nonce":1.0,"cursor":0}"#,
    "nonce"
)]
#[case::negative_cursor(
    r#"{"op":"cursor.raw","serverSeed":"s","clientSeed":"c","nonce":1,"cursor":-1}"#,
    "cursor"
)]
#[case::seed_as_number(r#"{"op":"selfpoker.deck","seed":5}"#, "seed")]
#[case::unknown_op(r#"{"op":"cursor.teleport"}"#, "cursor.teleport")]
#[case::not_an_object("[1, 2]", "request")]
fn malformed_json_request_exits_2(#[case] stdin: &str, #[case] field: &str) {
    let (code, _, err) = run(&["derive", "--json", "-"], stdin);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(field), "{err}");
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["serve", "derive", "vectors", "vektoren", "verify", "diff", "web"] {
        let (code, out, _) = run(&[sub, "--help"], "");
        assert_eq!(code, 0, "{sub} --help");
        assert!(out.contains("Usage"), "{sub} --help: {out}");
    }
    let (code, out, _) = run(&["verify", "shoe", "--help"], "");
    assert_eq!(code, 0);
    assert!(out.contains("--observed"));
}

#[test]
fn vectors_check_reports_drift_with_a_diff_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, _) = run(&["vectors", "--root", dir.path().to_str().unwrap()], "");
    assert_eq!(code, 0);
    let path = dir.path().join("vectors/dice.json");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("\"face\": 6", "\"face\": 5", 1);
    std::fs::write(&path, text).unwrap();
    let (code, _, err) = run(&["vectors", "--check", "--root", dir.path().to_str().unwrap()], "");
    assert_eq!(code, 1);
    let removed = err.lines().any(|l| l.starts_with('-') && l.contains("\"face\": 5"));
    let added = err.lines().any(|l| l.starts_with('+') && l.contains("\"face\": 6"));
    assert!(err.contains("vectors/dice.json") && removed && added, "{err}");
}

/// A root that is not there is no drift to report: it is bad input, named.
#[test]
fn vectors_check_of_a_missing_root_is_an_error_naming_the_path() {
    let (code, _, err) = run(&["vectors", "--check", "--root", "/nonexistent/provably-root"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent/provably-root"), "{err}");
}

/// Floats that are no numbers are named as given, not as `null`.
#[rstest]
#[case::nan("NaN")]
#[case::inf("inf")]
#[case::minus_infinity("-infinity")]
fn a_penetration_that_is_no_number_is_named_as_given(#[case] given: &str) {
    let flag = format!("--penetration={given}");
    let (code, out, err) = derive(&[
        "shoe.deal",
        "--server-seed",
        "s",
        "--client-seed",
        "c",
        "--nonce",
        "0",
        "--decks",
        "1",
        &flag,
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(given) && err.contains("penetration") && !err.contains("null"),
        "{err}"
    );
}

#[test]
fn a_json_request_with_nan_says_json_has_no_nan() {
    let (code, _, err) = run(
        &["derive", "--json", "-"],
        r#"{"op":"shoe.deal","serverSeed":"s","clientSeed":"c","nonce":0,"decks":1,"penetration":NaN}"#,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("NaN"), "{err}");
}

/// What varies between runs and machines, and what stands in for it in
/// the CLI snapshots: one table for every snapshot, applied in order.
fn filters() -> Vec<(regex::Regex, String)> {
    let root = regex::escape(&crate::support::root().display().to_string());
    let temp = regex::escape(&std::env::temp_dir().display().to_string());
    [
        (root.as_str(), "[ROOT]"),
        (&format!(r"{temp}/\.tmp[A-Za-z0-9]+"), "[TEMP]"),
        (r"\b\d+(\.\d+)?(ms|s)\b", "[TIME]"),
        (r"\b\d+ job\(s\)", "[JOBS] job(s)"),
    ]
    .iter()
    .map(|(re, to)| (regex::Regex::new(re).expect("valid filter"), (*to).to_string()))
    .collect()
}

/// A run as its snapshot shows it: exit code, stdout, stderr, filtered.
fn shown(args: &[&str], dir: Option<&std::path::Path>) -> String {
    let out = duct::cmd(crate::support::bin(), args)
        .dir(dir.unwrap_or(crate::support::root()))
        .stdin_null()
        .stdout_capture()
        .stderr_capture()
        .unchecked()
        .run()
        .expect("provably runs");
    let mut text = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    for (re, to) in filters() {
        text = re.replace_all(&text, to.as_str()).into_owned();
    }
    text
}

const COMMIT: &str = "e35732b6af539190b6d353fa0ca2a426181b3db24e9edd8cc2bfa0054733267d";

fn verify_shoe(observed: &str) -> String {
    shown(
        &[
            "verify",
            "shoe",
            "--server-seed",
            SEED,
            "--commit",
            COMMIT,
            "--client-seed",
            "lucky",
            "--nonce",
            "1",
            "--decks",
            "6",
            "--penetration",
            "0.75",
            "--observed",
            observed,
        ],
        None,
    )
}

#[test]
fn snapshot_help() {
    insta::assert_snapshot!("help", shown(&["--help"], None));
}

#[test]
fn snapshot_derive_int_and_a_whole_shoe_in_lines_of_100_columns() {
    let args = [
        "derive",
        "cursor.int",
        "--server-seed",
        SEED,
        "--client-seed",
        "MarcTestet",
        "--nonce",
        "42",
        "--range",
        "52",
    ];
    insta::assert_snapshot!("derive_int", shown(&args, None));
    let shoe = shown(
        &[
            "derive",
            "shoe.deal",
            "--server-seed",
            SEED,
            "--client-seed",
            "lucky",
            "--nonce",
            "1",
            "--decks",
            "6",
            "--penetration",
            "0.75",
        ],
        None,
    );
    assert!(shoe.lines().all(|l| l.chars().count() <= 100), "{shoe}");
    insta::assert_snapshot!("derive_shoe", shoe);
}

#[test]
fn snapshot_verify_match_and_mismatch_each_end_in_a_verdict() {
    insta::assert_snapshot!("verify_match", verify_shoe("8C TC 6H"));
    insta::assert_snapshot!("verify_mismatch", verify_shoe("8C TC 7H"));
}

#[test]
fn snapshot_vectors_check_drift_and_outside_a_checkout() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    assert_eq!(run(&["vectors", "--root", root], "").0, 0);
    let path = dir.path().join("vectors/dice.json");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("\"face\": 6", "\"face\": 5", 1);
    std::fs::write(&path, text).unwrap();
    insta::assert_snapshot!(
        "vectors_check_drift",
        shown(&["vectors", "--check", "--root", root], None)
    );
    let empty = tempfile::tempdir().unwrap();
    insta::assert_snapshot!(
        "vectors_check_no_checkout",
        shown(&["vectors", "--check"], Some(empty.path()))
    );
}

#[test]
fn snapshot_usage_errors_name_the_range_and_say_each_cause_once() {
    let nonce = [
        "derive",
        "cursor.raw",
        "--server-seed",
        "s",
        "--client-seed",
        "c",
        "--nonce",
    ];
    insta::assert_snapshot!("derive_nonce_negative", shown(&[&nonce[..], &["-1"]].concat(), None));
    insta::assert_snapshot!("derive_nonce_exponent", shown(&[&nonce[..], &["1e3"]].concat(), None));
    insta::assert_snapshot!("diff_jobs_zero", shown(&["diff", "--jobs", "0"], None));
    insta::assert_snapshot!("diff_cases_exponent", shown(&["diff", "--cases", "1e3"], None));
    insta::assert_snapshot!("diff_seed_negative", shown(&["diff", "--seed", "-1"], None));
    insta::assert_snapshot!(
        "diff_cases_for_word",
        shown(&["diff", "--cases-for", "dice.roll=abc"], None)
    );
    insta::assert_snapshot!(
        "diff_missing_manifest",
        shown(&["diff", "--target", "/nonexistent/provably.toml"], None)
    );
}

#[test]
fn snapshot_audit_of_a_small_example() {
    insta::assert_snapshot!(
        "audit_dice_game",
        shown(&["audit", "examples/proofs/dice-game.json"], None)
    );
}

#[test]
fn the_seed_warning_says_what_is_wrong_with_the_seed() {
    let upper = SEED.to_uppercase();
    let (_, _, err) = derive(&["cursor.hash", "--server-seed", &upper]);
    assert!(
        err.contains("character 1 of 64 is 'A', an uppercase hex digit"),
        "{err}"
    );
    let (_, _, err) = derive(&["cursor.hash", "--server-seed", "s"]);
    assert!(err.contains("it has 1 character;"), "{err}");
}
