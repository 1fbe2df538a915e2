//! Protocol v1 for an [`Engine`]: `provably serve`'s reading and
//! validating, with the engine's name, ops and answers.
//!
//! Requests are parsed and checked by the op table ([`Message::parse`]), so
//! a wild target refuses exactly what provably refuses; only the answer of
//! a valid request comes from the engine. An op the engine does not claim
//! is `unsupported`.

use std::io::{self, Read, Write};

use serde::Serialize;

use super::Engine;
use crate::op::error::{InvalidInput, OpError};
use crate::op::{short, Outcome};
use crate::protocol::{Answer, Message};

fn invalid(id: Option<i64>, field: &str, reason: String) -> Answer {
    Answer {
        id,
        result: Err(InvalidInput::new(field, reason).into()),
    }
}

/// The answer to one request line.
fn answer(engine: &Engine, line: &str) -> Answer {
    let value: serde_json::Value = match crate::base::json::parse(line) {
        Ok(v) => v,
        Err(e) => {
            let id = crate::base::json::lenient_id(line);
            return invalid(id, "request", e.to_string());
        }
    };
    let id = match value.get("id") {
        Some(v) if v.is_i64() => v.as_i64(),
        Some(v) => return invalid(None, "id", format!("must be an integer, not {}", short(v))),
        None => return invalid(None, "id", "is missing".into()),
    };
    let result = match value.get("op").and_then(serde_json::Value::as_str) {
        Some(op) if op != "hello" && !engine.ops.contains(&op) => Err(OpError::Unsupported { op: op.to_string() }),
        _ => Message::parse(&value).and_then(|m| match m {
            Message::Hello => Ok(hello(engine)),
            Message::Request(r) => (engine.run)(&r),
        }),
    };
    Answer { id, result }
}

fn hello(engine: &Engine) -> Outcome {
    #[derive(Serialize, Debug)]
    struct HelloOk {
        name: String,
        ops: Vec<&'static str>,
    }
    Outcome::new(HelloOk {
        name: engine.name.clone(),
        ops: engine.ops.to_vec(),
    })
}

/// Serves `engine` on `input` until it ends, with `provably serve`'s line loop.
pub fn serve<R: Read, W: Write>(engine: &Engine, input: R, output: W) -> io::Result<()> {
    crate::protocol::serve::serve_with(input, output, |line| answer(engine, line))
}
