//! The `stake` vectors: every game on a few bets, every plinko rows × risk
//! and wheel segments × risk, mines 1 to 24, floats that cross into the
//! second MAC block, bets whose first float is tiny or just below 1, the
//! Limbo bets where the readings part (flagged by the reading), and the
//! edges of the seeds and the nonce.

use serde_json::{json, Value};

use crate::base::chain::{after, bytes_of, Link};
use crate::op::error::MAX_SAFE_INTEGER;
use crate::op::Flag;
use crate::schemes::stake::tables::RISKS;
use crate::vectors::cursor::UNICODE_CLIENT;
use crate::vectors::VectorSet;

/// The server seed of the vectors: 64 hex characters, as Stake shows one.
const SERVER: &str = "c7c0c5a6f5bd4bd3ab0a0ba1f1d3e3ba71da9c92fb9bc8d2d5bd9a0d1f9e5b51";
const CLIENT: &str = "provably";

fn bet(op: &str, client: &str, nonce: u64) -> Value {
    json!({ "op": op, "serverSeed": SERVER, "clientSeed": client, "nonce": nonce })
}

fn with(mut v: Value, extra: &[(&str, Value)]) -> Value {
    for (k, x) in extra {
        v[*k] = x.clone();
    }
    v
}

/// The first nonce from 0 whose first float's u32 satisfies `hit`.
fn nonce_where(hit: impl Fn(u32) -> bool) -> u64 {
    (0..)
        .find(|&n| hit(crate::schemes::stake::Floats::new(SERVER, CLIENT, n).next_u32()))
        .expect("such a nonce turns up")
}

pub fn add(v: &mut VectorSet) {
    let simple = [
        "stake.dice",
        "stake.limbo",
        "stake.roulette",
        "stake.keno",
        "stake.hilo",
        "stake.blackjack",
        "stake.baccarat",
        "stake.videopoker",
        "stake.diamonds",
    ];
    for op in simple {
        for n in 0..4 {
            v.add(format!("{op}: bet {n}"), bet(op, CLIENT, n));
        }
        v.add(format!("{op}: nonce 2^53-1"), bet(op, CLIENT, MAX_SAFE_INTEGER));
        v.add(format!("{op}: Unicode client seed"), bet(op, UNICODE_CLIENT, 1));
    }
    floats(v);
    edges(v);
    plinko_and_wheel(v);
    mines(v);
    readings(v);
    baccarat(v);
    crash(v);
    for op in simple {
        v.variants(bet(op, "c", 1));
    }
}

fn floats(v: &mut VectorSet) {
    for count in [1, 8, 9, 16, 17, MAX_FLOATS_VEC] {
        v.add(
            format!("floats: {count} (the 9th float is the first of round 1)"),
            with(bet("stake.floats", CLIENT, 0), &[("count", count.into())]),
        );
    }
    let tiny = nonce_where(|u| u < 1 << 16);
    let top = nonce_where(|u| u >= u32::MAX - 0xffff);
    for (what, n) in [("below 2^-16", tiny), ("at 1 - 2^-16 or above", top)] {
        for op in [
            "stake.floats",
            "stake.dice",
            "stake.limbo",
            "stake.roulette",
            "stake.diamonds",
        ] {
            let mut b = bet(op, CLIENT, n);
            if op == "stake.floats" {
                b["count"] = 1.into();
            }
            v.add(format!("{op}: first float {what}"), b);
        }
    }
    v.variants(with(bet("stake.floats", "c", 1), &[("count", 4.into())]));
}

const MAX_FLOATS_VEC: u64 = crate::schemes::stake::MAX_FLOATS;

/// Every game on the seed pair, with its extra fields at a middle value.
const GAMES: [&str; 13] = [
    "stake.floats",
    "stake.dice",
    "stake.limbo",
    "stake.plinko",
    "stake.roulette",
    "stake.wheel",
    "stake.keno",
    "stake.mines",
    "stake.hilo",
    "stake.blackjack",
    "stake.baccarat",
    "stake.videopoker",
    "stake.diamonds",
];

