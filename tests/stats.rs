//! `provably audit --stats` and `provably certify`: every certificate
//! against enumeration of all inputs of a reduced width (and the scheme's
//! own code at full width where it can be fed), calibration on many honest
//! archives, and archives whose server seeds were ground by an operator
//! through `provably serve`: every round matches, and the statistics alarm.

// Counts and probabilities: every cast is of a count far below 2^52.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "counts and archive sizes far below 2^52"
)]

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use provably::op::Request;
use provably::stats::{certify, collect::Collector, evaluate, model, power};

use crate::support::{bin, root};

// ---------------------------------------------------------------- certificates

#[test]
fn rejection_is_exactly_uniform_for_every_range_at_every_reduced_width() {
    for bits in 1..=11u32 {
        let pot = 1u64 << bits;
        let step = if bits <= 9 { 1 } else { 7 };
        for m in (2..=pot).step_by(step) {
            let limit = u64::try_from(certify::limit(m, bits)).unwrap();
            let mut counts = vec![0u64; usize::try_from(m).unwrap()];
            for v in (0..pot).filter(|&v| v < limit) {
                counts[usize::try_from(v % m).unwrap()] += 1;
            }
            assert!(
                counts.iter().all(|&c| c == limit / m),
                "width {bits}, m {m}: {counts:?}"
            );
            assert!(
                pot - limit < m,
                "width {bits}, m {m}: a whole residue class more could be kept"
            );
        }
    }
}

#[test]
fn the_schemes_rejection_limit_is_the_certified_one_at_every_byte_width() {
    let mut ranges = vec![2u64, 3, 52, 129, 255, 256, (1 << 53) - 1];
    for k in 1..=7u32 {
        let lo = (1u64 << (8 * (k - 1))) + 1;
        let hi = if k == 7 { (1 << 53) - 1 } else { 1u64 << (8 * k) };
        ranges.extend([lo, lo + 1, hi - 1, hi, certify::worst_range(lo, hi, 8 * k)]);
    }
    for r in ranges.into_iter().filter(|&r| r >= 2) {
        let k = provably::schemes::cursor::bytes_needed(r);
        assert_eq!(
            provably::schemes::cursor::limit(r),
            certify::limit(r, 8 * k),
            "range {r}"
        );
        assert!(certify::limit(r, 8 * k) % u128::from(r) == 0);
    }
}

#[test]
fn every_face_of_the_die_has_42_of_the_252_accepted_bytes() {
    let mut faces = [0u32; 6];
    let mut rejected = 0;
    for b in 0..=255u8 {
        if b < 252 {
            faces[usize::from(b % 6)] += 1;
        } else {
            rejected += 1;
        }
    }
    assert_eq!(faces, [42; 6]);
    assert_eq!(rejected, 4);
}

/// Fisher–Yates from the back over 0..n with every draw sequence j_i ∈ [0, i].
fn all_shuffles(n: usize, words: u64, pick: &dyn Fn(u64, usize) -> usize) -> Vec<Vec<usize>> {
    let draws = n.saturating_sub(1);
    let total = words.pow(u32::try_from(draws).unwrap());
    (0..total)
        .map(|mut code| {
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                let v = code % words;
                code /= words;
                order.swap(i, pick(v, i));
            }
            order
        })
        .collect()
}

#[test]
fn fisher_yates_with_uniform_draws_makes_every_order_exactly_once() {
    for n in 1..=7usize {
        // A mixed-radix code: draw i takes i + 1 values, so enumerate with the largest radix and keep j ≤ i.
        let mut seen = BTreeMap::new();
        let mut order: Vec<usize>;
        let mut codes = vec![0usize; n];
        loop {
            order = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, codes[i]);
            }
            *seen.entry(order.clone()).or_insert(0) += 1;
            let mut i = 1;
            while i < n && codes[i] == i {
                codes[i] = 0;
                i += 1;
            }
            if i >= n {
                break;
            }
            codes[i] += 1;
        }
        let factorial: usize = (1..=n).product();
        assert_eq!(seen.len(), factorial, "n = {n}");
        assert!(seen.values().all(|&c| c == 1));
        let uniform = |i: usize| vec![1.0 / (i + 1) as f64; i + 1];
        for row in certify::shuffle_marginals(n, &uniform) {
            assert!(row.iter().all(|p| (p - 1.0 / n as f64).abs() < 1e-12), "{row:?}");
        }
    }
}

