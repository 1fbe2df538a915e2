//! Reading `\n`-terminated lines with a length cap: the one line reader of
//! `serve` (requests) and of the harness (a target's answers), so that
//! neither holds a runaway line in memory.

use std::io::{self, BufRead};

/// The longest line read. The largest legitimate line, a 100,000-element
/// order, is under 1 MiB.
pub const MAX_LINE: usize = 16 << 20;

/// How much of an over-long line is kept for a report.
const PREFIX: usize = 200;

/// One line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line without its newline (a last line may lack one).
    Text(Vec<u8>),
    /// The line passed `max` bytes after `read` of them; its first bytes are
    /// kept. The rest of the line is still unread: [`skip_line`] drops it.
    TooLong {
        read: usize,
        prefix: Vec<u8>,
    },
    Eof,
}

/// Reads one line of at most `max` bytes (without the newline).
pub(crate) fn read_line<R: BufRead>(input: &mut R, max: usize) -> io::Result<Line> {
    let mut buf = Vec::new();
    let mut saw_any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if saw_any { Line::Text(buf) } else { Line::Eof });
        }
        saw_any = true;
        let (part, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if buf.len() + part.len() > max {
            let read = buf.len() + part.len();
            buf.extend_from_slice(&part[..PREFIX.saturating_sub(buf.len()).min(part.len())]);
            buf.truncate(PREFIX);
            let n = part.len();
            input.consume(n);
            return Ok(Line::TooLong { read, prefix: buf });
        }
        buf.extend_from_slice(part);
        let n = done.unwrap_or(part.len());
        input.consume(n);
        if done.is_some() {
            return Ok(Line::Text(buf));
        }
    }
}

/// Drops the rest of a line, newline included; returns how many bytes it had.
pub(crate) fn skip_line<R: BufRead>(input: &mut R) -> io::Result<usize> {
    let mut skipped = 0;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(skipped);
        }
        match memchr::memchr(b'\n', chunk) {
            Some(i) => {
                input.consume(i + 1);
                return Ok(skipped + i);
            }
            None => {
                let n = chunk.len();
                skipped += n;
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_cap_is_reported_with_its_prefix_and_skipped_to_its_end() {
        let text = format!("{}\nnext\n", "x".repeat(1000));
        let mut input = io::BufReader::with_capacity(64, text.as_bytes());
        let Line::TooLong { read, prefix } = read_line(&mut input, 300).unwrap() else {
            panic!("not too long");
        };
        assert!(read > 300 && prefix.len() == PREFIX);
        assert_eq!(read + skip_line(&mut input).unwrap(), 1000);
        assert_eq!(read_line(&mut input, 300).unwrap(), Line::Text(b"next".to_vec()));
        assert_eq!(read_line(&mut input, 300).unwrap(), Line::Eof);
    }

    #[test]
    fn a_last_line_without_newline_is_still_a_line() {
        let mut input = io::BufReader::new(&b"a\nb"[..]);
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text(b"a".to_vec()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text(b"b".to_vec()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Eof);
    }
}
