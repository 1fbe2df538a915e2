//! `provably diff`: the harness's command line.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use provably::harness::expect::{self, Expectations};
use provably::harness::github::{Quiet, SUMMARY_LIMIT};
use provably::harness::report::{self, Change, ExpectationsInfo, ManifestInfo};
use provably::harness::run::{run_target, Options, TargetReport, MAX_CASES, SHRINK_BUDGET};
use provably::harness::summary::{details, table};
use provably::harness::targets::open;
use provably::harness::{junit, manifest};

use crate::out::Out;

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
    #[arg(long, default_value_t = 200, value_parser = cases, allow_negative_numbers = true)]
    pub cases: u64,
    /// Generated cases for one op, overriding --cases (for example poker.deal=300). Repeatable.
    #[arg(long = "cases-for", value_name = "OP=N", value_parser = parse_cases_for)]
    pub cases_for: Vec<(String, u64)>,
    /// Seed of the generated cases; the same seed asks the same cases, whatever --jobs is.
    #[arg(long, default_value_t = 0, value_parser = seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Most target calls spent shrinking one group's example to a minimal request; 0 reports the case as found.
    #[arg(long, value_name = "CALLS", default_value_t = SHRINK_BUDGET, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub shrink_budget: u64,
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
    /// Ask only this op (repeatable); default: every op each target claims.
    #[arg(long = "op", value_name = "OP", value_parser = parse_op)]
    pub ops: Vec<String>,
    /// Fail (exit 4) unless at least N cases of each target were compared (answered, not declined); default 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub require_cases: u64,
    /// Hold the results to the known findings recorded in DIR (one TARGET.toml each): exit 0 when every divergence and fault is recorded and every recorded one still happens, 3 when something changed.
    #[arg(long, value_name = "DIR")]
    pub expectations: Option<PathBuf>,
}

/// The exit status when results differ from the recorded expectations.
pub const CHANGED: u8 = 3;
/// The exit status when a target had fewer cases compared than required.
pub const NOTHING_COMPARED: u8 = 4;
/// The exit status when an output could not be written (every other one was).
pub const OUTPUT_FAILED: u8 = 5;

fn parse_op(s: &str) -> Result<String, String> {
    match provably::registry::find(s) {
        Some(op) => Ok(op.name.to_string()),
        None => Err(format!(
            "{s:?} is not a protocol v1 op (one of {})",
            provably::registry::names().join(", ")
        )),
    }
}

fn parse_cases_for(s: &str) -> Result<(String, u64), String> {
    let (op, n) = s.split_once('=').ok_or_else(|| format!("{s:?} is not OP=N"))?;
    if provably::registry::find(op).is_none() {
        return Err(format!("{op:?} is not a protocol v1 op"));
    }
    Ok((op.to_string(), cases(n)?))
}

/// A number of cases: digits, 0 ..= 10^9 (`1e3` and `-1` say so).
fn cases(text: &str) -> Result<u64, String> {
    const WANTED: &str = "an integer 0..=1000000000 (10^9)";
    match crate::args::digits(text, WANTED)? {
        n if n > MAX_CASES => Err(format!("{n} is above 10^9; {WANTED} is wanted")),
        n => Ok(n),
    }
}

/// The generator's seed: digits, 0 ..= 2^64-1.
fn seed(text: &str) -> Result<u64, String> {
    crate::args::digits(text, "an integer 0..=2^64-1")
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
    bar.set_prefix(provably::base::text::escape_str(target));
    bar
}

