//! The request head, read and judged before hyper sees it.
//!
//! hyper answers a malformed or oversized head itself, with a bare status
//! line (no CSP, no `nosniff`), answers an empty request with nothing, and
//! bounds a slow head only while it has a timer. So each connection's head is
//! read here first: against one deadline counted from accept (not per read,
//! so a byte every few seconds does not extend it), within [`MAX_HEAD`]
//! bytes, parsed by httparse (hyper's own parser, with hyper's limit of
//! [`MAX_HEADERS`] fields), and checked for what hyper would still refuse
//! (its URI type) and what this server refuses (other methods, bodies). What
//! passes is replayed to hyper unchanged through [`Rewind`]; what fails is
//! answered here, with the same headers as every other response.
//!
//! Each byte is scanned once: the head is parsed when its request line
//! completes (to refuse garbage early) and when its blank line arrives, so a
//! client feeding one byte at a time costs linear work, not quadratic.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Buf, BufMut, Bytes};
use hyper::{StatusCode, Uri};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

use super::{ALLOW, SECURITY_HEADERS};

/// The request line plus header fields, blank line included.
pub const MAX_HEAD: usize = 16 * 1024;
/// The request line alone; longer is 414 URI Too Long.
pub const MAX_REQUEST_LINE: usize = 8 * 1024;
/// Header fields per request (hyper's default, so hyper never refuses first).
pub const MAX_HEADERS: usize = 100;
/// How long a refusal may take to write and to drain what the client still sends.
const LINGER: Duration = Duration::from_secs(1);
/// At most this much is read and discarded after a refusal.
const LINGER_BYTES: usize = 64 * 1024;

/// A request answered without reaching hyper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    /// Send `Allow: GET, HEAD` (405).
    pub(crate) allow: bool,
    /// The request was a HEAD: no body.
    pub(crate) head_only: bool,
}

impl Refusal {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
            allow: false,
            head_only: false,
        }
    }

    fn bad(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, message)
    }
}

/// The outcome of reading a head.
#[derive(Debug)]
pub(crate) enum Head {
    /// Everything read so far (the head, and any bytes after it) for hyper.
    Complete(Vec<u8>),
    Refused(Refusal),
    /// The socket failed; nobody to answer.
    Gone,
}

