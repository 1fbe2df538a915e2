//! `provably verify`: what a player does after the reveal, for one round
//! typed in by hand.
//!
//! Two checks, both needed: the commitment of the revealed seed must equal
//! the one shown before play (otherwise the seed was swapped), and the
//! outcome derived from that seed must equal what was observed at the table
//! (otherwise other cards were dealt). The typed items become a proof
//! round's `observed` and are checked by the same code as `provably audit`
//! checks proofs (`crate::proof`): the same limits (a die face is
//! 1 to 6), prefixes and unseen items (`?`), and every differing item is
//! listed. Nothing observed is "nothing to compare", never a match.

use serde_json::{Map, Value};

use crate::op::error::{InvalidInput, OpError, MAX_SAFE_INTEGER};
use crate::op::Request;
use crate::proof::commit::is_commitment;
use crate::proof::compare::{compare, read_observed};

/// The outcome of a verification.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The commitment of the revealed seed (as the scheme commits to it).
    pub computed_commit: String,
    /// Whether it equals the commitment shown before play (hex, any case): otherwise the seed was swapped.
    pub commit_matches: bool,
    /// How many observed items were compared (unseen ones are not).
    pub compared: u64,
    /// Every observed item that differs, in order.
    pub differences: Vec<Difference>,
    /// The derived `ok` object of each round (one per die for dice).
    pub derived: Vec<Value>,
}

/// One observed item that differs from the derived one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The item's number among the typed items, from 0; `None` for a field
    /// given on its own (the cut card).
    pub item: Option<usize>,
    /// The field that differs: an `ok` field the items fill (`cards`, `hole`, `face`), or one given on its own (`cut`).
    pub field: String,
    /// `None` when the round has no item there (more was observed than dealt).
    pub derived: Option<String>,
    /// The observed value, as a player writes it (strings bare).
    pub observed: String,
}

impl Verdict {
    /// The commitment matches, something was compared, and nothing differs.
    pub fn matches(&self) -> bool {
        self.commit_matches && self.differences.is_empty() && self.compared > 0
    }
}

/// What the player saw.
#[derive(Debug, Clone, Default)]
pub struct Seen<'a> {
    /// The typed items in order; `?` (or `_`) for an item not seen.
    pub items: Vec<String>,
    /// The `ok` fields the items fill, in order (`hole` then `board`).
    pub fields: &'a [&'a str],
    /// For ops with one item per round (dice): the request field that
    /// counts rounds, and the flag it has on the command line; item k is
    /// round `first + k`.
    pub step: Option<(&'a str, &'a str)>,
    /// Fields given on their own (the cut card).
    pub extra: Map<String, Value>,
}

/// Splits observed text on commas and white space.
pub fn tokens(observed: &str) -> Vec<String> {
    observed
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether a typed item stands for one not seen.
fn unseen(token: &str) -> bool {
    token == "?" || token == "_"
}

/// Normalizes a shoe card label: `10h` and `th` both become `TH`; `?` stays.
pub fn card_label(token: &str) -> Result<String, InvalidInput> {
    if unseen(token) {
        return Ok(token.to_string());
    }
    let up = token.to_uppercase().replace("10", "T");
    let mut chars = up.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some(r), Some(s), None)
            if crate::schemes::shoe::RANKS.contains(&r) && crate::schemes::shoe::SUITS.contains(&s) =>
        {
            Ok(up)
        }
        _ => Err(InvalidInput::new(
            "observed",
            format!("{token:?} is not a card label such as AS, TD or 9H"),
        )),
    }
}

/// A typed item as the JSON value the derived item `like` is.
fn item(token: &str, like: Option<&Value>) -> Result<Value, InvalidInput> {
    if unseen(token) {
        return Ok(Value::Null);
    }
    match like {
        Some(Value::String(_)) => Ok(Value::from(token)),
        _ => token
            .parse::<u64>()
            .map(Value::from)
            .map_err(|_| InvalidInput::new("observed", format!("{token:?} is not a non-negative integer"))),
    }
}

/// The leaves of a derived value, in order, as (path, value).
fn leaves<'v>(v: &'v Value, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, &'v Value)>) {
    match v {
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                path.push(i);
                leaves(x, path, out);
                path.pop();
            }
        }
        other => out.push((path.clone(), other)),
    }
}

/// Puts `value` at `path` below `root`, growing arrays with nulls.
fn put(root: &mut Value, path: &[usize], value: Value) {
    let Some((&first, rest)) = path.split_first() else {
        *root = value;
        return;
    };
    if !root.is_array() {
        *root = Value::Array(Vec::new());
    }
    let items = root.as_array_mut().expect("an array");
    if items.len() <= first {
        items.resize(first + 1, Value::Null);
    }
    put(&mut items[first], rest, value);
}

/// Fills the typed items into the shape of the derived fields, leaf by
/// leaf; items past the end go on at the end of the last field. Returns
/// the observation and, per item, its field and path.
type Slots = Vec<(String, Vec<usize>)>;

/// A round to compare: the request, what was seen of it, and where each typed item went.
type Round = (Request, Map<String, Value>, Slots);

