//! `provably diff`: the harness's command line.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use provably::harness::run::{run_target, Options, TargetReport, MAX_CASES};
use provably::harness::summary::{details, table};
use provably::harness::{junit, manifest, open};

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// A target: the name of a manifest in the targets folder, or a path to a manifest file. Repeatable; default: every manifest.
    #[arg(long = "target", value_name = "NAME|FILE")]
    pub targets: Vec<String>,
    /// A protocol v1 program to test without a manifest, run with `sh -c` in the current directory. Repeatable.
    #[arg(long = "target-cmd", value_name = "'CMD ARGS'")]
    pub target_cmds: Vec<String>,
    /// Replay the canonical vectors only, no generated cases.
    #[arg(long)]
    pub vectors_only: bool,
    /// Generated cases per op (at most 10^9).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=MAX_CASES))]
    pub cases: u64,
    /// Generated cases for one op, overriding --cases (for example poker.deal=300). Repeatable.
    #[arg(long = "cases-for", value_name = "OP=N", value_parser = parse_cases_for)]
    pub cases_for: Vec<(String, u64)>,
    /// Seed of the generated cases; the same seed asks the same cases, whatever --jobs is.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Copies of each target run side by side (default: one per core).
    #[arg(long, short, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,
    /// Write the full report as JSON.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write a JUnit XML report.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Folder of target manifests (default: $PROVABLY_TARGETS, else harness/targets in the working directory).
    #[arg(long, value_name = "DIR")]
    pub targets_dir: Option<PathBuf>,
    /// Print nothing but the problems and the table: no progress.
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_cases_for(s: &str) -> Result<(String, u64), String> {
    let (op, n) = s.split_once('=').ok_or_else(|| format!("{s:?} is not OP=N"))?;
    if provably::op::find(op).is_none() {
        return Err(format!("{op:?} is not a protocol v1 op"));
    }
    let n: u64 = n.parse().map_err(|e| format!("{n:?}: {e}"))?;
    if n > MAX_CASES {
        return Err(format!("{n} is above the limit {MAX_CASES}"));
    }
    Ok((op.to_string(), n))
}

/// Standard output that stops writing, quietly, once it is closed (`| head`):
/// the run goes on and its report files are still written.
struct Out {
    closed: bool,
}

impl Out {
    fn print(&mut self, text: &str) -> anyhow::Result<()> {
        if self.closed {
            return Ok(());
        }
        let mut stdout = io::stdout().lock();
        match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other.context("writing to stdout"),
        }
    }
}

fn bar(quiet: bool, target: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(0),
        if quiet || !io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("{prefix:.bold} {wide_bar} {pos}/{len} cases, {per_sec}, {eta}")
            .expect("the template is valid"),
    );
    bar.set_prefix(provably::harness::escape::escape_str(target));
    bar
}

/// Runs the harness; exit 0 when everything agrees, 1 on a divergence, 2 on a fault.
pub fn run(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let dir = manifest::targets_dir(args.targets_dir.as_deref());
    let targets = manifest::resolve(&args.targets, &args.target_cmds, dir.as_deref())?;
    provably::harness::reap_descendants();
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        |j| usize::try_from(j).expect("at most 256"),
    );
    let opts = Options {
        cases: args.cases,
        cases_for: args.cases_for.iter().cloned().collect::<BTreeMap<_, _>>(),
        seed: args.seed,
        vectors_only: args.vectors_only,
        jobs,
        ..Options::default()
    };
    let mut out = Out { closed: false };
    let mut reports = Vec::new();
    for m in targets {
        let required = m.ops.clone();
        let instances = if m.single_instance { 1 } else { jobs };
        let progress = bar(args.quiet, &m.name);
        let report = run_target(
            &|| open(m.clone()),
            instances,
            required.as_deref(),
            &opts,
            &|event| match event {
                provably::harness::run::Progress::Total(n) => progress.set_length(n),
                provably::harness::run::Progress::Done(n) => progress.inc(n),
            },
        );
        progress.finish_and_clear();
        out.print(&details(&report))?;
        reports.push(report);
    }
    // The report files first: a closed stdout must not lose them.
    if let Some(path) = &args.report {
        let json = serde_json::json!({
            "seed": args.seed,
            "cases": opts.cases,
            "jobs": jobs,
            "peakRssKiB": peak_rss_kib(),
            "targets": reports,
        });
        write_file(path, &(serde_json::to_string_pretty(&json)? + "\n"))?;
    }
    if let Some(path) = &args.junit {
        write_file(path, &junit::render(&reports))?;
    }
    out.print(&format!(
        "{}\nseed {} · {} generated cases per op{} · {jobs} job(s) · rerun with the same --seed to ask the same cases\n",
        table(&reports),
        args.seed,
        if args.vectors_only { 0 } else { args.cases },
        if args.vectors_only { " (vectors only)" } else { "" }
    ))?;
    let faults = reports.iter().any(|r| !r.faults.is_empty());
    let diverged = reports.iter().any(TargetReport::diverged);
    Ok(ExitCode::from(if faults {
        2
    } else if diverged {
        1
    } else {
        0
    }))
}

/// The most memory this process has held (`VmHWM`), for the report: a
/// run's memory must not grow with its size.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn write_file(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    provably::fsutil::write_atomic(path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))
}
