//! The integration tests: one binary, one module per area.

// Shared helpers: paths, running the binary, the Python interpreter.
mod support;

// The published programs: pinned bytes, vektoren text parity, pruefe parity.
mod published;
// The canonical vectors: up to date, schema-valid, snapshotted, every branch forced.
mod vectors;
// `provably derive`, `vektoren` and bad input: typed errors, exit 2, no panic; snapshots of the main outputs.
mod cli;
// Every command block of README.md, run in a copy of the checkout, held to its documented exit code.
mod readme;
// `provably verify`: matching round, wrong card at a known position, wrong commitment.
mod verify;
// `provably audit` and `provably proof`: proof vectors, examples, bad input, streaming.
mod audit;
// One document, one verdict: every proof rewritten (white space, key order, escapes, number forms, lines) and read every way.
mod reading;
// `audit --partial` and `merge`: parts of an archive merge into one audit's report.
mod merge;
// `audit --stats` and `certify`: certificates against enumeration, calibration, ground archives.
mod stats;
// `audit --stats` over Stake's games: their exact laws, honest and ground bet histories.
mod stats_stake;
// `provably serve` as a protocol v1 target.
mod serve;
// The harness against deliberately broken targets and outside programs.
mod harness;
// An auditor's own four-op target with planted bugs: one finding per bug and op, named.
mod auditor;
// GitHub Actions: the step summary (rendered as Markdown), annotations, action.yml.
mod github;
// Independent oracles: the `fair` crate's byte stream, numpy's worked examples.
mod oracles;
// The op table: every registered op has vectors, schemas, a generator and a JS implementation.
mod ops;
// Hostile targets: escapes, noncharacters, huge answers, a setsid() child, a closed stdout.
mod hostile;
// Negative cases: every single-fault mutation of a request is answered invalid.
mod negative;
// Parsers under fuzzed input.
mod fuzz;
// `provably web`: what it serves and what it refuses.
mod web;
// Blackjack (seed 003): the published TypeScript on every situation, `house-edge`.
mod blackjack;
// The stacks in the wild: shared scheme logic, pinned manifests, expectations.
mod wild;
// Stake's verifiers in the wild, held to their recorded readings.
mod wild_stake;
// The crate's layers: no module imports a module above it.
mod layers;
// The stake games against the values the fair crate 0.0.13 and Stake publish.
mod stake;
// The crash family against the values the bustabit crate 0.2.1 publishes.
mod crash;
// The games of other operators: bet histories of every game, honest and ground, through proof and audit.
mod field;
// Crash histories as proof documents: every variant's chain, its gaps and repeats, and --stats on points alone.
mod crash_history;
