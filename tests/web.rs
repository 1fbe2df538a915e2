//! `provably web` against real sockets on 127.0.0.1: what it serves, what it
//! refuses, and how it holds up against slow and oversized clients. Every
//! socket has a generous timeout and every loop a bound, so a regression
//! fails instead of hanging; nothing asserts on elapsed time.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use provably::web::{route, BadPath, Tree};

use crate::support::{bin, root};

/// Any single wait: a hang fails the test instead of stalling CI.
const GUARD: Duration = Duration::from_secs(30);

/// A running `provably web --port 0`, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::start_from(&bin(), root(), args)
    }

    /// Starts `binary` with `dir` as its working directory.
    fn start_from(binary: &Path, dir: &Path, args: &[&str]) -> Server {
        let mut child = crate::support::spawn_copied(
            Command::new(binary)
                .args(["web", "--port", "0"])
                .args(args)
                .current_dir(dir)
                .stdout(Stdio::piped())
                .stderr(Stdio::null()),
        );
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(GUARD).unwrap_or_default();
        let port = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|rest| rest.trim_end_matches('/').parse().ok());
        let Some(port) = port else {
            let _ = child.kill();
            panic!("provably web printed {line:?} instead of its URL");
        };
        Server { child, port }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        s.set_read_timeout(Some(GUARD)).unwrap();
        s.set_write_timeout(Some(GUARD)).unwrap();
        s
    }

    /// Sends `request` as is and reads the reply until the server closes.
    fn raw(&self, request: &[u8]) -> Reply {
        let mut s = self.connect();
        s.write_all(request).unwrap();
        read_reply(&mut s)
    }

    fn get(&self, path: &str) -> Reply {
        self.raw(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// Panics unless every security header is present with its value.
    fn assert_secured(&self, what: &str) {
        for (name, value) in provably::web::SECURITY_HEADERS {
            assert_eq!(
                self.header(name),
                Some(value),
                "{what}: {name} missing or wrong in {self:?}"
            );
        }
    }
}

fn read_reply(s: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    if let Err(e) = s.read_to_end(&mut raw) {
        // A reset after a complete answer still leaves the answer in `raw`.
        assert!(!raw.is_empty(), "no reply: {e}");
    }
    parse_reply(&raw)
}

fn parse_reply(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no complete response head in {:?}", String::from_utf8_lossy(raw)));
    let head = std::str::from_utf8(&raw[..split]).expect("the head is UTF-8");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    assert!(status_line.starts_with("HTTP/1.1 "), "{status_line}");
    let status = status_line[9..12].parse().unwrap();
    let headers = lines
        .map(|l| {
            let (n, v) = l.split_once(':').expect("a header field");
            (n.trim().to_ascii_lowercase(), v.trim().to_string())
        })
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

/// The page's files, found on disk independently of the server's rule:
/// (URL, file). Of `reference/js/`, the modules index.html preloads (the
/// browser test holds that list to what the page and its worker request);
/// of `vectors/`, the self-test's vectors.
fn page_files() -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    walk(&root().join("web"), "", &["test"], &mut |rel, path| {
        files.push((format!("/{rel}"), path.to_path_buf()));
    });
    let index = std::fs::read_to_string(root().join("web/index.html")).unwrap();
    for module in index.split("rel=\"modulepreload\" href=\"js/").skip(1) {
        let name = &module[..module.find('"').unwrap()];
        files.push((format!("/js/{name}"), root().join("reference/js").join(name)));
    }
    files.push(("/vectors/selftest.json".into(), root().join("vectors/selftest.json")));
    files.sort();
    files
}

fn walk(dir: &Path, rel: &str, skip: &[&str], found: &mut dyn FnMut(&str, &Path)) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let rel = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if name.starts_with('.') || skip.contains(&rel.as_str()) {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            walk(&entry.path(), &rel, skip, found);
        } else {
            found(&rel, &entry.path());
        }
    }
}

#[test]
fn the_binary_embeds_exactly_the_page_files_of_the_checkout() {
    let expected: Vec<String> = page_files().into_iter().map(|(url, _)| url).collect();
    assert!(
        expected.contains(&"/index.html".to_string()) && expected.len() > 10,
        "{expected:?}"
    );
    assert_eq!(provably::web::embedded_urls(), expected);
}

