//! Running one target: every op it claims, its vectors and generated
//! cases, streamed through N copies of the target.
//!
//! The cases of all ops form one sequence of batches; batch b goes to copy
//! b mod N, so the same seed asks the same questions whatever N is. Each
//! copy's thread makes its batches as it goes, sends one, computes the
//! expected answers of the one before while the target works, then reads
//! and compares: cases are never held beyond the batches in flight, and
//! expected answers are computed on every core. An answer is first
//! compared byte for byte with the line `provably serve` would print; only
//! a line that differs is parsed. Divergences are grouped by cause
//! ([`super::findings`]); one example per group is shrunk at the end.

use std::collections::{BTreeMap, VecDeque};
use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use super::cases::{Ask, Case, Origin, Plan};
use super::compare::{pretty, same_reply};
use super::findings::{refusal_group, Finding, Groups};
use super::{explain, Fault, FaultKind, Got, Hello, Target};
use crate::base::diff::unified_diff;
use crate::op::Request;
use crate::protocol::Reply;

/// What a run tells its caller as it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// How many cases the run asks in all.
    Total(u64),
    /// This many more cases were done.
    Done(u64),
}

/// The most generated cases one op may ask for.
pub const MAX_CASES: u64 = 1_000_000_000;

/// Target calls spent shrinking one example unless told otherwise.
pub const SHRINK_BUDGET: u64 = 300;

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
    /// Most target calls spent shrinking one example.
    pub shrink_budget: u64,
    /// Copies of the target run side by side (1 for a single-instance target).
    pub jobs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cases: 200,
            cases_for: BTreeMap::new(),
            seed: 0,
            vectors_only: false,
            shrink_budget: SHRINK_BUDGET,
            jobs: 1,
        }
    }
}

impl Options {
    fn cases_for(&self, op: &str) -> u64 {
        if self.vectors_only {
            0
        } else {
            self.cases_for.get(op).copied().unwrap_or(self.cases).min(MAX_CASES)
        }
    }
}

/// Counts and findings for one op.
#[derive(Debug, Clone, Default, Serialize)]
pub struct OpReport {
    pub op: String,
    pub claimed: bool,
    pub cases: u64,
    pub agree: u64,
    /// Cases that diverge, in all groups.
    pub diverge: u64,
    /// Cases not answered: the op was not claimed, the target declined them
    /// (see `declined`), or the target was given up on.
    pub skipped: u64,
    /// Declined cases by the reason the target gave.
    pub declined: BTreeMap<String, u64>,
    /// Cases lost to a fault.
    pub faults: u64,
    /// Divergences grouped by the first step where the two sides part.
    pub findings: Vec<Finding>,
}

/// Everything about one target's run.
#[derive(Debug, Clone, Serialize)]
pub struct TargetReport {
    pub target: String,
    pub hello: Option<String>,
    /// Copies of the target that shared the cases.
    pub instances: usize,
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

/// One copy of the target, restarted at most once after a fault.
struct Driver {
    target: Box<dyn Target>,
    restarts_left: u32,
    alive: bool,
    faults: Vec<Fault>,
    next_id: i64,
}

impl Driver {
    fn new(target: Box<dyn Target>) -> Driver {
        Driver {
            target,
            restarts_left: 1,
            alive: false,
            faults: Vec::new(),
            next_id: 2,
        }
    }

    /// Starts the target (restarting once after a fault) and returns its hello.
    fn handshake(&mut self) -> Option<Hello> {
        for _ in 0..2 {
            match self.target.start() {
                Ok(h) => {
                    self.alive = true;
                    return Some(h);
                }
                Err(f) => self.faults.push(f),
            }
            self.restarts_left = 0;
        }
        None
    }

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

    fn ids(&mut self, n: usize) -> Vec<i64> {
        let first = self.next_id;
        let n = i64::try_from(n).expect("a batch is small");
        self.next_id += 2 * n;
        (0..n).map(|k| first + 2 * k).collect()
    }

    /// The highest id sent so far.
    fn highest(&self) -> i64 {
        self.next_id - 2
    }

