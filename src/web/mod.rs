//! `provably web`: the verification page on 127.0.0.1.
//!
//! URL layout: `/js/…` is `reference/js/…` (the same modules the node target
//! runs; only those the page and its worker load), `/vectors/…` is
//! `vectors/…` (only `selftest.json`), everything else is `web/…`, and `/` is
//! `web/index.html`. The page requests nothing else, and the
//! Content-Security-Policy header (repeated in the page's own meta tag)
//! forbids it to. Every response, refusals included, carries
//! [`SECURITY_HEADERS`].
//!
//! The files are built into the binary (`files`), so a copied `provably`
//! serves its own page from any directory; `--root DIR` serves a checkout
//! from disk instead, for working on the page.
//!
//! # Why hyper on tokio
//!
//! HTTP is hyper 1 (`http1` + `server` only) on a two-worker tokio runtime.
//! A slow client then costs a parked task and a socket, a few KiB, not a
//! thread, so 2,000 of them fit; one timer can bound a whole request rather
//! than each read; and hyper streams bodies if the page ever needs it.
//! tiny_http runs a thread per connection (its pool grows without limit),
//! has no whole-request deadline and no head-size limit, so it would need all
//! of this around it anyway. axum would add a router, tower and their crates
//! for three path prefixes. hyper's own refusals are bare status lines and it
//! answers an empty request with silence, so the request head is read and
//! judged first by `gate`, which hands hyper only heads it will accept.
//!
//! # Bounds
//!
//! - Connections: at most [`Limits::max_connections`] (4,096, and at most what
//!   the open-file limit allows after raising it to the hard limit). When all
//!   are taken, a newcomer displaces the connection that has waited longest
//!   for its head, once that one has waited `slots::EVICT_AFTER` (`slots`);
//!   until then, or if none is waiting, it waits in the listen backlog
//!   (`BACKLOG`).
//! - Time: the head must be complete [`Limits::head_timeout`] (10 s) after
//!   accept, however the bytes trickle in (408); hyper then has
//!   [`Limits::response_timeout`] (30 s) to answer.
//! - Size: request line 8 KiB (414), head 16 KiB or 100 fields (431). One
//!   request per connection (`Connection: close`), so every request passes
//!   the gate; a browser on localhost does not miss keep-alive.
//! - Files: no path leaves its tree. Paths are percent-decoded once and then
//!   checked (`%2e%2e` is `..`: 400). With `--root`, the file a path finally
//!   names, symlinks resolved, must lie inside the tree's directory.
//!
//! What was tried against the server, and what it does: docs/reliability.md.

mod files;
mod gate;
mod slots;

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{HeaderName, HeaderValue, ALLOW as ALLOW_HEADER, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::time::Instant;

pub use files::{content_type, embedded_urls, route, BadPath, Checkout, Source, Tree, NODE_ONLY, PAGE_VECTORS};
pub use gate::{MAX_HEAD, MAX_HEADERS, MAX_REQUEST_LINE};

use gate::{Head, Refusal};
use slots::{Slot, Slots};

/// The page's Content-Security-Policy: its own files, nothing else.
pub(crate) const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The methods the server answers, as sent in `Allow`.
pub(crate) const ALLOW: &str = "GET, HEAD";

/// Sent with every response: the CSP, no MIME sniffing, no referrer, no caching
/// (a verifier must never run yesterday's code).
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cache-control", "no-store"),
];

/// Connections the kernel queues before accept. When 2,000 slow clients are
/// cut at once and reconnect together, tokio's default of 1,024 overflows,
/// and a browser's connection then waits a second for its SYN to be resent.
/// Linux caps it at `net.core.somaxconn` (4,096 by default since 5.4).
const BACKLOG: u32 = 4096;

/// Descriptors kept free for everything but client sockets.
const FD_RESERVE: u64 = 64;

