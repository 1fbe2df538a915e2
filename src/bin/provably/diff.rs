//! `provably diff`: the harness's command line.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use provably::harness::run::{run_target, Options, TargetReport};
use provably::harness::summary::{details, table};
use provably::harness::{junit, manifest, open};

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// A target: the name of a manifest in the targets directory, or a path to a manifest file. Repeatable; default: every manifest.
    #[arg(long = "target", value_name = "NAME|FILE")]
    pub targets: Vec<String>,
    /// A protocol v1 program to test without a manifest, run with `sh -c` in the current directory. Repeatable.
    #[arg(long = "target-cmd", value_name = "'CMD ARGS'")]
    pub target_cmds: Vec<String>,
    /// Replay the canonical vectors only, no generated cases.
    #[arg(long)]
    pub vectors_only: bool,
    /// Generated cases per op.
    #[arg(long, default_value_t = 200)]
    pub cases: u64,
    /// Generated cases for one op, overriding --cases (for example poker.deal=300). Repeatable.
    #[arg(long = "cases-for", value_name = "OP=N", value_parser = parse_cases_for)]
    pub cases_for: Vec<(String, u64)>,
    /// Seed of the generated cases; the same seed asks the same cases.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the full report as JSON.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write a JUnit XML report.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Directory of target manifests.
    #[arg(long, value_name = "DIR", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/harness/targets"))]
    pub targets_dir: PathBuf,
    /// Print nothing but the table and the problems.
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_cases_for(s: &str) -> Result<(String, u64), String> {
    let (op, n) = s.split_once('=').ok_or_else(|| format!("{s:?} is not OP=N"))?;
    if provably::op::find(op).is_none() {
        return Err(format!("{op:?} is not a protocol v1 op"));
    }
    Ok((op.to_string(), n.parse().map_err(|e| format!("{n:?}: {e}"))?))
}

fn write_file(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    provably::fsutil::write_atomic(path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))
}

/// Runs the harness; exit 0 when everything agrees, 1 on a divergence, 2 on a fault.
pub fn run(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let targets = manifest::resolve(&args.targets, &args.target_cmds, &args.targets_dir)?;
    let opts = Options {
        cases: args.cases,
        cases_for: args.cases_for.iter().cloned().collect::<BTreeMap<_, _>>(),
        seed: args.seed,
        vectors_only: args.vectors_only,
        ..Options::default()
    };
    let mut reports = Vec::new();
    for m in targets {
        let required = m.ops.clone();
        let mut target = open(m);
        let quiet = args.quiet;
        let mut progress = |msg: &str| {
            if !quiet {
                eprintln!("  {msg}");
            }
        };
        let report = run_target(target.as_mut(), required.as_deref(), &opts, &mut progress);
        let text = details(&report);
        if !text.is_empty() {
            print!("{text}");
        }
        reports.push(report);
    }
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{}", table(&reports))?;
    writeln!(
        stdout,
        "seed {} · {} generated cases per op{} · rerun with the same --seed to ask the same cases",
        args.seed,
        if args.vectors_only { 0 } else { args.cases },
        if args.vectors_only { " (vectors only)" } else { "" }
    )?;
    if let Some(path) = &args.report {
        write_file(
            path,
            &(serde_json::to_string_pretty(&serde_json::json!({ "seed": args.seed, "targets": reports }))? + "\n"),
        )?;
    }
    if let Some(path) = &args.junit {
        write_file(path, &junit::render(&reports))?;
    }
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
