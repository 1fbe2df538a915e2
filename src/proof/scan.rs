//! A structural scanner for proof text: it walks the objects and lists of
//! the document and its epochs, and cuts out each value's text without
//! parsing it. Small values (a commitment, a seed) are then parsed by
//! serde; a round's text goes to a worker, which parses and checks it.
//!
//! Why not serde all the way: serde's reader over an `io::Read` takes the
//! input a byte at a time, and a document's reader would do all of that
//! alone while the workers wait. Here a round is cut out by counting its
//! brackets outside strings, 64 bytes at a time ([`Walk`]), and nothing
//! is built but the round's range of the input's buffer
//! ([`Scanner::text`]).
//!
//! What is checked where: the scanner holds the structure it walks to JSON
//! (braces, brackets, colons, commas, strings closed, nothing after the
//! end); a value it only cuts out is held to JSON by serde when it is
//! parsed. A syntax error inside a round is therefore that round's error
//! (and the document's verdict invalid either way).

use std::io::{self, BufRead, Read};

use super::chunks::{Chunks, Text};
use crate::base::json::{is_space, Walk};

/// Why scanning stopped.
#[derive(Debug)]
pub(crate) enum ScanError {
    Io(io::Error),
    /// Not JSON, at this line of the text (counting from 1).
    Syntax {
        line: u64,
        message: String,
    },
    /// A single value (a round, a seed, a skipped field) passed the cap of
    /// `limit` bytes; it started at this line.
    TooLarge {
        line: u64,
        limit: usize,
    },
}

impl From<io::Error> for ScanError {
    fn from(e: io::Error) -> Self {
        ScanError::Io(e)
    }
}

pub(crate) struct Scanner<R> {
    input: R,
    line: u64,
    /// Bytes consumed so far.
    consumed: u64,
    /// The longest value [`Scanner::value`] cuts out or skips, in bytes.
    max_value: usize,
}

/// Where a value's bytes go: kept (`out`) or only counted (a skipped
/// value), never more than `max` of them.
struct Cut<'a> {
    out: Option<&'a mut Vec<u8>>,
    len: usize,
    max: usize,
    /// The line the value starts at, for the error.
    line: u64,
}

impl Cut<'_> {
    /// Takes `bytes`, or fails once the value would pass the cap: nothing
    /// past it is kept, so a runaway value never fills memory.
    fn push(&mut self, bytes: &[u8]) -> Result<(), ScanError> {
        self.len = self.len.saturating_add(bytes.len());
        if self.len > self.max {
            return Err(ScanError::TooLarge {
                line: self.line,
                limit: self.max,
            });
        }
        if let Some(out) = self.out.as_deref_mut() {
            out.extend_from_slice(bytes);
        }
        Ok(())
    }
}

fn shown(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte {b:#04x}")
    }
}

impl<R: BufRead> Scanner<R> {
    /// A scanner whose values are not capped.
    #[cfg(test)]
    pub(crate) fn new(input: R) -> Self {
        Self::starting_at(input, 1, usize::MAX)
    }

    /// A scanner over a text that begins at line `line`, refusing any
    /// single value longer than `max_value` bytes.
    pub(crate) fn starting_at(input: R, line: u64, max_value: usize) -> Self {
        Scanner {
            input,
            line,
            consumed: 0,
            max_value,
        }
    }

    /// The line the scanner is at.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// How many bytes have been consumed so far.
    pub(crate) fn consumed(&self) -> u64 {
        self.consumed
    }

    fn consume(&mut self, n: usize) {
        self.input.consume(n);
        self.consumed += n as u64;
    }

    /// How many bytes the input has buffered (after [`Scanner::peek`], the
    /// next value's first byte is among them).
    pub(crate) fn buffered(&mut self) -> Result<usize, ScanError> {
        Ok(self.input.fill_buf()?.len())
    }

    pub(crate) fn syntax(&self, message: impl Into<String>) -> ScanError {
        ScanError::Syntax {
            line: self.line,
            message: message.into(),
        }
    }