    /// Asks one request alone (for shrinking); `None` on a fault.
    fn ask_one(&mut self, request: &Request) -> Option<Reply> {
        if !self.alive {
            return None;
        }
        let ask = [Ask::Request(request.clone())];
        let ids = self.ids(1);
        let highest = self.highest();
        let mut reply = None;
        let fault = match self.target.send(&ask, &ids) {
            Err(f) => Some(f),
            Ok(()) => self.target.receive(&mut |got| {
                reply = Some(decode(got, &ask[0], ids[0], highest)?);
                Ok(())
            }),
        };
        match (fault, reply) {
            (None, Some(r)) => Some(r),
            (fault, _) => {
                self.fault(fault.unwrap_or_else(|| Fault::new(FaultKind::MissingAnswer, "no answer")));
                None
            }
        }
    }
}

/// Reads an answer as the reply to request `id` (`highest` the highest id
/// sent); a line that is not one is a fault (not JSON, a wrong id, …).
fn decode(got: Got, ask: &Ask, id: i64, highest: i64) -> Result<Reply, Fault> {
    match got {
        Got::Reply(r) => Ok(r),
        Got::Line(bytes) => super::process::decode_line(
            &bytes,
            id,
            highest,
            || matches!(ask, Ask::Invalid(i) if i.input().is_none()),
        ),
    }
}

/// What one copy counted for one op.
#[derive(Default)]
struct Tally {
    cases: u64,
    agree: u64,
    skipped: u64,
    faults: u64,
    declined: BTreeMap<String, u64>,
    /// Valid requests answered, and of them declined: a target that
    /// declines every valid request of an op it claims proves nothing.
    valid: u64,
    valid_declined: u64,
    groups: Groups,
    unsupported: Option<Fault>,
}

impl Tally {
    fn merge(&mut self, o: Tally) {
        self.cases += o.cases;
        self.agree += o.agree;
        self.skipped += o.skipped;
        self.faults += o.faults;
        self.valid += o.valid;
        self.valid_declined += o.valid_declined;
        for (k, v) in o.declined {
            *self.declined.entry(k).or_default() += v;
        }
        self.groups.merge(o.groups);
        self.unsupported = self.unsupported.take().or(o.unsupported);
    }
}

/// A batch: `plan` and the case numbers `start..start + cases.len()`.
struct Batch {
    plan: usize,
    start: u64,
    origins: Vec<Origin>,
    asks: Vec<Ask>,
    ids: Vec<i64>,
}

/// provably's answer to an ask.
enum Want {
    Answer(Result<crate::op::Outcome, crate::op::error::OpError>),
    Invalid,
}

impl Want {
    fn of(ask: &Ask) -> Want {
        match ask {
            Ask::Request(r) => Want::Answer(r.run()),
            Ask::Invalid(_) => Want::Invalid,
        }
    }

    /// Whether `got` is byte for byte the line `provably serve` prints: the
    /// fast path, taken without parsing anything.
    /// `line` is scratch space, kept by the caller across answers.
    fn is_line(&self, id: i64, got: &Got, line: &mut Vec<u8>) -> bool {
        let (Want::Answer(Ok(outcome)), Got::Line(bytes)) = (self, got) else {
            return false;
        };
        line.clear();
        line.extend_from_slice(b"{\"id\":");
        line.extend_from_slice(itoa::Buffer::new().format(id).as_bytes());
        line.extend_from_slice(b",\"ok\":");
        outcome.write_json(line);
        line.push(b'}');
        bytes == line
    }

    fn reply(&self) -> Reply {
        match self {
            Want::Answer(Ok(outcome)) => Reply::Ok(outcome.to_value()),
            Want::Answer(Err(e)) => Reply::from_error(e),
            Want::Invalid => Reply::Error {
                kind: "invalid".into(),
                message: String::new(),
            },
        }
    }
}

/// One copy's share of the run.
struct Worker<'a> {
    driver: Driver,
    plans: &'a [Plan],
    tallies: Vec<Tally>,
    /// Batches sent and not yet received, and batches to send again after a restart.
    in_flight: VecDeque<Batch>,
    resend: VecDeque<Batch>,
    progress: &'a (dyn Fn(Progress) + Sync),
    /// The expected line of the answer being compared.
    scratch: Vec<u8>,
}

