//! Walking a proof document as a stream.
//!
//! A document is walked by a structural scanner ([`super::scan`]): the
//! `epochs` list one epoch at a time, each epoch's `rounds` one round at a
//! time, every round cut out as its text and handed on in batches, so a
//! worker parses and checks it and the reader only scans. A round's text
//! is held to JSON by the worker that parses it, so a round that is not
//! JSON inside is that round's finding.
//!
//! Findings come out in document order. An epoch's rounds need its secret,
//! and its `commit` is checked against it, so until the secret's key has
//! been read the epoch's pieces (commitment, findings, rounds) wait in key
//! order; an epoch written as `commit`, secret, `rounds` (the order
//! `provably proof` writes) streams without waiting.

use std::cell::Cell;
use std::collections::HashSet;
use std::io::{self, BufRead};
use std::sync::Arc;

use serde_json::Value;

use super::commit::{self, EpochHead};
use super::jobs::{Inline, Job, Sink, Stop};
use super::run::Options;
use super::scan::{ScanError, Scanner};
use super::{Event, FieldError, Place, ProofError};
use crate::op::{short, type_name};

/// Reads and checks a document's epoch cut out whole, as the reader would
/// have read it in place: the same events, and where its text breaks, the
/// same finding, after which nothing counts ([`Event::Stop`]).
pub(crate) fn read_whole_epoch(
    epoch: u64,
    line: u64,
    text: &[u8],
    options: &Options,
    out: &mut Vec<Event>,
    part: &mut super::jobs::Part<'_>,
) {
    let ctx = Ctx::default();
    let result = {
        let mut sink = Inline {
            out: &mut *out,
            options,
            part,
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

/// Where the reader is, for a syntax error's place; whether it stopped on purpose.
#[derive(Default)]
pub(crate) struct Ctx {
    pub epoch: Cell<Option<u64>>,
    pub round: Cell<Option<u64>>,
    /// The current epoch's `Epoch` event is out.
    pub(crate) began: Cell<bool>,
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
    let mut sc = Scanner::starting_at(input, options.first_line + 1, options.max_value);
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
                    if !v.as_u64().is_some_and(|n| super::READS.contains(&n)) {
                        let reason = format!(
                            "version {} is not one this reader knows (it reads versions 1 and 2)",
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
    let mut epoch = options.first_epoch;
    // The length of the last epoch: an archive's epochs are much alike, and
    // fewer bytes buffered than that means this one most likely runs past
    // them. Then the walk that would find it out is not made: it is wasted
    // (the epoch is read in place and walked again), and for indented
    // epochs of half the buffer it was most of the walks.
    let mut last_len = 0;
    loop {
        // A text that ends between epochs is no epoch's.
        if sc.peek()?.is_none() {
            return Err(sc.syntax("expected an epoch, found the end of the text").into());
        }
        // A small epoch already buffered goes to a worker whole (Options::whole_epochs).
        let max = options.whole_epochs.min(options.max_value);
        let line = sc.line();
        let start = sc.consumed();
        // A spare buffer is taken only for an epoch that may go whole: one
        // read in place would drop it unused.
        let mut whole = None;
        if max > 0 && last_len <= max && sc.buffered()? >= last_len {
            let mut text = sink.buffer();
            if sc.buffered_object(&mut text, max)? {
                whole = Some(text);
            }
        }
        match whole {
            Some(text) => sink.job(Job::Epoch { epoch, line, text })?,
            None => read_epoch(sc, epoch, None, sink, ctx, options)?,
        }
        last_len = usize::try_from(sc.consumed() - start).unwrap_or(usize::MAX);
        ctx.epoch.set(None);
        if !sc.more(b']')? {
            return Ok(());
        }
        epoch += 1;
    }
}

/// Reads one epoch (an element of `epochs`, or a JSON line): its pieces go
/// out in key order once its secret is known.
pub(crate) fn read_epoch<R: BufRead, S: Sink>(
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
    } else if let Some(field) = commit::head_fields().iter().find(|f| **f == key) {
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
            commit::head_fields().join(", ")
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
                let event = super::game::check(head, next, &raw, options.stats);
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
            self.head = Some(Arc::new(EpochHead::new(self.epoch, self.line, self.secret.clone())));
            for piece in std::mem::take(&mut self.pending) {
                self.piece(piece)?;
            }
        }
        Ok(())
    }
}
