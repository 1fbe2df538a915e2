//! Reading proofs as a stream.
//!
//! A document is walked by a structural scanner ([`super::scan`]): the
//! `epochs` list one epoch at a time, each epoch's `rounds` one round at a
//! time, every round cut out as its text and handed on in batches, so a
//! worker parses and checks it and the reader only scans. JSON lines are
//! split at newlines and each line is walked by a worker with the same
//! epoch reader. A round's text is held to JSON by the worker that parses
//! it, so a round that is not JSON inside is that round's finding.
//!
//! Findings come out in document order. An epoch's rounds need its secret,
//! and its `commit` is checked against it, so until the secret's key has
//! been read the epoch's pieces (commitment, findings, rounds) wait in key
//! order; an epoch written as `commit`, secret, `rounds` (the order
//! `provably proof` writes) streams without waiting.

use std::cell::Cell;
use std::collections::HashSet;
use std::io::{self, BufRead, Read};
use std::sync::Arc;

use serde_json::Value;

use super::check::{self, EpochHead};
use super::run::Options;
use super::scan::{ScanError, Scanner};
use super::{Event, FieldError, Place, ProofError};
use crate::op::{short, type_name};

/// How a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// `{"proof": 1, …}`: one document.
    Document,
    /// One epoch object per line.
    Lines,
}

const MARK: &[u8] = b"\"proof\"";

/// The input again, the bytes looked at first included.
pub(crate) type Sniffed<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// The UTF-8 byte order mark some editors put first: not part of the text.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decides the format from the first bytes (`{`, optional white space,
/// `"proof"` makes a document) and returns a reader that still yields them,
/// but for a UTF-8 byte order mark in front, which is dropped.
pub(crate) fn sniff<R: Read>(mut input: R) -> io::Result<(Format, Sniffed<R>)> {
    let mut prefix = Vec::new();
    let mut chunk = [0u8; 512];
    let format = loop {
        if let Some(f) = decide(&prefix) {
            break f;
        }
        let n = match input.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            break Format::Lines;
        }
        prefix.extend_from_slice(&chunk[..n]);
    };
    if prefix.starts_with(BOM) {
        prefix.drain(..BOM.len());
    }
    Ok((format, io::Cursor::new(prefix).chain(input)))
}

/// `None` while the bytes seen do not decide yet.
fn decide(prefix: &[u8]) -> Option<Format> {
    if BOM.starts_with(prefix) && prefix.len() < BOM.len() {
        return None;
    }
    let prefix = prefix.strip_prefix(BOM).unwrap_or(prefix);
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let start = prefix.iter().position(|b| !ws(b))?;
    if prefix[start] != b'{' {
        return Some(Format::Lines);
    }
    let rest = &prefix[start + 1..];
    let key = rest.iter().position(|b| !ws(b))?;
    let rest = &rest[key..];
    if rest.len() < MARK.len() && MARK.starts_with(rest) {
        return None;
    }
    Some(if rest.starts_with(MARK) {
        Format::Document
    } else {
        Format::Lines
    })
}

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
                lines.len(),
                lines.iter().map(|(_, _, t)| t.as_ref().map_or(0, Vec::len)).sum(),
            ),
            Job::Epoch { text, .. } => (1, text.len()),
            Job::Batch(jobs) => jobs.iter().map(Job::weight).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1)),
        }
    }
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

/// Runs jobs in place: for an epoch read from one line.
struct Inline<'a> {
    out: &'a mut Vec<Event>,
    options: &'a Options,
}

impl Sink for Inline<'_> {
    fn job(&mut self, job: Job) -> Result<(), Stop> {
        run_job(&job, self.options, self.out);
        Ok(())
    }
    fn now(&mut self) -> Option<&mut Vec<Event>> {
        Some(self.out)
    }
}