#[test]
fn the_ladders_pick_counts_are_the_enumerated_ones_at_reduced_widths() {
    for width in 3..=12u32 {
        for m in 2..=30u64 {
            let mut counts = vec![0u64; usize::try_from(m).unwrap()];
            for v in 0..(1u64 << width) {
                counts[usize::try_from((v * m) >> width).unwrap()] += 1;
            }
            assert_eq!(certify::pick_counts(m, width), counts, "width {width}, m {m}");
        }
    }
}

#[test]
fn the_ladders_pick_changes_exactly_at_the_certified_boundaries_at_full_width() {
    // ladder::pick is monotone in v: if it moves from t − 1 to t exactly
    // where the counts say, the counts are its exact distribution over 2^32.
    for i in 1..100usize {
        let counts = certify::pick_counts(i as u64 + 1, 32);
        assert_eq!(counts.iter().sum::<u64>(), 1 << 32);
        let mut start = 0u64;
        for (t, c) in counts.iter().enumerate() {
            let v = u32::try_from(start).unwrap();
            assert_eq!(provably::schemes::ladder::pick(v, i), t, "i {i}: v {v}");
            if t > 0 {
                assert_eq!(provably::schemes::ladder::pick(v - 1, i), t - 1, "i {i}: v {}", v - 1);
            }
            start += c;
        }
        assert_eq!(provably::schemes::ladder::pick(u32::MAX, i), i);
    }
}

#[test]
fn the_shuffle_marginals_equal_enumerating_every_word_sequence() {
    for (n, width) in [(3usize, 4u32), (4, 3), (5, 3), (4, 4)] {
        let words = 1u64 << width;
        let pick = |v: u64, i: usize| usize::try_from((v * (i as u64 + 1)) >> width).unwrap();
        let shuffles = all_shuffles(n, words, &pick);
        let draw = |i: usize| {
            certify::pick_counts(i as u64 + 1, width)
                .into_iter()
                .map(|c| c as f64 / words as f64)
                .collect::<Vec<_>>()
        };
        let marginals = certify::shuffle_marginals(n, &draw);
        for (k, row) in marginals.iter().enumerate() {
            for (v, p) in row.iter().enumerate() {
                let hits = shuffles.iter().filter(|o| o[k] == v).count();
                let want = hits as f64 / shuffles.len() as f64;
                assert!((p - want).abs() < 1e-12, "n {n} width {width}: P(order[{k}] = {v})");
            }
        }
    }
}

#[test]
fn the_cut_parameters_are_the_schemes_and_the_distribution_is_every_index_byte_enumerated() {
    for decks in 1..=8usize {
        for pen in [0.01, 0.25, 0.5, 0.51, 0.625, 0.75, 0.8, 0.9, 0.95, 0.99] {
            let (_, cut) = provably::schemes::shoe::deal_traced("s", "c", 1, decks, pen);
            let (base, spread, low, high) = certify::cut_parameters(decks, pen);
            assert_eq!(
                (cut.base, cut.spread, cut.low, cut.high),
                (base, spread, low, high),
                "{decks} decks, {pen}"
            );
            // index(2s + 1) reads one byte (2s + 1 ≤ 17) and rejects at the limit.
            let m = u64::try_from(2 * spread + 1).unwrap();
            let limit = u64::try_from(certify::limit(m, 8)).unwrap();
            let mut hist = BTreeMap::new();
            for byte in (0..256u64).filter(|&b| b < limit) {
                let offset = i64::try_from(byte % m).unwrap() - spread;
                *hist.entry((base + offset).clamp(low, high)).or_insert(0u64) += 1;
            }
            let d = certify::cut_distribution(decks, pen);
            let accepted: u64 = hist.values().sum();
            for (i, p) in d.probabilities().iter().enumerate() {
                let at = i64::try_from(d.low + i).unwrap();
                let want = hist.get(&at).copied().unwrap_or(0) as f64 / accepted as f64;
                assert!((p - want).abs() < 1e-15, "{decks} decks, {pen}: cut {at}");
            }
            assert_eq!(hist.keys().next().copied(), Some(i64::try_from(d.low).unwrap()));
        }
    }
}

