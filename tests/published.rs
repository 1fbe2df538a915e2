use sha2::{Digest, Sha256};

use crate::support::{python, root};

/// The published files, with the SHA-256 of each as the pages print them
/// (reference/published/SOURCES.md says where each comes from).
const PINNED: [(&str, &str); 4] = [
    (
        "referenz.py",
        "760cf1700d5f252d7b5f7410edd58060a3ec3dce4cb16dc781178632b2635527",
    ),
    (
        "poker_referenz.py",
        "808ead7371f1cad2d265684358833dbda48a55f2c18ae7ed11d050e3f8c9a98e",
    ),
    (
        "dice.js",
        "45a36a699c785a07ece0172903411c6ec5ed749eb9b052f766c278784cb51df1",
    ),
    (
        "selfpoker.py",
        "e0794b110180207acd80e8c672cf9573675243ab705e40c7d59f50f9aa5b5211",
    ),
];

#[test]
fn published_files_are_byte_for_byte_as_pinned() {
    for (name, want) in PINNED {
        let bytes = std::fs::read(root().join("reference/published").join(name)).unwrap();
        let got = provably::base::crypto::hex(&Sha256::digest(&bytes));
        assert_eq!(
            got, want,
            "reference/published/{name} was edited; it must stay as published"
        );
        assert!(
            bytes.ends_with(b"\n") && !bytes.ends_with(b"\n\n"),
            "{name}: one final newline"
        );
        assert!(!bytes.contains(&b'\r'), "{name}: no carriage returns");
    }
}

#[test]
fn sources_note_names_every_pinned_hash() {
    let note = std::fs::read_to_string(root().join("reference/published/SOURCES.md")).unwrap();
    for (name, hash) in PINNED {
        assert!(
            note.contains(name) && note.contains(hash),
            "SOURCES.md must name {name} and {hash}"
        );
    }
}

/// The text `referenz.py vektoren` prints, and the same text from Rust,
/// compared byte for byte; a failure shows the unified diff.
#[test]
fn vektoren_text_is_identical_to_the_published_program() {
    let python_text = duct::cmd(python(), ["reference/published/referenz.py", "vektoren"])
        .dir(root())
        .read()
        .unwrap()
        + "\n";
    let rust_text = provably::vectors::vektoren::text();
    if python_text != rust_text {
        panic!(
            "provably vektoren differs from referenz.py vektoren:\n{}",
            provably::base::diff::unified_diff(
                &python_text,
                &rust_text,
                "python3 referenz.py vektoren",
                "provably vektoren"
            )
        );
    }
}

#[test]
fn vektoren_subcommand_prints_the_same_text() {
    let (code, out, _) = crate::support::run(&["vektoren"], "");
    assert_eq!(code, 0);
    assert_eq!(out, provably::vectors::vektoren::text());
}
