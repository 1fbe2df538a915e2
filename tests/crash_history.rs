//! Crash histories as proof documents (docs/proofs.md, "Crash
//! histories"): a generated history of every variant audits clean, one
//! point, one hash or one game changed is found, and `--stats` on the
//! observed points alone tells a 5 % edge from the variant's own.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use provably::base::chain::Link;
use provably::proof::chain::{write_history, Generate};

use crate::support::bin;

/// A variant as a history names it: the chain's link, salt and variant.
struct Variant {
    name: &'static str,
    link: Link,
    salt: &'static str,
    variant: Value,
}

/// The family's variants, each with a salt its operator used
/// (docs/schemes.md, `crash`).
fn variants() -> Vec<Variant> {
    let v = |name, link, salt, variant| Variant {
        name,
        link,
        salt,
        variant,
    };
    vec![
        v(
            "bustabit v1",
            Link::Text,
            "000000000000000007a9a31ff7f07463d91af6b5454241d5faf282e5e0fe1b3a",
            json!({"op": "crash.v1"}),
        ),
        v(
            "Roobet",
            Link::Text,
            "0xd2867566759e9158bda9bf93b343bbd9aa02ce1e0c5bc2b37a2d70d391b04f14",
            json!({"op": "crash.v1", "divisor": 25, "instant": 1}),
        ),
        v(
            "bustabit v2, previous chain",
            Link::Text,
            "0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526",
            json!({"op": "crash.v2"}),
        ),
        v(
            "bustabit v2, current chain",
            Link::Bytes,
            "00000000000000000001e08b7fd44f95e3e950ac65650a8031a6d5e1750e34be",
            json!({"op": "crash.v2"}),
        ),
        v(
            "BC.Game",
            Link::Text,
            "0000000000000000000301e2801a9a9598bfb114e574a91a887f2132f33047e6",
            json!({"op": "crash.v2", "bcgame": true}),
        ),
        v(
            "Stake",
            Link::Text,
            "0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4",
            json!({"op": "stake.crash"}),
        ),
    ]
}

/// A history of `games` games of `v`, its newest game's hash from `seed`.
fn history(v: &Variant, seed: &str, games: u64, first: u64) -> String {
    let mut out = Vec::new();
    let g = Generate {
        top: provably::base::chain::bytes_of(&provably::base::crypto::sha256_hex(seed)),
        games,
        link: v.link,
        first,
        salt: v.salt,
        variant: &v.variant,
    };
    write_history(&mut out, &g, v.name).unwrap();
    String::from_utf8(out).unwrap()
}

/// `provably audit [extra] FILE` with its report: (exit code, report).
fn audit(path: &Path, extra: &[&str]) -> (i32, Value) {
    let report = path.with_extension("report.json");
    let mut args: Vec<std::ffi::OsString> = vec![
        "audit".into(),
        "--quiet".into(),
        "--report".into(),
        report.clone().into(),
    ];
    args.extend(extra.iter().map(Into::into));
    args.push(path.into());
    let out = duct::cmd(bin(), args).stdout_capture().unchecked().run().unwrap();
    let text = std::fs::read_to_string(&report).unwrap_or_else(|e| panic!("no report: {e}: {out:?}"));
    (out.status.code().unwrap(), serde_json::from_str(&text).unwrap())
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The findings of a report, as (kind, field, round, observed).
fn findings(report: &Value) -> Vec<(String, String, Value, Value)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["field"].as_str().unwrap_or("").to_string(),
                f["round"].clone(),
                f["observed"].clone(),
            )
        })
        .collect()
}

/// The line of game `number` in a generated history.
fn game_line(text: &str, number: u64) -> &str {
    let key = format!("{{\"game\":{number},");
    text.lines().find(|l| l.starts_with(&key)).unwrap()
}

