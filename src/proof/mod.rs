//! Proof documents, versions 1 and 2: whole games, tournaments, seed
//! rotations, archives and crash histories checked in one step
//! (docs/proofs.md is the normative text). Version 2 is version 1 with the
//! crash history's epoch ([`chain`]).
//!
//! A document is `{"proof": 1, "title": …, "epochs": [epoch, …]}`; a file
//! that does not start with `{` and then `"proof"` is JSON lines, one epoch
//! per line. An epoch is one committed seed: `commit` (hex SHA-256 shown
//! before play, or null), the revealed secret (`serverSeed`, or `seed` for
//! selfpoker: whichever field the rounds' ops name in [`crate::op::Secret`]),
//! and `rounds`. A round is a protocol v1 request without `id` and without
//! the epoch's secret, plus `observed` (a subset of the op's `ok` fields),
//! `seats` instead of `clientSeed`, or `external` for a round that did not
//! come from the seed.
//!
//! Checks:
//! * commitment: `secret.commit(secret)` (SHA-256 of the seed text, or of
//!   `selfpoker:<seed>`) against `commit`, case-insensitively:
//!   `ok`, `mismatch` or `absent` (null or left out);
//! * round: the request is parsed by the protocol's own parser (same limits,
//!   same `invalid` rules), run, and every observed field compared with the
//!   derived one. An observed array may be a prefix and may hold `null` for
//!   an item not seen, at any depth; `null` matches anything.
//!
//! Verdicts: a round is `match` (something was compared and all of it
//! agreed), `mismatch`, `skipped` (`external`), `invalid`, or `unobserved`
//! (nothing was observed, so nothing was compared: the round is derived and
//! listed, never called a match). The document's verdict is `invalid` if
//! anything is invalid, else `mismatch` if any commitment or round
//! mismatches, else `match` if anything was compared, else `unobserved`.
//! Exit status 2, 1, 0, 0.
//!
//! Decisions where the format is silent (all in docs/proofs.md):
//! * `unobserved` is a fifth round verdict and a fifth finding kind; it
//!   keeps the exit status of a version-1 document (0) but never says
//!   "match". `{}` and observations made only of `null` are unobserved too.
//! * A mismatch finding names the field, the first differing index at the
//!   top level of an array (the whole item, e.g. a seat's two hole cards, as
//!   `derived` and `observed`) and `differences`, how many top-level items
//!   of the field differ. An observed array longer than the derived one
//!   differs at each extra index (derived `null`).
//! * `external` is accepted on every op, not only `dice.roll`: any game can
//!   hold a round that came from elsewhere. Its text is 1 to 64 characters.
//!   The round must still be a valid request; its observation is checked for
//!   shape but not compared.
//! * Rounds are checked one by one: their order carries nothing the seed
//!   commits to (each round names its nonce, hand or die). Observations
//!   moved to another round are mismatches; no order rule is added.
//! * Findings are listed in document order: each thing where it stands in
//!   the text (an epoch's commitment finding at its `commit` key, a round's
//!   at the round).
//!
//! The audit reads, checks and folds (`run`): reading (`read`) cuts the
//! input into units of work without parsing the rounds (a structural
//! scanner, `scan`, walks documents; JSON lines are split at newlines and
//! each line's epoch walked the same way); one worker per core checks them
//! (`round`, a crash history's games by `game`, `commit`, with `compare`
//! the one comparer of an observation and its derivation); and the events
//! come back in document order through a bounded window to the fold
//! (`fold`, with `bets` and `chain`), so memory does not grow with the
//! input.

// The audit, stage by stage: what the input is and how it is scanned,
// reading it into units, one round's check and its comparison, the
// commitment, and the fold with the bet histories; `run` joins them.
pub(crate) mod bets;
pub mod chain;
pub(crate) mod chunks;
pub(crate) mod commit;
pub mod compare;
pub(crate) mod fold;
pub(crate) mod format;
pub(crate) mod game;
pub(crate) mod read;
pub mod round;
pub mod run;
pub(crate) mod scan;
// Writing documents, and the report of an audit.
pub mod make;
pub mod partial;
pub mod report;

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use compare::{compare, Comparison, Difference};
pub use round::seat_seed;
pub use run::audit;

/// The version of the proof format this module reads and writes.
pub(crate) const VERSION: u64 = 1;

