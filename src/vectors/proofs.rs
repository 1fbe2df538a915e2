//! The proof vectors (`vectors/proofs.json`): proof documents and archives
//! with the report an audit must give, for `provably audit`, its tests and
//! the page's JavaScript checker.
//!
//! Every vector states by hand what it must find (kind, epoch, round,
//! field and, where the tampering fixes it, the index), and generating the
//! file fails when the audit finds anything else. The derived values in the
//! documents and findings come from the ops, whose own vectors the harness
//! holds to the published implementations.

use serde_json::{json, Map, Value};

mod chain;

use crate::proof::round::seat_seed;
use crate::proof::run::{audit_text, Options};
use crate::proof::{FindingKind, Verdict};

/// An index a vector expects.
#[derive(Debug, Clone, Copy)]
enum Idx {
    Is(u64),
    Null,
    /// Decided by the derivation (a changed seed moves everything).
    Any,
}

/// A finding a vector expects.
struct Want {
    kind: FindingKind,
    epoch: Option<u64>,
    round: Option<u64>,
    field: Option<&'static str>,
    index: Idx,
}

fn want(kind: FindingKind, epoch: Option<u64>, round: Option<u64>, field: Option<&'static str>, index: Idx) -> Want {
    Want {
        kind,
        epoch,
        round,
        field,
        index,
    }
}

/// `kind` at epoch e, round r, in `field`.
fn at(kind: FindingKind, e: u64, r: u64, field: &'static str, index: Idx) -> Want {
    want(kind, Some(e), Some(r), Some(field), index)
}

fn invalid_round(e: u64, r: u64, field: &'static str) -> Want {
    at(FindingKind::Invalid, e, r, field, Idx::Null)
}

struct Vector {
    comment: &'static str,
    class: &'static str,
    text: String,
    verdict: Verdict,
    wants: Vec<Want>,
}

/// A deterministic 64-hex server seed for a vector.
fn seed(name: &str) -> String {
    crate::base::crypto::sha256_hex(&format!("provably proof vectors: {name}"))
}

/// The `ok` object of a round under a secret.
fn derived(secret: Option<(&str, &str)>, round: &Value) -> Value {
    let mut m = round.as_object().expect("a round object").clone();
    m.remove("observed");
    m.remove("external");
    if let Some(seats) = m.remove("seats") {
        m.insert(
            "clientSeed".into(),
            Value::from(seat_seed(&seats).expect("valid seats")),
        );
    }
    if let Some((f, v)) = secret {
        m.insert(f.into(), Value::from(v));
    }
    crate::registry::parse(&Value::Object(m))
        .and_then(|r| r.run_value())
        .unwrap_or_else(|e| panic!("vector round {round}: {e}"))
}

/// The round with its derived outcome as `observed`, changed by `edit`.
fn observed(secret: Option<(&str, &str)>, round: Value, edit: impl FnOnce(&mut Map<String, Value>)) -> Value {
    let Value::Object(mut ok) = derived(secret, &round) else {
        unreachable!("ok is an object")
    };
    edit(&mut ok);
    let mut r = round;
    r["observed"] = Value::Object(ok);
    r
}

fn ss(s: &str) -> Option<(&'static str, &str)> {
    Some(("serverSeed", s))
}

fn epoch(commit: Value, secret: Option<(&str, &str)>, rounds: Vec<Value>) -> Value {
    let mut m = Map::new();
    m.insert("commit".into(), commit);
    if let Some((f, v)) = secret {
        m.insert(f.into(), Value::from(v));
    }
    m.insert("rounds".into(), Value::from(rounds));
    Value::Object(m)
}

fn commit_of(s: &str) -> Value {
    Value::from(crate::schemes::cursor::hash(s))
}

fn doc(epochs: &[Value]) -> String {
    serde_json::to_string(&json!({ "proof": 1, "epochs": epochs })).expect("json")
}

fn lines(epochs: &[Value]) -> String {
    epochs
        .iter()
        .map(|e| serde_json::to_string(e).expect("json") + "\n")
        .collect()
}

fn shoe_round(nonce: u64) -> Value {
    json!({"op": "shoe.deal", "clientSeed": "table-7", "nonce": nonce, "decks": 6, "penetration": 0.75})
}

fn other_card(label: &Value) -> Value {
    Value::from(if label == "AS" { "KC" } else { "AS" })
}