/// Does a job, appending its events.
pub(crate) fn run_job(job: &Job, options: &Options, out: &mut Vec<Event>) {
    match job {
        Job::Events(events) => out.extend(events.iter().cloned()),
        Job::Commit { head, commit } => out.push(check::check_commit(head, commit.as_ref())),
        Job::Rounds { head, first, raws } => {
            out.extend(
                raws.iter()
                    .zip(*first..)
                    .map(|(raw, i)| check::check_round(head, i, raw)),
            );
        }
        Job::Lines(lines) => {
            for (line, epoch, text) in lines {
                let text = text.as_ref().map(Vec::as_slice).map_err(|n| *n);
                read_line_epoch(*line, *epoch, text, options, out);
            }
        }
        Job::Epoch { epoch, line, text } => read_whole_epoch(*epoch, *line, text, options, out),
        Job::Batch(jobs) => {
            for job in jobs {
                run_job(job, options, out);
            }
        }
    }
}

/// Reads and checks a document's epoch cut out whole, as the reader would
/// have read it in place: the same events, and where its text breaks, the
/// same finding, after which nothing counts ([`Event::Stop`]).
fn read_whole_epoch(epoch: u64, line: u64, text: &[u8], options: &Options, out: &mut Vec<Event>) {
    let ctx = Ctx::default();
    let result = {
        let mut sink = Inline {
            out: &mut *out,
            options,
        };
        let mut sc = Scanner::starting_at(text, line, options.max_value);
        read_epoch(&mut sc, epoch, None, &mut sink, &ctx, options)
    };
    let (line, e) = match result {
        Ok(()) => return,
        Err(ReadStop::Scan(ScanError::Syntax { line, message })) => (line, Err(message)),
        Err(ReadStop::Scan(ScanError::TooLarge { line, limit })) => (line, Ok(limit)),
        Err(ReadStop::Scan(ScanError::Io(e))) => (line, Err(e.to_string())),
        Err(ReadStop::Halted) => return,
    };
    let at = Place {
        line: Some(line),
        ..ctx.place()
    };
    out.push(Event::Invalid(
        match e {
            Err(message) => ProofError::NotJson { at, message },
            Ok(limit) => ProofError::TooLarge { at, limit },
        }
        .finding(),
    ));
    out.push(Event::Stop);
}

/// Reads and checks one JSON-lines epoch.
fn read_line_epoch(line: u64, epoch: u64, text: Result<&[u8], usize>, options: &Options, out: &mut Vec<Event>) {
    let at = Place::epoch(epoch, Some(line));
    let text = match text {
        Ok(t) => t,
        Err(len) => {
            out.push(Event::Epoch { epoch });
            let reason = format!(
                "the line has {len} bytes, more than {}; a larger epoch belongs in a proof document, whose rounds stream",
                options.max_line
            );
            out.push(Event::Invalid(ProofError::Shape { at, reason }.finding()));
            return;
        }
    };
    let ctx = Ctx::default();
    let result = {
        let mut sink = Inline {
            out: &mut *out,
            options,
        };
        let mut sc = Scanner::new(text);
        read_epoch(&mut sc, epoch, Some(line), &mut sink, &ctx, options).and_then(|()| Ok(sc.end()?))
    };
    if let Err(ReadStop::Scan(e)) = result {
        if !ctx.began.get() {
            out.push(Event::Epoch { epoch });
        }
        let message = match e {
            ScanError::Syntax { message, .. } => message,
            ScanError::Io(e) => e.to_string(),
            ScanError::TooLarge { limit, .. } => format!("a value of more than {limit} bytes"),
        };
        let at = Place {
            round: ctx.round.get(),
            ..at
        };
        out.push(Event::Invalid(ProofError::NotJson { at, message }.finding()));
        out.push(Event::EpochEnd {
            at: Place::epoch(epoch, Some(line)),
        });
    }
}

/// Where the reader is, for a syntax error's place; whether it stopped on purpose.
#[derive(Default)]
pub(crate) struct Ctx {
    epoch: Cell<Option<u64>>,
    round: Cell<Option<u64>>,
    /// The current epoch's `Epoch` event is out.
    began: Cell<bool>,
}

impl Ctx {
    pub(crate) fn place(&self) -> Place {
        Place {
            epoch: self.epoch.get(),
            round: self.round.get(),
            line: None,
        }
    }
}

/// Why reading stopped early.
#[derive(Debug)]
pub(crate) enum ReadStop {
    /// The text is not JSON here, or cannot be read.
    Scan(ScanError),
    /// On purpose: a version this reader does not know (already reported),
    /// or nobody takes jobs any more.
    Halted,
}

