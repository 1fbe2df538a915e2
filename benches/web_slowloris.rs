//! `provably web` under a slowloris attack: 2,000 connections that each send
//! a request head one byte per second (reconnecting whenever the server cuts
//! them) are held against the server for 30 s, while one client makes
//! ordinary GETs one after another. Reported per phase: the GETs' latency
//! distribution and failures, the slow connections open, how the server cut
//! them, and the server's peak threads, descriptors and RSS (from /proc).
//!
//!   cargo bench --bench web_slowloris
//!   SLOW=2000 SECONDS=30 cargo bench --bench web_slowloris
//!   BEFORE=/path/to/older/provably cargo bench --bench web_slowloris
//!
//! Phases, each on a fresh server: idle (no attack), the attack against the
//! default limits (4,096 connections, 10 s head deadline), and the attack
//! against `--max-connections 500` (fewer slots than attackers, so
//! newcomers displace the slowest). With `BEFORE`, that binary (which takes
//! `web --port 0 --root DIR`) runs the idle and attack phases too. Linux only
//! (/proc). Not a pass/fail test: it prints figures for BENCHMARKS.md.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

const REPO: &str = env!("CARGO_MANIFEST_DIR");
/// A GET slower than this counts as failed (and ends that GET).
const GET_GUARD: Duration = Duration::from_secs(10);
/// The attack's tick: every open slow connection sends one byte per tick.
const TICK: Duration = Duration::from_secs(1);

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(binary: &str, args: &[&str]) -> Server {
        let mut child = Command::new(binary)
            .args(["web", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("{binary} printed {line:?}"));
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Peak figures of the server process, sampled from /proc.
#[derive(Default, Clone, Copy)]
struct Peak {
    threads: u64,
    rss_kib: u64,
    fds: u64,
}

fn sample(pid: u32) -> Peak {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map_or(0, |d| u64::try_from(d.count()).expect("a descriptor count"));
    Peak {
        threads: field("Threads:"),
        rss_kib: field("VmRSS:"),
        fds,
    }
}

/// What the slow connections saw.
#[derive(Default)]
struct Attack {
    /// Slow connections open at each tick after the first.
    open: Vec<usize>,
    /// Cut by the server with a status (408, 503, …), or closed without one.
    cut_408: usize,
    cut_503: usize,
    cut_other: usize,
    closed_silently: usize,
    connect_failures: usize,
}

fn open_slow(addr: SocketAddr) -> Option<TcpStream> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(1)).ok()?;
    s.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ").ok()?;
    s.set_nonblocking(true).ok()?;
    Some(s)
}

/// One tick for one connection: `false` if the server has cut it.
fn still_open(s: &mut TcpStream, attack: &mut Attack) -> bool {
    let mut buf = [0u8; 512];
    match s.read(&mut buf) {
        Ok(0) => attack.closed_silently += 1,
        Ok(n) => match &buf[..n.min(12)] {
            b"HTTP/1.1 408" => attack.cut_408 += 1,
            b"HTTP/1.1 503" => attack.cut_503 += 1,
            _ => attack.cut_other += 1,
        },
        Err(e) if e.kind() == ErrorKind::WouldBlock => {
            return match s.write(b"a") {
                Ok(_) => true,
                Err(e) if e.kind() == ErrorKind::WouldBlock => true,
                Err(_) => {
                    attack.closed_silently += 1;
                    false
                }
            };
        }
        Err(_) => attack.closed_silently += 1,
    }
    false
}

/// Keeps `n` slow connections open until `stop`, reconnecting each one the
/// server cuts.
fn slowloris(addr: SocketAddr, n: usize, stop: &AtomicBool) -> Attack {
    let mut attack = Attack::default();
    let mut conns: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let mut first = true;
    while !stop.load(Ordering::Relaxed) {
        let tick = Instant::now();
        for slot in &mut conns {
            if let Some(s) = slot {
                if !still_open(s, &mut attack) {
                    *slot = None;
                }
            }
            if slot.is_none() {
                *slot = open_slow(addr);
                if slot.is_none() {
                    attack.connect_failures += 1;
                }
            }
        }
        if !first {
            attack.open.push(conns.iter().flatten().count());
        }
        first = false;
        thread::sleep(TICK.saturating_sub(tick.elapsed()));
    }
    attack
}

/// One ordinary GET of the page: the time to the last byte, or why it failed.
fn get(addr: SocketAddr) -> Result<Duration, String> {
    let start = Instant::now();
    let mut s = TcpStream::connect_timeout(&addr, GET_GUARD).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(GET_GUARD)).unwrap();
    s.set_write_timeout(Some(GET_GUARD)).unwrap();
    s.write_all(b"GET /js/provably.mjs HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .map_err(|e| format!("write: {e}"))?;
    let mut reply = Vec::new();
    s.read_to_end(&mut reply).map_err(|e| format!("read: {e}"))?;
    if !reply.starts_with(b"HTTP/1.1 200") {
        return Err(format!("{:?}", String::from_utf8_lossy(&reply[..reply.len().min(40)])));
    }
    Ok(start.elapsed())
}

