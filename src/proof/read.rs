//! The audit's first stage: reading a proof into units of work, in
//! document order, as an iterator ([`Units`]) that checks nothing.
//!
//! A document is walked by a structural scanner ([`super::scan`]): the
//! `epochs` list one epoch at a time, each epoch's `rounds` one round at a
//! time, every round cut out as its text (not parsed) into a batch: a range
//! of the buffer the input is read into ([`super::chunks`]), not a copy. JSON
//! lines are read a line at a time, and each line's epoch is walked by the
//! same epoch walk ([`EpochWalk`], the one way into an epoch). A round's
//! text is held to JSON by the check that parses it, so a round that is not
//! JSON inside is that round's finding; the structure around the rounds is
//! the scanner's to hold, and where it breaks reading stops (a document) or
//! goes on at the next line (JSON lines) with a finding.
//!
//! An epoch's rounds need its secret, and its `commit` is checked against
//! it, so until the secret's key has been read the epoch's pieces
//! (commitment, findings, rounds) wait in key order; an epoch written as
//! `commit`, secret, `rounds` (the order `provably proof` writes) streams
//! without waiting.

use std::collections::{HashSet, VecDeque};
use std::io::{self, BufRead, Read};
use std::sync::Arc;

use serde_json::Value;

use super::chunks::{Chunks, Text};
use super::commit::{head_fields, EpochHead};
use super::format::Format;
use super::scan::{ScanError, Scanner};
use super::{Event, FieldError, Options, Place, ProofError};
use crate::op::{short, type_name};

/// A unit of work, in document order.
#[derive(Debug)]
pub(crate) enum Unit {
    /// Events the reader found itself: an epoch begins, a field is invalid.
    Events(Vec<Event>),
    /// An epoch's commitment to check (`None`: no `commit` key).
    Commit {
        head: Arc<EpochHead>,
        commit: Option<Value>,
    },
    /// Consecutive rounds of an epoch from round `first` on: their texts,
    /// ranges of the reader's buffers ([`Text`]).
    Rounds {
        head: Arc<EpochHead>,
        first: u64,
        rounds: Vec<Text>,
    },
    /// A small epoch whole, for a worker to read with the same epoch walk
    /// ([`epoch_units`]): a document's epoch already in the reader's buffer,
    /// its brackets counted (`document`), or a JSON line; `line` is where
    /// its text begins.
    Epoch {
        epoch: u64,
        line: u64,
        text: Text,
        document: bool,
    },
}

impl Unit {
    /// How much work the unit is: rounds, and bytes of round text.
    pub(crate) fn weight(&self) -> (usize, usize) {
        match self {
            Unit::Events(_) | Unit::Commit { .. } => (1, 0),
            Unit::Rounds { rounds, .. } => (rounds.len(), rounds.iter().map(|r| r.len()).sum()),
            // About as many rounds as `"op"` keys (a seed holding the text
            // only makes a batch smaller): what a worker hands back grows
            // with the rounds.
            Unit::Epoch { text, .. } => (memchr::memmem::find_iter(text, b"\"op\"").count().max(1), text.len()),
        }
    }
}

/// The units of a proof (a document or JSON lines, as `format` says).
pub(crate) fn units<R: BufRead>(format: Format, input: R, options: &Options) -> Units<R> {
    let source = match format {
        Format::Document => Source::Document(Document {
            sc: Scanner::starting_at(Chunks::new(input), options.first_line + 1, options.max_value),
            at: Doc::Start,
            seen: HashSet::new(),
            epoch: options.first_epoch,
            whole: options.whole_epochs.min(options.max_value),
            epoch_start: 0,
            last_len: 0,
        }),
        Format::Lines => Source::Lines(Lines {
            input,
            line: options.first_line,
            epoch: options.first_epoch,
            whole: options.whole_epochs,
            current: None,
        }),
    };
    Units::of(source, options)
}

/// The units of an epoch handed whole to a worker ([`Unit::Epoch`]), read
/// by the same epoch walk as in place. After a document's epoch that breaks,
/// [`Units::broke`]: nothing after it counts.
pub(crate) fn epoch_units(epoch: u64, line: u64, text: Text, document: bool, options: &Options) -> Units<io::Empty> {
    let max_value = if document { options.max_value } else { usize::MAX };
    let own = Own {
        sc: Scanner::starting_at(Chunks::whole(text), line, max_value),
        walk: EpochWalk::new(epoch, (!document).then_some(line)),
        line: !document,
    };
    Units::of(Source::Own(Box::new(own)), options)
}

