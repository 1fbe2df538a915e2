//! Crash histories (docs/proofs.md, "Crash histories"): the games of one
//! hash chain, each checked for its point and for its place on the chain,
//! back to the terminating hash the operator committed to.
//!
//! A crash game plays a chain of SHA-256 hashes backwards
//! ([`crate::schemes::crash`]): the operator publishes the chain's
//! terminating hash before the first game, game `firstGame` has the hash
//! whose link is the terminating hash, and each later game the hash whose
//! link is the game's before it. A history is an epoch headed by `chain`
//! (in place of a secret) with the games as its rounds:
//!
//! ```json
//! {"chain": {"terminatingHash": "86728f5f…", "link": "text", "firstGame": 1,
//!            "salt": "0000…9526", "variant": {"op": "crash.v2"}},
//!  "rounds": [{"game": 2, "hash": "…", "observed": {"crashPoint": 1.26}},
//!             {"game": 1, "observed": {"crashPoint": 3.1}}]}
//! ```
//!
//! The variant is the game op and its parameters (`crash.v1` with a
//! divisor and an instant point, `crash.v2` with or without `bcgame`,
//! `stake.crash`): every field of the op but the salt and the hash. A
//! game is that request with the chain's salt and its own hash, so the
//! op's own parser holds it to every limit of protocol v1.
//!
//! Two halves, as a bet history has them:
//! * a worker checks a game alone (`proof/game.rs`): its point, derived by
//!   the variant's op, against the point observed;
//! * the audit's one ordered consumer follows each chain (`Chains`): a
//!   game's hash must lead to the terminating hash in as many links as the
//!   game is from the chain's start, a game shown twice is a mismatch, and
//!   games missing between the first and the last shown are gaps.
//!
//! The links are walked from the nearest game already found on the chain
//! (above it: down from that game's hash; below it: down from this one's),
//! so a history in either order costs one link a game, and no walk is
//! longer than the chain. Which game a walk starts from changes no verdict:
//! two hashes that lead to one hash in the same number of links are one
//! hash, unless SHA-256 has a collision.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::{json, Value};

use super::bets::{Bets, Seen};
use super::{CommitVerdict, Event, FieldError, Finding, FindingKind, Place, RoundVerdict};
use crate::base::chain::{bytes_of, step, Link};
use crate::base::crypto::hex;
use crate::op::error::OpError;
use crate::op::{is_hex64, read_int, short, type_name, OpSpec, Request};
use crate::schemes::crash::{link_of, LINKS};

/// The version of a document that holds a crash history: version 1 and
/// the `chain` epoch. A reader of version 1 refuses it at `proof`, rather
/// than reading the chain as a field it does not know.
pub(crate) const VERSION: u64 = 2;

/// The epoch key that makes an epoch a crash history.
pub(crate) const KEY: &str = "chain";

/// The farthest a game may be from the terminating hash, in links: the
/// family's chains are 10^7 long, as Stake's is.
pub(crate) const MAX_DISTANCE: u64 = crate::schemes::stake::crash::MAX_LIMIT;

/// The keys of `chain`, in the order they are checked.
const CHAIN_KEYS: [&str; 5] = ["terminatingHash", "link", "firstGame", "salt", "variant"];

/// The most games of one chain kept as places to walk from (about 4 MiB);
/// past it every other one is let go, the last one kept.
const MAX_ANCHORS: usize = 1 << 16;

/// A crash history's chain: where its games' hashes must lead, and the
/// variant each game is derived by.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Head {
    terminating: [u8; 32],
    link: Link,
    first: u64,
    /// The variant's members with the salt: the game op's request but its `hash`.
    members: Vec<(String, Value)>,
    /// The variant with the terminating hash as its hash: the family a game
    /// without a hash is counted in by `--stats`.
    pub(crate) sample: Request,
    /// The chain: its link, terminating hash and first game (games of one
    /// chain in several epochs or files are one history).
    id: Arc<str>,
}

fn chain_error(key: &str, reason: impl Into<String>) -> FieldError {
    FieldError::new(format!("{KEY}.{key}"), reason)
}

/// Whether `op` plays a game of a chain: it takes a `hash` and a `salt`
/// (`crash.v1`, `crash.v2`, `stake.crash`).
pub(crate) fn is_game_op(op: &OpSpec) -> bool {
    op.field("hash").is_some() && op.field("salt").is_some()
}