impl Worker<'_> {
    /// Counts one answer of case `k` of `batch`.
    fn count(&mut self, batch: &Batch, k: usize, want: &Reply, got: &Reply) {
        let plan = &self.plans[batch.plan];
        let tally = &mut self.tallies[batch.plan];
        let valid = matches!(batch.asks[k], Ask::Request(_));
        tally.valid += u64::from(valid);
        if let Reply::Error { kind, message } = &got {
            if kind == "unsupported" {
                let mut f = Fault::new(
                    FaultKind::ClaimedUnsupported,
                    format!(
                        "{} is claimed in hello but answered unsupported: {}",
                        plan.op.name,
                        crate::base::text::escape_str(message)
                    ),
                );
                f.request = Some(crate::base::text::escape_str(&batch.asks[k].text()));
                tally.unsupported.get_or_insert(f);
                tally.faults += 1;
                return;
            }
            if kind == "declined" {
                let reason: String = crate::base::text::escape_str(message).chars().take(120).collect();
                *tally.declined.entry(reason).or_default() += 1;
                tally.skipped += 1;
                tally.valid_declined += u64::from(valid);
                return;
            }
        }
        if same_reply(want, got) {
            tally.agree += 1;
            return;
        }
        let ask = &batch.asks[k];
        let group = match (refusal_group(ask, want, got), ask) {
            (Some(g), _) => g,
            (None, Ask::Request(r)) => explain::parted(r, want, got).group,
            (None, Ask::Invalid(i)) => format!("answers an invalid request ({})", crate::op::flag::join(&i.flags)),
        };
        let case = Case {
            origin: batch.origins[k].clone(),
            ask: ask.clone(),
        };
        tally.groups.add(group, batch.start + k as u64, &case, want, got);
    }

    /// Receives the oldest batch in flight and counts its answers, one by
    /// one as they come; after a fault, queues what is left to be sent again.
    fn receive(&mut self) {
        let Some(batch) = self.in_flight.pop_front() else {
            return;
        };
        let highest = self.driver.highest();
        let mut answered = 0;
        let mut counts = Vec::with_capacity(batch.asks.len());
        let scratch = &mut self.scratch;
        // Answers that agree byte for byte are only counted; the others keep
        // both replies until the batch is done.
        let fault = self.driver.target.receive(&mut |got| {
            let k = answered;
            let want = Want::of(&batch.asks[k]);
            if want.is_line(batch.ids[k], &got, scratch) {
                counts.push(None);
            } else {
                match decode(got, &batch.asks[k], batch.ids[k], highest) {
                    Ok(reply) => counts.push(Some((want.reply(), reply))),
                    Err(mut f) => {
                        let shown = crate::base::text::escape_str(&batch.asks[k].line(batch.ids[k]));
                        f.request = Some(shown.chars().take(300).collect());
                        return Err(f);
                    }
                }
            }
            answered += 1;
            Ok(())
        });
        for (k, count) in counts.into_iter().enumerate() {
            self.tallies[batch.plan].cases += 1;
            match count {
                None => {
                    // Only a valid request's answer takes the fast path.
                    self.tallies[batch.plan].agree += 1;
                    self.tallies[batch.plan].valid += 1;
                }
                Some((want, reply)) => self.count(&batch, k, &want, &reply),
            }
        }
        (self.progress)(Progress::Done(answered as u64));
        if let Some(f) = fault {
            self.after_fault(batch, answered, f);
        }
    }

    /// The case in turn is lost to the fault; the rest of its batch and every
    /// batch in flight go again after a restart, or are skipped.
    #[allow(clippy::needless_pass_by_value, reason = "the batch is done with here")]
    fn after_fault(&mut self, batch: Batch, answered: usize, f: Fault) {
        let next = if answered < batch.asks.len() {
            let tally = &mut self.tallies[batch.plan];
            tally.cases += 1;
            tally.faults += 1;
            (self.progress)(Progress::Done(1));
            answered + 1
        } else {
            answered
        };
        let rest = Batch {
            plan: batch.plan,
            start: batch.start + next as u64,
            origins: batch.origins[next..].to_vec(),
            asks: batch.asks[next..].to_vec(),
            ids: Vec::new(),
        };
        let mut again: VecDeque<Batch> = std::iter::once(rest).chain(self.in_flight.drain(..)).collect();
        again.retain(|b| !b.asks.is_empty());
        if self.driver.fault(f) {
            again.extend(self.resend.drain(..));
            self.resend = again;
        } else {
            for b in again.into_iter().chain(self.resend.drain(..)) {
                self.tallies[b.plan].skipped += b.asks.len() as u64;
                (self.progress)(Progress::Done(b.asks.len() as u64));
            }
        }
    }

    /// Sends a batch, receiving older ones so that at most `pipeline` are in flight.
    fn send(&mut self, mut batch: Batch) {
        if !self.driver.alive {
            self.tallies[batch.plan].skipped += batch.asks.len() as u64;
            (self.progress)(Progress::Done(batch.asks.len() as u64));
            return;
        }
        batch.ids = self.driver.ids(batch.asks.len());
        match self.driver.target.send(&batch.asks, &batch.ids) {
            Ok(()) => self.in_flight.push_back(batch),
            Err(f) => {
                self.in_flight.push_back(batch);
                let lost = self.in_flight.pop_back().expect("just pushed");
                self.after_fault(lost, 0, f);
                return;
            }
        }
        while self.in_flight.len() >= self.driver.target.pipeline().max(1) {
            self.receive();
        }
    }

    /// Runs every batch numbered `w` mod `n`.
    fn run(&mut self, w: usize, n: usize) {
        let batch_size = self.driver.target.batch_size().max(1) as u64;
        let mut number = 0usize;
        for (p, plan) in self.plans.iter().enumerate() {
            let mut start = 0;
            while start < plan.len() {
                let end = (start + batch_size).min(plan.len());
                if number % n == w {
                    let cases: Vec<Case> = (start..end).map(|k| plan.case(k)).collect();
                    let (origins, asks) = cases.into_iter().map(|c| (c.origin, c.ask)).unzip();
                    let batch = Batch {
                        plan: p,
                        start,
                        origins,
                        asks,
                        ids: Vec::new(),
                    };
                    self.send(batch);
                    while let Some(b) = self.resend.pop_front() {
                        self.send(b);
                    }
                }
                number += 1;
                start = end;
            }
        }
        while !self.in_flight.is_empty() || !self.resend.is_empty() {
            self.receive();
            while let Some(b) = self.resend.pop_front() {
                self.send(b);
            }
        }
    }
}