/// The units of one input, read as they are asked for.
pub(crate) struct Units<R> {
    source: Source<R>,
    ready: VecDeque<Unit>,
    /// A batch of rounds ends after this many rounds or bytes.
    batch: (usize, usize),
    max_line: usize,
    done: bool,
    broke: bool,
}

enum Source<R> {
    Document(Document<R>),
    Lines(Lines<R>),
    Own(Box<Own>),
}

impl<R> Units<R> {
    fn of(source: Source<R>, options: &Options) -> Units<R> {
        Units {
            source,
            ready: VecDeque::new(),
            batch: (options.batch_rounds, options.batch_bytes),
            max_line: options.max_line,
            done: false,
            broke: false,
        }
    }

    /// A document's epoch read whole broke: what the reader read after it
    /// does not count (it stops there when it walks the epoch itself).
    pub(crate) fn broke(&self) -> bool {
        self.broke
    }
}

impl<R: BufRead> Iterator for Units<R> {
    type Item = Unit;

    fn next(&mut self) -> Option<Unit> {
        loop {
            if let Some(unit) = self.ready.pop_front() {
                return Some(unit);
            }
            if self.done {
                return None;
            }
            let mut out = Out {
                ready: &mut self.ready,
                batch: self.batch,
            };
            self.done = match &mut self.source {
                Source::Document(d) => d.step(&mut out),
                Source::Lines(l) => l.step(&mut out, self.max_line),
                Source::Own(own) => match own.step(&mut out) {
                    None => false,
                    Some(broke) => {
                        self.broke = broke;
                        true
                    }
                },
            };
        }
    }
}

/// Where units go as they are found, and how large a batch of rounds is.
struct Out<'a> {
    ready: &'a mut VecDeque<Unit>,
    batch: (usize, usize),
}

