//! Reading proofs as a stream.
//!
//! A document is read by serde's streaming visitors: the `epochs` array one
//! epoch at a time, each epoch's `rounds` one round at a time, every round
//! kept as its raw JSON text ([`RawValue`]) and handed on in batches, so a
//! worker parses and checks it and the reader only scans. JSON lines are
//! split at newlines and each line is parsed by a worker with the same
//! epoch visitor.
//!
//! Findings come out in document order. An epoch's rounds need its secret,
//! and its `commit` is checked against it, so until the secret's key has
//! been read the epoch's pieces (commitment, findings, rounds) wait in key
//! order; an epoch written as `commit`, secret, `rounds` (the order
//! `provably proof` writes) streams without waiting.

use std::cell::Cell;
use std::fmt;
use std::io::{self, BufRead, Read};
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use super::check::{self, EpochHead};
use super::run::Options;
use super::{Event, FieldError, Place, ProofError};
use crate::op::short;

/// How a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `{"proof": 1, …}`: one document.
    Document,
    /// One epoch object per line.
    Lines,
}

const MARK: &[u8] = b"\"proof\"";

/// The input again, the bytes looked at first included.
pub type Sniffed<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// Decides the format from the first bytes (`{`, optional white space,
/// `"proof"` makes a document) and returns a reader that still yields them.
pub fn sniff<R: Read>(mut input: R) -> io::Result<(Format, Sniffed<R>)> {
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
    Ok((format, io::Cursor::new(prefix).chain(input)))
}

/// `None` while the bytes seen do not decide yet.
fn decide(prefix: &[u8]) -> Option<Format> {
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
        raws: Vec<Box<RawValue>>,
    },
    /// JSON-lines epochs: (line, epoch, the line or its length when too long).
    Lines(Vec<(u64, u64, Result<Vec<u8>, usize>)>),
    /// Small jobs in a row, sent as one (a document of many short epochs).
    Batch(Vec<Job>),
}

impl Job {
    /// How much work a job is, in rounds (or lines), and its bytes: what a batch is measured by.
    pub(crate) fn weight(&self) -> (usize, usize) {
        match self {
            Job::Events(_) | Job::Commit { .. } => (1, 0),
            Job::Rounds { raws, .. } => (raws.len(), raws.iter().map(|r| r.get().len()).sum()),
            Job::Lines(lines) => (
                lines.len(),
                lines.iter().map(|(_, _, t)| t.as_ref().map_or(0, Vec::len)).sum(),
            ),
            Job::Batch(jobs) => jobs.iter().map(Job::weight).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1)),
        }
    }
}

/// The run stopped: nobody takes jobs any more.
#[derive(Debug)]
pub(crate) struct Stop;

/// Where jobs go: the worker pool, or straight into a list (one JSON line).
pub(crate) trait Sink {
    fn job(&mut self, job: Job) -> Result<(), Stop>;
    /// Where a round read from borrowed text (one JSON line) is checked at
    /// once, without a copy; `None` for a sink that hands rounds on.
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
        run_job(job, self.options, self.out);
        Ok(())
    }
    fn now(&mut self) -> Option<&mut Vec<Event>> {
        Some(self.out)
    }
}

/// Does a job, appending its events.
pub(crate) fn run_job(job: Job, options: &Options, out: &mut Vec<Event>) {
    match job {
        Job::Events(events) => out.extend(events),
        Job::Commit { head, commit } => out.push(check::check_commit(&head, commit.as_ref())),
        Job::Rounds { head, first, raws } => {
            out.extend(
                raws.iter()
                    .zip(first..)
                    .map(|(raw, i)| check::check_round(&head, i, raw.get())),
            );
        }
        Job::Lines(lines) => {
            for (line, epoch, text) in lines {
                read_line_epoch(line, epoch, text, options, out);
            }
        }
        Job::Batch(jobs) => {
            for job in jobs {
                run_job(job, options, out);
            }
        }
    }
}

