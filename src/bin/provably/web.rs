//! `provably web`: the verification page on localhost.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use provably::web::Limits;

/// `provably web`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub struct WebArgs {
    /// Port to listen on, on 127.0.0.1 only (0 picks a free one).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Serve a checkout from disk (its web/, reference/js/ and vectors/) instead of the page built into the binary; for working on the page.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Connections held at once; when all are taken, a new one displaces the connection that has waited longest for its request head.
    #[arg(long, value_name = "N", default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// Seconds a client has, from connecting, to send its whole request head.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub head_timeout: u64,
}

/// Serves until the process ends; prints the page's URL once listening.
pub fn run(args: &WebArgs) -> anyhow::Result<()> {
    let limits = Limits {
        max_connections: usize::try_from(args.max_connections).expect("at most a million"),
        head_timeout: Duration::from_secs(args.head_timeout),
        ..Limits::default()
    };
    provably::web::serve_with(args.root.as_deref(), args.port, &limits, &mut |url| {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "listening on {url}").and_then(|()| out.flush());
    })?;
    Ok(())
}
