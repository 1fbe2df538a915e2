//! Expectations: the known findings of third-party targets, so that CI
//! fails on a change, not on a known defect of someone else's code.
//!
//! A divergence in a package nobody here wrote is a finding, not a failure
//! of this project. Each known one is recorded in
//! `harness/expectations/TARGET.toml` (as WPT keeps expectation metadata):
//!
//! ```toml
//! target = "fast-sha256-utf8-1.0.0"
//!
//! [[finding]]
//! op = "shoe.stream"
//! group = "refuses a request provably answers (invalid)"
//! request = '{"op":"shoe.stream","serverSeed":"","clientSeed":"\uFEFF","nonce":0,"count":0}'
//! cause = "@stablelib/utf8 1.0.0 encode() throws on U+E000 … U+FFFF"
//!
//! [[fault]]            # a fault the target is known for, by kind
//! kind = "timeout"
//! cause = "…"
//! ```
//!
//! After a run, [`check`] holds the results to them, target by target:
//!
//! - every finding of the run must match an expectation of its target, op
//!   and one of its symptom classes (a finding is one bug, which may show
//!   in several; the example the run shrank may differ from the recorded
//!   request);
//! - every expectation must still happen: its request is asked again
//!   ([`replay`]) and must still diverge with the recorded group. The
//!   request is the minimal reproduction, checked whatever the run's cases
//!   were, so a `--vectors-only` run holds every recorded finding too;
//! - every fault must match a `[[fault]]` of its kind, and every recorded
//!   fault must occur.
//!
//! Expectations of targets that were not run are not checked. Anything
//! else is a [`Change`], named with its target, op and request.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::cases::Ask;
use super::compare::same_reply;
use super::driver::Driver;
use super::manifest::Manifest;
use super::report::{Change, FaultExpectation, Finding as Found, Replayed, TargetReport};
use crate::op::Request;
use crate::protocol::Reply;

/// One expectation file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    target: String,
    #[serde(default, rename = "finding")]
    findings: Vec<Finding>,
    #[serde(default, rename = "fault")]
    faults: Vec<FaultExpectation>,
}

/// A known divergence: the target answers `request` differently, for `cause`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Finding {
    /// The op whose answer differs (`cursor.int`).
    pub op: String,
    /// The group the harness puts it in (the first step where the two sides part).
    pub group: String,
    /// A minimal request that shows it, as JSON text without id.
    pub request: String,
    /// Why, in one line.
    pub cause: String,
}

/// The expectations of one target.
#[derive(Debug, Clone, Default)]
pub struct TargetExpectations {
    /// The known divergences, one per `[[finding]]`.
    pub findings: Vec<Finding>,
    /// The known fault kinds, one per `[[fault]]`.
    pub faults: Vec<FaultExpectation>,
    /// The file they come from, for messages.
    pub path: PathBuf,
}

/// Every expectation, by target.
#[derive(Debug, Clone, Default)]
pub struct Expectations {
    /// Each target's expectations, by the target's name.
    pub targets: BTreeMap<String, TargetExpectations>,
    /// The folder they were read from.
    pub dir: PathBuf,
}

