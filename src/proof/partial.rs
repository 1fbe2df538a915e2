//! Audits that merge: a part of an audit written out (`audit --partial`),
//! and the merge of parts into the report one audit over all of them gives
//! (`provably merge`; docs/scale.md says what is guaranteed and checked).
//!
//! A partial result is JSON lines (`vectors/partial.schema.json`), one
//! record per line, each an object with one key:
//!
//! * `partial`: the first line; the format's version, the version of
//!   `provably` that wrote it, and whether the statistics were counted;
//! * per input (a *part*): `part` (its source's name, its first epoch and
//!   the lines of the source before it), then in document order every
//!   `finding` and every `bets` record, then `end` with the part's counts,
//!   its length in records (`part` included) and the SHA-256 of those
//!   records' lines;
//! * `statistics`: the count tables (with `--stats`);
//! * `close`: the last line; how many parts there are, and the SHA-256 of
//!   every line before it. A partial cut anywhere, even between records,
//!   has no close, or one that does not fit.
//!
//! What a part cannot know is left to the merge: a bet history is followed
//! across every part, so a part writes its bets (a `bets` record is a run
//! of consecutive rounds of one seed pair, one epoch and one verdict, with
//! consecutive nonces: a history in nonce order is one record per epoch)
//! and the merge feeds them, in order, to the same `Bets` an audit uses,
//! a run at a time. A nonce bet twice turns its round into a mismatch
//! there, right after the round's own findings, as in an audit; gaps come
//! last.
//!
//! The merge derives, it does not trust: before anything is merged, every
//! partial is read whole and each part's counts are held to its own
//! records (a mismatch finding while the counts say no mismatch is a
//! refusal, not a match), its runs of bets to its rounds, and the sums to
//! 2^64 − 1. Work and memory grow with the partials' size, never with
//! what their records claim.
//!
//! The merge orders the parts by source name, then first epoch, whatever
//! order the partials are given in, so it is commutative and associative:
//! its report is that of `provably audit` over the sources in name order.
//! It reads each partial twice (an index of its parts, then the records
//! part by part), so its memory is the tables and the bet histories' runs,
//! not the rounds.

use std::cmp::Ordering;
use std::fs::File;
use std::io::{self, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::bets::{self, Bets, RunSeen};
use super::report::{Source, Spool};
use super::MAX_LINE;
use super::{Counts, Event, Finding, FindingKind, Place, RoundVerdict};
use crate::base::crypto::hex;
use crate::base::lines::{read_line, Line};
use crate::stats::collect::Table;
use crate::stats::model::Key;
use crate::stats::Collector;

/// The version of the partial format this module reads and writes: 2 since
/// parts end with their length and digest and a partial with its close.
pub(crate) const PARTIAL_VERSION: u64 = 2;

/// One line of a partial result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) enum Record {
    Partial(Header),
    Part(PartHead),
    Finding(Finding),
    Bets(BetRun),
    End(PartEnd),
    Statistics(Tables),
    Close(Close),
}

/// What every partial of one merge must share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The version of the partial format.
    pub(crate) version: u64,
    /// The version of `provably` that wrote it: the rules an audit applies
    /// are those of its version, so parts of two versions do not merge.
    pub(crate) provably: String,
    /// `audit --stats`.
    pub stats: bool,
}

impl Header {
    /// The header this build writes.
    pub fn current(stats: bool) -> Header {
        Header {
            version: PARTIAL_VERSION,
            provably: env!("CARGO_PKG_VERSION").to_string(),
            stats,
        }
    }
}

/// Where a part lies in its source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PartHead {
    /// The source's name: the input as `audit` was given it, or `--part-of`.
    pub source: String,
    /// The number of the part's first epoch in its source, from 0.
    pub first_epoch: u64,
    /// How many lines of the source come before the part.
    pub first_line: u64,
}

/// Rounds `round … round + count − 1` of one epoch, bets of one seed pair
/// on nonces `nonce … nonce + count − 1`, all with one verdict; with
/// `game`, games `nonce …` of one crash history, whose chain is `server`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BetRun {
    pub(crate) server: String,
    pub(crate) client: String,
    pub(crate) nonce: u64,
    pub(crate) count: u64,
    pub epoch: u64,
    pub round: u64,
    pub line: Option<u64>,
    pub(crate) verdict: RoundVerdict,
    /// Games of a crash history ([`super::chain`]), not bets.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) game: bool,
}

/// A part's counts, as its audit counted them (before bet histories), and
/// what fixes the part: its records (`part` included, `end` not) and the
/// SHA-256 of their lines (newlines included), in lowercase hex.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PartEnd {
    pub(crate) counts: Counts,
    pub(crate) records: u64,
    pub(crate) sha256: String,
}

