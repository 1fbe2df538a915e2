//! `provably verify`: what a player does after the reveal.
//!
//! Two checks, both needed: SHA-256 of the revealed seed must equal the
//! commitment shown before play (otherwise the seed was swapped), and the
//! outcome derived from that seed must equal what was observed at the table
//! (otherwise other cards were dealt). The first differing position is named.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::error::{InvalidInput, OpError};
use crate::protocol::Request;
use crate::{cursor, dice, ladder, poker, selfpoker, shoe};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(subcommand)]
    pub scheme: VerifyScheme,
}

#[derive(Args, Debug)]
pub struct Common {
    /// The server seed revealed after play.
    #[arg(long)]
    pub server_seed: String,
    /// The commitment (hex SHA-256) shown before play.
    #[arg(long)]
    pub commit: String,
    /// What you saw, in order, separated by commas or spaces. A prefix is
    /// enough (the cards dealt so far).
    #[arg(long)]
    pub observed: String,
}

#[derive(Subcommand, Debug)]
pub enum VerifyScheme {
    /// A blackjack shoe: observed cards as labels such as AS TD 9H.
    Shoe {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        client_seed: String,
        #[arg(long)]
        nonce: u64,
        #[arg(long)]
        decks: u64,
        #[arg(long)]
        penetration: f64,
    },
    /// A tournament hand of the shoe scheme: observed cards as labels.
    Tournament {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        tournament_id: String,
        #[arg(long)]
        hand: u64,
        #[arg(long)]
        decks: u64,
        #[arg(long)]
        penetration: f64,
    },
    /// Dice: observed faces of dice first, first+1, …
    Dice {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        client_seed: String,
        /// The number of the first observed die.
        #[arg(long, default_value_t = 0)]
        first: u64,
    },
    /// A cursor-scheme shuffle: observed order of 0..count.
    Shuffle {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        client_seed: String,
        #[arg(long)]
        nonce: u64,
        #[arg(long)]
        count: u64,
        #[arg(long, default_value_t = 0)]
        cursor: u64,
    },
    /// A poker hand of the cursor scheme: observed hole cards seat by seat, then the board, as card numbers 0..=51.
    Poker {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        client_seed: String,
        #[arg(long)]
        nonce: u64,
        #[arg(long)]
        players: u64,
    },
    /// A selfpoker hand (numpy deck): `--server-seed` is the revealed decimal seed; observed deck prefix.
    Selfpoker {
        #[command(flatten)]
        common: Common,
    },
    /// A Deal-or-No-Deal ladder: observed ladder entry of case 0, 1, …
    Ladder {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        client_seed: String,
        #[arg(long, default_value_t = ladder::DEFAULT_SIZE)]
        size: u64,
    },
}

/// The outcome of a verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// SHA-256 of the revealed seed (as the scheme commits to it).
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
        (Some(r), Some(s), None) if shoe::RANKS.contains(&r) && shoe::SUITS.contains(&s) => Ok(up),
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

fn strings<T: ToString>(items: impl IntoIterator<Item = T>) -> Vec<String> {
    items.into_iter().map(|x| x.to_string()).collect()
}

/// Compares observed card labels with a derived shoe.
fn shoe_verdict(common: &Common, derived: shoe::Shoe) -> Result<(Verdict, &'static str), InvalidInput> {
    let observed = tokens(&common.observed)
        .iter()
        .map(|t| card_label(t))
        .collect::<Result<Vec<_>, _>>()?;
    let derived = strings(derived.cards);
    Ok((
        compare(cursor::hash(&common.server_seed), &common.commit, &derived, &observed),
        "card",
    ))
}

