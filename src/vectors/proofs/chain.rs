//! The proof vectors of crash histories (docs/proofs.md, "Crash
//! histories"): a chain epoch of every variant, the bustabit crate's
//! published games as a history, and what a history can get wrong.

use serde_json::{json, Value};

use super::{at, want, Idx, Vector};
use crate::base::chain::{bytes_of, step, Link};
use crate::base::crypto::hex;
use crate::proof::chain::VERSION;
use crate::proof::{FindingKind, Verdict};

/// bustabit v2's previous chain's salt, Bitcoin block 505,750's hash
/// (bustabit/verifier src/constants.ts).
const PREV_SALT: &str = "0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526";

/// The `bustabit` crate 0.2.1's tests/lib.rs: four games of the previous
/// chain, each the next one's link, and their published points.
const PUBLISHED: [(&str, f64); 4] = [
    ("b2acd37fbdb5509926ab5d7329704c840f8467266c90019682f3b260a029bdba", 1.26),
    ("82886b71b3b26e4b162bbdf4e7024f50f6a7250c207fb9ce497ad56a3e7e700a", 1.18),
    ("cb7da3ec6cb68d4c0fccd9640641cabcac641f12ff97e7314ec3e074ac0981e0", 1.26),
    ("b459e199bac1342bf22d7aa6d19180aff35ab69f453d809949aab3e8d5e545aa", 3.77),
];

/// A chain of the family for a vector.
struct Chain {
    link: Link,
    first: u64,
    salt: &'static str,
    variant: Value,
}

impl Chain {
    fn new(link: Link, first: u64, salt: &'static str, variant: Value) -> Chain {
        Chain {
            link,
            first,
            salt,
            variant,
        }
    }

    /// The hashes of `n` games down from `top`'s, newest first, and the
    /// terminating hash the last of them links to.
    fn hashes(&self, top: &str, n: u64) -> (Vec<String>, String) {
        let mut h = bytes_of(top);
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(hex(&h));
            h = step(self.link, &h);
        }
        (out, hex(&h))
    }

    /// The `chain` of the history whose oldest game links to `terminating`.
    fn head(&self, terminating: &str) -> Value {
        let link = if self.link == Link::Bytes { "bytes" } else { "text" };
        json!({"terminatingHash": terminating, "link": link, "firstGame": self.first, "salt": self.salt, "variant": self.variant})
    }

    /// The point of a game of this chain.
    fn point(&self, hash: &str) -> Value {
        let mut r = self.variant.clone();
        r["hash"] = Value::from(hash);
        r["salt"] = Value::from(self.salt);
        crate::registry::parse(&r)
            .and_then(|r| r.run_value())
            .unwrap_or_else(|e| panic!("{r}: {e}"))["crashPoint"]
            .clone()
    }

    /// An epoch of `n` games down from the hash of `name`, newest first,
    /// each with its hash and observed point.
    fn epoch(&self, name: &str, n: u64) -> (Value, Vec<Value>) {
        let top = crate::base::crypto::sha256_hex(&format!("provably proof vectors: chain {name}"));
        let (hashes, terminating) = self.hashes(&top, n);
        let games = hashes
            .iter()
            .zip((self.first..self.first + n).rev())
            .map(|(h, g)| json!({"game": g, "hash": h, "observed": {"crashPoint": self.point(h)}}))
            .collect();
        (self.head(&terminating), games)
    }
}

fn history(chain: &Value, games: &[Value]) -> Value {
    json!({ "chain": chain, "rounds": games })
}

fn doc(epochs: &[Value]) -> String {
    serde_json::to_string(&json!({ "proof": VERSION, "epochs": epochs })).expect("json")
}

/// The family's variants, each with a salt its operator used.
fn variants() -> Vec<(&'static str, Chain)> {
    vec![
        (
            "bustabit v1",
            Chain::new(
                Link::Text,
                1,
                "000000000000000007a9a31ff7f07463d91af6b5454241d5faf282e5e0fe1b3a",
                json!({"op": "crash.v1"}),
            ),
        ),
        (
            "Roobet",
            Chain::new(
                Link::Text,
                1,
                "0xd2867566759e9158bda9bf93b343bbd9aa02ce1e0c5bc2b37a2d70d391b04f14",
                json!({"op": "crash.v1", "divisor": 25, "instant": 1}),
            ),
        ),
        (
            "bustabit v2, previous chain",
            Chain::new(Link::Text, 1, PREV_SALT, json!({"op": "crash.v2"})),
        ),
        (
            "bustabit v2, current chain",
            Chain::new(
                Link::Bytes,
                10_000_001,
                "00000000000000000001e08b7fd44f95e3e950ac65650a8031a6d5e1750e34be",
                json!({"op": "crash.v2"}),
            ),
        ),
        (
            "BC.Game",
            Chain::new(
                Link::Text,
                1,
                "0000000000000000000301e2801a9a9598bfb114e574a91a887f2132f33047e6",
                json!({"op": "crash.v2", "bcgame": true}),
            ),
        ),
        (
            "Stake",
            Chain::new(
                Link::Text,
                1,
                "0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4",
                json!({"op": "stake.crash"}),
            ),
        ),
    ]
}