#[test]
fn files_the_page_never_loads_are_not_served() {
    // The node target, its server, the benchmarks and the other vectors are
    // on disk, and were served before; the page loads none of them.
    for path in [
        "/js/target.mjs",
        "/js/serve.mjs",
        "/js/bench/mixed-requests.mjs",
        "/js/bench/target-uncached.mjs",
        "/vectors/proofs.json",
        "/vectors/shoe.json",
    ] {
        assert!(
            root()
                .join(path.replacen("/js/", "reference/js/", 1).trim_start_matches('/'))
                .exists(),
            "{path} is on disk"
        );
        for server in [Server::start(&[]), Server::start(&["--root", root().to_str().unwrap()])] {
            assert_eq!(server.get(path).status, 404, "{path}");
        }
    }
    let served = Server::start(&[]);
    assert_eq!(served.get("/worker.mjs").status, 200, "the page's worker");
    assert_eq!(served.get("/js/proof.mjs").status, 200);
}

#[test]
fn many_readers_of_a_checkout_file_share_one_copy_of_it() {
    use provably::web::{Source, Tree};
    // 1,000 slow readers of a vectors file held 643 MB: one copy each.
    let source = Source::checkout(root()).unwrap();
    let a = source.get(Tree::Vectors, "selftest.json").unwrap().unwrap();
    let b = source.get(Tree::Vectors, "selftest.json").unwrap().unwrap();
    assert_eq!(a, b);
    assert_eq!(a.as_ptr(), b.as_ptr(), "each reader got its own copy of the file");
    // A changed file is read again.
    let (_tmp, checkout) = fake_checkout();
    let source = Source::checkout(&checkout).unwrap();
    let first = source.get(Tree::Web, "index.html").unwrap().unwrap();
    std::fs::write(checkout.join("web/index.html"), "<p>edited, longer</p>").unwrap();
    let second = source.get(Tree::Web, "index.html").unwrap().unwrap();
    assert_eq!(&first[..], b"<p>from disk</p>");
    assert_eq!(&second[..], b"<p>edited, longer</p>");
}

#[test]
fn a_copied_binary_serves_its_embedded_page_from_another_directory() {
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("provably");
    std::fs::copy(bin(), &copy).unwrap();
    let server = Server::start_from(&copy, elsewhere.path(), &[]);
    let index = server.get("/");
    assert_eq!(index.status, 200, "{}", index.text());
    assert_eq!(index.body, std::fs::read(root().join("web/index.html")).unwrap());
    for (url, file) in page_files() {
        let reply = server.get(&url);
        assert_eq!(reply.status, 200, "{url}: {}", reply.text());
        assert!(
            reply.body == std::fs::read(&file).unwrap(),
            "{url} differs from {}",
            file.display()
        );
        reply.assert_secured(&url);
    }
}

