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
//! a line that differs is parsed, and counted as it comes: a batch never
//! holds its answers. Divergences are grouped by their symptom while the
//! run streams ([`super::findings`]); at the end one example per group is
//! shrunk (`super::shrink`), its cause decided on the minimal request
//! with the lower ops the target claims ([`super::cause`]), and the groups
//! of one bug become one finding (`super::cluster`), named by the known
//! bug it answers as and the property that separates its cases.

use std::collections::{BTreeMap, VecDeque};
use std::time::Instant;

use super::cases::{Ask, Case, Origin, Plan};
use super::cause::{decide, no_probe};
use super::cluster::{one_per_bug, Agreeing};
use super::compare::same_reply;
use super::driver::{decode, Driver};
use super::findings::{finding, keep, Groups, Sampled, AGREEING_SAMPLE};
pub use super::report::{OpReport, TargetReport};
use super::separate::Profile;
use super::{Fault, FaultKind, Got, Hello, Target};
use crate::base::text::escape_str;
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
    /// Replay the canonical vectors only: no generated cases for any op.
    pub vectors_only: bool,
    /// Most target calls spent shrinking one example.
    pub shrink_budget: u64,
    /// Copies of the target run side by side (1 for a single-instance target).
    pub jobs: usize,
    /// Only these ops are asked (`--op`); empty: every op the target claims.
    pub only: Vec<String>,
    /// The catalog of known bugs a finding is named after (one process for the run).
    pub bugs: super::bugs::Bugs,
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
            only: Vec::new(),
            bugs: super::bugs::Bugs::default(),
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
    /// The atoms of every agreeing valid request, and the ones of smallest index.
    agree_profile: Profile,
    agree_sample: Vec<Sampled>,
}

impl Tally {
    /// Counts an agreeing case `index`.
    fn agreed(&mut self, index: u64, ask: &Ask) {
        self.agree += 1;
        if let Ask::Request(r) = ask {
            self.agree_profile.add(r);
            if self.agree_sample.len() < AGREEING_SAMPLE || self.agree_sample.last().is_some_and(|l| l.index > index) {
                let item = Sampled {
                    index,
                    request: r.clone(),
                    got: None,
                };
                keep(&mut self.agree_sample, AGREEING_SAMPLE, item);
            }
        }
    }
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
        self.agree_profile.merge(&o.agree_profile);
        for item in o.agree_sample {
            keep(&mut self.agree_sample, AGREEING_SAMPLE, item);
        }
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
        crate::protocol::write_ok_line(Some(id), outcome, line);
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
    /// Started at the first divergence, so that it loads while the run goes on.
    bugs: &'a super::bugs::Bugs,
}

/// Counts one answer of case `k` of `batch`, parsed because its line was
/// not the expected one.
fn count(plan: &Plan, tally: &mut Tally, batch: &Batch, k: usize, want: &Reply, got: Reply) {
    let valid = matches!(batch.asks[k], Ask::Request(_));
    tally.valid += u64::from(valid);
    if let Reply::Error { kind, message } = &got {
        if kind == "unsupported" {
            let mut f = Fault::new(
                FaultKind::ClaimedUnsupported,
                format!(
                    "{} is claimed in hello but answered unsupported: {}",
                    plan.op.name,
                    escape_str(message)
                ),
            );
            f.request = Some(escape_str(&batch.asks[k].text()));
            tally.unsupported.get_or_insert(f);
            tally.faults += 1;
            return;
        }
        if kind == "declined" {
            let reason: String = escape_str(message).chars().take(120).collect();
            *tally.declined.entry(reason).or_default() += 1;
            tally.skipped += 1;
            tally.valid_declined += u64::from(valid);
            return;
        }
    }
    if same_reply(want, &got) {
        tally.agreed(batch.start + k as u64, &batch.asks[k]);
        return;
    }
    let ask = &batch.asks[k];
    let group = decide(ask, want, &got, &mut no_probe).group;
    let case = Case {
        origin: batch.origins[k].clone(),
        ask: ask.clone(),
    };
    tally.groups.add(group, batch.start + k as u64, &case, want, got);
}

