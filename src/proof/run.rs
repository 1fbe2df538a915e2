//! The audit pipeline: one reader, one worker per core, results in
//! document order, in constant memory.
//!
//! The reader (`super::document`) only scans: it cuts the input into jobs
//! (batches of raw rounds, or of JSON lines) and numbers them. Workers parse
//! and check jobs in any order; the collector puts the results back in
//! order. A window of tickets bounds the jobs in flight: the reader takes a
//! ticket before it sends a job and the collector returns it once the job's
//! results are out, so a slow job holds back at most `window` others and
//! memory is bounded by `window` batches whatever the input's size.
//!
//! Plain threads and channels rather than rayon: rayon's parallel iterators
//! want the input split up front (or, through `par_bridge`, give up order),
//! while an audit streams an input of unknown length and must keep
//! document order with a bounded window, which is a few lines here.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;

use super::document::{self, Ctx, ReadStop};
use super::format::{self, Format};
use super::jobs::{self, Job, Sink, Spare, Stop};
use super::lines;
use super::scan::ScanError;
use super::{Counts, Event, Place, ProofError};

/// How an audit runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Worker threads (default: one per core; never more than the cores).
    pub jobs: usize,
    /// A batch ends after this many rounds (or JSON lines)…
    pub batch_rounds: usize,
    /// …or this many bytes of JSON, whichever comes first.
    pub batch_bytes: usize,
    /// The longest JSON line; a longer one is reported with its line number and skipped.
    pub max_line: usize,
    /// `audit --stats`: every round is derived, and its cells counted
    /// ([`Audit::statistics`]).
    pub stats: bool,
    /// The longest single value in a document (a round, a seed, a skipped
    /// field), in bytes: past it, reading stops with a finding that names
    /// the limit, so no value is held in memory whole whatever its size.
    pub max_value: usize,
    /// A document's epoch of at most this many bytes that is already in the
    /// reader's buffer goes to a worker whole, which reads it as a JSON
    /// line's epoch is read: the reader then only counts its brackets, and
    /// an archive of many small epochs (a seed per shoe) is read in
    /// parallel. 0: every epoch is walked by the reader, round by round.
    /// A larger epoch is better read in place: its rounds go to the workers
    /// in batches all the same, and a whole epoch is walked twice (by the
    /// reader to find its end, by the worker round by round) and copied
    /// once more. 64 KiB holds a shoe's epoch in any layout; at 1 MiB, an
    /// archive of 100 shoes an epoch written with `indent=2` (650 KB an
    /// epoch) cost a third more CPU.
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
            jobs: thread::available_parallelism().map_or(1, std::num::NonZero::get),
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
pub const MAX_LINE: usize = 64 << 20;

/// The default cap on one value of a document: that of a JSON line, since
/// a JSON-lines epoch is one value too.
pub(crate) const MAX_VALUE: usize = MAX_LINE;

/// A reader that counts the bytes read through it (for a progress bar).
pub struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R> Counting<R> {
    pub fn new(inner: R, count: Arc<AtomicU64>) -> Self {
        Counting { inner, count }
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Bytes are counted as they are consumed: the scanner reads a mapped
/// file a window at a time, and a window is not read until it is scanned.
impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amount: usize) {
        self.count.fetch_add(amount as u64, Ordering::Relaxed);
        self.inner.consume(amount);
    }
}

/// The workers' side of the reader: numbered jobs, each holding a ticket.
/// Small jobs (the pieces of short epochs) are gathered until they weigh a
/// batch, so a document of a million one-round epochs is not a million
/// hand-overs.
struct Pool<'a> {
    jobs: SyncSender<(u64, Job)>,
    tickets: SyncSender<()>,
    /// Done jobs, back from the workers to be recycled (and freed) here.
    done: Receiver<Job>,
    spare: Spare,
    seq: u64,
    gathered: Vec<Job>,
    weight: (usize, usize),
    options: &'a Options,
}

