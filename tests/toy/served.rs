//! The toy build's binary (make test-toy): built by `cargo test --features
//! toy --test toy`, so the dependencies are the ones `cargo test` built for
//! the product (a plain `cargo build` resolves their features without the
//! dev-dependencies and compiles a third of them again). This test holds the
//! binary it builds to having the toy: it derives a toy.coin round, and the
//! same request through `serve` gets the same side. What the side is, the
//! JavaScript twin decides (tests/toy/toy.test.mjs, on the toy's vectors).

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_provably");

#[test]
fn the_toy_build_derives_and_serves_toy_coin() {
    let derived = Command::new(BIN)
        .args([
            "derive",
            "--json",
            r#"{"op":"toy.coin","serverSeed":"s","clientSeed":"c","nonce":0}"#,
        ])
        .output()
        .expect("the toy binary runs");
    assert!(derived.status.success(), "{}", String::from_utf8_lossy(&derived.stderr));
    let derived: serde_json::Value = serde_json::from_slice(&derived.stdout).expect("derive prints JSON");
    let side = derived["side"].as_str().expect("a side").to_string();
    assert!(provably::schemes::toy::SIDES.contains(&side.as_str()), "{derived}");

    let mut serve = Command::new(BIN)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("serve starts");
    serve
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"id\":1,\"op\":\"toy.coin\",\"serverSeed\":\"s\",\"clientSeed\":\"c\",\"nonce\":0}\n")
        .unwrap();
    let out = serve.wait_with_output().unwrap();
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one answer line");
    assert_eq!(answer["ok"]["side"].as_str(), Some(side.as_str()), "{answer}");
}