impl Head {
    /// Reads the epoch's `chain`. Errors name the key as `chain.<key>`
    /// (`chain.variant.<key>` inside the variant): a key the chain does not
    /// have (in text order), then each key in `CHAIN_KEYS` order.
    pub fn read(v: &Value) -> Result<Head, FieldError> {
        let Value::Object(m) = v else {
            return Err(FieldError::new(
                KEY,
                format!("must be an object {{{}}}, not {}", CHAIN_KEYS.join(", "), type_name(v)),
            ));
        };
        if let Some(k) = m.keys().find(|k| !CHAIN_KEYS.contains(&k.as_str())) {
            return Err(chain_error(
                k,
                format!("is not a field of a chain ({})", CHAIN_KEYS.join(", ")),
            ));
        }
        let get = |k: &str| m.get(k).ok_or_else(|| chain_error(k, "is missing"));
        let terminating = match get("terminatingHash")? {
            Value::String(s) if is_hex64(s) => bytes_of(s),
            other => {
                return Err(chain_error(
                    "terminatingHash",
                    format!(
                        "must be 64 lowercase hex characters (the hash committed to before the first game), not {}",
                        short(other)
                    ),
                ))
            }
        };
        let link = match get("link")? {
            Value::String(s) if LINKS.contains(&s.as_str()) => link_of(s),
            other => {
                return Err(chain_error(
                    "link",
                    format!("must be \"text\" or \"bytes\", not {}", short(other)),
                ))
            }
        };
        let first = match m.get("firstGame") {
            None => 1,
            Some(v) => read_int("firstGame", v).map_err(|e| chain_error("firstGame", e.reason))?,
        };
        let salt = match get("salt")? {
            Value::String(s) => s.clone(),
            other => {
                return Err(chain_error(
                    "salt",
                    format!("must be a string, not {}", type_name(other)),
                ))
            }
        };
        let members = variant(get("variant")?, salt)?;
        let mut with_hash = members.clone();
        with_hash.push(("hash".into(), Value::from(hex(&terminating))));
        let sample = Request::read(with_hash, crate::registry::find).map_err(|e| {
            let (field, reason) = match e {
                OpError::Invalid(i) => (i.field, i.reason),
                other => ("op".to_string(), other.to_string()),
            };
            match field.as_str() {
                "salt" => chain_error("salt", reason),
                f => chain_error(&format!("variant.{f}"), reason),
            }
        })?;
        let word = if link == Link::Bytes { "bytes" } else { "text" };
        let id = format!("{word} {} {first}", hex(&terminating)).into();
        Ok(Head {
            terminating,
            link,
            first,
            members,
            sample,
            id,
        })
    }

    /// The game `number`'s distance from the terminating hash, in links.
    pub(crate) fn distance(&self, number: u64) -> Result<u64, FieldError> {
        let Some(d) = number.checked_sub(self.first).map(|d| d + 1) else {
            return Err(FieldError::new(
                "game",
                format!("{number} is before the chain's first game, {}", self.first),
            ));
        };
        if d > MAX_DISTANCE {
            return Err(FieldError::new(
                "game",
                format!(
                    "{number} is {d} links from the terminating hash: a chain of the family holds {MAX_DISTANCE} games"
                ),
            ));
        }
        Ok(d)
    }

    /// The request of the game whose hash is `hash` (as written): every
    /// field of the variant, the salt, and the hash, read by the op's parser.
    pub(crate) fn game(&self, hash: Value) -> Result<Request, OpError> {
        let mut members = self.members.clone();
        members.push(("hash".into(), hash));
        Request::read(members, crate::registry::find)
    }
}

/// The variant's members and the salt: a game op's request without its hash.
fn variant(v: &Value, salt: String) -> Result<Vec<(String, Value)>, FieldError> {
    let Value::Object(m) = v else {
        return Err(chain_error(
            "variant",
            format!(
                "must be an object: the game's op and its fields but salt and hash, not {}",
                type_name(v)
            ),
        ));
    };
    let op = match m.get("op") {
        Some(Value::String(name)) => crate::registry::find(name).filter(|o| is_game_op(o)),
        _ => None,
    };
    if op.is_none() {
        let ops: Vec<&str> = crate::registry::ops()
            .filter(|o| is_game_op(o))
            .map(|o| o.name)
            .collect();
        let shown = m.get("op").map_or_else(|| "nothing".to_string(), short);
        return Err(chain_error(
            "variant.op",
            format!("must name the game's op ({}), not {shown}", ops.join(", ")),
        ));
    }
    if let Some(k) = m.keys().find(|k| ["hash", "salt", "id"].contains(&k.as_str())) {
        return Err(chain_error(
            &format!("variant.{k}"),
            "is not a field of the variant: the hash is each game's, the salt the chain's",
        ));
    }
    let mut members: Vec<(String, Value)> = m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    members.push(("salt".into(), Value::String(salt)));
    Ok(members)
}