/// The versions a document may say it is: 1, and 2, which is 1 with crash
/// histories ([`chain`]), written as 2 so that a reader of 1 refuses it.
pub(crate) const READS: [u64; 2] = [VERSION, chain::VERSION];

/// How an audit runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Worker threads (default: one per core; never more than the cores).
    pub jobs: usize,
    /// A batch of work ends after this many rounds…
    pub batch_rounds: usize,
    /// …or this many bytes of rounds' JSON, whichever comes first.
    pub batch_bytes: usize,
    /// The longest JSON line; a longer one is reported with its line number and skipped.
    pub max_line: usize,
    /// `audit --stats`: every round is derived, and its cells counted
    /// ([`run::Audit::statistics`]).
    pub stats: bool,
    /// The longest single value in a document (a round, a seed, a skipped
    /// field), in bytes: past it, reading stops with a finding that names
    /// the limit, so no value is held in memory whole whatever its size.
    pub max_value: usize,
    /// An epoch of at most this many bytes (a JSON line, or a document's
    /// epoch already in the reader's buffer) goes to a worker whole, which
    /// reads it with the same epoch walk as the reader: the reader only
    /// counts its brackets (or finds its line's end), so an archive of many
    /// small epochs (a seed per shoe) is read in parallel. A larger epoch is
    /// walked by the reader, its rounds batched to the workers. 0: every
    /// epoch is walked by the reader.
    pub whole_epochs: usize,
    /// The input is part of a larger file (`audit --partial --first-epoch`):
    /// its epochs are numbered from this one…
    pub first_epoch: u64,
    /// …and this many lines of the file come before it, so its findings
    /// carry the whole file's places.
    pub first_line: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            batch_rounds: 256,
            batch_bytes: 1 << 20,
            max_line: MAX_LINE,
            stats: false,
            max_value: MAX_VALUE,
            whole_epochs: 64 << 10,
            first_epoch: 0,
            first_line: 0,
        }
    }
}

/// The default cap on one line of JSON lines (an epoch); `provably merge`
/// holds a partial's lines to it too.
pub(crate) const MAX_LINE: usize = 64 << 20;

/// The default cap on one value of a document: that of a JSON line, since
/// a JSON-lines epoch is one value too.
pub(crate) const MAX_VALUE: usize = MAX_LINE;

/// The verdict on one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoundVerdict {
    /// Something was observed and all of it equals the derived outcome.
    Match,
    /// Some observed item differs from the derived one.
    Mismatch,
    /// The round is marked `external`: it did not come from the seed.
    Skipped,
    /// The round breaks a rule of the format or of protocol v1.
    Invalid,
    /// Nothing was observed: the round is derived, nothing compared.
    Unobserved,
}

/// The verdict on one epoch's commitment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommitVerdict {
    /// `commit` is the commitment of the revealed secret (case aside).
    Ok,
    /// The revealed secret commits to something else than `commit`.
    Mismatch,
    /// `commit` is null or left out.
    Absent,
    /// `commit` is not 64 hex characters, or there is no valid secret to check it against.
    Invalid,
}

/// What a finding reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FindingKind {
    /// An observed field differs from the derived one.
    Mismatch,
    /// A commitment differs from that of the revealed secret.
    Commit,
    /// Something breaks a rule of the format or of protocol v1.
    Invalid,
    /// A round marked `external`, not compared.
    Skipped,
    /// A round with nothing observed: derived and listed, not compared.
    Unobserved,
    /// Nonces of a seed pair missing between its first and last bet shown
    /// (a bet history, `bets`): bets nobody can check. No verdict changes.
    Gap,
}

/// One finding: where (epoch and round from 0, the line for JSON lines),
/// what, and the evidence. `derived` and `observed` are JSON null when they
/// do not apply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finding {
    /// The epoch, from 0; `None` for the document as a whole.
    pub epoch: Option<u64>,
    /// The round of the epoch, from 0; `None` for an epoch's own finding.
    pub round: Option<u64>,
    /// What the finding reports.
    pub kind: FindingKind,
    /// The field it is about (an observed field, `commit`, a broken field).
    pub field: Option<String>,
    pub(crate) index: Option<u64>,
    /// What provably derives there (null when nothing is derived).
    pub derived: Value,
    /// What the document says there (null when nothing is compared).
    pub observed: Value,
    /// Why, in words, where the kind alone does not say it.
    pub reason: Option<String>,
    /// The line of a JSON-lines epoch (or of a syntax error), from 1.
    pub line: Option<u64>,
    /// For a mismatch: how many top-level items of the field differ.
    pub(crate) differences: Option<u64>,
}