fn truncate(field: &'static str, n: usize) -> impl FnOnce(&mut Map<String, Value>) {
    move |ok| {
        if let Some(Value::Array(items)) = ok.get_mut(field) {
            items.truncate(n);
        }
    }
}

fn valid(out: &mut Vec<Vector>) {
    let s = seed("shoe");
    let full = observed(ss(&s), shoe_round(12), |_| {});
    out.push(Vector {
        comment: "a shoe.deal round with every card and the cut observed; commitment ok",
        class: "valid",
        text: doc(&[epoch(commit_of(&s), ss(&s), vec![full.clone()])]),
        verdict: Verdict::Match,
        wants: vec![],
    });
    let partial = observed(ss(&s), shoe_round(13), |ok| {
        let cards = ok["cards"].as_array_mut().expect("cards");
        cards.truncate(20);
        cards[3] = Value::Null;
        cards[11] = Value::Null;
    });
    out.push(Vector {
        comment: "a prefix of 20 cards with two unseen (null) and the cut; commitment in upper case",
        class: "valid",
        text: doc(&[epoch(
            Value::from(crate::schemes::cursor::hash(&s).to_uppercase()),
            ss(&s),
            vec![partial],
        )]),
        verdict: Verdict::Match,
        wants: vec![],
    });
    let t = seed("tournament");
    let hand =
        |k: u64| json!({"op": "shoe.tournament", "tournamentId": "T-42", "hand": k, "decks": 6, "penetration": 0.75});
    let hands: Vec<Value> = [0, 2, 1]
        .into_iter()
        .map(|k| observed(ss(&t), hand(k), truncate("cards", 15)))
        .collect();
    out.push(Vector {
        comment: "tournament hands listed out of order (0, 2, 1), each with its own observation: order carries nothing the seed commits to",
        class: "valid",
        text: doc(&[epoch(commit_of(&t), ss(&t), hands)]),
        verdict: Verdict::Match,
        wants: vec![],
    });
    valid_games(out);
}

/// Valid documents of the other games: dice, a poker table, selfpoker hands.
fn valid_games(out: &mut Vec<Vector>) {
    use FindingKind::Skipped;
    let d = seed("dice");
    let client = "a26460084a0ef89b:d4f28bac6efd1b6e";
    let mut dice: Vec<Value> = (0..6)
        .map(|n| observed(ss(&d), json!({"op": "dice.roll", "clientSeed": client, "n": n}), |_| {}))
        .collect();
    dice[4] = json!({"op": "dice.roll", "clientSeed": client, "n": 4, "external": "telegram", "observed": {"face": 6}});
    out.push(Vector {
        comment: "a dice game: six dice, die 4 rolled with Telegram's animation (external, skipped with its reason)",
        class: "valid",
        text: doc(&[epoch(commit_of(&d), ss(&d), dice)]),
        verdict: Verdict::Match,
        wants: vec![at(Skipped, 0, 4, "external", Idx::Null)],
    });
    let p = seed("table");
    let seats =
        json!([{"player": 8, "seed": "zeta"}, {"player": 3, "seed": "alpha"}, {"player": 5, "seed": "Ölkanne"}]);
    let table = observed(
        ss(&p),
        json!({"op": "poker.deal", "seats": seats, "nonce": 17, "players": 3}),
        |ok| ok["hole"][1] = Value::Null,
    );
    let evaluate = observed(
        None,
        json!({"op": "poker.evaluate", "cards": [0, 13, 26, 39, 12]}),
        |_| {},
    );
    out.push(Vector {
        comment: "a table round: seats listed out of player order (the client seed is their seeds by ascending player), one hand folded and hidden (null); a poker.evaluate round needs no seed",
        class: "valid",
        text: doc(&[epoch(commit_of(&p), ss(&p), vec![table, evaluate])]),
        verdict: Verdict::Match,
        wants: vec![],
    });
    let hands: Vec<Value> = ["42", "9223372036854775807"]
        .into_iter()
        .map(|k| {
            let n: u64 = k.parse().expect("a seed");
            let r = observed(Some(("seed", k)), json!({"op": "selfpoker.deck"}), truncate("deck", 9));
            epoch(
                Value::from(crate::schemes::selfpoker::commit(n)),
                Some(("seed", k)),
                vec![r],
            )
        })
        .collect();
    out.push(Vector {
        comment: "two selfpoker hands, one epoch each: the seed as a decimal string, committed as SHA-256 of selfpoker:<seed>",
        class: "valid",
        text: doc(&hands),
        verdict: Verdict::Match,
        wants: vec![],
    });
}

