#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

// The op table: every op declared once, read by every layer below.
pub mod op;

// The schemes, one module each: the algorithm, its ops, its vectors.
pub mod blackjack;
pub mod cursor;
pub mod dice;
pub mod ladder;
pub mod poker;
pub mod selfpoker;
pub mod shoe;

// Building blocks of the schemes.
pub mod crypto;
pub mod numpy;

// Protocol v1 and what speaks it.
pub mod error;
pub mod harness;
pub mod json;
pub mod negative;
pub mod protocol;
pub mod serve;

// What players and auditors run.
pub mod proof;
// Statistics over whole archives (seed grinding) and the mappings' exact distributions.
pub mod stats;
pub mod vectors;
pub mod vektoren;
pub mod verify;
pub mod web;

// Third-party stacks as targets: the schemes over another package's primitives.
pub mod wild;

pub mod report;

pub mod fsutil;
pub mod gen;
pub(crate) mod lines;
pub(crate) mod modulo;
pub(crate) mod pyfmt;
pub(crate) mod schema;
