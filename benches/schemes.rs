//! Per-operation benchmarks of every scheme, the protocol path, and two
//! ablations of design decisions (see BENCHMARKS.md for recorded figures).
//!
//!     cargo bench --bench schemes                 # whole suite, well under 2 minutes
//!     cargo bench --bench schemes -- ablation     # one group (criterion filter)
//!
//! Every input is fixed, so two runs measure the same work. Where an op's cost
//! depends on rejection sampling, the setup asserts how many draws it takes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hmac::{Hmac, Mac};
use sha2::Sha256;

use provably::base::crypto::decimal;
use provably::base::hmac::Keyed;
use provably::op::error::MAX_SAFE_INTEGER;
use provably::protocol::answer_line;
use provably::schemes::cursor::{self, Round};
use provably::schemes::selfpoker::numpy::{self, Pcg64};
use provably::schemes::{dice, ladder, poker, selfpoker, shoe};

/// `referenz.py`'s second seed: 64 hex characters, so a 64-byte HMAC key
/// (one block, no key hashing).
const SEED: &str = "a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60";
const CLIENT: &str = "MarcTestet";
const NONCE: u64 = 42;

/// Modest settings so the whole suite finishes in well under two minutes.
fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1000))
        .without_plots()
}

/// The first cursor from which `int(range)` accepts its first draw, so the
/// benchmark measures exactly one MAC.
fn one_draw_cursor(round: &Round, range: u64) -> u64 {
    (0..).find(|&c| round.int(range, c).1 == c + 1).unwrap()
}

fn bench_cursor(c: &mut Criterion) {
    let mut g = c.benchmark_group("cursor");
    let round = Round::new(SEED, CLIENT, NONCE);
    g.bench_function("round_new", |b| {
        b.iter(|| Round::new(black_box(SEED), black_box(CLIENT), black_box(NONCE)))
    });
    g.bench_function("raw", |b| b.iter(|| round.raw(black_box(7))));
    g.bench_function("float", |b| b.iter(|| round.float(black_box(7))));
    // Range 6 reads one byte; 2^53 − 1 (the protocol's largest) reads seven.
    for (name, range) in [("int/range_6", 6), ("int/range_2^53-1_7bytes", MAX_SAFE_INTEGER)] {
        let at = one_draw_cursor(&round, range);
        g.bench_function(name, |b| b.iter(|| round.int(black_box(range), black_box(at))));
    }
    for count in [52usize, 312] {
        g.bench_with_input(BenchmarkId::new("shuffle", count), &count, |b, &n| {
            b.iter(|| round.shuffle(black_box(n), 0))
        });
    }
    g.finish();
}

fn bench_shoe(c: &mut Criterion) {
    let mut g = c.benchmark_group("shoe");
    for decks in [1usize, 8] {
        g.bench_with_input(BenchmarkId::new("deal", decks), &decks, |b, &d| {
            b.iter(|| shoe::deal(black_box(SEED), CLIENT, NONCE, d, 0.75))
        });
    }
    // The ordered shoe alone (416 static labels, one allocation), to compare with deal/8.
    g.bench_function("ordered/8", |b| b.iter(|| shoe::ordered(black_box(8))));
    g.finish();
}