#[test]
fn the_bins_of_cursor_int_are_its_values_counted() {
    for range in (2..=300u64).chain([1000, 4097, 65_537, 1_000_003]) {
        let mut counts = vec![0u64; usize::try_from(range.min(provably::schemes::cursor::stats::BINS)).unwrap()];
        for v in 0..range {
            counts[usize::try_from(certify::int_bin(v, range)).unwrap()] += 1;
        }
        let want: Vec<f64> = counts.iter().map(|&c| c as f64 / range as f64).collect();
        let got = certify::int_bins(range);
        assert!(
            got.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-15),
            "range {range}"
        );
    }
}

#[test]
fn the_published_tables_are_the_ones_the_code_computes() {
    let doc = std::fs::read_to_string(root().join("docs/statistics.md")).unwrap();
    assert!(
        doc.contains(&certify::table()),
        "docs/statistics.md: run `provably certify --power` and paste"
    );
    assert!(
        doc.contains(&power::table(provably::stats::DEFAULT_LEVEL)),
        "docs/statistics.md: the power table"
    );
    let out = duct::cmd(bin(), ["certify", "--power"]).read().unwrap();
    assert!(out.contains(&certify::table()) && out.contains("Rounds for power"));
}

// ---------------------------------------------------------------- calibration

pub(crate) fn derive(req: &Value) -> (Request, Value) {
    let r = provably::registry::parse(req).unwrap();
    let ok = r.run_value().unwrap();
    (r, ok)
}

/// An honest dice archive: `games` games of ten dice, each its own seed.
fn honest_dice(c: &mut Collector, archive: u64, games: u64) {
    for g in 0..games {
        let seed = format!("honest-{archive}-{g}");
        for n in 0..10 {
            let (r, ok) = derive(&json!({"op": "dice.roll", "serverSeed": seed, "clientSeed": "a:b", "n": n}));
            c.add(g, &r, &ok);
        }
    }
}