#[test]
fn content_type_follows_the_extension() {
    let server = Server::start(&[]);
    for (url, ctype) in [
        ("/", "text/html; charset=utf-8"),
        ("/app.mjs", "text/javascript; charset=utf-8"),
        ("/js/provably.mjs", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/vectors/selftest.json", "application/json"),
    ] {
        let reply = server.get(url);
        assert_eq!(
            (reply.status, reply.header("content-type")),
            (200, Some(ctype)),
            "{url}"
        );
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"), "{url}");
    }
}

#[test]
fn head_answers_with_the_length_and_no_body() {
    let server = Server::start(&[]);
    let reply = server.raw(b"HEAD /js/provably.mjs HTTP/1.1\r\nHost: x\r\n\r\n");
    let len = std::fs::metadata(root().join("reference/js/provably.mjs"))
        .unwrap()
        .len();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-length"), Some(len.to_string().as_str()));
    assert!(reply.body.is_empty(), "{}", reply.text());
    let missing = server.raw(b"HEAD /nope HTTP/1.1\r\n\r\n");
    assert_eq!(missing.status, 404);
    assert!(missing.body.is_empty(), "{}", missing.text());
}

#[test]
fn other_methods_get_405_with_allow() {
    let server = Server::start(&[]);
    for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "BREW"] {
        let reply = server.raw(format!("{method} / HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("allow"), Some("GET, HEAD"), "{method}");
        reply.assert_secured(method);
    }
    // A body that is never read does not stop the answer.
    let reply = server.raw(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello");
    assert_eq!((reply.status, reply.header("allow")), (405, Some("GET, HEAD")));
}

/// Sends `request`, shuts the sending side (the client has nothing more to
/// say), and reads the reply.
fn send_and_close(server: &Server, request: &[u8]) -> Reply {
    let mut s = server.connect();
    s.write_all(request).unwrap();
    s.shutdown(Shutdown::Write).unwrap();
    read_reply(&mut s)
}

#[test]
fn an_empty_or_garbage_request_gets_400() {
    let server = Server::start(&[]);
    for request in [
        &b""[..],
        b"\r\n",
        b"\r\n\r\n",
        b"\n\n\n",
        b"GET / HTTP/1.1",
        b"GET / HTTP/1.1\r\nHost: x\r\n",
    ] {
        let reply = send_and_close(&server, request);
        assert_eq!(reply.status, 400, "{request:?}: {}", reply.text());
        reply.assert_secured(&format!("{request:?}"));
    }
    for request in [
        &b"hello\r\n\r\n"[..],
        b"GET\r\n\r\n",
        b"GET / HTTP/2.0\r\n\r\n",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        b"GET / HTTP/1.1\r\nno colon here\r\n\r\n",
        b"GET / HTTP/1.1\r\n folded: line\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
        b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"GET * HTTP/1.1\r\n\r\n",
        b"GET /a<b HTTP/1.1\r\n\r\n",
    ] {
        let reply = server.raw(request);
        assert_eq!(
            reply.status,
            400,
            "{:?}: {}",
            String::from_utf8_lossy(request),
            reply.text()
        );
        reply.assert_secured(&format!("{request:?}"));
    }
}

#[test]
fn a_complete_request_followed_by_a_half_close_is_answered() {
    let server = Server::start(&[]);
    let reply = send_and_close(&server, b"GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, std::fs::read(root().join("web/style.css")).unwrap());
}

#[test]
fn a_path_that_is_not_utf8_or_holds_control_characters_gets_400() {
    let server = Server::start(&[]);
    for path in [
        &b"/\xff\xfe"[..],
        b"/%ff%fe",
        b"/js/%c3",
        b"/index.html%00",
        b"/%0a",
        b"/a%5c..%5cCargo.toml",
    ] {
        let mut request = b"GET ".to_vec();
        request.extend_from_slice(path);
        request.extend_from_slice(b" HTTP/1.1\r\nHost: x\r\n\r\n");
        let reply = server.raw(&request);
        assert_eq!(
            reply.status,
            400,
            "{:?}: {}",
            String::from_utf8_lossy(path),
            reply.text()
        );
        reply.assert_secured(&String::from_utf8_lossy(path));
    }
}

/// Paths that try to leave a tree, or reach what is not part of the page.
const ESCAPES: [&str; 14] = [
    "/../Cargo.toml",
    "/%2e%2e/Cargo.toml",
    "/%2E%2E/Cargo.toml",
    "/.%2e/Cargo.toml",
    "/js/%2e%2e/%2e%2e/Cargo.toml",
    "/js/..%2f..%2fCargo.toml",
    "/%2e%2e%2fCargo.toml",
    "/vectors/../src/lib.rs",
    "/vectors/%2e%2e/src/lib.rs",
    "//etc/passwd",
    "/js/test/cursor.test.mjs",
    "/js/testkit/oracle.py",
    "/test/browser.test.mjs",
    "/vectors/../docs/protocol.md",
];

#[test]
fn no_path_leaves_the_page_embedded_or_from_a_checkout() {
    let root_arg = root().to_str().unwrap();
    for server in [Server::start(&[]), Server::start(&["--root", root_arg])] {
        for path in ESCAPES {
            let reply = server.get(path);
            assert!(
                matches!(reply.status, 400 | 404),
                "{path}: {} {}",
                reply.status,
                reply.text()
            );
            assert!(
                !reply.text().contains("[package]") && reply.body.len() < 200,
                "{path}: {}",
                reply.text()
            );
            reply.assert_secured(path);
        }
        assert_eq!(server.get("/js/").status, 404);
        assert_eq!(server.get("/nope.html").status, 404);
        assert_eq!(server.get("/vectors/selftest.json?x=1#y").status, 200);
    }
}

/// A minimal checkout in a temporary directory, with a secret beside it.
fn fake_checkout() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let checkout = tmp.path().join("checkout");
    for dir in ["web", "reference/js", "vectors"] {
        std::fs::create_dir_all(checkout.join(dir)).unwrap();
    }
    std::fs::write(checkout.join("web/index.html"), "<p>from disk</p>").unwrap();
    std::fs::write(checkout.join("vectors/v.json"), "{}").unwrap();
    std::fs::write(checkout.join("vectors/selftest.json"), "{}").unwrap();
    std::fs::create_dir(tmp.path().join("outside")).unwrap();
    std::fs::write(tmp.path().join("outside/secret.json"), "SECRET").unwrap();
    (tmp, checkout)
}

#[test]
fn root_serves_a_checkout_from_disk_and_sees_edits_without_a_restart() {
    let (_tmp, checkout) = fake_checkout();
    let server = Server::start(&["--root", checkout.to_str().unwrap()]);
    assert_eq!(server.get("/").text(), "<p>from disk</p>");
    std::fs::write(checkout.join("web/index.html"), "<p>edited</p>").unwrap();
    assert_eq!(server.get("/").text(), "<p>edited</p>");
    assert_eq!(
        server.get("/app.mjs").status,
        404,
        "the embedded page must not leak into --root"
    );
}

#[test]
fn symlinks_out_of_the_tree_are_not_followed() {
    use std::os::unix::fs::symlink;
    let (tmp, checkout) = fake_checkout();
    let secret = tmp.path().join("outside/secret.json");
    symlink(&secret, checkout.join("reference/js/x")).unwrap();
    symlink(&secret, checkout.join("web/leak.html")).unwrap();
    symlink(&secret, checkout.join("vectors/leak.json")).unwrap();
    symlink(tmp.path().join("outside"), checkout.join("reference/js/dir")).unwrap();
    // A name the page loads, pointing out of the tree.
    symlink(&secret, checkout.join("reference/js/proof.mjs")).unwrap();
    // Inside the checkout but in another tree, or in an excluded directory.
    symlink(checkout.join("vectors/v.json"), checkout.join("reference/js/v.json")).unwrap();
    std::fs::create_dir(checkout.join("reference/js/test")).unwrap();
    std::fs::write(checkout.join("reference/js/test/t.mjs"), "test").unwrap();
    symlink(
        checkout.join("reference/js/test/t.mjs"),
        checkout.join("reference/js/t.mjs"),
    )
    .unwrap();
    // A symlink that stays inside its tree is an ordinary file.
    symlink(checkout.join("web/index.html"), checkout.join("web/alias.html")).unwrap();

    let server = Server::start(&["--root", checkout.to_str().unwrap()]);
    for path in [
        "/js/x",
        "/leak.html",
        "/vectors/leak.json",
        "/js/dir/secret.json",
        "/js/v.json",
        "/js/t.mjs",
        "/js/proof.mjs",
    ] {
        let reply = server.get(path);
        assert_eq!(reply.status, 404, "{path}: {}", reply.text());
        assert!(
            !reply.text().contains("SECRET") && !reply.text().contains("test"),
            "{path}"
        );
    }
    assert_eq!(server.get("/alias.html").text(), "<p>from disk</p>");
}

#[test]
fn a_missing_or_wrong_root_exits_2_naming_the_path() {
    let empty = tempfile::tempdir().unwrap();
    let empty_path = empty.path().to_str().unwrap();
    for (root_arg, says) in [
        ("/nonexistent/provably-root", "No such file"),
        (empty_path, "no web/index.html"),
    ] {
        let out = duct::cmd(bin(), ["web", "--port", "0", "--root", root_arg])
            .stdout_capture()
            .stderr_capture()
            .unchecked()
            .run()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{root_arg}: {err}");
        assert!(err.contains(root_arg) && err.contains(says), "{root_arg}: {err}");
        assert!(out.stdout.is_empty(), "{root_arg} must not print a URL");
    }
}

#[test]
fn a_port_in_use_exits_2_naming_the_port() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = duct::cmd(bin(), ["web", "--port", &port])
        .stdout_capture()
        .stderr_capture()
        .unchecked()
        .run()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("127.0.0.1:{port}")) && err.contains("in use"),
        "{err}"
    );
}

