//! The stacks in the wild: the shared Rust scheme logic, the manifests'
//! pins and provenance, the expectations, and CI going red when one
//! expectation no longer matches.

use std::collections::BTreeMap;
use std::path::Path;

use hmac::{Hmac, Mac};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use sha2::{Digest, Sha256};

use provably::harness::expect::Expectations;
use provably::harness::manifest;
use provably::wild::{Engine, Primitives, MAC_OPS, STREAM_OPS};

use crate::support::{bin, python, root};

/// The RustCrypto `hmac` crate (a dev-dependency) as a package: an HMAC
/// that shares no code with the library's own compression-function HMAC.
struct RustCrypto;

impl Primitives for RustCrypto {
    fn hmac_sha256(&self, key: &str, message: &str) -> [u8; 32] {
        let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("any key length");
        mac.update(message.as_bytes());
        mac.finalize().into_bytes().into()
    }
    fn sha256(&self, text: &str) -> [u8; 32] {
        Sha256::digest(text.as_bytes()).into()
    }
}

/// Runs `cases` generated requests of every op in `ops` through `engine`
/// and the library, and requires the same `ok` objects.
fn same_as_library(engine: &Engine, ops: &[&str], cases: u32) {
    for name in ops {
        let op = provably::registry::find(name).expect("an op of the table");
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&(op.generate)(), |r| {
                let ours = r.run_value().map_err(|e| e.to_string());
                let theirs = (engine.run)(&r).map(|o| o.to_value()).map_err(|e| e.to_string());
                prop_assert_eq!(ours, theirs, "{}", r.to_value());
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn wild_scheme_logic_over_another_hmac_answers_what_the_library_answers() {
    let engine = Engine::over_primitives("RustCrypto hmac", RustCrypto);
    same_as_library(&engine, MAC_OPS, 48);
}

#[test]
fn wild_shoe_logic_over_a_stream_of_the_same_bytes_answers_what_the_library_answers() {
    let engine = Engine::over_stream("library bytes", provably::schemes::shoe::ByteStream::new);
    same_as_library(&engine, STREAM_OPS, 48);
}

#[test]
fn wild_engine_over_a_broken_hmac_is_caught() {
    // A hex-decoding verifier's bug: the key is not the seed's text.
    struct HexKey;
    impl Primitives for HexKey {
        fn hmac_sha256(&self, key: &str, message: &str) -> [u8; 32] {
            RustCrypto.hmac_sha256(&key.to_uppercase(), message)
        }
        fn sha256(&self, text: &str) -> [u8; 32] {
            RustCrypto.sha256(text)
        }
    }
    let engine = Engine::over_primitives("broken", HexKey);
    let r = provably::registry::parse(
        &serde_json::json!({"op": "cursor.raw", "serverSeed": "abc", "clientSeed": "c", "nonce": 0, "cursor": 0}),
    )
    .unwrap();
    assert_ne!(r.run_value().unwrap(), (engine.run)(&r).unwrap().to_value());
}

fn wild_manifests() -> Vec<manifest::Manifest> {
    manifest::all(&root().join("harness/wild")).expect("every manifest in harness/wild parses")
}

/// `name` → version, from package-lock.json (`node_modules/NAME`, aliases included).
fn npm_pins() -> BTreeMap<String, String> {
    let lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("package-lock.json")).unwrap()).unwrap();
    let mut pins = BTreeMap::new();
    for (path, p) in lock["packages"].as_object().unwrap() {
        let Some(dir) = path.strip_prefix("node_modules/") else {
            continue;
        };
        // An alias installs under its own folder; its real name is in `name`.
        let name = p["name"].as_str().unwrap_or(dir).to_string();
        pins.insert(format!("{name}@{}", p["version"].as_str().unwrap()), dir.to_string());
    }
    pins
}

fn file_has(path: &str, needle: &str) -> bool {
    std::fs::read_to_string(root().join(path)).unwrap().contains(needle)
}

#[test]
fn every_wild_manifest_records_packages_pinned_where_make_installs_them() {
    let all = wild_manifests();
    assert!(all.len() >= 12, "{}", all.len());
    let npm = npm_pins();
    for m in &all {
        let p = &m.provenance;
        assert!(!p.packages.is_empty(), "{}: no [[package]]", m.name);
        assert!(!p.scheme_logic.is_empty(), "{}: no scheme_logic", m.name);
        assert_eq!(p.through_package.as_slice(), m.ops.as_deref().unwrap(), "{}", m.name);
        for pkg in &p.packages {
            assert!(!pkg.licence.is_empty() && !pkg.uses.is_empty(), "{}: {pkg:?}", m.name);
            let pinned = match pkg.registry.as_str() {
                "npm" => npm.contains_key(&format!("{}@{}", pkg.name, pkg.version)),
                "pypi" => file_has(
                    "reference/wild/requirements.txt",
                    &format!("{}=={}\n", pkg.name, pkg.version),
                ),
                "crates" => {
                    file_has(
                        "Cargo.toml",
                        &format!("{} = {{ version = \"={}\"", pkg.name, pkg.version),
                    ) && file_has(
                        "Cargo.lock",
                        &format!("name = \"{}\"\nversion = \"{}\"", pkg.name, pkg.version),
                    )
                }
                "node" => pkg.name.starts_with("node:"),
                other => panic!("{}: unknown registry {other}", m.name),
            };
            assert!(
                pinned,
                "{}: {} {} {} is not what make installs",
                m.name, pkg.registry, pkg.name, pkg.version
            );
        }
    }
    let registries: std::collections::BTreeSet<&str> = all
        .iter()
        .filter(|m| m.provenance.reconstruction.is_none())
        .flat_map(|m| m.provenance.packages.iter().map(|p| p.registry.as_str()))
        .collect();
    for want in ["npm", "pypi", "crates"] {
        assert!(registries.contains(want), "{registries:?}");
    }
}

#[test]
fn a_manifest_listing_an_op_through_the_package_it_does_not_claim_is_refused() {
    let text = r#"name = "x"
command = ["x"]
ops = ["cursor.raw"]
through_package = ["cursor.hash"]
"#;
    let e = manifest::Manifest::parse(text, Path::new("."), "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("through_package lists \"cursor.hash\""), "{e}");
    let unknown = "name = \"x\"\ncommand = [\"x\"]\nlicense = \"MIT\"\n";
    let e = manifest::Manifest::parse(unknown, Path::new("."), "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown field `license`"), "{e}");
}

