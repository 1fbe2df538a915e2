//! What each op's outcome is, for the statistics: which tests its rounds
//! feed (one categorical table per feature), and the exact probability of
//! every cell under the scheme with uniform HMAC output (the certificates of
//! [`super::certify`]).
//!
//! | op | family (one per configuration) | tests |
//! |---|---|---|
//! | `shoe.deal`, `shoe.tournament` | decks, penetration | rank (13) and suit (4) at every position; the cut card's position (its exact clamped distribution); serial on the first card's rank |
//! | `dice.roll` | — | the face at each die index n < 16; the face over all dice; serial on the face along n |
//! | `ladder.shuffle` | size 2 … 64 | the entry in each case, exact from ⌊r·(i+1)⌋ (not uniform) |
//! | `cursor.shuffle` | count 2 … 64 | the value at each position |
//! | `poker.deal` | players | rank and suit of every dealt card (hole cards, board); serial on seat 0's first card |
//! | `selfpoker.deck` | — | value (13) and suit (4) at every position |
//! | `cursor.int` | range | the value (range ≤ 16) or 16 bins of ⌊v·16/range⌋ (exact counts); serial along nonces |
//! | `cursor.float` | — | 16 bins of ⌊f·16⌋ (exact: 16 divides 2³²); serial along nonces |
//! | `stake.*` | per game | [`super::stake`]: each game event ⌊f·m⌋ with its exact law |
//!
//! The other ops carry no outcome to test: commitments, `cursor.raw` and
//! `shoe.stream` (bytes, not a game), `poker.evaluate` and
//! `blackjack.strategy` (no randomness), `stake.crash.chain` (a distance).
//!
//! A family's layout depends only on its [`Key`]; a round adds one count to
//! one cell of each of its tests, so the tables have a fixed size.

use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::Value;

use super::certify;
use crate::op::{Arg, Request};
use crate::schemes::shoe;

/// A family of tests: an op and the parameters its outcome's shape depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub op: &'static str,
    pub a: u64,
    pub b: u64,
}

/// The largest ladder or `cursor.shuffle` whose positions are tested.
pub(crate) const MAX_SHUFFLE: u64 = 64;
/// Dice indices n below this have a table each.
pub(crate) const DICE_INDICES: u64 = 16;
/// Bins of `cursor.int` with a large range and of `cursor.float`.
pub const BINS: u64 = 16;

/// A family's tests: names and the exact probability of every cell.
#[derive(Debug, Clone)]
pub struct Layout {
    pub label: String,
    pub tests: Vec<(String, Vec<f64>)>,
    /// The marginal of the value the serial tests follow along nonces.
    pub serial: Option<Vec<f64>>,
}

/// The serial part of a sample: which sequence the round is in, its place
/// in it, and the value followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub stream: u64,
    pub index: u64,
    pub value: u16,
}

pub(crate) fn int(req: &Request, name: &str) -> Option<u64> {
    match req.get(name)? {
        Arg::Int(v) | Arg::Seed(v) => Some(*v),
        _ => None,
    }
}

fn text<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    match req.get(name)? {
        Arg::Text(s) => Some(s),
        _ => None,
    }
}

fn number(req: &Request, name: &str) -> Option<f64> {
    match req.get(name)? {
        Arg::Number(v) => Some(*v),
        _ => None,
    }
}

/// The sequence a serial step belongs to, from its parts (a client seed, a cursor).
pub(crate) fn stream_hash(parts: &[&[u8]]) -> u64 {
    let mut h = DefaultHasher::new();
    parts.hash(&mut h);
    h.finish()
}

/// The family a round belongs to, if its op has tests.
pub fn key_of(req: &Request) -> Option<Key> {
    let op = req.op();
    let key = |a, b| Some(Key { op, a, b });
    match op {
        "shoe.deal" | "shoe.tournament" => key(int(req, "decks")?, number(req, "penetration")?.to_bits()),
        "dice.roll" | "selfpoker.deck" | "cursor.float" => key(0, 0),
        "ladder.shuffle" => int(req, "size")
            .filter(|s| (2..=MAX_SHUFFLE).contains(s))
            .and_then(|s| key(s, 0)),
        "cursor.shuffle" => int(req, "count")
            .filter(|s| (2..=MAX_SHUFFLE).contains(s))
            .and_then(|s| key(s, 0)),
        "poker.deal" => key(int(req, "players")?, 0),
        "cursor.int" => int(req, "range").filter(|r| *r >= 2).and_then(|r| key(r, 0)),
        _ => super::stake::key_of(req),
    }
}

