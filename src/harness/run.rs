//! Running one target: vectors and property cases for each op it claims,
//! divergences shrunk, faults kept apart.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::cases::{self, Case, Origin};
use super::compare::{pretty, same_reply};
use super::{explain, Fault, FaultKind, Target};
use crate::op::Request;
use crate::protocol::Reply;
use crate::report::unified_diff;

/// How much to ask.
#[derive(Debug, Clone)]
pub struct Options {
    /// Property-generated cases per op.
    pub cases: u64,
    /// Per-op overrides of `cases`.
    pub cases_for: BTreeMap<String, u64>,
    /// Seed of the property cases.
    pub seed: u64,
    pub vectors_only: bool,
    /// Most target calls spent shrinking one divergence.
    pub shrink_budget: usize,
    /// Most divergences kept in full per op (all are counted).
    pub keep: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cases: 200,
            cases_for: BTreeMap::new(),
            seed: 0,
            vectors_only: false,
            shrink_budget: 2000,
            keep: 1,
        }
    }
}

impl Options {
    fn cases_for(&self, op: &str) -> u64 {
        if self.vectors_only {
            0
        } else {
            self.cases_for.get(op).copied().unwrap_or(self.cases)
        }
    }
}

/// One disagreement, shrunk.
#[derive(Debug, Clone, Serialize)]
pub struct Divergence {
    pub op: String,
    pub origin: String,
    /// The request as first found.
    pub found: serde_json::Value,
    /// The smallest request that still diverges.
    pub request: serde_json::Value,
    pub shrink_steps: usize,
    pub expected: String,
    pub got: String,
    /// Unified diff, provably on the `-` side, the target on the `+` side.
    pub diff: String,
    /// The first step where the two sides part.
    pub parted: String,
}

/// Counts for one op.
#[derive(Debug, Clone, Default, Serialize)]
pub struct OpReport {
    pub op: String,
    pub claimed: bool,
    pub cases: u64,
    pub agree: u64,
    pub diverge: u64,
    /// Cases not run: the op was not claimed, or the target was given up on.
    pub skipped: u64,
    /// Cases lost to a fault.
    pub faults: u64,
    pub divergences: Vec<Divergence>,
}

/// Everything about one target's run.
#[derive(Debug, Clone, Serialize)]
pub struct TargetReport {
    pub target: String,
    pub hello: Option<String>,
    pub ops: Vec<OpReport>,
    pub faults: Vec<Fault>,
    pub seconds: f64,
}

impl TargetReport {
    pub fn claimed_ops(&self) -> usize {
        self.ops.iter().filter(|o| o.claimed).count()
    }
    pub fn total(&self, f: impl Fn(&OpReport) -> u64) -> u64 {
        self.ops.iter().map(f).sum()
    }
    pub fn diverged(&self) -> bool {
        self.total(|o| o.diverge) > 0
    }
}

fn expected(request: &Request) -> Reply {
    Reply::from_result(request.run_value())
}

/// One target, driven with at most one restart after a fault.
struct Driver<'a> {
    target: &'a mut dyn Target,
    restarts_left: u32,
    alive: bool,
    faults: Vec<Fault>,
}

impl Driver<'_> {
    /// Records a fault and restarts once; returns whether the target is usable.
    fn fault(&mut self, f: Fault) -> bool {
        self.faults.push(f);
        self.alive = false;
        if self.restarts_left == 0 {
            return false;
        }
        self.restarts_left -= 1;
        match self.target.start() {
            Ok(_) => {
                self.alive = true;
                true
            }
            Err(f) => {
                self.faults.push(f);
                false
            }
        }
    }

    /// Asks one request alone (for shrinking); `None` on a fault.
    fn ask_one(&mut self, request: &Request) -> Option<Reply> {
        if !self.alive {
            return None;
        }
        let (mut replies, fault) = self.target.call(std::slice::from_ref(request));
        if let Some(f) = fault {
            self.fault(f);
            return None;
        }
        replies.pop()
    }
}