/// The last line of a partial: its parts, and the SHA-256 of every line
/// before this one (newlines included), in lowercase hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Close {
    pub(crate) parts: u64,
    pub(crate) sha256: String,
}

/// The statistics' count tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Tables {
    pub rounds: u64,
    pub untested: u64,
    pub tables: Vec<TableCounts>,
    /// The families past the cap.
    pub(crate) past: Vec<FamilyName>,
}

/// A family by name: the op and its two parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FamilyName {
    pub op: String,
    pub(crate) a: u64,
    pub(crate) b: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TableCounts {
    pub op: String,
    pub(crate) a: u64,
    pub(crate) b: u64,
    pub rounds: u64,
    /// counts[test · stride + cell], as the family's layout orders them.
    pub(crate) counts: Vec<u64>,
    /// pairs[a · stride + b] of consecutive values.
    pub(crate) pairs: Vec<u64>,
}

impl Tables {
    pub(crate) fn of(c: &Collector) -> Tables {
        let name = |k: &Key| FamilyName {
            op: k.op.name.to_string(),
            a: k.family.a,
            b: k.family.b,
        };
        Tables {
            rounds: c.rounds,
            untested: c.untested,
            tables: c
                .tables
                .iter()
                .map(|(k, t)| TableCounts {
                    op: k.op.name.to_string(),
                    a: k.family.a,
                    b: k.family.b,
                    rounds: t.rounds,
                    counts: t.counts.clone(),
                    pairs: t.pairs.clone(),
                })
                .collect(),
            past: c.past.iter().map(name).collect(),
        }
    }

    /// The collector these counts are of, or why they are none of this build's.
    pub(crate) fn collector(&self) -> Result<Collector, String> {
        let key =
            |op: &str, a, b| Key::of(op, a, b).ok_or_else(|| format!("{op} ({a}, {b}) is no family of this build"));
        let mut c = Collector {
            rounds: self.rounds,
            untested: self.untested,
            ..Collector::default()
        };
        let mut sum = 0u64;
        for t in &self.tables {
            let k = key(&t.op, t.a, t.b)?;
            let table = Table::from_counts(k, t.rounds, t.counts.clone(), t.pairs.clone())
                .ok_or_else(|| format!("the table of {} ({}, {}) is not of its family's shape", t.op, t.a, t.b))?;
            sum = sum.saturating_add(t.rounds);
            if c.tables.insert(k, table).is_some() {
                return Err(format!("the table of {} ({}, {}) is there twice", t.op, t.a, t.b));
            }
        }
        if sum != self.rounds || c.tables.len() > crate::stats::collect::MAX_FAMILIES {
            return Err("the tables do not add up to the rounds counted, or are more than the cap".into());
        }
        for f in &self.past {
            c.past.insert(key(&f.op, f.a, f.b)?);
        }
        Ok(c)
    }
}

/// Where a partial's lines go: each line is hashed as it is written, into
/// the digest of the file (its `close` record's) and, inside a part, into
/// the part's (its `end` record's).
struct Sink<W: Write> {
    out: W,
    file: Sha256,
    /// The part being written: its digest and its records so far.
    part: Option<(Sha256, u64)>,
    parts: u64,
    buf: Vec<u8>,
}

impl<W: Write> Sink<W> {
    fn new(out: W) -> Sink<W> {
        Sink {
            out,
            file: Sha256::new(),
            part: None,
            parts: 0,
            buf: Vec::new(),
        }
    }

    /// One line as it is (with its newline).
    fn raw(&mut self, text: &[u8]) -> io::Result<()> {
        self.out.write_all(text)?;
        self.file.update(text);
        if let Some((digest, records)) = &mut self.part {
            digest.update(text);
            *records += 1;
        }
        Ok(())
    }

