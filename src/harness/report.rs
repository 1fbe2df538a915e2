//! The report of a `provably diff` run, typed: what `diff --report`
//! writes, what `provably report` (the HTML page) and the expectations read.
//!
//! The file carries [`VERSION`]; its JSON Schema is [`schema`], committed
//! as harness/report.schema.json (written by `provably vectors`, as the
//! other schemas are). Every text in it that a target controls was escaped
//! with [`crate::base::text`] when the report was made.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::Fault;
use crate::op::Step;

/// The version of the report's form; a reader refuses another.
pub const VERSION: u32 = 2;

/// One run: its settings and every target's report.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Run {
    /// The report form's version, [`VERSION`].
    pub version: u32,
    /// The seed the generated cases were drawn with (`--seed`); the same seed asks the same cases.
    pub seed: u64,
    /// Generated cases per op (`--cases`; `--cases-for` overrides for single ops are not recorded here).
    pub cases: u64,
    /// Whether only the canonical vectors were replayed (`--vectors-only`), no generated cases.
    pub vectors_only: bool,
    /// Copies of each target run side by side (`--jobs`, by default one per core).
    pub jobs: usize,
    /// The ops `--op` restricted the run to (empty: every op).
    #[serde(default)]
    pub only_ops: Vec<String>,
    /// The most memory the `provably diff` process held during the run, in KiB (Linux `VmHWM`); `None` where the OS does not say.
    #[serde(default, rename = "peakRssKiB")]
    pub peak_rss_kib: Option<u64>,
    /// One report per target, in the order the targets were run.
    pub targets: Vec<TargetReport>,
}

/// Everything about one target's run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetReport {
    /// The target's name as the manifest (or `--target-cmd`) gives it, escaped.
    pub target: String,
    #[serde(default)]
    pub(crate) hello: Option<String>,
    /// Copies of the target that shared the cases.
    pub(crate) instances: usize,
    /// One report per op of the table that the run asks (every op, or those `--op` names), claimed or not, in the table's order.
    pub ops: Vec<OpReport>,
    /// The faults of every copy of the target (a failed start told once).
    #[serde(default)]
    pub faults: Vec<Fault>,
    pub(crate) seconds: f64,
    /// Of `seconds`, the time spent asking the catalog of known bugs.
    #[serde(default)]
    pub(crate) known_bug_seconds: f64,
    /// What its manifest says it is (the page shows packages and licences).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<ManifestInfo>,
    /// The recorded expectations, as asked again (with `--expectations`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expectations: Option<ExpectationsInfo>,
}

impl TargetReport {
    /// How many of the ops asked the target claims in hello.
    pub fn claimed_ops(&self) -> usize {
        self.ops.iter().filter(|o| o.claimed).count()
    }
    /// The sum of `f` over the target's op reports: `total(|o| o.cases)` is every case asked.
    pub fn total(&self, f: impl Fn(&OpReport) -> u64) -> u64 {
        self.ops.iter().map(f).sum()
    }
    /// Whether any case of any op diverged.
    pub fn diverged(&self) -> bool {
        self.total(|o| o.diverge) > 0
    }
    /// Cases the target answered and that were compared.
    pub fn compared(&self) -> u64 {
        self.total(|o| o.agree + o.diverge)
    }
}

/// Counts and findings for one op.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpReport {
    /// The op's protocol v1 name (`cursor.int`).
    pub op: String,
    /// Claimed in hello (and asked: not left out by `--op`).
    pub claimed: bool,
    /// Cases asked.
    pub cases: u64,
    /// Cases the target answered as provably does.
    pub agree: u64,
    /// Cases that diverge, in all findings.
    pub diverge: u64,
    /// Cases asked and not compared: declined by the target (see
    /// `declined`), refused by a published program, or not asked again
    /// after the target was given up on. An op that is not claimed has none.
    pub skipped: u64,
    /// Declined cases by the reason the target gave.
    #[serde(default)]
    pub declined: BTreeMap<String, u64>,
    /// Cases lost to a fault.
    pub faults: u64,
    /// Divergences grouped by cause.
    #[serde(default)]
    pub findings: Vec<Finding>,
}

/// What a divergence is (see [`super::cause`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// The HMAC input differs: the key or the message.
    Input,
    /// The bytes agree; the draw or the mapping differs.
    Mapping,
    /// The answer's form differs: a field, a number's form, an error kind.
    Form,
    /// Not localised: the target claims no lower op to tell bytes from mapping.
    Unlocalised,
}