/// How many honest archives the calibration tests audit: 200 (dice) and 40
/// (shoes) in CI; `PROVABLY_CALIBRATION=N` runs N of each for the figure in
/// docs/statistics.md (`--nocapture` prints it).
pub(crate) fn calibration(default: u64) -> u64 {
    std::env::var("PROVABLY_CALIBRATION")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The most alarms `archives` honest ones may raise at `level`: the mean
/// plus four standard deviations of the binomial.
pub(crate) fn alarm_bound(archives: u64, level: f64) -> usize {
    let n = archives as f64;
    (n * level + 4.0 * (n * level * (1.0 - level)).sqrt()).ceil() as usize
}

/// The smallest p-value times the number of tests: an archive raises the
/// alarm at level α exactly when this is at most α (Holm's first step).
pub(crate) fn adjusted_min_p(s: &provably::stats::Statistics) -> f64 {
    s.smallest().map_or(1.0, |t| t.p_value * s.tests.len() as f64)
}

#[test]
fn honest_dice_archives_raise_the_alarm_at_most_at_the_family_wise_level() {
    let (archives, level) = (calibration(200), 0.05);
    let mut adjusted = Vec::new();
    let (mut small, mut all) = (0usize, 0usize);
    for a in 0..archives {
        let mut c = Collector::default();
        honest_dice(&mut c, a, 120);
        let s = evaluate(&c, level);
        assert_eq!(s.alarm, adjusted_min_p(&s) <= level);
        adjusted.push(adjusted_min_p(&s));
        small += s.tests.iter().filter(|t| t.p_value <= 0.05).count();
        all += s.tests.len();
    }
    for alpha in [0.05, 0.01, 0.001] {
        let alarms = adjusted.iter().filter(|&&p| p <= alpha).count();
        eprintln!(
            "calibration: {alarms} alarms in {archives} honest dice archives of 1,200 dice at family-wise {alpha}"
        );
        // Holm keeps the alarm rate at most α.
        assert!(
            alarms <= alarm_bound(archives, alpha),
            "{alarms} alarms in {archives} honest archives at level {alpha}"
        );
    }
    eprintln!("calibration: {small} of {all} single p-values ≤ 0.05");
    let rate = small as f64 / all as f64;
    assert!((0.03..=0.07).contains(&rate), "{rate} of single p-values ≤ 0.05");
}

#[test]
fn honest_shoe_archives_raise_the_alarm_at_most_at_the_family_wise_level() {
    let (archives, level) = (calibration(40), 0.05);
    let mut adjusted = Vec::new();
    for a in 0..archives {
        let mut c = Collector::default();
        let seed = format!("shoes-{a}");
        for nonce in 0..260 {
            let req = json!({"op": "shoe.deal", "serverSeed": seed, "clientSeed": "c", "nonce": nonce, "decks": 1, "penetration": 0.5});
            let (r, ok) = derive(&req);
            c.add(0, &r, &ok);
        }
        let s = evaluate(&c, level);
        assert!(s.tests.len() > 100, "{} tests", s.tests.len());
        adjusted.push(adjusted_min_p(&s));
    }
    for alpha in [0.05, 0.01, 0.001] {
        let alarms = adjusted.iter().filter(|&&p| p <= alpha).count();
        eprintln!(
            "calibration: {alarms} alarms in {archives} honest archives of 260 one-deck shoes at family-wise {alpha}"
        );
        assert!(
            alarms <= alarm_bound(archives, alpha),
            "{alarms} alarms in {archives} honest shoe archives at level {alpha}"
        );
    }
}

#[test]
fn an_assumed_uniform_cut_card_would_call_honest_shoes_ground() {
    // At penetration 0.5 the lower clamp holds 7 of the 13 offsets: a test
    // against a uniform cut over its support rejects honest shoes.
    let mut c = Collector::default();
    for nonce in 0..400 {
        let req = json!({"op": "shoe.deal", "serverSeed": "s", "clientSeed": "c", "nonce": nonce, "decks": 6, "penetration": 0.5});
        let (r, ok) = derive(&req);
        c.add(0, &r, &ok);
    }
    let key = *c.tables.keys().next().unwrap();
    let table = &c.tables[&key];
    let layout = model::layout(key);
    let cut = layout.tests.len() - 1;
    let exact = provably::stats::chi_square(table.test(cut), &layout.tests[cut].1).unwrap();
    let cells = layout.tests[cut].1.len();
    let uniform = provably::stats::chi_square(table.test(cut), &vec![1.0 / cells as f64; cells]).unwrap();
    assert!(exact.2 > 1e-3, "exact: {exact:?}");
    assert!(uniform.2 < 1e-20, "uniform: {uniform:?}");
}

#[test]
fn the_tables_do_not_grow_with_the_archive() {
    let size = |games| {
        let mut c = Collector::default();
        honest_dice(&mut c, 0, games);
        c.tables.values().map(|t| t.counts.len() + t.pairs.len()).sum::<usize>()
    };
    assert_eq!(size(3), size(300));
}

// ---------------------------------------------------------------- ground archives, through `provably serve`

/// Sends request lines to `provably serve` and returns the `ok` objects by id.
pub(crate) fn serve(requests: &[Value]) -> Vec<Value> {
    let mut input = String::new();
    for (id, r) in requests.iter().enumerate() {
        let mut r = r.clone();
        r["id"] = json!(id);
        input.push_str(&r.to_string());
        input.push('\n');
    }
    let out = duct::cmd(bin(), ["serve"]).stdin_bytes(input).read().unwrap();
    let mut answers = vec![Value::Null; requests.len()];
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let id = usize::try_from(v["id"].as_u64().unwrap()).unwrap();
        answers[id] = v["ok"].clone();
    }
    assert!(answers.iter().all(Value::is_object), "serve answered every request");
    answers
}

/// The epochs of an archive: (server seed, its rounds' requests, their ok objects).
pub(crate) type Epoch = (String, Vec<Value>, Vec<Value>);