fn valid_more(out: &mut Vec<Vector>) {
    use FindingKind::Unobserved;
    let (s, d) = (seed("shoe"), seed("dice"));
    let full = observed(ss(&s), shoe_round(12), |_| {});
    let l = seed("ladder");
    let ladder = observed(
        ss(&l),
        json!({"op": "ladder.shuffle", "clientSeed": "mein-seed", "size": 25}),
        |_| {},
    );
    let cursor = |op: &str| {
        observed(
            ss(&l),
            json!({"op": op, "clientSeed": "c", "nonce": 1, "cursor": 2}),
            |_| {},
        )
    };
    out.push(Vector {
        comment: "a ladder round and cursor.raw, cursor.float and cursor.int rounds under one seed",
        class: "valid",
        text: doc(&[epoch(
            commit_of(&l),
            ss(&l),
            vec![
                ladder,
                cursor("cursor.raw"),
                cursor("cursor.float"),
                observed(
                    ss(&l),
                    json!({"op": "cursor.int", "clientSeed": "c", "nonce": 1, "cursor": 2, "range": 37}),
                    |_| {},
                ),
            ],
        )]),
        verdict: Verdict::Match,
        wants: vec![],
    });
    let empty = json!({"op": "ladder.shuffle", "clientSeed": "x", "size": 5, "observed": {"order": [null, null]}});
    out.push(Vector {
        comment: "nothing to compare: no commitment, one round without observed, one with {}, one with only nulls",
        class: "valid",
        text: doc(&[epoch(
            Value::Null,
            ss(&l),
            vec![
                json!({"op": "dice.roll", "clientSeed": "x", "n": 0}),
                json!({"op": "dice.roll", "clientSeed": "x", "n": 1, "observed": {}}),
                empty,
            ],
        )]),
        verdict: Verdict::Unobserved,
        wants: (0..3).map(|r| at(Unobserved, 0, r, "", Idx::Null)).collect(),
    });
    let e0 = epoch(commit_of(&s), ss(&s), vec![full]);
    let e1 = epoch(
        Value::Null,
        ss(&d),
        vec![observed(
            ss(&d),
            json!({"op": "dice.roll", "clientSeed": "q", "n": 9}),
            |_| {},
        )],
    );
    let mut keys = Map::new();
    keys.insert(
        "rounds".into(),
        json!([observed(
            ss(&l),
            json!({"op": "ladder.shuffle", "clientSeed": "c", "size": 3}),
            |_| {}
        )]),
    );
    keys.insert("serverSeed".into(), Value::from(l.as_str()));
    keys.insert("commit".into(), commit_of(&l));
    out.push(Vector {
        comment: "JSON lines: three epochs, one a blank line apart, one with its keys in another order (rounds, serverSeed, commit)",
        class: "valid",
        text: format!("{}\n{}", lines(&[e0, e1]), lines(&[Value::Object(keys)])),
        verdict: Verdict::Match,
        wants: vec![],
    });
}

/// Rounds of the ops added after the format: no seed for blackjack.strategy.
fn valid_newer_ops(out: &mut Vec<Vector>) {
    let s = seed("shoe");
    let stream = observed(
        ss(&s),
        json!({"op": "shoe.stream", "clientSeed": "table-7", "nonce": 12, "count": 40}),
        |_| {},
    );
    out.push(Vector {
        comment: "the newer ops: a shoe.stream round (40 bytes across two blocks) and blackjack.strategy rounds, which take no seed, in a shoe epoch and in an epoch without a secret",
        class: "valid",
        text: doc(&[
            epoch(
                commit_of(&s),
                ss(&s),
                vec![stream, blackjack(&[9, 22], 10, true, false, |_| {})],
            ),
            epoch(
                Value::Null,
                None,
                vec![
                    blackjack(&[0, 13], 6, true, true, |_| {}),
                    blackjack(&[1, 2, 3, 4], 10, false, false, |_| {}),
                ],
            ),
        ]),
        verdict: Verdict::Match,
        wants: vec![],
    });
}

