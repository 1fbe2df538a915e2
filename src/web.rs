//! `provably web`: a static server for the verification page on localhost.
//!
//! URL layout: `/js/…` is `reference/js/…` (the same modules the node target
//! runs), `/vectors/…` is `vectors/…`, everything else is `web/…`. The page
//! requests nothing else, and the Content-Security-Policy header (repeated
//! in the page's own meta tag) forbids it to.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// The page's Content-Security-Policy: its own files, nothing else.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Maps a request path onto a file under `root`, or `None` if it names no
/// servable file (including any attempt to climb out with `..`).
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let path = url_path.split(['?', '#']).next().unwrap_or("");
    let (base, rest) = if let Some(rest) = path.strip_prefix("/js/") {
        (root.join("reference/js"), rest)
    } else if let Some(rest) = path.strip_prefix("/vectors/") {
        (root.join("vectors"), rest)
    } else {
        let rest = path.trim_start_matches('/');
        (root.join("web"), if rest.is_empty() { "index.html" } else { rest })
    };
    let rel = Path::new(rest);
    if rest.is_empty() || !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let full = base.join(rel);
    full.is_file().then_some(full)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("mjs" | "js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

fn respond(stream: &mut TcpStream, status: &str, ctype: &str, body: &[u8], head_only: bool) -> io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nContent-Security-Policy: {CSP}\r\n\
         X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if !head_only {
        stream.write_all(body)?;
    }
    stream.flush()
}

fn handle(root: &Path, mut stream: TcpStream) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.by_ref().take(8192).read_line(&mut request_line)?;
    // Drain the headers; the server needs none of them.
    let mut header = String::new();
    while reader.by_ref().take(8192).read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"only GET\n",
            false,
        );
    }
    match resolve(root, path) {
        Some(file) => match std::fs::read(&file) {
            Ok(body) => respond(&mut stream, "200 OK", content_type(&file), &body, method == "HEAD"),
            Err(_) => respond(
                &mut stream,
                "500 Internal Server Error",
                "text/plain",
                b"unreadable\n",
                false,
            ),
        },
        None => respond(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            method == "HEAD",
        ),
    }
}

/// Serves `root` on 127.0.0.1:`port` until the process ends; calls
/// `on_listen` with the page's URL once the socket is bound.
pub fn serve(root: &Path, port: u16, on_listen: &mut dyn FnMut(&str)) -> io::Result<()> {
    if !root.join("web/index.html").is_file() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "{} has no web/index.html; pass --root with the repository root",
                root.display()
            ),
        ));
    }
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    on_listen(&format!("http://{}/", listener.local_addr()?));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let root = root.to_path_buf();
        std::thread::spawn(move || {
            let _ = handle(&root, stream);
        });
    }
    Ok(())
}
