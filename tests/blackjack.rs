//! Blackjack (seed 003): the published TypeScript, pinned and run on every
//! legal situation against the Rust table; `provably house-edge` on the
//! command line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use proptest::prelude::*;
use sha2::{Digest, Sha256};

use provably::blackjack::situations::situations;
use provably::blackjack::strategy;

use crate::support::{root, run};

const PUBLISHED: &str = "reference/published/basisstrategie.ts";
const PINNED: &str = "84c61bb80784d974ec8fbc06edc59016c3c5ee0bdf2ebdecf9453a1864f2c4b7";

#[test]
fn published_basisstrategie_is_byte_for_byte_as_pinned() {
    let bytes = std::fs::read(root().join(PUBLISHED)).unwrap();
    let got = provably::crypto::hex(&Sha256::digest(&bytes));
    assert_eq!(got, PINNED, "{PUBLISHED} was edited; it must stay as published");
    assert!(
        bytes.ends_with(b"}\n") && !bytes.contains(&b'\r'),
        "one final newline, no CR"
    );
    let note = std::fs::read_to_string(root().join("reference/published/SOURCES.md")).unwrap();
    assert!(
        note.contains("basisstrategie.ts") && note.contains(PINNED),
        "SOURCES.md must name the pin"
    );
}

/// node with the pinned typescript installed, or a loud skip outside `make test`.
fn typescript_available() -> bool {
    if root().join("node_modules/typescript/package.json").exists() {
        return true;
    }
    // `make test` installs node_modules first and sets PROVABLY_PYTHON.
    if std::env::var_os("PROVABLY_PYTHON").is_some() {
        panic!("node_modules/typescript is missing; run `make node`");
    }
    eprintln!("skipping: node_modules/typescript is missing (run `make node` or `make test`)");
    false
}

/// Runs the TypeScript target on `lines` and returns its answer lines.
fn ts_target(lines: Vec<String>) -> Vec<String> {
    let mut child = Command::new(std::env::var("PROVABLY_NODE").unwrap_or_else(|_| "node".into()))
        .arg("reference/adapters/blackjack_ts_target.mjs")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut w = std::io::BufWriter::new(&mut stdin);
        for l in lines {
            w.write_all(l.as_bytes()).unwrap();
            w.write_all(b"\n").unwrap();
        }
    });
    let answers: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success(), "the target exits 0 at end of input");
    answers
}