/// A blackjack.strategy round (no seed) with its derived action as observed, changed by `edit`.
fn blackjack(
    cards: &[u64],
    dealer: u64,
    can_double: bool,
    can_split: bool,
    edit: impl FnOnce(&mut Map<String, Value>),
) -> Value {
    observed(
        None,
        json!({"op": "blackjack.strategy", "cards": cards, "dealer": dealer, "canDouble": can_double, "canSplit": can_split}),
        edit,
    )
}

fn tampered(out: &mut Vec<Vector>) {
    use FindingKind::{Commit, Mismatch};
    let s = seed("shoe");
    let full = observed(ss(&s), shoe_round(12), |_| {});
    out.push(Vector {
        comment: "tampered: the commitment shown before play is not that of the revealed seed",
        class: "tampered",
        text: doc(&[epoch(commit_of("another seed"), ss(&s), vec![full.clone()])]),
        verdict: Verdict::Mismatch,
        wants: vec![want(Commit, Some(0), None, Some("commit"), Idx::Null)],
    });
    let card = observed(ss(&s), shoe_round(12), |ok| {
        let c = &mut ok["cards"][17];
        *c = other_card(c);
    });
    out.push(Vector {
        comment: "tampered: card 17 of the shoe changed",
        class: "tampered",
        text: doc(&[epoch(commit_of(&s), ss(&s), vec![card])]),
        verdict: Verdict::Mismatch,
        wants: vec![at(Mismatch, 0, 0, "cards", Idx::Is(17))],
    });
    let cut = observed(ss(&s), shoe_round(12), |ok| {
        ok["cut"] = Value::from(ok["cut"].as_u64().expect("cut") + 1);
    });
    out.push(Vector {
        comment: "tampered: the cut card one position later",
        class: "tampered",
        text: doc(&[epoch(commit_of(&s), ss(&s), vec![full, cut])]),
        verdict: Verdict::Mismatch,
        wants: vec![at(Mismatch, 0, 1, "cut", Idx::Null)],
    });
    let p = seed("table");
    let seats = json!([{"player": 3, "seed": "alpha"}, {"player": 5, "seed": "beta"}, {"player": 8, "seed": "gamma"}]);
    let mut changed = observed(
        ss(&p),
        json!({"op": "poker.deal", "seats": seats, "nonce": 4, "players": 3}),
        |_| {},
    );
    changed["seats"][1]["seed"] = Value::from("betA");
    out.push(Vector {
        comment: "tampered: one seat seed changed after the deal (every card moves)",
        class: "tampered",
        text: doc(&[epoch(commit_of(&p), ss(&p), vec![changed])]),
        verdict: Verdict::Mismatch,
        wants: vec![
            at(Mismatch, 0, 0, "hole", Idx::Any),
            at(Mismatch, 0, 0, "board", Idx::Any),
        ],
    });
}

fn tampered_order(out: &mut Vec<Vector>) {
    use FindingKind::Mismatch;
    let s = seed("shoe");
    let t = seed("tournament");
    let hand =
        |k: u64| json!({"op": "shoe.tournament", "tournamentId": "T-42", "hand": k, "decks": 6, "penetration": 0.75});
    let mut hands: Vec<Value> = (0..5)
        .map(|k| observed(ss(&t), hand(k), truncate("cards", 15)))
        .map(|mut r| {
            r["observed"].as_object_mut().expect("observed").remove("cut");
            r
        })
        .collect();
    let (a, b) = (hands[2]["observed"].clone(), hands[3]["observed"].clone());
    (hands[2]["observed"], hands[3]["observed"]) = (b, a);
    out.push(Vector {
        comment:
            "tampered: rounds out of order: the cards of tournament hands 2 and 3 were dealt in each other's place",
        class: "tampered",
        text: doc(&[epoch(commit_of(&t), ss(&t), hands)]),
        verdict: Verdict::Mismatch,
        wants: vec![
            at(Mismatch, 0, 2, "cards", Idx::Any),
            at(Mismatch, 0, 3, "cards", Idx::Any),
        ],
    });
    let deck = observed(Some(("seed", "7")), json!({"op": "selfpoker.deck"}), |ok| {
        ok["deck"].as_array_mut().expect("deck").push(Value::from(0));
    });
    out.push(Vector {
        comment: "tampered: 53 cards observed from a 52-card deck",
        class: "tampered",
        text: doc(&[epoch(
            Value::from(crate::schemes::selfpoker::commit(7)),
            Some(("seed", "7")),
            vec![deck],
        )]),
        verdict: Verdict::Mismatch,
        wants: vec![at(Mismatch, 0, 0, "deck", Idx::Is(52))],
    });
    let stream = observed(
        ss(&s),
        json!({"op": "shoe.stream", "clientSeed": "table-7", "nonce": 12, "count": 40}),
        |ok| {
            // Byte 33 (block 1) one higher: the text differs at one hex pair.
            let hex = ok["bytes"].as_str().expect("bytes").to_string();
            let byte = u8::from_str_radix(&hex[66..68], 16).expect("hex");
            ok["bytes"] = Value::from(format!("{}{:02x}{}", &hex[..66], byte.wrapping_add(1), &hex[68..]));
        },
    );
    let action = blackjack(&[9, 22], 10, true, false, |ok| {
        ok["action"] = Value::from(if ok["action"] == "ziehen" { "stehen" } else { "ziehen" });
    });
    out.push(Vector {
        comment: "tampered: one byte of a shoe.stream changed, and a blackjack.strategy action that is not the published strategy's",
        class: "tampered",
        text: doc(&[epoch(commit_of(&s), ss(&s), vec![stream, action])]),
        verdict: Verdict::Mismatch,
        wants: vec![
            at(Mismatch, 0, 0, "bytes", Idx::Null),
            at(Mismatch, 0, 1, "action", Idx::Null),
        ],
    });
    tampered_lines(out);
}