/// Shrinks a diverging request greedily: take the first simpler candidate
/// that still diverges the same way, until none does or the budget is spent.
/// `None` when the target, asked the request again, no longer diverges (or
/// faults): its answers depend on more than the request, and the finding
/// keeps what the run saw.
fn shrink(driver: &mut Driver, found: &Request, budget: u64) -> Option<(Request, Reply, Reply, usize)> {
    let mut best = found.clone();
    let mut best_want = want_of(&best);
    let mut best_got = driver.ask_one(&best).filter(|got| !same_reply(&best_want, got))?;
    let cause = cause_of(&best_want, &best_got, &best);
    let (mut steps, mut calls) = (0, 0_u64);
    // Sizes first, by bisection: `lo` is a value not known to diverge the
    // same way, `hi` one that does. Not every op is monotone in its size,
    // so the result is the smallest size found, which still diverges for the
    // same cause.
    for (name, min) in super::shrink::sizes(&best) {
        let Some(hi) = best.to_value().get(name).and_then(Value::as_u64) else {
            continue;
        };
        // Below `min` by one, so that `min` itself is tried.
        let (mut lo, mut hi) = (i128::from(min) - 1, i128::from(hi));
        while hi - lo > 1 && calls < budget {
            let mid = lo + (hi - lo) / 2;
            let value = Value::from(u64::try_from(mid).expect("between min and a u64"));
            let candidate = best.with(name, &value);
            match candidate.map(|c| (attempt(driver, &mut calls, &c, &cause), c)) {
                Some((Attempt::Keeps(want, got), c)) => {
                    (best, best_want, best_got) = (c, want, got);
                    steps += 1;
                    hi = mid;
                }
                Some((Attempt::Dead, _)) => return Some((best, best_want, best_got, steps)),
                _ => lo = mid,
            }
        }
    }
    'outer: loop {
        for candidate in super::shrink::candidates(&best) {
            // A call budget, not a deadline: a clock would make the minimal
            // request depend on the machine's load, and the same seed must
            // report the same findings.
            if calls >= budget {
                break 'outer;
            }
            match attempt(driver, &mut calls, &candidate, &cause) {
                Attempt::Keeps(want, got) => {
                    (best, best_want, best_got) = (candidate, want, got);
                    steps += 1;
                    continue 'outer;
                }
                Attempt::Skipped | Attempt::Misses => {}
                Attempt::Dead => break 'outer,
            }
        }
        break;
    }
    Some((best, best_want, best_got, steps))
}

fn want_of(r: &Request) -> Reply {
    Reply::from_result(r.run_value())
}

