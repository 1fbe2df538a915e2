//! Blackjack benchmarks: simulated rounds (verifiable and fast), the op, and
//! the exact calculations. Figures and the HMAC-limit comparison: BENCHMARKS
//! in docs/blackjack.md.
//!
//!     cargo bench --bench blackjack
//!
//! A verifiable round is one `cursor.shuffle(312)`: about 376 HMACs on
//! average (the setup below counts them for the seeds used), each two
//! SHA-256 compressions, plus one key setup (two more) per round.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use provably::house_edge::exact::{self, Policy};
use provably::house_edge::infinite;
use provably::house_edge::sim::{self, play_round, FastShoe, ShuffledShoe, Source, Tally};
use provably::schemes::blackjack::{strategy, Rules};
use provably::schemes::cursor::Round;

const SERVER: &str = "a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60";
const CLIENT: &str = "seat-1";

fn rounds(c: &mut Criterion) {
    let r = Rules::default();
    // HMACs per round for the nonces the benchmark cycles through.
    let mut hmacs = 0u64;
    for nonce in 0..64 {
        Round::new(SERVER, CLIENT, nonce).shuffle_traced(312, 0, &mut |_, _| hmacs += 1);
    }
    eprintln!(
        "HMACs per 312-card shuffle over nonces 0..64: {:.2}",
        f64::from(u32::try_from(hmacs).expect("about 24,000 HMACs")) / 64.0
    );

    let mut g = c.benchmark_group("blackjack-round");
    g.throughput(Throughput::Elements(1));
    g.measurement_time(Duration::from_secs(5));
    let mut nonce = 0u64;
    g.bench_function("verifiable (cursor.shuffle 312 + play)", |b| {
        b.iter(|| {
            nonce = (nonce + 1) % 64;
            let mut shoe = ShuffledShoe::new(SERVER, CLIENT, nonce, 6);
            let mut t = Tally::default();
            black_box(play_round(&r, 1, &mut shoe, &mut t))
        })
    });
    g.bench_function("shuffle only (cursor.shuffle 312)", |b| {
        b.iter(|| {
            nonce = (nonce + 1) % 64;
            black_box(Round::new(SERVER, CLIENT, nonce).shuffle(312, 0))
        })
    });
    let mut shoe = FastShoe::new(6, [7; 32]);
    let mut t = Tally::default();
    g.bench_function("fast (xoshiro, cards as needed)", |b| {
        b.iter(|| {
            shoe.reshuffle();
            black_box(play_round(&r, 1, &mut shoe, &mut t))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("blackjack-simulate");
    g.sample_size(10);
    g.throughput(Throughput::Elements(1 << 20));
    g.bench_function("fast, 2^20 rounds, one thread", |b| {
        b.iter(|| black_box(sim::simulate(&r, 1, &Source::Fast { seed: 1 }, 1 << 20, 1, &|_| {})))
    });
    g.finish();
}

fn op_and_exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("blackjack-op");
    g.bench_function("strategy(10,6 vs 10)", |b| {
        b.iter(|| black_box(strategy::strategy(black_box(&[9, 5]), 10, true, false, true)))
    });
    g.finish();
    let r = Rules::default();
    let mut g = c.benchmark_group("blackjack-exact");
    g.sample_size(10);
    g.bench_function("infinite deck, published table", |b| {
        b.iter(|| black_box(infinite::game(&r, Policy::Table)))
    });
    g.bench_function("6 decks, published table with cells, one thread", |b| {
        b.iter(|| black_box(exact::game(&r, Policy::Table, true, 1)))
    });
    g.finish();
}

criterion_group!(benches, rounds, op_and_exact);
criterion_main!(benches);