fn bench_dice_ladder(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice");
    g.bench_function("roll", |b| {
        b.iter(|| dice::roll(black_box(SEED), CLIENT, black_box(3)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("ladder");
    g.bench_function("shuffle/25", |b| {
        b.iter(|| ladder::shuffle(black_box(SEED), CLIENT, black_box(25)))
    });
    g.finish();
}

fn bench_selfpoker(c: &mut Criterion) {
    let mut g = c.benchmark_group("selfpoker");
    let seed = 123u64;
    // selfpoker.deck is numpy.random.default_rng(seed).permutation(52).
    g.bench_function("deck_permutation_52", |b| b.iter(|| selfpoker::deck(black_box(seed))));
    g.bench_function("seed_sequence_pcg64", |b| b.iter(|| Pcg64::from_seed(black_box(seed))));
    g.bench_function("commit", |b| b.iter(|| selfpoker::commit(black_box(seed))));
    g.finish();
}

fn bench_poker(c: &mut Criterion) {
    let mut g = c.benchmark_group("poker");
    g.bench_function("deal/6_players", |b| {
        b.iter(|| poker::deal(black_box(SEED), CLIENT, black_box(NONCE), 6))
    });
    // 64 seven-card hands off real decks (a natural mix of categories).
    let hands: Vec<Vec<u8>> = (0..64)
        .map(|n| {
            let (deck, _) = Round::new(SEED, CLIENT, n).shuffle(52, 0);
            deck[..7].iter().map(|&c| u8::try_from(c).unwrap()).collect()
        })
        .collect();
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("evaluate_7/x64", |b| {
        b.iter(|| {
            for h in &hands {
                black_box(poker::evaluate(black_box(h)));
            }
        })
    });
    g.finish();
}

fn bench_protocol(c: &mut Criterion) {
    let mut g = c.benchmark_group("protocol");
    let lines = [
        (
            "cursor.int",
            r#"{"id":7,"op":"cursor.int","serverSeed":"a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60","clientSeed":"MarcTestet","nonce":42,"cursor":0,"range":52}"#,
        ),
        (
            "cursor.shuffle_52",
            r#"{"id":7,"op":"cursor.shuffle","serverSeed":"a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60","clientSeed":"MarcTestet","nonce":42,"cursor":0,"count":52}"#,
        ),
        ("selfpoker.deck", r#"{"id":7,"op":"selfpoker.deck","seed":"123"}"#),
    ];
    for (name, line) in lines {
        assert!(answer_line(line).to_line().contains(r#""ok":"#), "{name}");
        // parse + execute + serialize, as `provably serve` does per line.
        g.bench_function(BenchmarkId::new("answer_line", name), |b| {
            b.iter(|| answer_line(black_box(line)).to_line())
        });
    }
    // The JSON half alone for the shuffle line: parse and type-check, no MACs.
    let line = lines[1].1;
    g.bench_function("parse_only/cursor.shuffle_52", |b| {
        b.iter(|| {
            let v: serde_json::Value = serde_json::from_str(black_box(line)).unwrap();
            provably::registry::parse(&v).unwrap()
        })
    });
    // The serialize half alone: the finished response to one line of text.
    let response = answer_line(line);
    g.bench_function("to_line_only/cursor.shuffle_52", |b| {
        b.iter(|| black_box(&response).to_line())
    });
    // What the harness adds to a case before any target sees it: drawing
    // it from its op's generator (every eighth a negative variant), per op,
    // eight cases per iteration (so each holds one negative one).
    for op in provably::registry::ops() {
        let mut index = 0u64;
        g.bench_function(BenchmarkId::new("generate_8_cases", op.name), |b| {
            b.iter(|| {
                for _ in 0..8 {
                    index += 1;
                    black_box(provably::harness::cases::generated(1, op, index));
                }
            })
        });
    }
    g.finish();
}

/// `Round::shuffle` as the crate writes it, but with one of its two design
/// decisions undone: `rekey` builds a fresh HMAC (key schedule: the ipad and
/// opad blocks) for every MAC instead of cloning the keyed state; `format`
/// builds each message with `format!` instead of writing the digits in place.
fn shuffle_variant(count: usize, rekey: bool, format: bool) -> Vec<u32> {
    let keyed = Keyed::new(SEED);
    let prefix = format!("{CLIENT}:{NONCE}:");
    let mac = |cursor: u64| -> [u8; 32] {
        match (rekey, format) {
            (false, false) => keyed.mac_counter(prefix.as_bytes(), cursor),
            (false, true) => keyed.mac(format!("{CLIENT}:{NONCE}:{cursor}").as_bytes()),
            (true, fmt) => {
                let mut m = Hmac::<Sha256>::new_from_slice(SEED.as_bytes()).unwrap();
                if fmt {
                    m.update(format!("{CLIENT}:{NONCE}:{cursor}").as_bytes());
                } else {
                    m.update(prefix.as_bytes());
                    m.update(decimal(cursor, &mut [0u8; 20]));
                }
                m.finalize().into_bytes().into()
            }
        }
    };
    let mut deck: Vec<u32> = (0..u32::try_from(count).unwrap()).collect();
    let mut cursor = 0u64;
    for i in (1..count).rev() {
        let range = i as u64 + 1;
        let k = cursor::bytes_needed(range) as usize;
        let limit = cursor::limit(range);
        let j = loop {
            let raw = mac(cursor);
            cursor += 1;
            let v = raw[..k].iter().fold(0u64, |a, &b| a << 8 | u64::from(b));
            if u128::from(v) < limit {
                break v % range;
            }
        };
        deck.swap(i, usize::try_from(j).unwrap());
    }
    deck
}

/// numpy's permutation with the 32-bit buffer removed: every 32-bit draw
/// takes a fresh 64-bit output. NOT numpy's answer; a cost reference only.
fn permutation_unbuffered(seed: u64, n: usize) -> Vec<u32> {
    let mut rng = Pcg64::from_seed(seed);
    let mut a: Vec<u32> = (0..u32::try_from(n).unwrap()).collect();
    for i in (1..n).rev() {
        let max = i as u64;
        let mask = u64::MAX >> max.leading_zeros();
        let j = loop {
            let v = (rng.next_u64() & 0xFFFF_FFFF) & mask;
            if v <= max {
                break v;
            }
        };
        a.swap(i, usize::try_from(j).unwrap());
    }
    a
}

fn bench_ablations(c: &mut Criterion) {
    let mut g = c.benchmark_group("ablation_hmac_key/shuffle_312");
    let expected = Round::new(SEED, CLIENT, NONCE).shuffle(312, 0).0;
    let variants = [
        ("cached_key+digits_in_place(crate)", false, false),
        ("cached_key+format!", false, true),
        ("rekey_per_mac+digits_in_place", true, false),
        ("rekey_per_mac+format!(referenz.py_style)", true, true),
    ];
    for (name, rekey, format) in variants {
        assert_eq!(shuffle_variant(312, rekey, format), expected, "{name}");
        g.bench_function(name, |b| b.iter(|| shuffle_variant(black_box(312), rekey, format)));
    }
    g.finish();

    let mut g = c.benchmark_group("ablation_numpy_draws");
    assert_eq!(numpy::permutation(123, 52), selfpoker::deck(123));
    g.bench_function("permutation_52/buffered_u32(numpy)", |b| {
        b.iter(|| numpy::permutation(black_box(123), 52))
    });
    g.bench_function("permutation_52/unbuffered_u64_per_draw", |b| {
        b.iter(|| permutation_unbuffered(black_box(123), 52))
    });
    const DRAWS: u64 = 1000;
    g.throughput(Throughput::Elements(DRAWS));
    let rng = Pcg64::from_seed(123);
    g.bench_function("x1000/next_u32_buffered", |b| {
        b.iter(|| {
            let mut r = rng.clone();
            (0..DRAWS).fold(0u32, |a, _| a ^ r.next_u32())
        })
    });
    g.bench_function("x1000/next_u64", |b| {
        b.iter(|| {
            let mut r = rng.clone();
            (0..DRAWS).fold(0u64, |a, _| a ^ r.next_u64())
        })
    });
    g.finish();
}

/// Every op against the physical limit: one SHA-256 compression is timed,
/// and each op (run as `serve` runs it, through the op table, with the key
/// state cached) is divided by 2 compressions per HMAC it needs.
/// `scripts/bench.sh limit` prints the ratios.
fn bench_limit(c: &mut Criterion) {
    let mut g = c.benchmark_group("limit");
    let block = [0x5au8; 64];
    g.bench_function("sha256_compress", |b| {
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
        b.iter(|| sha2::compress256(black_box(&mut state), std::slice::from_ref(black_box((&block).into()))))
    });
    // Two independent chains side by side, as `Counter::macs` runs them:
    // the time of two compressions, against twice the one above.
    g.bench_function("sha256_compress_two_chains", |b| {
        let mut states = [[0x6a09_e667u32; 8], [0x5be0_cd19u32; 8]];
        b.iter(|| {
            for state in &mut states {
                sha2::compress256(black_box(state), std::slice::from_ref(black_box((&block).into())));
            }
        })
    });
    let hmacs_of: std::collections::HashMap<&str, u64> = limit_cases().iter().map(|(n, _, h)| (*n, *h)).collect();
    for (name, input, hmacs) in limit_cases() {
        let request = provably::registry::parse(&input).unwrap();
        // The name carries the HMAC count, for the ratio.
        g.bench_function(format!("{name}/{hmacs}_hmacs"), |b| {
            b.iter(|| black_box(&request).run().unwrap())
        });
    }
    // The same ops as library calls: the typed result, key state cached,
    // without the `ok` object a protocol answer is built from.
    let h = |name: &str| hmacs_of[name];
    let one = one_draw_cursor(&Round::new(SEED, CLIENT, NONCE), 6);
    let mut compute = |kind: &str, name: &str, f: &mut dyn FnMut()| {
        g.bench_function(format!("{kind}.{name}/{}_hmacs", h(name)), |b| b.iter(&mut *f));
    };
    // The single-MAC ops through the key cache (`compute.`) and with the
    // key in hand (`keyed.`, `Round::with_key`: what an audit of one
    // seed's rounds pays per round).
    let key = provably::base::hmac::Keyed::new(SEED);
    let round = || Round::new(black_box(SEED), black_box(CLIENT), black_box(NONCE));
    let keyed = || Round::with_key(black_box(&key), black_box(CLIENT), black_box(NONCE));
    for (kind, round) in [("compute", &round as &dyn Fn() -> Round), ("keyed", &keyed)] {
        compute(kind, "cursor.raw", &mut || {
            black_box(round().raw(black_box(7)));
        });
        compute(kind, "cursor.float", &mut || {
            black_box(round().float(black_box(7)));
        });
        compute(kind, "cursor.int", &mut || {
            black_box(round().int(6, black_box(one)));
        });
    }
    compute("compute", "cursor.shuffle_52", &mut || {
        black_box(round().shuffle(black_box(52), 0));
    });
    compute("compute", "cursor.shuffle_312", &mut || {
        black_box(round().shuffle(black_box(312), 0));
    });
    compute("compute", "poker.deal_6", &mut || {
        black_box(poker::deal(black_box(SEED), CLIENT, NONCE, 6));
    });
    compute("compute", "shoe.deal_6_decks", &mut || {
        black_box(shoe::deal(black_box(SEED), CLIENT, NONCE, 6, 0.75));
    });
    compute("compute", "shoe.stream_1000", &mut || {
        black_box(shoe::stream(black_box(SEED), CLIENT, NONCE, 1000));
    });
    compute("compute", "dice.roll", &mut || {
        black_box(dice::roll(black_box(SEED), CLIENT, 3).unwrap());
    });
    compute("compute", "ladder.shuffle_25", &mut || {
        black_box(ladder::shuffle(black_box(SEED), CLIENT, 25));
    });
    compute("keyed", "dice.roll", &mut || {
        black_box(dice::roll_with_key(black_box(&key), CLIENT, 3).unwrap());
    });
    g.finish();
}

/// The ops with fixed inputs and how many HMACs each needs, counted off traces.
fn limit_cases() -> Vec<(&'static str, serde_json::Value, u64)> {
    use serde_json::json;
    let round = Round::new(SEED, CLIENT, NONCE);
    let attempts = |count: usize| {
        let mut n = 0u64;
        round.shuffle_traced(count, 0, &mut |_, _| n += 1);
        n
    };
    let one = one_draw_cursor(&round, 6);
    let shoe_blocks = shoe::deal_traced(SEED, CLIENT, NONCE, 6, 0.75).1.bytes.div_ceil(32);
    let die = dice::roll_traced(SEED, CLIENT, 3).unwrap().round + 1;
    let base = json!({ "serverSeed": SEED, "clientSeed": CLIENT, "nonce": NONCE });
    let with = |op: &str, extra: serde_json::Value| {
        let mut v = base.clone();
        v["op"] = json!(op);
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    vec![
        ("cursor.raw", with("cursor.raw", json!({ "cursor": 7 })), 1),
        ("cursor.float", with("cursor.float", json!({ "cursor": 7 })), 1),
        (
            "cursor.int",
            with("cursor.int", json!({ "cursor": one, "range": 6 })),
            1,
        ),
        (
            "cursor.shuffle_52",
            with("cursor.shuffle", json!({ "cursor": 0, "count": 52 })),
            attempts(52),
        ),
        (
            "cursor.shuffle_312",
            with("cursor.shuffle", json!({ "cursor": 0, "count": 312 })),
            attempts(312),
        ),
        (
            "poker.deal_6",
            with("poker.deal", json!({ "players": 6 })),
            attempts(52),
        ),
        (
            "shoe.deal_6_decks",
            with("shoe.deal", json!({ "decks": 6, "penetration": 0.75 })),
            shoe_blocks,
        ),
        (
            "shoe.stream_1000",
            with("shoe.stream", json!({ "count": 1000 })),
            1000u64.div_ceil(32),
        ),
        (
            "dice.roll",
            json!({ "op": "dice.roll", "serverSeed": SEED, "clientSeed": CLIENT, "n": 3 }),
            die,
        ),
        (
            "ladder.shuffle_25",
            json!({ "op": "ladder.shuffle", "serverSeed": SEED, "clientSeed": CLIENT, "size": 25 }),
            3,
        ),
    ]
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_cursor, bench_shoe, bench_dice_ladder, bench_selfpoker, bench_poker,
        bench_protocol, bench_ablations, bench_limit
}
criterion_main!(benches);
