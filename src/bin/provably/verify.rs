//! `provably verify`: one subcommand per kind of round a player holds.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::{json, Value};

use crate::out::Out;

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
    /// enough (the cards dealt so far); `?` stands for an item not seen.
    /// Without it only the commitment is checked: nothing to compare.
    #[arg(long, default_value = "")]
    pub observed: String,
}

#[derive(Subcommand, Debug)]
pub enum VerifyScheme {
    /// A blackjack shoe: observed cards as labels such as AS TD 9H.
    Shoe {
        #[command(flatten)]
        common: Common,
        /// The client seed (yours, or the one the table shows).
        #[arg(long)]
        client_seed: String,
        /// The round's nonce, as the page shows it.
        #[arg(long, value_parser = crate::args::field("nonce"), allow_negative_numbers = true)]
        nonce: u64,
        /// The number of decks in the shoe, 1..=8.
        #[arg(long, value_parser = crate::args::field("decks"), allow_negative_numbers = true)]
        decks: u64,
        /// How far into the shoe the cut card lies, strictly between 0 and 1 (0.75 for three quarters).
        #[arg(long, value_parser = crate::derive::finite, allow_negative_numbers = true)]
        penetration: f64,
        /// The cut card's position as seen at the table (checked against the derived one).
        #[arg(long, value_parser = crate::args::field("cut"), allow_negative_numbers = true)]
        cut: Option<u64>,
    },
    /// A tournament hand of the shoe scheme: observed cards as labels.
    Tournament {
        #[command(flatten)]
        common: Common,
        /// The tournament's id, exactly as shown.
        #[arg(long)]
        tournament_id: String,
        /// The hand's number in the tournament, counting from 0.
        #[arg(long, value_parser = crate::args::field("hand"), allow_negative_numbers = true)]
        hand: u64,
        /// The number of decks in the shoe, 1..=8.
        #[arg(long, value_parser = crate::args::field("decks"), allow_negative_numbers = true)]
        decks: u64,
        /// How far into the shoe the cut card lies, strictly between 0 and 1 (0.75 for three quarters).
        #[arg(long, value_parser = crate::derive::finite, allow_negative_numbers = true)]
        penetration: f64,
        /// The cut card's position as seen at the table (checked against the derived one).
        #[arg(long, value_parser = crate::args::field("cut"), allow_negative_numbers = true)]
        cut: Option<u64>,
    },
    /// Dice: observed faces of dice first, first+1, …
    Dice {
        #[command(flatten)]
        common: Common,
        /// The client seed (yours, or the one the table shows).
        #[arg(long)]
        client_seed: String,
        /// The number of the first observed die.
        #[arg(long, default_value_t = 0, value_parser = crate::args::field("n"), allow_negative_numbers = true)]
        first: u64,
    },
    /// A cursor-scheme shuffle: observed order of 0..count.
    Shuffle {
        #[command(flatten)]
        common: Common,
        /// The client seed (yours, or the one the table shows).
        #[arg(long)]
        client_seed: String,
        /// The round's nonce, as the page shows it.
        #[arg(long, value_parser = crate::args::field("nonce"), allow_negative_numbers = true)]
        nonce: u64,
        /// How many items are shuffled (the order of 0..count).
        #[arg(long, value_parser = crate::args::field("count"), allow_negative_numbers = true)]
        count: u64,
        /// The cursor the shuffle starts at (0 unless the game says otherwise).
        #[arg(long, default_value_t = 0, value_parser = crate::args::field("cursor"), allow_negative_numbers = true)]
        cursor: u64,
    },
    /// A poker hand of the cursor scheme: observed hole cards seat by seat, then the board, as card numbers 0..=51.
    Poker {
        #[command(flatten)]
        common: Common,
        /// The client seed (yours, or the one the table shows).
        #[arg(long)]
        client_seed: String,
        /// The round's nonce, as the page shows it.
        #[arg(long, value_parser = crate::args::field("nonce"), allow_negative_numbers = true)]
        nonce: u64,
        /// The number of seats dealt, 2..=22.
        #[arg(long, value_parser = crate::args::field("players"), allow_negative_numbers = true)]
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
        /// The client seed (yours, or the one the table shows).
        #[arg(long)]
        client_seed: String,
        /// The number of cases on the ladder.
        #[arg(long, default_value_t = provably::schemes::ladder::DEFAULT_SIZE, value_parser = crate::args::field("size"), allow_negative_numbers = true)]
        size: u64,
    },
}

impl VerifyScheme {
    /// The round as a protocol request (for dice, the first die), and what was said about it.
    fn round(&self) -> (Value, &Common) {
        use VerifyScheme::*;
        match self {
            Shoe {
                common: c,
                client_seed,
                nonce,
                decks,
                penetration,
                ..
            } => (
                json!({ "op": "shoe.deal", "serverSeed": c.server_seed, "clientSeed": client_seed, "nonce": nonce, "decks": decks, "penetration": penetration }),
                c,
            ),
            Tournament {
                common: c,
                tournament_id,
                hand,
                decks,
                penetration,
                ..
            } => (
                json!({ "op": "shoe.tournament", "serverSeed": c.server_seed, "tournamentId": tournament_id, "hand": hand, "decks": decks, "penetration": penetration }),
                c,
            ),
            Dice {
                common: c,
                client_seed,
                first,
            } => (
                json!({ "op": "dice.roll", "serverSeed": c.server_seed, "clientSeed": client_seed, "n": first }),
                c,
            ),
            Shuffle {
                common: c,
                client_seed,
                nonce,
                count,
                cursor,
            } => (
                json!({ "op": "cursor.shuffle", "serverSeed": c.server_seed, "clientSeed": client_seed, "nonce": nonce, "cursor": cursor, "count": count }),
                c,
            ),
            Poker {
                common: c,
                client_seed,
                nonce,
                players,
            } => (
                json!({ "op": "poker.deal", "serverSeed": c.server_seed, "clientSeed": client_seed, "nonce": nonce, "players": players }),
                c,
            ),
            Selfpoker { common: c } => (json!({ "op": "selfpoker.deck", "seed": c.server_seed }), c),
            Ladder {
                common: c,
                client_seed,
                size,
            } => (
                json!({ "op": "ladder.shuffle", "serverSeed": c.server_seed, "clientSeed": client_seed, "size": size }),
                c,
            ),
        }
    }
}

