//! `ring`'s HMAC-SHA256 and SHA-256 as a protocol v1 target, under the
//! scheme logic of `provably::wild` (manifest harness/wild/ring.toml).
//!
//!     cargo build --features wild --bin wild-ring

use std::io;
use std::process::ExitCode;

use provably::wild::{serve, Engine, Primitives};
use ring::{digest, hmac};

/// The version Cargo.toml pins (`ring = "=0.17.14"`).
const RING: &str = "0.17.14";

struct Ring;

impl Primitives for Ring {
    fn hmac_sha256(&self, key: &str, message: &str) -> [u8; 32] {
        let key = hmac::Key::new(hmac::HMAC_SHA256, key.as_bytes());
        let tag = hmac::sign(&key, message.as_bytes());
        tag.as_ref().try_into().expect("HMAC-SHA256 tags are 32 bytes")
    }

    fn sha256(&self, text: &str) -> [u8; 32] {
        let d = digest::digest(&digest::SHA256, text.as_bytes());
        d.as_ref().try_into().expect("SHA-256 digests are 32 bytes")
    }
}

fn main() -> ExitCode {
    let engine = Engine::over_primitives(
        format!("ring {RING} (hmac::HMAC_SHA256, digest::SHA256) under provably's scheme logic"),
        Ring,
    );
    match serve(&engine, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wild-ring: {e}");
            ExitCode::from(2)
        }
    }
}