/// Tampered JSON lines: a commitment and a die of one epoch wrong.
fn tampered_lines(out: &mut Vec<Vector>) {
    use FindingKind::{Commit, Mismatch};
    let s = seed("shoe");
    let d = seed("dice");
    let good = |n: u64| {
        epoch(
            commit_of(&d),
            ss(&d),
            vec![observed(
                ss(&d),
                json!({"op": "dice.roll", "clientSeed": "c", "n": n}),
                |_| {},
            )],
        )
    };
    let bad = epoch(
        commit_of(&s),
        ss(&d),
        vec![observed(
            ss(&d),
            json!({"op": "dice.roll", "clientSeed": "c", "n": 1}),
            |ok| {
                ok["face"] = Value::from(ok["face"].as_u64().expect("face") % 6 + 1);
            },
        )],
    );
    out.push(Vector {
        comment: "tampered: JSON lines, the second epoch's commitment and die face both wrong",
        class: "tampered",
        text: lines(&[good(0), bad, good(2)]),
        verdict: Verdict::Mismatch,
        wants: vec![
            want(Commit, Some(1), None, Some("commit"), Idx::Null),
            at(Mismatch, 1, 0, "face", Idx::Null),
        ],
    });
}

/// Invalid epochs and documents: a field that does not exist, a bad
/// commitment, no rounds, another version, text that is not JSON.
fn invalid_documents(s: &str, full: &Value) -> Vec<(&'static str, String, Want)> {
    use FindingKind::Invalid;
    vec![
        (
            "invalid: an epoch field that does not exist (its rounds are still checked)",
            doc(&[json!({"commit": null, "serverSeed": s, "foo": 1, "rounds": [full.clone()]})]),
            want(Invalid, Some(0), None, Some("foo"), Idx::Null),
        ),
        (
            "invalid: a commitment that is not 64 hex characters (its rounds are still checked)",
            doc(&[epoch(Value::from("abc"), ss(s), vec![full.clone()])]),
            want(Invalid, Some(0), None, Some("commit"), Idx::Null),
        ),
        (
            "invalid: an epoch without rounds",
            doc(&[json!({"commit": null, "serverSeed": s})]),
            want(Invalid, Some(0), None, Some("rounds"), Idx::Null),
        ),
        (
            "invalid: a document field that does not exist",
            format!(
                r#"{{"proof":1,"foo":true,"epochs":[{}]}}"#,
                epoch(Value::Null, ss(s), vec![full.clone()])
            ),
            want(Invalid, None, None, Some("foo"), Idx::Null),
        ),
        (
            "invalid: proof version 3 (nothing else is read)",
            r#"{"proof": 3, "epochs": []}"#.to_string(),
            want(Invalid, None, None, Some("proof"), Idx::Null),
        ),
        (
            "invalid: a document that is not JSON (it breaks before its first epoch)",
            r#"{"proof": 1, "epochs": ["#.to_string(),
            want(Invalid, None, None, None, Idx::Null),
        ),
    ]
}