impl Pool<'_> {
    fn take_back(&mut self) {
        while let Ok(job) = self.done.try_recv() {
            job.recycle(&mut self.spare);
        }
    }

    fn send(&mut self, job: Job) -> Result<(), Stop> {
        self.take_back();
        self.tickets.send(()).map_err(|_| Stop)?;
        self.jobs.send((self.seq, job)).map_err(|_| Stop)?;
        self.seq += 1;
        Ok(())
    }

    /// Sends what has been gathered.
    fn flush(&mut self) -> Result<(), Stop> {
        self.weight = (0, 0);
        match self.gathered.len() {
            0 => Ok(()),
            1 => {
                let job = self.gathered.pop().expect("one job");
                self.send(job)
            }
            _ => {
                let jobs = std::mem::take(&mut self.gathered);
                self.send(Job::Batch(jobs))
            }
        }
    }
}

impl Sink for Pool<'_> {
    fn buffer(&mut self) -> Vec<u8> {
        self.take_back();
        self.spare.take()
    }

    fn job(&mut self, job: Job) -> Result<(), Stop> {
        let (rounds, bytes) = job.weight();
        self.gathered.push(job);
        self.weight = (self.weight.0 + rounds, self.weight.1 + bytes);
        if self.weight.0 >= self.options.batch_rounds || self.weight.1 >= self.options.batch_bytes {
            self.flush()?;
        }
        Ok(())
    }
}

/// An audit of one or more inputs (files) as one: bet histories are
/// followed across them, and the statistics count all their rounds.
pub struct Audit<'o> {
    options: &'o Options,
    /// `None` for a part of an audit (`audit --partial`): its bets are
    /// written out and followed by `provably merge`, across every part.
    bets: Option<super::bets::Bets>,
    stats: Option<crate::stats::Collector>,
    /// The crash histories' chains, followed as the bet histories are.
    chains: super::chain::Chains,
}

