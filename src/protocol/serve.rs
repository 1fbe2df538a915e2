//! `provably serve`: this implementation as a protocol v1 target.

use std::io::{self, BufRead, BufReader, Read, Write};

pub use crate::base::lines::MAX_LINE;
use crate::base::lines::{read_line, skip_line, Line};
use crate::op::error::InvalidInput;
use crate::protocol::{answer_line, Answer};

fn invalid(reason: String) -> Answer {
    Answer {
        id: None,
        result: Err(InvalidInput::new("request", reason).into()),
    }
}

/// Serves requests from `input` until it ends. Output is flushed whenever no
/// further request is already waiting, so a pipelining client is not slowed
/// by a flush per line and an interactive one never waits.
pub fn serve<R: Read, W: Write>(input: R, output: W) -> io::Result<()> {
    serve_with(input, output, answer_line)
}

/// The line loop of protocol v1 with `answer` giving the answer to each
/// request line (UTF-8, CR stripped, not blank): the one place that reads
/// lines, caps them, skips blank ones and decides when to flush, for
/// `provably serve` and for every engine served the same way.
pub(crate) fn serve_with<R: Read, W: Write>(
    input: R,
    output: W,
    mut answer: impl FnMut(&str) -> Answer,
) -> io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 16, input);
    let mut out = io::BufWriter::new(output);
    // One line's bytes, the buffer kept from answer to answer.
    let mut line = Vec::new();
    // The answer to a line's bytes (CR stripped; none for a blank line).
    let mut respond = |bytes: &[u8]| -> Option<Answer> {
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        // A blank line (spaces and tabs only) is no request and gets no answer.
        if bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            return None;
        }
        Some(match std::str::from_utf8(bytes) {
            Ok(text) => answer(text),
            Err(e) => invalid(format!("not UTF-8: {e}")),
        })
    };
    loop {
        // A line that lies whole in the buffer is answered where it lies,
        // without a copy or an allocation of its own; a longer one, a last
        // line without its newline and the end go through `read_line`.
        let buffered = input.fill_buf()?;
        let response = if let Some(i) = memchr::memchr(b'\n', buffered) {
            let response = respond(&buffered[..i]);
            input.consume(i + 1);
            response
        } else {
            match read_line(&mut input, MAX_LINE)? {
                Line::Eof => break,
                // A runaway line is answered, then dropped unread.
                Line::TooLong { read, .. } => {
                    let n = read + skip_line(&mut input)?;
                    Some(invalid(format!("line of {n} bytes is longer than {MAX_LINE}")))
                }
                Line::Text(bytes) => respond(&bytes),
            }
        };
        let Some(response) = response else { continue };
        line.clear();
        response.write_line(&mut line);
        line.push(b'\n');
        out.write_all(&line)?;
        // Never block on input before flushing: look only at what is buffered.
        if !input.buffer().contains(&b'\n') {
            out.flush()?;
        }
    }
    out.flush()
}