/// Writes a JSON-lines archive, each epoch committed with serve's own `cursor.hash`.
pub(crate) fn write_archive(path: &Path, epochs: &[Epoch]) {
    let hashes = serve(
        &epochs
            .iter()
            .map(|(s, _, _)| json!({"op": "cursor.hash", "serverSeed": s}))
            .collect::<Vec<_>>(),
    );
    let mut text = String::new();
    for ((seed, reqs, oks), h) in epochs.iter().zip(hashes) {
        let rounds: Vec<Value> = reqs
            .iter()
            .zip(oks)
            .map(|(r, ok)| {
                let mut r = r.clone();
                r.as_object_mut().unwrap().remove("serverSeed");
                r["observed"] = ok.clone();
                r
            })
            .collect();
        text.push_str(&json!({"commit": h["hash"], "serverSeed": seed, "rounds": rounds}).to_string());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

/// Audits with --stats; returns the exit code and the report.
pub(crate) fn audit_stats(path: &Path) -> (i32, Value) {
    let report = path.with_extension("report.json");
    let args: Vec<std::ffi::OsString> = vec![
        "audit".into(),
        "--stats".into(),
        "--quiet".into(),
        "--report".into(),
        report.clone().into(),
        path.into(),
    ];
    let out = duct::cmd(bin(), args).stdout_capture().unchecked().run().unwrap();
    let code = out.status.code().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("statistics:"), "{text}");
    (
        code,
        serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap(),
    )
}

pub(crate) fn rejected(report: &Value) -> Vec<String> {
    report["statistics"]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["rejected"] == json!(true))
        .map(|t| format!("{}: {}", t["family"].as_str().unwrap(), t["name"].as_str().unwrap()))
        .collect()
}

/// Honest and ground archives from the same candidates: the honest operator
/// keeps each epoch's first candidate seed, the grinder the first whose
/// outcome `suits` (else the last).
pub(crate) fn archives(
    candidates: &[Vec<(String, Vec<Value>)>],
    suits: &dyn Fn(&[Value]) -> bool,
) -> (Vec<Epoch>, Vec<Epoch>) {
    let flat: Vec<Value> = candidates
        .iter()
        .flatten()
        .flat_map(|(_, r)| r.iter().cloned())
        .collect();
    let mut answers = serve(&flat).into_iter();
    let (mut honest, mut ground) = (Vec::new(), Vec::new());
    for epoch in candidates {
        let options: Vec<Epoch> = epoch
            .iter()
            .map(|(seed, reqs)| (seed.clone(), reqs.clone(), answers.by_ref().take(reqs.len()).collect()))
            .collect();
        honest.push(options[0].clone());
        let pick = options
            .iter()
            .find(|(_, _, oks)| suits(oks))
            .unwrap_or(&options[options.len() - 1]);
        ground.push(pick.clone());
    }
    (honest, ground)
}

#[test]
fn shoes_ground_on_their_first_card_match_every_commitment_and_raise_the_alarm() {
    // 2,000 six-deck shoes, one server seed each; two candidate seeds per shoe.
    let candidates: Vec<Vec<(String, Vec<Value>)>> = (0..2000)
        .map(|s| {
            (0..2)
                .map(|c| {
                    let seed = provably::base::crypto::sha256_hex(&format!("operator {s} candidate {c}"));
                    let req = json!({"op": "shoe.deal", "serverSeed": seed, "clientSeed": "player", "nonce": 1, "decks": 6, "penetration": 0.75});
                    (seed, vec![req])
                })
                .collect()
        })
        .collect();
    // The first card an ace or ten-valued: good for whoever holds it.
    let suits = |oks: &[Value]| "ATJQK".contains(&oks[0]["cards"][0].as_str().unwrap()[..1]);
    let (honest, ground) = archives(&candidates, &suits);
    let dir = tempfile::tempdir().unwrap();
    let (h, g) = (dir.path().join("honest.jsonl"), dir.path().join("ground.jsonl"));
    write_archive(&h, &honest);
    write_archive(&g, &ground);

    let (code, report) = audit_stats(&h);
    assert_eq!(
        (code, report["verdict"].as_str()),
        (0, Some("match")),
        "{:?}",
        rejected(&report)
    );
    assert_eq!(report["statistics"]["alarm"], json!(false));
    assert_eq!(report["commitOk"], json!(2000));

    let (code, report) = audit_stats(&g);
    assert_eq!(report["verdict"], json!("match"), "every ground round still matches");
    assert_eq!(report["commitOk"], json!(2000));
    assert_eq!(report["match"], json!(2000));
    assert_eq!(report["statistics"]["alarm"], json!(true));
    assert_eq!(code, 6, "an alarm without a mismatch");
    let r = rejected(&report);
    eprintln!("ground shoes: {} {}", report["statistics"]["tests"][0], r.len());
    assert!(
        r.contains(&"shoe.deal decks=6 penetration=0.75: rank at position 0".to_string()),
        "{r:?}"
    );

    // A mismatch takes precedence over the alarm: exit 1, the statistics still reported.
    let text = std::fs::read_to_string(&g).unwrap();
    let first = &ground[0].2[0]["cards"][5];
    let other = if first == "2S" { "3S" } else { "2S" };
    let tampered = text.replacen(&format!("{first}"), &format!("\"{other}\""), 1);
    std::fs::write(&g, tampered).unwrap();
    let (code, report) = audit_stats(&g);
    assert_eq!((code, report["verdict"].as_str()), (1, Some("mismatch")));
    assert_eq!(report["statistics"]["alarm"], json!(true));
}