/// A game of a crash history, as the ordered consumer follows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub(crate) head: Arc<Head>,
    pub(crate) number: u64,
    /// Its hash, when shown.
    pub hash: Option<[u8; 32]>,
    /// The epoch's line, for JSON lines.
    pub line: Option<u64>,
}

impl Game {
    /// The game as a partial writes a bet: its chain for the seed pair,
    /// its number for the nonce (games of a chain run as a pair's nonces).
    pub(crate) fn as_bet(&self) -> super::Bet {
        super::Bet {
            server: Arc::clone(&self.head.id),
            client: String::new(),
            nonce: self.number,
            line: self.line,
        }
    }
}

/// A chain epoch's `commit`: it has none of its own (its games are
/// checked against `chain.terminatingHash`), so a `commit` other than
/// null is invalid; a chain that cannot be read is said once, where
/// `commit` would stand. `None`: nothing to say, nothing counted.
pub(crate) fn check_commit(at: Place, error: Option<&FieldError>, commit: Option<&Value>) -> Option<Event> {
    let error = match commit.filter(|v| !v.is_null()) {
        Some(_) => FieldError::new(
            "commit",
            "a crash history is committed to by chain.terminatingHash, which each game's hash must lead to",
        ),
        None => error?.clone(),
    };
    Some(Event::Commit {
        epoch: at.epoch.expect("an epoch's place"),
        verdict: CommitVerdict::Invalid,
        finding: Some(error.at(at).finding()),
    })
}

/// Every chain followed so far, in audit order: where each game's hash
/// leads, which games were shown, and the runs missing.
#[derive(Debug, Default)]
pub(crate) struct Chains {
    walks: HashMap<Arc<str>, Walk>,
    /// The games shown, as runs of numbers per chain (a bet history's runs).
    shown: Bets,
    /// A part of a merged audit (`audit --partial`): the links are
    /// followed (a verdict on a link does not depend on where the walk
    /// starts), the games shown are left to the merge, which follows them
    /// across every part as it follows bets.
    in_part: bool,
}

impl Chains {
    /// Chains in a part of a merged audit: links only.
    pub(crate) fn in_part() -> Chains {
        Chains {
            in_part: true,
            ..Chains::default()
        }
    }

    /// The games that come next are of this source (file).
    pub(crate) fn source(&mut self, source: usize) {
        self.shown.source(source);
    }

    /// Sees one event in audit order: a game whose hash does not lead to
    /// the terminating hash, or that was shown before, becomes a mismatch.
    /// Returns the finding of a history that can no longer be followed (or
    /// of one refused in a part).
    pub(crate) fn see(&mut self, e: &mut Event) -> Option<Event> {
        let Event::Round {
            epoch,
            round,
            verdict,
            findings,
            game: Some(game),
            ..
        } = e
        else {
            return None;
        };
        let at = Place::epoch(*epoch, game.line);
        let head = &game.head;
        if let Some(hash) = &game.hash {
            let walk = self
                .walks
                .entry(Arc::clone(&head.id))
                .or_insert_with(|| Walk::new(head.terminating, head.link));
            let distance = game.number - head.first + 1;
            // The hash is compared: the round is no longer one of nothing compared.
            findings.retain(|f| f.kind != FindingKind::Unobserved);
            if walk.holds(distance, hash) {
                if *verdict == RoundVerdict::Unobserved {
                    *verdict = RoundVerdict::Match;
                }
            } else {
                *verdict = RoundVerdict::Mismatch;
                findings.push(off_chain(at.round(*round), hash, distance));
            }
        }
        if self.in_part {
            return None;
        }
        match self.shown.repeats(&head.id, "", game.number, at) {
            Seen::New | Seen::Past => None,
            Seen::Again => {
                *verdict = RoundVerdict::Mismatch;
                findings.push(repeated(at.round(*round), "", game.number));
                None
            }
            Seen::Overflow => Some(Event::Invalid(overflow(at.round(*round)))),
        }
    }