impl Cause {
    /// The cause in words, for people.
    pub(crate) fn words(self) -> &'static str {
        match self {
            Cause::Input => "the HMAC input differs",
            Cause::Mapping => "the bytes agree, the draw or mapping differs",
            Cause::Form => "the answer's form differs",
            Cause::Unlocalised => "not localised (the target claims no lower op)",
        }
    }
}

/// The HMAC of the step where two sides part, as provably forms it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Hmac {
    /// The key as text (escaped), and its UTF-8 bytes in hex.
    pub(crate) key: String,
    pub(crate) key_hex: String,
    /// The message as text (escaped), and its UTF-8 bytes in hex.
    pub(crate) message: String,
    pub(crate) message_hex: String,
}

impl Hmac {
    pub(crate) fn of(step: &Step) -> Hmac {
        let quoted = |s: &str| crate::base::text::json(&Value::from(s).to_string());
        Hmac {
            key: quoted(&step.key),
            key_hex: crate::base::crypto::hex(step.key.as_bytes()),
            message: quoted(&step.message),
            message_hex: crate::base::crypto::hex(step.message.as_bytes()),
        }
    }
}

/// One symptom class of a finding: the first step where the two sides
/// part, as the op's explainer names it, and how many cases show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Symptom {
    pub group: String,
    pub(crate) count: u64,
}

/// What separates a finding's diverging cases from the op's agreeing ones
/// (see `super::separate`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Separates {
    /// The whole statement for people, or "no simple property found".
    pub text: String,
    /// The request field the property tests, if one was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The property in words (`` `nonce` ≥ 10^15 ``).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) property: Option<String>,
    /// The finding's diverging cases, and of them those with the property.
    pub(crate) diverging: u64,
    pub(crate) diverging_with: u64,
    /// The op's agreeing cases, and of them those with the property.
    pub(crate) agreeing: u64,
    pub(crate) agreeing_with: u64,
    /// The targeted cases asked to confirm it (0: not confirmed).
    pub(crate) confirmed_by: u64,
}

/// The known bug of the catalog (harness/bugs/) whose answers the target's equal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Known {
    pub name: String,
    pub(crate) description: String,
    pub(crate) category: String,
    /// Diverging cases replayed (the target's answer reproduced on each).
    pub(crate) diverging: u64,
    /// Agreeing cases replayed (provably's answer on each).
    pub(crate) agreeing: u64,
    /// Other known bugs that answer the same on every case tried.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) also: Vec<String>,
}

/// One finding: one bug of one op, the divergences it explains, its example.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finding {
    /// The op the finding belongs to.
    pub op: String,
    /// The bug, as people read it first: the known bug it answers as, or
    /// its cause and what separates its cases, or its symptom.
    pub(crate) headline: String,
    /// The largest symptom class (what the expectations record).
    pub group: String,
    /// Every symptom class the finding holds, largest first.
    pub(crate) symptoms: Vec<Symptom>,
    /// What kind of difference it is, decided on the minimal request.
    pub cause: Cause,
    /// What separates the diverging cases from the agreeing ones.
    pub(crate) separates: Separates,
    /// The known bug it answers as, if one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) known: Option<Known>,
    /// Why no known bug is named: none answers so, or the catalog was not asked.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) unknown: String,
    /// How many cases diverge this way.
    pub(crate) count: u64,
    /// Where the example comes from (the group's first case).
    pub(crate) origin: String,
    /// The example as first found.
    pub(crate) found: String,
    /// The smallest request that still diverges the same way; everything
    /// below is computed on it.
    pub request: String,
    pub(crate) shrink_steps: usize,
    pub(crate) expected: String,
    pub(crate) got: String,
    /// Unified diff, provably on the `-` side, the target on the `+` side.
    pub(crate) diff: String,
    /// The first step where the two sides part, with both sides' values.
    pub(crate) parted: String,
    /// The HMAC of that step, for ops built on one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hmac: Option<Hmac>,
    /// The cause recorded in the expectations, if they cover the finding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded: Option<String>,
    /// The published non-canonical reading the target's answers follow, as
    /// "name (source)", where they equal one (`crate::op::reading`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
}

/// A target's manifest, as the report shows it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestInfo {
    /// The target's name.
    pub name: String,
    #[serde(default)]
    pub(crate) description: String,
    #[serde(default)]
    pub(crate) origin: String,
    /// What the target is made of: packages, licences, where the scheme logic comes from.
    #[serde(default)]
    pub provenance: super::manifest::Provenance,
}