impl From<ScanError> for ReadStop {
    fn from(e: ScanError) -> Self {
        ReadStop::Scan(e)
    }
}

impl From<io::Error> for ReadStop {
    fn from(e: io::Error) -> Self {
        ReadStop::Scan(ScanError::Io(e))
    }
}

impl From<Stop> for ReadStop {
    fn from(_: Stop) -> Self {
        ReadStop::Halted
    }
}

fn invalid_event(at: Place, field: &str, reason: impl Into<String>) -> Event {
    Event::Invalid(FieldError::new(field, reason).at(at).finding())
}

/// A small value (a commitment, a seed, a title), parsed.
fn small<R: BufRead>(sc: &mut Scanner<R>) -> Result<Value, ScanError> {
    let mut raw = Vec::new();
    sc.value(&mut raw)?;
    if let Some(text) = crate::base::json::plain_string(&raw) {
        return Ok(Value::String(text));
    }
    serde_json::from_slice(&raw).map_err(|e| {
        // serde's own position is within the value; the scanner's line is the one that counts.
        let text = String::from_utf8_lossy(&raw);
        let excerpt: String = text.chars().take(40).collect();
        let what = e.to_string();
        let what = what.rsplit_once(" at line ").map_or(what.as_str(), |(w, _)| w);
        sc.syntax(format!("{excerpt:?} is not a JSON value ({what})"))
    })
}

/// Consumes a value that has the wrong type and names its type; a list or
/// an object is skipped, not parsed.
fn type_of<R: BufRead>(sc: &mut Scanner<R>) -> Result<&'static str, ScanError> {
    match sc.peek()? {
        Some(b'[') => sc.skip().map(|()| "a list"),
        Some(b'{') => sc.skip().map(|()| "an object"),
        _ => small(sc).map(|v| type_name(&v)),
    }
}

/// Reads a whole document into jobs. A syntax error is the caller's to
/// report, at `ctx.place()`.
pub(crate) fn read_document<R: BufRead, S: Sink>(
    input: R,
    sink: &mut S,
    ctx: &Ctx,
    options: &Options,
) -> Result<(), ReadStop> {
    let mut sc = Scanner::with_limit(input, options.max_value);
    let report = |sink: &mut S, field: &str, reason: String| {
        sink.job(Job::Events(vec![invalid_event(Place::default(), field, reason)]))
    };
    let mut seen = HashSet::new();
    let mut more = !sc.open(b'{', b'}')?;
    while more {
        let key = sc.key()?;
        if seen.contains(&key) {
            sc.skip()?;
            report(sink, &key, "appears twice".into())?;
        } else {
            seen.insert(key.clone());
            match key.as_str() {
                "proof" => {
                    let v = small(&mut sc)?;
                    if v.as_u64() != Some(super::VERSION) {
                        let reason = format!(
                            "version {} is not one this reader knows (it reads version 1)",
                            short(&v)
                        );
                        report(sink, "proof", reason)?;
                        return Err(ReadStop::Halted);
                    }
                }
                "title" => {
                    let v = small(&mut sc)?;
                    if !v.is_string() {
                        report(sink, "title", format!("must be a string, not {}", short(&v)))?;
                    }
                }
                "epochs" if sc.peek()? == Some(b'[') => read_epochs(&mut sc, sink, ctx, options)?,
                "epochs" => {
                    let t = type_of(&mut sc)?;
                    report(sink, "epochs", format!("must be a list of epochs, not {t}"))?;
                }
                _ => {
                    sc.skip()?;
                    let reason = "is not a field of a proof document (proof, title, epochs)";
                    report(sink, &key, reason.into())?;
                }
            }
        }
        more = sc.more(b'}')?;
    }
    if !seen.contains("epochs") {
        report(sink, "epochs", "is missing".into())?;
    }
    Ok(sc.end()?)
}

