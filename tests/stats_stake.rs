//! `audit --stats` over Stake's games: each game's exact law
//! checked against enumeration or against the game's own function at every
//! boundary, honest bet histories that raise no alarm, and histories ground
//! on one feature (Limbo's multiplier, a mine on one tile) that raise it
//! while every bet still matches its committed seed.

// Counts and probabilities: every cast is of a count far below 2^52.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "counts, rolls and draws far below 2^52"
)]

use serde_json::{json, Value};

use provably::schemes::stake::stats as stake;
use provably::stats::{collect::Collector, evaluate, model};

use crate::stats::{adjusted_min_p, alarm_bound, archives, audit_stats, calibration, derive, rejected, write_archive};

#[test]
fn plinko_bucket_laws_are_every_path_of_every_row_count_enumerated() {
    for rows in 8..=16u64 {
        let law = stake::plinko_law(rows);
        let mut counts = vec![0u64; law.len()];
        for path in 0..1u64 << rows {
            counts[stake::plinko_cell(u64::from(path.count_ones()), rows)] += 1;
        }
        let enumerated: Vec<f64> = counts.iter().map(|&c| c as f64 / (1u64 << rows) as f64).collect();
        assert_eq!(law, enumerated, "rows {rows}");
        // The pooled edges hold at least 1 % a side.
        assert!(law[0] >= 0.01 && law[law.len() - 1] >= 0.01, "rows {rows}: {law:?}");
    }
}

#[test]
fn the_multiplier_cells_begin_exactly_where_limbo_and_crash_cross_each_threshold() {
    for (name, game) in [
        ("limbo", &stake::limbo_of as &dyn Fn(u32) -> f64),
        ("crash", &stake::crash_of),
    ] {
        // Non-increasing along the words: a stride through all of them, and
        // every word near each boundary.
        let mut last = f64::INFINITY;
        for w in (0..1u64 << 32).step_by(4099) {
            let m = game(u32::try_from(w).unwrap());
            assert!(m <= last, "{name} increases at word {w}");
            last = m;
        }
        for &x in &stake::THRESHOLDS {
            let u = stake::words_reaching(x, game);
            assert!(u > 0 && u < 1 << 32, "{name} {x}");
            let (before, at) = (u32::try_from(u - 1).unwrap(), u32::try_from(u).unwrap());
            assert!(game(before) >= x && game(at) < x, "{name}: word {u} is where {x} ends");
            for w in u.saturating_sub(300)..(u + 300).min(1 << 32) {
                let m = game(u32::try_from(w).unwrap());
                assert_eq!(m >= x, w < u, "{name} word {w} against {x}");
            }
        }
        let law = stake::multiplier_law(game);
        assert_eq!(law.len(), stake::THRESHOLDS.len() + 1);
        assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{name}: {law:?}");
    }
    // The cell of a bet is the one its word's multiplier falls in.
    for w in [0u32, 1, 99, 1 << 20, 1 << 31, u32::MAX - 1, u32::MAX] {
        let cell = stake::multiplier_cell(stake::limbo_of(w));
        let reach = |j: usize| stake::words_reaching(stake::THRESHOLDS[j], &stake::limbo_of);
        assert!(cell == 0 || u64::from(w) < reach(cell - 1));
        assert!(cell == stake::THRESHOLDS.len() || u64::from(w) >= reach(cell));
    }
}