#[test]
fn a_generated_history_of_10000_games_of_each_variant_matches_and_one_changed_point_is_a_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    for v in variants() {
        let text = history(&v, v.name, 10_000, 1);
        let clean = write(dir.path(), "clean.json", &text);
        let (code, report) = audit(&clean, &[]);
        assert_eq!(
            (code, report["verdict"].as_str()),
            (0, Some("match")),
            "{}: {report}",
            v.name
        );
        assert_eq!(
            (report["match"].as_u64(), report["gaps"].as_u64()),
            (Some(10_000), Some(0)),
            "{}",
            v.name
        );

        // Game 5,000's point one cent higher.
        let line = game_line(&text, 5000);
        let (before, written) = line.split_once("\"crashPoint\":").unwrap();
        let point: f64 = written.split('}').next().unwrap().parse().unwrap();
        let changed = format!("{before}\"crashPoint\":{}}}}}", json!(point + 0.01));
        let changed = if line.ends_with(',') { changed + "," } else { changed };
        let tampered = write(dir.path(), "point.json", &text.replace(line, &changed));
        let (code, report) = audit(&tampered, &[]);
        assert_eq!((code, report["verdict"].as_str()), (1, Some("mismatch")), "{}", v.name);
        // The newest game is round 0: game 5,000 is round 5,000.
        assert_eq!(
            findings(&report),
            vec![("mismatch".into(), "crashPoint".into(), json!(5000), json!(point + 0.01))],
            "{}",
            v.name
        );
    }
}

#[test]
fn a_hash_off_the_chain_a_game_shown_twice_and_games_left_out_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let v = &variants()[2];
    let text = history(v, "history", 200, 1_000);
    let line = |n: u64| game_line(&text, n).trim_end_matches(',').to_string();
    let (g1100, g1050) = (line(1100), line(1050));
    // Game 1,100 shown with game 1,050's hash and point: its point is that
    // hash's, but the hash is 50 links off.
    let hash_of = |l: &str| {
        serde_json::from_str::<Value>(l).unwrap()["hash"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let moved = g1050.replace("\"game\":1050", "\"game\":1100");
    let swapped = write(dir.path(), "moved.json", &text.replacen(&g1100, &moved, 1));
    let (code, report) = audit(&swapped, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&report),
        vec![("mismatch".into(), "hash".into(), json!(99), json!(hash_of(&g1050)))]
    );
    // Game 1,100 twice: the second is a mismatch, though its point and hash are right.
    let twice = write(dir.path(), "twice.json", &text.replacen(&g1050, &g1100, 1));
    let (code, report) = audit(&twice, &[]);
    assert_eq!(code, 1);
    let f = findings(&report);
    assert!(
        f.contains(&("mismatch".into(), "game".into(), json!(149), json!(1100))),
        "{f:?}"
    );
    // … and game 1,050 is then missing: a gap, which changes no verdict by itself.
    assert!(
        f.contains(&("gap".into(), "game".into(), Value::Null, json!([1050, 1050]))),
        "{f:?}"
    );
    // Games 1,010 … 1,019 left out: one gap, exit 0.
    let mut cut = text.clone();
    for n in 1010..1020 {
        cut = cut.replacen(&format!("{},\n", line(n)), "", 1);
    }
    let (code, report) = audit(&write(dir.path(), "cut.json", &cut), &[]);
    assert_eq!((code, report["gaps"].as_u64()), (0, Some(1)), "{report}");
    assert_eq!(
        findings(&report),
        vec![("gap".into(), "game".into(), Value::Null, json!([1010, 1019]))]
    );
}