    /// Every game has been seen: each chain's gaps go to `out`, with their
    /// source, chain by chain in the order of their first games.
    pub(crate) fn finish(&mut self, out: &mut dyn FnMut(usize, &Event) -> std::io::Result<()>) -> std::io::Result<()> {
        self.walks.clear();
        self.shown.finish_as(gap, out)
    }
}

/// The finding of a game whose hash is not on the chain.
fn off_chain(at: Place, hash: &[u8; 32], distance: u64) -> Finding {
    let mut f = Finding::new(FindingKind::Mismatch, at);
    f.field = Some("hash".into());
    f.observed = Value::from(hex(hash));
    f.differences = Some(1);
    f.reason = Some(format!(
        "this hash does not lead to the terminating hash in {distance} links: the game is not on the committed chain"
    ));
    f
}

/// The finding of a game shown again (the client is the runs' key's,
/// empty for a chain: the signature of [`super::bets::repeated`]).
pub(crate) fn repeated(at: Place, _client: &str, number: u64) -> Finding {
    let mut f = Finding::new(FindingKind::Mismatch, at);
    f.field = Some("game".into());
    f.observed = json!(number);
    f.differences = Some(1);
    f.reason = Some(format!(
        "game {number} was shown by an earlier round of this history: a chain gives each game one hash"
    ));
    f
}

/// The finding of the game past the cap on runs.
pub(crate) fn overflow(at: Place) -> Finding {
    let mut f = Finding::new(FindingKind::Invalid, at);
    f.field = Some("game".into());
    f.reason = Some(format!(
        "the crash history has more than {} separate runs of games: it is not followed from this game on, so a game shown twice after it would go unseen",
        super::bets::MAX_RUNS
    ));
    f
}

/// The finding of games missing from a history (the client is the runs'
/// key's, empty for a chain).
pub(crate) fn gap(at: Place, _client: &str, first: u64, last: u64) -> Finding {
    let mut f = Finding::new(FindingKind::Gap, at);
    f.field = Some("game".into());
    f.observed = json!([first, last]);
    f.reason = Some(if first == last {
        format!("game {first} is not in the history: that game cannot be checked")
    } else {
        format!("games {first} … {last} are not in the history: those games cannot be checked")
    });
    f
}

/// What a crash history is generated from ([`write_history`]): the newest
/// game's hash and how many games lead down from it, the chain's link,
/// salt, variant (an object: `op` and the op's parameters) and first game.
#[derive(Debug, Clone)]
pub struct Generate<'a> {
    /// The newest game's hash.
    pub top: [u8; 32],
    /// How many games the history holds, the newest one among them.
    pub games: u64,
    /// How a hash leads to the next one down the chain.
    pub link: Link,
    /// The number of the oldest game written (the chain's `firstGame`).
    pub first: u64,
    /// The salt every game's point is derived with.
    pub salt: &'a str,
    /// The game op and its parameters, as the chain's `variant` object.
    pub variant: &'a Value,
}

/// Writes a crash history as a proof document of `VERSION`: one epoch,
/// every game from the newest down to the first (as the operators list
/// them), each with its hash and the point its variant derives for it
/// observed. The chain is walked twice (once to its terminating hash, once
/// while writing), so memory stays flat whatever the count. Errors: the
/// chain cannot be read (its message), or the writer's.
pub fn write_history(out: &mut dyn std::io::Write, g: &Generate<'_>, title: &str) -> std::io::Result<()> {
    let word = if g.link == Link::Bytes { "bytes" } else { "text" };
    let walk = Walk::new([0; 32], g.link);
    let terminating = walk.down(g.top, g.games);
    let chain = json!({
        "terminatingHash": hex(&terminating),
        "link": word,
        "firstGame": g.first,
        "salt": g.salt,
        "variant": g.variant,
    });
    let head = Head::read(&chain).map_err(|e| std::io::Error::other(e.to_string()))?;
    write!(
        out,
        "{{\"proof\":{VERSION},\"title\":{},\"epochs\":[\n{{\"chain\":{chain},\"rounds\":[",
        json!(title)
    )?;
    let mut h = g.top;
    for i in 0..g.games {
        let number = g.first + g.games - 1 - i;
        let request = head
            .game(Value::from(hex(&h)))
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let point = request.run_value().map_err(|e| std::io::Error::other(e.to_string()))?;
        let comma = if i == 0 { "" } else { "," };
        write!(
            out,
            "{comma}\n{{\"game\":{number},\"hash\":\"{}\",\"observed\":{point}}}",
            hex(&h)
        )?;
        h = walk.down(h, 1);
    }
    writeln!(out, "\n]}}\n]}}")
}