fn read_epochs<R: BufRead, S: Sink>(
    sc: &mut Scanner<R>,
    sink: &mut S,
    ctx: &Ctx,
    options: &Options,
) -> Result<(), ReadStop> {
    if sc.open(b'[', b']')? {
        return Ok(());
    }
    let mut epoch = 0;
    loop {
        // A text that ends between epochs is no epoch's.
        if sc.peek()?.is_none() {
            return Err(sc.syntax("expected an epoch, found the end of the text").into());
        }
        // A small epoch already buffered goes to a worker whole (Options::whole_epochs).
        let max = if options.stats.is_some() {
            0
        } else {
            options.whole_epochs.min(options.max_value)
        };
        let mut text = if max > 0 { sink.buffer() } else { Vec::new() };
        let line = sc.line();
        if max > 0 && sc.buffered_object(&mut text, max)? {
            sink.job(Job::Epoch { epoch, line, text })?;
        } else {
            read_epoch(sc, epoch, None, sink, ctx, options)?;
        }
        ctx.epoch.set(None);
        if !sc.more(b']')? {
            return Ok(());
        }
        epoch += 1;
    }
}

/// Reads one epoch (an element of `epochs`, or a JSON line): its pieces go
/// out in key order once its secret is known.
fn read_epoch<R: BufRead, S: Sink>(
    sc: &mut Scanner<R>,
    epoch: u64,
    line: Option<u64>,
    sink: &mut S,
    ctx: &Ctx,
    options: &Options,
) -> Result<(), ReadStop> {
    let mut b = EpochBuilder::new(epoch, line, sink, ctx);
    b.begin()?;
    let result = epoch_members(sc, &mut b, options);
    if result.is_err() {
        // The text breaks inside the epoch: what was read before goes out
        // ahead of the break's finding (rounds waiting for a secret that
        // never came are checked without one).
        b.settle()?;
    } else {
        // After every other event of the epoch: where its bet history's gaps are listed.
        let at = b.at();
        b.sink.job(Job::Events(vec![Event::EpochEnd { at }]))?;
    }
    result
}

/// The keys of an epoch seen so far. An epoch has three or four keys, so a
/// list (no hashing, one allocation per epoch saved); a set once there
/// are many, so that an epoch of many distinct keys is read in linear time.
#[derive(Default)]
struct Keys {
    few: Vec<String>,
    many: HashSet<String>,
}

impl Keys {
    const FEW: usize = 16;

    fn contains(&self, key: &str) -> bool {
        self.few.iter().any(|k| k == key) || self.many.contains(key)
    }

    fn insert(&mut self, key: String) {
        if self.few.len() < Self::FEW {
            self.few.push(key);
        } else {
            self.many.insert(key);
        }
    }
}

fn epoch_members<R: BufRead, S: Sink>(
    sc: &mut Scanner<R>,
    b: &mut EpochBuilder<'_, S>,
    options: &Options,
) -> Result<(), ReadStop> {
    if sc.peek()? != Some(b'{') {
        let t = type_of(sc)?;
        let reason = format!("an epoch must be a JSON object, not {t}");
        let e = ProofError::Shape { at: b.at(), reason };
        b.sink.job(Job::Events(vec![Event::Invalid(e.finding())]))?;
        return Ok(());
    }
    let mut seen = Keys::default();
    let mut more = !sc.open(b'{', b'}')?;
    while more {
        let key = sc.key()?;
        if seen.contains(&key) {
            sc.skip()?;
            b.invalid(&key, "appears twice")?;
        } else {
            epoch_member(sc, b, &key, options)?;
            seen.insert(key);
        }
        more = sc.more(b'}')?;
    }
    if !seen.contains("rounds") {
        b.invalid("rounds", "is missing")?;
    }
    if !seen.contains("commit") {
        b.piece(Piece::Commit(None))?;
    }
    b.settle()?;
    Ok(())
}

fn epoch_member<R: BufRead, S: Sink>(
    sc: &mut Scanner<R>,
    b: &mut EpochBuilder<'_, S>,
    key: &str,
    options: &Options,
) -> Result<(), ReadStop> {
    if key == "commit" {
        let v = small(sc)?;
        b.piece(Piece::Commit(Some(v)))?;
    } else if key == "rounds" {
        if sc.peek()? == Some(b'[') {
            read_rounds(sc, b, options)?;
        } else {
            let t = type_of(sc)?;
            b.invalid("rounds", format!("must be a list of rounds, not {t}"))?;
        }
    } else if let Some(field) = check::secret_fields().iter().find(|f| **f == key) {
        let v = small(sc)?;
        match &b.secret {
            Some((other, _)) => {
                let reason = format!("an epoch carries one secret; this one has {other:?} already");
                b.invalid(key, reason)?;
            }
            None => {
                b.secret = Some((field, v));
                b.settle()?;
            }
        }
    } else {
        sc.skip()?;
        let mut reason = format!(
            "is not a field of an epoch (commit, {}, rounds)",
            check::secret_fields().join(", ")
        );
        if b.line.is_some() && key == "proof" {
            reason.push_str("; a proof document must begin with {\"proof\"");
        }
        b.invalid(key, reason)?;
    }
    Ok(())
}

