//! The crash family at the limit (BENCHMARKS.md, "Crash chains at the
//! limit"): a chain of 10^7 links walked, and the points of 10^7 games
//! derived, each against the SHA-256 compressions it needs:
//!
//! * a raw-byte link: one compression (32 bytes and the padding);
//! * a hex-text link: two (64 bytes of text, then the padding block);
//! * a game of `crash.v2` (bustabit v2, BC.Game): two, the key (the salt)
//!   fixed and its ipad and opad states cached: the inner block (the
//!   hash's 32 bytes) and the outer block;
//! * a game of `crash.v1` (bustabit v1, Roobet) and of `stake.crash`: five,
//!   the key (the game's hash text, 64 bytes) changing with every game:
//!   its ipad and opad blocks, the salt's text (64 bytes, 66 with Roobet's
//!   `0x`) and its padding, and the outer block.
//!
//! The limit of a workload is its compressions times one compression's
//! time (a chain of dependent compressions, as a walk and a MAC are). A
//! workload of 10^7 items runs in slices of 10^5, each right after a
//! chain of 10^5 compressions is timed. Times are the thread's time on a
//! CPU (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`; the wall clock where
//! that fails), so that the time another process held the CPU (the
//! machine is shared) counts for neither; the ratio is the fastest
//! slice's time an item over the fastest compression's. The wall time of
//! all slices, and the growth of the process's peak memory over the
//! workload, are printed beside it as a Markdown table.
//!
//!   cargo bench --bench chain            # make bench runs it (scripts/bench-run)
//!   CHAIN_N=1000000 cargo bench --bench chain

use std::hint::black_box;
use std::time::Instant;

use provably::base::chain::{bytes_of, walk, Link};
use provably::base::hmac::Keyed;
use provably::schemes::crash;
use provably::schemes::stake::crash::crash_point;

/// bustabit v2's previous chain's salt (bustabit/verifier src/constants.ts).
const SALT: &str = "0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526";
/// Roobet's salt with its `0x` (66 bytes: still two blocks with the padding).
const ROOBET_SALT: &str = "0xd2867566759e9158bda9bf93b343bbd9aa02ce1e0c5bc2b37a2d70d391b04f14";
/// The items of a slice.
const SLICE: u64 = 100_000;

/// The process's peak resident memory so far, in KiB (Linux: VmHWM).
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

#[allow(clippy::cast_precision_loss, reason = "counts below 2^53")]
fn per(seconds: f64, count: u64) -> f64 {
    seconds / count as f64
}

/// The thread's time on a CPU so far in seconds, or the wall clock's
/// since `start` where the kernel does not say.
fn cpu(start: Instant) -> f64 {
    use nix::time::{clock_gettime, ClockId};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).map_or_else(
        |_| start.elapsed().as_secs_f64(),
        #[allow(clippy::cast_precision_loss, reason = "seconds and ns far below 2^53")]
        |t| t.tv_sec() as f64 + t.tv_nsec() as f64 / 1e9,
    )
}

/// One compression's time in seconds, from a chain of `n` dependent compressions.
fn compression(start: Instant, n: u64) -> f64 {
    let block = [0x5au8; 64];
    let mut state = [
        0x6a09_e667u32,
        0xbb67_ae85,
        0x3c6e_f372,
        0xa54f_f53a,
        0x510e_527f,
        0x9b05_688c,
        0x1f83_d9ab,
        0x5be0_cd19,
    ];
    let t = cpu(start);
    for _ in 0..n {
        sha2::compress256(black_box(&mut state), std::slice::from_ref(black_box((&block).into())));
    }
    black_box(state);
    per(cpu(start) - t, n)
}

/// A game's hash as hex text: a fixed text with `i` in its last 16 digits
/// (any 64 digits are a hash; making them costs no SHA-256).
fn game_hash(i: u64, buf: &mut [u8; 64]) -> &str {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for (k, b) in buf[48..].iter_mut().enumerate() {
        *b = DIGITS[usize::try_from((i >> (60 - 4 * k)) & 15).expect("a digit")];
    }
    std::str::from_utf8(buf).expect("hex digits")
}