/// A bet of `op` with its extra fields filled in.
fn full(op: &str, client: &str, nonce: u64) -> Value {
    let b = bet(op, client, nonce);
    match op {
        "stake.floats" => with(b, &[("count", 9.into())]),
        "stake.plinko" => with(b, &[("rows", 12.into()), ("risk", "medium".into())]),
        "stake.wheel" => with(b, &[("segments", 30.into()), ("risk", "high".into())]),
        "stake.mines" => with(b, &[("mines", 5.into())]),
        _ => b,
    }
}

/// The seeds' and the nonce's edges, on every game.
fn edges(v: &mut VectorSet) {
    for op in GAMES {
        for (what, text) in crate::op::strategy::edge_texts() {
            v.add(
                format!("{op}: serverSeed {what}"),
                with(full(op, CLIENT, 1), &[("serverSeed", text.clone().into())]),
            );
            v.add(format!("{op}: clientSeed {what}"), full(op, &text, 1));
        }
        for n in crate::op::strategy::edge_ints(0, MAX_SAFE_INTEGER) {
            v.add(format!("{op}: nonce {n}"), full(op, CLIENT, n));
        }
    }
}

fn plinko_and_wheel(v: &mut VectorSet) {
    for rows in 8..=16u64 {
        for risk in RISKS {
            v.add(
                format!("plinko: {rows} rows, {risk} risk"),
                with(
                    bet("stake.plinko", CLIENT, rows),
                    &[("rows", rows.into()), ("risk", risk.into())],
                ),
            );
        }
    }
    for segments in [10u64, 20, 30, 40, 50] {
        for risk in RISKS {
            v.add(
                format!("wheel: {segments} segments, {risk} risk"),
                with(
                    bet("stake.wheel", CLIENT, segments),
                    &[("segments", segments.into()), ("risk", risk.into())],
                ),
            );
        }
    }
    v.variants(with(
        bet("stake.plinko", "c", 1),
        &[("rows", 8.into()), ("risk", "low".into())],
    ));
    v.variants(with(
        bet("stake.wheel", "c", 1),
        &[("segments", 10.into()), ("risk", "low".into())],
    ));
}

fn mines(v: &mut VectorSet) {
    for k in 1..=24u64 {
        v.add(
            format!("mines: {k}"),
            with(bet("stake.mines", CLIENT, k), &[("mines", k.into())]),
        );
    }
    v.variants(with(bet("stake.mines", "c", 1), &[("mines", 3.into())]));
}

/// Limbo bets where a non-canonical reading answers otherwise.
fn readings(v: &mut VectorSet) {
    use crate::schemes::stake::{float_of, limbo, readings};
    let docs = (0..)
        .filter(|&n| {
            let f = float_of(crate::schemes::stake::Floats::new(SERVER, CLIENT, n).next_u32());
            readings::limbo_docs(f) != Some(limbo(f))
        })
        .take(3);
    for n in docs.collect::<Vec<_>>() {
        v.add(
            format!("limbo: bet {n}, where the docs' reading parts"),
            bet("stake.limbo", CLIENT, n),
        );
    }
    v.add(
        "limbo: Stake's calculation page at a tiny float (3807692.3), quoted by the fair crate's test_limbo_bug_when_tiny_float",
        json!({
            "op": "stake.limbo",
            "serverSeed": "e8df2cc3b9ccb583ce5ea92336842387",
            "clientSeed": "83e27f682128eb1852b048203dfd6931",
            "nonce": 1_942_124,
        }),
    )
    .tag(Flag::PublishedStake);
    let fair = nonce_where(|u| readings::limbo_floor(float_of(u)) < 1.0);
    v.add(
        format!("limbo: bet {fair}, where the fair crate's missing clamp answers 0.99"),
        bet("stake.limbo", CLIENT, fair),
    );
}

