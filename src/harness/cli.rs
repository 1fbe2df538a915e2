//! `provably diff`: the harness's command line, table and reports.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::manifest::{self, Kind, Manifest};
use super::process::ProcessTarget;
use super::published::PublishedTarget;
use super::run::{run_target, Options, TargetReport};
use super::Target;

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
    if !crate::protocol::OPS.contains(&op) {
        return Err(format!("{op:?} is not a protocol v1 op"));
    }
    Ok((op.to_string(), n.parse().map_err(|e| format!("{n:?}: {e}"))?))
}

/// The targets a run asks, resolved from the arguments.
fn manifests(args: &DiffArgs) -> anyhow::Result<Vec<Manifest>> {
    let mut out = Vec::new();
    for t in &args.targets {
        out.push(manifest::find(t, &args.targets_dir)?);
    }
    for c in &args.target_cmds {
        out.push(Manifest::from_command(c));
    }
    if out.is_empty() {
        out = manifest::all(&args.targets_dir)?;
    }
    Ok(out)
}

fn open(m: Manifest) -> Box<dyn Target> {
    match m.kind {
        Kind::Protocol => Box::new(ProcessTarget::new(m)),
        Kind::ReferenzCli | Kind::PokerReferenzCli => Box::new(PublishedTarget::new(m)),
    }
}

/// The summary table: target, ops, cases, agree, diverge, skipped, faults.
pub fn table(reports: &[TargetReport]) -> String {
    let mut rows = vec![[
        "target", "ops", "cases", "agree", "diverge", "skipped", "faults", "time",
    ]
    .map(String::from)
    .to_vec()];
    for r in reports {
        rows.push(vec![
            r.target.clone(),
            r.claimed_ops().to_string(),
            r.total(|o| o.cases).to_string(),
            r.total(|o| o.agree).to_string(),
            r.total(|o| o.diverge).to_string(),
            r.total(|o| o.skipped).to_string(),
            r.faults.len().to_string(),
            format!("{:.1}s", r.seconds),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap())
        .collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c == 0 {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        out += cells.join("  ").trim_end();
        out.push('\n');
        if i == 0 {
            out += &"-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1));
            out.push('\n');
        }
    }
    out
}

/// The problems of one report, for people.
pub fn details(r: &TargetReport) -> String {
    let mut out = String::new();
    for f in &r.faults {
        out += &format!("FAULT in {}: {f}\n\n", r.target);
    }
    for o in &r.ops {
        for d in &o.divergences {
            out += &format!(
                "DIVERGENCE in {} {} ({} of {} cases diverge)\n  found:   {} ({})\n  minimal: {} ({} shrink steps)\n{}\n  first step where the two sides part: {}\n\n",
                r.target, o.op, o.diverge, o.cases, d.found, d.origin, d.request, d.shrink_steps, indent(&d.diff), d.parted
            );
        }
    }
    out
}

/// Indents a diff, cut to its first 60 lines (the JSON report keeps it whole).
fn indent(s: &str) -> String {
    const SHOWN: usize = 60;
    let lines: Vec<&str> = s.lines().collect();
    let mut out: Vec<String> = lines.iter().take(SHOWN).map(|l| format!("    {l}")).collect();
    if lines.len() > SHOWN {
        out.push(format!(
            "    … {} more diff lines (the --report file has them all)",
            lines.len() - SHOWN
        ));
    }
    out.join("\n")
}

fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))
}

/// Runs the harness; exit 0 when everything agrees, 1 on a divergence, 2 on a fault.
pub fn run(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let targets = manifests(args)?;
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
        write_file(path, &super::junit::render(&reports))?;
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
