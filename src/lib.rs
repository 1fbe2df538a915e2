#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
// Every public item says what it is (make test's clippy denies warnings).
#![warn(missing_docs)]

// The layers, lowest first; a module imports only from its own layer or
// below (tests/layers.rs holds this, docs/contributing.md explains it).

// Primitives: crypto, JSON, text escaping, modular arithmetic, files.
pub mod base;

// The op table: how an op is declared, its fields, errors and case strategies.
pub mod op;

// The schemes, one folder each under `schemes/`: the algorithm and its ops.
pub mod schemes;

// Every scheme, listed once.
pub mod registry;

// Statistics over whole archives (seed grinding) and the exact output
// distribution of every op's mapping: the audit's second look.
pub mod stats;

// Protocol v1: request and answer lines, and the target loop (`serve`).
pub mod protocol;

// Whole proofs: documents, archives and the audit.
pub mod proof;

// The canonical vectors, negative vectors and the JSON Schemas.
pub mod vectors;

// What runs on top: the harness, verify, the stacks in the wild, the page's
// server, the blackjack house edge.
pub mod harness;
pub mod house_edge;
pub mod verify;
pub mod web;
pub mod wild;

/// Every file `provably vectors` writes, as (path relative to the
/// repository root, text): the vectors, their schemas and the JS op table
/// (`vectors::render`), and the schema of the harness's report, which the
/// vectors layer below the harness cannot name.
pub fn generated() -> Vec<(String, String)> {
    let mut files = vectors::render();
    files.push((
        "harness/report.schema.json".into(),
        vectors::pretty(&harness::report::schema()),
    ));
    files
}