/// Reads and checks one JSON-lines epoch.
fn read_line_epoch(line: u64, epoch: u64, text: Result<Vec<u8>, usize>, options: &Options, out: &mut Vec<Event>) {
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
    let mut sink = Inline { out, options };
    let mut de = serde_json::Deserializer::from_slice(&text);
    let seed = EpochSeed {
        epoch,
        line: Some(line),
        sink: &mut sink,
        ctx: &ctx,
        options,
    };
    let result = seed.deserialize(&mut de).and_then(|()| de.end());
    if let Err(e) = result {
        if !ctx.began.get() {
            out.push(Event::Epoch { epoch });
        }
        let at = Place {
            round: ctx.round.get(),
            ..at
        };
        out.push(Event::Invalid(
            ProofError::NotJson {
                at,
                message: e.to_string(),
            }
            .finding(),
        ));
    }
}

/// Where the reader is, for a syntax error's place; whether it stopped on purpose.
#[derive(Default)]
pub(crate) struct Ctx {
    epoch: Cell<Option<u64>>,
    round: Cell<Option<u64>>,
    /// The current epoch's `Epoch` event is out.
    began: Cell<bool>,
    /// Reading stopped on purpose (a version this reader does not know, or no listener).
    halted: Cell<bool>,
}

impl Ctx {
    pub(crate) fn place(&self) -> Place {
        Place {
            epoch: self.epoch.get(),
            round: self.round.get(),
            line: None,
        }
    }
    pub(crate) fn halted(&self) -> bool {
        self.halted.get()
    }
}

fn halt<E: de::Error>(ctx: &Ctx) -> E {
    ctx.halted.set(true);
    E::custom("reading stopped")
}

/// One of a value's JSON type, for a value that should have been another.
#[derive(Debug)]
struct Other(&'static str);

/// Visit methods for every JSON type but the one a visitor wants: they
/// consume the value and return its type.
macro_rules! other_types {
    ($($skip:ident)?) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> { Ok(Err(Other("a boolean"))) }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> { Ok(Err(Other("a number"))) }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> { Ok(Err(Other("a number"))) }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> { Ok(Err(Other("a number"))) }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> { Ok(Err(Other("a string"))) }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> { Ok(Err(Other("null"))) }
        other_types!(@ $($skip)?);
    };
    (@ seq) => {
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Err(Other("an object")))
        }
    };
    (@ map) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Err(Other("a list")))
        }
    };
}

/// Reads a whole document into jobs. The caller reports a syntax error
/// (serde's error) at `ctx.place()` unless `ctx.halted()`.
pub(crate) fn read_document<R: Read, S: Sink>(
    input: R,
    sink: &mut S,
    ctx: &Ctx,
    options: &Options,
) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_reader(input);
    de.deserialize_map(DocumentVisitor { sink, ctx, options })?;
    de.end()
}

fn invalid_event(at: Place, field: &str, reason: impl Into<String>) -> Event {
    Event::Invalid(FieldError::new(field, reason).at(at).finding())
}

struct DocumentVisitor<'a, S> {
    sink: &'a mut S,
    ctx: &'a Ctx,
    options: &'a Options,
}

impl<'de, S: Sink> Visitor<'de> for DocumentVisitor<'_, S> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a proof document")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: Vec<String> = Vec::new();
        let report = |sink: &mut S, field: &str, reason: String| {
            sink.job(Job::Events(vec![invalid_event(Place::default(), field, reason)]))
                .map_err(|Stop| halt::<A::Error>(self.ctx))
        };
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                map.next_value::<IgnoredAny>()?;
                report(self.sink, &key, "appears twice".into())?;
                continue;
            }
            seen.push(key.clone());
            match key.as_str() {
                "proof" => {
                    let v: Value = map.next_value()?;
                    if v.as_u64() != Some(super::VERSION) {
                        report(
                            self.sink,
                            "proof",
                            format!(
                                "version {} is not one this reader knows (it reads version 1)",
                                short(&v)
                            ),
                        )?;
                        return Err(halt(self.ctx));
                    }
                }
                "title" => {
                    let v: Value = map.next_value()?;
                    if !v.is_string() {
                        report(self.sink, "title", format!("must be a string, not {}", short(&v)))?;
                    }
                }
                "epochs" => {
                    let seed = EpochsSeed {
                        sink: &mut *self.sink,
                        ctx: self.ctx,
                        options: self.options,
                    };
                    if let Err(Other(t)) = map.next_value_seed(seed)? {
                        report(self.sink, "epochs", format!("must be a list of epochs, not {t}"))?;
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    report(
                        self.sink,
                        &key,
                        "is not a field of a proof document (proof, title, epochs)".into(),
                    )?;
                }
            }
        }
        if !seen.iter().any(|k| k == "epochs") {
            report(self.sink, "epochs", "is missing".into())?;
        }
        Ok(())
    }
}

