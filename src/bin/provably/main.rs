//! The `provably` binary: arguments, printing and exit codes. Everything
//! else lives in the library.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

mod args;
mod audit;
mod certify;
mod derive;
mod diff;
mod house_edge;
mod merge;
mod out;
mod proof;
mod report;
mod verify;
mod web;

#[derive(Parser)]
#[command(
    name = "provably",
    version,
    about = "Re-derive fourteen published provably-fair schemes (cursor, poker, shoe, dice, selfpoker, ladder, blackjack strategy, Stake's games, the bustabit crash family, the lucky-number dice, skin.club, Freebitco.in, BC.Game's originals, CSGOEmpire's roulette) and hold other implementations to the same answers."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer protocol v1 requests on stdin, one JSON line each (this implementation as a target).
    Serve,
    /// Derive one result from flags or a JSON request and print its `ok` object.
    Derive(derive::DeriveArgs),
    /// Write the canonical vectors (one file per scheme, the web self-test bundle, their schema, the protocol schema) or check them.
    Vectors {
        /// Exit 1 with a diff if the files on disk differ from what the code generates.
        #[arg(long)]
        check: bool,
        /// The repository root: files go to vectors/ and harness/ below it.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Print exactly what `python3 referenz.py vektoren` prints, computed in Rust.
    Vektoren,
    /// After the reveal: check the commitment, re-derive the outcome and compare it with what you saw.
    Verify(verify::VerifyArgs),
    /// Check whole proofs (documents or JSON-lines archives): every commitment, every round; exit 0 all match, 1 a mismatch, 2 invalid input, 6 a --stats alarm.
    Audit(audit::AuditArgs),
    /// Merge partial audits (`audit --partial`) into the report, findings and exit code of one audit over all their inputs.
    Merge(merge::MergeArgs),
    /// Print the exact output distribution of every op's mapping, given uniform HMAC output (--power: the tests' power).
    Certify(certify::CertifyArgs),
    /// Write a proof document from one round (the `derive` flags) or JSON lines of rounds, deriving what was observed.
    Proof(proof::ProofArgs),
    /// Run the differential harness against targets (the main job).
    Diff(diff::DiffArgs),
    /// Simulate seed 003's blackjack table played by its published basic strategy, or check the table exactly.
    HouseEdge(house_edge::HouseEdgeArgs),
    /// Write the conformance page (DIR/index.html) from `provably diff --report` runs: one row per implementation, one column per op.
    Report(report::ReportArgs),
    /// Serve the verification page on localhost (built into the binary; --root serves a checkout).
    Web(web::WebArgs),
}

fn vectors(check: bool, root: &std::path::Path) -> anyhow::Result<ExitCode> {
    if check {
        // Outside a checkout every file would be "drift" (megabytes of diff
        // and exit 1); there is nothing to compare, which is bad input.
        anyhow::ensure!(
            root.join("vectors").is_dir(),
            "no vectors/ under {}: `vectors --check` compares a checkout's vectors/ with what this binary generates; run it from the checkout's root or name it with --root",
            std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf()).display()
        );
        let drift = provably::vectors::check(root, &provably::generated()).context("checking the vectors")?;
        for d in &drift {
            eprintln!("{} differs from the generated vectors:\n{}", d.file, d.diff);
        }
        if !drift.is_empty() {
            eprintln!("run `provably vectors` (or `make vectors`) and review the change");
            return Ok(ExitCode::from(1));
        }
        writeln!(
            io::stdout().lock(),
            "vectors and schemas under {} are up to date",
            root.display()
        )?;
    } else {
        for name in provably::vectors::write(root, &provably::generated())
            .with_context(|| format!("writing vectors under {}", root.display()))?
        {
            writeln!(io::stdout().lock(), "wrote {}", root.join(name).display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Serve => {
            provably::protocol::serve::serve(io::stdin().lock(), io::stdout().lock())?;
            #[cfg(feature = "count-compressions")]
            eprintln!(
                "sha-256 compressions: {}",
                provably::base::crypto::compressions::total()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Derive(args) => derive::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Vectors { check, root } => vectors(check, &root),
        Command::Vektoren => {
            io::stdout()
                .lock()
                .write_all(provably::vectors::vektoren::text().as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify(args) => verify::run(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Certify(args) => certify::run(&args),
        Command::Proof(args) => proof::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::HouseEdge(args) => house_edge::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Web(args) => web::run(&args).map(|()| ExitCode::SUCCESS),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(err) => {
            // A closed stdout (`provably derive … | head`) is not an error worth a message.
            if err
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            // An error may quote a document's keys or a request's text: shown, not obeyed.
            eprintln!("error: {}", provably::base::text::escape_lines(chain(&err).as_bytes()));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes, joined by `: `, each said once: an error whose
/// message already ends with its source's (`cannot read manifest P:
/// {source}`) would otherwise repeat it, as `{:#}` prints every link.
fn chain(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if text.ends_with(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}