/// A shoe round with one field changed, after a good one.
fn invalid_rounds(s: &str, full: &Value) -> Vec<(&'static str, String, Want)> {
    use FindingKind::Invalid;
    let with = |key: &str, v: Value| {
        let mut r = shoe_round(12);
        r[key] = v;
        doc(&[epoch(Value::Null, ss(s), vec![full.clone(), r])])
    };
    vec![
        (
            "invalid: a round with a field its op does not take",
            with("foo", json!(1)),
            invalid_round(0, 1, "foo"),
        ),
        (
            "invalid: nonce 2^53, above 2^53-1",
            with("nonce", json!(9_007_199_254_740_992_u64)),
            invalid_round(0, 1, "nonce"),
        ),
        (
            "invalid: 9 decks",
            with("decks", json!(9)),
            invalid_round(0, 1, "decks"),
        ),
        (
            "invalid: a round that carries the epoch's serverSeed",
            with("serverSeed", Value::from(s)),
            invalid_round(0, 1, "serverSeed"),
        ),
        (
            "invalid: a round with an id",
            with("id", json!(1)),
            invalid_round(0, 1, "id"),
        ),
        (
            "invalid: clientSeed and seats both",
            with("seats", json!([{"player": 1, "seed": "a"}])),
            invalid_round(0, 1, "seats"),
        ),
        (
            "invalid: an observed field the op does not answer",
            with("observed", json!({"face": 3})),
            invalid_round(0, 1, "observed.face"),
        ),
        (
            "invalid: an observed field that is null",
            with("observed", json!({"cut": null})),
            invalid_round(0, 1, "observed.cut"),
        ),
        (
            "invalid: external with a reason of 65 characters",
            with("external", Value::from("x".repeat(65))),
            invalid_round(0, 1, "external"),
        ),
        (
            "invalid: a card label that is not one",
            with("observed", json!({"cards": ["AS", "1X"]})),
            at(Invalid, 0, 1, "observed.cards", Idx::Is(1)),
        ),
    ]
}

fn invalid(out: &mut Vec<Vector>) {
    use FindingKind::Invalid;
    let s = seed("shoe");
    let full = observed(ss(&s), shoe_round(12), |_| {});
    let mut cases = invalid_rounds(&s, &full);
    cases.extend(vec![
        (
            "invalid: two seats with the same player",
            doc(&[epoch(
                Value::Null,
                ss(&s),
                vec![
                    json!({"op": "poker.deal", "seats": [{"player": 1, "seed": "a"}, {"player": 2, "seed": "b"}, {"player": 1, "seed": "c"}], "nonce": 0, "players": 3}),
                ],
            )]),
            at(Invalid, 0, 0, "seats", Idx::Is(2)),
        ),
        (
            "invalid: a selfpoker epoch with a serverSeed",
            doc(&[epoch(
                Value::Null,
                ss("42"),
                vec![json!({"op": "selfpoker.deck", "observed": {"deck": [1]}})],
            )]),
            invalid_round(0, 0, "serverSeed"),
        ),
        (
            "invalid: a shoe epoch with a selfpoker seed",
            doc(&[epoch(Value::Null, Some(("seed", "42")), vec![shoe_round(1)])]),
            invalid_round(0, 0, "seed"),
        ),
        (
            "invalid: a die face of 7",
            doc(&[epoch(
                Value::Null,
                ss(&s),
                vec![json!({"op": "dice.roll", "clientSeed": "c", "n": 0, "observed": {"face": 7}})],
            )]),
            invalid_round(0, 0, "observed.face"),
        ),
        (
            "invalid: cursor.hash is a commitment, not a round",
            doc(&[epoch(Value::Null, ss(&s), vec![json!({"op": "cursor.hash"})])]),
            invalid_round(0, 0, "op"),
        ),
        (
            "invalid: a key given twice in a round",
            format!(
                r#"{{"proof":1,"epochs":[{{"commit":null,"serverSeed":"{s}","rounds":[{{"op":"dice.roll","clientSeed":"c","n":0,"n":1}}]}}]}}"#
            ),
            invalid_round(0, 0, "n"),
        ),
    ]);
    cases.extend(invalid_documents(&s, &full));
    for (comment, text, w) in cases {
        out.push(Vector {
            comment,
            class: "invalid",
            text,
            verdict: Verdict::Invalid,
            wants: vec![w],
        });
    }
}