/// Runs the harness. Exit 0 when everything agrees, 1 on a divergence, 2
/// on a fault, 4 when a target had fewer than `--require-cases` cases
/// compared. With `--expectations`: 0 when the results are as recorded,
/// 3 when something changed. 5 instead of a 0 when an output could not be
/// written (every other output still is).
pub fn run(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let dir = manifest::targets_dir(args.targets_dir.as_deref());
    let targets = manifest::resolve(&args.targets, &args.target_cmds, dir.as_deref())?;
    let expectations = args.expectations.as_deref().map(Expectations::load).transpose()?;
    provably::harness::targets::reap_descendants();
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        |j| usize::try_from(j).expect("at most 256"),
    );
    let opts = Options {
        cases: args.cases,
        cases_for: args.cases_for.iter().cloned().collect::<BTreeMap<_, _>>(),
        seed: args.seed,
        vectors_only: args.vectors_only,
        shrink_budget: args.shrink_budget,
        jobs,
        only: args.ops.clone(),
        bugs: provably::harness::bugs::Bugs::locate(),
    };
    let mut out = Out::default();
    let (mut reports, mut changes) = (Vec::new(), Vec::new());
    let (quiet, mut output_failed) = stop_commands(&mut out)?;
    for m in targets {
        let mut report = run_one(args, &m, &opts, jobs);
        if let Err(e) = out.print(&details(&report)) {
            output_failed = complain(&e);
        }
        report.manifest = Some(ManifestInfo::of(&m));
        if let Some(exp) = &expectations {
            changes.extend(hold(&mut report, &m, exp));
        }
        reports.push(report);
    }
    let run = report::Run {
        version: report::VERSION,
        seed: args.seed,
        cases: opts.cases,
        vectors_only: args.vectors_only,
        jobs,
        // `--op a --op a` asks for one op: each is listed once, in the order first asked.
        only_ops: {
            let mut seen = std::collections::HashSet::new();
            args.ops.iter().filter(|o| seen.insert(o.as_str())).cloned().collect()
        },
        peak_rss_kib: peak_rss_kib(),
        targets: reports,
    };
    // Every output is tried; one that fails does not stop the others.
    if let Some(path) = &args.report {
        let text = serde_json::to_string_pretty(&run)? + "\n";
        output_failed |= write_file(path, &text).map_err(|e| complain(&e)).is_err();
    }
    if let Some(path) = &args.junit {
        output_failed |= write_file(path, &junit::render(&run.targets))
            .map_err(|e| complain(&e))
            .is_err();
    }
    let reports = &run.targets;
    let mut text = format!(
        "{}\nseed {} · {} generated cases per op{} · {jobs} job(s) · rerun with the same --seed to ask the same cases\n",
        table(reports),
        args.seed,
        if args.vectors_only { 0 } else { args.cases },
        if args.vectors_only { " (vectors only)" } else { "" }
    );
    let short = shortfall(reports, args.require_cases);
    text += &short;
    if let Some(exp) = &expectations {
        text += &verdict(&changes, reports, exp);
    }
    if let Err(e) = out.print(&text) {
        output_failed = complain(&e);
    }
    if let Some(quiet) = &quiet {
        output_failed |= github(&run, quiet, &mut out);
    }
    let as_recorded = expectations.as_ref().map(|_| changes.is_empty());
    Ok(ExitCode::from(exit_code(
        reports,
        as_recorded,
        !short.is_empty(),
        output_failed,
    )))
}

/// Under GitHub Actions, stops the runner reading workflow commands in
/// the run's text (see provably::harness::github). Returns the [`Quiet`]
/// to resume them with, and whether printing failed.
fn stop_commands(out: &mut Out) -> anyhow::Result<(Option<Quiet>, bool)> {
    if !std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
        return Ok((None, false));
    }
    let quiet = Quiet::new().context("no random token to stop workflow commands with")?;
    let failed = out.print(&quiet.stop()).map_err(|e| complain(&e)).is_err();
    Ok((Some(quiet), failed))
}

/// Under GitHub Actions: workflow commands resumed, one `::error`
/// annotation per finding on stdout, and the step summary appended to
/// `$GITHUB_STEP_SUMMARY` (opened to append: what other steps wrote stays
/// byte for byte, UTF-8 or not), within GitHub's cap together with it.
/// Returns whether an output failed.
fn github(run: &report::Run, quiet: &Quiet, out: &mut Out) -> bool {
    let mut failed = false;
    let annotations = quiet.resume() + &provably::harness::github::annotations(run);
    if let Err(e) = out.print(&annotations) {
        failed = complain(&e);
    }
    if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        failed |= append_summary(&path, run).map_err(|e| complain(&e)).is_err();
    }
    failed
}

