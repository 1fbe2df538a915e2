//! Standard output for the commands that print a listing (`diff`, `audit`,
//! `verify`, `proof`): once the reader goes away (`| head`), writing stops,
//! quietly, and nothing else changes. The run goes on to its end, its
//! report files are still written and its exit status still says what it
//! found: a closed stdout must not turn a mismatch into success, nor an
//! error into a panic.

use std::io::{self, Write};

use anyhow::Context;

#[derive(Debug, Default)]
pub struct Out {
    closed: bool,
}

impl Out {
    /// Writes `text` and flushes it.
    pub fn print(&mut self, text: &str) -> anyhow::Result<()> {
        self.write_all(text.as_bytes())
            .and_then(|()| self.flush())
            .context("writing to stdout")
    }

    /// Runs a write on stdout unless it is closed; a closed stdout (EPIPE)
    /// marks it closed and counts as written.
    fn unless_closed<T>(&mut self, done: T, f: impl FnOnce(&mut io::StdoutLock) -> io::Result<T>) -> io::Result<T> {
        if self.closed {
            return Ok(done);
        }
        match f(&mut io::stdout().lock()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            other => other,
        }
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.unless_closed(buf.len(), |s| s.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.unless_closed((), |s| s.flush())
    }
}
