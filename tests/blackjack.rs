//! Blackjack (seed 003): the published TypeScript, pinned and run on every
//! legal situation against the Rust table; `provably house-edge` on the
//! command line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use proptest::prelude::*;
use sha2::{Digest, Sha256};

use provably::schemes::blackjack::situations::situations;
use provably::schemes::blackjack::strategy;

use crate::support::{root, run};

const PUBLISHED: &str = "reference/published/basisstrategie.ts";
const PINNED: &str = "84c61bb80784d974ec8fbc06edc59016c3c5ee0bdf2ebdecf9453a1864f2c4b7";

#[test]
fn published_basisstrategie_is_byte_for_byte_as_pinned() {
    let bytes = std::fs::read(root().join(PUBLISHED)).unwrap();
    let got = provably::base::crypto::hex(&Sha256::digest(&bytes));
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

/// The harness's own process target, driven through its `Target` trait
/// with the manifest in harness/targets/: every situation, numbered as the
/// op's generator numbers them, asked as the op's request and held to the
/// op's answer. (`provably diff` draws its generated cases at random; this
/// asks each of the 184,500 exactly once.)
#[test]
#[allow(
    clippy::result_large_err,
    reason = "the answer callback's error type is the harness's Fault, as Target::receive declares it"
)]
fn harness_holds_the_published_typescript_to_the_op_on_every_numbered_situation() {
    use provably::harness::{cases::Ask, compare::same_reply, manifest::Manifest, process::decode_line, Got};
    use provably::protocol::Reply;
    use provably::schemes::blackjack::ops::{request, STRATEGY};
    use provably::schemes::blackjack::situations::{situation, COUNT};

    if !typescript_available() {
        return;
    }
    let manifest = Manifest::load(&root().join("harness/targets/blackjack-ts.toml")).unwrap();
    let mut target = provably::harness::targets::open(manifest);
    let hello = target.start().unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(hello.ops, ["blackjack.strategy"]);
    let mut next_id = 2i64;
    let mut asked = 0;
    let mut disagreements = Vec::new();
    for first in (0..COUNT).step_by(2048) {
        let requests: Vec<_> = (first..COUNT.min(first + 2048))
            .map(|k| request(&situation(k).unwrap()))
            .collect();
        let asks: Vec<Ask> = requests.iter().cloned().map(Ask::Request).collect();
        let ids: Vec<i64> = (0..asks.len())
            .map(|i| next_id + 2 * i64::try_from(i).unwrap())
            .collect();
        next_id += 2 * i64::try_from(asks.len()).unwrap();
        let highest = next_id - 2;
        target.send(&asks, &ids).unwrap_or_else(|f| panic!("{f}"));
        let mut i = 0;
        let fault = target.receive(&mut |got| {
            let Got::Line(bytes) = got else {
                panic!("a process target answers lines")
            };
            let got = decode_line(&bytes, ids[i], highest, || false)?;
            let want = Reply::from_result(requests[i].run_value());
            if !same_reply(&want, &got) {
                let story = match (&want, &got) {
                    (Reply::Ok(w), Reply::Ok(g)) => (STRATEGY.explain)(&requests[i], w, g).map(|p| p.story),
                    _ => None,
                };
                disagreements.push(format!(
                    "{requests:?}: {want:?} vs {got:?} {story:?}",
                    requests = requests[i]
                ));
            }
            i += 1;
            Ok(())
        });
        assert!(fault.is_none(), "{}", fault.unwrap());
        asked += i;
    }
    assert!(target.finish().is_none(), "the target ends cleanly");
    assert_eq!(asked, COUNT);
    assert!(
        disagreements.is_empty(),
        "{} of {COUNT} situations disagree, first ones:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
}

/// Bad input through the op, as `serve` and the harness see it: the
/// parser's field limits first, then the op's own rules, each naming its
/// field; an unknown field (a rules flag the op does not know) is an error,
/// never a silent default.
#[test]
fn op_refuses_bad_input_naming_the_field() {
    use provably::op::error::OpError;
    let ask = |fields: serde_json::Value| {
        let mut v = serde_json::json!({"op": "blackjack.strategy", "dealer": 6, "canDouble": false, "canSplit": false});
        for (k, x) in fields.as_object().unwrap() {
            v[k] = x.clone();
        }
        provably::registry::parse(&v).and_then(|r| r.run_value())
    };
    let field = |fields: serde_json::Value| match ask(fields.clone()) {
        Err(OpError::Invalid(e)) => e.field,
        other => panic!("{fields}: {other:?}"),
    };
    use serde_json::json;
    assert_eq!(field(json!({"cards": [5]})), "cards", "one card");
    assert_eq!(field(json!({"cards": [5, 52]})), "cards", "card 52");
    assert_eq!(field(json!({"cards": [0, 0, 0, 0, 0, 0, 0]})), "cards", "seven copies");
    assert_eq!(field(json!({"cards": vec![0; 22]})), "cards", "22 cards");
    assert_eq!(field(json!({"cards": [9, 12, 5]})), "cards", "bust");
    assert_eq!(field(json!({"cards": [1, 2], "dealer": 1})), "dealer");
    assert_eq!(field(json!({"cards": [1, 2], "dealer": 12})), "dealer");
    assert_eq!(field(json!({"cards": [1, 2, 3], "canDouble": true})), "canDouble");
    assert_eq!(field(json!({"cards": [1, 2], "canSplit": true})), "canSplit");
    assert_eq!(field(json!({"cards": [1, 14, 27], "canSplit": true})), "canSplit");
    assert_eq!(
        field(json!({"cards": [1, 2], "doubleAfterSplit": "yes"})),
        "doubleAfterSplit"
    );
    assert_eq!(
        field(json!({"cards": [1, 2], "surrender": false})),
        "surrender",
        "an unknown rules flag"
    );
    assert_eq!(field(json!({"cards": [1, 2], "canDouble": null})), "canDouble");
    // The op's own rules keep the library's messages.
    let Err(OpError::Invalid(e)) = ask(json!({"cards": [1, 14, 27], "canSplit": true})) else {
        panic!()
    };
    assert_eq!(
        e.to_string(),
        "canSplit: true with 3 cards; only a two-card pair can be split"
    );
    // Left out, doubleAfterSplit is true.
    let left_out = ask(json!({"cards": [3, 16], "dealer": 5, "canSplit": true})).unwrap();
    let with = ask(json!({"cards": [3, 16], "dealer": 5, "canSplit": true, "doubleAfterSplit": true})).unwrap();
    assert_eq!(left_out, with);
    assert_eq!(left_out, json!({"action": "teilen"}));
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

/// `--help` states every rule's default, and they are the rules a run
/// without rule flags prints with its result.
#[test]
fn house_edge_help_states_the_defaults_every_result_prints() {
    let (code, help, err) = run(&["house-edge", "--help"], "");
    assert_eq!(code, 0, "{err}");
    let mut defaults = std::collections::BTreeMap::new();
    let mut flag = "";
    for line in help.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("--") {
            flag = rest.split_whitespace().next().unwrap();
        } else if let Some(d) = line.split("[default: ").nth(1) {
            defaults.insert(flag.to_string(), d.split(']').next().unwrap().to_string());
        }
    }
    let (code, out, err) = run(&["house-edge", "--quiet", "--rounds", "10", "--rng", "fast"], "");
    assert_eq!(code, 0, "{err}");
    let rules = out.lines().find_map(|l| l.strip_prefix("rules: ")).unwrap();
    let printed: Vec<&str> = rules.split(" (").next().unwrap().split_whitespace().collect();
    assert_eq!(printed.len(), 20, "ten rules: {rules}");
    for pair in printed.chunks(2) {
        let name = pair[0].strip_prefix("--").unwrap();
        assert_eq!(
            defaults.get(name).map(String::as_str),
            Some(pair[1]),
            "--{name}: help says {:?}, a run prints {}",
            defaults.get(name),
            pair[1]
        );
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
    let server_seed = provably::base::crypto::sha256_hex("provably house-edge:4");
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
    impl provably::house_edge::sim::CardSource for Dealt {
        fn draw(&mut self) -> u8 {
            self.1 += 1;
            provably::schemes::blackjack::cards::pip(u8::try_from(self.0[self.1 - 1] % 52).unwrap())
        }
    }
    let rules = provably::schemes::blackjack::Rules {
        blackjack_pays: provably::schemes::blackjack::rules::Payout { num: 3, den: 2 },
        ..Default::default()
    };
    let mut t = provably::house_edge::sim::Tally::default();
    let net = provably::house_edge::sim::play_round(&rules, 1, &mut Dealt(order, 0), &mut t);
    assert!(
        (edge - -f64::from(i32::try_from(net).unwrap()) * 10.0).abs() < 1e-9,
        "edge {edge} % vs round result {net} tenths"
    );
}