/// A game's hash as bytes (v2's message): `i` in its last eight bytes.
fn game_bytes(i: u64) -> [u8; 32] {
    let mut hash = [0x9fu8; 32];
    hash[24..].copy_from_slice(&i.to_be_bytes());
    hash
}

struct Row {
    work: &'static str,
    per_item: u64,
    /// The fastest compression and the fastest slice's item, in seconds.
    one: f64,
    item: f64,
    wall: f64,
    grew_kib: u64,
}

/// Runs `n` items of a workload in slices: `slice(first, count)` does items `first ..`.
fn measure(work: &'static str, per_item: u64, n: u64, mut slice: impl FnMut(u64, u64)) -> Row {
    let before = peak_kib();
    let start = Instant::now();
    let (mut one, mut item, mut wall) = (f64::INFINITY, f64::INFINITY, 0.0);
    let mut first = 0;
    while first < n {
        let count = SLICE.min(n - first);
        one = one.min(compression(start, count * per_item));
        let (t, w) = (cpu(start), Instant::now());
        slice(first, count);
        let took = cpu(start) - t;
        wall += w.elapsed().as_secs_f64();
        item = item.min(per(took, count));
        first += count;
    }
    Row {
        work,
        per_item,
        one,
        item,
        wall,
        grew_kib: peak_kib().saturating_sub(before),
    }
}

/// The sum of a slice's points, kept from the optimiser.
fn points(first: u64, count: u64, point: impl FnMut(u64) -> f64) {
    black_box((first..first + count).map(point).sum::<f64>());
}

fn main() {
    let n: u64 = std::env::var("CHAIN_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    // A tip that is never met: each slice walks all its links, from a start of its own.
    let nowhere = [0u8; 32];
    let start = |i: u64| bytes_of(&provably::base::crypto::sha256_hex(&i.to_string()));
    let salt = Keyed::new(SALT);
    let mut buf = *b"9f2c6b1d0e4a8735c2b1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9";
    let rows = [
        measure("walk, raw-byte link", 1, n, |first, count| {
            black_box(walk(Link::Bytes, black_box(&start(first)), &nowhere, count));
        }),
        measure("walk, hex-text link", 2, n, |first, count| {
            black_box(walk(Link::Text, black_box(&start(first)), &nowhere, count));
        }),
        measure("crash.v2 (bustabit v2), salt keyed once", 2, n, |first, count| {
            points(first, count, |i| {
                crash::v2_point_keyed(&salt, &game_bytes(i), false).expect("a point")
            });
        }),
        measure("crash.v2 bcgame (BC.Game), salt keyed once", 2, n, |first, count| {
            points(first, count, |i| {
                crash::v2_point_keyed(&salt, &game_bytes(i), true).unwrap_or(0.0)
            });
        }),
        measure("crash.v1 (bustabit v1), keyed per game", 5, n, |first, count| {
            points(first, count, |i| crash::v1_point(game_hash(i, &mut buf), SALT, 101, 0));
        }),
        measure("crash.v1 (Roobet, 0x salt), keyed per game", 5, n, |first, count| {
            points(first, count, |i| {
                crash::v1_point(game_hash(i, &mut buf), ROOBET_SALT, 25, 1)
            });
        }),
        measure("stake.crash, keyed per game", 5, n, |first, count| {
            points(first, count, |i| crash_point(game_hash(i, &mut buf), SALT));
        }),
    ];
    println!(
        "{n} items a workload in slices of {SLICE}, times on a CPU; load {}",
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()
    );
    println!();
    println!("| work | compressions an item | one compression ns | an item ns | × limit | within 1.25× | wall ms | peak memory grew |");
    println!("|:--|--:|--:|--:|--:|:--|--:|--:|");
    for r in rows {
        #[allow(clippy::cast_precision_loss, reason = "at most five")]
        let ratio = r.item / (r.one * r.per_item as f64);
        println!(
            "| {} | {} | {:.2} | {:.2} | {:.2} | {} | {:.1} | {} KiB |",
            r.work,
            r.per_item,
            r.one * 1e9,
            r.item * 1e9,
            ratio,
            if ratio <= 1.25 { "yes" } else { "no" },
            r.wall * 1e3,
            r.grew_kib
        );
    }
}