struct Phase {
    name: String,
    gets: Vec<Duration>,
    failures: Vec<String>,
    attack: Option<Attack>,
    peak: Peak,
}

/// Runs one phase against a fresh server: the attack (if `slow` > 0) and
/// GETs every 50 ms for `seconds`, sampling the server every 250 ms.
fn phase(name: &str, binary: &str, args: &[&str], slow: usize, seconds: u64) -> Phase {
    let server = Server::start(binary, args);
    let (addr, pid) = (server.addr, server.child.id());
    let stop = Arc::new(AtomicBool::new(false));
    let attacker = (slow > 0).then(|| {
        let stop = Arc::clone(&stop);
        thread::spawn(move || slowloris(addr, slow, &stop))
    });
    let (tx, rx) = mpsc::channel();
    let sampler = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || {
            let mut peak = Peak::default();
            while !stop.load(Ordering::Relaxed) {
                let now = sample(pid);
                peak.threads = peak.threads.max(now.threads);
                peak.rss_kib = peak.rss_kib.max(now.rss_kib);
                peak.fds = peak.fds.max(now.fds);
                thread::sleep(Duration::from_millis(250));
            }
            let _ = tx.send(peak);
        })
    };
    // Let the attack get its connections in before measuring.
    thread::sleep(if slow > 0 { 2 * TICK } else { Duration::ZERO });
    let (mut gets, mut failures) = (Vec::new(), Vec::new());
    let end = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < end {
        match get(addr) {
            Ok(t) => gets.push(t),
            Err(e) => failures.push(e),
        }
        thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::Relaxed);
    let attack = attacker.map(|a| a.join().unwrap());
    sampler.join().unwrap();
    drop(server);
    Phase {
        name: name.to_string(),
        gets,
        failures,
        attack,
        peak: rx.recv().unwrap_or_default(),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "an index below a few thousand times p in 0..=1: a whole number from 0 to len - 1, exact in f64"
)]
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[allow(
    clippy::cast_precision_loss,
    reason = "a resident size printed in MiB with one decimal"
)]
fn report(phases: &[Phase]) {
    println!("\n| phase | GETs | failed | p50 | p90 | p99 | max | slow open (min / median) | cut: 408 / 503 / other / closed | server threads | server fds | server RSS |");
    println!("|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for p in phases {
        let mut sorted = p.gets.clone();
        sorted.sort();
        let (open, cut) = match &p.attack {
            Some(a) => {
                let mut open = a.open.clone();
                open.sort_unstable();
                let min = open.first().copied().unwrap_or(0);
                let median = open.get(open.len() / 2).copied().unwrap_or(0);
                let cut = format!(
                    "{} / {} / {} / {}",
                    a.cut_408, a.cut_503, a.cut_other, a.closed_silently
                );
                (format!("{min} / {median}"), cut)
            }
            None => ("–".into(), "–".into()),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {open} | {cut} | {} | {} | {:.1} MiB |",
            p.name,
            p.gets.len(),
            p.failures.len(),
            ms(percentile(&sorted, 0.5)),
            ms(percentile(&sorted, 0.9)),
            ms(percentile(&sorted, 0.99)),
            ms(sorted.last().copied().unwrap_or_default()),
            p.peak.threads,
            p.peak.fds,
            p.peak.rss_kib as f64 / 1024.0,
        );
        if let Some(a) = p.attack.as_ref().filter(|a| a.connect_failures > 0) {
            println!("|   ({} slow connects failed) |", a.connect_failures);
        }
        for f in p.failures.iter().take(3) {
            println!("|   failure: {f} |");
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not used here.
    let slow = env_usize("SLOW", 2000);
    let seconds = u64::try_from(env_usize("SECONDS", 30)).expect("seconds fit in 64 bits");
    let idle = u64::try_from(env_usize("IDLE_SECONDS", 5)).expect("seconds fit in 64 bits");
    // Each slow connection is one descriptor here and one in the server.
    let limit = rlimit::increase_nofile_limit(u64::try_from(2 * slow + 256).expect("a descriptor count")).unwrap_or(0);
    assert!(
        usize::try_from(limit).unwrap_or(usize::MAX) > slow + 128,
        "the open-file limit {limit} is too low for SLOW={slow}"
    );
    let new = env!("CARGO_BIN_EXE_provably");
    println!(
        "provably web: {slow} slow connections (one byte per {TICK:?}) for {seconds} s; GETs of /js/provably.mjs every 50 ms"
    );
    let mut phases = vec![
        phase("idle", new, &[], 0, idle),
        phase(&format!("{slow} slow, default limits"), new, &[], slow, seconds),
        phase(
            &format!("{slow} slow, --max-connections 500"),
            new,
            &["--max-connections", "500"],
            slow,
            seconds,
        ),
    ];
    if let Ok(before) = std::env::var("BEFORE") {
        phases.push(phase("before: idle", &before, &["--root", REPO], 0, idle));
        phases.push(phase(
            &format!("before: {slow} slow"),
            &before,
            &["--root", REPO],
            slow,
            seconds,
        ));
    }
    report(&phases);
}
