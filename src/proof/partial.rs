//! Audits that merge: a part of an audit written out (`audit --partial`),
//! and the merge of parts into the report one audit over all of them gives
//! (`provably merge`; docs/scale.md says what is guaranteed).
//!
//! A partial result is JSON lines (`vectors/partial.schema.json`), one
//! record per line, each an object with one key:
//!
//! * `partial`: the first line; the format's version, the version of
//!   `provably` that wrote it, and whether the statistics were counted;
//! * per input (a *part*): `part` (its source's name, its first epoch and
//!   the lines of the source before it), then in document order every
//!   `finding` and every `bets` record, then `end` with the part's counts;
//! * `statistics`: the last line, the count tables (with `--stats`).
//!
//! What a part cannot know is left to the merge: a bet history is followed
//! across every part, so a part writes its bets (a `bets` record is a run
//! of consecutive rounds of one seed pair, one epoch and one verdict, with
//! consecutive nonces: a history in nonce order is one record per epoch)
//! and the merge feeds them, in order, to the same `Bets` an audit uses.
//! A nonce bet twice turns its round into a mismatch there, right after
//! the round's own findings, as in an audit; gaps come last.
//!
//! The merge orders the parts by source name, then first epoch, whatever
//! order the partials are given in, so it is commutative and associative:
//! its report is that of `provably audit` over the sources in name order.
//! It reads each partial twice (an index of its parts, then the records
//! part by part), so its memory is the tables and the bet histories' runs,
//! not the rounds.

use std::cmp::Ordering;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::bets::{self, Bets, Seen};
use super::report::{Source, Spool};
use super::{Counts, Event, Finding, Place, RoundVerdict};
use crate::stats::collect::Table;
use crate::stats::model::Key;
use crate::stats::Collector;

/// The version of the partial format this module reads and writes.
pub const PARTIAL_VERSION: u64 = 1;

/// One line of a partial result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Record {
    Partial(Header),
    Part(PartHead),
    Finding(Finding),
    Bets(BetRun),
    End(PartEnd),
    Statistics(Tables),
}

/// What every partial of one merge must share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub version: u64,
    /// The version of `provably` that wrote it: the rules an audit applies
    /// are those of its version, so parts of two versions do not merge.
    pub provably: String,
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
    pub source: String,
    pub first_epoch: u64,
    pub first_line: u64,
}

/// Rounds `round … round + count − 1` of one epoch, bets of one seed pair
/// on nonces `nonce … nonce + count − 1`, all with one verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BetRun {
    pub server: String,
    pub client: String,
    pub nonce: u64,
    pub count: u64,
    pub epoch: u64,
    pub round: u64,
    pub line: Option<u64>,
    pub verdict: RoundVerdict,
}

/// A part's counts, as its audit counted them (before bet histories).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartEnd {
    pub counts: Counts,
}

/// The statistics' count tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    pub rounds: u64,
    pub untested: u64,
    pub tables: Vec<TableCounts>,
    /// The families past the cap.
    pub past: Vec<FamilyName>,
}

/// A family by name: the op and its two parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyName {
    pub op: String,
    pub a: u64,
    pub b: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableCounts {
    pub op: String,
    pub a: u64,
    pub b: u64,
    pub rounds: u64,
    /// counts[test · stride + cell], as the family's layout orders them.
    pub counts: Vec<u64>,
    /// pairs[a · stride + b] of consecutive values.
    pub pairs: Vec<u64>,
}