/// The vectors of crash histories.
pub(super) fn histories(out: &mut Vec<Vector>) {
    published(out);
    let epochs: Vec<Value> = variants()
        .iter()
        .map(|(name, c)| {
            let (head, games) = c.epoch(name, 4);
            history(&head, &games)
        })
        .collect();
    out.push(Vector {
        comment: "valid: a crash history of each variant, four games each, newest first: bustabit v1; Roobet (divisor 25, an instant crash of 1, a salt with its 0x); bustabit v2 on the previous chain (hex-text links) and the current one (raw-byte links, first game 10,000,001); BC.Game (toPrecision(9)); Stake",
        class: "valid",
        text: doc(&epochs),
        verdict: Verdict::Match,
        wants: vec![],
    });
    partly_shown(out);
    tampered(out);
    invalid(out);
}

/// The crate's published games as a history, their points as published.
fn published(out: &mut Vec<Vector>) {
    let c = Chain::new(Link::Text, 1, PREV_SALT, json!({"op": "crash.v2"}));
    let (hashes, terminating) = c.hashes(PUBLISHED[0].0, 4);
    let games: Vec<Value> = PUBLISHED
        .iter()
        .zip(&hashes)
        .zip((1..=4).rev())
        .map(|(((published, point), h), g)| {
            assert_eq!(h, published, "the crate's games are a chain");
            json!({"game": g, "hash": h, "observed": {"crashPoint": point}})
        })
        .collect();
    out.push(Vector {
        comment: "valid: the bustabit crate 0.2.1's four published games (tests/lib.rs: b2acd37f… 1.26, 82886b71… 1.18, cb7da3ec… 1.26, b459e199… 3.77) as games 4 … 1 of bustabit v2's previous chain, salted with block 505,750, tied to the hash their last one links to (not bustabit's terminating hash, which is millions of links on)",
        class: "valid",
        text: doc(&[history(&c.head(&terminating), &games)]),
        verdict: Verdict::Match,
        wants: vec![],
    });
}

/// Games shown in part: a point alone, a hash alone, games left out, the
/// oldest first.
fn partly_shown(out: &mut Vec<Vector>) {
    use FindingKind::{Gap, Unobserved};
    let c = &variants()[4].1;
    let (head, mut games) = c.epoch("partly shown", 8);
    games[1].as_object_mut().expect("a game").remove("hash");
    games[2].as_object_mut().expect("a game").remove("observed");
    let kept: Vec<Value> = [7, 6, 2, 1, 0].iter().map(|&i| games[i].clone()).collect();
    out.push(Vector {
        comment: "valid: a BC.Game history listed oldest first: game 7 with its point alone (no hash: unobserved, nothing to derive it from), game 6 with its hash alone (a match: its hash leads to the terminating hash), games 3 … 5 left out (one gap, after every other finding)",
        class: "valid",
        text: doc(&[history(&head, &kept)]),
        verdict: Verdict::Match,
        wants: vec![
            want(Unobserved, Some(0), Some(3), None, Idx::Null),
            want(Gap, Some(0), None, Some("game"), Idx::Null),
        ],
    });
}