impl<'o> Audit<'o> {
    pub fn new(options: &'o Options) -> Audit<'o> {
        Audit {
            options,
            bets: Some(super::bets::Bets::default()),
            stats: options.stats.then(crate::stats::Collector::default),
            chains: super::chain::Chains::default(),
        }
    }

    /// An audit that leaves bet histories alone: each bet round's event
    /// keeps its `bet`, and no round is turned into a mismatch for a nonce
    /// bet twice, nor any gap found (a part of a merged audit, [`super::partial`]).
    pub fn without_bets(options: &'o Options) -> Audit<'o> {
        Audit {
            bets: None,
            chains: super::chain::Chains::in_part(),
            ..Audit::new(options)
        }
    }

    /// Audits one input (a proof document or JSON lines), the audit's
    /// `source`-th. Every event goes to `on_event` in document order; the
    /// counts are returned. Problems with the input (not JSON, a read
    /// error) are findings, not errors: only an error of `on_event` ends
    /// the audit early. The bet histories' gaps come at [`Audit::finish`].
    pub fn file<R: BufRead + Send>(
        &mut self,
        source: usize,
        input: R,
        on_event: &mut dyn FnMut(&Event) -> io::Result<()>,
    ) -> io::Result<Counts> {
        if let Some(b) = &mut self.bets {
            b.source(source);
        }
        self.chains.source(source);
        if let Some(c) = &mut self.stats {
            // No serial sequence goes on from the last file's.
            c.end_sequences();
        }
        let options = self.options;
        // Workers past the cores only hold memory: the work is all CPU,
        // and each thread's allocator arena keeps what its jobs held. So
        // `--jobs` asks for at most that many, and memory does not grow
        // with it; the jobs in flight keep every worker busy.
        let cores = thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let jobs = options.jobs.clamp(1, cores);
        let window = 4 * jobs + 4;
        let (job_tx, job_rx) = mpsc::sync_channel::<(u64, Job)>(window);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (result_tx, result_rx) = mpsc::channel::<Handed>();
        let turn = Turn::default();
        let (ticket_tx, ticket_rx) = mpsc::sync_channel::<()>(window);
        // Room for every job in flight: a worker never waits to hand one back.
        let (done_tx, done_rx) = mpsc::sync_channel::<Job>(window);
        let (bets, stats, chains) = (self.bets.as_mut(), self.stats.as_mut(), &mut self.chains);
        thread::scope(|s| {
            let pool = Pool {
                jobs: job_tx,
                tickets: ticket_tx,
                done: done_rx,
                spare: Spare::default(),
                seq: 0,
                gathered: Vec::new(),
                weight: (0, 0),
                options,
            };
            s.spawn(move || reader(input, pool, options));
            for _ in 0..jobs {
                let (rx, tx, done, turn) = (Arc::clone(&job_rx), result_tx.clone(), done_tx.clone(), &turn);
                s.spawn(move || worker(&rx, &tx, &done, turn, options));
            }
            // The workers own the job queue and the result senders now: when
            // the collector stops early, every send fails and every thread ends.
            drop(job_rx);
            drop(result_tx);
            drop(done_tx);
            let mut ordered = Ordered {
                bets,
                stats,
                chains,
                on_event,
                turn: &turn,
            };
            ordered.collect(result_rx, &ticket_rx)
        })
    }

    /// Every input has been read: each bet history's gaps go to
    /// `on_event`, with the source they are placed in.
    pub fn finish(&mut self, on_event: &mut dyn FnMut(usize, &Event) -> io::Result<()>) -> io::Result<()> {
        if let Some(b) = &mut self.bets {
            b.finish(on_event)?;
        }
        self.chains.finish(on_event)
    }

    /// The statistics over every round counted, at family-wise `level`
    /// (`None` without [`Options::stats`]).
    pub fn statistics(&self, level: f64) -> Option<crate::stats::Statistics> {
        self.stats.as_ref().map(|c| crate::stats::evaluate(c, level))
    }

    /// The counts so far.
    pub fn collector(&self) -> Option<&crate::stats::Collector> {
        self.stats.as_ref()
    }
}

/// Audits one input alone: [`Audit::file`] and [`Audit::finish`], its
/// gaps counted with it.
pub fn audit<R: BufRead + Send>(
    input: R,
    options: &Options,
    on_event: &mut dyn FnMut(&Event) -> io::Result<()>,
) -> io::Result<Counts> {
    let mut a = Audit::new(options);
    let mut counts = a.file(0, input, on_event)?;
    a.finish(&mut |_, e| {
        counts.add(e);
        on_event(e)
    })?;
    Ok(counts)
}

fn reader<R: BufRead>(input: R, mut pool: Pool, options: &Options) {
    read_all(input, &mut pool, options);
    let _ = pool.flush();
}

fn read_all<R: BufRead>(input: R, pool: &mut Pool, options: &Options) {
    let fail = |pool: &mut Pool, e: ProofError| {
        let _ = pool.job(Job::Events(vec![Event::Invalid(e.finding())]));
    };
    let read_error = |at: Place, e: &dyn std::fmt::Display| ProofError::Read {
        at,
        message: e.to_string(),
    };
    let (format, input) = match format::sniff(input) {
        Ok(x) => x,
        Err(e) => return fail(pool, read_error(Place::default(), &e)),
    };
    match format {
        Format::Document => {
            let ctx = Ctx::default();
            match document::read_document(input, pool, &ctx, options) {
                Ok(()) | Err(ReadStop::Halted) => {}
                Err(ReadStop::Scan(ScanError::Io(e))) => fail(pool, read_error(ctx.place(), &e)),
                Err(ReadStop::Scan(ScanError::Syntax { line, message })) => {
                    let at = Place {
                        line: Some(line),
                        ..ctx.place()
                    };
                    fail(pool, ProofError::NotJson { at, message });
                }
                Err(ReadStop::Scan(ScanError::TooLarge { line, limit })) => {
                    let at = Place {
                        line: Some(line),
                        ..ctx.place()
                    };
                    fail(pool, ProofError::TooLarge { at, limit });
                }
            }
        }
        Format::Lines => {
            if let Err(e) = lines::read_lines(input, pool, options) {
                fail(pool, read_error(Place::default(), &e));
            }
        }
    }
}

/// A job's events: its sequence number, the events, and whether they are
/// its last.
type Handed = (u64, Vec<Event>, bool);

/// The job whose events the collector takes next, for the workers: a part
/// of a job is handed on only in its turn, so that what waits for its turn
/// is at most [`jobs::PART`] events per job in flight.
#[derive(Default)]
struct Turn {
    next: Mutex<u64>,
    moved: Condvar,
}

impl Turn {
    /// Waits until job `seq` is the collector's (or the collector is gone).
    fn wait(&self, seq: u64) {
        let Ok(mut next) = self.next.lock() else {
            return;
        };
        while *next < seq {
            next = match self.moved.wait(next) {
                Ok(n) => n,
                Err(_) => return,
            };
        }
    }

    fn set(&self, next: u64) {
        if let Ok(mut n) = self.next.lock() {
            *n = next;
        }
        self.moved.notify_all();
    }
}

fn worker(
    jobs: &Mutex<Receiver<(u64, Job)>>,
    results: &Sender<Handed>,
    done: &SyncSender<Job>,
    turn: &Turn,
    options: &Options,
) {
    loop {
        // The lock is held only while waiting for the next job.
        let next = jobs.lock().map_err(|_| ()).and_then(|rx| rx.recv().map_err(|_| ()));
        let Ok((seq, job)) = next else {
            return;
        };
        let mut out = Vec::new();
        // A large epoch read in place streams its events, each part in the job's turn.
        let mut part = |events: &mut Vec<Event>| {
            turn.wait(seq);
            let _ = results.send((seq, std::mem::take(events), false));
        };
        jobs::run_job(&job, options, &mut out, &mut part);
        // Handed back for the reader to reuse; dropped here only when the reader is gone.
        let _ = done.try_send(job);
        if results.send((seq, out, true)).is_err() {
            return;
        }
    }
}

/// The one consumer of the workers' results: it puts them back in document
/// order and sees every event in that order (bet histories, statistics,
/// counts) before it goes out.
struct Ordered<'a> {
    bets: Option<&'a mut super::bets::Bets>,
    stats: Option<&'a mut crate::stats::Collector>,
    chains: &'a mut super::chain::Chains,
    on_event: &'a mut dyn FnMut(&Event) -> io::Result<()>,
    turn: &'a Turn,
}

/// Lets every worker waiting for its turn go on when the collector ends
/// (an output error stops it early): their sends then fail and they end.
struct Gone<'a>(&'a Turn);

