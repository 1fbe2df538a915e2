//! `provably merge`: the report of one audit from its parts (`audit --partial`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use provably::proof::partial::Merge;
use provably::proof::report::Spool;

use crate::audit::{conclude, level, Outputs};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Partial results written by `provably audit --partial`, in any order.
    #[arg(required = true, value_name = "PARTIAL")]
    partials: Vec<PathBuf>,
    #[command(flatten)]
    outputs: Outputs,
    /// The statistics, as `audit --stats` gives them: the parts must have
    /// been audited with --stats. Without it the report has none, as an
    /// audit without --stats.
    #[arg(long)]
    stats: bool,
    /// The family-wise level of --stats.
    #[arg(long, value_name = "ALPHA", default_value_t = provably::stats::DEFAULT_LEVEL, value_parser = level)]
    stats_level: f64,
    /// Also write the merged parts as one partial result to FILE (`-`:
    /// stdout): merging it with others is merging all their parts.
    #[arg(long, value_name = "FILE")]
    partial: Option<String>,
}

/// Exit as `provably audit` over the parts' sources would, or 2 when the
/// partials do not merge (another version, other options, cut short or
/// altered, counts their records do not bear out, overlapping).
pub fn run(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let merge = Merge::open(&args.partials)?;
    if args.stats && !merge.stats() {
        anyhow::bail!(
            "--stats asks for the statistics, but the parts were audited without --stats: audit them again with --stats --partial"
        );
    }
    // The merged partial alone asked for: the report comes from the last
    // merge. Otherwise the merge runs first, so that a refusal comes
    // before any output is written.
    let report = args.partial.is_none() || !args.outputs.no_files();
    let merged = if report {
        let mut spool = Spool::new().context("creating a temporary file for the findings")?;
        let merged = merge.run(&mut spool)?;
        Some((merged, spool))
    } else {
        None
    };
    if let Some(out) = &args.partial {
        write_partial(&merge, out)?;
    }
    let Some((merged, mut spool)) = merged else {
        return Ok(ExitCode::SUCCESS);
    };
    let stats = merged
        .stats
        .filter(|_| args.stats)
        .map(|c| provably::stats::evaluate(&c, args.stats_level));
    Ok(conclude(&args.outputs, &merged.sources, &mut spool, stats.as_ref()))
}

/// `--partial OUT`: the merged parts as one partial, whole or not at all.
fn write_partial(merge: &Merge, out: &str) -> anyhow::Result<()> {
    if out == "-" {
        let mut w = io::BufWriter::new(io::stdout().lock());
        merge.write_partial(&mut w)?;
        w.flush().context("writing the partial to stdout")?;
        return Ok(());
    }
    let mut failed = None;
    let r = provably::base::fsutil::write_atomic_with(Path::new(out), |w| {
        merge.write_partial(w).map_err(|e| {
            let io = io::Error::other(e.to_string());
            failed = Some(e);
            io
        })
    });
    if let Some(e) = failed {
        return Err(anyhow::Error::from(e).context(format!("writing the partial {out}")));
    }
    r.with_context(|| format!("writing the partial {out}"))
}