/// Why the expectations could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExpectError {
    /// Occurs when the folder or a file cannot be read.
    #[error("cannot read expectations {path}: {source}")]
    Read {
        /// The folder or file that could not be read.
        path: String,
        /// Why the OS refused.
        source: std::io::Error,
    },
    /// Occurs when a file is not valid TOML, lacks a key, or holds a request that is not one.
    #[error("expectations {path} are malformed: {message}")]
    Parse {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

impl Expectations {
    /// Reads every `*.toml` in `dir`; one file per target.
    pub fn load(dir: &Path) -> Result<Expectations, ExpectError> {
        let read_err = |source| ExpectError::Read {
            path: dir.display().to_string(),
            source,
        };
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(read_err)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        paths.sort();
        let mut out = Expectations {
            targets: BTreeMap::new(),
            dir: dir.to_path_buf(),
        };
        for path in paths {
            let text = std::fs::read_to_string(&path).map_err(|source| ExpectError::Read {
                path: path.display().to_string(),
                source,
            })?;
            let (target, expectations) = parse(&text, &path)?;
            if out.targets.contains_key(&target) {
                return Err(ExpectError::Parse {
                    path: path.display().to_string(),
                    message: format!("target {target:?} has expectations in another file too"),
                });
            }
            out.targets.insert(target, expectations);
        }
        Ok(out)
    }

    /// The expectations of `target`; none, with the file they would go in, if it has no file.
    pub fn of(&self, target: &str) -> TargetExpectations {
        self.targets.get(target).cloned().unwrap_or_else(|| TargetExpectations {
            path: self.dir.join(format!("{target}.toml")),
            ..TargetExpectations::default()
        })
    }
}

/// Parses one file: every request must be a valid request of its op.
fn parse(text: &str, path: &Path) -> Result<(String, TargetExpectations), ExpectError> {
    let bad = |message: String| ExpectError::Parse {
        path: path.display().to_string(),
        message,
    };
    let file: File = toml::from_str(text).map_err(|e| bad(e.to_string()))?;
    for f in &file.findings {
        let request = request_of(f).map_err(bad)?;
        if request.op() != f.op {
            return Err(bad(format!("the request of a {} finding asks {}", f.op, request.op())));
        }
    }
    Ok((
        file.target,
        TargetExpectations {
            findings: file.findings,
            faults: file.faults,
            path: path.to_path_buf(),
        },
    ))
}

/// The recorded request, parsed and validated.
fn request_of(f: &Finding) -> Result<Request, String> {
    let value: serde_json::Value =
        serde_json::from_str(&f.request).map_err(|e| format!("request {:?} is not JSON: {e}", f.request))?;
    crate::registry::parse(&value).map_err(|e| format!("request {:?} is not a valid request: {e}", f.request))
}

/// The group of a divergence of `request`, or `None` when the two agree:
/// [`super::cause::decide`], asking lower ops through `probe`.
pub(crate) fn group_of(
    request: &Request,
    want: &Reply,
    got: &Reply,
    probe: &mut super::cause::Probe<'_>,
) -> Option<String> {
    if same_reply(want, got) {
        return None;
    }
    Some(super::cause::decide(&Ask::Request(request.clone()), want, got, probe).group)
}

/// Asks one fresh copy of the target each recorded request of `expected`
/// (with the driver the run uses, lower ops and all) and says whether it
/// still diverges as recorded. A fault while asking makes every
/// expectation not asked yet fail, with the fault as the reason.
pub fn replay(manifest: &Manifest, expected: &TargetExpectations) -> Vec<Replayed> {
    if expected.findings.is_empty() {
        return Vec::new();
    }
    let mut driver = Driver::new(super::targets::open(manifest.clone()));
    let started = driver.handshake().is_some();
    let out = expected
        .findings
        .iter()
        .map(|f| {
            let r = request_of(f).expect("checked when loaded");
            let want = Reply::from_result(r.run_value());
            let got = if started { driver.ask_one(&r) } else { None };
            let (holds, now) = match got {
                None => (
                    false,
                    format!("the target faulted when asked again: {}", last_fault(&driver)),
                ),
                Some(got) => match group_of(&r, &want, &got, &mut |lower| driver.probe(lower)) {
                    None => (false, "the target agrees with provably".to_string()),
                    Some(g) if g == f.group => (true, format!("still diverges: {g}")),
                    Some(g) => (
                        false,
                        format!("diverges for another cause: {}", crate::base::text::escape_str(&g)),
                    ),
                },
            };
            Replayed {
                op: f.op.clone(),
                group: f.group.clone(),
                request: f.request.clone(),
                cause: f.cause.clone(),
                holds,
                now,
            }
        })
        .collect();
    // A fault at the end (an exit status) is the run's to report, not the replay's.
    if driver.alive {
        let _ = driver.target.finish();
    }
    out
}

fn last_fault(driver: &Driver) -> String {
    driver
        .faults
        .last()
        .map_or_else(|| "no answer".to_string(), ToString::to_string)
}

/// Holds one target's report to its expectations; `replayed` is [`replay`]'s answer.
pub fn check(report: &TargetReport, expected: &TargetExpectations, replayed: &[Replayed]) -> Vec<Change> {
    let file = expected.path.display().to_string();
    let mut changes = Vec::new();
    for o in &report.ops {
        for d in &o.findings {
            // A finding is one bug: recorded when any of its symptom classes is.
            let known = d
                .symptoms
                .iter()
                .any(|s| expected.findings.iter().any(|e| e.op == o.op && e.group == s.group));
            if !known {
                changes.push(Change::NewFinding {
                    target: report.target.clone(),
                    op: o.op.clone(),
                    group: d.group.clone(),
                    count: d.count,
                    request: d.request.clone(),
                    file: file.clone(),
                });
            }
        }
    }
    for r in replayed.iter().filter(|r| !r.holds) {
        changes.push(Change::Gone {
            target: report.target.clone(),
            op: r.op.clone(),
            group: r.group.clone(),
            request: r.request.clone(),
            now: r.now.clone(),
            cause: r.cause.clone(),
            file: file.clone(),
        });
    }
    for f in &report.faults {
        if !expected.faults.iter().any(|e| e.kind == f.kind.name()) {
            changes.push(Change::NewFault {
                target: report.target.clone(),
                kind: f.kind.name().to_string(),
                detail: f.detail.clone(),
                request: f.request.clone().unwrap_or_else(|| "(none)".into()),
                file: file.clone(),
            });
        }
    }
    for e in &expected.faults {
        if !report.faults.iter().any(|f| f.kind.name() == e.kind) {
            changes.push(Change::GoneFault {
                target: report.target.clone(),
                kind: e.kind.clone(),
                cause: e.cause.clone(),
                file: file.clone(),
            });
        }
    }
    changes
}

/// The recorded cause of a finding of the run, if an expectation covers
/// one of its symptom classes.
pub fn cause_of<'a>(expected: &'a TargetExpectations, op: &str, found: &Found) -> Option<&'a Finding> {
    found
        .symptoms
        .iter()
        .find_map(|s| expected.findings.iter().find(|e| e.op == op && e.group == s.group))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::report::{Cause, OpReport, Separates, Symptom};
    use crate::harness::{Fault, FaultKind};

    const FILE: &str = r#"target = "t"

