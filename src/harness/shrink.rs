//! Shrinking a diverging request in the op's own terms: shorter seeds,
//! smaller numbers, fewer cards, simpler penetrations.
//!
//! proptest's value trees shrink one field to the end before touching the
//! next, which spends hundreds of target calls on the characters of a hex
//! seed before it ever tries a smaller count. Here every field proposes a
//! few big steps first (empty, zero, half) and the first candidate that
//! still diverges is taken; every candidate is strictly simpler than the
//! request it came from, so the loop ends. `shrink` runs that loop
//! against a live copy of the target within a budget of target calls.

use serde_json::Value;

use super::cases::Ask;
use super::compare::same_reply;
use super::driver::Driver;
use crate::op::{Field, Kind, OpSpec, Request};
use crate::protocol::Reply;

/// Simpler versions of a string: empty, halves, one character fewer, ASCII only.
fn strings(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    if chars.is_empty() {
        return out;
    }
    out.push(String::new());
    if chars.len() > 1 {
        out.push(chars[..chars.len() / 2].iter().collect());
        out.push(chars[chars.len() / 2..].iter().collect());
    }
    for i in 0..chars.len().min(24) {
        out.push(
            chars
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .map(|(_, c)| *c)
                .collect(),
        );
    }
    if !s.is_ascii() {
        out.push(chars.iter().map(|c| if c.is_ascii() { *c } else { 'a' }).collect());
    }
    out
}

/// Smaller integers down to `min`: the minimum, halfway, one less.
fn ints(v: u64, min: u64) -> Vec<u64> {
    if v <= min {
        return Vec::new();
    }
    let mut out = vec![min, min + (v - min) / 2, v - (v - min) / 4, v - 1];
    out.dedup();
    out.retain(|&x| x < v);
    out
}

fn significant_bits(p: f64) -> u32 {
    let bits = p.to_bits() & ((1 << 52) - 1);
    if bits == 0 {
        0
    } else {
        52 - bits.trailing_zeros()
    }
}

/// Penetrations with fewer significant bits: 1/2, then p rounded to k binary digits.
fn penetrations(p: f64) -> Vec<f64> {
    let mine = significant_bits(p);
    let mut out = vec![0.5];
    for k in 1..=12 {
        let scale = f64::from(1u32 << k);
        out.push((p * scale).round() / scale);
    }
    out.retain(|&q| q > 0.0 && q < 1.0 && q != p && significant_bits(q) < mine);
    out
}

/// The order fields are shrunk in: the sizes that decide how much work a
/// case is first, then the numbers that pick it, then the text, the
/// committed secret last.
fn priority(op: &OpSpec, f: &Field) -> u8 {
    match f.kind {
        Kind::Int { size: true, .. } => 0,
        Kind::Cards { .. } => 1,
        Kind::Fraction => 2,
        Kind::DecimalSeed => 3,
        Kind::Int { size: false, .. } => 4,
        Kind::Bool | Kind::Word(_) | Kind::Hex64 => 5,
        Kind::Text if op.secret.is_some_and(|s| s.field == f.name) => 7,
        Kind::Text => 6,
    }
}

/// Simpler values for one field of the request's JSON form.
fn field_candidates(kind: Kind, value: &Value) -> Vec<Value> {
    match (kind, value) {
        (Kind::DecimalSeed, Value::String(s)) => ints(s.parse().unwrap_or(0), 0)
            .into_iter()
            .map(|v| Value::from(v.to_string()))
            .collect(),
        (_, Value::String(s)) => strings(s).into_iter().map(Value::from).collect(),
        (Kind::Fraction, Value::Number(n)) => penetrations(n.as_f64().unwrap_or(0.5))
            .into_iter()
            .map(Value::from)
            .collect(),
        (Kind::Bool, Value::Bool(true)) => vec![Value::Bool(false)],
        (_, Value::Number(n)) => ints(n.as_u64().unwrap_or(0), 0).into_iter().map(Value::from).collect(),
        (Kind::Cards { .. }, Value::Array(cards)) => {
            let cards: Vec<u64> = cards.iter().filter_map(Value::as_u64).collect();
            let mut out = Vec::new();
            for i in 0..cards.len() {
                let mut fewer = cards.clone();
                fewer.remove(i);
                out.push(fewer);
            }
            for i in 0..cards.len() {
                for smaller in (0..cards[i]).rev().filter(|x| !cards.contains(x)).take(3) {
                    let mut c = cards.clone();
                    c[i] = smaller;
                    out.push(c);
                }
            }
            out.into_iter().map(Value::from).collect()
        }
        _ => Vec::new(),
    }
}

/// The integer fields of `request` that decide its size, with the smallest
/// value each may take: the shrinker bisects these before anything else, so
/// a count of 100,000 that must stay above 65,536 costs 17 target calls, not
/// one call per step down.
pub(crate) fn sizes(request: &Request) -> Vec<(&'static str, u64)> {
    request
        .spec()
        .fields
        .iter()
        .filter_map(|f| match f.kind {
            Kind::Int { min, size: true, .. } => Some((f.name, min)),
            _ => None,
        })
        .collect()
}