    fn record(&mut self, r: &Record) -> io::Result<()> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        serde_json::to_writer(&mut buf, r)?;
        buf.push(b'\n');
        let written = self.raw(&buf);
        self.buf = buf;
        written
    }

    fn part(&mut self, head: PartHead) -> io::Result<()> {
        self.part = Some((Sha256::new(), 0));
        self.record(&Record::Part(head))
    }

    fn end(&mut self, counts: Counts) -> io::Result<()> {
        let (digest, records) = self.part.take().unwrap_or_default();
        self.parts += 1;
        self.record(&Record::End(PartEnd {
            counts,
            records,
            sha256: hex(&digest.finalize()),
        }))
    }

    /// The last line: the parts written, and the digest of every line before.
    fn close(mut self) -> io::Result<W> {
        let close = Close {
            parts: self.parts,
            sha256: hex(&self.file.clone().finalize()),
        };
        line(&mut self.out, &Record::Close(close))?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Writes a partial result: a header, then parts, then the statistics and the close.
pub struct PartialWriter<W: Write> {
    sink: Sink<W>,
    /// The run of bets being extended.
    pending: Option<(Arc<str>, BetRun)>,
}

impl<W: Write> PartialWriter<W> {
    /// A writer to `out`, which gets the `partial` record of `header` at once.
    pub fn new(out: W, header: &Header) -> io::Result<Self> {
        let mut sink = Sink::new(out);
        sink.record(&Record::Partial(header.clone()))?;
        Ok(PartialWriter { sink, pending: None })
    }

    /// A part begins.
    pub fn part(&mut self, head: PartHead) -> io::Result<()> {
        self.flush()?;
        self.sink.part(head)
    }

    /// Sees one event of the part's audit, in document order.
    pub fn event(&mut self, e: &Event) -> io::Result<()> {
        if !e.findings().is_empty() {
            self.flush()?;
            for f in e.findings() {
                self.sink.record(&Record::Finding(f.clone()))?;
            }
        }
        let Event::Round {
            epoch,
            round,
            verdict,
            bet,
            game,
            ..
        } = e
        else {
            return Ok(());
        };
        // A crash history's games are runs of its chain as bets are of their pair.
        let as_bet;
        let bet = match (bet, game) {
            (Some(bet), _) => bet,
            (None, Some(game)) => {
                as_bet = game.as_bet();
                &as_bet
            }
            (None, None) => return Ok(()),
        };
        let is_game = game.is_some();
        // An invalid round is no bet of its history (as in `Bets::see`).
        if *verdict == RoundVerdict::Invalid {
            return Ok(());
        }
        if let Some((server, run)) = &mut self.pending {
            let next = |x: u64| x.checked_add(run.count);
            let extends = Arc::ptr_eq(server, &bet.server) || **server == *bet.server;
            if extends
                && run.game == is_game
                && run.client == bet.client
                && run.epoch == *epoch
                && run.line == bet.line
                && run.verdict == *verdict
                && next(run.round) == Some(*round)
                && next(run.nonce) == Some(bet.nonce)
            {
                run.count += 1;
                return Ok(());
            }
        }
        self.flush()?;
        let run = BetRun {
            server: bet.server.to_string(),
            client: bet.client.clone(),
            nonce: bet.nonce,
            count: 1,
            epoch: *epoch,
            round: *round,
            line: bet.line,
            verdict: *verdict,
            game: is_game,
        };
        self.pending = Some((Arc::clone(&bet.server), run));
        Ok(())
    }

    /// The part ends with its counts.
    pub fn end(&mut self, counts: Counts) -> io::Result<()> {
        self.flush()?;
        self.sink.end(counts)
    }

    /// The last lines: the statistics' tables (with `--stats`), and the close.
    pub fn finish(mut self, stats: Option<&Collector>) -> io::Result<W> {
        self.flush()?;
        if let Some(c) = stats {
            self.sink.record(&Record::Statistics(Tables::of(c)))?;
        }
        self.sink.close()
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.pending.take() {
            Some((_, run)) => self.sink.record(&Record::Bets(run)),
            None => Ok(()),
        }
    }
}

fn line(out: &mut dyn Write, r: &Record) -> io::Result<()> {
    serde_json::to_writer(&mut *out, r)?;
    out.write_all(b"\n")
}

/// Why partials do not merge. Each names the partial and, where it has one, the line.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// Occurs when a partial cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The partial.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// Occurs when a line is no record of a partial, or a record does not
    /// fit the others: out of place, cut short, over the line cap, altered,
    /// or counts that disagree with the part's own records.
    #[error("{path}, line {line}: {reason}")]
    Format {
        /// The partial.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What is wrong with it, in words.
        reason: String,
    },
    /// Occurs when partials do not belong together (another version, other
    /// options, parts that overlap), or their counts add up past 2^64 − 1.
    #[error("{path}: {reason}")]
    Refused {
        /// The partial refused, or `(none)` when no partial was given.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// Occurs when a finding cannot be written to the spool.
    #[error("writing the findings: {0}")]
    Write(#[from] io::Error),
}

/// One part of a partial, found by the index.
#[derive(Debug, Clone)]
struct Part {
    file: usize,
    /// The byte offset and line of its `part` record.
    offset: u64,
    line: u64,
    head: PartHead,
    /// Its `end` record: counts, length and digest.
    end: PartEnd,
}

impl Part {
    fn order(&self, o: &Part) -> Ordering {
        // A part of no epochs (blank lines) before the part that starts
        // at its epoch, as in the source.
        (&self.head.source, self.head.first_epoch, self.head.first_line).cmp(&(
            &o.head.source,
            o.head.first_epoch,
            o.head.first_line,
        ))
    }
}

/// What a merge hands back: the sources (in name order, with their
/// counts), and the statistics' tables. The findings are in the spool.
#[derive(Debug)]
pub struct Merged {
    /// Every source with its counts, in name order.
    pub sources: Vec<Source>,
    /// The statistics' tables, summed over every part (with `--stats`).
    pub stats: Option<Collector>,
}

/// Partials, indexed and checked: ready to be merged.
pub struct Merge {
    paths: Vec<PathBuf>,
    parts: Vec<Part>,
    header: Header,
    stats: Option<Collector>,
}

impl Merge {
    /// Reads the index of every partial and checks it whole: its header,
    /// every part's records against the part's length, digest and counts,
    /// the close, the tables. Refuses partials of another version or other
    /// options, a partial cut short or altered, counts that disagree with
    /// their part's records or add up past 2^64 − 1, and parts that overlap.
    pub fn open(paths: &[PathBuf]) -> Result<Merge, MergeError> {
        let mut header: Option<(usize, Header)> = None;
        let mut parts = Vec::new();
        let mut stats: Option<Collector> = None;
        let mut total = Counts::default();
        for (file, path) in paths.iter().enumerate() {
            let (h, mut found, tables) = index(file, path)?;
            let refused = |reason: String| MergeError::Refused {
                path: path.clone(),
                reason,
            };
            match &header {
                Some((first, other)) if other.stats != h.stats => {
                    let with = |s: bool| if s { "with --stats" } else { "without --stats" };
                    return Err(refused(format!(
                        "audited {}, but {} was audited {}: every part needs the same options",
                        with(h.stats),
                        paths[*first].display(),
                        with(other.stats)
                    )));
                }
                Some(_) => {}
                None => header = Some((file, h.clone())),
            }
            for p in &found {
                total = total.checked_sum(&p.end.counts).ok_or_else(|| {
                    refused(format!(
                        "the counts of its part from line {} and those before it add up to more than 2^64 − 1",
                        p.line
                    ))
                })?;
            }
            if h.stats {
                let c = tables
                    .ok_or_else(|| refused("audited with --stats, but it holds no statistics".into()))?
                    .collector()
                    .map_err(refused)?;
                match &mut stats {
                    Some(all) => merge_tables(all, &c).map_err(refused)?,
                    None => stats = Some(c),
                }
            }
            parts.append(&mut found);
        }
        let Some((_, header)) = header else {
            return Err(MergeError::Refused {
                path: PathBuf::from("(none)"),
                reason: "no partial to merge".into(),
            });
        };
        parts.sort_by(Part::order);
        overlaps(paths, &parts)?;
        Ok(Merge {
            paths: paths.to_vec(),
            parts,
            header,
            stats,
        })
    }

    /// Whether the partials counted statistics.
    pub fn stats(&self) -> bool {
        self.header.stats
    }

    /// Merges the parts: every finding goes to `spool` in the order one
    /// audit over the sources (in name order) gives, bet histories
    /// followed across all of them.
    pub fn run(&self, spool: &mut Spool) -> Result<Merged, MergeError> {
        let mut sources: Vec<Source> = Vec::new();
        let mut bets = Bets::default();
        // The crash histories' games, followed as bets are (their own runs and findings).
        let mut games = Bets::default();
        for part in &self.parts {
            if sources.last().is_none_or(|s| s.name != part.head.source) {
                sources.push(Source {
                    name: part.head.source.clone(),
                    counts: Counts::default(),
                });
            }
            let source = sources.len() - 1;
            bets.source(source);
            games.source(source);
            let path = &self.paths[part.file];
            let mut reader = Reader::at(path, part)?;
            let counts = &mut sources[source].counts;
            replay(&mut reader, part, source, [&mut bets, &mut games], counts, spool)?;
        }
        let mut past = None;
        let mut gap = |source: usize, e: &Event| {
            if sources[source].counts.checked_add(e).is_none() {
                past.get_or_insert(source);
            }
            e.findings().iter().try_for_each(|f| spool.push(source, f))
        };
        bets.finish(&mut gap)?;
        games.finish_as(super::chain::gap, &mut gap)?;
        // Every count is then at most the sum of all, which the report adds up.
        let sum = sources
            .iter()
            .try_fold(Counts::default(), |sum, s| sum.checked_sum(&s.counts));
        if past.is_some() || sum.is_none() {
            return Err(MergeError::Refused {
                path: self.paths[self.parts.last().map_or(0, |p| p.file)].clone(),
                reason: "the merged counts pass 2^64 − 1".into(),
            });
        }
        Ok(Merged {
            sources,
            stats: self.stats.clone(),
        })
    }

    /// Writes the parts, in merge order, and the merged tables as one
    /// partial: merging it with others is merging all their parts.
    pub fn write_partial(&self, out: &mut dyn Write) -> Result<(), MergeError> {
        let mut sink = Sink::new(out);
        sink.record(&Record::Partial(self.header.clone()))?;
        for part in &self.parts {
            let mut reader = Reader::at(&self.paths[part.file], part)?;
            // Each record as it is, the part's own `end` (its digest) included.
            loop {
                let r = reader.next()?;
                sink.raw(&reader.text)?;
                sink.raw(b"\n")?;
                match r {
                    Some(Record::End(_)) => break,
                    Some(_) => {}
                    None => return Err(reader.format("the partial changed since it was indexed")),
                }
            }
            reader.same_as_indexed(part)?;
            sink.parts += 1;
        }
        if let Some(c) = &self.stats {
            sink.record(&Record::Statistics(Tables::of(c)))?;
        }
        sink.close()?;
        Ok(())
    }
}

/// Adds `c`'s tables to `all`, or says why they would pass 2^64 − 1.
fn merge_tables(all: &mut Collector, c: &Collector) -> Result<(), String> {
    let fits = |a: u64, b: u64| a.checked_add(b).is_some();
    let rounds = [all.rounds, all.untested, c.rounds, c.untested]
        .iter()
        .try_fold(0u64, |s, &n| s.checked_add(n));
    let tables = c.tables.iter().all(|(k, t)| {
        all.tables.get(k).is_none_or(|mine| {
            fits(mine.rounds, t.rounds)
                && mine.counts.iter().zip(&t.counts).all(|(&a, &b)| fits(a, b))
                && mine.pairs.iter().zip(&t.pairs).all(|(&a, &b)| fits(a, b))
        })
    });
    if rounds.is_none() || !tables {
        return Err("its statistics and those before it add up to more than 2^64 − 1".into());
    }
    all.merge(c);
    Ok(())
}

/// Refuses parts (in merge order) that overlap: a part merged twice.
fn overlaps(paths: &[PathBuf], parts: &[Part]) -> Result<(), MergeError> {
    for w in parts.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let end = a.head.first_epoch.saturating_add(a.end.counts.epochs);
        let twice = a.head.first_epoch == b.head.first_epoch && a.head.first_line == b.head.first_line;
        if a.head.source == b.head.source && (twice || end > b.head.first_epoch) {
            return Err(MergeError::Refused {
                path: paths[b.file].clone(),
                reason: format!(
                    "its part of {} from epoch {} overlaps the part from epoch {} in {} (epochs {} … {}): a part may be merged once",
                    serde_json::Value::from(b.head.source.as_str()),
                    b.head.first_epoch,
                    a.head.first_epoch,
                    paths[a.file].display(),
                    a.head.first_epoch,
                    end.saturating_sub(1).max(a.head.first_epoch),
                ),
            });
        }
    }
    Ok(())
}

fn open(path: &Path) -> Result<File, MergeError> {
    File::open(path).map_err(|e| MergeError::Read {
        path: path.to_path_buf(),
        source: e,
    })
}

/// Reads a partial record by record, each line held to the audit's cap on
/// a line, and hashes the lines as they were written ([`Sink`]).
struct Reader<'p> {
    input: BufReader<File>,
    path: &'p Path,
    /// The last line read (without its newline), its number and the offset after it.
    text: Vec<u8>,
    line: u64,
    offset: u64,
    file: Sha256,
    part: Option<(Sha256, u64)>,
    /// The digest and length of the part whose `end` was read last.
    ended: Option<(String, u64)>,
}

