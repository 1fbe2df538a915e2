//! `provably proof`: write a proof document from one round (the flags of
//! `derive`) or from JSON lines of rounds, deriving what was observed.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use serde_json::{json, Value};

use provably::op::error::InvalidInput;
use provably::proof::make::{self, MakeOptions, Maker, Observe};

use crate::derive::FieldFlags;
use crate::out::Out;

#[derive(Args)]
pub struct ProofArgs {
    /// The op of a single round, its fields given as flags as for `derive`.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(provably::registry::names()), required_unless_present = "requests")]
    op: Option<String>,
    /// JSON lines of rounds, each a protocol request with its seed (`id`
    /// ignored; `seats`, `external` and `observed` kept); `-` reads stdin.
    #[arg(long, value_name = "FILE", conflicts_with = "op")]
    requests: Option<String>,
    #[command(flatten)]
    fields: FieldFlags,
    /// A seat of a table round, instead of --client-seed (repeat it for every seat).
    #[arg(long = "seat", value_name = "PLAYER=SEED")]
    seats: Vec<String>,
    /// Rounds in a row with the same seed share one epoch (otherwise one epoch per round).
    #[arg(long)]
    group: bool,
    /// Write each epoch's commitment, computed from its seed (otherwise null: absent).
    #[arg(long)]
    commit: bool,
    /// The `ok` fields written as observed: `all`, `none`, or a comma-separated list.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    observe: Vec<String>,
    /// Cut every observed list to its first N items (the part of a shoe that was dealt).
    #[arg(long, value_name = "N")]
    prefix: Option<usize>,
    /// Write JSON lines, one epoch per line (an archive), instead of a document.
    #[arg(long, conflicts_with = "title")]
    lines: bool,
    /// The document's title.
    #[arg(long)]
    title: Option<String>,
    /// Write to FILE (atomically: the old file or the whole new one) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
}

impl ProofArgs {
    fn options(&self) -> MakeOptions {
        let observe = match self.observe.as_slice() {
            [one] if one == "all" => Observe::All,
            [one] if one == "none" => Observe::Nothing,
            fields => Observe::Fields(fields.to_vec()),
        };
        MakeOptions {
            group: self.group,
            commit: self.commit,
            observe,
            prefix: self.prefix,
            lines: self.lines,
            title: self.title.clone(),
        }
    }

    /// The single round given by flags.
    fn round(&self, name: &str) -> anyhow::Result<Value> {
        let mut request = self.fields.request(name);
        if !self.seats.is_empty() {
            let seats = self
                .seats
                .iter()
                .map(|s| {
                    let (player, seed) = s
                        .split_once('=')
                        .ok_or_else(|| InvalidInput::new("seat", format!("{s:?} is not PLAYER=SEED")))?;
                    let player: u64 = player
                        .trim()
                        .parse()
                        .map_err(|_| InvalidInput::new("seat", format!("{player:?} is not a player number")))?;
                    Ok(json!({ "player": player, "seed": seed }))
                })
                .collect::<Result<Vec<Value>, InvalidInput>>()?;
            request["seats"] = Value::from(seats);
        }
        Ok(request)
    }

    fn write(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let options = self.options();
        if let Some(path) = &self.requests {
            let input: Box<dyn io::Read> = if path == "-" {
                Box::new(io::stdin())
            } else {
                Box::new(File::open(path).with_context(|| format!("opening {path}"))?)
            };
            make::from_lines(BufReader::new(input), out, options)?;
        } else {
            let name = self.op.as_deref().expect("clap requires an op or --requests");
            let mut maker = Maker::new(out, options);
            maker.push(self.round(name)?)?;
            maker.finish()?;
        }
        Ok(())
    }
}

/// A writer that notes whether a write failed, so that a failure of the
/// output (exit 5) is told from one of the input (exit 2) whichever error
/// reaches the top.
struct Noting<'a, W> {
    inner: W,
    failed: &'a Cell<bool>,
}

impl<W: Write> Write for Noting<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).inspect_err(|_| self.failed.set(true))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().inspect_err(|_| self.failed.set(true))
    }
}

/// The shared table's status for an output that could not be written.
const OUTPUT_FAILED: u8 = 5;

/// Exit 0, 2 for an invalid round (or input that cannot be read), 5 when
/// the document could not be written (`--out` or stdout).
pub fn run(args: &ProofArgs) -> anyhow::Result<ExitCode> {
    if let Observe::Fields(names) = &args.options().observe {
        let unknown = make::unknown_fields(names);
        if !unknown.is_empty() {
            anyhow::bail!(
                "--observe: {} is no field of any op's answer (give all, none, or fields of the ops' answers)",
                unknown.join(", ")
            );
        }
    }
    let failed = Cell::new(false);
    let output_failed = |e: &anyhow::Error, what: &str| {
        eprintln!("error: writing {what}: {e:#}");
        Ok(ExitCode::from(OUTPUT_FAILED))
    };
    match &args.out {
        Some(path) => {
            let mut failure = None;
            // A failed run leaves no file: the error is carried out of the
            // writer so that the temporary file is dropped, not renamed.
            let written = provably::base::fsutil::write_atomic_with(path, |w| {
                let mut w = Noting {
                    inner: w,
                    failed: &failed,
                };
                args.write(&mut w).map_err(|e| {
                    failure = Some(e);
                    io::Error::other("stopped")
                })
            });
            match (failure, written) {
                (Some(e), _) if failed.get() => output_failed(&e, &path.display().to_string()),
                (Some(e), _) => Err(e),
                (None, Err(e)) => output_failed(&e.into(), &path.display().to_string()),
                (None, Ok(())) => {
                    eprintln!("wrote {}", path.display());
                    Ok(ExitCode::SUCCESS)
                }
            }
        }
        None => {
            // A closed stdout discards the rest of the document; every round
            // is still read, so a bad one is still exit 2 (Out).
            let mut out = io::BufWriter::new(Noting {
                inner: Out::default(),
                failed: &failed,
            });
            let result = args.write(&mut out).and_then(|()| Ok(out.flush()?));
            match result {
                Err(e) if failed.get() => output_failed(&e, "to stdout"),
                Err(e) => Err(e),
                Ok(()) => Ok(ExitCode::SUCCESS),
            }
        }
    }
}