/// The cause a divergence is grouped by.
fn cause_of(want: &Reply, got: &Reply, r: &Request) -> String {
    match refusal_group(&Ask::Request(r.clone()), want, got) {
        Some(g) => g,
        None => explain::parted(r, want, got).group,
    }
}

/// What asking one shrink candidate showed.
enum Attempt {
    /// provably refuses it: not asked (shrinking must not wander into
    /// inputs that are invalid).
    Skipped,
    /// It still diverges for the same cause: provably's answer, the target's.
    Keeps(Reply, Reply),
    /// It agrees, or diverges for another cause (the shrink would slip onto
    /// another bug).
    Misses,
    /// The target did not answer.
    Dead,
}

fn attempt(driver: &mut Driver, calls: &mut u64, candidate: &Request, cause: &str) -> Attempt {
    let want = want_of(candidate);
    if !matches!(want, Reply::Ok(_)) {
        return Attempt::Skipped;
    }
    *calls += 1;
    match driver.ask_one(candidate) {
        Some(got) if !same_reply(&want, &got) && cause_of(&want, &got, candidate) == cause => Attempt::Keeps(want, got),
        Some(_) => Attempt::Misses,
        None => Attempt::Dead,
    }
}

/// One group's finding: its example shrunk (a generated case) or as it is.
/// Everything the target controls is shown escaped.
#[allow(clippy::needless_pass_by_value, reason = "each group is made into its finding once")]
fn finding(
    driver: Option<&mut Driver>,
    op: &str,
    group: String,
    p: super::findings::Pending,
    opts: &Options,
    target: &str,
) -> Finding {
    use crate::base::text::{escape_lines, escape_str, json};
    let text = |ask: &Ask| match ask {
        Ask::Request(r) => json(&r.to_value(), false),
        Ask::Invalid(i) => escape_str(&i.line),
    };
    let found = text(&p.case.ask);
    // Asked again only with a live target and a budget; a case that was
    // not asked again is shown as found, with nothing claimed about a repeat.
    let (shrunk, asked) = match (&p.case.ask, driver) {
        (Ask::Request(r), Some(d)) if d.alive && opts.shrink_budget > 0 => (shrink(d, r, opts.shrink_budget), true),
        _ => (None, false),
    };
    let repeats = shrunk.is_some() || !asked;
    let (request, want, got, steps) = match shrunk {
        Some((best, w, g, steps)) => (json(&best.to_value(), false), w, g, steps),
        None => (found.clone(), p.want.clone(), p.got.clone(), 0),
    };
    let parted = match &p.case.ask {
        Ask::Request(r) if repeats => explain::parted(r, &want, &got).story,
        Ask::Request(r) => format!(
            "{} (asked again alone, the target answered otherwise: its answers depend on more than the request)",
            explain::parted(r, &want, &got).story
        ),
        Ask::Invalid(i) => format!(
            "provably answers invalid ({}: {}); the target did not",
            crate::op::flag::join(&i.flags),
            i.comment
        ),
    };
    let (expected, got) = (json(&pretty(&want), true) + "\n", json(&pretty(&got), true) + "\n");
    Finding {
        op: op.to_string(),
        group: escape_str(&group),
        count: p.count,
        origin: escape_str(&p.case.origin.to_string()),
        diff: clip_lines(&unified_diff(
            &expected,
            &got,
            "provably (Rust)",
            &format!("target {}", escape_str(target)),
        )),
        found,
        request,
        shrink_steps: steps,
        expected,
        got,
        parted: escape_lines(parted.as_bytes()),
    }
}

/// A diff cut to its first lines: a 100,000-element order differs in
/// 100,000 lines, and the first step where the sides part says where.
fn clip_lines(diff: &str) -> String {
    const KEPT: usize = 400;
    let total = diff.lines().count();
    if total <= KEPT {
        return diff.to_string();
    }
    let mut out: String = diff.lines().take(KEPT).collect::<Vec<_>>().join("\n");
    out.push_str(&format!("\n… {} more lines of diff", total - KEPT));
    out
}

