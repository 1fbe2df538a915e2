//! `provably report`: the conformance page from `provably diff --report` runs.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use provably::harness::html::{render, Run};

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Run files written by `provably diff --report FILE`; their rows are shown in this order.
    #[arg(value_name = "RUN.json", required = true)]
    pub runs: Vec<PathBuf>,
    /// The folder to write index.html to (created if missing).
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
}

/// Reads every run, writes DIR/index.html atomically, prints its path.
pub fn run(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let mut runs = Vec::new();
    for path in &args.runs {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let run: Run = provably::harness::report::read(&text)
            .with_context(|| format!("{} is not a `provably diff --report` file", path.display()))?;
        let name = path
            .file_name()
            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        runs.push((name, run));
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let page = args.out.join("index.html");
    provably::base::fsutil::write_atomic(&page, render(&runs).as_bytes())
        .with_context(|| format!("writing {}", page.display()))?;
    writeln!(std::io::stdout().lock(), "wrote {}", page.display())?;
    Ok(ExitCode::SUCCESS)
}
