//! The harness's own work per generated case, phase by phase, on the cases
//! `provably diff --seed 1` asks of every op (the harness's
//! cost against its target's, a withdrawn goal, is told phase by phase):
//!
//!     cargo bench --bench harness
//!
//! Each benchmark does one phase for the same 100 generated cases of every
//! op (3,000 cases, every eighth a negative one): drawing them, provably's
//! answers, writing those answers as `serve` writes them (the line the
//! harness compares byte for byte), and writing the request lines. `serve`
//! on the same request lines is the last row: the target's whole cost.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use provably::harness::cases::{generated, Ask, Case};
use provably::protocol::{answer_line, Answer};

const CASES: u64 = 100;

fn cases() -> Vec<Case> {
    provably::registry::ops()
        .flat_map(|op| (0..CASES).map(move |k| generated(1, op, k)))
        .collect()
}

fn phases(c: &mut Criterion) {
    let all = cases();
    let lines: Vec<String> = all.iter().zip(1..).map(|(c, id)| c.ask.line(id)).collect();
    let mut g = c.benchmark_group("harness-phase");
    g.throughput(Throughput::Elements(all.len() as u64));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("generate", |b| b.iter(|| black_box(cases())));
    g.bench_function("expected answers", |b| {
        b.iter(|| {
            for c in &all {
                if let Ask::Request(r) = &c.ask {
                    black_box(r.run().is_ok());
                }
            }
        });
    });
    let answers: Vec<Answer> = all
        .iter()
        .zip(1..)
        .filter_map(|(c, id)| match &c.ask {
            Ask::Request(r) => Some(Answer {
                id: Some(id),
                result: r.run(),
            }),
            Ask::Invalid(_) => None,
        })
        .collect();
    g.bench_function("expected lines", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            for a in &answers {
                out.clear();
                a.write_line(&mut out);
                black_box(&out);
            }
        });
    });
    g.bench_function("request lines", |b| {
        b.iter(|| {
            for (c, id) in all.iter().zip(1..) {
                black_box(c.ask.line(id));
            }
        });
    });
    g.bench_function("serve's answers to the request lines", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            for l in &lines {
                out.clear();
                answer_line(l).write_line(&mut out);
                black_box(&out);
            }
        });
    });
    g.finish();
}

criterion_group!(benches, phases);
criterion_main!(benches);