struct EpochsSeed<'a, S> {
    sink: &'a mut S,
    ctx: &'a Ctx,
    options: &'a Options,
}

impl<'de, S: Sink> DeserializeSeed<'de> for EpochsSeed<'_, S> {
    type Value = Result<(), Other>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, S: Sink> Visitor<'de> for EpochsSeed<'_, S> {
    type Value = Result<(), Other>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of epochs")
    }

    other_types!(seq);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut epoch = 0;
        loop {
            let seed = EpochSeed {
                epoch,
                line: None,
                sink: &mut *self.sink,
                ctx: self.ctx,
                options: self.options,
            };
            let more = seq.next_element_seed(seed)?.is_some();
            // Between epochs a syntax error belongs to no epoch.
            self.ctx.epoch.set(None);
            if !more {
                break;
            }
            epoch += 1;
        }
        Ok(Ok(()))
    }
}

/// Reads one epoch object (an element of `epochs`, or one JSON line).
struct EpochSeed<'a, S> {
    epoch: u64,
    line: Option<u64>,
    sink: &'a mut S,
    ctx: &'a Ctx,
    options: &'a Options,
}

impl<'de, S: Sink> DeserializeSeed<'de> for EpochSeed<'_, S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let (epoch, line, ctx) = (self.epoch, self.line, self.ctx);
        let mut builder = EpochBuilder::new(epoch, line, self.sink, ctx);
        builder.begin().map_err(|Stop| halt::<D::Error>(ctx))?;
        let visitor = EpochVisitor {
            b: &mut builder,
            options: self.options,
        };
        match d.deserialize_any(visitor)? {
            Ok(()) => Ok(()),
            Err(Other(t)) => {
                let reason = format!("an epoch must be a JSON object, not {t}");
                let e = ProofError::Shape {
                    at: Place::epoch(epoch, line),
                    reason,
                };
                builder
                    .sink
                    .job(Job::Events(vec![Event::Invalid(e.finding())]))
                    .map_err(|Stop| halt(ctx))
            }
        }
    }
}

/// A piece of an epoch, waiting for its secret.
enum Piece {
    Events(Vec<Event>),
    Commit(Option<Value>),
    Rounds(u64, Vec<Box<RawValue>>),
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

struct EpochVisitor<'b, 'a, S> {
    b: &'b mut EpochBuilder<'a, S>,
    options: &'b Options,
}

impl<'de, S: Sink> Visitor<'de> for EpochVisitor<'_, '_, S> {
    type Value = Result<(), Other>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an epoch object")
    }