impl Finding {
    fn new(kind: FindingKind, at: Place) -> Finding {
        Finding {
            epoch: at.epoch,
            round: at.round,
            kind,
            field: None,
            index: None,
            derived: Value::Null,
            observed: Value::Null,
            reason: None,
            line: at.line,
            differences: None,
        }
    }

    /// Where the finding is.
    pub(crate) fn place(&self) -> Place {
        Place {
            epoch: self.epoch,
            round: self.round,
            line: self.line,
        }
    }
}

/// Where something is in a proof: epoch and round count from 0, the line of
/// a JSON-lines epoch (or of a syntax error) from 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    pub(crate) epoch: Option<u64>,
    pub(crate) round: Option<u64>,
    pub(crate) line: Option<u64>,
}

impl Place {
    pub(crate) fn epoch(epoch: u64, line: Option<u64>) -> Place {
        Place {
            epoch: Some(epoch),
            round: None,
            line,
        }
    }
    pub(crate) fn round(self, round: u64) -> Place {
        Place {
            round: Some(round),
            ..self
        }
    }
}

impl fmt::Display for Place {
    /// `line 7, epoch 6, round 3: `, or nothing for the document as a whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = [("line", self.line), ("epoch", self.epoch), ("round", self.round)]
            .iter()
            .filter_map(|(name, v)| v.map(|v| format!("{name} {v}")))
            .collect();
        if parts.is_empty() {
            Ok(())
        } else {
            write!(f, "{}: ", parts.join(", "))
        }
    }
}

/// Why part of a proof cannot be checked. Every variant names where it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProofError {
    /// Occurs when the text is not JSON (or not UTF-8) at this place.
    #[error("{at}not JSON: {message}")]
    NotJson {
        /// Where the text stops being JSON.
        at: Place,
        /// The JSON parser's message.
        message: String,
    },
    /// Occurs when a field breaks a rule of the format or of protocol v1.
    #[error("{at}{field}{}: {reason}", .index.map(|i| format!("[{i}]")).unwrap_or_default())]
    Field {
        /// Where the field is.
        at: Place,
        /// The field's name.
        field: String,
        /// The item of a list field that breaks the rule.
        index: Option<u64>,
        /// The rule it breaks, in words.
        reason: String,
    },
    /// Occurs when a value has the wrong shape as a whole (an epoch that is not an object).
    #[error("{at}{reason}")]
    Shape {
        /// Where the value is.
        at: Place,
        /// What is wrong with it, in words.
        reason: String,
    },
    /// Occurs when the input cannot be read (a file that is not there, a read error).
    #[error("{at}cannot read: {message}")]
    Read {
        /// How far the input was read.
        at: Place,
        /// The system's message.
        message: String,
    },
    /// Occurs when a single value of a document (a round, a seed, a skipped
    /// field) is longer than `limit` bytes; `at` is where it begins.
    #[error("{at}a single value longer than {limit} bytes (the cap on any one value of a proof document)")]
    TooLarge {
        /// Where the value begins.
        at: Place,
        /// The cap, in bytes ([`Options::max_value`]).
        limit: usize,
    },
}

impl ProofError {
    pub(crate) fn place(&self) -> Place {
        match self {
            ProofError::NotJson { at, .. }
            | ProofError::Field { at, .. }
            | ProofError::Shape { at, .. }
            | ProofError::Read { at, .. }
            | ProofError::TooLarge { at, .. } => *at,
        }
    }

    /// The error as an `invalid` finding.
    pub fn finding(&self) -> Finding {
        let mut f = Finding::new(FindingKind::Invalid, self.place());
        f.reason = Some(match self {
            ProofError::NotJson { message, .. } => format!("not JSON: {message}"),
            ProofError::Field {
                field, index, reason, ..
            } => {
                f.field = Some(field.clone());
                f.index = *index;
                reason.clone()
            }
            ProofError::Shape { reason, .. } => reason.clone(),
            ProofError::Read { message, .. } => format!("cannot read: {message}"),
            ProofError::TooLarge { limit, .. } => format!(
                "a single value longer than {limit} bytes (the cap on any one value of a proof document); reading stops here"
            ),
        });
        f
    }
}