#[test]
fn the_baccarat_winner_law_over_values_equals_the_one_over_every_rank() {
    // Another grouping of the same cards: 13 ranks instead of 10 values.
    let cards = provably::op::stats::pick_law(52);
    let rank: Vec<f64> = (0..13).map(|r| cards[4 * r..4 * r + 4].iter().sum()).collect();
    let mut law = [0.0f64; 3];
    let mut digits = [0usize; 6];
    for code in 0..13usize.pow(6) {
        let mut rest = code;
        for d in digits.iter_mut().rev() {
            *d = rest % 13;
            rest /= 13;
        }
        let p: f64 = digits.iter().map(|&d| rank[d]).product();
        let coup = provably::schemes::stake::baccarat(digits.iter().map(|&d| u8::try_from(4 * d).unwrap()).collect());
        law[["player", "banker", "tie"]
            .iter()
            .position(|w| *w == coup.winner)
            .unwrap()] += p;
    }
    let values = stake::baccarat_law();
    // A million terms summed in two orders: equal to the rounding of the sums.
    for (a, b) in values.iter().zip(law) {
        assert!((a - b).abs() < 1e-10, "{values:?} against {law:?}");
    }
    // Near the eight-deck odds (Wizard of Odds' baccarat page: banker 45.86 %,
    // player 44.62 %, tie 9.52 %); cards drawn with replacement are an endless shoe.
    assert!(
        (values[1] - 0.4586).abs() < 0.0005 && (values[0] - 0.4462).abs() < 0.0005,
        "{values:?}"
    );
}

#[test]
fn a_dice_roll_names_its_event_and_the_bins_are_its_words_counted() {
    let words = provably::stats::certify::pick_counts(10_001, 32);
    let law = model::layout(model::Key::of("stake.dice", 0, 0).unwrap()).tests[0]
        .1
        .clone();
    let mut bins = [0u64; 16];
    for (k, w) in words.iter().enumerate() {
        let k = k as u64;
        // The roll as the op answers it maps back to its event.
        let roll = provably::schemes::stake::dice(provably::schemes::stake::float_of(
            u32::try_from((u128::from(k) << 32).div_ceil(10_001)).unwrap(),
        ));
        assert_eq!((roll * 100.0).round() as u64, k);
        bins[usize::try_from(stake::dice_bin(k)).unwrap()] += w;
    }
    let counted: Vec<f64> = bins.iter().map(|&w| w as f64 / 4_294_967_296.0).collect();
    assert_eq!(law, counted);
}