/// One chain's games found on it, by distance from the terminating hash
/// (0: the terminating hash itself): the places a walk starts from.
#[derive(Debug)]
struct Walk {
    link: Link,
    anchors: BTreeMap<u64, [u8; 32]>,
}

impl Walk {
    fn new(terminating: [u8; 32], link: Link) -> Walk {
        Walk {
            link,
            anchors: BTreeMap::from([(0, terminating)]),
        }
    }

    /// h walked `n` links down the chain.
    fn down(&self, mut h: [u8; 32], n: u64) -> [u8; 32] {
        for _ in 0..n {
            h = step(self.link, &h);
        }
        h
    }

    /// Whether `hash` is the chain's hash `distance` links from its end,
    /// walked from the nearest place known; a hash found is kept as one.
    fn holds(&mut self, distance: u64, hash: &[u8; 32]) -> bool {
        if let Some(known) = self.anchors.get(&distance) {
            return known == hash;
        }
        let (below, at_below) = self
            .anchors
            .range(..distance)
            .next_back()
            .map(|(&d, &h)| (d, h))
            .expect("the terminating hash is at 0");
        let above = self.anchors.range(distance + 1..).next().map(|(&d, &h)| (d, h));
        let holds = match above {
            Some((a, at_above)) if a - distance < distance - below => self.down(at_above, a - distance) == *hash,
            _ => self.down(*hash, distance - below) == at_below,
        };
        if holds {
            self.keep(distance, *hash);
        }
        holds
    }

    fn keep(&mut self, distance: u64, hash: [u8; 32]) {
        self.anchors.insert(distance, hash);
        if self.anchors.len() > MAX_ANCHORS {
            let odd: Vec<u64> = self
                .anchors
                .keys()
                .skip(1)
                .step_by(2)
                .copied()
                .filter(|&d| d != distance)
                .collect();
            for d in odd {
                self.anchors.remove(&d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(start: [u8; 32], n: u64, link: Link) -> Vec<[u8; 32]> {
        // hashes[d] is the hash d links from the end: hashes[0] terminating.
        let mut out = vec![start];
        for _ in 0..n {
            let h = step(link, out.last().unwrap());
            out.push(h);
        }
        out.reverse();
        out
    }

    fn nth(hashes: &[[u8; 32]], d: u64) -> [u8; 32] {
        hashes[usize::try_from(d).unwrap()]
    }

    #[test]
    fn a_walk_finds_every_game_in_any_order_and_refuses_one_off_by_a_link() {
        for link in [Link::Text, Link::Bytes] {
            let hashes = chain([7; 32], 300, link);
            // Descending, ascending, and a shuffle by a stride coprime to 300.
            let orders: [Vec<u64>; 3] = [
                (1..=300).rev().collect(),
                (1..=300).collect(),
                (0..300).map(|i| (i * 77) % 300 + 1).collect(),
            ];
            for order in orders {
                let mut w = Walk::new(hashes[0], link);
                for &d in &order {
                    assert!(w.holds(d, &nth(&hashes, d)), "{link:?} {d}");
                    // The hash of the game after it is not this game's.
                    if d < 300 {
                        assert!(!w.holds(d, &nth(&hashes, d + 1)), "{link:?} {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_walk_past_the_anchor_cap_lets_places_go_and_still_finds_every_game() {
        let n = MAX_ANCHORS as u64 + 5000;
        let hashes = chain([3; 32], n, Link::Bytes);
        let mut w = Walk::new(hashes[0], Link::Bytes);
        for d in 1..=n {
            assert!(w.holds(d, &nth(&hashes, d)));
        }
        assert!(w.anchors.len() <= MAX_ANCHORS + 1, "{}", w.anchors.len());
        assert!(w.anchors.contains_key(&0) && w.anchors.contains_key(&n));
        for d in (1..=n).step_by(997) {
            assert!(w.holds(d, &nth(&hashes, d)), "{d}");
            assert!(!w.holds(d, &nth(&hashes, d - 1)), "{d}");
        }
    }
}
