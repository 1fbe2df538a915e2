//! Telling a proof document from JSON lines by its first bytes.

use std::io::{self, Read};

use crate::base::json::is_space;

/// How a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// `{"proof": 1, …}`: one document.
    Document,
    /// One epoch object per line.
    Lines,
}

const MARK: &[u8] = b"\"proof\"";

/// The input again, the bytes looked at first included.
pub(crate) type Sniffed<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// The UTF-8 byte order mark some editors put first: not part of the text.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decides the format from the first bytes (`{`, optional white space,
/// `"proof"` makes a document) and returns a reader that still yields them,
/// but for a UTF-8 byte order mark in front, which is dropped. Each byte is
/// looked at once, so white space before the document (legal JSON, and
/// kept for the line numbers) costs its length, not its square.
pub(crate) fn sniff<R: Read>(mut input: R) -> io::Result<(Format, Sniffed<R>)> {
    let mut prefix = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    let mut at = Sniffer::default();
    let format = loop {
        if let Some(f) = at.decide(&prefix) {
            break f;
        }
        let n = match input.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            break Format::Lines;
        }
        prefix.extend_from_slice(&chunk[..n]);
    };
    if prefix.starts_with(BOM) {
        prefix.drain(..BOM.len());
    }
    Ok((format, io::Cursor::new(prefix).chain(input)))
}

/// How far the first bytes have been read: the next byte to look at, and
/// whether the `{` was seen.
#[derive(Debug, Default)]
struct Sniffer {
    next: usize,
    brace: bool,
}

impl Sniffer {
    /// `None` while the bytes seen do not decide yet.
    fn decide(&mut self, prefix: &[u8]) -> Option<Format> {
        if BOM.starts_with(prefix) && prefix.len() < BOM.len() {
            return None;
        }
        let text = prefix.strip_prefix(BOM).unwrap_or(prefix);
        let skip = |from: usize| text[from..].iter().position(|&b| !is_space(b)).map(|i| from + i);
        if !self.brace {
            let Some(start) = skip(self.next) else {
                self.next = text.len();
                return None;
            };
            if text[start] != b'{' {
                return Some(Format::Lines);
            }
            (self.brace, self.next) = (true, start + 1);
        }
        let Some(key) = skip(self.next) else {
            self.next = text.len();
            return None;
        };
        self.next = key;
        let rest = &text[key..];
        if rest.len() < MARK.len() && MARK.starts_with(rest) {
            return None;
        }
        Some(if rest.starts_with(MARK) {
            Format::Document
        } else {
            Format::Lines
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_told_from_json_lines_by_its_first_key() {
        for (text, want) in [
            ("{\"proof\": 1}", Format::Document),
            ("  \n{ \n \"proof\":1}", Format::Document),
            ("{\"commit\": null, \"proof\": 1}", Format::Lines),
            ("{\"proofs\": 1}", Format::Lines),
            ("[1]", Format::Lines),
            ("", Format::Lines),
            ("{\"pro", Format::Lines),
        ] {
            let (got, mut rest) = sniff(text.as_bytes()).unwrap();
            assert_eq!(got, want, "{text:?}");
            let mut back = String::new();
            rest.read_to_string(&mut back).unwrap();
            assert_eq!(back, text, "the sniffed bytes are read again");
        }
    }
}