#[test]
fn a_history_in_ascending_order_and_split_into_two_files_is_the_same_history() {
    let dir = tempfile::tempdir().unwrap();
    let v = &variants()[3];
    let text = history(v, "two files", 300, 10_000_001);
    let (head, rest) = text.split_once("\"rounds\":[\n").unwrap();
    let body = rest.trim_end().trim_end_matches("]}").trim_end().trim_end_matches("]}");
    let mut games: Vec<&str> = body.lines().map(|l| l.trim_end_matches(',')).collect();
    games.reverse();
    let doc = |g: &[&str]| format!("{head}\"rounds\":[\n{}\n]}}\n]}}\n", g.join(",\n"));
    let (code, report) = audit(&write(dir.path(), "up.json", &doc(&games)), &[]);
    assert_eq!((code, report["match"].as_u64()), (0, Some(300)), "{report}");
    // Games 1 … 100 and 201 … 300 in one file, 101 … 200 in another: one history.
    let a = write(dir.path(), "a.json", &doc(&[&games[..100], &games[200..]].concat()));
    let b = write(dir.path(), "b.json", &doc(&games[100..200]));
    let report = dir.path().join("two.report.json");
    let out = duct::cmd!(bin(), "audit", "--quiet", "--report", &report, &a, &b)
        .stdout_null()
        .unchecked()
        .run()
        .unwrap();
    let report: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    assert_eq!(
        (out.status.code(), report["gaps"].as_u64()),
        (Some(0), Some(0)),
        "{report}"
    );
    // The same game in both files is shown twice.
    let c = write(dir.path(), "c.json", &doc(&games[199..201]));
    let report = dir.path().join("three.report.json");
    let out = duct::cmd!(bin(), "audit", "--quiet", "--report", &report, &a, &b, &c)
        .stdout_null()
        .unchecked()
        .run()
        .unwrap();
    let report: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    assert_eq!(
        (out.status.code(), report["mismatch"].as_u64()),
        (Some(1), Some(2)),
        "{report}"
    );
}

/// X of a game: the first 52 bits of v2's MAC over 2^52.
fn x_of(hash: &str, salt: &str) -> f64 {
    provably::schemes::crash::v2_x(&provably::schemes::crash::v2_mac(hash, salt))
}

/// A history of points alone (no hash shown): `point` of each game's hash.
fn points_only(v: &Variant, games: u64, point: &dyn Fn(&str) -> f64) -> String {
    let text = history(v, "points", games, 1);
    let mut out = Vec::new();
    for l in text.lines() {
        if l.starts_with("{\"game\":") {
            let g: Value = serde_json::from_str(l.trim_end_matches(',')).unwrap();
            let p = point(g["hash"].as_str().unwrap());
            let comma = if l.ends_with(',') { "," } else { "" };
            out.push(format!(
                "{{\"game\":{},\"observed\":{{\"crashPoint\":{}}}}}{comma}",
                g["game"],
                json!(p)
            ));
        } else {
            out.push(l.to_string());
        }
    }
    out.join("\n")
}

#[test]
fn stats_on_points_alone_alarm_at_a_five_percent_edge_and_stay_quiet_on_honest_points() {
    let dir = tempfile::tempdir().unwrap();
    let all = variants();
    // bustabit v2: 99/(1 − X) honest, 95/(1 − X) at a 5 % edge.
    let v2 = &all[2];
    let edge = |e: f64| move |h: &str| ((100.0 - e) / (1.0 - x_of(h, v2.salt))).floor().max(100.0) / 100.0;
    for (name, point, alarm) in [("honest", edge(1.0), false), ("5 %", edge(5.0), true)] {
        let p = write(dir.path(), "v2.json", &points_only(v2, 10_000, &point));
        let (code, report) = audit(&p, &["--stats"]);
        assert_eq!(
            report["verdict"],
            json!("unobserved"),
            "{name}: no hash, nothing compared"
        );
        assert_eq!(
            report["statistics"]["alarm"],
            json!(alarm),
            "{name}: {}",
            report["statistics"]
        );
        assert_eq!(code, if alarm { 6 } else { 0 }, "{name}");
    }
    // bustabit v1 (1 in 101 games crashes at once) against points that crash
    // at once 1 game in 20 (Roobet's divisor, a 5 % edge): the instant mass counts.
    let v1 = &all[0];
    let v1_point = |d: u64| {
        move |h: &str| {
            let r = json!({"op": "crash.v1", "hash": h, "salt": v1.salt, "divisor": d});
            provably::registry::parse(&r).unwrap().run_value().unwrap()["crashPoint"]
                .as_f64()
                .unwrap()
        }
    };
    for (name, d, alarm) in [("honest", 101, false), ("1 in 20", 20, true)] {
        let p = write(dir.path(), "v1.json", &points_only(v1, 10_000, &v1_point(d)));
        let (code, report) = audit(&p, &["--stats"]);
        assert_eq!(
            report["statistics"]["alarm"],
            json!(alarm),
            "{name}: {}",
            report["statistics"]
        );
        assert_eq!(code, if alarm { 6 } else { 0 }, "{name}");
    }
}