impl Tables {
    pub fn of(c: &Collector) -> Tables {
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
    pub fn collector(&self) -> Result<Collector, String> {
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

/// Writes a partial result: a header, then parts, then the statistics.
pub struct PartialWriter<W: Write> {
    out: W,
    /// The run of bets being extended.
    pending: Option<(Arc<str>, BetRun)>,
}

impl<W: Write> PartialWriter<W> {
    pub fn new(mut out: W, header: &Header) -> io::Result<Self> {
        line(&mut out, &Record::Partial(header.clone()))?;
        Ok(PartialWriter { out, pending: None })
    }

    /// A part begins.
    pub fn part(&mut self, head: PartHead) -> io::Result<()> {
        self.flush()?;
        line(&mut self.out, &Record::Part(head))
    }

    /// Sees one event of the part's audit, in document order.
    pub fn event(&mut self, e: &Event) -> io::Result<()> {
        if !e.findings().is_empty() {
            self.flush()?;
            for f in e.findings() {
                line(&mut self.out, &Record::Finding(f.clone()))?;
            }
        }
        let Event::Round {
            epoch,
            round,
            verdict,
            bet: Some(bet),
            ..
        } = e
        else {
            return Ok(());
        };
        // An invalid round is no bet of its history (as in `Bets::see`).
        if *verdict == RoundVerdict::Invalid {
            return Ok(());
        }
        if let Some((server, run)) = &mut self.pending {
            let next = |x: u64| x.checked_add(run.count);
            let extends = Arc::ptr_eq(server, &bet.server) || **server == *bet.server;
            if extends
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
        };
        self.pending = Some((Arc::clone(&bet.server), run));
        Ok(())
    }

    /// The part ends with its counts.
    pub fn end(&mut self, counts: Counts) -> io::Result<()> {
        self.flush()?;
        line(&mut self.out, &Record::End(PartEnd { counts }))
    }

    /// The last line: the statistics' tables (with `--stats`).
    pub fn finish(mut self, stats: Option<&Collector>) -> io::Result<W> {
        self.flush()?;
        if let Some(c) = stats {
            line(&mut self.out, &Record::Statistics(Tables::of(c)))?;
        }
        self.out.flush()?;
        Ok(self.out)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.pending.take() {
            Some((_, run)) => line(&mut self.out, &Record::Bets(run)),
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
pub enum MergeError {
    #[error("{path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    #[error("{path}, line {line}: {reason}")]
    Format { path: PathBuf, line: u64, reason: String },
    #[error("{path}: {reason}")]
    Refused { path: PathBuf, reason: String },
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
    counts: Counts,
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
    pub sources: Vec<Source>,
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
    /// Reads the index of every partial: its header, its parts and their
    /// counts, its tables. Refuses partials of another version or other
    /// options, a partial that was cut short, and parts that overlap.
    pub fn open(paths: &[PathBuf]) -> Result<Merge, MergeError> {
        let mut header: Option<(usize, Header)> = None;
        let mut parts = Vec::new();
        let mut stats: Option<Collector> = None;
        for (file, path) in paths.iter().enumerate() {
            let (h, mut found, tables) = index(file, path)?;
            let refused = |reason: String| MergeError::Refused {
                path: path.clone(),
                reason,
            };
            let mine = Header::current(h.stats);
            if h.version != mine.version || h.provably != mine.provably {
                return Err(refused(format!(
                    "a partial of format {} by provably {}; this is format {} by provably {}: audit every part with one version",
                    h.version, h.provably, mine.version, mine.provably
                )));
            }
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
            if h.stats {
                let c = tables
                    .ok_or_else(|| refused("audited with --stats, but it holds no statistics".into()))?
                    .collector()
                    .map_err(refused)?;
                match &mut stats {
                    Some(all) => all.merge(&c),
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
        for w in parts.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            let end = a.head.first_epoch.saturating_add(a.counts.epochs);
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
    pub fn run(self, spool: &mut Spool) -> Result<Merged, MergeError> {
        let mut sources: Vec<Source> = Vec::new();
        let mut bets = Bets::default();
        let mut files: Vec<Option<BufReader<File>>> = self.paths.iter().map(|_| None).collect();
        for part in &self.parts {
            if sources.last().is_none_or(|s| s.name != part.head.source) {
                sources.push(Source {
                    name: part.head.source.clone(),
                    counts: Counts::default(),
                });
            }
            let source = sources.len() - 1;
            bets.source(source);
            let path = &self.paths[part.file];
            let reader = match &mut files[part.file] {
                Some(r) => r,
                slot => slot.insert(BufReader::new(open(path)?)),
            };
            reader
                .seek(SeekFrom::Start(part.offset))
                .map_err(|e| MergeError::Read {
                    path: path.clone(),
                    source: e,
                })?;
            let counts = &mut sources[source].counts;
            replay(reader, path, part, source, &mut bets, counts, spool)?;
        }
        bets.finish(&mut |source, e| {
            sources[source].counts.add(e);
            e.findings().iter().try_for_each(|f| spool.push(source, f))
        })?;
        Ok(Merged {
            sources,
            stats: self.stats,
        })
    }

    /// Writes the parts, in merge order, and the merged tables as one
    /// partial: merging it with others is merging all their parts.
    pub fn write_partial(&self, out: &mut dyn Write) -> Result<(), MergeError> {
        line(out, &Record::Partial(self.header.clone()))?;
        for part in &self.parts {
            let path = &self.paths[part.file];
            let mut reader = BufReader::new(open(path)?);
            let read = |e| MergeError::Read {
                path: path.clone(),
                source: e,
            };
            reader.seek(SeekFrom::Start(part.offset)).map_err(read)?;
            let mut text = Vec::new();
            loop {
                text.clear();
                if reader.read_until(b'\n', &mut text).map_err(read)? == 0 {
                    break;
                }
                out.write_all(&text)?;
                if text.starts_with(b"{\"end\":") {
                    break;
                }
            }
        }
        if let Some(c) = &self.stats {
            line(out, &Record::Statistics(Tables::of(c)))?;
        }
        Ok(())
    }
}

fn open(path: &Path) -> Result<File, MergeError> {
    File::open(path).map_err(|e| MergeError::Read {
        path: path.to_path_buf(),
        source: e,
    })
}

/// Reads a record; `None` at the end of the file.
fn record(reader: &mut impl BufRead, text: &mut Vec<u8>, path: &Path, line: u64) -> Result<Option<Record>, MergeError> {
    text.clear();
    let n = reader.read_until(b'\n', text).map_err(|e| MergeError::Read {
        path: path.to_path_buf(),
        source: e,
    })?;
    if n == 0 {
        return Ok(None);
    }
    serde_json::from_slice(text).map(Some).map_err(|e| MergeError::Format {
        path: path.to_path_buf(),
        line,
        reason: format!("not a record of a partial result: {e}"),
    })
}

/// The index of one partial: its header, its parts, its tables.
fn index(file: usize, path: &Path) -> Result<(Header, Vec<Part>, Option<Tables>), MergeError> {
    let mut reader = BufReader::new(open(path)?);
    let format = |line: u64, reason: &str| MergeError::Format {
        path: path.to_path_buf(),
        line,
        reason: reason.to_string(),
    };
    let mut text = Vec::new();
    let header = match record(&mut reader, &mut text, path, 1) {
        Ok(Some(Record::Partial(h))) => h,
        Err(MergeError::Read { path, source }) => return Err(MergeError::Read { path, source }),
        _ => return Err(format(
            1,
            "this is no partial result: one begins with its \"partial\" header (written by provably audit --partial)",
        )),
    };
    let (mut offset, mut line) = (text.len() as u64, 1u64);
    let mut parts = Vec::new();
    let mut open_part: Option<Part> = None;
    let mut tables = None;
    loop {
        let at = offset;
        line += 1;
        let Some(r) = record(&mut reader, &mut text, path, line)? else {
            break;
        };
        offset += text.len() as u64;
        if tables.is_some() {
            return Err(format(line, "nothing follows the statistics"));
        }
        match (r, &mut open_part) {
            (Record::Part(head), None) => {
                open_part = Some(Part {
                    file,
                    offset: at,
                    line,
                    head,
                    counts: Counts::default(),
                });
            }
            (Record::End(end), Some(_)) => {
                let mut p = open_part.take().expect("a part is open");
                p.counts = end.counts;
                parts.push(p);
            }
            (Record::Finding(_) | Record::Bets(_), Some(_)) => {}
            (Record::Statistics(t), None) => tables = Some(t),
            (Record::Partial(_), _) => return Err(format(line, "a second header")),
            (_, None) => return Err(format(line, "a record outside a part")),
            (_, Some(_)) => return Err(format(line, "a part that does not end before the next begins")),
        }
    }
    if let Some(p) = open_part {
        return Err(format(
            p.line,
            "this part has no end: the partial was cut short (it is written whole or not at all, so it was truncated since)",
        ));
    }
    if header.stats != tables.is_some() {
        return Err(format(line, "the statistics are missing, or there though not counted"));
    }
    Ok((header, parts, tables))
}

/// Replays one part's records: its findings into the spool, its bets
/// through the histories, its counts with what the histories changed.
fn replay(
    reader: &mut BufReader<File>,
    path: &Path,
    part: &Part,
    source: usize,
    bets: &mut Bets,
    counts: &mut Counts,
    spool: &mut Spool,
) -> Result<(), MergeError> {
    let mut text = Vec::new();
    let mut line = part.line;
    // The part's own record.
    record(reader, &mut text, path, line)?;
    // Its counts (from the index) first: a bet shown twice moves a round
    // from its verdict to a mismatch.
    counts.merge(&part.counts);
    loop {
        line += 1;
        match record(reader, &mut text, path, line)? {
            Some(Record::Finding(f)) => spool.push(source, &f)?,
            Some(Record::Bets(run)) => {
                follow(&run, bets, counts, spool, source)?.map_err(|reason| MergeError::Format {
                    path: path.to_path_buf(),
                    line,
                    reason,
                })?;
            }
            Some(Record::End(end)) if end.counts == part.counts => return Ok(()),
            _ => {
                return Err(MergeError::Format {
                    path: path.to_path_buf(),
                    line,
                    reason: "the partial changed since it was indexed".into(),
                })
            }
        }
    }
}

/// Follows a run of bets, round by round, as the audit would have; an
/// inner error when the run's rounds are not among the part's counts.
fn follow(
    run: &BetRun,
    bets: &mut Bets,
    counts: &mut Counts,
    spool: &mut Spool,
    source: usize,
) -> io::Result<Result<(), String>> {
    let server: Arc<str> = Arc::from(run.server.as_str());
    let at = Place::epoch(run.epoch, run.line);
    for i in 0..run.count {
        let (Some(nonce), Some(round)) = (run.nonce.checked_add(i), run.round.checked_add(i)) else {
            break;
        };
        match bets.repeats(&server, &run.client, nonce, at) {
            Seen::New => {}
            Seen::Again => {
                if run.verdict != RoundVerdict::Mismatch {
                    let Some(n) = verdict_count(counts, run.verdict).checked_sub(1) else {
                        return Ok(Err(format!("more {:?} bets than the part counts", run.verdict)));
                    };
                    *verdict_count(counts, run.verdict) = n;
                    counts.mismatch += 1;
                }
                spool.push(source, &bets::repeated(at.round(round), &run.client, nonce))?;
            }
            Seen::Overflow => {
                let e = Event::Invalid(bets::overflow(at.round(round)));
                counts.add(&e);
                spool.push(source, &e.findings()[0])?;
            }
            Seen::Past => break,
        }
    }
    Ok(Ok(()))
}

fn verdict_count(c: &mut Counts, v: RoundVerdict) -> &mut u64 {
    match v {
        RoundVerdict::Match => &mut c.matched,
        RoundVerdict::Mismatch => &mut c.mismatch,
        RoundVerdict::Skipped => &mut c.skipped,
        RoundVerdict::Invalid => &mut c.invalid,
        RoundVerdict::Unobserved => &mut c.unobserved,
    }
}