[[finding]]
op = "cursor.hash"
group = "hash differs"
request = '{"op":"cursor.hash","serverSeed":""}'
cause = "empty seeds are replaced"

[[fault]]
kind = "timeout"
cause = "slow"
"#;

    fn expected() -> TargetExpectations {
        parse(FILE, Path::new("t.toml")).unwrap().1
    }

    fn report(group: &str, faults: Vec<Fault>) -> TargetReport {
        let finding = Found {
            op: "cursor.hash".into(),
            headline: group.into(),
            symptoms: vec![Symptom {
                group: group.into(),
                count: 2,
            }],
            separates: Separates::default(),
            known: None,
            unknown: String::new(),
            group: group.into(),
            count: 2,
            origin: "property case 0".into(),
            found: String::new(),
            request: r#"{"op":"cursor.hash","serverSeed":""}"#.into(),
            shrink_steps: 0,
            expected: String::new(),
            got: String::new(),
            diff: String::new(),
            parted: String::new(),
            cause: Cause::Mapping,
            hmac: None,
            recorded: None,
            reading: None,
        };
        TargetReport {
            target: "t".into(),
            hello: None,
            instances: 1,
            ops: vec![OpReport {
                op: "cursor.hash".into(),
                claimed: true,
                cases: 9,
                diverge: 2,
                findings: vec![finding],
                ..OpReport::default()
            }],
            faults,
            seconds: 0.0,
            known_bug_seconds: 0.0,
            manifest: None,
            expectations: None,
        }
    }

    fn held(replayed_holds: bool) -> Vec<Replayed> {
        let f = &expected().findings[0];
        vec![Replayed {
            op: f.op.clone(),
            group: f.group.clone(),
            request: f.request.clone(),
            cause: f.cause.clone(),
            holds: replayed_holds,
            now: if replayed_holds {
                "still diverges"
            } else {
                "the target agrees with provably"
            }
            .into(),
        }]
    }

    #[test]
    fn recorded_group_and_fault_that_still_happen_change_nothing() {
        let r = report("hash differs", vec![Fault::new(FaultKind::Timeout, "no answer")]);
        assert_eq!(check(&r, &expected(), &held(true)), vec![]);
    }

    #[test]
    fn an_unrecorded_group_is_new_and_names_target_op_and_request() {
        let r = report(
            "refuses a request provably answers (invalid)",
            vec![Fault::new(FaultKind::Timeout, "x")],
        );
        let changes = check(&r, &expected(), &held(true));
        assert_eq!(changes.len(), 1, "{changes:?}");
        let text = changes[0].to_string();
        assert!(text.starts_with("NEW divergence in t cursor.hash: refuses"), "{text}");
        assert!(
            text.contains(r#"request: {"op":"cursor.hash","serverSeed":""}"#),
            "{text}"
        );
    }

    #[test]
    fn a_recorded_finding_that_no_longer_reproduces_and_a_missing_fault_are_gone() {
        let r = report("hash differs", vec![]);
        let changes = check(&r, &expected(), &held(false));
        let text: Vec<String> = changes.iter().map(ToString::to_string).collect();
        assert_eq!(text.len(), 2, "{text:?}");
        assert!(
            text[0].starts_with("GONE: t cursor.hash no longer diverges as recorded"),
            "{}",
            text[0]
        );
        assert!(
            text[1].starts_with("GONE: t no longer has the recorded timeout fault"),
            "{}",
            text[1]
        );
    }

    #[test]
    fn an_unrecorded_fault_is_new() {
        let r = report(
            "hash differs",
            vec![
                Fault::new(FaultKind::Timeout, "x"),
                Fault::new(FaultKind::Crash, "died"),
            ],
        );
        let changes = check(&r, &expected(), &held(true));
        assert!(
            matches!(&changes[..], [Change::NewFault { kind, .. }] if kind == "crash"),
            "{changes:?}"
        );
    }

    #[test]
    fn a_request_that_is_not_a_valid_request_of_its_op_is_refused() {
        let bad = FILE.replace(r#""serverSeed":"""#, r#""serverSeed":1"#);
        let e = parse(&bad, Path::new("t.toml")).unwrap_err().to_string();
        assert!(e.contains("t.toml") && e.contains("not a valid request"), "{e}");
        let other = FILE.replace(r#"op = "cursor.hash""#, r#"op = "cursor.raw""#);
        let e = parse(&other, Path::new("t.toml")).unwrap_err().to_string();
        assert!(
            e.contains("the request of a cursor.raw finding asks cursor.hash"),
            "{e}"
        );
        let typo = FILE.replace("cause = \"slow\"", "cause = \"slow\"\ncuase = 1");
        assert!(parse(&typo, Path::new("t.toml")).is_err(), "unknown keys are errors");
    }
}