#[test]
fn dice_ground_on_the_first_die_match_every_commitment_and_raise_the_alarm() {
    // 10,000 dice: 1,000 games of ten, one server seed each; two candidates per game.
    let candidates: Vec<Vec<(String, Vec<Value>)>> = (0..1000)
        .map(|g| {
            (0..2)
                .map(|c| {
                    let seed = provably::base::crypto::sha256_hex(&format!("dice operator {g} candidate {c}"));
                    let reqs = (0..10)
                        .map(|n| json!({"op": "dice.roll", "serverSeed": seed, "clientSeed": "a26460084a0ef89b:d4f28bac6efd1b6e", "n": n}))
                        .collect();
                    (seed, reqs)
                })
                .collect()
        })
        .collect();
    let suits = |oks: &[Value]| oks[0]["face"] == json!(6);
    let (honest, ground) = archives(&candidates, &suits);
    let dir = tempfile::tempdir().unwrap();
    let (h, g) = (dir.path().join("honest.jsonl"), dir.path().join("ground.jsonl"));
    write_archive(&h, &honest);
    write_archive(&g, &ground);

    let (code, report) = audit_stats(&h);
    assert_eq!(
        (code, report["verdict"].as_str()),
        (0, Some("match")),
        "{:?}",
        rejected(&report)
    );
    assert_eq!(report["statistics"]["alarm"], json!(false));
    assert_eq!(report["statistics"]["rounds"], json!(10_000));

    let (code, report) = audit_stats(&g);
    assert_eq!(
        (report["verdict"].as_str(), report["match"].as_u64()),
        (Some("match"), Some(10_000))
    );
    assert_eq!(report["commitOk"], json!(1000));
    assert_eq!(code, 6);
    let r = rejected(&report);
    eprintln!("ground dice: {} {r:?}", report["statistics"]["tests"][0]);
    assert!(r.contains(&"dice.roll: face of die n=0".to_string()), "{r:?}");
    // Every test is reported with its statistic, degrees of freedom and p-value.
    let t = &report["statistics"]["tests"][0];
    for key in ["family", "name", "statistic", "df", "pValue", "rejected"] {
        assert!(t.get(key).is_some(), "{key} in {t}");
    }
    assert_eq!(report["statistics"]["level"], json!(provably::stats::DEFAULT_LEVEL));
    // The report, statistics included, is what vectors/proof.schema.json says.
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("vectors/proof.schema.json")).unwrap()).unwrap();
    let mut report_schema = schema["$defs"]["report"].clone();
    report_schema["$defs"] = schema["$defs"].clone();
    let validator = jsonschema::validator_for(&report_schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&report).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn serial_pairs_are_counted_across_the_audits_batches_in_document_order() {
    // One epoch of 1,000 dice in a row: the audit's reader cuts it into
    // batches of 256 rounds, and workers count batches in any order.
    let seed = provably::base::crypto::sha256_hex("one seed, many dice");
    let reqs: Vec<Value> = (0..1000)
        .map(|n| json!({"op": "dice.roll", "serverSeed": seed, "clientSeed": "c", "n": n}))
        .collect();
    let oks = serve(&reqs);
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("dice.jsonl");
    write_archive(&lines, &[(seed, reqs, oks)]);
    // As a document: its rounds are cut into batches (a JSON line is one job).
    let epochs: Vec<String> = std::fs::read_to_string(&lines)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let path = dir.path().join("dice.json");
    std::fs::write(&path, format!("{{\"proof\": 1, \"epochs\": [{}]}}", epochs.join(","))).unwrap();
    let (code, report) = audit_stats(&path);
    assert_eq!(code, 0, "{:?}", rejected(&report));
    let pairs: Vec<u64> = report["statistics"]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["name"] == json!("serial pairs along nonces"))
        .map(|t| t["n"].as_u64().unwrap())
        .collect();
    assert_eq!(pairs, [999], "every consecutive pair once, none lost at a batch edge");
}