impl Out<'_> {
    fn events(&mut self, events: Vec<Event>) {
        self.ready.push_back(Unit::Events(events));
    }
    fn invalid(&mut self, at: Place, field: &str, reason: impl Into<String>) {
        self.events(vec![invalid_event(at, field, reason)]);
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

/// A document, walked a step at a time.
struct Document<R> {
    sc: Scanner<Chunks<R>>,
    at: Doc,
    seen: HashSet<String>,
    epoch: u64,
    /// The longest epoch handed whole to a worker ([`Options::whole_epochs`]).
    whole: usize,
    /// Where the epoch being walked began, and the last epoch's length:
    /// an archive's epochs are much alike, and fewer bytes buffered than
    /// that means this one most likely runs past them; the walk that would
    /// find it out is then not made (the epoch is walked in place).
    epoch_start: u64,
    last_len: usize,
}

/// Where a document's walk stands.
enum Doc {
    Start,
    /// At a key of the document (or its end, `more` false).
    Key {
        more: bool,
    },
    /// In `epochs`: before the first epoch, or after one.
    Epochs {
        first: bool,
    },
    Epoch(Box<EpochWalk>),
    /// After a member of the document.
    More,
    End,
}

impl<R: BufRead> Document<R> {
    /// One step of the walk; `true` once the document is read (or reading stopped).
    fn step(&mut self, out: &mut Out) -> bool {
        match self.walk(out) {
            Ok(done) => done,
            Err(e) => {
                let at = match &self.at {
                    Doc::Epoch(walk) => walk.place(),
                    _ => Place::default(),
                };
                if let Doc::Epoch(walk) = &mut self.at {
                    // What was read of the epoch goes out ahead of the break's finding.
                    walk.settle(out);
                }
                out.events(vec![broken(e, at)]);
                true
            }
        }
    }

    fn walk(&mut self, out: &mut Out) -> Result<bool, ScanError> {
        let report = |out: &mut Out, field: &str, reason: String| out.invalid(Place::default(), field, reason);
        self.at = match std::mem::replace(&mut self.at, Doc::End) {
            Doc::Start => Doc::Key {
                more: !self.sc.open(b'{', b'}')?,
            },
            Doc::Key { more: false } => {
                if !self.seen.contains("epochs") {
                    report(out, "epochs", "is missing".into());
                }
                self.sc.end()?;
                return Ok(true);
            }
            Doc::Key { more: true } => {
                let key = self.sc.key()?;
                if self.seen.contains(&key) {
                    self.sc.skip()?;
                    report(out, &key, "appears twice".into());
                    Doc::More
                } else {
                    self.seen.insert(key.clone());
                    match self.member(&key, out)? {
                        Some(at) => at,
                        // A version this reader does not know: nothing more is read.
                        None => return Ok(true),
                    }
                }
            }
            Doc::Epochs { first } => {
                let next = if first {
                    !self.sc.open(b'[', b']')?
                } else {
                    self.epoch += 1;
                    self.sc.more(b']')?
                };
                if !next {
                    Doc::More
                } else if self.sc.peek()?.is_none() {
                    // A text that ends between epochs is no epoch's.
                    return Err(self.sc.syntax("expected an epoch, found the end of the text"));
                } else if self.whole_epoch(out)? {
                    Doc::Epochs { first: false }
                } else {
                    self.epoch_start = self.sc.consumed();
                    Doc::Epoch(Box::new(EpochWalk::new(self.epoch, None)))
                }
            }
            Doc::Epoch(mut walk) => match walk.step(&mut self.sc, out) {
                Ok(true) => {
                    self.last_len = usize::try_from(self.sc.consumed() - self.epoch_start).unwrap_or(usize::MAX);
                    Doc::Epochs { first: false }
                }
                Ok(false) => Doc::Epoch(walk),
                Err(e) => {
                    // Kept for the break's place.
                    self.at = Doc::Epoch(walk);
                    return Err(e);
                }
            },
            Doc::More => Doc::Key {
                more: self.sc.more(b'}')?,
            },
            Doc::End => return Ok(true),
        };
        Ok(false)
    }

    /// Hands the next epoch to a worker whole ([`Unit::Epoch`]) if it is a
    /// small one already in the reader's buffer; `false` (nothing read)
    /// otherwise.
    fn whole_epoch(&mut self, out: &mut Out) -> Result<bool, ScanError> {
        if self.whole == 0 || self.last_len > self.whole || self.sc.buffered()? < self.last_len {
            return Ok(false);
        }
        let (line, start) = (self.sc.line(), self.sc.consumed());
        let Some(text) = self.sc.buffered_object(self.whole)? else {
            return Ok(false);
        };
        self.last_len = usize::try_from(self.sc.consumed() - start).unwrap_or(usize::MAX);
        out.ready.push_back(Unit::Epoch {
            epoch: self.epoch,
            line,
            text,
            document: true,
        });
        Ok(true)
    }

    /// A member of the document; `None` when reading stops at it.
    fn member(&mut self, key: &str, out: &mut Out) -> Result<Option<Doc>, ScanError> {
        let sc = &mut self.sc;
        let report = |out: &mut Out, field: &str, reason: String| out.invalid(Place::default(), field, reason);
        match key {
            "proof" => {
                let v = small(sc)?;
                if !v.as_u64().is_some_and(|n| super::READS.contains(&n)) {
                    let reason = format!(
                        "version {} is not one this reader knows (it reads versions 1 and 2)",
                        short(&v)
                    );
                    report(out, "proof", reason);
                    return Ok(None);
                }
            }
            "title" => {
                let v = small(sc)?;
                if !v.is_string() {
                    report(out, "title", format!("must be a string, not {}", short(&v)));
                }
            }
            "epochs" if sc.peek()? == Some(b'[') => return Ok(Some(Doc::Epochs { first: true })),
            "epochs" => {
                let t = type_of(sc)?;
                report(out, "epochs", format!("must be a list of epochs, not {t}"));
            }
            _ => {
                sc.skip()?;
                let reason = "is not a field of a proof document (proof, title, epochs)";
                report(out, key, reason.into());
            }
        }
        Ok(Some(Doc::More))
    }
}

/// What breaks a document's text as a finding at `at` (the epoch and the
/// round being read; the line is where the text breaks).
fn broken(e: ScanError, at: Place) -> Event {
    let e = match e {
        ScanError::Io(e) => ProofError::Read {
            at,
            message: e.to_string(),
        },
        ScanError::Syntax { line, message } => ProofError::NotJson {
            at: Place { line: Some(line), ..at },
            message,
        },
        ScanError::TooLarge { line, limit } => ProofError::TooLarge {
            at: Place { line: Some(line), ..at },
            limit,
        },
    };
    Event::Invalid(e.finding())
}

/// An epoch read from a text of its own: a JSON line, or a document's
/// epoch cut out whole.
struct Own {
    sc: Scanner<Chunks<io::Empty>>,
    walk: EpochWalk,
    /// A JSON line: after its epoch only white space may follow, and where
    /// its text breaks is its finding and the next line is read; a
    /// document's epoch breaks the document there.
    line: bool,
}

impl Own {
    /// One step; `Some(broke)` once the epoch is read or its text breaks
    /// (`broke`: a document's epoch, after which nothing counts).
    fn step(&mut self, out: &mut Out) -> Option<bool> {
        let (sc, walk, line) = (&mut self.sc, &mut self.walk, self.line);
        let result = walk.step(sc, out).and_then(|done| match done {
            true if line => sc.end().map(|()| true),
            done => Ok(done),
        });
        let e = match result {
            Ok(false) => return None,
            Ok(true) => return Some(false),
            Err(e) => e,
        };
        // What was read of the epoch goes out ahead of the break's finding.
        walk.settle(out);
        if !line {
            out.events(vec![broken(e, walk.place())]);
            return Some(true);
        }
        let message = match e {
            ScanError::Syntax { message, .. } => message,
            ScanError::Io(e) => e.to_string(),
            ScanError::TooLarge { limit, .. } => format!("a value of more than {limit} bytes"),
        };
        let at = walk.place();
        out.events(vec![Event::Invalid(ProofError::NotJson { at, message }.finding())]);
        Some(false)
    }
}

/// JSON lines, read a line at a time.
struct Lines<R> {
    input: R,
    line: u64,
    epoch: u64,
    /// The longest line handed whole to a worker ([`Options::whole_epochs`]).
    whole: usize,
    /// A longer line being walked.
    current: Option<Box<Own>>,
}

impl<R: BufRead> Lines<R> {
    /// One step: a line read, or a step of its epoch; `true` at the end.
    fn step(&mut self, out: &mut Out, max_line: usize) -> bool {
        if let Some(current) = &mut self.current {
            if current.step(out).is_some() {
                self.current = None;
            }
            return false;
        }
        match self.read_line(out, max_line) {
            Ok(more) => !more,
            Err(e) => {
                let at = Place::default();
                let e = ProofError::Read {
                    at,
                    message: e.to_string(),
                };
                out.events(vec![Event::Invalid(e.finding())]);
                true
            }
        }
    }

    /// Reads the next line that is not blank into an epoch to walk;
    /// `false` at the end of the input (or where reading stops).
    fn read_line(&mut self, out: &mut Out, max_line: usize) -> io::Result<bool> {
        loop {
            let mut buf = Vec::new();
            // At most one byte past the limit is read, so a runaway line never fills memory.
            let limit = u64::try_from(max_line).unwrap_or(u64::MAX).saturating_add(1);
            let n = (&mut self.input).take(limit).read_until(b'\n', &mut buf)?;
            if n == 0 {
                return Ok(false);
            }
            self.line += 1;
            let (line, epoch) = (self.line, self.epoch);
            if buf.last() == Some(&b'\n') {
                buf.pop();
            } else if buf.len() > max_line {
                let len = buf.len() + crate::base::lines::skip_line(&mut self.input)?;
                let reason = format!(
                    "the line has {len} bytes, more than {max_line}; a larger epoch belongs in a proof document, whose rounds stream"
                );
                let at = Place::epoch(epoch, Some(line));
                out.events(vec![
                    Event::Epoch { epoch },
                    Event::Invalid(ProofError::Shape { at, reason }.finding()),
                ]);
                self.epoch += 1;
                continue;
            }
            // Blank is JSON's white space only: a line of form feeds is an epoch that is not JSON.
            if buf.iter().all(|&b| crate::base::json::is_space(b)) {
                continue;
            }
            // Only the file's first epoch can show that it is no proof at all.
            if epoch == 0 {
                if let Some(reason) = not_a_proof(&buf) {
                    let at = Place {
                        line: Some(line),
                        ..Place::default()
                    };
                    out.events(vec![Event::Invalid(ProofError::Shape { at, reason }.finding())]);
                    return Ok(false);
                }
            }
            self.epoch += 1;
            if buf.len() <= self.whole {
                out.ready.push_back(Unit::Epoch {
                    epoch,
                    line,
                    text: Text::from(buf),
                    document: false,
                });
            } else {
                self.current = Some(Box::new(Own {
                    sc: Scanner::starting_at(Chunks::whole(Text::from(buf)), line, usize::MAX),
                    walk: EpochWalk::new(epoch, Some(line)),
                    line: true,
                }));
            }
            return Ok(true);
        }
    }
}

/// Why a text whose first line is `first` is no proof at all (a README, a
/// JSON file of something else), or `None`: a first line that is not a
/// JSON object cannot be an epoch, and the lines after it are then not
/// epochs either, so one finding says so instead of one per line.
fn not_a_proof(first: &[u8]) -> Option<String> {
    let text = &first[crate::base::json::space_run(first)..];
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

/// The keys of an epoch seen so far. An epoch has three or four keys, so a
/// list (no hashing); a set once there are many, so that an epoch of many
/// distinct keys is read in linear time.
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

/// A piece of an epoch, waiting for its secret.
enum Piece {
    Events(Vec<Event>),
    Commit(Option<Value>),
    Rounds(u64, Vec<Text>),
}

/// One epoch (an element of `epochs`, or a JSON line), walked a step at a
/// time: its pieces go out in key order once its secret is known.
struct EpochWalk {
    epoch: u64,
    line: Option<u64>,
    at: EpochAt,
    seen: Keys,
    secret: Option<(&'static str, Value)>,
    head: Option<Arc<EpochHead>>,
    pending: Vec<Piece>,
    /// The round being cut out, for a break's place.
    round: Option<u64>,
}

enum EpochAt {
    Begin,
    Key {
        more: bool,
    },
    /// In `rounds`: the next round's number, and the batch so far.
    Rounds {
        first: u64,
        next: u64,
        batch: Vec<Text>,
    },
    More,
}

impl EpochWalk {
    fn new(epoch: u64, line: Option<u64>) -> EpochWalk {
        EpochWalk {
            epoch,
            line,
            at: EpochAt::Begin,
            seen: Keys::default(),
            secret: None,
            head: None,
            pending: Vec::new(),
            round: None,
        }
    }

    /// Where the walk is: the epoch, its line, the round being cut out.
    fn place(&self) -> Place {
        Place {
            round: self.round,
            ..Place::epoch(self.epoch, self.line)
        }
    }

    fn at(&self) -> Place {
        Place::epoch(self.epoch, self.line)
    }

    /// One step; `true` once the epoch is read.
    fn step<R: Read>(&mut self, sc: &mut Scanner<Chunks<R>>, out: &mut Out) -> Result<bool, ScanError> {
        self.at = match std::mem::replace(&mut self.at, EpochAt::More) {
            EpochAt::Begin => {
                out.events(vec![Event::Epoch { epoch: self.epoch }]);
                if sc.peek()? != Some(b'{') {
                    let t = type_of(sc)?;
                    let reason = format!("an epoch must be a JSON object, not {t}");
                    let e = ProofError::Shape { at: self.at(), reason };
                    out.events(vec![Event::Invalid(e.finding())]);
                    return Ok(true);
                }
                EpochAt::Key {
                    more: !sc.open(b'{', b'}')?,
                }
            }
            EpochAt::Key { more: false } => {
                if !self.seen.contains("rounds") {
                    self.invalid("rounds", "is missing", out);
                }
                if !self.seen.contains("commit") {
                    self.piece(Piece::Commit(None), out);
                }
                self.settle(out);
                return Ok(true);
            }
            EpochAt::Key { more: true } => {
                let key = sc.key()?;
                if self.seen.contains(&key) {
                    sc.skip()?;
                    self.invalid(&key, "appears twice", out);
                    EpochAt::More
                } else {
                    let at = self.member(sc, &key, out)?;
                    self.seen.insert(key);
                    at
                }
            }
            EpochAt::Rounds { first, next, batch } => {
                let (first, next, batch, more) = self.rounds(sc, out, (first, next, batch))?;
                if more {
                    EpochAt::Rounds { first, next, batch }
                } else {
                    EpochAt::More
                }
            }
            EpochAt::More => EpochAt::Key { more: sc.more(b'}')? },
        };
        Ok(false)
    }

    fn member<R: Read>(&mut self, sc: &mut Scanner<Chunks<R>>, key: &str, out: &mut Out) -> Result<EpochAt, ScanError> {
        if key == "commit" {
            let v = small(sc)?;
            self.piece(Piece::Commit(Some(v)), out);
        } else if key == "rounds" {
            if sc.peek()? == Some(b'[') {
                if !sc.open(b'[', b']')? {
                    return Ok(EpochAt::Rounds {
                        first: 0,
                        next: 0,
                        batch: Vec::new(),
                    });
                }
            } else {
                let t = type_of(sc)?;
                self.invalid("rounds", format!("must be a list of rounds, not {t}"), out);
            }
        } else if let Some(field) = head_fields().iter().find(|f| **f == key) {
            let v = small(sc)?;
            match &self.secret {
                Some((other, _)) => {
                    let reason = format!("an epoch carries one secret; this one has {other:?} already");
                    self.invalid(key, reason, out);
                }
                None => {
                    self.secret = Some((field, v));
                    self.settle(out);
                }
            }
        } else {
            sc.skip()?;
            let mut reason = format!(
                "is not a field of an epoch (commit, {}, rounds)",
                head_fields().join(", ")
            );
            if self.line.is_some() && key == "proof" {
                reason.push_str("; a proof document must begin with {\"proof\"");
            }
            self.invalid(key, reason, out);
        }
        Ok(EpochAt::More)
    }

    /// Cuts out rounds until a batch is full or the list ends (`more` false).
    /// The rounds read before a break are complete: they go out, checked and
    /// counted, so the count and the break's place agree.
    #[allow(clippy::type_complexity, reason = "the batch, taken and given back")]
    fn rounds<R: Read>(
        &mut self,
        sc: &mut Scanner<Chunks<R>>,
        out: &mut Out,
        (mut first, mut next, mut batch): (u64, u64, Vec<Text>),
    ) -> Result<(u64, u64, Vec<Text>, bool), ScanError> {
        let (rounds, bytes) = out.batch;
        let mut len = 0;
        let result = loop {
            self.round = Some(next);
            match sc.text() {
                Ok(text) => {
                    len += text.len();
                    batch.push(text);
                }
                Err(e) => break Err(e),
            }
            self.round = None;
            next += 1;
            let more = match sc.more(b']') {
                Ok(more) => more,
                Err(e) => break Err(e),
            };
            if !more || batch.len() >= rounds || len >= bytes {
                break Ok(more);
            }
        };
        if !batch.is_empty() {
            // Room for as many rounds as this batch had, if more follow.
            let room = if matches!(result, Ok(true)) { batch.len() } else { 0 };
            let piece = Piece::Rounds(first, std::mem::replace(&mut batch, Vec::with_capacity(room)));
            self.piece(piece, out);
            first = next;
        }
        let more = result?;
        Ok((first, next, batch, more))
    }

    fn invalid(&mut self, field: &str, reason: impl Into<String>, out: &mut Out) {
        let e = invalid_event(self.at(), field, reason);
        self.piece(Piece::Events(vec![e]), out);
    }

    fn piece(&mut self, piece: Piece, out: &mut Out) {
        let Some(head) = &self.head else {
            self.pending.push(piece);
            return;
        };
        let head = Arc::clone(head);
        out.ready.push_back(match piece {
            Piece::Events(events) => Unit::Events(events),
            Piece::Commit(commit) => Unit::Commit { head, commit },
            Piece::Rounds(first, rounds) => Unit::Rounds { head, first, rounds },
        });
    }

    /// The secret is known (or the epoch ended, or broke, without one):
    /// everything waiting goes out (rounds without a secret are checked so).
    fn settle(&mut self, out: &mut Out) {
        if self.head.is_none() {
            self.head = Some(Arc::new(EpochHead::new(self.epoch, self.line, self.secret.clone())));
            for piece in std::mem::take(&mut self.pending) {
                self.piece(piece, out);
            }
        }
    }
}

/// Units gathered into batches of about `batch_rounds` rounds or
/// `batch_bytes` bytes: a worker's share of work at a time, so that a
/// document of a million one-round epochs is not a million hand-overs.
pub(crate) fn batches<I: Iterator<Item = Unit>>(units: I, options: &Options) -> impl Iterator<Item = Vec<Unit>> {
    let (rounds, bytes) = (options.batch_rounds, options.batch_bytes);
    let mut units = units.peekable();
    std::iter::from_fn(move || {
        units.peek()?;
        let mut batch = Vec::new();
        let (mut r, mut b) = (0, 0);
        for unit in units.by_ref() {
            let (ur, ub) = unit.weight();
            batch.push(unit);
            (r, b) = (r + ur, b + ub);
            if r >= rounds || b >= bytes {
                break;
            }
        }
        Some(batch)
    })
}