    /// Skips white space; the next byte, not consumed (`None` at the end).
    pub(crate) fn peek(&mut self) -> Result<Option<u8>, ScanError> {
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(None);
            }
            let found = buf.iter().position(|&b| !is_space(b));
            self.line += bytecount(&buf[..found.unwrap_or(buf.len())]);
            match found {
                Some(i) => {
                    let b = buf[i];
                    self.consume(i);
                    return Ok(Some(b));
                }
                None => {
                    let n = buf.len();
                    self.consume(n);
                }
            }
        }
    }

    fn bump(&mut self) {
        self.consume(1);
    }

    /// Consumes `want` (after white space) or fails naming `what` was expected.
    pub(crate) fn expect(&mut self, want: u8, what: &str) -> Result<(), ScanError> {
        match self.peek()? {
            Some(b) if b == want => {
                self.bump();
                Ok(())
            }
            Some(b) => Err(self.syntax(format!("expected {what}, found {}", shown(b)))),
            None => Err(self.syntax(format!("expected {what}, found the end of the text"))),
        }
    }

    /// After a member or an element: `true` for a comma (another follows),
    /// `false` for the closing `close`.
    pub(crate) fn more(&mut self, close: u8) -> Result<bool, ScanError> {
        match self.peek()? {
            Some(b',') => {
                self.bump();
                Ok(true)
            }
            Some(b) if b == close => {
                self.bump();
                Ok(false)
            }
            Some(b) => Err(self.syntax(format!("expected ',' or '{}', found {}", close as char, shown(b)))),
            None => Err(self.syntax(format!(
                "expected ',' or '{}', found the end of the text",
                close as char
            ))),
        }
    }

    /// At an opening `open`: consumes it; `true` if the container is empty
    /// (its `close` is consumed too).
    pub fn open(&mut self, open: u8, close: u8) -> Result<bool, ScanError> {
        self.expect(open, &format!("'{}'", open as char))?;
        if self.peek()? == Some(close) {
            self.bump();
            return Ok(true);
        }
        Ok(false)
    }

    /// An object key (decoded) and its colon.
    pub(crate) fn key(&mut self) -> Result<String, ScanError> {
        let mut raw = Vec::new();
        match self.peek()? {
            Some(b'"') => self.cut(Some(&mut raw))?,
            Some(b) => return Err(self.syntax(format!("expected a key (a string), found {}", shown(b)))),
            None => return Err(self.syntax("expected a key, found the end of the text")),
        }
        let key = match crate::base::json::plain_string(&raw) {
            Some(key) => key,
            None => serde_json::from_slice::<String>(&raw)
                .map_err(|e| self.syntax(format!("a key that is not a JSON string: {e}")))?,
        };
        self.expect(b':', "':'")?;
        Ok(key)
    }

    /// Appends the text of one value (after white space) to `out`.
    pub(crate) fn value(&mut self, out: &mut Vec<u8>) -> Result<(), ScanError> {
        self.cut(Some(out))
    }

    /// Skips one value, keeping none of it (but holding it to the same cap).
    pub(crate) fn skip(&mut self) -> Result<(), ScanError> {
        self.cut(None)
    }

    fn cut(&mut self, out: Option<&mut Vec<u8>>) -> Result<(), ScanError> {
        let first = self.peek()?;
        let mut cut = Cut {
            out,
            len: 0,
            max: self.max_value,
            line: self.line,
        };
        match first {
            None => Err(self.syntax("expected a value, found the end of the text")),
            Some(b'"') => self.string(&mut cut),
            Some(b'{' | b'[') => self.container(&mut cut),
            Some(b @ (b'}' | b']' | b',' | b':')) => Err(self.syntax(format!("expected a value, found {}", shown(b)))),
            Some(_) => self.scalar(&mut cut),
        }
    }

    /// A string literal, quotes and escapes included, as written.
    fn string(&mut self, out: &mut Cut) -> Result<(), ScanError> {
        out.push(b"\"")?;
        self.bump();
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Err(self.syntax("the text ends inside a string"));
            }
            match memchr::memchr2(b'"', b'\\', buf) {
                Some(i) => {
                    let quote = buf[i] == b'"';
                    out.push(&buf[..=i])?;
                    // A raw line break in a string is not JSON; serde says so when it parses it.
                    self.line += bytecount(&buf[..i]);
                    self.consume(i + 1);
                    if quote {
                        return Ok(());
                    }
                    let buf = self.input.fill_buf()?;
                    let Some(&escaped) = buf.first() else {
                        return Err(self.syntax("the text ends inside a string"));
                    };
                    out.push(&[escaped])?;
                    self.consume(1);
                }
                None => {
                    out.push(buf)?;
                    self.line += bytecount(buf);
                    let n = buf.len();
                    self.consume(n);
                }
            }
        }
    }

    /// An object or a list, as written: brackets counted outside strings
    /// ([`Walk`]), buffer by buffer.
    fn container(&mut self, out: &mut Cut) -> Result<(), ScanError> {
        let mut walk = Walk::default();
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Err(self.syntax("the text ends inside an object or a list"));
            }
            let end = walk.find_end(buf);
            let n = end.unwrap_or(buf.len());
            out.push(&buf[..n])?;
            self.line += bytecount(&buf[..n]);
            self.consume(n);
            if end.is_some() {
                return Ok(());
            }
        }
    }

    /// A number, `true`, `false` or `null`: everything up to a delimiter.
    fn scalar(&mut self, out: &mut Cut) -> Result<(), ScanError> {
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            let end = buf
                .iter()
                .position(|&b| is_space(b) || matches!(b, b',' | b']' | b'}' | b':' | b'"' | b'[' | b'{'));
            let n = end.unwrap_or(buf.len());
            out.push(&buf[..n])?;
            self.consume(n);
            if end.is_some() {
                return Ok(());
            }
        }
    }

    /// After the last value: only white space may follow.
    pub(crate) fn end(&mut self) -> Result<(), ScanError> {
        match self.peek()? {
            None => Ok(()),
            Some(b) => Err(self.syntax(format!("trailing characters after the end: {}", shown(b)))),
        }
    }
}

