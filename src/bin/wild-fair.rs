//! The `fair` crate's byte generator (`ProvablyFairRNG<u8>`) as a protocol
//! v1 target for the shoe's stream: `shoe.stream` is its bytes as they
//! come, `shoe.deal` and `shoe.tournament` the shoe logic of
//! `provably::wild` drawing from them (manifest harness/wild/fair.toml).
//!
//!     cargo build --features wild --bin wild-fair

use std::io;
use std::process::ExitCode;

use fair::ProvablyFairRNG;
use provably::wild::{serve, Engine, Stream};

/// The version Cargo.toml pins (`fair = "=0.0.13"`).
const FAIR: &str = "0.0.13";

struct Fair(ProvablyFairRNG<u8>);

impl Stream for Fair {
    fn next_byte(&mut self) -> u8 {
        self.0.next().expect("ProvablyFairRNG is an endless iterator")
    }
}

fn main() -> ExitCode {
    // fair takes the client seed first.
    let engine = Engine::over_stream(
        format!("fair {FAIR} (ProvablyFairRNG<u8>) under provably's shoe logic"),
        |server, client, nonce| Fair(ProvablyFairRNG::new(client, server, nonce)),
    );
    match serve(&engine, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wild-fair: {e}");
            ExitCode::from(2)
        }
    }
}
