use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use crate::support::{bin, root};

#[test]
fn resolve_maps_the_three_trees_and_refuses_to_climb_out() {
    let r = root();
    assert_eq!(provably::web::resolve(r, "/"), Some(r.join("web/index.html")));
    assert_eq!(
        provably::web::resolve(r, "/js/provably.mjs"),
        Some(r.join("reference/js/provably.mjs"))
    );
    assert_eq!(
        provably::web::resolve(r, "/vectors/selftest.json?x=1"),
        Some(r.join("vectors/selftest.json"))
    );
    for bad in [
        "/../Cargo.toml",
        "/js/../../Cargo.toml",
        "/vectors/../src/lib.rs",
        "//etc/passwd",
        "/js/",
        "/nope.html",
    ] {
        assert_eq!(provably::web::resolve(r, bad), None, "{bad}");
    }
}

fn get(port: &str, path: &str) -> String {
    let mut s = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn web_serves_the_page_with_its_content_security_policy() {
    let mut child = Command::new(bin())
        .args(["web", "--port", "0", "--root"])
        .arg(root())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let port = first
        .trim()
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .to_string();
    let page = get(&port, "/");
    let vectors = get(&port, "/vectors/selftest.json");
    let missing = get(&port, "/../Cargo.toml");
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.starts_with("listening on http://127.0.0.1:"), "{first}");
    assert!(
        page.starts_with("HTTP/1.1 200") && page.contains("Content-Security-Policy: default-src 'none'"),
        "{page}"
    );
    assert!(page.contains("<html"));
    assert!(vectors.contains("application/json") && vectors.contains("\"numberOfTests\""));
    assert!(missing.starts_with("HTTP/1.1 404"));
}