/// How much the server holds and for how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Connections held at once.
    pub max_connections: usize,
    /// From accept to the end of the request head.
    pub head_timeout: Duration,
    /// From the end of the head to the last byte of the response.
    pub response_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 4096,
            head_timeout: Duration::from_secs(10),
            response_timeout: Duration::from_secs(30),
        }
    }
}

/// Why the server did not start. The cause, if any, is the error's
/// `source()` (the binary prints the chain).
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// Occurs when the `--root` path cannot be resolved (it does not exist, or is not readable).
    #[error("cannot open --root {}", path.display())]
    Root {
        /// The folder given.
        path: PathBuf,
        /// Why the OS refused.
        source: io::Error,
    },
    /// Occurs when the `--root` folder has no `web/index.html`.
    #[error("--root {} is not a checkout of provably: it has no web/index.html", path.display())]
    NotACheckout {
        /// The folder given.
        path: PathBuf,
    },
    /// Occurs when the port cannot be bound on 127.0.0.1 (taken, or not allowed).
    #[error("cannot listen on 127.0.0.1:{port}")]
    Bind {
        /// The port asked for.
        port: u16,
        /// Why the OS refused.
        source: io::Error,
    },
    /// Occurs when the tokio runtime cannot be built.
    #[error("cannot start the async runtime")]
    Runtime(#[source] io::Error),
}

/// Serves the page (embedded, or the checkout at `root`) on
/// 127.0.0.1:`port` until the process ends, with the default [`Limits`];
/// calls `on_listen` with the page's URL once the socket is bound.
pub fn serve(root: Option<&Path>, port: u16, on_listen: &mut dyn FnMut(&str)) -> Result<(), WebError> {
    serve_with(root, port, &Limits::default(), on_listen)
}

/// [`serve`] with explicit limits.
pub fn serve_with(
    root: Option<&Path>,
    port: u16,
    limits: &Limits,
    on_listen: &mut dyn FnMut(&str),
) -> Result<(), WebError> {
    let source = Arc::new(match root {
        Some(root) => Source::checkout(root)?,
        None => Source::Embedded,
    });
    let limits = Limits {
        max_connections: fit_fd_limit(limits.max_connections),
        ..limits.clone()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(4)
        .thread_name("provably-web")
        .enable_io()
        .enable_time()
        .build()
        .map_err(WebError::Runtime)?;
    runtime.block_on(async {
        let bind = |source| WebError::Bind { port, source };
        let listener = listen(port).map_err(bind)?;
        on_listen(&format!("http://{}/", listener.local_addr().map_err(bind)?));
        accept_loop(listener, source, limits).await
    })
}

/// Binds 127.0.0.1:`port` with a listen backlog of [`BACKLOG`].
fn listen(port: u16) -> io::Result<TcpListener> {
    let socket = TcpSocket::new_v4()?;
    // As std and tokio do on Unix: a restart can reuse a port in TIME_WAIT.
    socket.set_reuseaddr(true)?;
    socket.bind((Ipv4Addr::LOCALHOST, port).into())?;
    socket.listen(BACKLOG)
}

/// Raises the soft open-file limit as far as the cap needs (many systems
/// start at 1,024) and returns the cap that fits under the result.
fn fit_fd_limit(want: usize) -> usize {
    let want = u64::try_from(want.max(1)).expect("a connection cap fits in 64 bits");
    let soft = rlimit::increase_nofile_limit(want + FD_RESERVE).unwrap_or(1024);
    // At most `want`, which came from a usize.
    usize::try_from(want.min(soft.saturating_sub(FD_RESERVE)).max(1)).expect("at most the cap asked for")
}

async fn accept_loop(listener: TcpListener, source: Arc<Source>, limits: Limits) -> Result<(), WebError> {
    let slots = Slots::new(limits.max_connections);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of descriptors, or a connection reset before accept:
                // pause instead of spinning, and keep serving.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let slot = slots.admit().await;
        tokio::spawn(connection(stream, slot, Arc::clone(&source), limits.clone()));
    }
}