#[test]
fn published_typescript_agrees_with_the_rust_table_on_every_legal_situation() {
    if !typescript_available() {
        return;
    }
    let all: Vec<_> = situations().collect();
    let mut lines = vec![r#"{"id":0,"op":"hello","protocol":1}"#.to_string()];
    for (i, s) in all.iter().enumerate() {
        let mut v = serde_json::to_value(s).unwrap();
        v["id"] = (i + 1).into();
        v["op"] = "blackjack.strategy".into();
        lines.push(v.to_string());
    }
    let answers = ts_target(lines);
    assert_eq!(answers.len(), all.len() + 1, "one answer per request");
    let hello: serde_json::Value = serde_json::from_str(&answers[0]).unwrap();
    assert_eq!(hello["ok"]["ops"], serde_json::json!(["blackjack.strategy"]));
    // No disagreement is expected: the stand-in follows the rules and the
    // charts follow the published lists. Any that appears is printed in full.
    let mut disagreements = Vec::new();
    for (i, s) in all.iter().enumerate() {
        let a: serde_json::Value = serde_json::from_str(&answers[i + 1]).unwrap();
        assert_eq!(a["id"], i + 1);
        let ts = a["ok"]["action"].as_str().unwrap_or("(no action)");
        if ts != s.action().name() {
            disagreements.push(format!(
                "{} -> published {ts}, rust {}",
                serde_json::to_string(s).unwrap(),
                s.action()
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} situations disagree, first ones:\n{}",
        disagreements.len(),
        all.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
}

#[test]
fn typescript_target_refuses_what_rust_refuses_naming_the_same_field() {
    if !typescript_available() {
        return;
    }
    // (cards, dealer, canDouble, canSplit)
    let cases: [(&[u64], u64, bool, bool); 9] = [
        (&[5], 5, false, false),
        (&[5, 52], 5, false, false),
        (&[9, 12, 5], 5, false, false),
        (&[0; 7], 5, false, false),
        (&[0; 22], 5, false, false),
        (&[1, 2], 1, false, false),
        (&[1, 2, 3], 5, true, false),
        (&[1, 2], 5, false, true),
        (&[1, 14, 27], 5, false, true),
    ];
    let mut lines = vec![
        "   ".to_string(), // blank: no answer
        r#"{"id":18446744073709551616,"op":"blackjack.strategy"}"#.to_string(),
    ];
    for (i, (cards, dealer, d, s)) in cases.iter().enumerate() {
        lines.push(
            serde_json::json!({"id": i, "op": "blackjack.strategy", "cards": cards, "dealer": dealer, "canDouble": d, "canSplit": s})
                .to_string(),
        );
    }
    let answers = ts_target(lines);
    assert_eq!(
        answers.len(),
        cases.len() + 1,
        "the blank line gets no answer: {answers:?}"
    );
    assert!(
        answers[0].starts_with(r#"{"id":18446744073709551616,"error":{"kind":"invalid""#),
        "{}",
        answers[0]
    );
    for (i, (cards, dealer, d, s)) in cases.iter().enumerate() {
        let want = strategy::strategy(cards, *dealer, *d, *s, true).unwrap_err();
        let got: serde_json::Value = serde_json::from_str(&answers[i + 1]).unwrap();
        assert_eq!(got["error"]["kind"], "invalid", "{}", answers[i + 1]);
        assert_eq!(got["error"]["message"], want.to_string(), "case {i}");
    }
}

/// The op's domain, written from its description, to hold `strategy` to.
fn legal(cards: &[u64], dealer: u64, can_double: bool, can_split: bool) -> bool {
    let count = |c: u64| match c % 13 {
        0 => 11,
        r if r >= 9 => 10,
        r => r + 1,
    };
    let pips: u64 = cards.iter().map(|&c| if c % 13 == 0 { 1 } else { count(c) }).sum();
    (2..=21).contains(&cards.len())
        && cards.iter().all(|&c| c <= 51)
        && cards.iter().all(|c| cards.iter().filter(|&x| x == c).count() <= 6)
        && pips <= 21
        && (2..=11).contains(&dealer)
        && (!can_double || cards.len() == 2)
        && (!can_split || (cards.len() == 2 && count(cards[0]) == count(cards[1])))
}

proptest! {
    #[test]
    fn strategy_answers_exactly_the_legal_situations(
        cards in prop::collection::vec(prop_oneof![0u64..52, 0u64..60], 0..24),
        dealer in 0u64..14,
        can_double: bool,
        can_split: bool,
        das: bool,
    ) {
        let r = strategy::strategy(&cards, dealer, can_double, can_split, das);
        prop_assert_eq!(r.is_ok(), legal(&cards, dealer, can_double, can_split), "{:?}", r);
        if let Err(e) = r {
            prop_assert!(["cards", "dealer", "canDouble", "canSplit"].contains(&e.field.as_str()));
        }
    }

    #[test]
    fn suits_and_the_order_of_three_or_more_cards_do_not_matter(
        cards in prop::collection::vec(0u64..52, 3..6),
        dealer in 2u64..12,
        shift in 0u64..4,
    ) {
        let other: Vec<u64> = cards.iter().rev().map(|c| (c + 13 * shift) % 52).collect();
        let a = strategy::strategy(&cards, dealer, false, false, true);
        let b = strategy::strategy(&other, dealer, false, false, true);
        prop_assert_eq!(a.is_ok(), b.is_ok());
        if let (Ok(a), Ok(b)) = (a, b) {
            prop_assert_eq!(a, b);
        }
    }
}

#[test]
fn house_edge_refuses_unknown_and_contradictory_rules_with_exit_2() {
    for args in [
        &["house-edge", "--surrender", "late"][..],
        &["house-edge", "--rng", "fast", "--server-seed", "x"],
        &["house-edge", "--max-hands", "1", "--das", "yes"],
        &["house-edge", "--max-hands", "2", "--resplit-aces", "yes"],
        &["house-edge", "--blackjack-pays", "7:3"],
        &["house-edge", "--exact", "--rounds", "5"],
        &["house-edge", "--seats", "2"],
        &["house-edge", "--decks", "9"],
        &["house-edge", "--rounds", "0"],
        &["house-edge", "--decks", "1", "--rng", "fast", "--seats", "3"],
    ] {
        let (code, out, err) = run(args, "");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?} printed a result: {out}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn house_edge_is_the_same_on_one_thread_and_on_three() {
    for mode in [&["--rng", "fast", "--rounds", "150000"][..], &["--rounds", "40"]] {
        let with = |jobs: &str| {
            let mut a = vec!["house-edge", "--quiet", "--seed", "9", "--jobs", jobs];
            a.extend_from_slice(mode);
            let (code, out, err) = run(&a, "");
            assert_eq!(code, 0, "{err}");
            out
        };
        assert_eq!(with("1"), with("3"), "{mode:?}");
    }
}

#[test]
fn a_verifiable_round_is_the_cursor_shuffle_it_names() {
    // One round, then the same round re-dealt from `provably derive cursor.shuffle`.
    let (code, out, err) = run(
        &[
            "house-edge",
            "--quiet",
            "--rounds",
            "1",
            "--seed",
            "4",
            "--blackjack-pays",
            "3:2",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let edge: f64 = out
        .split("house edge: ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let server_seed = provably::crypto::sha256_hex("provably house-edge:4");
    assert!(out.contains(&server_seed), "{out}");
    let (code, derived, err) = run(
        &[
            "derive",
            "cursor.shuffle",
            "--server-seed",
            &server_seed,
            "--client-seed",
            "seat-1",
            "--nonce",
            "0",
            "--count",
            "312",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let order: Vec<u64> = serde_json::from_str::<serde_json::Value>(&derived).unwrap()["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    struct Dealt(Vec<u64>, usize);
    impl provably::blackjack::sim::CardSource for Dealt {
        fn draw(&mut self) -> u8 {
            self.1 += 1;
            provably::blackjack::cards::pip((self.0[self.1 - 1] % 52) as u8)
        }
    }
    let rules = provably::blackjack::Rules {
        blackjack_pays: provably::blackjack::rules::Payout { num: 3, den: 2 },
        ..Default::default()
    };
    let mut t = provably::blackjack::sim::Tally::default();
    let net = provably::blackjack::sim::play_round(&rules, 1, &mut Dealt(order, 0), &mut t);
    assert!(
        (edge - -(net as f64) * 10.0).abs() < 1e-9,
        "edge {edge} % vs round result {net} tenths"
    );
}
