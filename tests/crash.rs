//! The `crash` ops against the numbers published for them: the `bustabit`
//! crate 0.2.1's tests and examples (bustabit v2, previous chain, salted
//! with block 505,750's hash). Each expected value is copied from there,
//! never produced by provably; and the crate itself, linked under
//! `--features wild`, answers the same.

use serde_json::{json, Value};

/// bustabit v2's previous chain's salt (bustabit/verifier src/constants.ts).
const PREV_SALT: &str = "0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526";

/// The crate's tests/lib.rs: four games, each the previous one's predecessor.
const CHAIN: [&str; 4] = [
    "b2acd37fbdb5509926ab5d7329704c840f8467266c90019682f3b260a029bdba",
    "82886b71b3b26e4b162bbdf4e7024f50f6a7250c207fb9ce497ad56a3e7e700a",
    "cb7da3ec6cb68d4c0fccd9640641cabcac641f12ff97e7314ec3e074ac0981e0",
    "b459e199bac1342bf22d7aa6d19180aff35ab69f453d809949aab3e8d5e545aa",
];

#[allow(clippy::needless_pass_by_value, reason = "cases are written as json! literals")]
fn answer(request: Value) -> Result<Value, String> {
    provably::registry::parse(&request)
        .unwrap_or_else(|e| panic!("{request}: {e}"))
        .run_value()
        .map_err(|e| e.kind().to_string())
}

fn v2(hash: &str, salt: &str, bcgame: bool) -> Value {
    answer(json!({ "op": "crash.v2", "hash": hash, "salt": salt, "bcgame": bcgame })).unwrap()["crashPoint"].clone()
}

#[test]
fn crash_v2_gives_the_bustabit_crates_five_published_outcomes() {
    // tests/lib.rs should_return_correct_outcome (its loop checks only the
    // first three, one side of a tolerance: all four are held here exactly).
    for (hash, want) in CHAIN.iter().zip([1.26, 1.18, 1.26, 3.77]) {
        assert_eq!(v2(hash, PREV_SALT, false), json!(want), "{hash}");
    }
    // examples/simple.rs: "will print 2055.9".
    let simple = "5d07719b61b0abb6f1c3b17b1d69c838278f87f9b5e75077026e5fedf96c2eb2";
    assert_eq!(v2(simple, PREV_SALT, false), json!(2055.9));
}

#[test]
fn crash_link_text_gives_the_bustabit_crates_published_previous_games() {
    // tests/lib.rs should_have_next_item, and the chain its outcomes follow.
    for w in CHAIN.windows(2) {
        let got = answer(json!({ "op": "crash.link", "hash": w[0], "link": "text" })).unwrap();
        assert_eq!(got, json!({ "previous": w[1] }));
    }
    // The raw-byte link is another chain: the crate's next game is not its previous.
    let bytes = answer(json!({ "op": "crash.link", "hash": CHAIN[0], "link": "bytes" })).unwrap();
    assert_ne!(bytes, json!({ "previous": CHAIN[1] }));
    // stake.crash.chain walks the same hex-text link.
    let walk = json!({ "op": "stake.crash.chain", "hash": CHAIN[0], "terminatingHash": CHAIN[3], "limit": 3 });
    assert_eq!(answer(walk).unwrap(), json!({ "distance": 3 }));
    let walk = json!({ "op": "crash.chain.bytes", "hash": CHAIN[0], "terminatingHash": CHAIN[3], "limit": 3 });
    assert_eq!(answer(walk), Err("exhausted".to_string()));
}

#[test]
fn crash_v1_instant_point_is_the_instant_field_and_the_divisor_decides() {
    // A Roobet salt (block 610,546) and a game whose MAC is divisible by 20 but not 101.
    let salt = "0000000000000000000fa3b65e43e4240d71762a5bf397d5304b2596d116859c";
    let hash = "d29547ee1109e23a010974bde1e593d268b8247c365a0dd19d194f1bad56a6b0";
    let v1 = |d: u64, i: u64| {
        answer(json!({ "op": "crash.v1", "hash": hash, "salt": salt, "divisor": d, "instant": i })).unwrap()
            ["crashPoint"]
            .clone()
    };
    assert_eq!(v1(20, 1), json!(1));
    assert_eq!(v1(20, 0), json!(0));
    assert_eq!(v1(101, 0), json!(1.21));
    assert_eq!(v1(101, 1), json!(1.21));
}

#[cfg(feature = "wild")]
#[test]
fn the_bustabit_crate_itself_gives_what_crash_v2_gives() {
    let simple = "5d07719b61b0abb6f1c3b17b1d69c838278f87f9b5e75077026e5fedf96c2eb2";
    for hash in CHAIN.iter().copied().chain([simple]) {
        let crate_outcome = bustabit::Game::new(&hash.to_string()).unwrap().outcome();
        assert_eq!(v2(hash, PREV_SALT, false), json!(crate_outcome), "{hash}");
    }
}

/// The laws `audit --stats` tests crash points against equal the page's
/// (reference/js/crash.mjs) to the bit, for every family: bustabit v2 and
/// BC.Game's rounding, and v1 with each divisor.
#[test]
fn crash_laws_are_the_javascript_laws_to_the_bit() {
    use provably::op::stats::Family;
    let families: [(&str, u64); 6] = [
        ("crash.v2", 0),
        ("crash.v2", 1),
        ("crash.v1", 20),
        ("crash.v1", 25),
        ("crash.v1", 33),
        ("crash.v1", 101),
    ];
    let script = format!(
        "import('./reference/js/crash.mjs').then((m) => console.log(JSON.stringify({}.map(([op, a]) => m.SCHEME.ops[op].stats.tables.layout({{ a }}).tests[0][1]))))",
        serde_json::to_string(&families).unwrap()
    );
    let out = duct::cmd("node", ["--input-type=module", "-e", &script])
        .dir(crate::support::root())
        .stdout_capture()
        .run()
        .expect("node runs reference/js/crash.mjs");
    let js: Vec<Vec<f64>> = serde_json::from_slice(&out.stdout).unwrap();
    for ((op, a), js) in families.iter().zip(js) {
        let model = provably::registry::find(op).unwrap().stats.model().unwrap();
        let rust = &(model.layout)(Family::of(*a)).tests[0].1;
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(rust), bits(&js), "{op} family {a}");
    }
}
