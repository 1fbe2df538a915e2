//! The reader's input in buffers it shares with the workers: a round that
//! lies whole in the buffer being read goes to a worker as a range of that
//! buffer ([`Text`]), not as a copy. An indented document is mostly white
//! space, and a copy of each round's text was a second pass over all of it
//! on the reader's one thread.
//!
//! Memory stays bounded: a buffer is read into again once no range of it
//! is held (the ordered map holds a window of batches), so the buffers in
//! use are about as many as the batches in flight, whatever the input's
//! length; the input itself is read a buffer at a time, as before.

use std::io::{self, BufRead, Read};
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A range of a shared buffer: one value's text (a round, an epoch).
#[derive(Debug, Clone)]
pub(crate) struct Text {
    buf: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl Deref for Text {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.buf[self.range.clone()]
    }
}

impl From<Vec<u8>> for Text {
    fn from(v: Vec<u8>) -> Text {
        let range = 0..v.len();
        Text {
            buf: Arc::new(v),
            range,
        }
    }
}

/// A reader's bytes, a buffer of `size` at a time, each buffer shareable
/// by range ([`Chunks::share`]).
pub(crate) struct Chunks<R> {
    inner: R,
    /// The buffer being read; `buf[pos..end]` is not consumed yet.
    buf: Arc<Vec<u8>>,
    pos: usize,
    end: usize,
    size: usize,
    /// Buffers read before, to be read into again once nothing holds them.
    spare: Vec<Arc<Vec<u8>>>,
}

/// The buffers kept for reuse: past the batches in flight, a buffer held
/// longer (an epoch's rounds waiting for its secret) is let go.
const SPARE: usize = 32;

/// How much is read at a time: at least a `BufReader`'s buffer in the
/// binary (1 MiB), whose `read` then reads straight into this one.
pub(crate) const CHUNK: usize = 1 << 20;

impl<R: Read> Chunks<R> {
    pub(crate) fn new(inner: R) -> Chunks<R> {
        Self::with_size(inner, CHUNK)
    }

    pub(crate) fn with_size(inner: R, size: usize) -> Chunks<R> {
        Chunks {
            inner,
            buf: Arc::new(Vec::new()),
            pos: 0,
            end: 0,
            size: size.max(1),
            spare: Vec::new(),
        }
    }

    /// A buffer nothing else holds, to read into.
    fn free_buffer(&mut self) -> Arc<Vec<u8>> {
        if let Some(i) = self.spare.iter().position(|b| Arc::strong_count(b) == 1) {
            return self.spare.swap_remove(i);
        }
        Arc::new(vec![0; self.size])
    }
}

impl Chunks<io::Empty> {
    /// A text already read (an epoch cut out whole, a JSON line): its
    /// values are shared ranges of the same buffer.
    pub(crate) fn whole(text: Text) -> Chunks<io::Empty> {
        let Range { start, end } = text.range;
        Chunks {
            inner: io::empty(),
            buf: text.buf,
            pos: start,
            end,
            size: 1,
            spare: Vec::new(),
        }
    }
}

impl<R> Chunks<R> {
    /// The next `len` bytes of what [`BufRead::fill_buf`] returned, as a
    /// shared range (not consumed).
    pub(crate) fn share(&self, len: usize) -> Text {
        debug_assert!(self.pos + len <= self.end);
        Text {
            buf: Arc::clone(&self.buf),
            range: self.pos..self.pos + len,
        }
    }
}

impl<R: Read> Read for Chunks<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Chunks<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.end {
            // The buffer read is kept if nothing holds it; otherwise it
            // waits among the spares, and another one is read into.
            if Arc::get_mut(&mut self.buf).is_none_or(|b| b.len() != self.size) {
                let next = self.free_buffer();
                let last = std::mem::replace(&mut self.buf, next);
                if self.spare.len() < SPARE && last.len() == self.size {
                    self.spare.push(last);
                }
            }
            let buf = Arc::get_mut(&mut self.buf).expect("a buffer nothing else holds");
            let n = loop {
                match self.inner.read(buf) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    r => break r?,
                }
            };
            (self.pos, self.end) = (0, n);
        }
        Ok(&self.buf[self.pos..self.end])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_is_read_into_again_only_once_no_range_of_it_is_held() {
        let text: Vec<u8> = (0..=255).collect();
        let mut c = Chunks::with_size(&text[..], 16);
        let first = {
            c.fill_buf().unwrap();
            c.share(4)
        };
        c.consume(16);
        assert_eq!(c.fill_buf().unwrap(), &text[16..32]);
        // The first buffer is held: the second read went elsewhere.
        assert_eq!(&*first, &text[..4]);
        c.consume(16);
        drop(first);
        let mut rest = Vec::new();
        c.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, &text[32..]);
        assert!(c.spare.len() <= 2, "{} spares", c.spare.len());
    }
}