/// A field error before it is placed: what reading a round or an epoch finds
/// (`FieldError::at` places it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub(crate) field: String,
    pub(crate) index: Option<u64>,
    pub(crate) reason: String,
}

impl FieldError {
    pub(crate) fn new(field: impl Into<String>, reason: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            index: None,
            reason: reason.into(),
        }
    }
    pub(crate) fn at(self, at: Place) -> ProofError {
        ProofError::Field {
            at,
            field: self.field,
            index: self.index,
            reason: self.reason,
        }
    }
}

impl FieldError {
    /// An error of the protocol's parser (or of an op it runs) as a field
    /// error: an op no round can hold is named as such.
    pub(crate) fn of_op(e: &crate::op::error::OpError) -> FieldError {
        use crate::op::error::OpError;
        match e {
            OpError::Invalid(i) => FieldError::new(i.field.clone(), i.reason.clone()),
            OpError::Unsupported { op } => FieldError::new("op", format!("{op:?} is not an op a round can hold")),
            other => FieldError::new("op", other.to_string()),
        }
    }
}

impl From<crate::op::error::InvalidInput> for FieldError {
    fn from(e: crate::op::error::InvalidInput) -> FieldError {
        FieldError::new(e.field, e.reason)
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "{}[{i}]: {}", self.field, self.reason),
            None => write!(f, "{}: {}", self.field, self.reason),
        }
    }
}

/// What checking a proof produces, in document order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// An epoch begins (a JSON-lines line that is not blank, or an element of `epochs`).
    Epoch {
        /// The epoch's number, from 0.
        epoch: u64,
    },
    /// An epoch's commitment was checked; a mismatch or an invalid commitment carries its finding.
    Commit {
        /// The epoch's number, from 0.
        epoch: u64,
        /// The verdict on the commitment.
        verdict: CommitVerdict,
        /// The finding of a mismatch or an invalid commitment.
        finding: Option<Finding>,
    },
    /// A round was checked.
    Round {
        /// The epoch's number, from 0.
        epoch: u64,
        /// The round's number in its epoch, from 0.
        round: u64,
        /// The verdict on the round.
        verdict: RoundVerdict,
        /// What the check found.
        findings: Vec<Finding>,
        /// The round is a bet on a seed pair (a stake game): its nonce, followed by `bets`.
        bet: Option<Bet>,
        /// What the round gives the statistics (`audit --stats`), counted in order.
        counted: Option<crate::stats::Counted>,
        /// The round is a game of a crash history: its place on its chain, followed by `chain::Chains`.
        game: Option<Box<chain::Game>>,
    },
    /// Something invalid that is not a round: the document, a line, an epoch's field.
    Invalid(Finding),
    /// A finding that changes no verdict: a gap in a bet history.
    Note(Finding),
}

/// A bet's place in its seed pair's sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bet {
    /// The seed pair: the epoch's revealed server seed and the round's client seed.
    pub(crate) server: std::sync::Arc<str>,
    pub(crate) client: String,
    pub(crate) nonce: u64,
    /// The epoch's line, for JSON lines.
    pub line: Option<u64>,
}

impl Event {
    /// The findings the event carries.
    pub fn findings(&self) -> &[Finding] {
        match self {
            Event::Epoch { .. } => &[],
            Event::Commit { finding, .. } => finding.as_slice(),
            Event::Round { findings, .. } => findings,
            Event::Invalid(f) | Event::Note(f) => std::slice::from_ref(f),
        }
    }
}

/// The overall verdict of a proof (or of several).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Something was compared, and everything compared agreed.
    Match,
    /// Nothing was compared: no commitment, nothing observed.
    Unobserved,
    /// A commitment or a round differs.
    Mismatch,
    /// Something is invalid.
    Invalid,
}

impl Verdict {
    /// The exit status: 0 for match and unobserved, 1 for mismatch, 2 for invalid.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Match | Verdict::Unobserved => 0,
            Verdict::Mismatch => 1,
            Verdict::Invalid => 2,
        }
    }
    /// The verdict as reports write it: `match`, `unobserved`, `mismatch`, `invalid`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Match => "match",
            Verdict::Unobserved => "unobserved",
            Verdict::Mismatch => "mismatch",
            Verdict::Invalid => "invalid",
        }
    }
}