/// Starts `instances` copies side by side; returns their drivers and the first hello.
fn start_all(factory: &(dyn Fn() -> Box<dyn Target> + Sync), instances: usize) -> (Vec<Driver>, Option<Hello>) {
    let mut started: Vec<(Driver, Option<Hello>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..instances)
            .map(|_| {
                s.spawn(|| {
                    let mut d = Driver::new(factory());
                    let hello = d.handshake();
                    (d, hello)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).collect()
    });
    let hello = started.iter().find_map(|(_, h)| h.clone());
    let drivers = started.drain(..).map(|(d, _)| d).collect();
    (drivers, hello)
}

/// Runs every op against `instances` copies of the target `factory` makes.
/// `progress` is told how many cases there are, then how many were done.
pub fn run_target(
    factory: &(dyn Fn() -> Box<dyn Target> + Sync),
    instances: usize,
    required_ops: Option<&[String]>,
    opts: &Options,
    progress: &(dyn Fn(Progress) + Sync),
) -> TargetReport {
    let started = Instant::now();
    let instances = instances.max(1);
    let (drivers, hello) = start_all(factory, instances);
    let name = drivers[0].target.name().to_string();
    let claimed: Vec<String> = hello.as_ref().map(|h| h.ops.clone()).unwrap_or_default();
    let mut faults = Vec::new();
    if let (Some(required), Some(_)) = (required_ops, &hello) {
        let missing: Vec<&String> = required.iter().filter(|op| !claimed.contains(op)).collect();
        if !missing.is_empty() {
            faults.push(Fault::new(
                FaultKind::MissingOp,
                format!("the manifest requires {missing:?}, which hello does not claim"),
            ));
        }
    }
    let ops: Vec<&'static crate::op::OpSpec> = crate::registry::ops().collect();
    let plans: Vec<Plan> = ops
        .iter()
        .filter(|o| claimed.iter().any(|c| c == o.name))
        .map(|&op| Plan {
            op,
            seed: opts.seed,
            generated: opts.cases_for(op.name),
        })
        .collect();
    progress(Progress::Total(plans.iter().map(Plan::len).sum()));
    let mut workers: Vec<Worker> = drivers
        .into_iter()
        .map(|driver| Worker {
            driver,
            plans: &plans,
            tallies: plans.iter().map(|_| Tally::default()).collect(),
            in_flight: VecDeque::new(),
            resend: VecDeque::new(),
            progress,
            scratch: Vec::new(),
        })
        .collect();
    std::thread::scope(|s| {
        for (w, worker) in workers.iter_mut().enumerate() {
            s.spawn(move || worker.run(w, instances));
        }
    });
    let mut tallies: Vec<Tally> = plans.iter().map(|_| Tally::default()).collect();
    let mut drivers = Vec::new();
    for worker in workers {
        for (t, mine) in tallies.iter_mut().zip(worker.tallies) {
            t.merge(mine);
        }
        drivers.push(worker.driver);
    }
    let mut reports = Vec::new();
    for op in ops {
        let Some(p) = plans.iter().position(|p| p.op.name == op.name) else {
            let skipped = crate::harness::cases::vectors_for(op.name).len() as u64 + opts.cases_for(op.name);
            reports.push(OpReport {
                op: op.name.to_string(),
                skipped,
                ..OpReport::default()
            });
            continue;
        };
        let tally = std::mem::take(&mut tallies[p]);
        reports.push(report_op(op.name, tally, &mut drivers, &mut faults, opts, &name));
    }
    for d in &mut drivers {
        if d.alive {
            if let Some(f) = d.target.finish() {
                d.faults.push(f);
            }
        }
        faults.append(&mut d.faults);
    }
    TargetReport {
        target: crate::base::text::escape_str(&name),
        hello: hello.map(|h| h.name),
        instances,
        ops: reports,
        faults,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// One op's report from its merged tally: findings shrunk with a live copy.
fn report_op(
    op: &str,
    tally: Tally,
    drivers: &mut [Driver],
    faults: &mut Vec<Fault>,
    opts: &Options,
    target: &str,
) -> OpReport {
    if let Some(f) = tally.unsupported {
        faults.push(f);
    }
    if tally.valid_declined > 0 && tally.valid_declined == tally.valid {
        faults.push(Fault::new(
            FaultKind::DeclinedEverything,
            format!("{op} is claimed, but all {} valid requests were declined", tally.valid),
        ));
    }
    let diverge = tally.groups.total();
    let findings = tally
        .groups
        .groups
        .into_iter()
        .map(|(group, p)| {
            let driver = drivers.iter_mut().find(|d| d.alive);
            finding(driver, op, group, p, opts, target)
        })
        .collect();
    OpReport {
        op: op.to_string(),
        claimed: true,
        cases: tally.cases,
        agree: tally.agree,
        diverge,
        skipped: tally.skipped,
        declined: tally.declined,
        faults: tally.faults,
        findings,
    }
}
