//! The `stake` ops against values published elsewhere: the `fair` crate
//! 0.0.13's own tests (an independent Rust implementation, src/games/*.rs),
//! and the two cases those tests take from Stake itself (its calculation
//! page for Limbo, game #1,126,614's page for Crash). Each expected value
//! is copied from there, never produced by provably.

use serde_json::{json, Value};

#[allow(clippy::needless_pass_by_value, reason = "cases are written as json! literals")]
fn ok(request: Value) -> Value {
    provably::registry::parse(&request)
        .unwrap_or_else(|e| panic!("{request}: {e}"))
        .run_value()
        .unwrap_or_else(|e| panic!("{request}: {e}"))
}

/// The crate's tests call `ProvablyFairConfig::new("client seed", "server seed", n)`.
fn bet(op: &str, nonce: u64) -> Value {
    json!({ "op": op, "serverSeed": "server seed", "clientSeed": "client seed", "nonce": nonce })
}

fn with(mut v: Value, k: &str, x: Value) -> Value {
    v[k] = x;
    v
}

#[test]
fn stake_dice_is_the_fair_crates() {
    assert_eq!(ok(bet("stake.dice", 1))["roll"], json!(74.67));
    assert_eq!(ok(bet("stake.dice", 2))["roll"], json!(53.86));
}

#[test]
fn stake_limbo_is_the_fair_crates_where_it_is_at_least_one() {
    for (n, m) in [(1, 1.32), (2, 1.83), (3, 4.28)] {
        assert_eq!(ok(bet("stake.limbo", n))["multiplier"], json!(m), "nonce {n}");
    }
}

/// Stake's calculation page at a tiny float, as the crate's
/// `test_limbo_bug_when_tiny_float` quotes it: the case that decides the
/// floor of the canonical reading.
#[test]
fn stake_limbo_reproduces_stakes_calculation_page_at_a_tiny_float() {
    let r = json!({
        "op": "stake.limbo",
        "serverSeed": "e8df2cc3b9ccb583ce5ea92336842387",
        "clientSeed": "83e27f682128eb1852b048203dfd6931",
        "nonce": 1_942_124,
    });
    assert_eq!(ok(r.clone())["multiplier"], json!(3_807_692.3));
    let request = provably::registry::parse(&r).unwrap();
    let docs = provably::registry::readings("stake.limbo")
        .iter()
        .find(|x| x.name == "docs")
        .unwrap();
    assert_ne!(
        (docs.ok)(&request),
        Some(json!({ "multiplier": 3_807_692.3 })),
        "the docs' reading parts here"
    );
}

#[test]
fn stake_keno_is_the_fair_crates() {
    assert_eq!(
        ok(bet("stake.keno", 1))["hits"],
        json!([30, 26, 10, 37, 22, 35, 25, 24, 39, 4])
    );
    assert_eq!(
        ok(bet("stake.keno", 2))["hits"],
        json!([22, 26, 8, 4, 3, 19, 9, 2, 34, 10])
    );
}

#[test]
fn stake_wheel_is_the_fair_crates() {
    let wheel = |n, segments: u64, risk: &str| {
        ok(with(
            with(bet("stake.wheel", n), "segments", segments.into()),
            "risk",
            risk.into(),
        ))
    };
    assert_eq!(wheel(1, 10, "low"), json!({ "segment": 7, "multiplier": 1.2 }));
    assert_eq!(wheel(2, 10, "low"), json!({ "segment": 5, "multiplier": 1.2 }));
    assert_eq!(wheel(2, 20, "low"), json!({ "segment": 10, "multiplier": 1.5 }));
    assert_eq!(wheel(2, 40, "medium"), json!({ "segment": 21, "multiplier": 0 }));
}

#[test]
fn stake_plinko_buckets_are_the_fair_crates() {
    let plinko = |n, rows: u64| {
        ok(with(
            with(bet("stake.plinko", n), "rows", rows.into()),
            "risk",
            "low".into(),
        ))
    };
    for (n, rows, bucket) in [(1, 8, 7), (2, 8, 2), (3, 8, 5), (1, 9, 8), (2, 9, 3), (3, 9, 6)] {
        assert_eq!(plinko(n, rows)["bucket"], json!(bucket), "nonce {n}, {rows} rows");
    }
}

/// The crate's crash tests: a chain from SHA-256("testing"), salted with
/// block 584,500's hash, and Stake's game #1,126,614; the crate answers the
/// unrounded point, the canonical reading cuts it to two decimals.
#[test]
fn stake_crash_is_the_fair_crates_cut_to_two_decimals() {
    const SALT: &str = "0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4";
    let crash = |hash: &str| {
        let r = json!({ "op": "stake.crash", "hash": hash, "salt": SALT });
        let request = provably::registry::parse(&r).unwrap();
        let unrounded = (provably::registry::readings("stake.crash")[0].ok)(&request).unwrap();
        (ok(r)["crashPoint"].clone(), unrounded["crashPoint"].clone())
    };
    let mut chain = vec![provably::base::crypto::sha256_hex("testing")];
    for _ in 0..9 {
        let next = provably::base::crypto::sha256_hex(chain.last().unwrap());
        chain.push(next);
    }
    assert_eq!(crash(&chain[2]), (json!(1.59), json!(1.599_221_491_011_774_6)));
    let dead = "deadbeefe7c270724bd4851c020d489257fa79a70e694a9b5099375464348698";
    assert_eq!(crash(dead), (json!(1.28), json!(1.289_700_520_368_708_4)));
    let game = "5844bf329a6334074778ab8a5f0960e24f9eec43f83bbd98ac0a9f8bcd87184e";
    assert_eq!(crash(game), (json!(2.35), json!(2.352_227_581_177_803_3)));
    let tip = chain.last().unwrap();
    let chain_op = json!({ "op": "stake.crash.chain", "hash": chain[2], "terminatingHash": tip, "limit": 10 });
    assert_eq!(ok(chain_op), json!({ "distance": 7 }));
}

#[test]
fn stake_crash_chain_beyond_its_limit_is_exhausted_and_bad_hex_is_invalid() {
    let tip = provably::base::crypto::sha256_hex(&provably::base::crypto::sha256_hex(&"a".repeat(64)));
    let r = json!({ "op": "stake.crash.chain", "hash": "a".repeat(64), "terminatingHash": tip, "limit": 1 });
    let e = provably::registry::parse(&r).unwrap().run_value().unwrap_err();
    assert_eq!(e.kind(), "exhausted");
    // Upper-case hex is refused as the request is read: the hash's text is the key.
    let r = json!({ "op": "stake.crash", "hash": "A".repeat(64), "salt": "" });
    assert!(provably::registry::parse(&r).is_err());
    // So are the wheel's segment counts: 15 is in 10..=50 but no wheel (the schemas say the five).
    let r =
        json!({ "op": "stake.wheel", "serverSeed": "s", "clientSeed": "c", "nonce": 0, "segments": 15, "risk": "low" });
    assert!(provably::registry::parse(&r).is_err());
    // Risk words are matched exactly, as the request is read.
    let r = json!({ "op": "stake.plinko", "serverSeed": "s", "clientSeed": "c", "nonce": 0, "rows": 8, "risk": "LOW" });
    assert!(provably::registry::parse(&r).is_err());
}