    other_types!(map);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let b = self.b;
        let ctx = b.ctx;
        let stop = |Stop| halt::<A::Error>(ctx);
        let mut seen: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                map.next_value::<IgnoredAny>()?;
                b.invalid(&key, "appears twice").map_err(stop)?;
                continue;
            }
            seen.push(key.clone());
            if key == "commit" {
                let v: Value = map.next_value()?;
                b.piece(Piece::Commit(Some(v))).map_err(stop)?;
            } else if key == "rounds" {
                let seed = RoundsSeed {
                    b: &mut *b,
                    options: self.options,
                };
                if let Err(Other(t)) = map.next_value_seed(seed)? {
                    b.invalid("rounds", format!("must be a list of rounds, not {t}"))
                        .map_err(stop)?;
                }
            } else if let Some(field) = check::secret_fields().iter().find(|f| **f == key) {
                let v: Value = map.next_value()?;
                match &b.secret {
                    Some((other, _)) => {
                        let reason = format!("an epoch carries one secret; this one has {other:?} already");
                        b.invalid(&key, reason).map_err(stop)?;
                    }
                    None => {
                        b.secret = Some((field, v));
                        b.settle().map_err(stop)?;
                    }
                }
            } else {
                map.next_value::<IgnoredAny>()?;
                let mut reason = format!(
                    "is not a field of an epoch (commit, {}, rounds)",
                    check::secret_fields().join(", ")
                );
                if b.line.is_some() && key == "proof" {
                    reason.push_str("; a proof document must begin with {\"proof\"");
                }
                b.invalid(&key, reason).map_err(stop)?;
            }
        }
        if !seen.iter().any(|k| k == "rounds") {
            b.invalid("rounds", "is missing").map_err(stop)?;
        }
        if !seen.iter().any(|k| k == "commit") {
            b.piece(Piece::Commit(None)).map_err(stop)?;
        }
        b.settle().map_err(stop)?;
        Ok(Ok(()))
    }
}

struct RoundsSeed<'b, 'a, S> {
    b: &'b mut EpochBuilder<'a, S>,
    options: &'b Options,
}

impl<'de, S: Sink> DeserializeSeed<'de> for RoundsSeed<'_, '_, S> {
    type Value = Result<(), Other>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, S: Sink> Visitor<'de> for RoundsSeed<'_, '_, S> {
    type Value = Result<(), Other>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of rounds")
    }

    other_types!(seq);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let b = self.b;
        let ctx = b.ctx;
        // A JSON line is in memory: once the secret is known its rounds are
        // checked in place, borrowed from the line.
        if let (Some(head), true) = (b.head.clone(), b.sink.now().is_some()) {
            let mut next = 0u64;
            loop {
                ctx.round.set(Some(next));
                let Some(raw) = seq.next_element::<&'de RawValue>()? else {
                    break;
                };
                let event = check::check_round(&head, next, raw.get());
                b.sink.now().expect("checked above").push(event);
                next += 1;
            }
            ctx.round.set(None);
            return Ok(Ok(()));
        }
        let (mut first, mut next, mut bytes) = (0u64, 0u64, 0usize);
        let mut batch = Vec::new();
        loop {
            let Some(raw) = seq.next_element_seed(RawSeed { ctx, round: next })? else {
                break;
            };
            bytes += raw.get().len();
            batch.push(raw);
            next += 1;
            if batch.len() >= self.options.batch_rounds || bytes >= self.options.batch_bytes {
                b.piece(Piece::Rounds(first, std::mem::take(&mut batch)))
                    .map_err(|Stop| halt::<A::Error>(ctx))?;
                (first, bytes) = (next, 0);
            }
        }
        if !batch.is_empty() {
            b.piece(Piece::Rounds(first, batch))
                .map_err(|Stop| halt::<A::Error>(ctx))?;
        }
        Ok(Ok(()))
    }
}

/// One round kept as raw text; a syntax error inside it belongs to it.
struct RawSeed<'a> {
    ctx: &'a Ctx,
    round: u64,
}

impl<'de> DeserializeSeed<'de> for RawSeed<'_> {
    type Value = Box<RawValue>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Box<RawValue>, D::Error> {
        self.ctx.round.set(Some(self.round));
        let raw = serde::Deserialize::deserialize(d)?;
        self.ctx.round.set(None);
        Ok(raw)
    }
}

/// Reads JSON lines into jobs: batches of lines, each line one epoch.
/// Blank lines are skipped (but counted for line numbers).
pub(crate) fn read_lines<R: BufRead, S: Sink>(mut input: R, sink: &mut S, options: &Options) -> io::Result<()> {
    let (mut line, mut epoch, mut bytes) = (0u64, 0u64, 0usize);
    let mut batch = Vec::new();
    loop {
        let mut buf = Vec::new();
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
            Err(buf.len() + crate::lines::skip_line(&mut input)?)
        } else {
            Ok(buf)
        };
        line += 1;
        if let Ok(t) = &text {
            if t.iter().all(u8::is_ascii_whitespace) {
                continue;
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