fn fill(derived: &Value, fields: &[&str], items: &[String]) -> Result<(Map<String, Value>, Slots), InvalidInput> {
    let mut observed = Map::new();
    let mut slots = Vec::new();
    let mut tokens = items.iter();
    for (n, field) in fields.iter().enumerate() {
        let d = derived.get(*field).unwrap_or(&Value::Null);
        let mut all = Vec::new();
        leaves(d, &mut Vec::new(), &mut all);
        let mut value = Value::Null;
        let mut last_path: Option<Vec<usize>> = None;
        for (path, like) in &all {
            let Some(t) = tokens.next() else { break };
            put(&mut value, path, item(t, Some(like))?);
            slots.push(((*field).to_string(), path.clone()));
            last_path = Some(path.clone());
        }
        if n + 1 == fields.len() {
            // More than was dealt: items past the derived ones, at the top level.
            let like = all.first().map(|(_, v)| *v);
            let start = match d {
                Value::Array(a) => a.len(),
                _ => 0,
            };
            for (next, t) in (start..).zip(tokens.by_ref()) {
                put(&mut value, &[next], item(t, like)?);
                slots.push(((*field).to_string(), vec![next]));
            }
        }
        if last_path.is_some() || !value.is_null() {
            observed.insert((*field).to_string(), value);
        }
    }
    Ok((observed, slots))
}

/// Shows a JSON value as a player writes it: strings bare.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Verifies one round: `request` is the round (for dice, the first die),
/// `commit` the commitment shown before play (64 hex characters, any case,
/// surrounding white space ignored), `seen` what was seen.
pub fn check(request: &Request, commit: &str, seen: &Seen) -> Result<Verdict, OpError> {
    let secret = request
        .spec()
        .secret
        .ok_or_else(|| InvalidInput::new("op", format!("{} has no committed seed", request.op())))?;
    let commit = commit.trim();
    if !is_commitment(commit) {
        return Err(InvalidInput::new(
            "commit",
            format!("must be 64 hex characters (a SHA-256), not {commit:?}"),
        )
        .into());
    }
    let computed = (secret.commit)(request.get(secret.field).expect("the op has its secret field"));
    let rounds: Vec<Round> = match seen.step {
        Some(step) => stepped(request, seen, step)?,
        None => {
            let derived = request.run_value()?;
            let (mut observed, slots) = fill(&derived, seen.fields, &seen.items)?;
            observed.extend(seen.extra.clone());
            vec![(request.clone(), observed, slots)]
        }
    };
    let mut verdict = Verdict {
        commit_matches: computed.eq_ignore_ascii_case(commit),
        computed_commit: computed,
        compared: 0,
        differences: Vec::new(),
        derived: Vec::new(),
    };
    let step_items = seen.step.is_some();
    for (k, (round, observed, slots)) in rounds.into_iter().enumerate() {
        let observed =
            read_observed(round.spec(), Value::Object(observed)).map_err(|e| InvalidInput::new(e.field, e.reason))?;
        let derived = round.run_value()?;
        let c = compare(round.spec(), &observed, &derived);
        verdict.compared += c.compared;
        for d in c.differences {
            let slot = slots.iter().position(|(f, p)| f == d.field && *p == d.path);
            verdict.differences.push(Difference {
                item: if step_items { Some(k) } else { slot },
                field: d.field.to_string(),
                derived: d.derived.as_ref().map(plain),
                observed: plain(&d.observed),
            });
        }
        verdict.derived.push(derived);
    }
    Ok(verdict)
}

/// One round per typed item: the request with its counter stepped.
fn stepped(request: &Request, seen: &Seen, (field, flag): (&str, &str)) -> Result<Vec<Round>, OpError> {
    let first = match request.get(field) {
        Some(crate::op::Arg::Int(v)) => *v,
        other => unreachable!("{field} is {other:?}"),
    };
    let n = seen.items.len() as u64;
    if n > 0 && first.checked_add(n - 1).is_none_or(|last| last > MAX_SAFE_INTEGER) {
        return Err(InvalidInput::new(flag, format!("{first} + {n} observed items - 1 is above 2^53-1")).into());
    }
    let mut out = Vec::new();
    for (k, t) in (0..).zip(&seen.items) {
        let round = request
            .with(field, &Value::from(first + k))
            .expect("within 2^53-1, checked above");
        let derived = round.run_value()?;
        let (observed, slots) = fill(&derived, seen.fields, std::slice::from_ref(t))?;
        out.push((round, observed, slots));
    }
    Ok(out)
}

/// Says why a request's server seed looks unlike a published one, if it
/// does. Such a seed is valid (the key is the text) but is often a pasting
/// mistake, so `derive` warns.
pub fn server_seed_warning(request: &Request) -> Option<String> {
    let Some(crate::op::Arg::Text(seed)) = request.get("serverSeed") else {
        return None;
    };
    let length = seed.chars().count();
    let odd = seed
        .chars()
        .enumerate()
        .find(|(_, c)| !matches!(c, '0'..='9' | 'a'..='f'));
    let what = match odd {
        _ if length == 1 => "it has 1 character".into(),
        _ if length != 64 => format!("it has {length} characters"),
        None => return None,
        Some((i, c)) if c.is_ascii_hexdigit() => format!("character {} of 64 is {c:?}, an uppercase hex digit", i + 1),
        Some((i, c)) => format!("character {} of 64 is {c:?}, which is no hex digit", i + 1),
    };
    Some(format!(
        "serverSeed is not 64 lowercase hex characters: {what}; it is used as text, so check it was pasted exactly"
    ))
}
