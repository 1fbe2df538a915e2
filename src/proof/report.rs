//! What an audit hands back: a text summary, the report JSON of
//! docs/proofs.md and JUnit XML, all written from a spool of findings on
//! disk, so that an archive with millions of findings is reported in
//! constant memory.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, Write};

use serde_json::{Map, Value};

use super::{Counts, Finding, FindingKind, Verdict};

/// One audited input and its counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// As given on the command line (`-` for stdin).
    pub name: String,
    /// What the audit of it counted.
    pub counts: Counts,
}

/// The counts of several sources together.
pub fn totals(sources: &[Source]) -> Counts {
    let mut t = Counts::default();
    for s in sources {
        t.merge(&s.counts);
    }
    t
}

/// Findings kept on disk in order, each with the index of its source.
pub struct Spool {
    file: BufWriter<File>,
    len: u64,
}

impl Spool {
    /// A spool in an anonymous temporary file (gone when dropped).
    pub fn new() -> io::Result<Spool> {
        Ok(Spool {
            file: BufWriter::new(tempfile::tempfile()?),
            len: 0,
        })
    }

    /// Adds a finding of source `source` at the end.
    pub fn push(&mut self, source: usize, f: &Finding) -> io::Result<()> {
        serde_json::to_writer(&mut self.file, &(source, f))?;
        self.file.write_all(b"\n")?;
        self.len += 1;
        Ok(())
    }

    /// How many findings the spool holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the spool holds no finding.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Hands every finding to `f`, in order.
    pub fn replay(&mut self, f: &mut dyn FnMut(usize, Finding) -> io::Result<()>) -> io::Result<()> {
        self.file.flush()?;
        let file = self.file.get_mut();
        file.rewind()?;
        let mut lines = BufReader::new(&*file).lines();
        let result = lines.try_for_each(|line| {
            let (source, finding): (usize, Finding) = serde_json::from_str(&line?)?;
            f(source, finding)
        });
        self.file.get_mut().seek(io::SeekFrom::End(0))?;
        result
    }
}

/// A value for a sentence: strings bare, anything else as JSON.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One line per finding, for people.
pub fn describe(f: &Finding) -> String {
    let at = f.place();
    let field = f.field.as_deref().unwrap_or("");
    let index = f.index.map(|i| format!(" at index {i}")).unwrap_or_default();
    match f.kind {
        FindingKind::Mismatch if f.derived.is_null() && field == "nonce" => {
            format!("{at}NONCE BET TWICE: {}", f.reason.as_deref().unwrap_or(""))
        }
        // A crash history's game: its hash off the chain, or shown twice (proof::chain).
        FindingKind::Mismatch if f.derived.is_null() && field == "hash" => {
            format!("{at}NOT ON THE CHAIN: {}", f.reason.as_deref().unwrap_or(""))
        }
        FindingKind::Mismatch if f.derived.is_null() && field == "game" => {
            format!("{at}GAME SHOWN TWICE: {}", f.reason.as_deref().unwrap_or(""))
        }
        FindingKind::Gap if field == "game" => {
            format!("{at}gap in the crash history: {}", f.reason.as_deref().unwrap_or(""))
        }
        FindingKind::Gap => format!("{at}gap in the bet history: {}", f.reason.as_deref().unwrap_or("")),
        FindingKind::Mismatch => {
            let derived = if f.derived.is_null() {
                "nothing (the round has no item there)".to_string()
            } else {
                shown(&f.derived)
            };
            let more = match f.differences {
                Some(n) if n > 1 => format!(" ({n} items of {field} differ)"),
                _ => String::new(),
            };
            format!(
                "{at}MISMATCH in {field}{index}: derived {derived}, observed {}{more}",
                shown(&f.observed)
            )
        }
        FindingKind::Commit => format!(
            "{at}COMMITMENT MISMATCH: the revealed seed commits to {}, the commitment shown before play is {}",
            shown(&f.derived),
            shown(&f.observed)
        ),
        FindingKind::Invalid => {
            let reason = f.reason.as_deref().unwrap_or("");
            match &f.field {
                Some(name) => {
                    let index = f.index.map(|i| format!("[{i}]")).unwrap_or_default();
                    format!("{at}INVALID: {name}{index}: {reason}")
                }
                None => format!("{at}INVALID: {reason}"),
            }
        }
        FindingKind::Skipped => format!(
            "{at}skipped: external ({}), not derived from the seed",
            f.reason.as_deref().unwrap_or("")
        ),
        // A crash game shown without its hash: nothing derives its point (proof::game).
        FindingKind::Unobserved if f.reason.as_deref() == Some(super::game::NO_HASH) => {
            format!("{at}{}", super::game::NO_HASH)
        }
        FindingKind::Unobserved if f.derived.is_null() => format!(
            "{at}nothing observed to compare; the derived outcome is more than {} bytes of JSON and not listed",
            super::round::MAX_LISTED
        ),
        FindingKind::Unobserved => format!("{at}nothing observed to compare; derived {}", f.derived),
    }
}