#[test]
fn an_oversized_head_gets_431_and_a_long_request_line_414() {
    let server = Server::start(&[]);
    let line = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(provably::web::MAX_REQUEST_LINE));
    let reply = server.raw(line.as_bytes());
    assert_eq!(reply.status, 414, "{}", reply.text());
    reply.assert_secured("414");
    let fields = format!(
        "GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n",
        "b".repeat(provably::web::MAX_HEAD)
    );
    let reply = server.raw(fields.as_bytes());
    assert_eq!(reply.status, 431, "{}", reply.text());
    reply.assert_secured("431");
    let many = format!(
        "GET / HTTP/1.1\r\n{}\r\n",
        "A: b\r\n".repeat(provably::web::MAX_HEADERS + 1)
    );
    assert_eq!(server.raw(many.as_bytes()).status, 431);
    // Just under the limits is fine.
    let fits = format!(
        "GET /?{} HTTP/1.1\r\nX-Big: {}\r\n\r\n",
        "q".repeat(8000),
        "b".repeat(8000)
    );
    assert_eq!(server.raw(fits.as_bytes()).status, 200);
}

/// Starts a request head and then feeds it one byte at a time, `pause`
/// apart, for at most `bytes` bytes; returns the reply if the server answered
/// and closed before the client ran out of bytes.
fn trickle(stream: &mut TcpStream, pause: Duration, bytes: usize) -> Option<Reply> {
    stream.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
    stream.set_read_timeout(Some(pause)).unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 1024];
    for _ in 0..bytes {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                raw.extend_from_slice(&buf[..n]);
                continue;
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
        if !raw.is_empty() || stream.write_all(b"a").is_err() {
            // The server has answered or closed: collect the rest.
            stream.set_read_timeout(Some(GUARD)).unwrap();
            let _ = stream.read_to_end(&mut raw);
            break;
        }
    }
    (!raw.is_empty()).then(|| parse_reply(&raw))
}