impl ManifestInfo {
    /// The parts of `m` a report shows.
    pub fn of(m: &super::manifest::Manifest) -> ManifestInfo {
        ManifestInfo {
            name: m.name.clone(),
            description: m.description.clone(),
            origin: m.origin.clone(),
            provenance: m.provenance.clone(),
        }
    }
}

/// The recorded expectations of a target, as asked again after the run.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectationsInfo {
    /// The expectation file of the target (which may not exist yet: then it is where they would go).
    pub file: String,
    /// Every recorded finding's request, as asked again.
    #[serde(default)]
    pub replayed: Vec<Replayed>,
    /// The fault kinds the file records.
    #[serde(default)]
    pub faults: Vec<FaultExpectation>,
    /// Every way the results differ from the file; empty when they are as recorded.
    #[serde(default)]
    pub changes: Vec<Change>,
}

/// A known fault, by kind.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FaultExpectation {
    /// The fault kind's name (`timeout`, `crash`: [`super::FaultKind::name`]).
    pub kind: String,
    /// Why the target has this fault, in one line.
    pub(crate) cause: String,
}

/// A result that differs from the expectations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "kebab-case")]
pub enum Change {
    /// A group of divergences no expectation records.
    NewFinding {
        /// The target's name.
        target: String,
        /// The op that diverged.
        op: String,
        /// The finding's largest symptom class.
        group: String,
        /// How many cases diverge this way.
        count: u64,
        /// The finding's smallest diverging request.
        request: String,
        /// The expectation file the finding should be recorded in.
        file: String,
    },
    /// A recorded finding whose request no longer diverges that way.
    Gone {
        /// The target's name.
        target: String,
        /// The op of the recorded finding.
        op: String,
        /// The symptom class recorded.
        group: String,
        /// The recorded request, as asked again.
        request: String,
        /// What that request does now, in words.
        now: String,
        /// The recorded cause.
        cause: String,
        /// The expectation file that records it.
        file: String,
    },
    /// A fault of a kind no expectation records.
    NewFault {
        /// The target's name.
        target: String,
        /// The fault kind's name.
        kind: String,
        /// The fault's detail.
        detail: String,
        /// The request in turn when the fault happened, or `(none)`.
        request: String,
        /// The expectation file it should be recorded in.
        file: String,
    },
    /// A recorded fault kind that did not occur.
    GoneFault {
        /// The target's name.
        target: String,
        /// The fault kind's name.
        kind: String,
        /// The recorded cause.
        cause: String,
        /// The expectation file that records it.
        file: String,
    },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::NewFinding { target, op, group, count, request, file } => write!(
                f,
                "NEW divergence in {target} {op}: {group} ({count} cases)\n  request: {request}\n  not recorded in {file}: record it there with its cause, or fix what changed"
            ),
            Change::Gone { target, op, group, request, now, cause, file } => write!(
                f,
                "GONE: {target} {op} no longer diverges as recorded ({group})\n  request: {request}\n  now:     {now}\n  recorded cause: {cause}\n  remove it from {file}, or find out why it changed"
            ),
            Change::NewFault { target, kind, detail, request, file } => write!(
                f,
                "NEW fault in {target}: {kind}: {detail}\n  request: {request}\n  not recorded in {file}"
            ),
            Change::GoneFault { target, kind, cause, file } => write!(
                f,
                "GONE: {target} no longer has the recorded {kind} fault\n  recorded cause: {cause}\n  remove it from {file}"
            ),
        }
    }
}

/// What an expectation's request did when asked again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replayed {
    /// The op of the recorded finding.
    pub op: String,
    /// The symptom class recorded.
    pub group: String,
    /// The recorded request (JSON text without id).
    pub request: String,
    /// The cause recorded.
    pub(crate) cause: String,
    /// Whether it still diverges with the recorded group.
    pub(crate) holds: bool,
    /// What happened, in words.
    pub(crate) now: String,
}

/// Why a report file cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Occurs when the file is not a report of this form.
    #[error("not a provably diff report: {0}")]
    Form(String),
    /// Occurs when the report has another version.
    #[error("a diff report of version {0}; this build reads version {VERSION}")]
    Version(u64),
}