/// Rule 10: a round whose op refuses it, by a rule that ties its fields
/// together, is invalid at the field the op names, an `external` one too.
fn invalid_refused(out: &mut Vec<Vector>) {
    let round = json!({"op": "blackjack.strategy", "cards": [0, 1], "dealer": 5, "canDouble": true, "canSplit": true});
    let mut external = round.clone();
    external["external"] = Value::from("dealt by hand");
    out.push(Vector {
        comment: "invalid: blackjack.strategy with canSplit on A,2 (no pair), observed and external: both invalid at canSplit",
        class: "invalid",
        text: doc(&[epoch(Value::Null, None, vec![round, external])]),
        verdict: Verdict::Invalid,
        wants: vec![invalid_round(0, 0, "canSplit"), invalid_round(0, 1, "canSplit")],
    });
}

fn invalid_lines(out: &mut Vec<Vector>) {
    use FindingKind::Invalid;
    let s = seed("shoe");
    let full = observed(ss(&s), shoe_round(12), |_| {});
    let good = lines(&[epoch(commit_of(&s), ss(&s), vec![full])]);
    out.push(Vector {
        comment: "invalid: JSON lines with a broken second line and a list for a fourth: both named by line, the rest still checked",
        class: "invalid",
        text: format!("{good}{{\"commit\": nul\n{good}[1, 2]\n{good}"),
        verdict: Verdict::Invalid,
        wants: vec![
            want(Invalid, Some(1), None, None, Idx::Null),
            want(Invalid, Some(3), None, None, Idx::Null),
        ],
    });
}

/// A bet of a stake game on a seed pair.
fn stake_bet(op: &str, client: &str, nonce: u64) -> Value {
    let mut v = json!({"op": op, "clientSeed": client, "nonce": nonce});
    if op == "stake.mines" {
        v["mines"] = json!(3);
    }
    v
}

/// Bet histories (docs/proofs.md, "Bet histories"): a history with a seed
/// rotation, a nonce bet twice, and nonces missing.
/// A history of bets under server seed `s`: nonce n is game n mod 5.
fn stake_history(s: &str, client: &str, nonces: &[u64]) -> Vec<Value> {
    let games = [
        "stake.dice",
        "stake.limbo",
        "stake.mines",
        "stake.keno",
        "stake.diamonds",
    ];
    nonces
        .iter()
        .map(|&n| {
            let game = games[usize::try_from(n).expect("small") % games.len()];
            observed(ss(s), stake_bet(game, client, n), |_| {})
        })
        .collect()
}

fn bet_histories(out: &mut Vec<Vector>) {
    use FindingKind::Mismatch;
    let (a, b) = (seed("stake pair 1"), seed("stake pair 2"));
    let history = stake_history;
    let first = history(&a, "player-1", &[0, 1, 2, 3, 4, 5]);
    let second = history(&b, "player-2", &[0, 1, 2]);
    out.push(Vector {
        comment: "valid: a stake bet history over a seed rotation: two seed pairs, each bet's nonce once, in a row across five games",
        class: "valid",
        text: doc(&[
            epoch(commit_of(&a), ss(&a), first.clone()),
            epoch(commit_of(&b), ss(&b), second.clone()),
        ]),
        verdict: Verdict::Match,
        wants: vec![],
    });
    let mut twice = first.clone();
    twice.insert(3, first[1].clone());
    out.push(Vector {
        comment:
            "tampered: one bet shown twice (nonce 1 of the pair again, its outcome matching): a mismatch at the second",
        class: "tampered",
        text: lines(&[
            epoch(commit_of(&a), ss(&a), twice),
            epoch(commit_of(&b), ss(&b), second.clone()),
        ]),
        verdict: Verdict::Mismatch,
        wants: vec![at(Mismatch, 0, 3, "nonce", Idx::Null)],
    });
    let mut other = history(&a, "player-1", &[0, 1]);
    other.push(observed(ss(&a), stake_bet("stake.roulette", "player-1", 1), |_| {}));
    out.push(Vector {
        comment: "tampered: two games on one nonce of a seed pair (the nonce counts bets across games)",
        class: "tampered",
        text: doc(&[epoch(commit_of(&a), ss(&a), other)]),
        verdict: Verdict::Mismatch,
        wants: vec![at(Mismatch, 0, 2, "nonce", Idx::Null)],
    });
    bet_gaps(out, &a, &b, &first[0]);
}