impl<R: Read> Scanner<Chunks<R>> {
    /// The next value, if it is an object that ends within the first `max`
    /// bytes the input has buffered already: its text, shared with the
    /// buffer, and consumed. `None`, with nothing consumed, otherwise
    /// (another value, a longer object, one that runs past the buffer). Its
    /// brackets are counted, nothing more: whoever reads the text holds it
    /// to JSON.
    pub(crate) fn buffered_object(&mut self, max: usize) -> Result<Option<Text>, ScanError> {
        if self.peek()? != Some(b'{') {
            return Ok(None);
        }
        Ok(self.buffered_container(max))
    }

    /// The text of one value (after white space): a range of the input's
    /// buffer when the value is a list or an object that lies whole in it
    /// (no copy), a copy otherwise ([`Scanner::value`]).
    pub(crate) fn text(&mut self) -> Result<Text, ScanError> {
        if matches!(self.peek()?, Some(b'{' | b'[')) {
            if let Some(text) = self.buffered_container(self.max_value) {
                return Ok(text);
            }
        }
        let mut out = Vec::new();
        self.value(&mut out)?;
        Ok(Text::from(out))
    }

    /// At a list or an object: its text if it ends within the first `max`
    /// bytes buffered, shared and consumed; `None`, nothing consumed,
    /// otherwise.
    fn buffered_container(&mut self, max: usize) -> Option<Text> {
        // After `peek`, the buffer holds the value's first byte: nothing is read here.
        let buf = self.input.fill_buf().ok()?;
        let n = Walk::default().find_end(&buf[..buf.len().min(max)])?;
        self.line += bytecount(&buf[..n]);
        let text = self.input.share(n);
        self.consume(n);
        Some(text)
    }
}

fn bytecount(buf: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', buf).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            (-1e9f64..1e9).prop_map(Value::from),
            "[ -~\\n\"\\\\\\[\\]{}é😀]{0,12}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
                prop::collection::vec(("[a-z\\]\"{]{0,4}", inner), 0..6)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The scanner cuts out exactly the values serde reads, compact or
        /// pretty, whatever their strings hold.
        #[test]
        fn cut_values_are_the_values_serde_reads(items in prop::collection::vec(json(), 0..8), pretty in any::<bool>()) {
            let text = if pretty {
                serde_json::to_string_pretty(&items).unwrap()
            } else {
                serde_json::to_string(&items).unwrap()
            };
            let cut = values(&text).unwrap();
            let back: Vec<Value> = cut.iter().map(|c| serde_json::from_str(c).unwrap()).collect();
            prop_assert_eq!(back, items);
        }
    }

    fn values(text: &str) -> Result<Vec<String>, String> {
        let mut sc = Scanner::new(io::BufReader::with_capacity(3, text.as_bytes()));
        let mut out = Vec::new();
        if sc.open(b'[', b']').map_err(|e| format!("{e:?}"))? {
            return Ok(out);
        }
        loop {
            let mut v = Vec::new();
            sc.value(&mut v).map_err(|e| format!("{e:?}"))?;
            out.push(String::from_utf8(v).unwrap());
            if !sc.more(b']').map_err(|e| format!("{e:?}"))? {
                break;
            }
        }
        sc.end().map_err(|e| format!("{e:?}"))?;
        Ok(out)
    }

    #[test]
    fn values_are_cut_out_as_written_across_buffer_boundaries() {
        let text = r#"[ {"a": "x]\"}", "b": [1, {"c": null}]}, "s\\", -1.5e3, true, [] ]"#;
        assert_eq!(
            values(text).unwrap(),
            [
                r#"{"a": "x]\"}", "b": [1, {"c": null}]}"#,
                r#""s\\""#,
                "-1.5e3",
                "true",
                "[]"
            ]
        );
        assert_eq!(values("[]").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn broken_structure_is_a_syntax_error_with_its_line() {
        for (text, line) in [
            ("[1,\n2,]", 2),
            ("[1 2]", 1),
            ("[\"abc", 1),
            ("[{\"a\": [1}\n", 2),
            ("[1]\n x", 2),
            ("[:", 1),
        ] {
            match values(text) {
                Err(e) => assert!(e.contains(&format!("line: {line}")), "{text:?}: {e}"),
                Ok(v) => panic!("{text:?} scanned as {v:?}"),
            }
        }
    }
}