#[test]
fn a_slowloris_client_is_cut_off_by_the_whole_head_deadline() {
    // One byte every 100 ms keeps any per-read timeout happy; the one-second
    // deadline on the whole head must end it. 300 bytes bound the test at 30 s.
    let server = Server::start(&["--head-timeout", "1"]);
    let mut slow = server.connect();
    let reply = trickle(&mut slow, Duration::from_millis(100), 300).expect("the server answered the slow client");
    assert_eq!(reply.status, 408, "{}", reply.text());
    reply.assert_secured("408");
    assert_eq!(server.get("/").status, 200);
}

#[test]
fn more_slow_connections_than_the_cap_cannot_lock_out_a_request() {
    // An hour's head deadline: only the connection bound can make room.
    const CAP: usize = 8;
    const SLOW: usize = 20;
    let server = Server::start(&["--max-connections", "8", "--head-timeout", "3600"]);
    let mut slow: Vec<TcpStream> = (0..SLOW)
        .map(|_| {
            let mut s = server.connect();
            s.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
            s
        })
        .collect();
    let reply = server.get("/");
    assert_eq!(reply.status, 200, "{}", reply.text());
    // The newcomers displaced the connections that had waited longest: all
    // but the last CAP - 1 slow ones (the request took one slot) were told so.
    for (i, s) in slow.iter_mut().take(SLOW - (CAP - 1)).enumerate() {
        let reply = read_reply(s);
        assert_eq!(reply.status, 503, "slow connection {i}: {}", reply.text());
        reply.assert_secured("503");
    }
}

#[test]
fn route_decodes_once_then_refuses_dot_segments_and_maps_the_three_trees() {
    assert_eq!(route("/"), Ok((Tree::Web, "index.html".into())));
    assert_eq!(route("/app.mjs"), Ok((Tree::Web, "app.mjs".into())));
    assert_eq!(route("/js/provably.mjs"), Ok((Tree::Js, "provably.mjs".into())));
    assert_eq!(
        route("/vectors/selftest.json"),
        Ok((Tree::Vectors, "selftest.json".into()))
    );
    assert_eq!(route("/js%2fprovably.mjs"), Ok((Tree::Js, "provably.mjs".into())));
    assert_eq!(route("/%2e%2e/Cargo.toml"), Err(BadPath::DotSegment));
    assert_eq!(route("/js/a/%2E/b"), Err(BadPath::DotSegment));
    assert_eq!(
        route("/%252e%252e/x"),
        Ok((Tree::Web, "%2e%2e/x".into())),
        "decoded once, not twice"
    );
    assert_eq!(route("/%ff"), Err(BadPath::NotUtf8));
    assert_eq!(route("/a%00"), Err(BadPath::Control));
    assert_eq!(route("/a%5cb"), Err(BadPath::Backslash));
    assert!(Tree::Js.serves("provably.mjs") && !Tree::Js.serves("test/cursor.test.mjs"));
    assert!(!Tree::Js.serves("testkit/oracle.py") && !Tree::Web.serves("test/browser.test.mjs"));
    assert!(!Tree::Web.serves(".hidden") && !Tree::Web.serves("a//b") && !Tree::Web.serves(""));
    assert!(Tree::Vectors.serves("selftest.json") && !Tree::Vectors.serves("README.md"));
    assert!(!Tree::Vectors.serves("cursor.json") && !Tree::Js.serves("target.mjs"));
    assert!(!Tree::Js.serves("bench/mixed-requests.mjs") && !Tree::Js.serves("serve.mjs"));
}
