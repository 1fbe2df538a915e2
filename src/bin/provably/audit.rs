//! `provably audit`: check whole proofs (documents or JSON-lines archives)
//! and report every finding.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use provably::proof::partial;
use provably::proof::report::{self, Source, Spool};
use provably::proof::run::Counting;
use provably::proof::{self, Counts, Event, Place, ProofError};
use provably::stats::Statistics;

use crate::out::Out;

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Proof documents or JSON-lines archives (one epoch per line); `-` reads stdin.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    #[command(flatten)]
    outputs: Outputs,
    /// Worker threads (default: one per core; at most 256, as for `diff`, and
    /// never more than the cores: a worker past them only holds memory).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: Option<u64>,
    /// Test the outcomes' distribution for seed grinding (docs/statistics.md); exit 6 on an alarm without a mismatch.
    #[arg(long)]
    stats: bool,
    /// The family-wise level of --stats: an honest archive raises the alarm with at most this probability.
    #[arg(long, value_name = "ALPHA", default_value_t = provably::stats::DEFAULT_LEVEL, value_parser = level)]
    stats_level: f64,
    /// Write a part of an audit to FILE (`-`: stdout) instead of a report:
    /// `provably merge` joins parts into the report one audit over all of
    /// them gives (docs/scale.md). Exit 0 once it is written.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["report", "junit"])]
    partial: Option<String>,
    /// With --partial: the name of the whole source this input is a part of
    /// (the report names it; default: the FILE as given).
    #[arg(long, value_name = "NAME", requires = "partial")]
    part_of: Option<String>,
    /// With --partial: how many epochs of the source come before this part.
    #[arg(long, value_name = "K", default_value_t = 0, requires = "partial")]
    first_epoch: u64,
    /// With --partial: how many lines of the source come before this part.
    #[arg(long, value_name = "L", default_value_t = 0, requires = "partial")]
    first_line: u64,
}

/// Where a report goes: shared by `audit` and `merge`, which give the same.
#[derive(Args, Debug)]
pub struct Outputs {
    /// Write the report (JSON: counts, verdict, every finding) to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// No progress bar and no finding lines: the table and the verdict only.
    #[arg(long, short)]
    quiet: bool,
}

impl Outputs {
    /// Neither a report nor JUnit asked for.
    pub fn no_files(&self) -> bool {
        self.report.is_none() && self.junit.is_none()
    }
}

/// The family-wise level of `--stats`.
pub fn level(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v < 1.0 => Ok(v),
        _ => Err(format!("must be a number strictly between 0 and 1, not {s:?}")),
    }
}

/// The exit status when an output (stdout, --report, --junit) could not be
/// written: the shared table's 5.
const OUTPUT_FAILED: u8 = 5;

/// Exit 0 (match, or nothing to compare), 1 (a mismatch), 2 (invalid
/// input), 6 (--stats: a statistical alarm and no mismatch), or 5 when the
/// verdict is 0 but an output could not be written (every other output is
/// still written; a mismatch or invalid input keeps its own status, and the
/// failure is on stderr either way).
pub fn run(args: &AuditArgs) -> anyhow::Result<ExitCode> {
    let mut options = proof::Options::default();
    if let Some(j) = args.jobs {
        options.jobs = usize::try_from(j).expect("at most 256");
    }
    options.stats = args.stats;
    if let Some(out) = &args.partial {
        return partial(args, options, out);
    }
    let bar = !args.outputs.quiet && io::stdout().is_terminal();
    let mut spool = Spool::new().context("creating a temporary file for the findings")?;
    let mut sources = Vec::new();
    let mut audit = proof::run::Audit::new(&options);
    for (i, name) in args.files.iter().enumerate() {
        let counts = audit_one(&mut audit, i, name, bar, &mut |e| {
            e.findings().iter().try_for_each(|f| spool.push(i, f))
        })?;
        sources.push(Source {
            name: name.clone(),
            counts,
        });
    }
    // The bet histories' gaps, once every file has been read.
    audit
        .finish(&mut |source, e| {
            sources[source].counts.add(e);
            e.findings().iter().try_for_each(|f| spool.push(source, f))
        })
        .context("writing the findings")?;
    let stats = audit.statistics(args.stats_level);
    Ok(conclude(&args.outputs, &sources, &mut spool, stats.as_ref()))
}