/// Whether the op's outcomes have tests in some configuration.
pub(crate) fn has_tests(op: &str) -> bool {
    matches!(
        op,
        "shoe.deal"
            | "shoe.tournament"
            | "dice.roll"
            | "selfpoker.deck"
            | "cursor.float"
            | "ladder.shuffle"
            | "cursor.shuffle"
            | "poker.deal"
            | "cursor.int"
    ) || super::stake::is_tested(op)
}

fn uniform(n: usize) -> Vec<f64> {
    #[allow(clippy::cast_precision_loss, reason = "n ≤ 416")]
    let p = 1.0 / n as f64;
    vec![p; n]
}

/// The rank and suit tests of `positions` card slots.
fn card_tests(tests: &mut Vec<(String, Vec<f64>)>, names: &[String], rank: &str, suit: &str) {
    tests.extend(names.iter().map(|n| (format!("{rank} {n}"), uniform(13))));
    tests.extend(names.iter().map(|n| (format!("{suit} {n}"), uniform(4))));
}

/// The layout of a family: every test and its exact cell probabilities.
pub fn layout(key: Key) -> Layout {
    let mut tests = Vec::new();
    let a = usize::try_from(key.a).expect("a small parameter");
    let (label, serial) = match key.op {
        "shoe.deal" | "shoe.tournament" => {
            let penetration = f64::from_bits(key.b);
            let names: Vec<String> = (0..52 * a).map(|p| format!("at position {p}")).collect();
            card_tests(&mut tests, &names, "rank", "suit");
            let cut = certify::cut_distribution(a, penetration);
            tests.push(("cut card position".into(), cut.probabilities()));
            (
                format!("{} decks={a} penetration={penetration}", key.op),
                Some(uniform(13)),
            )
        }
        "dice.roll" => {
            tests.extend((0..DICE_INDICES).map(|n| (format!("face of die n={n}"), uniform(6))));
            tests.push(("face over all dice".into(), uniform(6)));
            (key.op.to_string(), Some(uniform(6)))
        }
        "ladder.shuffle" => {
            let m = certify::shuffle_marginals(a, &certify::ladder_pick);
            tests.extend(
                m.into_iter()
                    .enumerate()
                    .map(|(k, p)| (format!("entry in case {k}"), p)),
            );
            (format!("ladder.shuffle size={a}"), None)
        }
        "cursor.shuffle" => {
            tests.extend((0..a).map(|k| (format!("value at position {k}"), uniform(a))));
            (format!("cursor.shuffle count={a}"), None)
        }
        "poker.deal" => {
            let mut names: Vec<String> = (0..a)
                .flat_map(|i| (0..2).map(move |c| format!("of seat {i} card {c}")))
                .collect();
            names.extend((0..5).map(|b| format!("of board card {b}")));
            card_tests(&mut tests, &names, "rank", "suit");
            (format!("poker.deal players={a}"), Some(uniform(13)))
        }
        "selfpoker.deck" => {
            let names: Vec<String> = (0..52).map(|p| format!("at position {p}")).collect();
            card_tests(&mut tests, &names, "value", "suit");
            (key.op.to_string(), None)
        }
        "cursor.int" => {
            let p = certify::int_bins(key.a);
            tests.push(("value".into(), p.clone()));
            (format!("cursor.int range={}", key.a), Some(p))
        }
        "cursor.float" => {
            tests.push(("value in sixteenths".into(), uniform(16)));
            (key.op.to_string(), Some(uniform(16)))
        }
        _ => return super::stake::layout(key),
    };
    Layout { label, tests, serial }
}

/// The tests and the most cells of any, without computing probabilities
/// (what a count table needs).
pub(crate) fn shape(key: Key) -> (usize, usize) {
    let a = usize::try_from(key.a).expect("a small parameter");
    match key.op {
        "shoe.deal" | "shoe.tournament" => {
            let cut = certify::cut_support(a, f64::from_bits(key.b));
            (2 * 52 * a + 1, 13.max(cut.1 - cut.0 + 1))
        }
        "dice.roll" => (usize::try_from(DICE_INDICES).expect("small") + 1, 6),
        "ladder.shuffle" | "cursor.shuffle" => (a, a),
        "poker.deal" => (2 * (2 * a + 5), 13),
        "selfpoker.deck" => (104, 13),
        "cursor.int" => (1, usize::try_from(key.a.min(BINS)).expect("small")),
        "cursor.float" => (1, 16),
        _ => super::stake::shape(key),
    }
}

fn card_label(v: &Value) -> Option<(u16, u16)> {
    let s = v.as_str()?.as_bytes();
    let (r, u) = (char::from(*s.first()?), char::from(*s.get(1)?));
    let rank = shoe::RANKS.iter().position(|&x| x == r)?;
    let suit = shoe::SUITS.iter().position(|&x| x == u)?;
    Some((u16::try_from(rank).ok()?, u16::try_from(suit).ok()?))
}