/// Bet histories: a round the op refuses is no bet, and bets missing.
fn bet_gaps(out: &mut Vec<Vector>, a: &str, b: &str, first: &Value) {
    use FindingKind::Gap;
    let history = stake_history;
    let refused =
        |n: u64| json!({"op": "stake.wheel", "clientSeed": "player-1", "nonce": n, "segments": 15, "risk": "low"});
    out.push(Vector {
        comment: "invalid: a round with a value its field does not take (a wheel of 15 segments) is no bet: its nonce is neither bet twice nor does it close a gap",
        class: "invalid",
        text: doc(&[epoch(commit_of(a), ss(a), vec![first.clone(), refused(0), refused(3)])]),
        verdict: Verdict::Invalid,
        wants: vec![invalid_round(0, 1, "segments"), invalid_round(0, 2, "segments")],
    });
    let gaps = history(a, "player-1", &[0, 1, 4, 2, 8]);
    let mut mixed = history(b, "player-2", &[5, 7]);
    mixed.extend(history(b, "player-3", &[0, 1]));
    mixed.push(observed(
        ss(b),
        json!({"op": "stake.floats", "clientSeed": "player-2", "nonce": 7, "count": 2}),
        |_| {},
    ));
    out.push(Vector {
        comment: "valid: bets missing from a history: gap findings after every other finding (nonce 3, nonces 5 … 7; nonce 6 of another client seed), no verdict changed; nonces before the first shown and the floats of a bet are not judged",
        class: "valid",
        text: doc(&[epoch(commit_of(a), ss(a), gaps), epoch(commit_of(b), ss(b), mixed)]),
        verdict: Verdict::Match,
        wants: vec![
            want(Gap, Some(0), None, Some("nonce"), Idx::Null),
            want(Gap, Some(0), None, Some("nonce"), Idx::Null),
            want(Gap, Some(1), None, Some("nonce"), Idx::Null),
        ],
    });
}

/// Checks a finding against what the vector states.
fn fits(f: &crate::proof::Finding, w: &Want) -> bool {
    let field = match w.kind {
        FindingKind::Unobserved => f.field.is_none(),
        _ => f.field.as_deref() == w.field,
    };
    let index = match w.index {
        Idx::Is(i) => f.index == Some(i),
        Idx::Null => f.index.is_none(),
        Idx::Any => f.index.is_some(),
    };
    f.kind == w.kind && f.epoch == w.epoch && f.round == w.round && field && index
}

/// The file `vectors/proofs.json`, naming `generator` as the vector
/// files do (passed in: the files' module lists this one, not the other
/// way round).
///
/// # Panics
/// When a vector's audit finds other than the vector states.
pub(crate) fn file(generator: &str) -> Value {
    let mut all = Vec::new();
    valid(&mut all);
    valid_more(&mut all);
    valid_newer_ops(&mut all);
    tampered(&mut all);
    tampered_order(&mut all);
    bet_histories(&mut all);
    chain::histories(&mut all);
    invalid(&mut all);
    invalid_refused(&mut all);
    invalid_lines(&mut all);
    let options = Options::default();
    let tests: Vec<Value> = all
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let (counts, findings) = audit_text(&v.text, &options);
            let stated = findings.len() == v.wants.len() && findings.iter().zip(&v.wants).all(|(f, w)| fits(f, w));
            assert!(
                stated && counts.verdict() == v.verdict,
                "proof vector {:?}: verdict {:?}, findings {}",
                v.comment,
                counts.verdict(),
                serde_json::to_string_pretty(&findings).unwrap_or_default()
            );
            let mut expected = crate::proof::report::counts_value(&counts);
            expected.insert("findings".into(), serde_json::to_value(&findings).expect("findings"));
            json!({
                "tcId": i + 1,
                "comment": v.comment,
                "class": v.class,
                "text": v.text,
                "expected": expected,
            })
        })
        .collect();
    json!({
        "format": "proof documents, versions 1 and 2 (docs/proofs.md)",
        "generatorVersion": generator,
        "notes": {
            "text": "The exact input: a proof document, or JSON lines (one epoch per line).",
            "class": "valid (verdict match or unobserved), tampered (mismatch) or invalid.",
            "expected": "The report of docs/proofs.md without the file: counts, verdict and every finding in order. Every key of every finding must be equal, except reason, which is free text for every kind but skipped (where it is the round's external reason).",
        },
        "numberOfTests": tests.len(),
        "tests": tests,
    })
}
