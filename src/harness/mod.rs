//! The differential harness: every other implementation, run as a real
//! subprocess, held to the answers of this crate's implementation.
//!
//! A [`Target`] answers batches of [`Ask`]s. [`run::run_target`] streams
//! every canonical vector and property-generated cases for each op the
//! target claims through N copies of the target, compares each answer with
//! this crate's, groups divergences by the first step where the two sides
//! part, shrinks one example per group, joins the groups of one bug into
//! one finding, and keeps faults (the target misbehaving) apart from
//! divergences (the target answering differently).
//!
//! Three layers, each importing only from itself and below
//! (`tests/layers.rs` holds them, and no cycle among the files):
//! - the model, plain data: this file (a target, its answers and faults),
//!   [`report`], [`manifest`], [`cases`];
//! - the engine: [`targets`] opens a target, `driver` drives it, then
//!   [`cause`] → [`findings`] → `cluster`, `separate` and `shrink`
//!   → [`run`], with [`expect`] replaying the recorded expectations;
//! - the outputs: [`summary`] (text), [`github`], [`junit`], [`html`].

// A Fault is a report with its evidence, built once per fault, never on a
// hot path; boxing it would only add noise.
#![allow(clippy::result_large_err)]

pub mod bugs;
pub mod cases;
pub mod cause;
pub(crate) mod children;
pub(crate) mod cluster;
pub mod compare;
pub(crate) mod driver;
pub mod expect;
pub mod findings;
pub mod github;
pub mod html;
pub(crate) mod html_readings;
pub mod junit;
pub mod manifest;
pub mod process;
pub(crate) mod published;
pub mod report;
pub mod run;
pub(crate) mod separate;
pub(crate) mod shrink;
pub mod summary;
pub mod targets;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use cases::Ask;

use crate::protocol::Reply;

/// How a target misbehaved, as opposed to answering differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// The program could not be started at all.
    Spawn,
    /// The target exited while requests were outstanding.
    Crash,
    /// The target answered everything but exited non-zero at end of input.
    ExitStatus,
    /// No answer to hello within the start-up timeout.
    StartupTimeout,
    /// No answer to a request within the per-request timeout.
    Timeout,
    /// An answer line that is not a protocol v1 response.
    NotJson,
    /// An answer line with bytes that are not UTF-8.
    NotUtf8,
    /// An answer whose id belongs to no outstanding request.
    WrongId,
    /// A request got no line of its own (a later request's answer came first, or output ended).
    MissingAnswer,
    /// More answer lines than requests.
    ExtraAnswer,
    /// An answer line longer than any legitimate one.
    LineTooLong,
    /// More than the allowed bytes on stderr.
    StderrFlood,
    /// An op listed in hello answered `unsupported`.
    ClaimedUnsupported,
    /// The manifest requires an op that hello does not claim.
    MissingOp,
    /// hello answered with an error, a wrong shape or another protocol version.
    Handshake,
    /// Every case of a claimed op was declined: claiming it proved nothing.
    DeclinedEverything,
}

impl FaultKind {
    /// The kind's name as reports and expectation files spell it (`crash`, `not-json`).
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Spawn => "spawn",
            FaultKind::Crash => "crash",
            FaultKind::ExitStatus => "exit-status",
            FaultKind::StartupTimeout => "startup-timeout",
            FaultKind::Timeout => "timeout",
            FaultKind::NotJson => "not-json",
            FaultKind::NotUtf8 => "not-utf8",
            FaultKind::WrongId => "wrong-id",
            FaultKind::MissingAnswer => "missing-answer",
            FaultKind::ExtraAnswer => "extra-answer",
            FaultKind::LineTooLong => "line-too-long",
            FaultKind::StderrFlood => "stderr-flood",
            FaultKind::ClaimedUnsupported => "claimed-unsupported",
            FaultKind::MissingOp => "missing-op",
            FaultKind::Handshake => "handshake",
            FaultKind::DeclinedEverything => "declined-everything",
        }
    }
}

/// A fault with its evidence: what was asked, what came back, how the
/// process ended, and the tail of its stderr.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Fault {
    /// What kind of misbehaviour it is.
    pub kind: FaultKind,
    /// What happened, in words, with the figures that show it.
    pub detail: String,
    /// The request line in turn when the fault happened, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// The start of the offending output line, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) received: Option<String>,
    /// How the process ended (its exit status or signal, as the OS words it), if it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_status: Option<String>,
    /// The end of the target's stderr (at most its last 64 KiB, escaped); empty when there is none to show.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr_tail: String,
}

impl Fault {
    /// A fault of `kind` with its `detail` and no evidence yet (the caller adds what it has).
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Self {
        Fault {
            kind,
            detail: detail.into(),
            request: None,
            received: None,
            exit_status: None,
            stderr_tail: String::new(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.detail)?;
        if let Some(r) = &self.request {
            write!(f, "\n  request:  {r}")?;
        }
        if let Some(r) = &self.received {
            write!(f, "\n  received: {r}")?;
        }
        if let Some(s) = &self.exit_status {
            write!(f, "\n  exit:     {s}")?;
        }
        if !self.stderr_tail.is_empty() {
            let tail: Vec<&str> = self.stderr_tail.lines().rev().take(12).collect();
            write!(f, "\n  stderr (last lines):")?;
            for l in tail.iter().rev() {
                write!(f, "\n    | {l}")?;
            }
        }
        Ok(())
    }
}

/// What a target says about itself in hello.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    /// The name the target gives itself (escaped).
    pub name: String,
    /// The protocol v1 ops the target claims to answer.
    pub ops: Vec<String>,
}

/// One answer as it came back: the raw line of a protocol target (checked
/// by the harness, which compares bytes first and parses only on a
/// difference), or a reply an adapter built.
#[derive(Debug, Clone)]
pub enum Got {
    /// The answer line's bytes as the target wrote them, without the newline.
    Line(Vec<u8>),
    /// A reply an adapter built from a published program's output.
    Reply(Reply),
}

/// Anything the harness can hold to the Rust answers.
pub trait Target: Send {
    /// The name used in reports.
    fn name(&self) -> &str;
    /// Starts (or restarts) the target and returns its hello.
    fn start(&mut self) -> Result<Hello, Fault>;
    /// Sends a batch. Its answers come back from [`Target::receive`], batch
    /// by batch in the order sent; request k of the batch has id `ids[k]`.
    fn send(&mut self, asks: &[Ask], ids: &[i64]) -> Result<(), Fault>;
    /// Receives the answers to the oldest batch sent, in order, handing each
    /// to `answer` as it comes (never a whole batch at once: a batch of huge
    /// lines must not be held in memory). Stops at the first fault, of the
    /// target or returned by `answer`.
    fn receive(&mut self, answer: &mut dyn FnMut(Got) -> Result<(), Fault>) -> Option<Fault>;
    /// Kills the target after a fault found in its answers, adding the
    /// evidence only the target has (exit status, stderr tail).
    fn abort(&mut self, fault: Fault) -> Fault;
    /// Ends the target; reports a fault that shows only at the end (an
    /// extra answer, a non-zero exit status, a stderr flood).
    fn finish(&mut self) -> Option<Fault>;
    /// How many requests to send per batch.
    fn batch_size(&self) -> usize {
        256
    }
    /// How many batches may be in flight at once.
    fn pipeline(&self) -> usize {
        2
    }
}
