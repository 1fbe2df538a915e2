//! The `bustabit` crate's games (crates.io bustabit 0.2.1) as a protocol
//! v1 target (manifest harness/wild/bustabit.toml).
//!
//!     cargo build --features wild --bin wild-bustabit
//!
//! The crate computes bustabit v2 on its previous chain: `Game::outcome`
//! is HMAC_SHA256(key = the block 505,750 salt it holds as a constant,
//! message = the game hash's 32 bytes), X = the first 52 bits / 2^52,
//! max(1, ⌊99/(1 − X)⌋/100); its iterator steps to the previous game by
//! SHA-256 of the hash's hex text. So it claims:
//!
//! | op | the crate's call | declined |
//! |---|---|---|
//! | `crash.v2` | `Game::new(hash)?.outcome()` → `crashPoint` | another salt than its own, or `bcgame` |
//! | `crash.link` | `Game::new(hash)?.into_iter().next()` → its `hash`, hex → `previous` | the raw-byte link |
//! | `stake.crash.chain` | the iterator, step by step, until its game's hash is the terminating hash | — |
//!
//! This file only reads the crate's results into the ops' ok fields.

use std::io;
use std::process::ExitCode;

use bustabit::Game;
use provably::op::error::OpError;
use provably::op::{Arg, Outcome, Request};
use provably::wild::{serve, Engine};
use serde_json::{json, Value};

/// The version Cargo.toml pins (`bustabit = "=0.2.1"`).
const BUSTABIT: &str = "0.2.1";

/// The salt the crate holds (`Game::outcome`'s `SEED`): block 505,750's hash.
const SALT: &str = "0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526";

const OPS: &[&str] = &["crash.v2", "crash.link", "stake.crash.chain"];

fn text<'a>(r: &'a Request, name: &str) -> &'a str {
    match r.get(name) {
        Some(Arg::Text(s)) => s,
        other => panic!("{} has no text field {name} ({other:?})", r.op()),
    }
}

fn declined(reason: &str) -> OpError {
    OpError::Declined {
        reason: reason.to_string(),
    }
}

/// The crate's game of a 64-hex-digit hash (the request's field is checked).
fn game(hash: &str) -> Game {
    Game::new(&hash.to_string()).expect("64 hex digits")
}

/// A number as JavaScript's `String(x)` writes it (an integral value as an integer).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "checked integral, 1 to 2^53"
)]
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && (1.0..9_007_199_254_740_992.0).contains(&x) {
        json!(x as u64)
    } else {
        json!(x)
    }
}

/// One valid request of [`OPS`], answered by the crate.
fn answer(r: &Request) -> Result<Value, OpError> {
    match r.op() {
        "crash.v2" => {
            if text(r, "salt") != SALT {
                return Err(declined("the crate holds one salt, block 505,750's hash"));
            }
            if matches!(r.get("bcgame"), Some(Arg::Bool(true))) {
                return Err(declined("the crate has no toPrecision(9) rounding (BC.Game)"));
            }
            Ok(json!({ "crashPoint": number(game(text(r, "hash")).outcome()) }))
        }
        "crash.link" => {
            if text(r, "link") != "text" {
                return Err(declined("the crate steps by the hex-text link only"));
            }
            let previous = game(text(r, "hash")).into_iter().next().expect("an endless iterator");
            Ok(json!({ "previous": provably::base::crypto::hex(&previous.hash) }))
        }
        _ => chain(r),
    }
}

/// `stake.crash.chain` by the crate's iterator: the games before `hash`
/// until the terminating hash, at most `limit` of them.
fn chain(r: &Request) -> Result<Value, OpError> {
    let tip = text(r, "terminatingHash");
    let limit = match r.get("limit") {
        Some(Arg::Int(v)) => *v,
        other => panic!("stake.crash.chain has no limit ({other:?})"),
    };
    let start = game(text(r, "hash"));
    if provably::base::crypto::hex(&start.hash) == tip {
        return Ok(json!({ "distance": 0 }));
    }
    for (d, g) in (1..=limit).zip(start) {
        if provably::base::crypto::hex(&g.hash) == tip {
            return Ok(json!({ "distance": d }));
        }
    }
    Err(OpError::Exhausted {
        message: format!("the terminating hash is not within {limit} SHA-256 steps of the hash"),
    })
}

fn main() -> ExitCode {
    let engine = Engine {
        name: format!("bustabit {BUSTABIT} (bustabit::Game, the crate's own games)"),
        ops: OPS,
        run: Box::new(|r| answer(r).map(Outcome::new)),
    };
    match serve(&engine, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wild-bustabit: {e}");
            ExitCode::from(2)
        }
    }
}