/// Reads an epoch's rounds: each cut out as text and handed on in batches,
/// or, for a JSON line whose secret is known, checked at once.
fn read_rounds<R: BufRead, S: Sink>(
    sc: &mut Scanner<R>,
    b: &mut EpochBuilder<'_, S>,
    options: &Options,
) -> Result<(), ReadStop> {
    if sc.open(b'[', b']')? {
        return Ok(());
    }
    let ctx = b.ctx;
    let in_place = b.head.clone().filter(|_| b.sink.now().is_some());
    let (mut first, mut next, mut bytes) = (0u64, 0u64, 0usize);
    let mut batch = Vec::new();
    // Rounds in a row are much alike: room for the last one's length saves regrowing.
    let mut raw = b.sink.buffer();
    let result = loop {
        ctx.round.set(Some(next));
        if let Err(e) = sc.value(&mut raw) {
            break Err(e.into());
        }
        ctx.round.set(None);
        match &in_place {
            Some(head) => {
                let event = check::check_round(head, next, &raw);
                b.sink.now().expect("a sink that checks in place").push(event);
                raw.clear();
            }
            None => {
                bytes += raw.len();
                let room = raw.len();
                let mut next = b.sink.buffer();
                next.reserve(room);
                batch.push(std::mem::replace(&mut raw, next));
            }
        }
        next += 1;
        if batch.len() >= options.batch_rounds || bytes >= options.batch_bytes {
            b.piece(Piece::Rounds(first, std::mem::take(&mut batch)))?;
            (first, bytes) = (next, 0);
        }
        match sc.more(b']') {
            Ok(true) => {}
            Ok(false) => break Ok(()),
            Err(e) => break Err(e.into()),
        }
    };
    // The rounds read before a break are complete: they are checked and
    // counted, so the count and the break's place agree.
    if !batch.is_empty() {
        b.piece(Piece::Rounds(first, batch))?;
    }
    result
}

/// A piece of an epoch, waiting for its secret.
enum Piece {
    Events(Vec<Event>),
    Commit(Option<Value>),
    Rounds(u64, Vec<Vec<u8>>),
}

/// An epoch being read: its pieces go out in key order, once its secret is known.
struct EpochBuilder<'a, S> {
    epoch: u64,
    line: Option<u64>,
    sink: &'a mut S,
    ctx: &'a Ctx,
    secret: Option<(&'static str, Value)>,
    head: Option<Arc<EpochHead>>,
    pending: Vec<Piece>,
}

impl<'a, S: Sink> EpochBuilder<'a, S> {
    fn new(epoch: u64, line: Option<u64>, sink: &'a mut S, ctx: &'a Ctx) -> Self {
        EpochBuilder {
            epoch,
            line,
            sink,
            ctx,
            secret: None,
            head: None,
            pending: Vec::new(),
        }
    }

    fn begin(&mut self) -> Result<(), Stop> {
        self.ctx.epoch.set(Some(self.epoch));
        self.ctx.began.set(true);
        self.sink.job(Job::Events(vec![Event::Epoch { epoch: self.epoch }]))
    }

    fn at(&self) -> Place {
        Place::epoch(self.epoch, self.line)
    }

    fn invalid(&mut self, field: &str, reason: impl Into<String>) -> Result<(), Stop> {
        let e = invalid_event(self.at(), field, reason);
        self.piece(Piece::Events(vec![e]))
    }

