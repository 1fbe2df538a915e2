//! The games of other operators (BC.Game's originals, the lucky-number
//! dice, Freebitco.in, skin.club, CSGOEmpire) as a player checks them: a
//! history of 2,000 generated bets of each game, written by `provably proof`
//! and committed to its server seed, audits with exit 0; the same history
//! with one outcome replaced by another bet's is a mismatch (exit 1) at that
//! round and nowhere else. And `audit --stats` on each game's exact law:
//! quiet on an honest history, an alarm on one ground for one outcome while
//! every bet still matches its committed seed.

use serde_json::{json, Value};

use crate::stats::{archives, audit_stats, rejected, write_archive};
use crate::support::bin;

/// Every game: its op and the fields of one configuration; `round` games
/// count a day's rounds of a public seed instead of a seed pair's nonces.
fn games() -> Vec<(&'static str, Value)> {
    vec![
        ("lucky.roll", json!({})),
        ("freebitco.roll", json!({})),
        ("skinclub.roll", json!({})),
        ("csgoempire.roulette", json!({})),
        ("bcgame.classicdice.old", json!({})),
        ("bcgame.classicdice", json!({})),
        ("bcgame.dice", json!({})),
        ("bcgame.limbo", json!({})),
        ("bcgame.hashdice", json!({})),
        ("bcgame.mines", json!({ "mines": 3 })),
        ("bcgame.keno", json!({})),
        ("bcgame.plinko", json!({ "rows": 16 })),
        ("bcgame.coinflip.old", json!({ "rounds": 10 })),
        ("bcgame.coinflip", json!({ "rounds": 10 })),
    ]
}

/// Bet `n` of `op` on `seed`: the player's client seed and nonce n, or for
/// CSGOEmpire the day's public seed and round n.
fn bet(op: &str, extra: &Value, seed: &str, n: u64) -> Value {
    let mut v = if op == "csgoempire.roulette" {
        json!({ "op": op, "serverSeed": seed, "publicSeed": "1914223138", "round": n })
    } else {
        json!({ "op": op, "serverSeed": seed, "clientSeed": "player", "nonce": n })
    };
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

/// Whether the op's server seed is committed to before play (skin.club's
/// public hash needs its salt, CSGOEmpire's is not described).
fn committed(op: &str) -> bool {
    provably::registry::find(op).unwrap().secret.is_some()
}

/// Runs the binary with `args`, `input` on stdin: (exit code, stdout).
fn run(args: &[&str], input: &str) -> (i32, String) {
    let out = duct::cmd(bin(), args)
        .stdin_bytes(input)
        .stdout_capture()
        .stderr_capture()
        .unchecked()
        .run()
        .unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap())
}

/// Audits `doc` in `dir`: (exit code, report).
fn audit(dir: &std::path::Path, name: &str, doc: &Value) -> (i32, Value) {
    let (file, report) = (
        dir.join(format!("{name}.json")),
        dir.join(format!("{name}.report.json")),
    );
    std::fs::write(&file, doc.to_string()).unwrap();
    let (code, _) = run(
        &[
            "audit",
            "--quiet",
            "--report",
            report.to_str().unwrap(),
            file.to_str().unwrap(),
        ],
        "",
    );
    (
        code,
        serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap(),
    )
}

const BETS: u64 = 2000;
const CHANGED: usize = 1234;

#[test]
fn a_2000_bet_history_of_every_game_audits_and_one_changed_outcome_is_a_mismatch_at_its_round() {
    let dir = tempfile::tempdir().unwrap();
    for (op, extra) in games() {
        let seed = provably::base::crypto::sha256_hex(&format!("history of {op}"));
        let lines: String = (0..BETS).map(|n| format!("{}\n", bet(op, &extra, &seed, n))).collect();
        let (code, text) = run(&["proof", "--requests", "-", "--group", "--commit"], &lines);
        assert_eq!(code, 0, "{op}: provably proof");
        let doc: Value = serde_json::from_str(&text).unwrap();
        let name = op.replace('.', "-");
        let (code, r) = audit(dir.path(), &name, &doc);
        assert_eq!(code, 0, "{op}: {r}");
        assert_eq!(
            (r["match"].as_u64(), r["gaps"].as_u64(), r["commitOk"].as_u64()),
            (Some(BETS), Some(0), Some(u64::from(committed(op)))),
            "{op}: every bet matches, no nonce is missing, the seed's commitment holds"
        );
        // The operator shows another bet's outcome at one round.
        let mut changed = doc.clone();
        let rounds = changed["epochs"][0]["rounds"].as_array_mut().unwrap();
        let other = (1..)
            .map(|k| rounds[(CHANGED + k) % rounds.len()]["observed"].clone())
            .find(|o| *o != rounds[CHANGED]["observed"])
            .unwrap();
        rounds[CHANGED]["observed"] = other;
        let (code, r) = audit(dir.path(), &format!("{name}-changed"), &changed);
        assert_eq!(code, 1, "{op}: {r}");
        assert_eq!(
            (r["mismatch"].as_u64(), r["match"].as_u64()),
            (Some(1), Some(BETS - 1)),
            "{op}"
        );
        let finding = &r["findings"][0];
        assert_eq!(
            (finding["kind"].as_str(), finding["round"].as_u64()),
            (Some("mismatch"), Some(CHANGED as u64)),
            "{op}: {finding}"
        );
    }
}

