//! `provably serve`: this implementation as a protocol v1 target.

use std::io::{self, BufRead, BufReader, Read, Write};

use crate::error::InvalidInput;
use crate::protocol::{answer_line, Answer};

/// The longest request line served; a longer one is answered `invalid` and
/// skipped, so a runaway client cannot make the server hold it in memory.
pub const MAX_LINE: usize = 16 << 20;

/// One line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(Vec<u8>),
    TooLong(usize),
    Eof,
}

/// Reads one `\n`-terminated line of at most `max` bytes (without the newline).
/// A longer line is consumed to its end and reported by length.
pub fn read_line<R: BufRead>(input: &mut R, max: usize) -> io::Result<Line> {
    let mut buf = Vec::new();
    let mut total = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if !saw_any {
                Line::Eof
            } else if total > max {
                Line::TooLong(total)
            } else {
                Line::Text(buf)
            });
        }
        saw_any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        total += part.len();
        if total <= max {
            buf.extend_from_slice(part);
        } else {
            buf = Vec::new();
        }
        let consumed = done.unwrap_or(part.len());
        input.consume(consumed);
        if done.is_some() {
            return Ok(if total > max {
                Line::TooLong(total)
            } else {
                Line::Text(buf)
            });
        }
    }
}

fn invalid(field: &str, reason: String) -> Answer {
    Answer {
        id: None,
        result: Err(InvalidInput::new(field, reason).into()),
    }
}

/// Serves requests from `input` until it ends. Output is flushed whenever no
/// further request is already waiting, so a pipelining client is not slowed
/// by a flush per line and an interactive one never waits.
pub fn serve<R: Read, W: Write>(input: R, output: W) -> io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 16, input);
    let mut out = io::BufWriter::new(output);
    loop {
        let response = match read_line(&mut input, MAX_LINE)? {
            Line::Eof => break,
            Line::TooLong(n) => invalid("request", format!("line of {n} bytes is longer than {MAX_LINE}")),
            Line::Text(bytes) => {
                let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match std::str::from_utf8(bytes) {
                    Ok(text) => answer_line(text),
                    Err(e) => invalid("request", format!("not UTF-8: {e}")),
                }
            }
        };
        out.write_all(response.to_line().as_bytes())?;
        out.write_all(b"\n")?;
        // Never block on input before flushing: look only at what is buffered.
        if !input.buffer().contains(&b'\n') {
            out.flush()?;
        }
    }
    out.flush()
}