/// `audit --partial`: the inputs' events written as a partial result.
fn partial(args: &AuditArgs, mut options: proof::Options, out: &str) -> anyhow::Result<ExitCode> {
    let placed = args.part_of.is_some() || args.first_epoch != 0 || args.first_line != 0;
    anyhow::ensure!(
        !placed || args.files.len() == 1,
        "--part-of, --first-epoch and --first-line place one input in its source; give one FILE, not {}",
        args.files.len()
    );
    options.first_epoch = args.first_epoch;
    options.first_line = args.first_line;
    let bar = !args.outputs.quiet && io::stderr().is_terminal() && out != "-";
    let mut audit = proof::run::Audit::without_bets(&options);
    let header = partial::Header::current(args.stats);
    let mut totals = Counts::default();
    let mut write = |w: &mut dyn Write| -> anyhow::Result<()> {
        let mut pw = partial::PartialWriter::new(w, &header)?;
        for (i, name) in args.files.iter().enumerate() {
            pw.part(partial::PartHead {
                source: args.part_of.clone().unwrap_or_else(|| name.clone()),
                first_epoch: options.first_epoch,
                first_line: options.first_line,
            })?;
            let counts = audit_one(&mut audit, i, name, bar, &mut |e| pw.event(e))?;
            totals.merge(&counts);
            pw.end(counts)?;
        }
        pw.finish(audit.collector())?;
        Ok(())
    };
    if out == "-" {
        let stdout = io::stdout();
        let mut w = io::BufWriter::with_capacity(1 << 16, stdout.lock());
        write(&mut w)?;
        w.flush().context("writing the partial to stdout")?;
    } else {
        // The whole audit runs inside the atomic write: a partial is there
        // whole or not at all (a merge refuses one cut short).
        let mut failed = None;
        let r = provably::base::fsutil::write_atomic_with(std::path::Path::new(out), |w| {
            write(w).map_err(|e| {
                let io = io::Error::other(e.to_string());
                failed = Some(e);
                io
            })
        });
        if let Some(e) = failed {
            return Err(e.context(format!("writing the partial {out}")));
        }
        r.with_context(|| format!("writing the partial {out}"))?;
    }
    if !args.outputs.quiet {
        eprintln!(
            "wrote a partial audit ({} epochs, {} rounds) to {}: `provably merge` gives its report",
            totals.epochs,
            totals.rounds,
            if out == "-" { "stdout" } else { out }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes every output (stdout, --report, --junit) whatever became of the
/// others, and says the exit status: the verdict's, 6 for a `--stats`
/// alarm without a mismatch, 5 when the verdict is 0 but an output failed.
pub fn conclude(outputs: &Outputs, sources: &[Source], spool: &mut Spool, stats: Option<&Statistics>) -> ExitCode {
    // A closed stdout (`| head`) ends the listing and is no failure (Out).
    let mut failed = false;
    let mut written = |r: io::Result<()>, what: &dyn Fn() -> String| {
        if let Err(e) = r {
            eprintln!("error: writing {}: {e}", what());
            failed = true;
        }
    };
    written(print(sources, spool, outputs.quiet, stats), &|| "to stdout".into());
    if let Some(path) = &outputs.report {
        let r =
            provably::base::fsutil::write_atomic_with(path, |w| report::write_report_with(w, sources, spool, stats));
        written(r, &|| path.display().to_string());
    }
    if let Some(path) = &outputs.junit {
        let r = provably::base::fsutil::write_atomic_with(path, |w| report::write_junit(w, sources, spool));
        written(r, &|| path.display().to_string());
    }
    let code = report::totals(sources).verdict().exit_code();
    let alarm = stats.is_some_and(|s| s.alarm);
    ExitCode::from(match code {
        0 if failed => OUTPUT_FAILED,
        0 if alarm => 6,
        code => code,
    })
}

fn progress(name: &str, size: Option<u64>) -> ProgressBar {
    let (bar, template) = match size {
        Some(n) => (
            ProgressBar::new(n),
            "{prefix} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg}",
        ),
        None => (
            ProgressBar::new_spinner(),
            "{spinner} {prefix} [{elapsed_precise}] {bytes} {msg}",
        ),
    };
    bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
    bar.set_prefix(provably::base::text::escape_str(name));
    bar
}

/// Audits one file into the spool; a file that cannot be opened is an invalid finding.
fn audit_one(
    audit: &mut proof::run::Audit,
    i: usize,
    name: &str,
    bar: bool,
    on_event: &mut dyn FnMut(&Event) -> io::Result<()>,
) -> anyhow::Result<Counts> {
    let (input, size): (Box<dyn BufRead + Send>, Option<u64>) = if name == "-" {
        (Box::new(BufReader::with_capacity(1 << 20, io::stdin())), None)
    } else {
        let opened = File::open(name).and_then(|f| match f.metadata() {
            Ok(m) if m.is_dir() => Err(io::Error::other("is a directory, not a proof file")),
            Ok(m) => Ok((f, m.is_file().then_some(m.len()))),
            Err(e) => Err(e),
        });
        match opened {
            Ok((f, size)) => (Box::new(BufReader::with_capacity(1 << 20, f)), size),
            Err(e) => {
                let f = ProofError::Read {
                    at: Place::default(),
                    message: format!("{name}: {e}"),
                }
                .finding();
                let e = Event::Invalid(f);
                on_event(&e)?;
                let mut c = Counts::default();
                c.add(&e);
                return Ok(c);
            }
        }
    };
    let read = Arc::new(AtomicU64::new(0));
    let bar = bar.then(|| progress(name, size));
    let start = Instant::now();
    let mut rounds = 0u64;
    let counts = audit
        .file(i, Counting::new(input, Arc::clone(&read)), &mut |e| {
            on_event(e)?;
            if let (Event::Round { .. }, Some(bar)) = (e, &bar) {
                rounds += 1;
                if rounds % 1024 == 0 {
                    #[allow(clippy::cast_precision_loss, reason = "a rate for the eye")]
                    let per_second = rounds as f64 / start.elapsed().as_secs_f64().max(1e-3);
                    bar.set_position(read.load(Ordering::Relaxed));
                    bar.set_message(format!("{rounds} rounds, {per_second:.0} rounds/s"));
                }
            }
            Ok(())
        })
        .with_context(|| format!("auditing {name}"))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(counts)
}

/// The table, every finding (unless quiet), the statistics and the verdict.
fn print(sources: &[Source], spool: &mut Spool, quiet: bool, stats: Option<&Statistics>) -> io::Result<()> {
    let mut out = io::BufWriter::new(Out::default());
    out.write_all(report::table(sources).as_bytes())?;
    if !quiet && !spool.is_empty() {
        writeln!(out, "\nfindings ({}):", spool.len())?;
        let several = sources.len() > 1;
        spool.replay(&mut |source, f| {
            // A document's keys, reasons and file names are shown, not obeyed.
            if several {
                write!(out, "{}: ", provably::base::text::escape_str(&sources[source].name))?;
            }
            writeln!(out, "{}", provably::base::text::escape_str(&report::describe(&f)))
        })?;
    }
    if let Some(s) = stats {
        out.write_all(report::statistics_text(s, quiet).as_bytes())?;
    }
    writeln!(out, "\n{}", report::verdict_line(&report::totals(sources)))?;
    if let Some(s) = stats {
        writeln!(out, "{}", s.line())?;
    }
    out.flush()
}