/// An archive of rounds that name their server seed, no commitment.
fn write_uncommitted(path: &std::path::Path, epochs: &[crate::stats::Epoch]) {
    let mut text = String::new();
    for (_, reqs, oks) in epochs {
        let rounds: Vec<Value> = reqs
            .iter()
            .zip(oks)
            .map(|(r, ok)| {
                let mut r = r.clone();
                r["observed"] = ok.clone();
                r
            })
            .collect();
        text.push_str(&json!({ "commit": null, "rounds": rounds }).to_string());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

/// A history of one bet per seed pair, three candidate server seeds each:
/// the honest operator keeps the first, the grinder the first that `suits`.
/// Returns the honest and the ground audits' exit codes and reports.
fn ground(op: &str, extra: &Value, suits: &dyn Fn(&Value) -> bool) -> ((i32, Value), (i32, Value)) {
    let candidates: Vec<Vec<(String, Vec<Value>)>> = (0..BETS)
        .map(|p| {
            (0..3)
                .map(|c| {
                    let seed = provably::base::crypto::sha256_hex(&format!("{op} operator {p} candidate {c}"));
                    let req = bet(op, extra, &seed, 0);
                    (seed, vec![req])
                })
                .collect()
        })
        .collect();
    let (honest, ground) = archives(&candidates, &|oks| suits(&oks[0]));
    let dir = tempfile::tempdir().unwrap();
    let (h, g) = (dir.path().join("honest.jsonl"), dir.path().join("ground.jsonl"));
    for (path, epochs) in [(&h, &honest), (&g, &ground)] {
        if committed(op) {
            write_archive(path, epochs);
        } else {
            write_uncommitted(path, epochs);
        }
    }
    (audit_stats(&h), audit_stats(&g))
}

/// What a grinder keeps: an outcome it wants.
type Suits = Box<dyn Fn(&Value) -> bool>;

#[test]
fn every_game_with_a_law_is_quiet_when_honest_and_alarms_when_ground_for_one_outcome() {
    let roll = |ok: &Value| ok["roll"].as_f64().unwrap();
    let tails = |ok: &Value| ok["coins"].as_array().unwrap().iter().filter(|c| **c == 1).count();
    let cases: Vec<(&str, Value, Suits)> = vec![
        ("lucky.roll", json!({}), Box::new(move |ok| roll(ok) < 50.0)),
        ("freebitco.roll", json!({}), Box::new(move |ok| roll(ok) < 5000.0)),
        ("skinclub.roll", json!({}), Box::new(move |ok| roll(ok) > 50_000.0)),
        ("csgoempire.roulette", json!({}), Box::new(|ok| ok["roll"] != 0)),
        ("bcgame.classicdice.old", json!({}), Box::new(move |ok| roll(ok) < 50.0)),
        ("bcgame.classicdice", json!({}), Box::new(move |ok| roll(ok) < 50.0)),
        ("bcgame.dice", json!({}), Box::new(move |ok| roll(ok) < 5000.0)),
        (
            "bcgame.limbo",
            json!({}),
            Box::new(|ok| ok["multiplier"].as_f64().unwrap() < 2.0),
        ),
        ("bcgame.hashdice", json!({}), Box::new(move |ok| roll(ok) < 50_000.0)),
        (
            "bcgame.plinko",
            json!({ "rows": 16 }),
            Box::new(|ok| (6..=10).contains(&ok["bucket"].as_u64().unwrap())),
        ),
        (
            "bcgame.coinflip.old",
            json!({ "rounds": 10 }),
            Box::new(move |ok| tails(ok) <= 4),
        ),
        (
            "bcgame.coinflip",
            json!({ "rounds": 10 }),
            Box::new(move |ok| tails(ok) <= 4),
        ),
    ];
    for (op, extra, suits) in cases {
        let ((hc, honest), (gc, ground)) = ground(op, &extra, suits.as_ref());
        assert_eq!(
            (hc, honest["verdict"].as_str(), &honest["statistics"]["alarm"]),
            (0, Some("match"), &json!(false)),
            "{op}: the honest history: {:?}",
            rejected(&honest)
        );
        assert_eq!(
            (gc, ground["verdict"].as_str()),
            (6, Some("match")),
            "{op}: an alarm, every bet matching"
        );
        assert_eq!(ground["commitOk"], json!(if committed(op) { BETS } else { 0 }), "{op}");
        let r = rejected(&ground);
        assert!(r.iter().any(|t| t.starts_with(op)), "{op}: {r:?}");
    }
}