impl<'p> Reader<'p> {
    fn new(path: &'p Path) -> Result<Reader<'p>, MergeError> {
        Ok(Reader {
            input: BufReader::new(open(path)?),
            path,
            text: Vec::new(),
            line: 0,
            offset: 0,
            file: Sha256::new(),
            part: None,
            ended: None,
        })
    }

    /// A reader at the `part` record of an indexed part.
    fn at(path: &'p Path, part: &Part) -> Result<Reader<'p>, MergeError> {
        let mut r = Reader::new(path)?;
        if let Err(e) = r.input.seek(SeekFrom::Start(part.offset)) {
            return Err(r.read(e));
        }
        (r.offset, r.line) = (part.offset, part.line - 1);
        Ok(r)
    }

    fn read(&self, e: io::Error) -> MergeError {
        MergeError::Read {
            path: self.path.to_path_buf(),
            source: e,
        }
    }

    /// A refusal at the line read last.
    fn format(&self, reason: impl Into<String>) -> MergeError {
        MergeError::Format {
            path: self.path.to_path_buf(),
            line: self.line,
            reason: reason.into(),
        }
    }

    /// The next record; `None` at the end of the file.
    fn next(&mut self) -> Result<Option<Record>, MergeError> {
        self.line += 1;
        let text = match read_line(&mut self.input, MAX_LINE).map_err(|e| self.read(e))? {
            Line::Eof => return Ok(None),
            Line::Text(text) => text,
            Line::TooLong { .. } => {
                return Err(self.format(format!(
                    "a line longer than {MAX_LINE} bytes (the cap on a line of an audit): no record of a partial is that long"
                )))
            }
        };
        self.text = text;
        self.offset += self.text.len() as u64 + 1;
        let r: Record = serde_json::from_slice(&self.text)
            .map_err(|e| self.format(format!("not a record of a partial result: {e}")))?;
        let text: &[u8] = &self.text;
        match &r {
            Record::Part(_) => self.part = Some((Sha256::new(), 0)),
            Record::End(_) => {
                let (digest, records) = self.part.take().unwrap_or_default();
                self.ended = Some((hex(&digest.finalize()), records));
            }
            _ => {}
        }
        if let Some((digest, records)) = &mut self.part {
            digest.update(text);
            digest.update(b"\n");
            *records += 1;
        }
        if !matches!(r, Record::Close(_)) {
            self.file.update(text);
            self.file.update(b"\n");
        }
        Ok(Some(r))
    }

    /// Refuses a part whose records are not those its `end` (just read) counted and hashed.
    fn whole(&self, end: &PartEnd) -> Result<(), MergeError> {
        match &self.ended {
            Some((digest, records)) if *records == end.records && *digest == end.sha256 => Ok(()),
            Some((_, records)) => Err(self.format(format!(
                "the part's records are not those its end counted ({} records, {records} read) and hashed: the partial was altered or cut",
                end.records
            ))),
            None => Err(self.format("an end of no part")),
        }
    }

    /// Refuses a part read again (its `end` just read) that is not the part indexed.
    fn same_as_indexed(&self, part: &Part) -> Result<(), MergeError> {
        match &self.ended {
            Some((digest, records)) if *records == part.end.records && *digest == part.end.sha256 => Ok(()),
            _ => Err(self.format("the partial changed since it was indexed")),
        }
    }
}

/// The index of one partial, checked whole: its header, its parts (each
/// against its length, digest and counts), its tables, its close.
fn index(file: usize, path: &Path) -> Result<(Header, Vec<Part>, Option<Tables>), MergeError> {
    let mut r = Reader::new(path)?;
    let header = match r.next() {
        Ok(Some(Record::Partial(h))) => h,
        Err(e @ MergeError::Read { .. }) => return Err(e),
        _ => return Err(r.format(
            "this is no partial result: one begins with its \"partial\" header (written by provably audit --partial)",
        )),
    };
    let mine = Header::current(header.stats);
    if header.version != mine.version || header.provably != mine.provably {
        return Err(MergeError::Refused {
            path: path.to_path_buf(),
            reason: format!(
                "a partial of format {} by provably {}; this is format {} by provably {}: audit every part with one version",
                header.version, header.provably, mine.version, mine.provably
            ),
        });
    }
    let mut parts = Vec::new();
    let mut open_part: Option<(Part, Tally)> = None;
    let mut tables = None;
    loop {
        let at = r.offset;
        let Some(record) = r.next()? else {
            let (line, what) = match &open_part {
                Some((p, _)) => (p.line, "this part has no end"),
                None => (r.line, "the partial has no close"),
            };
            return Err(MergeError::Format {
                path: path.to_path_buf(),
                line,
                reason: format!(
                    "{what}: the partial was cut short (it is written whole or not at all, so it was truncated since)"
                ),
            });
        };
        match (record, &mut open_part) {
            (Record::Part(head), None) if tables.is_none() => {
                let part = Part {
                    file,
                    offset: at,
                    line: r.line,
                    head,
                    end: PartEnd::default(),
                };
                open_part = Some((part, Tally::default()));
            }
            (Record::Finding(f), Some((_, tally))) => tally.finding(&f),
            (Record::Bets(run), Some((_, tally))) => tally.bets(&run).map_err(|reason| r.format(reason))?,
            (Record::End(end), Some(_)) => {
                r.whole(&end)?;
                let (mut p, tally) = open_part.take().expect("a part is open");
                tally.agrees(&end.counts).map_err(|reason| r.format(reason))?;
                p.end = end;
                parts.push(p);
            }
            (Record::Statistics(t), None) if tables.is_none() => tables = Some(t),
            (Record::Close(close), None) => {
                closes(&mut r, &close, parts.len())?;
                break;
            }
            (Record::Partial(_), _) => return Err(r.format("a second header")),
            (_, None) if tables.is_some() => return Err(r.format("nothing but the close follows the statistics")),
            (_, None) => return Err(r.format("a record outside a part")),
            (_, Some(_)) => return Err(r.format("a part that does not end before the next begins")),
        }
    }
    if header.stats != tables.is_some() {
        return Err(r.format("the statistics are missing, or there though not counted"));
    }
    Ok((header, parts, tables))
}

/// Refuses a `close` (just read) that is not of the partial before it, or
/// that something follows.
fn closes(r: &mut Reader<'_>, close: &Close, parts: usize) -> Result<(), MergeError> {
    let digest = hex(&r.file.clone().finalize());
    if close.parts != parts as u64 || close.sha256 != digest {
        return Err(r.format(format!(
            "the close counts {} parts and a digest of the lines before it; there are {parts} parts{}: the partial was altered or cut",
            close.parts,
            if close.sha256 == digest { "" } else { ", and the digest is another" }
        )));
    }
    match r.next() {
        Ok(None) => Ok(()),
        _ => Err(r.format("nothing follows the close")),
    }
}

/// What a part's own records say its counts are. A part is audited
/// without its bet histories ([`super::run::Audit::without_bets`]), so
/// each round, commitment and invalid thing has its findings right there:
/// a mismatched round one mismatch finding or more (for each field that
/// differs), a skipped or unobserved round one, an invalid round or other
/// invalid thing one, a commitment that differs one; a matched round,
/// and a commitment that is right or absent, none. Its `bets` records are
/// runs of its rounds.
#[derive(Debug, Default)]
struct Tally {
    /// Rounds with mismatch findings, and the place of the last one.
    mismatched: u64,
    last: Option<(Option<u64>, Option<u64>)>,
    skipped: u64,
    unobserved: u64,
    invalid: u64,
    commit: u64,
    gaps: u64,
    /// The rounds of the `bets` records, by verdict.
    bets: Counts,
}

impl Tally {
    fn finding(&mut self, f: &Finding) {
        let count = match f.kind {
            FindingKind::Mismatch => {
                // A round's findings come together.
                let round = (f.epoch, f.round);
                if self.last == Some(round) {
                    return;
                }
                self.last = Some(round);
                &mut self.mismatched
            }
            FindingKind::Commit => &mut self.commit,
            FindingKind::Invalid => &mut self.invalid,
            FindingKind::Skipped => &mut self.skipped,
            FindingKind::Unobserved => &mut self.unobserved,
            FindingKind::Gap => &mut self.gaps,
        };
        // At most one a line: no file has 2^64 lines.
        *count += 1;
    }

    /// Takes a `bets` record as the interval of rounds and nonces it
    /// claims, or says why it can be no run of bets.
    fn bets(&mut self, run: &BetRun) -> Result<(), String> {
        let last = run.count.checked_sub(1);
        let fits = last.is_some_and(|l| run.nonce.checked_add(l).is_some() && run.round.checked_add(l).is_some());
        if !fits {
            return Err(format!(
                "a run of {} bets from nonce {} and round {}: a run holds one bet or more, and its nonces and rounds end at 2^64 − 1",
                run.count, run.nonce, run.round
            ));
        }
        if run.verdict == RoundVerdict::Invalid {
            return Err("a run of invalid bets: an invalid round is no bet".into());
        }
        let count = self.bets.verdict_mut(run.verdict);
        *count = count
            .checked_add(run.count)
            .ok_or("the part's runs of bets hold more than 2^64 − 1 rounds")?;
        Ok(())
    }

    /// Refuses counts that are not those of the part's records.
    fn agrees(&self, c: &Counts) -> Result<(), String> {
        let verdicts = [c.matched, c.mismatch, c.skipped, c.invalid, c.unobserved]
            .iter()
            .try_fold(0u64, |s, &n| s.checked_add(n));
        if verdicts != Some(c.rounds) {
            return Err(format!(
                "its counts say {} rounds, but the rounds of each verdict do not add up to that",
                c.rounds
            ));
        }
        let invalid = c.invalid.checked_add(c.invalid_other);
        let found = [
            (
                "mismatch",
                Some(c.mismatch),
                self.mismatched,
                "rounds with mismatch findings",
            ),
            ("skipped", Some(c.skipped), self.skipped, "skipped findings"),
            ("unobserved", Some(c.unobserved), self.unobserved, "unobserved findings"),
            ("invalid + invalidOther", invalid, self.invalid, "invalid findings"),
            (
                "commitMismatch",
                Some(c.commit_mismatch),
                self.commit,
                "commit findings",
            ),
            ("gaps", Some(c.gaps), self.gaps, "gap findings"),
        ];
        for (key, said, held, what) in found {
            if said != Some(held) {
                let said = said.map_or("more than 2^64 − 1".into(), |n| n.to_string());
                return Err(format!("its counts say {key} {said}, but the part holds {held} {what}"));
            }
        }
        for v in [
            RoundVerdict::Match,
            RoundVerdict::Mismatch,
            RoundVerdict::Skipped,
            RoundVerdict::Unobserved,
        ] {
            let (said, held) = (c.rounds_of(v), self.bets.rounds_of(v));
            if held > said {
                let v = format!("{v:?}").to_lowercase();
                return Err(format!(
                    "its runs of bets hold {held} rounds of verdict {v}, but its counts say {v} {said}"
                ));
            }
        }
        Ok(())
    }
}

/// Replays one part's records: its findings into the spool, its bets
/// through the histories, its counts with what the histories changed.
fn replay(
    reader: &mut Reader<'_>,
    part: &Part,
    source: usize,
    [bets, games]: [&mut Bets; 2],
    counts: &mut Counts,
    spool: &mut Spool,
) -> Result<(), MergeError> {
    // The part's own record.
    reader.next()?;
    // Its counts (from the index) first: a bet shown twice moves a round
    // from its verdict to a mismatch.
    *counts = counts
        .checked_sum(&part.end.counts)
        .ok_or_else(|| reader.format("the merged counts pass 2^64 − 1"))?;
    loop {
        match reader.next()? {
            Some(Record::Finding(f)) => spool.push(source, &f)?,
            Some(Record::Bets(run)) => {
                let histories = if run.game { &mut *games } else { &mut *bets };
                follow(&run, histories, counts, spool, source)?.map_err(|reason| reader.format(reason))?;
            }
            Some(Record::End(end)) if end == part.end => return reader.same_as_indexed(part),
            _ => return Err(reader.format("the partial changed since it was indexed")),
        }
    }
}

/// Follows a run of bets as the audit would have followed its rounds one by
/// one, in one step ([`Bets::repeats_run`]); an inner error when the run is
/// not within the part's counts (checked by the index).
fn follow(
    run: &BetRun,
    bets: &mut Bets,
    counts: &mut Counts,
    spool: &mut Spool,
    source: usize,
) -> io::Result<Result<(), String>> {
    let server: Arc<str> = Arc::from(run.server.as_str());
    let at = Place::epoch(run.epoch, run.line);
    // A crash history's games are said as games, not nonces.
    let repeated: fn(Place, &str, u64) -> Finding = if run.game {
        super::chain::repeated
    } else {
        bets::repeated
    };
    let overflow: fn(Place) -> Finding = if run.game {
        super::chain::overflow
    } else {
        bets::overflow
    };
    let Some(last) = run.count.checked_sub(1).and_then(|l| run.nonce.checked_add(l)) else {
        return Ok(Err("a run of bets past nonce 2^64 − 1".into()));
    };
    match bets.repeats_run(&server, &run.client, run.nonce, last, at) {
        RunSeen::Past => {}
        RunSeen::Overflow => {
            let e = Event::Invalid(overflow(at.round(run.round)));
            if counts.checked_add(&e).is_none() {
                return Ok(Err("the merged counts pass 2^64 − 1".into()));
            }
            spool.push(source, &e.findings()[0])?;
        }
        RunSeen::Recorded(again) => {
            // The rounds bet again turn from their verdict into mismatches.
            let moved: u64 = again.iter().map(|&(a, b)| b - a + 1).sum();
            if run.verdict != RoundVerdict::Mismatch {
                let (Some(left), Some(mismatch)) = (
                    counts.rounds_of(run.verdict).checked_sub(moved),
                    counts.mismatch.checked_add(moved),
                ) else {
                    return Ok(Err("more bets moved to mismatches than the counts hold".into()));
                };
                *counts.verdict_mut(run.verdict) = left;
                counts.mismatch = mismatch;
            }
            for (a, b) in again {
                for nonce in a..=b {
                    let round = run.round + (nonce - run.nonce);
                    spool.push(source, &repeated(at.round(round), &run.client, nonce))?;
                }
            }
        }
    }
    Ok(Ok(()))
}
