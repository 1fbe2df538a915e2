//! The audit's units of work: what the reader cuts the input into
//! ([`Job`]), where it sends them ([`Sink`]: the workers, or straight into
//! a list for an epoch read in place), and how a worker does one
//! ([`run_job`]). The workers themselves are in [`super::run`].

use std::sync::Arc;

use serde_json::Value;

use super::commit::{self, EpochHead};
use super::document::read_whole_epoch;
use super::lines::read_line_epoch;
use super::run::Options;
use super::Event;

/// A unit of work, in document order.
pub(crate) enum Job {
    /// Events already known to the reader.
    Events(Vec<Event>),
    /// An epoch's commitment to check (`None`: no `commit` key).
    Commit {
        head: Arc<EpochHead>,
        commit: Option<Value>,
    },
    /// Consecutive rounds of an epoch, from round `first` on.
    Rounds {
        head: Arc<EpochHead>,
        first: u64,
        raws: Vec<Vec<u8>>,
    },
    /// JSON-lines epochs: (line, epoch, the line or its length when too long).
    Lines(Vec<(u64, u64, Result<Vec<u8>, usize>)>),
    /// A document's epoch cut out whole: its number, the line it begins on, its text.
    Epoch { epoch: u64, line: u64, text: Vec<u8> },
    /// Small jobs in a row, sent as one (a document of many short epochs).
    Batch(Vec<Job>),
}

impl Job {
    /// How much work a job is, in rounds (or lines), and its bytes: what a batch is measured by.
    pub(crate) fn weight(&self) -> (usize, usize) {
        match self {
            Job::Events(_) | Job::Commit { .. } => (1, 0),
            Job::Rounds { raws, .. } => (raws.len(), raws.iter().map(Vec::len).sum()),
            Job::Lines(lines) => (
                lines
                    .iter()
                    .map(|(_, _, t)| t.as_ref().map_or(1, |t| rounds_in(t)))
                    .sum(),
                lines.iter().map(|(_, _, t)| t.as_ref().map_or(0, Vec::len)).sum(),
            ),
            Job::Epoch { text, .. } => (rounds_in(text), text.len()),
            Job::Batch(jobs) => jobs.iter().map(Job::weight).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1)),
        }
    }
}

/// About how many rounds an epoch's text holds: its `"op"` keys (a seed
/// that holds the text counts too, which only makes a batch smaller). A
/// job of whole epochs or lines is weighed by it, not as one item: what a
/// worker hands back grows with the rounds (an unobserved round's finding
/// lists its outcome), and a batch of 256 epochs of a hundred rounds each
/// would be 25,600 rounds in one result.
pub(crate) fn rounds_in(text: &[u8]) -> usize {
    memchr::memmem::find_iter(text, b"\"op\"").count().max(1)
}

/// Round and line buffers handed back by the workers, for the reader to
/// fill again: in steady state the reader allocates no round's text, and
/// no thread frees memory another thread allocated (glibc's arenas then
/// lock each other out). Bounded in bytes; a buffer grown past 1 MiB (a
/// huge round or line) is let go.
#[derive(Debug, Default)]
pub(crate) struct Spare {
    buffers: Vec<Vec<u8>>,
    bytes: usize,
}

impl Spare {
    const MAX_BYTES: usize = 8 << 20;
    const MAX_BUFFER: usize = 1 << 20;

    fn keep(&mut self, mut b: Vec<u8>) {
        if b.capacity() <= Self::MAX_BUFFER && self.bytes + b.capacity() <= Self::MAX_BYTES {
            b.clear();
            self.bytes += b.capacity();
            self.buffers.push(b);
        }
    }

    /// An empty buffer, reused if one is spare.
    pub(crate) fn take(&mut self) -> Vec<u8> {
        self.buffers.pop().map_or_else(Vec::new, |b| {
            self.bytes -= b.capacity();
            b
        })
    }
}

impl Job {
    /// A done job's buffers go back to `spare`; the rest is dropped here.
    pub(crate) fn recycle(self, spare: &mut Spare) {
        match self {
            Job::Rounds { raws, .. } => raws.into_iter().for_each(|b| spare.keep(b)),
            Job::Lines(lines) => lines
                .into_iter()
                .filter_map(|(_, _, t)| t.ok())
                .for_each(|b| spare.keep(b)),
            Job::Epoch { text, .. } => spare.keep(text),
            Job::Batch(jobs) => jobs.into_iter().for_each(|j| j.recycle(spare)),
            Job::Events(_) | Job::Commit { .. } => {}
        }
    }
}

/// The run stopped: nobody takes jobs any more.
#[derive(Debug)]
pub(crate) struct Stop;

/// Where jobs go: the worker pool, or straight into a list (one JSON line).
pub(crate) trait Sink {
    fn job(&mut self, job: Job) -> Result<(), Stop>;
    /// An empty buffer for a round's or a line's text.
    fn buffer(&mut self) -> Vec<u8> {
        Vec::new()
    }
    /// Where a round of an epoch read in place (one JSON line) is checked
    /// at once; `None` for a sink that hands rounds on.
    fn now(&mut self) -> Option<&mut Vec<Event>> {
        None
    }
}

/// Hands on the events a job has so far (and empties the list): a worker's
/// way to stream one large epoch instead of holding all its events.
pub(crate) type Part<'a> = dyn FnMut(&mut Vec<Event>) + 'a;

/// Events a job holds before it hands them on: an epoch of a million
/// rounds on one JSON line had held a million events (1.2 GB when each is
/// an unobserved round's finding).
pub(crate) const PART: usize = 4096;

/// Runs jobs in place: for an epoch read from one line or cut out whole.
pub(crate) struct Inline<'a, 'p> {
    pub(crate) out: &'a mut Vec<Event>,
    pub(crate) options: &'a Options,
    pub(crate) part: &'a mut Part<'p>,
}

impl Inline<'_, '_> {
    fn hand_on(&mut self) {
        if self.out.len() >= PART {
            (self.part)(self.out);
        }
    }
}

impl Sink for Inline<'_, '_> {
    fn job(&mut self, job: Job) -> Result<(), Stop> {
        self.hand_on();
        run_job(&job, self.options, self.out, &mut *self.part);
        Ok(())
    }
    fn now(&mut self) -> Option<&mut Vec<Event>> {
        self.hand_on();
        Some(self.out)
    }
}

/// Does a job, appending its events; `part` takes them in parts of about
/// [`PART`] while an epoch read in place goes on.
pub(crate) fn run_job(job: &Job, options: &Options, out: &mut Vec<Event>, part: &mut Part<'_>) {
    match job {
        Job::Events(events) => out.extend(events.iter().cloned()),
        Job::Commit { head, commit } => out.extend(commit::check_commit(head, commit.as_ref())),
        Job::Rounds { head, first, raws } => {
            out.extend(
                raws.iter()
                    .zip(*first..)
                    .map(|(raw, i)| super::game::check(head, i, raw, options.stats)),
            );
        }
        Job::Lines(lines) => {
            for (line, epoch, text) in lines {
                let text = text.as_ref().map(Vec::as_slice).map_err(|n| *n);
                read_line_epoch(*line, *epoch, text, options, out, part);
            }
        }
        Job::Epoch { epoch, line, text } => read_whole_epoch(*epoch, *line, text, options, out, part),
        Job::Batch(jobs) => {
            for job in jobs {
                run_job(job, options, out, part);
            }
        }
    }
}