/// The counts of a report (the keys of docs/proofs.md's report object).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Counts {
    /// Epochs read.
    pub epochs: u64,
    /// Rounds read, whatever their verdict.
    pub rounds: u64,
    /// Rounds that match (`match` in the report).
    #[serde(rename = "match")]
    pub matched: u64,
    /// Rounds that mismatch.
    pub mismatch: u64,
    /// Rounds skipped (`external`).
    pub skipped: u64,
    /// Rounds that are invalid.
    pub invalid: u64,
    /// Rounds with nothing observed.
    pub unobserved: u64,
    /// Commitments that match their secret.
    pub commit_ok: u64,
    pub(crate) commit_mismatch: u64,
    pub(crate) commit_absent: u64,
    /// Invalid findings that belong to no round: the document, a line, an
    /// epoch field, a commitment that is not hex.
    pub invalid_other: u64,
    /// Gap findings: runs of nonces missing from a bet history.
    pub gaps: u64,
}

impl Counts {
    /// Counts one event.
    pub fn add(&mut self, e: &Event) {
        match e {
            Event::Epoch { .. } => self.epochs += 1,
            Event::Commit { verdict, .. } => match verdict {
                CommitVerdict::Ok => self.commit_ok += 1,
                CommitVerdict::Mismatch => self.commit_mismatch += 1,
                CommitVerdict::Absent => self.commit_absent += 1,
                CommitVerdict::Invalid => self.invalid_other += 1,
            },
            Event::Round { verdict, .. } => {
                self.rounds += 1;
                *self.verdict_mut(*verdict) += 1;
            }
            Event::Invalid(_) => self.invalid_other += 1,
            Event::Note(_) => self.gaps += 1,
        }
    }

    /// Counts one event, or `None` (and nothing counted) when a count it
    /// adds to is at 2^64 − 1: for counts read from elsewhere (a partial).
    pub(crate) fn checked_add(&mut self, e: &Event) -> Option<()> {
        let mut one = Counts::default();
        one.add(e);
        *self = self.checked_sum(&one)?;
        Some(())
    }

    /// The count of rounds with this verdict.
    pub(crate) fn verdict_mut(&mut self, v: RoundVerdict) -> &mut u64 {
        match v {
            RoundVerdict::Match => &mut self.matched,
            RoundVerdict::Mismatch => &mut self.mismatch,
            RoundVerdict::Skipped => &mut self.skipped,
            RoundVerdict::Invalid => &mut self.invalid,
            RoundVerdict::Unobserved => &mut self.unobserved,
        }
    }

    /// The count of rounds with this verdict.
    pub(crate) fn rounds_of(&self, v: RoundVerdict) -> u64 {
        let mut c = *self;
        *c.verdict_mut(v)
    }

    /// The sum of two counts (several files).
    pub fn merge(&mut self, o: &Counts) {
        for (a, b) in self.fields_mut().into_iter().zip(o.fields()) {
            *a += b;
        }
    }

    /// The sum of two counts, or `None` when a count would pass 2^64 − 1:
    /// for counts read from elsewhere (a partial), which need not be true.
    pub(crate) fn checked_sum(&self, o: &Counts) -> Option<Counts> {
        let mut sum = *self;
        for (a, b) in sum.fields_mut().into_iter().zip(o.fields()) {
            *a = a.checked_add(b)?;
        }
        Some(sum)
    }

    fn fields(&self) -> [u64; 12] {
        let mut c = *self;
        c.fields_mut().map(|f| *f)
    }

    fn fields_mut(&mut self) -> [&mut u64; 12] {
        [
            &mut self.epochs,
            &mut self.rounds,
            &mut self.matched,
            &mut self.mismatch,
            &mut self.skipped,
            &mut self.invalid,
            &mut self.unobserved,
            &mut self.commit_ok,
            &mut self.commit_mismatch,
            &mut self.commit_absent,
            &mut self.invalid_other,
            &mut self.gaps,
        ]
    }

    /// The verdict these counts give: invalid over mismatch over match over unobserved.
    pub fn verdict(&self) -> Verdict {
        if self.invalid > 0 || self.invalid_other > 0 {
            Verdict::Invalid
        } else if self.mismatch > 0 || self.commit_mismatch > 0 {
            Verdict::Mismatch
        } else if self.matched > 0 || self.commit_ok > 0 {
            Verdict::Match
        } else {
            Verdict::Unobserved
        }
    }
}
