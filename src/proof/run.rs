//! The audit, in three stages that each hand on to the next:
//!
//! 1. read (`super::read`): the input cut into units of work in document
//!    order (an epoch's events, its commitment, batches of its rounds'
//!    texts, or a small epoch whole, which a worker reads with the same
//!    epoch walk), an iterator that checks nothing;
//! 2. map: each batch of units checked (`check`: rounds by
//!    `super::round`, a crash history's games by `super::game`,
//!    commitments by `super::commit`) on one worker per
//!    core, the results in document order, at most a window of batches in
//!    flight (`base::ordered::map`), so memory does not grow with
//!    the input;
//! 3. fold (`super::fold`): every event seen in document order (bet
//!    histories, crash histories' chains, statistics, counts) and handed on.

use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;

use super::commit::check_commit;
use super::fold::Fold;
use super::game;
use super::read::{self, Unit};
pub use super::Options;
use super::{Counts, Event, Place, ProofError};

/// A reader that counts the bytes read through it (for a progress bar).
pub struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R> Counting<R> {
    /// `inner`, each byte read through it added to `count`.
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
    /// An audit that follows bet histories and crash chains across its
    /// inputs, and counts statistics when `options.stats` says so.
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
        let mut fold = Fold::new(self.bets.as_mut(), self.stats.as_mut(), &mut self.chains, on_event);
        let (format, input) = match super::format::sniff(input) {
            Ok(x) => x,
            Err(e) => {
                let e = ProofError::Read {
                    at: Place::default(),
                    message: e.to_string(),
                };
                fold.take(vec![Event::Invalid(e.finding())])?;
                return Ok(fold.counts());
            }
        };
        // Workers past the cores only hold memory: the work is all CPU. So
        // `--jobs` asks for at most that many; a few batches in flight per
        // worker keep every worker busy.
        let cores = thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let workers = options.jobs.clamp(1, cores);
        let batches = read::batches(read::units(format, input, options), options);
        let mapped = crate::base::ordered::map(
            batches,
            workers,
            4 * workers + 4,
            |batch| check(batch, options),
            |(events, broke)| {
                fold.take(events).map_err(Halt::Output)?;
                if broke {
                    return Err(Halt::Broke);
                }
                Ok(())
            },
        );
        match mapped {
            Ok(()) | Err(Halt::Broke) => Ok(fold.counts()),
            Err(Halt::Output(e)) => Err(e),
        }
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

/// Why the map of an input stopped before its end.
enum Halt {
    /// `on_event` failed.
    Output(io::Error),
    /// The text broke inside a document's epoch a worker read whole: the
    /// reader read on past it, and nothing it read after counts.
    Broke,
}

/// Checks a batch of units: their events in order, and whether the text
/// broke inside a document's epoch read whole (the batch's events end with
/// the break's finding).
pub(crate) fn check(batch: Vec<Unit>, options: &Options) -> (Vec<Event>, bool) {
    let mut out = Vec::new();
    for unit in batch {
        if let Unit::Epoch {
            epoch,
            line,
            text,
            document,
        } = unit
        {
            let mut units = read::epoch_units(epoch, line, text, document, options);
            for unit in units.by_ref() {
                check_unit(unit, options.stats, &mut out);
            }
            if units.broke() {
                return (out, true);
            }
        } else {
            check_unit(unit, options.stats, &mut out);
        }
    }
    (out, false)
}

/// Checks a unit read from an epoch: its events, in order.
fn check_unit(unit: Unit, stats: bool, out: &mut Vec<Event>) {
    match unit {
        Unit::Events(events) => out.extend(events),
        Unit::Commit { head, commit } => out.extend(check_commit(&head, commit.as_ref())),
        Unit::Rounds { head, first, rounds } => {
            for (round, text) in (first..).zip(rounds) {
                out.push(game::check(&head, round, &text, stats));
            }
        }
        // An epoch's own units hold no epoch.
        Unit::Epoch { .. } => {}
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