/// Runs one verification; errors are bad input.
pub fn check(scheme: &VerifyScheme) -> Result<(Verdict, &'static str), OpError> {
    use VerifyScheme::*;
    let seed_commit = |c: &Common| cursor::hash(&c.server_seed);
    Ok(match scheme {
        Shoe {
            common,
            client_seed,
            nonce,
            decks,
            penetration,
        } => shoe_verdict(
            common,
            shoe::deal(&common.server_seed, client_seed, *nonce, *decks, *penetration)?,
        )?,
        Tournament {
            common,
            tournament_id,
            hand,
            decks,
            penetration,
        } => shoe_verdict(
            common,
            shoe::tournament(&common.server_seed, tournament_id, *hand, *decks, *penetration)?,
        )?,
        Dice {
            common,
            client_seed,
            first,
        } => {
            let observed = integers(&common.observed, 6)?;
            let mut derived = Vec::new();
            for k in 0..observed.len() as u64 {
                derived.push(dice::roll(&common.server_seed, client_seed, first + k)?.to_string());
            }
            (compare(seed_commit(common), &common.commit, &derived, &observed), "die")
        }
        Shuffle {
            common,
            client_seed,
            nonce,
            count,
            cursor: at,
        } => {
            let count = crate::error::check_range("count", *count, 0, crate::error::MAX_COUNT)?;
            let (order, _) = cursor::Round::new(&common.server_seed, client_seed, *nonce).shuffle(count as usize, *at);
            let observed = integers(&common.observed, count.saturating_sub(1))?;
            (
                compare(seed_commit(common), &common.commit, &strings(order), &observed),
                "position",
            )
        }
        Poker {
            common,
            client_seed,
            nonce,
            players,
        } => {
            let deal = poker::deal(&common.server_seed, client_seed, *nonce, *players)?;
            let derived: Vec<String> = strings(deal.hole.iter().flatten().chain(deal.board.iter()));
            let observed = integers(&common.observed, 51)?;
            (
                compare(seed_commit(common), &common.commit, &derived, &observed),
                "card",
            )
        }
        Selfpoker { common } => {
            let seed = selfpoker::parse_seed(&common.server_seed)?;
            let observed = integers(&common.observed, 51)?;
            (
                compare(
                    selfpoker::commit(seed),
                    &common.commit,
                    &strings(selfpoker::deck(seed)),
                    &observed,
                ),
                "card",
            )
        }
        Ladder {
            common,
            client_seed,
            size,
        } => {
            let order = ladder::shuffle(&common.server_seed, client_seed, *size)?;
            let observed = integers(&common.observed, size.saturating_sub(1))?;
            (
                compare(seed_commit(common), &common.commit, &strings(order), &observed),
                "case",
            )
        }
    })
}

/// Says why a request's server seed looks unlike a published one, if it
/// does. Such a seed is valid (the key is the text) but is often a pasting
/// mistake, so `derive` warns.
pub fn server_seed_warning(request: &Request) -> Option<String> {
    let seed = serde_json::to_value(request)
        .ok()?
        .get("serverSeed")?
        .as_str()?
        .to_string();
    let looks_published = seed.len() == 64 && seed.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    (!looks_published).then(|| {
        format!(
            "serverSeed is not 64 lowercase hex characters ({} characters); it is used as text, so check it was pasted exactly",
            seed.chars().count()
        )
    })
}

/// `provably verify`: prints the verdict; exit 0 on a match, 1 on a mismatch.
pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let (v, item) = check(&args.scheme)?;
    if v.commit_matches {
        println!("commitment: OK, SHA-256 of the revealed seed is {}", v.computed_commit);
    } else {
        println!(
            "commitment: MISMATCH, SHA-256 of the revealed seed is {}, not the commitment shown before play",
            v.computed_commit
        );
    }
    match &v.first_difference {
        None => println!("outcome: all {} observed {item}s match the derived ones", v.compared),
        Some((i, Some(d), o)) => {
            println!("outcome: MISMATCH at {item} {i} (counting from 0): derived {d}, observed {o}")
        }
        Some((i, None, o)) => println!(
            "outcome: MISMATCH at {item} {i} (counting from 0): observed {o}, but the round has only {i} {item}s"
        ),
    }
    if v.matches() {
        println!("everything matches");
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(1))
    }
}
