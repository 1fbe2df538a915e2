//! `provably certify`: the exact output distribution of every op's mapping
//! from HMAC output to outcome (the library's `stats::certify`), and with
//! `--power` the rounds each statistical test needs to see a skew.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;

#[derive(Args, Debug)]
pub struct CertifyArgs {
    /// Also print the power table of `audit --stats` (rounds per test and skew).
    #[arg(long)]
    power: bool,
    /// The family-wise level the power table is computed at.
    #[arg(long, value_name = "ALPHA", default_value_t = provably::stats::DEFAULT_LEVEL)]
    level: f64,
}

/// Prints the tables (Markdown); exit 0, or 5 when stdout cannot be written.
pub fn run(args: &CertifyArgs) -> anyhow::Result<ExitCode> {
    if !(args.level > 0.0 && args.level < 1.0) {
        anyhow::bail!(
            "--level must lie strictly between 0 and 1, not {}",
            provably::base::pyfmt::js_number(args.level)
        );
    }
    let mut text = provably::stats::certify::table();
    if args.power {
        text.push('\n');
        text.push_str(&provably::stats::power::table(args.level));
    }
    let mut out = io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() {
        return Ok(ExitCode::from(5));
    }
    Ok(ExitCode::SUCCESS)
}