/// A bet of `op` with the given seeds and extra fields.
fn bet(op: &str, seed: &str, nonce: u64, extra: &Value) -> Value {
    let mut v = json!({"op": op, "serverSeed": seed, "clientSeed": "player", "nonce": nonce});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

/// One configuration of every stake game with tests.
fn games() -> Vec<(&'static str, Value)> {
    vec![
        ("stake.floats", json!({"count": 3})),
        ("stake.dice", json!({})),
        ("stake.limbo", json!({})),
        ("stake.plinko", json!({"rows": 16, "risk": "high"})),
        ("stake.roulette", json!({})),
        ("stake.wheel", json!({"segments": 10, "risk": "low"})),
        ("stake.keno", json!({})),
        ("stake.mines", json!({"mines": 3})),
        ("stake.hilo", json!({})),
        ("stake.blackjack", json!({})),
        ("stake.baccarat", json!({})),
        ("stake.videopoker", json!({})),
        ("stake.diamonds", json!({})),
    ]
}

#[test]
fn the_pick_of_every_draw_is_the_floats_own_event() {
    for (op, extra, n, field, first) in [
        ("stake.keno", json!({}), 40u64, "hits", 1u64),
        ("stake.mines", json!({"mines": 24}), 25, "mines", 0),
        ("stake.videopoker", json!({}), 52, "cards", 0),
    ] {
        for nonce in 0..20 {
            let (req, ok) = derive(&bet(op, "picks", nonce, &extra));
            let (_, floats) = derive(
                &json!({"op": "stake.floats", "serverSeed": "picks", "clientSeed": "player", "nonce": nonce, "count": 24}),
            );
            let key = model::key_of(&req).unwrap();
            let mut cells = Vec::new();
            model::sample(key, &req, &ok, &mut cells).unwrap();
            assert!(!cells.is_empty(), "{op}");
            for (t, c) in cells {
                let f = floats["floats"][t as usize].as_f64().unwrap();
                let left = n - u64::from(t);
                assert_eq!(u64::from(c), (f * left as f64).floor() as u64, "{op} draw {t}");
            }
            assert!(ok[field][0].as_u64().unwrap() >= first);
        }
    }
}

#[test]
fn honest_stake_histories_raise_the_alarm_at_most_at_the_family_wise_level() {
    let (archives_n, level) = (calibration(30), 0.05);
    let mut adjusted = Vec::new();
    for a in 0..archives_n {
        let mut c = Collector::default();
        for (op, extra) in games() {
            let seed = format!("stake-honest-{a}-{op}");
            for nonce in 0..300 {
                let (r, ok) = derive(&bet(op, &seed, nonce, &extra));
                c.add(0, &r, &ok);
            }
        }
        let s = evaluate(&c, level);
        assert!(s.tests.len() > 100, "{} tests", s.tests.len());
        assert_eq!(s.untested, 0);
        adjusted.push(adjusted_min_p(&s));
    }
    for alpha in [0.05, 0.01, 0.001] {
        let alarms = adjusted.iter().filter(|&&p| p <= alpha).count();
        eprintln!("calibration: {alarms} alarms in {archives_n} honest stake histories at family-wise {alpha}");
        assert!(alarms <= alarm_bound(archives_n, alpha), "{alarms} alarms at {alpha}");
    }
}

/// A history of one bet per seed pair, three candidate server seeds each:
/// the honest operator keeps the first, the grinder the first that `suits`.
fn ground_history(op: &str, extra: &Value, pairs: u64, suits: &dyn Fn(&[Value]) -> bool) -> (Value, Value, i32) {
    let candidates: Vec<Vec<(String, Vec<Value>)>> = (0..pairs)
        .map(|p| {
            (0..3)
                .map(|c| {
                    let seed = provably::base::crypto::sha256_hex(&format!("{op} operator {p} candidate {c}"));
                    let req = bet(op, &seed, 0, extra);
                    (seed, vec![req])
                })
                .collect()
        })
        .collect();
    let (honest, ground) = archives(&candidates, suits);
    let dir = tempfile::tempdir().unwrap();
    let (h, g) = (dir.path().join("honest.jsonl"), dir.path().join("ground.jsonl"));
    write_archive(&h, &honest);
    write_archive(&g, &ground);
    let (code, honest) = audit_stats(&h);
    assert_eq!(
        (code, honest["verdict"].as_str()),
        (0, Some("match")),
        "{op}: {:?}",
        rejected(&honest)
    );
    let (code, ground) = audit_stats(&g);
    assert_eq!(
        ground["verdict"],
        json!("match"),
        "{op}: every ground bet still matches"
    );
    assert_eq!(ground["commitOk"], json!(pairs));
    (honest, ground, code)
}

#[test]
fn limbo_ground_on_low_multipliers_matches_every_commitment_and_raises_the_alarm() {
    let low = |oks: &[Value]| oks[0]["multiplier"].as_f64().unwrap() < 2.0;
    let (honest, ground, code) = ground_history("stake.limbo", &json!({}), 2000, &low);
    assert_eq!(honest["statistics"]["alarm"], json!(false));
    assert_eq!(code, 6, "an alarm without a mismatch");
    let r = rejected(&ground);
    assert!(
        r.contains(&"stake.limbo: multiplier in cells from 1.05 to 25".to_string()),
        "{r:?}"
    );
}

#[test]
fn mines_ground_on_one_tile_match_every_commitment_and_raise_the_alarm() {
    // The player always opens tile 12 first: the grinder wants a mine there.
    let mine = |oks: &[Value]| oks[0]["mines"].as_array().unwrap().contains(&json!(12));
    let (honest, ground, code) = ground_history("stake.mines", &json!({"mines": 3}), 2000, &mine);
    assert_eq!(honest["statistics"]["alarm"], json!(false));
    assert_eq!(code, 6, "an alarm without a mismatch");
    let r = rejected(&ground);
    assert!(
        r.iter().any(|t| t.starts_with("stake.mines mines=3: pick at draw")),
        "{r:?}"
    );
}