/// Whether two replies are both `ok`, or both errors of one kind.
fn same_shape(a: &Reply, b: &Reply) -> bool {
    match (a, b) {
        (Reply::Ok(_), Reply::Ok(_)) => true,
        (Reply::Error { kind: x, .. }, Reply::Error { kind: y, .. }) => x == y,
        _ => false,
    }
}

/// Shrinks a diverging request greedily: take the first simpler candidate
/// that still diverges, until none does or the budget is spent.
fn shrink(driver: &mut Driver, found: &Request, budget: usize) -> (Request, Reply, Reply, usize) {
    let mut best = found.clone();
    let mut best_want = expected(&best);
    let mut best_got = match driver.ask_one(&best) {
        Some(got) => got,
        None => {
            return (
                best,
                best_want.clone(),
                Reply::Error {
                    kind: "fault".into(),
                    message: "the target faulted when asked again".into(),
                },
                0,
            )
        }
    };
    let (mut steps, mut calls) = (0, 0);
    let deadline = Instant::now() + Duration::from_secs(60);
    'outer: loop {
        for candidate in super::shrink::candidates(&best) {
            if calls >= budget || Instant::now() > deadline {
                break 'outer;
            }
            let want = expected(&candidate);
            // Only requests provably answers count: shrinking must not
            // wander into inputs that are invalid.
            if !matches!(want, Reply::Ok(_)) {
                continue;
            }
            calls += 1;
            match driver.ask_one(&candidate) {
                // It must still diverge the same way (an ok still an ok, an
                // error still that error), or the shrink slips onto another bug.
                Some(got) if !same_reply(&want, &got) && same_shape(&best_got, &got) => {
                    (best, best_want, best_got) = (candidate, want, got);
                    steps += 1;
                    continue 'outer;
                }
                Some(_) => {}
                None => break 'outer,
            }
        }
        break;
    }
    (best, best_want, best_got, steps)
}

fn divergence(
    op: &str,
    origin: &Origin,
    found: &Request,
    shrunk: (Request, Reply, Reply, usize),
    target: &str,
) -> Divergence {
    let (request, want, got, steps) = shrunk;
    Divergence {
        op: op.to_string(),
        origin: origin.to_string(),
        found: found.to_value(),
        request: request.to_value(),
        shrink_steps: steps,
        expected: pretty(&want),
        got: pretty(&got),
        diff: unified_diff(
            &pretty(&want),
            &pretty(&got),
            "provably (Rust)",
            &format!("target {target}"),
        ),
        parted: explain::parted(&request, &want, &got),
    }
}

/// Starts the target (restarting once after a fault) and returns its hello.
fn handshake(driver: &mut Driver) -> Option<super::Hello> {
    for attempt in 0..2 {
        match driver.target.start() {
            Ok(h) => {
                driver.alive = true;
                return Some(h);
            }
            Err(f) => driver.faults.push(f),
        }
        if attempt == 0 {
            driver.restarts_left = 0;
        }
    }
    None
}