/// The statistics of `texts` (files) audited one after the other, in batches of `batch_rounds` rounds.
fn statistics_in_batches(texts: &[&str], batch_rounds: usize) -> provably::stats::Statistics {
    let options = provably::proof::Options {
        jobs: 2,
        batch_rounds,
        stats: true,
        ..provably::proof::Options::default()
    };
    let mut audit = provably::proof::run::Audit::new(&options);
    for (i, text) in texts.iter().enumerate() {
        audit.file(i, text.as_bytes(), &mut |_| Ok(())).unwrap();
    }
    audit.statistics(provably::stats::DEFAULT_LEVEL).unwrap()
}

/// A document of one seed's dice n in `range`.
fn dice_document(seed: &str, range: std::ops::Range<u64>) -> String {
    let rounds: Vec<Value> = range
        .map(|n| {
            let (_, ok) = derive(&json!({"op": "dice.roll", "serverSeed": seed, "clientSeed": "c", "n": n}));
            json!({"op": "dice.roll", "clientSeed": "c", "n": n, "observed": ok})
        })
        .collect();
    json!({"proof": 1, "epochs": [{"serverSeed": seed, "rounds": rounds}]}).to_string()
}

#[test]
fn serial_pairs_across_the_audits_batches_count_as_in_one_pass() {
    // One seed, 1,500 dice along n in one document: the audit cuts its rounds
    // into batches; every one of the 1,499 consecutive pairs still counts,
    // whatever the batch size (and the page, which counts in one pass,
    // reference/js/stats/, reports the same).
    let text = dice_document("one long game", 0..1500);
    let pairs = |s: &provably::stats::Statistics| {
        s.tests
            .iter()
            .find(|t| t.name == "serial pairs along nonces")
            .map(|t| t.n)
    };
    let whole = statistics_in_batches(&[&text], 1 << 20);
    assert_eq!(pairs(&whole), Some(1499));
    for batch in [1, 7, 256] {
        let s = statistics_in_batches(&[&text], batch);
        assert_eq!(s, whole, "batches of {batch} rounds");
    }
    // Two files: the second's first die does not continue the first's last.
    let (a, b) = (
        dice_document("one long game", 0..750),
        dice_document("one long game", 750..1500),
    );
    for batch in [1, 256] {
        assert_eq!(
            pairs(&statistics_in_batches(&[&a, &b], batch)),
            Some(1498),
            "batches of {batch}"
        );
    }
}