fn baccarat(v: &mut VectorSet) {
    let coup = |n| {
        crate::schemes::stake::baccarat(crate::schemes::stake::cards_with(
            &mut crate::schemes::stake::Floats::new(SERVER, CLIENT, n),
            6,
        ))
    };
    type Hit = fn(&crate::schemes::stake::Coup) -> bool;
    let cases: [(&str, Hit); 4] = [
        ("a natural, no third card", |c| {
            c.player.len() == 2 && c.banker.len() == 2
        }),
        ("the player stands, the banker draws", |c| {
            c.player.len() == 2 && c.banker.len() == 3
        }),
        ("both draw", |c| c.player.len() == 3 && c.banker.len() == 3),
        ("a tie", |c| c.winner == "tie"),
    ];
    for (what, hit) in cases {
        let n = (0..).find(|&n| hit(&coup(n))).expect("such a coup turns up");
        v.add(format!("baccarat: bet {n}, {what}"), bet("stake.baccarat", CLIENT, n));
    }
}

/// Crash: a short chain from a start hash, salted with block 584,500's hash.
fn crash(v: &mut VectorSet) {
    const SALT: &str = "0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4";
    let mut chain = vec![crate::base::crypto::sha256_hex("provably crash")];
    for _ in 0..10 {
        let next = after(Link::Text, &bytes_of(chain.last().expect("one")), 1);
        chain.push(crate::base::crypto::hex(&next));
    }
    for (i, h) in chain.iter().enumerate() {
        v.add(
            format!("crash: game {i} of a chain"),
            json!({ "op": "stake.crash", "hash": h, "salt": SALT }),
        );
    }
    let at_one = (0u32..)
        .map(|i| crate::base::crypto::sha256_hex(&i.to_string()))
        .find(|h| {
            crate::schemes::stake::readings::crash_unrounded(crate::schemes::stake::crash::game_int(h, SALT)) == 1.0
        })
        .expect("one in about a hundred");
    v.add(
        "crash: a game that crashes at 1",
        json!({ "op": "stake.crash", "hash": at_one, "salt": SALT }),
    );
    v.add(
        "crash: Stake's game #1,126,614, its hash as the game page shows it (quoted in the fair crate's Config::for_stake), salted with block 584,500's hash",
        json!({ "op": "stake.crash", "hash": "5844bf329a6334074778ab8a5f0960e24f9eec43f83bbd98ac0a9f8bcd87184e", "salt": SALT }),
    )
    .tag(Flag::PublishedStake);
    v.add(
        "crash: an empty salt",
        json!({ "op": "stake.crash", "hash": chain[0], "salt": "" }),
    );
    let tip = chain.last().expect("eleven");
    for (i, h) in chain.iter().enumerate() {
        v.add(
            format!("crash chain: game {i}, {} steps from the tip", chain.len() - 1 - i),
            json!({ "op": "stake.crash.chain", "hash": h, "terminatingHash": tip, "limit": 10 }),
        );
    }
    // Far down the chain, at the largest limit: a distance or a limit kept
    // in 16 bits (65,535), or a walk that stops at some smaller bound,
    // shows only here.
    let far = crate::base::crypto::hex(&after(Link::Text, &bytes_of(&chain[0]), 65_537));
    v.add(
        "crash chain: 65,537 steps from the tip, at the largest limit (10^7)",
        json!({ "op": "stake.crash.chain", "hash": chain[0], "terminatingHash": far, "limit": crate::schemes::stake::crash::MAX_LIMIT }),
    );
    v.add(
        "crash chain: limit 1",
        json!({ "op": "stake.crash.chain", "hash": chain[9], "terminatingHash": tip, "limit": 1 }),
    );
    // The salt is HMAC's message, any text: every edge text (the hashes are Hex64, no edges).
    v.edges(json!({ "op": "stake.crash", "hash": chain[0], "salt": SALT }));
    v.variants(json!({ "op": "stake.crash", "hash": chain[0], "salt": SALT }));
    v.variants(json!({ "op": "stake.crash.chain", "hash": chain[9], "terminatingHash": tip, "limit": 1 }));
}
