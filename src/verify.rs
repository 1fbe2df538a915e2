//! `provably verify`: what a player does after the reveal.
//!
//! Two checks, both needed: the commitment of the revealed seed must equal
//! the one shown before play (otherwise the seed was swapped), and the
//! outcome derived from that seed must equal what was observed at the table
//! (otherwise other cards were dealt). The first differing position is named.

use crate::error::{InvalidInput, OpError};
use crate::op::Request;

/// The outcome of a verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The commitment of the revealed seed (as the scheme commits to it).
    pub computed_commit: String,
    pub commit_matches: bool,
    /// How many observed items were compared.
    pub compared: usize,
    /// The first differing position: (index, derived, observed). `derived`
    /// is `None` when more was observed than the scheme produces.
    pub first_difference: Option<(usize, Option<String>, String)>,
}

impl Verdict {
    pub fn matches(&self) -> bool {
        self.commit_matches && self.first_difference.is_none()
    }
}

/// Splits observed text on commas and white space.
pub fn tokens(observed: &str) -> Vec<String> {
    observed
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Normalizes a shoe card label: `10h` and `th` both become `TH`.
pub fn card_label(token: &str) -> Result<String, InvalidInput> {
    let up = token.to_uppercase().replace("10", "T");
    let mut chars = up.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some(r), Some(s), None) if crate::shoe::RANKS.contains(&r) && crate::shoe::SUITS.contains(&s) => Ok(up),
        _ => Err(InvalidInput::new(
            "observed",
            format!("{token:?} is not a card label such as AS, TD or 9H"),
        )),
    }
}

fn integers(observed: &str, max: u64) -> Result<Vec<String>, InvalidInput> {
    tokens(observed)
        .into_iter()
        .map(|t| match t.parse::<u64>() {
            Ok(v) if v <= max => Ok(v.to_string()),
            _ => Err(InvalidInput::new(
                "observed",
                format!("{t:?} is not an integer in 0..={max}"),
            )),
        })
        .collect()
}

/// Compares `observed` with the prefix of `derived` it claims to be.
pub fn compare(computed_commit: String, commit: &str, derived: &[String], observed: &[String]) -> Verdict {
    let first_difference = observed.iter().enumerate().find_map(|(i, o)| match derived.get(i) {
        Some(d) if d == o => None,
        d => Some((i, d.cloned(), o.clone())),
    });
    Verdict {
        commit_matches: computed_commit.eq_ignore_ascii_case(commit.trim()),
        computed_commit,
        compared: observed.len(),
        first_difference,
    }
}

/// The items of an answer, as the player sees them one after another:
/// lists flattened, strings unquoted.
fn items(ok: &serde_json::Value, keys: &[&str]) -> Vec<String> {
    fn push(out: &mut Vec<String>, v: &serde_json::Value) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| push(out, x)),
            other => out.push(other.to_string()),
        }
    }
    let mut out = Vec::new();
    for key in keys {
        push(&mut out, &ok[*key]);
    }
    out
}

/// Verifies one round: `request` is the round (for dice, the first die),
/// `commit` the commitment shown before play, `observed` what was seen, in
/// order. Returns the verdict and the name of one observed item.
pub fn check(request: &Request, commit: &str, observed: &str) -> Result<(Verdict, &'static str), OpError> {
    let secret = request
        .spec()
        .secret
        .ok_or_else(|| InvalidInput::new("op", format!("{} has no committed seed", request.op())))?;
    let computed = (secret.commit)(request.get(secret.field).expect("the op has its secret field"));
    let ok = |r: &Request| r.run_value();
    // The largest item of an order over `0..n` for the size field `key`.
    let last = |key: &str| match request.get(key) {
        Some(crate::op::Arg::Int(n)) => n.saturating_sub(1),
        other => unreachable!("{key} is {other:?}"),
    };
    let (derived, observed, item) = match request.op() {
        "shoe.deal" | "shoe.tournament" => {
            let observed = tokens(observed)
                .iter()
                .map(|t| card_label(t))
                .collect::<Result<Vec<_>, _>>()?;
            (items(&ok(request)?, &["cards"]), observed, "card")
        }
        "dice.roll" => {
            let observed = integers(observed, 6)?;
            let first = request.int(crate::op::Field::counter("n"));
            let mut derived = Vec::new();
            for k in 0..observed.len() as u64 {
                let die = request
                    .with("n", &serde_json::Value::from(first + k))
                    .ok_or_else(|| InvalidInput::new("first", format!("die {first} + {k} is above 2^53-1")))?;
                derived.extend(items(&ok(&die)?, &["face"]));
            }
            (derived, observed, "die")
        }
        "cursor.shuffle" => (
            items(&ok(request)?, &["order"]),
            integers(observed, last("count"))?,
            "position",
        ),
        "poker.deal" => (
            items(&ok(request)?, &["hole", "board"]),
            integers(observed, 51)?,
            "card",
        ),
        "selfpoker.deck" => (items(&ok(request)?, &["deck"]), integers(observed, 51)?, "card"),
        "ladder.shuffle" => (
            items(&ok(request)?, &["order"]),
            integers(observed, last("size"))?,
            "case",
        ),
        other => return Err(InvalidInput::new("op", format!("{other} has nothing to observe")).into()),
    };
    Ok((compare(computed, commit, &derived, &observed), item))
}

/// Says why a request's server seed looks unlike a published one, if it
/// does. Such a seed is valid (the key is the text) but is often a pasting
/// mistake, so `derive` warns.
pub fn server_seed_warning(request: &Request) -> Option<String> {
    let Some(crate::op::Arg::Text(seed)) = request.get("serverSeed") else {
        return None;
    };
    let looks_published = seed.len() == 64 && seed.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    (!looks_published).then(|| {
        format!(
            "serverSeed is not 64 lowercase hex characters ({} characters); it is used as text, so check it was pasted exactly",
            seed.chars().count()
        )
    })
}