#[test]
fn the_families_that_get_tables_are_the_smallest_whatever_the_order_or_the_batches() {
    // 63 families (cursor.int ranges 2 … 64), range 200 five times and range
    // 100 once: 65 families for 64 tables. The smallest keys keep them
    // (ranges 2 … 64 and 100), in any order of the rounds and any cut into
    // batches, so range 200's five rounds are the untested ones and one
    // family is past the cap. Which rounds come first decides nothing, so
    // an operator cannot push a family out by putting decoys ahead of it.
    let seed = "many families";
    let mut ranges: Vec<u64> = (2..=64u64).collect();
    ranges.extend([200; 5]);
    ranges.push(100);
    let document = |ranges: &[u64]| {
        let rounds: Vec<Value> = ranges
            .iter()
            .enumerate()
            .map(|(nonce, range)| {
                let req = json!({"op": "cursor.int", "serverSeed": seed, "clientSeed": "c", "nonce": nonce, "cursor": 0, "range": range});
                let (_, ok) = derive(&req);
                json!({"op": "cursor.int", "clientSeed": "c", "nonce": nonce, "cursor": 0, "range": range, "observed": ok})
            })
            .collect();
        json!({"proof": 1, "epochs": [{"serverSeed": seed, "rounds": rounds}]}).to_string()
    };
    let mut reversed = ranges.clone();
    reversed.reverse();
    for order in [&ranges, &reversed] {
        let text = document(order);
        for batch in [1, 63, 1 << 20] {
            let s = statistics_in_batches(&[&text], batch);
            assert_eq!(
                (s.rounds, s.untested, s.past_cap),
                (64, 5, 1),
                "batches of {batch} rounds"
            );
            assert!(
                s.line().contains("NOT TESTED: 1 configuration(s) past the cap"),
                "{}",
                s.line()
            );
        }
    }
}

/// The statistics of one text over several worker counts and batch sizes:
/// all the same, or the test fails naming the two that differ.
fn statistics_every_way(text: &str) -> provably::stats::Statistics {
    let mut seen: Option<(String, provably::stats::Statistics)> = None;
    for jobs in [1, 2, 7] {
        for batch_rounds in [1, 256, 1 << 20] {
            let options = provably::proof::Options {
                jobs,
                batch_rounds,
                stats: true,
                ..provably::proof::Options::default()
            };
            let mut audit = provably::proof::run::Audit::new(&options);
            audit.file(0, text.as_bytes(), &mut |_| Ok(())).unwrap();
            let s = audit.statistics(provably::stats::DEFAULT_LEVEL).unwrap();
            let how = format!("--jobs {jobs}, batches of {batch_rounds}");
            match &seen {
                Some((first, want)) => assert_eq!(&s, want, "{how} against {first}"),
                None => seen = Some((how, s)),
            }
        }
    }
    seen.unwrap().1
}

#[test]
fn decoy_configurations_in_every_batch_hide_no_ground_family() {
    // The repro of a family cap decided per batch: one epoch of cursor.int,
    // one round of range 2, 255 decoys over 64 other ranges, then six times
    // 64 decoys and 192 ground rounds of range 2 (nonces whose value is 0).
    // Batches of 256 rounds used to fill each batch's 64 tables with decoys
    // first and drop the ground rounds ("no alarm" as a document, "ALARM"
    // as one JSON line). Now: the same alarm every way it is read.
    let seed = "decoys";
    let round = |nonce: u64, range: u64| {
        let req = json!({"op": "cursor.int", "serverSeed": seed, "clientSeed": "c", "nonce": nonce, "cursor": 0, "range": range});
        let (_, ok) = derive(&req);
        (
            ok["value"].as_u64().unwrap(),
            json!({"op": "cursor.int", "clientSeed": "c", "nonce": nonce, "cursor": 0, "range": range, "observed": ok}),
        )
    };
    let mut nonce = 0u64;
    let mut next = || {
        nonce += 1;
        nonce
    };
    let mut rounds = vec![round(next(), 2).1];
    let decoy = |i: u64| 3 + i % 64;
    rounds.extend((0..255).map(|i| round(next(), decoy(i)).1));
    for _ in 0..6 {
        rounds.extend((0..64).map(|i| round(next(), decoy(i)).1));
        let mut ground = 0;
        while ground < 192 {
            let (value, r) = round(next(), 2);
            if value == 0 {
                rounds.push(r);
                ground += 1;
            }
        }
    }
    let epoch = json!({"serverSeed": seed, "rounds": rounds});
    let document = json!({"proof": 1, "epochs": [epoch]}).to_string();
    let line = format!("{epoch}\n");
    let s = statistics_every_way(&document);
    assert_eq!(
        s,
        statistics_every_way(&line),
        "a document and its epoch as a JSON line"
    );
    assert!(s.alarm, "{}", s.line());
    assert!(
        s.rejected().any(|t| t.family == "cursor.int range=2"),
        "{:?}",
        s.rejected().map(|t| &t.family).collect::<Vec<_>>()
    );
}