/// Appends the run's step summary to `path`, in what is left of
/// [`SUMMARY_LIMIT`] after what the file already holds.
fn append_summary(path: &std::path::Path, run: &report::Run) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let held = file.metadata().map_or(0, |m| m.len());
    let room = SUMMARY_LIMIT.saturating_sub(usize::try_from(held).unwrap_or(usize::MAX));
    let text = provably::harness::github::summary(run, room);
    file.write_all(text.as_bytes())
        .with_context(|| format!("appending to {}", path.display()))
}

/// A line for each target with fewer than `required` cases compared.
fn shortfall(reports: &[TargetReport], required: u64) -> String {
    reports
        .iter()
        .filter(|r| r.compared() < required)
        .map(|r| {
            format!(
                "NOTHING COMPARED: {} had {} case(s) compared, fewer than --require-cases {required}\n",
                r.target,
                r.compared(),
            )
        })
        .collect()
}

/// Says why an output failed, on one line; returns true (it failed).
fn complain(e: &anyhow::Error) -> bool {
    eprintln!("error: {}", provably::base::text::escape_str(&format!("{e:#}")));
    true
}

/// The exit status of the shared table: faults 2, divergences 1, nothing
/// compared 4; with expectations, 3 for a change, else 0. An output that
/// failed (5) only replaces a 0, as in `audit`: the run's verdict comes
/// first.
fn exit_code(reports: &[TargetReport], as_recorded: Option<bool>, short: bool, output_failed: bool) -> u8 {
    let faults = reports.iter().any(|r| !r.faults.is_empty());
    let diverged = reports.iter().any(TargetReport::diverged);
    let verdict = match as_recorded {
        Some(false) => CHANGED,
        Some(true) => 0,
        None if faults => 2,
        None if diverged => 1,
        None if short => NOTHING_COMPARED,
        None => 0,
    };
    match verdict {
        0 if output_failed => OUTPUT_FAILED,
        code => code,
    }
}

/// Runs one target with a progress bar.
fn run_one(args: &DiffArgs, m: &manifest::Manifest, opts: &Options, jobs: usize) -> TargetReport {
    let required = m.ops.clone();
    let instances = if m.single_instance { 1 } else { jobs };
    let progress = bar(args.quiet, &m.name);
    let report = run_target(
        &|| open(m.clone()),
        instances,
        required.as_deref(),
        opts,
        &|event| match event {
            provably::harness::run::Progress::Total(n) => progress.set_length(n),
            provably::harness::run::Progress::Done(n) => progress.inc(n),
        },
    );
    progress.finish_and_clear();
    report
}

/// Holds one target's results to its expectations: asks the recorded
/// requests again, writes each finding's recorded cause and the replays
/// into its report, and returns what changed.
fn hold(report: &mut TargetReport, m: &manifest::Manifest, exp: &Expectations) -> Vec<Change> {
    let expected = exp.of(&m.name);
    let replayed = expect::replay(m, &expected);
    let changes = expect::check(report, &expected, &replayed);
    for op in &mut report.ops {
        for f in &mut op.findings {
            f.recorded = expect::cause_of(&expected, &op.op, f).map(|e| e.cause.clone());
        }
    }
    report.expectations = Some(ExpectationsInfo {
        file: expected.path.display().to_string(),
        replayed,
        faults: expected.faults.clone(),
        changes: changes.clone(),
    });
    changes
}

/// The expectations' verdict, for people.
fn verdict(changes: &[Change], reports: &[TargetReport], exp: &Expectations) -> String {
    let dir = exp.dir.display();
    if changes.is_empty() {
        let findings: usize = reports
            .iter()
            .map(|r| r.ops.iter().map(|o| o.findings.len()).sum::<usize>())
            .sum();
        let faults: usize = reports.iter().map(|r| r.faults.len()).sum();
        return format!(
            "expectations: as recorded in {dir}: {findings} finding group(s) and {faults} fault(s), each recorded; every recorded finding asked again still diverges\n"
        );
    }
    let mut text = format!("EXPECTATIONS CHANGED: {} result(s) differ from {dir}\n", changes.len());
    for c in changes {
        text += &format!("{c}\n");
    }
    text
}

/// The most memory this process has held (`VmHWM`), for the report: a
/// run's memory must not grow with its size.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn write_file(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    provably::base::fsutil::write_atomic(path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))
}