fn tampered(out: &mut Vec<Vector>) {
    use FindingKind::Mismatch;
    let all = variants();
    let (head, games) = all[2].1.epoch("tampered", 6);
    let mut point = games.clone();
    let p = point[2]["observed"]["crashPoint"].as_f64().expect("a point");
    point[2]["observed"]["crashPoint"] = json!(p + 0.01);
    let mut moved = games.clone();
    // Game 4 shown with game 3's hash and point: the point is that hash's,
    // the hash one link off.
    moved[2] = games[3].clone();
    moved[2]["game"] = json!(4);
    let mut twice = games.clone();
    twice.insert(4, games[1].clone());
    let clean = serde_json::to_string(&history(&head, &games)).expect("json");
    let cases = [
        ("tampered: bustabit v2, game 4's point a cent higher", point, 2, "crashPoint"),
        ("tampered: bustabit v2, game 4 shown with game 3's hash and point (its point is that hash's; the hash does not lead to the terminating hash in 4 links)", moved, 2, "hash"),
        ("tampered: bustabit v2, game 5 shown twice, its hash and point right both times: a mismatch at the second", twice, 4, "game"),
    ];
    for (comment, games, round, field) in cases {
        out.push(Vector {
            comment,
            class: "tampered",
            text: doc(&[history(&head, &games)]),
            verdict: Verdict::Mismatch,
            wants: vec![at(Mismatch, 0, round, field, Idx::Null)],
        });
    }
    // The divisor trap: a Roobet history of divisor 25 read with 20.
    let roobet = &all[1].1;
    let (head, games) = (0..)
        .map(|i| roobet.epoch(&format!("instant {i}"), 6))
        .find(|(_, g)| g.iter().any(|g| g["observed"]["crashPoint"] == json!(1)))
        .expect("an instant crash in a few histories");
    let instant = games
        .iter()
        .position(|g| g["observed"]["crashPoint"] == json!(1))
        .expect("found");
    let mut as_20 = head.clone();
    as_20["variant"]["divisor"] = json!(20);
    out.push(Vector {
        comment: "tampered: JSON lines: a Roobet history whose instant crash (divisor 25) is read with divisor 20 (that game's point by the formula is not 1), then a bustabit v2 history that matches",
        class: "tampered",
        text: serde_json::to_string(&history(&as_20, &games)).expect("json") + "\n" + &clean + "\n",
        verdict: Verdict::Mismatch,
        wants: vec![at(
            Mismatch,
            0,
            u64::try_from(instant).expect("small"),
            "crashPoint",
            Idx::Null,
        )],
    });
}

fn invalid(out: &mut Vec<Vector>) {
    use FindingKind::Invalid;
    let c = &variants()[0].1;
    let (head, games) = c.epoch("invalid", 2);
    let without = |key: &str| {
        let mut h = head.clone();
        h.as_object_mut().expect("a chain").remove(key);
        h
    };
    let with = |key: &str, v: Value| {
        let mut h = head.clone();
        h[key] = v;
        h
    };
    let epoch_at = |field| want(Invalid, Some(0), None, Some(field), Idx::Null);
    let chain_cases = [
        ("invalid: a chain without its terminating hash: said once for the epoch, where its commit would stand (after its games), and at each game", without("terminatingHash"), "chain.terminatingHash"),
        ("invalid: a chain whose link is neither text nor bytes", with("link", json!("hex")), "chain.link"),
        ("invalid: a variant whose op plays no game of a chain (crash.link)", with("variant", json!({"op": "crash.link", "link": "text"})), "chain.variant.op"),
        ("invalid: a variant that holds a hash (each game's own)", with("variant", json!({"op": "crash.v1", "hash": "00"})), "chain.variant.hash"),
        ("invalid: a variant with a divisor no source uses (22)", with("variant", json!({"op": "crash.v1", "divisor": 22})), "chain.variant.divisor"),
    ];
    for (comment, chain, field) in chain_cases {
        out.push(Vector {
            comment,
            class: "invalid",
            text: doc(&[history(&chain, &games)]),
            verdict: Verdict::Invalid,
            wants: vec![
                at(Invalid, 0, 0, field, Idx::Null),
                at(Invalid, 0, 1, field, Idx::Null),
                epoch_at(field),
            ],
        });
    }
    let mut commit = history(&head, &games);
    commit["commit"] = head["terminatingHash"].clone();
    let mut bad = games.clone();
    bad[0]["nonce"] = json!(1);
    bad[1]["hash"] = Value::from(bad[1]["hash"].as_str().expect("hex").to_uppercase());
    let mut early = games.clone();
    early[0]["game"] = json!(0);
    early[1]["observed"] = json!({"distance": 1});
    out.push(Vector {
        comment: "invalid: a chain epoch with a commit (a history is committed to by chain.terminatingHash); games with a key no game has (nonce), a hash in upper case, a number before the chain's first game, an observation of another op's field",
        class: "invalid",
        text: doc(&[commit, history(&head, &bad), history(&head, &early)]),
        verdict: Verdict::Invalid,
        wants: vec![
            epoch_at("commit"),
            at(Invalid, 1, 0, "nonce", Idx::Null),
            at(Invalid, 1, 1, "hash", Idx::Null),
            at(Invalid, 2, 0, "game", Idx::Null),
            at(Invalid, 2, 1, "observed.distance", Idx::Null),
        ],
    });
}