#[test]
fn every_expectation_file_names_a_wild_target_and_replays_valid_requests() {
    let exp = Expectations::load(&root().join("harness/expectations")).expect("the expectations load");
    let names: Vec<String> = wild_manifests().into_iter().map(|m| m.name).collect();
    assert!(!exp.targets.is_empty());
    for (target, e) in &exp.targets {
        assert!(names.contains(target), "{target} is no manifest in harness/wild");
        let stem = e.path.file_stem().unwrap().to_string_lossy();
        assert_eq!(
            &stem,
            target,
            "{}: one file per target, named after it",
            e.path.display()
        );
        for f in &e.findings {
            assert!(
                !f.cause.is_empty() && !f.cause.contains('\n'),
                "{target}: a one-line cause"
            );
        }
    }
}

/// Runs the provablyfair constructor target's vectors against `dir`.
fn constructor_run(dir: &Path) -> (i32, String, String) {
    let out = duct::cmd(
        bin(),
        [
            "diff",
            "--targets-dir",
            "harness/wild",
            "--target",
            "provablyfair-constructor",
            "--vectors-only",
            "--quiet",
            "--expectations",
            dir.to_str().unwrap(),
        ],
    )
    .dir(root())
    .env("PROVABLY_PYTHON", python())
    .stdout_capture()
    .stderr_capture()
    .unchecked()
    .run()
    .expect("provably runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The expectations folder copied, with `edit` applied to one file's text.
fn flipped(file: &str, edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(root().join("harness/expectations")).unwrap() {
        let path = e.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if path.file_name().unwrap() == file {
            let before = text.clone();
            text = edit(&text);
            assert_ne!(text, before, "the edit changed nothing in {file}");
        }
        std::fs::write(dir.path().join(path.file_name().unwrap()), text).unwrap();
    }
    dir
}

#[test]
fn recorded_expectations_pass_and_a_flipped_one_turns_ci_red_naming_target_op_and_request() {
    let (code, out, err) = constructor_run(&root().join("harness/expectations"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("expectations: as recorded"), "{out}");

    // The recorded finding taken out: the same divergence is now new.
    let dir = flipped("provablyfair-constructor.toml", |t| {
        t.replace("[[finding]]", "[[unrecorded]]")
            .split("[[unrecorded]]")
            .next()
            .unwrap()
            .to_string()
    });
    let (code, out, _) = constructor_run(dir.path());
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("NEW divergence in provablyfair-constructor cursor.hash"),
        "{out}"
    );
    assert!(
        out.contains(r#"request: {"op":"cursor.hash","serverSeed":""}"#),
        "{out}"
    );

    // A recorded request that does not diverge: it no longer happens.
    let dir = flipped("provablyfair-constructor.toml", |t| {
        t.replace(
            r#"request = '{"op":"cursor.hash","serverSeed":""}'"#,
            r#"request = '{"op":"cursor.hash","serverSeed":"x"}'"#,
        )
    });
    let (code, out, _) = constructor_run(dir.path());
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("GONE: provablyfair-constructor cursor.hash"), "{out}");
    assert!(
        out.contains(r#"request: {"op":"cursor.hash","serverSeed":"x"}"#),
        "{out}"
    );
    assert!(out.contains("the target agrees with provably"), "{out}");
}

#[test]
fn malformed_expectations_exit_2_naming_the_file() {
    let dir = flipped("provablyfair-constructor.toml", |t| {
        t.replace(
            r#"request = '{"op":"cursor.hash","serverSeed":""}'"#,
            r#"request = '{"op":"cursor.hash"}'"#,
        )
    });
    let (code, _, err) = constructor_run(dir.path());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("provablyfair-constructor.toml") && err.contains("not a valid request"),
        "{err}"
    );
}

#[test]
fn wild_serve_follows_the_protocol_rules_every_target_follows() {
    let engine = Engine::over_primitives("RustCrypto hmac", RustCrypto);
    let input = concat!(
        "{\"id\":0,\"op\":\"hello\",\"protocol\":1}\n",
        " \t\r\n",
        "{\"id\":2,\"op\":\"cursor.hash\",\"serverSeed\":\"\\ud800\"}\n",
        "{\"id\":4,\"op\":\"poker.evaluate\",\"cards\":[0,1,2,3,4]}\n",
        "{\"id\":6,\"op\":\"cursor.hash\",\"serverSeed\":\"a\",\"serverSeed\":\"b\"}\n",
        "not json\n",
        "{\"id\":8,\"op\":\"cursor.hash\",\"serverSeed\":\"\"}",
    );
    let mut out = Vec::new();
    provably::wild::serve(&engine, input.as_bytes(), &mut out).unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6, "a blank line gets no answer: {lines:?}");
    assert_eq!(lines[0]["ok"]["ops"].as_array().unwrap().len(), MAC_OPS.len());
    assert_eq!(
        (lines[1]["id"].as_i64(), lines[1]["error"]["kind"].as_str()),
        (Some(2), Some("invalid"))
    );
    assert_eq!(
        lines[2]["error"]["kind"], "unsupported",
        "an op the engine does not claim"
    );
    assert_eq!(
        (lines[3]["id"].as_i64(), lines[3]["error"]["kind"].as_str()),
        (Some(6), Some("invalid"))
    );
    assert_eq!(
        (lines[4]["id"].is_null(), lines[4]["error"]["kind"].as_str()),
        (true, Some("invalid"))
    );
    assert_eq!(
        lines[5]["ok"]["hash"], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "SHA-256 of the empty string (FIPS 180-4)"
    );
}