impl Drop for Gone<'_> {
    fn drop(&mut self) {
        self.0.set(u64::MAX);
    }
}

impl Ordered<'_> {
    fn collect(&mut self, results: Receiver<Handed>, tickets: &Receiver<()>) -> io::Result<Counts> {
        let _gone = Gone(self.turn);
        // Jobs past the one in turn: their events so far, and whether all came.
        let mut waiting: BTreeMap<u64, (Vec<Event>, bool)> = BTreeMap::new();
        let mut next = 0u64;
        let mut counts = Counts::default();
        // A worker found the text broken inside a whole epoch: what the reader
        // sent after it is dropped, as if reading had stopped there.
        let mut stopped = false;
        for (seq, events, last) in results {
            if seq != next {
                let w = waiting.entry(seq).or_default();
                w.0.extend(events);
                w.1 |= last;
                continue;
            }
            self.take(events, &mut stopped, &mut counts)?;
            let mut done = last;
            while done {
                // The job's ticket was taken before the job was sent: it is there.
                let _ = tickets.recv();
                next += 1;
                self.turn.set(next);
                let Some((events, last)) = waiting.remove(&next) else {
                    break;
                };
                self.take(events, &mut stopped, &mut counts)?;
                done = last;
            }
        }
        Ok(counts)
    }

    /// Sees a job's events in order, none after a [`Event::Stop`].
    fn take(&mut self, events: Vec<Event>, stopped: &mut bool, counts: &mut Counts) -> io::Result<()> {
        for e in events {
            *stopped |= matches!(e, Event::Stop);
            if !*stopped {
                self.see(e, counts)?;
            }
        }
        Ok(())
    }

    fn see(&mut self, mut e: Event, counts: &mut Counts) -> io::Result<()> {
        if let Event::Round { epoch, counted, .. } = &mut e {
            if let (Some(c), Some(stats)) = (counted.take(), self.stats.as_deref_mut()) {
                stats.count(*epoch, &c);
            }
        }
        let extra = self.bets.as_deref_mut().and_then(|b| b.see(&mut e));
        let chained = self.chains.see(&mut e);
        counts.add(&e);
        (self.on_event)(&e)?;
        for x in extra.into_iter().chain(chained) {
            counts.add(&x);
            (self.on_event)(&x)?;
        }
        Ok(())
    }
}

/// Audits a text held in memory and returns its counts and findings (for
/// tests, vectors and small inputs).
pub fn audit_text(text: &str, options: &Options) -> (Counts, Vec<super::Finding>) {
    let mut findings = Vec::new();
    let counts = audit(text.as_bytes(), options, &mut |e| {
        findings.extend_from_slice(e.findings());
        Ok(())
    })
    .expect("collecting into a list does not fail");
    (counts, findings)
}