/// Reads one request head from `stream`, finishing by `deadline`.
pub(crate) async fn read_head(stream: &mut TcpStream, deadline: Instant) -> Head {
    let mut head = HeadBuf::default();
    loop {
        let room = MAX_HEAD.saturating_sub(head.buf.len());
        if room == 0 {
            return Head::Refused(Refusal::new(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                format!("the request head is longer than {MAX_HEAD} bytes"),
            ));
        }
        // Read straight into the head, which starts at 1 KiB: a waiting
        // connection costs its bytes so far, not a fixed read buffer.
        if head.buf.len() == head.buf.capacity() {
            head.buf.reserve(head.buf.len().max(1024).min(room));
        }
        let spare = (head.buf.capacity() - head.buf.len()).min(room);
        let mut into = (&mut head.buf).limit(spare);
        match tokio::time::timeout_at(deadline, stream.read_buf(&mut into)).await {
            Err(_) => {
                return Head::Refused(Refusal::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "the request head did not arrive in time",
                ))
            }
            Ok(Err(_)) => return Head::Gone,
            Ok(Ok(0)) if head.buf.iter().all(|b| matches!(b, b'\r' | b'\n')) => {
                return Head::Refused(Refusal::bad("empty request"))
            }
            Ok(Ok(0)) => return Head::Refused(Refusal::bad("the request ended inside its head")),
            Ok(Ok(_)) => {}
        }
        match head.judge_new_bytes() {
            Judgement::NeedMore => {}
            Judgement::Pass => return Head::Complete(head.buf),
            Judgement::Refuse(r) => return Head::Refused(r),
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Judgement {
    NeedMore,
    Pass,
    Refuse(Refusal),
}

/// The bytes of a head so far, and how far they have been scanned.
#[derive(Debug, Default)]
struct HeadBuf {
    buf: Vec<u8>,
    /// The first byte after the empty lines a request may start with (RFC 9112 §2.2).
    start: usize,
    /// Bytes already searched for a line end.
    scanned: usize,
    line_done: bool,
}

impl HeadBuf {
    #[cfg(test)]
    fn push(&mut self, bytes: &[u8]) -> Judgement {
        self.buf.extend_from_slice(bytes);
        self.judge_new_bytes()
    }

    /// Judges the head after bytes were appended to `buf`.
    fn judge_new_bytes(&mut self) -> Judgement {
        if !self.line_done {
            while self.buf.get(self.start).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
                self.start += 1;
            }
            self.scanned = self.scanned.max(self.start);
        }
        let from = self.scanned.saturating_sub(2).max(self.start);
        self.scanned = self.buf.len();
        if !self.line_done {
            let Some(end) = find(&self.buf[from..], b"\n").map(|i| from + i) else {
                return if self.buf.len() - self.start > MAX_REQUEST_LINE {
                    Judgement::Refuse(uri_too_long())
                } else {
                    Judgement::NeedMore
                };
            };
            if end - self.start > MAX_REQUEST_LINE {
                return Judgement::Refuse(uri_too_long());
            }
            self.line_done = true;
            // The request line alone shows garbage without waiting for a blank line.
            return match judge(&self.buf) {
                Judgement::NeedMore if self.has_blank_line(end) => Judgement::Refuse(Refusal::bad("malformed head")),
                j => j,
            };
        }
        if self.has_blank_line(from) {
            return match judge(&self.buf) {
                Judgement::NeedMore => Judgement::Refuse(Refusal::bad("malformed head")),
                j => j,
            };
        }
        Judgement::NeedMore
    }

    /// Whether a line end followed by an empty line occurs at or after `from`.
    fn has_blank_line(&self, from: usize) -> bool {
        let tail = &self.buf[from..];
        find(tail, b"\n\r\n").is_some() || find(tail, b"\n\n").is_some()
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn uri_too_long() -> Refusal {
    Refusal::new(
        StatusCode::URI_TOO_LONG,
        format!("the request line is longer than {MAX_REQUEST_LINE} bytes"),
    )
}

/// Parses the whole buffer and checks a complete head.
fn judge(buf: &[u8]) -> Judgement {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut fields);
    match req.parse(buf) {
        Ok(httparse::Status::Partial) => Judgement::NeedMore,
        Ok(httparse::Status::Complete(_)) => match check(&req) {
            Ok(()) => Judgement::Pass,
            Err(r) => Judgement::Refuse(r),
        },
        Err(httparse::Error::TooManyHeaders) => Judgement::Refuse(Refusal::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("more than {MAX_HEADERS} header fields"),
        )),
        Err(e) => Judgement::Refuse(Refusal::bad(format!("malformed head: {e}"))),
    }
}

/// What hyper would refuse after httparse, and what this server refuses.
fn check(req: &httparse::Request) -> Result<(), Refusal> {
    let (Some(method), Some(target)) = (req.method, req.path) else {
        return Err(Refusal::bad("malformed head"));
    };
    let head_only = method == "HEAD";
    let no = |r: Refusal| Err(Refusal { head_only, ..r });
    let uri: Uri = match target.parse() {
        Ok(uri) => uri,
        Err(e) => return no(Refusal::bad(format!("the request target is not a URI: {e}"))),
    };
    if method != "GET" && method != "HEAD" {
        return no(Refusal {
            allow: true,
            ..Refusal::new(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{method} is not allowed; this server answers GET and HEAD"),
            )
        });
    }
    // Origin form (`/path`), or absolute form (`http://host/path`) as RFC 9112 §3.2.2 asks servers to accept.
    let absolute = uri.scheme_str() == Some("http") && uri.authority().is_some();
    if !target.starts_with('/') && !absolute {
        return no(Refusal::bad("the request target must be a path"));
    }
    for field in req.headers.iter() {
        let name = field.name;
        let has_body = name.eq_ignore_ascii_case("transfer-encoding")
            || (name.eq_ignore_ascii_case("content-length") && field.value.trim_ascii() != b"0");
        if has_body {
            return no(Refusal::bad(format!("a {method} request has no body ({name})")));
        }
    }
    Ok(())
}

/// Writes `refusal` and closes the sending side. With `linger`, it then
/// reads what the client still sends, for a moment, so that closing with
/// unread input (which makes the kernel reset the connection) does not
/// destroy the answer.
pub(crate) async fn refuse(stream: &mut TcpStream, refusal: &Refusal, linger: bool) {
    let body = format!("{}\n", refusal.message);
    let mut out = format!(
        "HTTP/1.1 {} {}\r\n",
        refusal.status.as_u16(),
        refusal.status.canonical_reason().unwrap_or("")
    );
    let mut field = |name: &str, value: &str| out.push_str(&format!("{name}: {value}\r\n"));
    field("content-type", "text/plain; charset=utf-8");
    field("content-length", &body.len().to_string());
    for (name, value) in SECURITY_HEADERS {
        field(name, value);
    }
    if refusal.allow {
        field("allow", ALLOW);
    }
    field("connection", "close");
    out.push_str("\r\n");
    if !refusal.head_only {
        out.push_str(&body);
    }
    let _ = tokio::time::timeout(LINGER, async {
        stream.write_all(out.as_bytes()).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        let mut drained = 0;
        while linger && drained < LINGER_BYTES {
            match stream.read(&mut sink).await? {
                0 => break,
                n => drained += n,
            }
        }
        io::Result::Ok(())
    })
    .await;
}

/// A socket whose first reads return bytes already read from it.
#[derive(Debug)]
pub(crate) struct Rewind {
    prefix: Bytes,
    inner: TcpStream,
}

impl Rewind {
    pub fn new(prefix: Vec<u8>, inner: TcpStream) -> Rewind {
        Rewind {
            prefix: Bytes::from(prefix),
            inner,
        }
    }
}

impl AsyncRead for Rewind {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.prefix.has_remaining() {
            let n = this.prefix.len().min(buf.remaining());
            buf.put_slice(&this.prefix[..n]);
            this.prefix.advance(n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Rewind {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(chunks: &[&[u8]]) -> Judgement {
        let mut head = HeadBuf::default();
        for c in chunks {
            match head.push(c) {
                Judgement::NeedMore => {}
                j => return j,
            }
        }
        Judgement::NeedMore
    }

    fn status(j: Judgement) -> Option<u16> {
        match j {
            Judgement::Refuse(r) => Some(r.status.as_u16()),
            _ => None,
        }
    }

    #[test]
    fn a_head_fed_one_byte_at_a_time_passes_exactly_at_its_blank_line() {
        let head = b"\r\nGET /x HTTP/1.1\r\nHost: a\r\n\r\n";
        let mut buf = HeadBuf::default();
        for (i, b) in head.iter().enumerate() {
            let j = buf.push(std::slice::from_ref(b));
            assert_eq!(j == Judgement::Pass, i == head.len() - 1, "byte {i}: {j:?}");
        }
    }

    #[test]
    fn the_blank_line_may_be_split_across_reads_or_bare_lf() {
        assert_eq!(feed(&[b"GET / HTTP/1.1\r\nA: b\r", b"\n\r", b"\n"]), Judgement::Pass);
        assert_eq!(feed(&[b"GET / HTTP/1.1\n\n"]), Judgement::Pass);
        assert_eq!(feed(&[b"GET / HTTP/1.1\r\n", b"\r\n"]), Judgement::Pass);
    }

    #[test]
    fn garbage_is_refused_as_soon_as_its_first_line_ends() {
        assert_eq!(status(feed(&[b"hello\r\n"])), Some(400));
        assert_eq!(status(feed(&[b"GET / HTTP/9.9\r\n"])), Some(400));
        assert_eq!(status(feed(&[b"GET /\xff\xfe HTTP/1.1\r\n"])), Some(400));
    }

    #[test]
    fn refusals_name_their_status() {
        assert_eq!(status(feed(&[b"POST / HTTP/1.1\r\n\r\n"])), Some(405));
        // httparse takes `<`; hyper's URI type would not, and hyper would refuse with a bare 400.
        assert_eq!(status(feed(&[b"GET /a<b HTTP/1.1\r\n\r\n"])), Some(400));
        // UTF-8 is a path like any other (it names no file: 404 later).
        assert_eq!(feed(&[b"GET /\xc3\xa4 HTTP/1.1\r\n\r\n"]), Judgement::Pass);
        assert_eq!(status(feed(&[b"GET * HTTP/1.1\r\n\r\n"])), Some(400));
        assert_eq!(
            status(feed(&[b"GET / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"])),
            Some(400)
        );
        assert_eq!(
            status(feed(&[b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"])),
            Some(400)
        );
        assert_eq!(feed(&[b"GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"]), Judgement::Pass);
        let long = format!("GET /{} HTTP/1.1\r\n", "a".repeat(MAX_REQUEST_LINE));
        assert_eq!(status(feed(&[long.as_bytes()])), Some(414));
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "A: b\r\n".repeat(MAX_HEADERS + 1));
        assert_eq!(status(feed(&[many.as_bytes()])), Some(431));
    }
}