/// Sends one op's cases in batches and counts the answers; returns the
/// indices of the divergences kept in full.
fn ask_all(
    driver: &mut Driver,
    rep: &mut OpReport,
    cases: &[Case],
    wants: &[Reply],
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Vec<usize> {
    // Kept in full: the first few generated divergences (they shrink)
    // and the first few vector divergences (they are canonical as they are).
    let (mut kept_generated, mut kept_vectors): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut pos = 0;
    let mut unsupported_reported = false;
    while pos < cases.len() {
        if !driver.alive {
            rep.skipped += (cases.len() - pos) as u64;
            break;
        }
        let end = (pos + driver.target.batch_size()).min(cases.len());
        let requests: Vec<Request> = cases[pos..end].iter().map(|c| c.request.clone()).collect();
        let (replies, fault) = driver.target.call(&requests);
        for (k, got) in replies.iter().enumerate() {
            let i = pos + k;
            rep.cases += 1;
            if let Reply::Error { kind, message } = got {
                if kind == "unsupported" {
                    if !unsupported_reported {
                        let mut f = Fault::new(
                            FaultKind::ClaimedUnsupported,
                            format!("{} is claimed in hello but answered unsupported: {message}", rep.op),
                        );
                        f.request = Some(cases[i].request.to_value().to_string());
                        driver.faults.push(f);
                        unsupported_reported = true;
                    }
                    rep.faults += 1;
                    continue;
                }
            }
            if same_reply(&wants[i], got) {
                rep.agree += 1;
            } else {
                rep.diverge += 1;
                let kept = if matches!(cases[i].origin, Origin::Property { .. }) {
                    &mut kept_generated
                } else {
                    &mut kept_vectors
                };
                if kept.len() < opts.keep {
                    kept.push(i);
                }
            }
        }
        pos += replies.len();
        if let Some(f) = fault {
            // The case in turn is lost to the fault; go on after it.
            rep.cases += 1;
            rep.faults += 1;
            pos += 1;
            progress(&format!("{}: fault: {}", driver.target.name(), f.kind.name()));
            driver.fault(f);
        }
    }
    kept_generated.into_iter().chain(kept_vectors).collect()
}

/// Runs one op's vectors and generated cases against the target.
fn run_op(
    driver: &mut Driver,
    spec: &'static crate::op::OpSpec,
    claimed: bool,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> OpReport {
    let op = spec.name;
    let name = driver.target.name().to_string();
    let mut cases: Vec<Case> = cases::vectors_for(op);
    let generated = opts.cases_for(op);
    let mut rep = OpReport {
        op: op.to_string(),
        claimed,
        ..Default::default()
    };
    if !rep.claimed || !driver.alive {
        rep.skipped = cases.len() as u64 + generated;
        return rep;
    }
    progress(&format!(
        "{name}: {op}: {} vectors + {generated} generated cases",
        cases.len()
    ));
    cases.extend((0..generated).map(|i| cases::generated(opts.seed, spec, i)));
    let wants: Vec<Reply> = cases.iter().map(|c| expected(&c.request)).collect();
    let kept = ask_all(driver, &mut rep, &cases, &wants, opts, progress);
    // Re-ask each kept divergence to get the target's answer, then shrink generated ones.
    for i in kept {
        let c = &cases[i];
        let shrunk = match c.origin {
            Origin::Property { .. } if driver.alive => shrink(driver, &c.request, opts.shrink_budget),
            _ => {
                let got = driver.ask_one(&c.request).unwrap_or_else(|| Reply::Error {
                    kind: "fault".into(),
                    message: "the target faulted when asked again".into(),
                });
                (c.request.clone(), wants[i].clone(), got, 0)
            }
        };
        rep.divergences
            .push(divergence(op, &c.origin, &c.request, shrunk, &name));
    }
    rep
}

/// Runs every op against `target` and reports.
pub fn run_target(
    target: &mut dyn Target,
    required_ops: Option<&[String]>,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> TargetReport {
    let started = Instant::now();
    let name = target.name().to_string();
    let mut driver = Driver {
        target,
        restarts_left: 1,
        alive: false,
        faults: Vec::new(),
    };
    let hello = handshake(&mut driver);
    let claimed: Vec<String> = hello.as_ref().map(|h| h.ops.clone()).unwrap_or_default();
    if let (Some(required), Some(_)) = (required_ops, &hello) {
        let missing: Vec<&String> = required.iter().filter(|op| !claimed.contains(op)).collect();
        if !missing.is_empty() {
            driver.faults.push(Fault::new(
                FaultKind::MissingOp,
                format!("the manifest requires {missing:?}, which hello does not claim"),
            ));
        }
    }
    let reports = crate::op::ops()
        .map(|spec| {
            let claimed = claimed.iter().any(|c| c == spec.name);
            run_op(&mut driver, spec, claimed, opts, progress)
        })
        .collect();
    if driver.alive {
        if let Some(f) = driver.target.finish() {
            driver.faults.push(f);
        }
    }
    TargetReport {
        target: name,
        hello: hello.map(|h| h.name),
        ops: reports,
        faults: driver.faults,
        seconds: started.elapsed().as_secs_f64(),
    }
}
