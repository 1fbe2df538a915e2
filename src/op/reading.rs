//! Readings: where an op's published sources disagree, each other reading
//! of the op, with its name, its source and what it answers.
//!
//! The op's own `run` is the canonical reading; these are the others. The
//! harness compares a diverging target's answer with each of them, so a
//! finding says "follows reading X (source)" instead of a bare divergence.

use serde_json::Value;

use super::Request;

/// One non-canonical reading of an op.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    /// A short name, as findings and vector flags name it.
    pub name: &'static str,
    /// Where the reading is published (a URL, a crate and file).
    pub(crate) source: &'static str,
    /// The `ok` object this reading answers; `None` where it answers no
    /// JSON value (an infinite multiplier).
    pub ok: fn(&Request) -> Option<Value>,
}

impl Reading {
    /// How a finding names it: "follows reading X (source)".
    pub(crate) fn words(&self) -> String {
        format!("follows reading {} ({})", self.name, self.source)
    }
}
