//! The plain build's check (make test, stage `plain`, scripts/plain-check):
//! built by `cargo test --features plain --test plain`, so the binary
//! below is the product made of the plain forms alone (Cargo.toml,
//! feature `plain`), on the dependencies `cargo test` built for the
//! product. Its `vectors --check` derives every vector again and compares
//! it with the checked-in files, which the product's fast forms derived:
//! every vector, proof vector and schema holds the fast forms to the plain
//! ones, byte for byte.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_provably");

#[test]
fn the_plain_forms_derive_every_vector_the_fast_forms_derived() {
    let out = Command::new(BIN)
        .args(["vectors", "--check"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the plain build's binary runs");
    assert!(
        out.status.success(),
        "the plain forms derive other vectors than the checked-in ones ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