impl Worker<'_> {
    /// Receives the oldest batch in flight and counts its answers, one by
    /// one as they come (a batch of diverging 15 MiB answers holds one at a
    /// time); after a fault, queues what is left to be sent again.
    fn receive(&mut self) {
        let Some(batch) = self.in_flight.pop_front() else {
            return;
        };
        let highest = self.driver.highest();
        let mut answered = 0;
        let (scratch, plan, tally) = (
            &mut self.scratch,
            &self.plans[batch.plan],
            &mut self.tallies[batch.plan],
        );
        let fault = self.driver.target.receive(&mut |got| {
            let k = answered;
            let want = Want::of(&batch.asks[k]);
            tally.cases += 1;
            if want.is_line(batch.ids[k], &got, scratch) {
                // Only a valid request's answer takes the fast path.
                tally.agreed(batch.start + k as u64, &batch.asks[k]);
                tally.valid += 1;
            } else {
                match decode(got, &batch.asks[k], batch.ids[k], highest) {
                    Ok(reply) => count(plan, tally, &batch, k, &want.reply(), reply),
                    Err(mut f) => {
                        tally.cases -= 1;
                        let shown = escape_str(&batch.asks[k].line(batch.ids[k]));
                        f.request = Some(shown.chars().take(300).collect());
                        return Err(f);
                    }
                }
            }
            answered += 1;
            Ok(())
        });
        (self.progress)(Progress::Done(answered as u64));
        if !self.tallies[batch.plan].groups.groups.is_empty() {
            self.bugs.warm();
        }
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
            // Never asked: lost to the fault, not skipped.
            for b in again.into_iter().chain(self.resend.drain(..)) {
                self.tallies[b.plan].cases += b.asks.len() as u64;
                self.tallies[b.plan].faults += b.asks.len() as u64;
                (self.progress)(Progress::Done(b.asks.len() as u64));
            }
        }
    }

    /// Sends a batch, receiving older ones so that at most `pipeline` are in flight.
    fn send(&mut self, mut batch: Batch) {
        if !self.driver.alive {
            self.tallies[batch.plan].cases += batch.asks.len() as u64;
            self.tallies[batch.plan].faults += batch.asks.len() as u64;
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

/// The faults of every copy, a failed start told once: a program that
/// cannot be started fails the same way in every copy and its restart, and
/// is one fault, not one per job.
fn distinct_faults(faults: Vec<Fault>) -> Vec<Fault> {
    // A fault of the start: the program, its hello, or the answer to it.
    let start = |f: &Fault| {
        matches!(
            f.kind,
            FaultKind::Spawn | FaultKind::StartupTimeout | FaultKind::Handshake
        ) || f.request.as_deref() == Some(crate::protocol::hello_line(0).as_str())
    };
    let mut out: Vec<(Fault, usize)> = Vec::new();
    for f in faults {
        let same = out
            .iter_mut()
            .find(|(o, _)| start(&f) && o.kind == f.kind && o.detail == f.detail && o.stderr_tail == f.stderr_tail);
        match same {
            Some((_, n)) => *n += 1,
            None => out.push((f, 1)),
        }
    }
    out.into_iter()
        .map(|(mut f, n)| {
            if n > 1 {
                f.detail.push_str(&format!(" ({n} times: every copy and its restart)"));
            }
            f
        })
        .collect()
}

/// The plans of the ops the target claims and the run asks (`--op`).
fn plans_of(claimed: &[String], opts: &Options) -> Vec<Plan> {
    crate::registry::ops()
        .filter(|o| claimed.iter().any(|c| c == o.name) && asked(opts, o.name))
        .map(|op| Plan {
            op,
            seed: opts.seed,
            generated: opts.cases_for(op.name),
        })
        .collect()
}

/// Whether `--op` leaves `op` in the run.
fn asked(opts: &Options, op: &str) -> bool {
    opts.only.is_empty() || opts.only.iter().any(|o| o == op)
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
    let catalog_before = opts.bugs.seconds();
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
    let plans = plans_of(&claimed, opts);
    progress(Progress::Total(plans.iter().map(Plan::len).sum()));
    let (tallies, mut drivers) = stream(drivers, &plans, instances, progress, &opts.bugs);
    let mut reports = Vec::new();
    let mut tallies: Vec<Option<Tally>> = tallies.into_iter().map(Some).collect();
    for op in crate::registry::ops().filter(|o| asked(opts, o.name)) {
        match plans.iter().position(|p| p.op.name == op.name) {
            // Not claimed: nothing asked, nothing skipped.
            None => reports.push(OpReport {
                op: op.name.to_string(),
                ..OpReport::default()
            }),
            Some(p) => {
                let tally = tallies[p].take().expect("one report per plan");
                reports.push(report_op(op.name, tally, &mut drivers, &mut faults, opts, &name));
            }
        }
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
        target: escape_str(&name),
        hello: hello.map(|h| h.name),
        instances,
        ops: reports,
        faults: distinct_faults(faults),
        seconds: started.elapsed().as_secs_f64(),
        known_bug_seconds: opts.bugs.seconds() - catalog_before,
        manifest: None,
        expectations: None,
    }
}

/// Streams every plan's batches through the copies; returns the merged
/// tallies, one per plan, and the copies.
fn stream(
    drivers: Vec<Driver>,
    plans: &[Plan],
    instances: usize,
    progress: &(dyn Fn(Progress) + Sync),
    bugs: &super::bugs::Bugs,
) -> (Vec<Tally>, Vec<Driver>) {
    let mut workers: Vec<Worker> = drivers
        .into_iter()
        .map(|driver| Worker {
            driver,
            plans,
            tallies: plans.iter().map(|_| Tally::default()).collect(),
            in_flight: VecDeque::new(),
            resend: VecDeque::new(),
            progress,
            scratch: Vec::new(),
            bugs,
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
    (tallies, drivers)
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
    let made: Vec<_> = tally
        .groups
        .groups
        .into_values()
        .map(|p| {
            let driver = drivers.iter_mut().find(|d| d.alive);
            finding(driver, op, p, opts.shrink_budget, target)
        })
        .collect();
    let agreeing = Agreeing {
        profile: &tally.agree_profile,
        sample: &tally.agree_sample,
    };
    let driver = drivers.iter_mut().find(|d| d.alive);
    let findings = one_per_bug(op, &made, &agreeing, driver, &opts.bugs, opts.shrink_budget);
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