/// What the typed items are: the `ok` fields they fill, a counter stepped
/// per item (dice), the name of one item, and the cut card.
type Items = (
    &'static [&'static str],
    Option<(&'static str, &'static str)>,
    &'static str,
    Option<u64>,
);

impl VerifyScheme {
    fn seen(&self) -> Items {
        use VerifyScheme::*;
        match self {
            Shoe { cut, .. } | Tournament { cut, .. } => (&["cards"], None, "card", *cut),
            Dice { .. } => (&["face"], Some(("n", "first")), "die", None),
            Shuffle { .. } => (&["order"], None, "position", None),
            Poker { .. } => (&["hole", "board"], None, "card", None),
            Selfpoker { .. } => (&["deck"], None, "card", None),
            Ladder { .. } => (&["order"], None, "case", None),
        }
    }
}

/// Prints the verdict; exit 0 when nothing differs, 1 on a mismatch.
pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let (round, common) = args.scheme.round();
    let request = provably::registry::parse(&round)?;
    let (fields, step, item, cut) = args.scheme.seen();
    let shoe = matches!(args.scheme, VerifyScheme::Shoe { .. } | VerifyScheme::Tournament { .. });
    let mut items = provably::verify::tokens(&common.observed);
    if shoe {
        items = items
            .iter()
            .map(|t| provably::verify::card_label(t))
            .collect::<Result<_, _>>()?;
    }
    let mut extra = serde_json::Map::new();
    if let Some(c) = cut {
        extra.insert("cut".into(), Value::from(c));
    }
    let seen = provably::verify::Seen {
        items,
        fields,
        step,
        extra,
    };
    let v = provably::verify::check(&request, &common.commit, &seen)?;
    print(&v, item, shoe, cut)?;
    Ok(if v.commit_matches && v.differences.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print(v: &provably::verify::Verdict, item: &str, shoe: bool, cut: Option<u64>) -> std::io::Result<()> {
    // A closed stdout ends the text, not the exit status (Out).
    let mut out = Out::default();
    if v.commit_matches {
        writeln!(
            out,
            "commitment: OK, SHA-256 of the revealed seed is {}",
            v.computed_commit
        )?;
    } else {
        writeln!(
            out,
            "commitment: MISMATCH, SHA-256 of the revealed seed is {}, not the commitment shown before play",
            v.computed_commit
        )?;
    }
    if shoe {
        writeln!(out, "cut card: position {} (derived)", v.derived[0]["cut"])?;
    }
    let items = v.compared - u64::from(cut.is_some());
    let item_differs = v.differences.iter().any(|d| d.item.is_some());
    if let Some(c) = cut {
        if !v.differences.iter().any(|d| d.item.is_none()) {
            writeln!(out, "cut card: the observed position {c} matches")?;
        }
    }
    let items_word = plural(item, 2);
    if v.compared == 0 {
        writeln!(out, "outcome: nothing to compare: no {items_word} were observed")?;
    } else if items == 0 {
        writeln!(out, "outcome: no {items_word} were observed")?;
    } else if !item_differs && items == 1 {
        writeln!(out, "outcome: the 1 observed {item} matches the derived one")?;
    } else if !item_differs {
        writeln!(out, "outcome: all {items} observed {items_word} match the derived ones")?;
    }
    for d in &v.differences {
        match (&d.item, &d.derived) {
            (None, derived) => writeln!(
                out,
                "outcome: MISMATCH at the cut card: derived {}, observed {}",
                derived.as_deref().unwrap_or("nothing"),
                d.observed
            )?,
            (Some(i), Some(derived)) => writeln!(
                out,
                "outcome: MISMATCH at {item} {i} (counting from 0): derived {derived}, observed {}",
                d.observed
            )?,
            (Some(i), None) => writeln!(
                out,
                "outcome: MISMATCH at {item} {i} (counting from 0): observed {}, but the round has no {item} there",
                d.observed
            )?,
        }
    }
    writeln!(out, "{}", verdict(v, item))
}

/// The last line: what the run found, in one sentence.
fn verdict(v: &provably::verify::Verdict, item: &str) -> String {
    if v.matches() {
        return "everything matches".into();
    }
    if v.commit_matches && v.compared == 0 {
        return "the commitment matches; nothing was observed, so no outcome was compared".into();
    }
    let mut wrong = Vec::new();
    if !v.commit_matches {
        wrong.push("the commitment does not match the revealed seed".to_string());
    }
    let n = v.differences.len();
    if n > 0 {
        let differ = if n == 1 { "differs" } else { "differ" };
        wrong.push(format!(
            "{n} of {} compared {} {differ}",
            v.compared,
            plural(item, v.compared)
        ));
    }
    format!("verdict: MISMATCH: {}", wrong.join("; "))
}

/// `die` → `dice`, `card` → `cards`; the word itself for one.
fn plural(item: &str, n: u64) -> String {
    match (item, n) {
        (_, 1) => item.into(),
        ("die", _) => "dice".into(),
        _ => format!("{item}s"),
    }
}