/// The verdict, as a sentence.
pub fn verdict_line(c: &Counts) -> String {
    let counted = |parts: &[(u64, &str)]| {
        parts
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match c.verdict() {
        Verdict::Match => {
            let mut line = format!(
                "verdict: match: {}",
                counted(&[(c.commit_ok, "commitment(s) ok"), (c.matched, "round(s) match")])
            );
            let aside = counted(&[
                (c.skipped, "round(s) skipped (external)"),
                (c.unobserved, "round(s) with nothing observed"),
                (c.commit_absent, "epoch(s) without a commitment"),
                (c.gaps, "gap(s) of missing nonces or games in a bet or crash history"),
            ]);
            if !aside.is_empty() {
                line.push_str(&format!("; not compared: {aside}"));
            }
            line
        }
        Verdict::Unobserved => "verdict: nothing to compare: no commitment to check and nothing observed".into(),
        Verdict::Mismatch => format!(
            "verdict: MISMATCH: {}",
            counted(&[
                (c.commit_mismatch, "commitment(s) differ"),
                (c.mismatch, "round(s) differ")
            ])
        ),
        Verdict::Invalid => format!(
            "verdict: INVALID: {}",
            counted(&[
                (c.invalid, "round(s) invalid"),
                (c.invalid_other, "other part(s) invalid")
            ])
        ),
    }
}

/// The statistics for people: every rejected test, and (unless quiet)
/// the five smallest p-values.
pub fn statistics_text(s: &crate::stats::Statistics, quiet: bool) -> String {
    use std::fmt::Write as _;
    let mut out = format!(
        "\nstatistics ({} tests, {} rounds, {} tables too small to test, {} rounds untested; Holm at family-wise {}):\n",
        s.tests.len(),
        s.rounds,
        s.not_run,
        s.untested,
        crate::base::pyfmt::js_number(s.level)
    );
    let line = |t: &crate::stats::TestResult| {
        let df = t.df.map(|d| format!(" df {d}")).unwrap_or_default();
        format!(
            "  {}{}: {}: {} {:.2}{df}, n {}, p {:.3e} (threshold {:.3e})\n",
            if t.rejected { "ALARM " } else { "" },
            t.family,
            t.name,
            t.distribution,
            t.statistic,
            t.n,
            t.p_value,
            t.threshold
        )
    };
    for t in s.rejected() {
        out.push_str(&line(t));
    }
    if !quiet {
        let mut rest: Vec<_> = s.tests.iter().filter(|t| !t.rejected).collect();
        rest.sort_by(|a, b| a.p_value.total_cmp(&b.p_value));
        let _ = writeln!(out, "  smallest p-values of the tests not rejected:");
        for t in rest.iter().take(5) {
            out.push_str(&line(t));
        }
    }
    out
}

/// The summary table: one row per source (and a total row for several).
/// The counts that are 0 in every row (skipped, unobserved, invalid, a
/// commitment that differs or is absent) are left out, and a last line
/// names them, so that the usual table fits 100 columns; the JSON report
/// (`--report`) always has every count.
pub fn table(sources: &[Source]) -> String {
    let mut names: Vec<String> = sources.iter().map(|s| crate::base::text::escape_str(&s.name)).collect();
    let mut counts: Vec<Counts> = sources.iter().map(|s| s.counts).collect();
    if sources.len() > 1 {
        names.push("total".into());
        counts.push(totals(sources));
    }
    // (header, count, always shown)
    type Column = (&'static str, fn(&Counts) -> u64, bool);
    let columns: [Column; 10] = [
        ("epochs", |c| c.epochs, true),
        ("rounds", |c| c.rounds, true),
        ("match", |c| c.matched, true),
        ("mismatch", |c| c.mismatch, true),
        ("skipped", |c| c.skipped, false),
        ("unobserved", |c| c.unobserved, false),
        ("invalid", |c| c.invalid + c.invalid_other, false),
        ("commit ok", |c| c.commit_ok, true),
        ("commit mismatch", |c| c.commit_mismatch, false),
        ("commit absent", |c| c.commit_absent, false),
    ];
    let (shown, hidden): (Vec<&Column>, Vec<&Column>) = columns
        .iter()
        .partition(|(_, count, always)| *always || counts.iter().any(|c| count(c) > 0));
    let mut rows = vec![std::iter::once("file")
        .chain(shown.iter().map(|c| c.0))
        .chain(["verdict"])
        .map(String::from)
        .collect::<Vec<_>>()];
    for (name, c) in names.iter().zip(&counts) {
        let mut row = vec![name.clone()];
        row.extend(shown.iter().map(|col| (col.1)(c).to_string()));
        row.push(c.verdict().name().to_string());
        rows.push(row);
    }
    let mut out = aligned(&rows);
    if !hidden.is_empty() {
        let list: Vec<&str> = hidden.iter().map(|c| c.0).collect();
        out.push_str(&format!("(0 in every row: {})\n", list.join(", ")));
    }
    out
}

/// Rows as columns: the first and last left-aligned, the others right-aligned.
fn aligned(rows: &[Vec<String>]) -> String {
    let n = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..n)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 || i == n - 1 {
                    format!("{c:<w$}", w = widths[i])
                } else {
                    format!("{c:>w$}", w = widths[i])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The counts and verdict as a JSON object (a report's head, a vector's expectation).
pub fn counts_value(c: &Counts) -> Map<String, Value> {
    let Value::Object(mut m) = serde_json::to_value(c).expect("counts serialize") else {
        unreachable!("counts are an object")
    };
    m.insert("verdict".into(), Value::from(c.verdict().name()));
    m
}

/// Writes the report JSON: the totals, the verdict, one entry per file,
/// then every finding with its file.
/// The report, with the `statistics` section of `audit --stats`
/// (after `files`, before `findings`).
pub fn write_report_with(
    out: &mut dyn Write,
    sources: &[Source],
    spool: &mut Spool,
    statistics: Option<&crate::stats::Statistics>,
) -> io::Result<()> {
    let mut head = counts_value(&totals(sources));
    let files: Vec<Value> = sources
        .iter()
        .map(|s| {
            let mut m = Map::new();
            m.insert("file".into(), Value::from(s.name.as_str()));
            m.extend(counts_value(&s.counts));
            Value::Object(m)
        })
        .collect();
    head.insert("files".into(), Value::from(files));
    if let Some(s) = statistics {
        head.insert("statistics".into(), serde_json::to_value(s)?);
    }
    let text = serde_json::to_string(&Value::Object(head))?;
    out.write_all(&text.as_bytes()[..text.len() - 1])?;
    out.write_all(b",\"findings\":[")?;
    let mut first = true;
    spool.replay(&mut |source, f| {
        out.write_all(if first { b"\n" } else { b",\n" })?;
        first = false;
        let Value::Object(body) = serde_json::to_value(&f)? else {
            unreachable!("a finding is an object")
        };
        let mut m = Map::new();
        m.insert("file".into(), Value::from(sources[source].name.as_str()));
        m.extend(body);
        serde_json::to_writer(&mut *out, &m)?;
        Ok(())
    })?;
    out.write_all(b"\n]}\n")
}

/// XML 1.0 text: a document's keys, reasons and file names shown escaped
/// ([`crate::base::text`], the one rule for text shown to people), then marked up.
fn esc(s: &str) -> String {
    crate::base::text::markup(&crate::base::text::escape_str(s))
}

/// Writes JUnit XML: one test suite per file, whose first test case is the
/// file's summary (its verdict), then one test case per finding (a failure
/// for a mismatch, an error for invalid input, skipped for a skipped or
/// unobserved round). `tests=` counts exactly those test cases.
pub fn write_junit(out: &mut dyn Write, sources: &[Source], spool: &mut Spool) -> io::Result<()> {
    // One pass over the spool counts each file's findings, so that a
    // suite's head, written before its findings, holds its true counts.
    let mut tally = vec![[0u64; 4]; sources.len()];
    spool.replay(&mut |source, f| {
        let t = &mut tally[source];
        t[0] += 1;
        match f.kind {
            FindingKind::Mismatch | FindingKind::Commit => t[1] += 1,
            FindingKind::Invalid => t[2] += 1,
            FindingKind::Skipped | FindingKind::Unobserved | FindingKind::Gap => t[3] += 1,
        }
        Ok(())
    })?;
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(out, "<testsuites name=\"provably audit\">")?;
    let suite = |out: &mut dyn Write, i: usize| -> io::Result<()> {
        let (s, [n, failures, errors, skipped]) = (&sources[i], tally[i]);
        writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\">",
            esc(&s.name),
            n + 1,
        )?;
        writeln!(
            out,
            "    <testcase classname=\"{0}\" name=\"{0}: summary\"><system-out>{1}</system-out></testcase>",
            esc(&s.name),
            esc(&verdict_line(&s.counts))
        )
    };
    // Findings come in source order: a suite opens at its source's first
    // finding, and suites without findings are written whole in between.
    let mut next_suite = 0usize;
    let mut number = 0u64;
    spool.replay(&mut |source, f| {
        if source >= next_suite {
            if next_suite > 0 {
                writeln!(out, "  </testsuite>")?;
            }
            for i in next_suite..source {
                suite(out, i)?;
                writeln!(out, "  </testsuite>")?;
            }
            suite(out, source)?;
            (next_suite, number) = (source + 1, 0);
        }
        number += 1;
        let at = f.place().to_string();
        let name = match at.trim_end_matches([':', ' ']) {
            "" => "document",
            name => name,
        };
        writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{} (finding {number})\">",
            esc(&sources[source].name),
            esc(name)
        )?;
        let text = esc(&describe(&f));
        match f.kind {
            FindingKind::Mismatch => writeln!(out, "      <failure type=\"mismatch\" message=\"{text}\"/>"),
            FindingKind::Commit => writeln!(out, "      <failure type=\"commit\" message=\"{text}\"/>"),
            FindingKind::Invalid => writeln!(out, "      <error type=\"invalid\" message=\"{text}\"/>"),
            FindingKind::Skipped | FindingKind::Unobserved | FindingKind::Gap => {
                writeln!(out, "      <skipped message=\"{text}\"/>")
            }
        }?;
        writeln!(out, "    </testcase>")
    })?;
    if next_suite > 0 {
        writeln!(out, "  </testsuite>")?;
    }
    for i in next_suite..sources.len() {
        suite(out, i)?;
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")
}