fn small(v: &Value) -> Option<u16> {
    v.as_u64().and_then(|v| u16::try_from(v).ok())
}

/// Appends (test, cell) for every test the round feeds, and returns its
/// serial step. `None` when the outcome is not of the expected shape
/// (which a derived outcome always is).
pub fn sample(key: Key, req: &Request, ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<Option<Step>> {
    let at = |t: usize| u32::try_from(t).expect("a few hundred tests");
    match key.op {
        "shoe.deal" | "shoe.tournament" => {
            let cards = ok.get("cards")?.as_array()?;
            let n = cards.len();
            let mut first = 0;
            for (p, c) in cards.iter().enumerate() {
                let (rank, suit) = card_label(c)?;
                cells.push((at(p), rank));
                cells.push((at(n + p), suit));
                if p == 0 {
                    first = rank;
                }
            }
            let a = usize::try_from(key.a).ok()?;
            let lo = certify::cut_support(a, f64::from_bits(key.b)).0;
            let cut = usize::try_from(ok.get("cut")?.as_u64()?).ok()?;
            cells.push((at(2 * n), u16::try_from(cut.checked_sub(lo)?).ok()?));
            let (stream, index) = if key.op == "shoe.deal" {
                (text(req, "clientSeed")?, int(req, "nonce")?)
            } else {
                (text(req, "tournamentId")?, int(req, "hand")?)
            };
            Some(Some(Step {
                stream: stream_hash(&[stream.as_bytes()]),
                index,
                value: first,
            }))
        }
        "dice.roll" => {
            let face = small(ok.get("face")?)?.checked_sub(1)?;
            let n = int(req, "n")?;
            if n < DICE_INDICES {
                cells.push((at(usize::try_from(n).ok()?), face));
            }
            cells.push((at(usize::try_from(DICE_INDICES).ok()?), face));
            let stream = stream_hash(&[text(req, "clientSeed")?.as_bytes()]);
            Some(Some(Step {
                stream,
                index: n,
                value: face,
            }))
        }
        _ => sample_rest(key, req, ok, cells),
    }
}

fn sample_rest(key: Key, req: &Request, ok: &Value, cells: &mut Vec<(u32, u16)>) -> Option<Option<Step>> {
    let at = |t: usize| u32::try_from(t).expect("a few hundred tests");
    let cursor_step = |value: u16| -> Option<Option<Step>> {
        let cursor = int(req, "cursor")?.to_be_bytes();
        let stream = stream_hash(&[text(req, "clientSeed")?.as_bytes(), &cursor]);
        Some(Some(Step {
            stream,
            index: int(req, "nonce")?,
            value,
        }))
    };
    match key.op {
        "ladder.shuffle" | "cursor.shuffle" => {
            for (k, v) in ok.get("order")?.as_array()?.iter().enumerate() {
                cells.push((at(k), small(v)?));
            }
            Some(None)
        }
        "poker.deal" => {
            let n = usize::try_from(key.a).ok()?;
            let mut cards = Vec::with_capacity(2 * n + 5);
            for seat in ok.get("hole")?.as_array()? {
                cards.extend(seat.as_array()?.iter().map(small));
            }
            cards.extend(ok.get("board")?.as_array()?.iter().map(small));
            let slots = cards.len();
            for (s, c) in cards.iter().enumerate() {
                let c = (*c)?;
                cells.push((at(s), c % 13));
                cells.push((at(slots + s), c / 13));
            }
            let first = cards.first().copied().flatten()? % 13;
            let stream = stream_hash(&[text(req, "clientSeed")?.as_bytes()]);
            Some(Some(Step {
                stream,
                index: int(req, "nonce")?,
                value: first,
            }))
        }
        "selfpoker.deck" => {
            for (p, c) in ok.get("deck")?.as_array()?.iter().enumerate() {
                let c = small(c)?;
                cells.push((at(p), c / 4));
                cells.push((at(52 + p), c % 4));
            }
            Some(None)
        }
        "cursor.int" => {
            let v = ok.get("value")?.as_u64()?;
            let bin = u16::try_from(certify::int_bin(v, key.a)).ok()?;
            cells.push((0, bin));
            cursor_step(bin)
        }
        "cursor.float" => {
            let f = ok.get("float")?.as_f64()?;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "0 ≤ f < 1")]
            let bin = ((f * 16.0).floor() as u16).min(15);
            cells.push((0, bin));
            cursor_step(bin)
        }
        _ => super::stake::sample(key, req, ok, cells),
    }
}