async fn connection(mut stream: TcpStream, mut slot: Slot, source: Arc<Source>, limits: Limits) {
    let deadline = Instant::now() + limits.head_timeout;
    let head = unless(gate::read_head(&mut stream, deadline), slot.evicted()).await;
    let head = head.filter(|_| slot.answering());
    match head {
        None => {
            // The slot already belongs to the newcomer; this socket is closed
            // outside the bound, within gate's one-second write limit.
            drop(slot);
            let refusal = Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many connections: this one had waited longest for its request",
            );
            gate::refuse(&mut stream, &refusal, false).await;
        }
        Some(Head::Gone) => {}
        Some(Head::Refused(refusal)) => gate::refuse(&mut stream, &refusal, true).await,
        Some(Head::Complete(bytes)) => {
            let io = TokioIo::new(gate::Rewind::new(bytes, stream));
            let service = service_fn(move |req| {
                let source = Arc::clone(&source);
                async move { Ok::<_, Infallible>(answer(source, req).await) }
            });
            // Boxed: a connection waiting for its head then costs a small
            // future, not the size of hyper's connection state.
            let served = Box::pin(
                http1::Builder::new()
                    .keep_alive(false)
                    // A client that shuts its sending side after the request still gets the answer.
                    .half_close(true)
                    // The gate already bounded the head; hyper must not refuse first.
                    .max_buf_size(4 * MAX_HEAD)
                    .header_read_timeout(None)
                    .serve_connection(io, service),
            );
            let _ = tokio::time::timeout(limits.response_timeout, served).await;
        }
    }
}

/// `work`'s output, or `None` if `interrupt` resolves first.
async fn unless<T>(work: impl Future<Output = T>, interrupt: impl Future<Output = ()>) -> Option<T> {
    let mut work = pin!(work);
    let mut interrupt = pin!(interrupt);
    std::future::poll_fn(|cx| {
        if let Poll::Ready(out) = work.as_mut().poll(cx) {
            return Poll::Ready(Some(out));
        }
        interrupt.as_mut().poll(cx).map(|()| None)
    })
    .await
}

/// The response to a head the gate let through.
async fn answer(source: Arc<Source>, req: Request<Incoming>) -> Response<Full<Bytes>> {
    // The gate refuses other methods before hyper; this keeps the service right on its own.
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut refused = plain(StatusCode::METHOD_NOT_ALLOWED, "this server answers GET and HEAD");
        refused
            .headers_mut()
            .insert(ALLOW_HEADER, HeaderValue::from_static(ALLOW));
        return refused;
    }
    let path = req.uri().path().to_string();
    let (tree, rel) = match route(&path) {
        Ok(found) => found,
        Err(bad) => return plain(StatusCode::BAD_REQUEST, &format!("{bad}: {path}")),
    };
    let found = match &*source {
        Source::Embedded => source.get(tree, &rel),
        Source::Checkout(_) => {
            let (source, rel) = (Arc::clone(&source), rel.clone());
            tokio::task::spawn_blocking(move || source.get(tree, &rel))
                .await
                .unwrap_or_else(|e| Err(io::Error::other(e)))
        }
    };
    match found {
        Ok(Some(body)) => response(StatusCode::OK, content_type(&rel), body),
        Ok(None) => plain(StatusCode::NOT_FOUND, &format!("the page has no file {path}")),
        Err(e) => plain(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("cannot read {}/{rel}: {e}", tree.dir()),
        ),
    }
}

fn plain(status: StatusCode, message: &str) -> Response<Full<Bytes>> {
    response(status, "text/plain; charset=utf-8", Bytes::from(format!("{message}\n")))
}

fn response(status: StatusCode, content_type: &'static str, body: Bytes) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    for (name, value) in SECURITY_HEADERS {
        headers.insert(HeaderName::from_static(name), HeaderValue::from_static(value));
    }
    response
}
