//! Reading JSON lines: one epoch per line, each line read by a worker with
//! the same epoch reader as a document's epoch ([`super::document`]).

use std::io::{self, BufRead, Read};

use super::document::{read_epoch, Ctx, ReadStop};
use super::jobs::{rounds_in, Inline, Job, Sink};
use super::run::Options;
use super::scan::{ScanError, Scanner};
use super::{Event, Place, ProofError};

/// Reads and checks one JSON-lines epoch.
pub(crate) fn read_line_epoch(
    line: u64,
    epoch: u64,
    text: Result<&[u8], usize>,
    options: &Options,
    out: &mut Vec<Event>,
    part: &mut super::jobs::Part<'_>,
) {
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
            part,
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

/// Reads JSON lines into jobs: batches of lines, each line one epoch.
/// Blank lines are skipped (but counted for line numbers).
pub(crate) fn read_lines<R: BufRead, S: Sink>(mut input: R, sink: &mut S, options: &Options) -> io::Result<()> {
    let (mut line, mut epoch, mut bytes, mut rounds) = (options.first_line, options.first_epoch, 0usize, 0usize);
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
            // Blank is JSON's white space only: a line of form feeds is an epoch that is not JSON.
            if t.iter().all(|&b| crate::base::json::is_space(b)) {
                continue;
            }
        }
        // Only the file's first epoch can show that it is no proof at all.
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
        rounds += text.as_ref().map_or(1, |t| rounds_in(t));
        batch.push((line, epoch, text));
        epoch += 1;
        if rounds >= options.batch_rounds || bytes >= options.batch_bytes {
            if sink.job(Job::Lines(std::mem::take(&mut batch))).is_err() {
                return Ok(());
            }
            (bytes, rounds) = (0, 0);
        }
    }
    if !batch.is_empty() {
        let _ = sink.job(Job::Lines(batch));
    }
    Ok(())
}