    fn piece(&mut self, piece: Piece) -> Result<(), Stop> {
        match &self.head {
            None => {
                self.pending.push(piece);
                Ok(())
            }
            Some(head) => {
                let head = Arc::clone(head);
                self.sink.job(match piece {
                    Piece::Events(events) => Job::Events(events),
                    Piece::Commit(commit) => Job::Commit { head, commit },
                    Piece::Rounds(first, raws) => Job::Rounds { head, first, raws },
                })
            }
        }
    }

    /// The secret is known (or the epoch ended without one): everything waiting goes out.
    fn settle(&mut self) -> Result<(), Stop> {
        if self.head.is_none() {
            self.head = Some(Arc::new(EpochHead {
                epoch: self.epoch,
                line: self.line,
                secret: self.secret.clone(),
            }));
            for piece in std::mem::take(&mut self.pending) {
                self.piece(piece)?;
            }
        }
        Ok(())
    }
}

/// Why a text whose first line is `first` is no proof at all (a README, a
/// JSON file of something else), or `None`: a first line that is not a
/// JSON object cannot be an epoch, and the lines after it are then not
/// epochs either, so one finding says so instead of one per line.
fn not_a_proof(first: &[u8]) -> Option<String> {
    let text = first.trim_ascii_start();
    let object = text.first() == Some(&b'{') && serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok();
    if object {
        return None;
    }
    let begins = text.first().map_or_else(String::new, |&b| {
        if b.is_ascii_graphic() {
            format!(" (it begins with '{}')", b as char)
        } else {
            format!(" (it begins with byte {b:#04x})")
        }
    });
    Some(format!(
        "this is not a proof document: a proof is a JSON document that begins with {{\"proof\", or JSON lines of epoch objects, and its first line is not a JSON object{begins}"
    ))
}

/// Reads JSON lines into jobs: batches of lines, each line one epoch.
/// Blank lines are skipped (but counted for line numbers).
pub(crate) fn read_lines<R: BufRead, S: Sink>(mut input: R, sink: &mut S, options: &Options) -> io::Result<()> {
    let (mut line, mut epoch, mut bytes) = (0u64, 0u64, 0usize);
    let mut batch = Vec::new();
    loop {
        let mut buf = sink.buffer();
        // At most one byte past the limit is read, so a runaway line never fills memory.
        let limit = u64::try_from(options.max_line).unwrap_or(u64::MAX).saturating_add(1);
        let n = (&mut input).take(limit).read_until(b'\n', &mut buf)?;
        if n == 0 {
            break;
        }
        let text = if buf.last() == Some(&b'\n') {
            buf.pop();
            Ok(buf)
        } else if buf.len() > options.max_line {
            Err(buf.len() + crate::base::lines::skip_line(&mut input)?)
        } else {
            Ok(buf)
        };
        line += 1;
        if let Ok(t) = &text {
            if t.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
        }
        if epoch == 0 {
            if let Some(reason) = text.as_ref().ok().and_then(|t| not_a_proof(t)) {
                let at = Place {
                    line: Some(line),
                    ..Place::default()
                };
                let _ = sink.job(Job::Events(vec![Event::Invalid(
                    ProofError::Shape { at, reason }.finding(),
                )]));
                return Ok(());
            }
        }
        bytes += text.as_ref().map_or(0, Vec::len);
        batch.push((line, epoch, text));
        epoch += 1;
        if batch.len() >= options.batch_rounds || bytes >= options.batch_bytes {
            if sink.job(Job::Lines(std::mem::take(&mut batch))).is_err() {
                return Ok(());
            }
            bytes = 0;
        }
    }
    if !batch.is_empty() {
        let _ = sink.job(Job::Lines(batch));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_told_from_json_lines_by_its_first_key() {
        for (text, want) in [
            ("{\"proof\": 1}", Format::Document),
            ("  \n{ \n \"proof\":1}", Format::Document),
            ("{\"commit\": null, \"proof\": 1}", Format::Lines),
            ("{\"proofs\": 1}", Format::Lines),
            ("[1]", Format::Lines),
            ("", Format::Lines),
            ("{\"pro", Format::Lines),
        ] {
            let (got, mut rest) = sniff(text.as_bytes()).unwrap();
            assert_eq!(got, want, "{text:?}");
            let mut back = String::new();
            rest.read_to_string(&mut back).unwrap();
            assert_eq!(back, text, "the sniffed bytes are read again");
        }
    }
}