/// Reads a report file's text, checking its version first.
pub fn read(text: &str) -> Result<Run, ReadError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ReadError::Form(e.to_string()))?;
    match value.get("version").and_then(Value::as_u64) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => return Err(ReadError::Version(v)),
        None => return Err(ReadError::Form("it has no version".into())),
    }
    serde_json::from_value(value).map_err(|e| ReadError::Form(e.to_string()))
}

#[allow(clippy::needless_pass_by_value, reason = "every caller writes its json! in place")]
fn object(required: &[&str], props: Value) -> Value {
    json!({ "type": "object", "required": required, "properties": props, "additionalProperties": false })
}

/// The schema of one finding.
fn finding_schema() -> Value {
    let string = json!({ "type": "string" });
    let count = json!({ "type": "integer", "minimum": 0 });
    let strings = json!({ "type": "array", "items": string });
    let separates = object(
        &[
            "text",
            "diverging",
            "divergingWith",
            "agreeing",
            "agreeingWith",
            "confirmedBy",
        ],
        json!({
            "text": string, "field": string, "property": string, "diverging": count, "divergingWith": count,
            "agreeing": count, "agreeingWith": count, "confirmedBy": count,
        }),
    );
    let known = object(
        &["name", "description", "category", "diverging", "agreeing"],
        json!({
            "name": string, "description": string, "category": string, "diverging": count, "agreeing": count,
            "also": strings,
        }),
    );
    let symptom = object(&["group", "count"], json!({ "group": string, "count": count }));
    object(
        &[
            "op",
            "headline",
            "group",
            "symptoms",
            "separates",
            "cause",
            "count",
            "origin",
            "found",
            "request",
            "shrink_steps",
            "expected",
            "got",
            "diff",
            "parted",
        ],
        json!({
            "op": string, "headline": string, "group": string,
            "symptoms": { "type": "array", "minItems": 1, "items": symptom },
            "separates": separates, "known": known, "unknown": string,
            "cause": { "enum": ["input", "mapping", "form", "unlocalised"] },
            "count": count, "origin": string, "found": string, "request": string,
            "shrink_steps": count, "expected": string, "got": string, "diff": string, "parted": string,
            "hmac": object(&["key", "keyHex", "message", "messageHex"], json!({
                "key": string, "keyHex": { "type": "string", "pattern": "^([0-9a-f]{2})*$" },
                "message": string, "messageHex": { "type": "string", "pattern": "^([0-9a-f]{2})*$" }
            })),
            "recorded": string,
            "reading": string,
        }),
    )
}

/// harness/report.schema.json: the JSON Schema of a report file.
pub fn schema() -> Value {
    let string = json!({ "type": "string" });
    let count = json!({ "type": "integer", "minimum": 0 });
    let strings = json!({ "type": "array", "items": string });
    let finding = finding_schema();
    let op = object(
        &["op", "claimed", "cases", "agree", "diverge", "skipped", "faults"],
        json!({
            "op": string, "claimed": { "type": "boolean" }, "cases": count, "agree": count,
            "diverge": count, "skipped": count, "faults": count,
            "declined": { "type": "object", "additionalProperties": count },
            "findings": { "type": "array", "items": { "$ref": "#/$defs/finding" } },
        }),
    );
    let fault = object(
        &["kind", "detail"],
        json!({
            "kind": string, "detail": string, "request": string, "received": string,
            "exit_status": string, "stderr_tail": string,
        }),
    );
    let target = object(
        &["target", "instances", "ops", "seconds"],
        json!({
            "target": string, "hello": { "type": ["string", "null"] }, "instances": count,
            "ops": { "type": "array", "items": { "$ref": "#/$defs/op" } },
            "faults": { "type": "array", "items": { "$ref": "#/$defs/fault" } },
            "seconds": { "type": "number", "minimum": 0 },
            "known_bug_seconds": { "type": "number", "minimum": 0 },
            "manifest": { "type": "object" },
            "expectations": { "type": "object" },
        }),
    );
    let mut run = object(
        &["version", "seed", "cases", "vectorsOnly", "jobs", "targets"],
        json!({
            "version": { "const": VERSION }, "seed": count, "cases": count,
            "vectorsOnly": { "type": "boolean" }, "jobs": count, "onlyOps": strings,
            "peakRssKiB": { "type": ["integer", "null"], "minimum": 0 },
            "targets": { "type": "array", "items": { "$ref": "#/$defs/target" } },
        }),
    );
    run["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    run["title"] = json!("provably diff report");
    run["$defs"] = json!({ "finding": finding, "op": op, "fault": fault, "target": target });
    run
}