/// Every simplification of `request`, boldest first, one field at a time.
///
/// Candidates are built on the request's wire form and read back through
/// the protocol parser, so a candidate is always a valid request.
pub(crate) fn candidates(request: &Request) -> Vec<Request> {
    let op = request.spec();
    let mut fields: Vec<&Field> = op.fields.iter().collect();
    fields.sort_by_key(|f| priority(op, f));
    let wire = request.to_value();
    let mut out = Vec::new();
    for f in fields {
        let Some(value) = wire.get(f.name) else { continue };
        out.extend(
            field_candidates(f.kind, value)
                .iter()
                .filter_map(|candidate| request.with(f.name, candidate)),
        );
    }
    out
}

/// A shrunk example: the minimal request, both answers to it, the steps taken.
pub(crate) struct Shrunk {
    pub request: Request,
    pub(crate) want: Reply,
    pub(crate) got: Reply,
    pub(crate) steps: usize,
}

/// Shrinks a diverging request greedily: take the first simpler candidate
/// that still diverges the same way, until none does or the budget is spent.
/// `None` when the target, asked the request again, no longer diverges (or
/// faults): its answers depend on more than the request, and the finding
/// keeps what the run saw.
pub(crate) fn shrink(driver: &mut Driver, found: &Request, budget: u64) -> Option<Shrunk> {
    let mut best = found.clone();
    let mut best_want = want_of(&best);
    let mut best_got = driver.ask_one(&best).filter(|got| !same_reply(&best_want, got))?;
    let cause = cause_of(&best_want, &best_got, &best);
    let (mut steps, mut calls) = (0, 0_u64);
    // Sizes first, by bisection: `lo` is a value not known to diverge the
    // same way, `hi` one that does. Not every op is monotone in its size,
    // so the result is the smallest size found, which still diverges for the
    // same cause.
    for (name, min) in sizes(&best) {
        let Some(hi) = best.to_value().get(name).and_then(Value::as_u64) else {
            continue;
        };
        // Below `min` by one, so that `min` itself is tried.
        let (mut lo, mut hi) = (i128::from(min) - 1, i128::from(hi));
        while hi - lo > 1 && calls < budget {
            let mid = lo + (hi - lo) / 2;
            let value = Value::from(u64::try_from(mid).expect("between min and a u64"));
            let candidate = best.with(name, &value);
            match candidate.map(|c| (attempt(driver, &mut calls, &c, &cause), c)) {
                Some((Attempt::Keeps(want, got), c)) => {
                    (best, best_want, best_got) = (c, want, got);
                    steps += 1;
                    hi = mid;
                }
                Some((Attempt::Dead, _)) => {
                    return Some(Shrunk {
                        request: best,
                        want: best_want,
                        got: best_got,
                        steps,
                    })
                }
                _ => lo = mid,
            }
        }
    }
    'outer: loop {
        for candidate in candidates(&best) {
            // A call budget, not a deadline: a clock would make the minimal
            // request depend on the machine's load, and the same seed must
            // report the same findings.
            if calls >= budget {
                break 'outer;
            }
            match attempt(driver, &mut calls, &candidate, &cause) {
                Attempt::Keeps(want, got) => {
                    (best, best_want, best_got) = (candidate, want, got);
                    steps += 1;
                    continue 'outer;
                }
                Attempt::Skipped | Attempt::Misses => {}
                Attempt::Dead => break 'outer,
            }
        }
        break;
    }
    Some(Shrunk {
        request: best,
        want: best_want,
        got: best_got,
        steps,
    })
}

fn want_of(r: &Request) -> Reply {
    Reply::from_result(r.run_value())
}

/// The group a divergence is shrunk within: its decision without asking
/// lower ops (a shrink step must not cost two target calls).
fn cause_of(want: &Reply, got: &Reply, r: &Request) -> String {
    super::cause::decide(&Ask::Request(r.clone()), want, got, &mut super::cause::no_probe).group
}

/// What asking one shrink candidate showed.
enum Attempt {
    /// provably refuses it: not asked (shrinking must not wander into
    /// inputs that are invalid).
    Skipped,
    /// It still diverges for the same cause: provably's answer, the target's.
    Keeps(Reply, Reply),
    /// It agrees, or diverges for another cause (the shrink would slip onto
    /// another bug).
    Misses,
    /// The target did not answer.
    Dead,
}

fn attempt(driver: &mut Driver, calls: &mut u64, candidate: &Request, cause: &str) -> Attempt {
    let want = want_of(candidate);
    if !matches!(want, Reply::Ok(_)) {
        return Attempt::Skipped;
    }
    *calls += 1;
    match driver.ask_one(candidate) {
        Some(got) if !same_reply(&want, &got) && cause_of(&want, &got, candidate) == cause => Attempt::Keeps(want, got),
        Some(_) => Attempt::Misses,
        None => Attempt::Dead,
    }
}
