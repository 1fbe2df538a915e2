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
    /// Write the report (JSON: counts, verdict, every finding) to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// No progress bar and no finding lines: the table and the verdict only.
    #[arg(long, short)]
    quiet: bool,
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
}

fn level(s: &str) -> Result<f64, String> {
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
    let bar = !args.quiet && io::stdout().is_terminal();
    let mut spool = Spool::new().context("creating a temporary file for the findings")?;
    let mut sources = Vec::new();
    let mut audit = proof::run::Audit::new(&options);
    for (i, name) in args.files.iter().enumerate() {
        let counts = audit_one(&mut audit, i, name, &mut spool, bar)?;
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
    // Each output is written whatever became of the others. A closed
    // stdout (`| head`) ends the listing and is no failure (Out).
    let mut failed = false;
    let mut written = |r: io::Result<()>, what: &dyn Fn() -> String| {
        if let Err(e) = r {
            eprintln!("error: writing {}: {e}", what());
            failed = true;
        }
    };
    written(print(&sources, &mut spool, args.quiet, stats.as_ref()), &|| {
        "to stdout".into()
    });
    if let Some(path) = &args.report {
        let r = provably::base::fsutil::write_atomic_with(path, |w| {
            report::write_report_with(w, &sources, &mut spool, stats.as_ref())
        });
        written(r, &|| path.display().to_string());
    }
    if let Some(path) = &args.junit {
        let r = provably::base::fsutil::write_atomic_with(path, |w| report::write_junit(w, &sources, &mut spool));
        written(r, &|| path.display().to_string());
    }
    let code = report::totals(&sources).verdict().exit_code();
    let alarm = stats.as_ref().is_some_and(|s| s.alarm);
    Ok(ExitCode::from(match code {
        0 if failed => OUTPUT_FAILED,
        0 if alarm => 6,
        code => code,
    }))
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
    spool: &mut Spool,
    bar: bool,
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
                spool.push(i, &f)?;
                let mut c = Counts::default();
                c.add(&Event::Invalid(f));
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
            for f in e.findings() {
                spool.push(i, f)?;
            }
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
