//! `provably verify`: one subcommand per kind of round a player holds.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::{json, Value};

use provably::op::Request;

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
        #[arg(long, default_value_t = provably::ladder::DEFAULT_SIZE)]
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

/// Prints the verdict; exit 0 on a match, 1 on a mismatch.
pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let (round, common) = args.scheme.round();
    let request = Request::parse(&round)?;
    let (v, item) = provably::verify::check(&request, &common.commit, &common.observed)?;
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
            println!("outcome: MISMATCH at {item} {i} (counting from 0): derived {d}, observed {o}");
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
