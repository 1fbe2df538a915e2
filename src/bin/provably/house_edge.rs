//! `provably house-edge`: simulate the published table, or check it exactly.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};

use provably::house_edge::render::exact_report;
use provably::house_edge::sim::{self, Source, Tally, MAX_SEATS};
use provably::op::error::{InvalidInput, OpError};
use provably::schemes::blackjack::rules::{DealOrder, DoubleOn, Payout, Rules};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RngKind {
    /// A fresh cursor.shuffle per round: every round can be re-dealt and checked.
    Verifiable,
    /// A seeded xoshiro256++ drawing only the cards a round needs (not verifiable).
    Fast,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum YesNo {
    Yes,
    No,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Soft17 {
    Hit,
    Stand,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DoubleArg {
    Any,
    #[value(name = "9-11")]
    NineToEleven,
    #[value(name = "10-11")]
    TenEleven,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DealOrderArg {
    Alternating,
    PlayersFirst,
}

/// Simulate rounds of seed 003's blackjack table played by its published
/// basic strategy, or (`--exact`) check the table exactly. Every rule is a
/// flag; the defaults are printed with every result.
#[derive(Args)]
pub struct HouseEdgeArgs {
    /// Compute every cell's expected values and the table's edge exactly instead of simulating.
    #[arg(long, conflicts_with_all = ["rounds", "rng", "seed", "server_seed", "seat_seed", "seats", "deal_order", "quiet"])]
    pub exact: bool,
    /// Rounds to simulate.
    #[arg(long, default_value_t = 100_000)]
    pub rounds: u64,
    /// Where the cards come from.
    #[arg(long, value_enum, default_value = "verifiable")]
    pub rng: RngKind,
    /// Seed of the run: the fast generator's seed, and the default server seed's source.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Server seed (verifiable mode); default: hex SHA-256 of "provably house-edge:SEED".
    #[arg(long)]
    pub server_seed: Option<String>,
    /// A seat's seed, in player order, once per seat (verifiable mode); default: one seat "seat-1".
    #[arg(long)]
    pub seat_seed: Vec<String>,
    /// Seats at the table (fast mode; verifiable mode counts the seat seeds).
    #[arg(long)]
    pub seats: Option<usize>,
    /// Threads; default: every core.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Decks in the shoe [default: 6].
    #[arg(long)]
    pub decks: Option<u8>,
    /// Whether the dealer hits or stands on soft 17 [default: hit].
    #[arg(long, value_enum)]
    pub soft_17: Option<Soft17>,
    /// Double after split [default: yes].
    #[arg(long, value_enum)]
    pub das: Option<YesNo>,
    /// The dealer checks for blackjack under an ace or ten [default: yes]; without, a dealer blackjack takes doubles and splits too.
    #[arg(long, value_enum)]
    pub peek: Option<YesNo>,
    /// Most hands after splitting, 1 = no splitting [default: 4].
    #[arg(long)]
    pub max_hands: Option<u8>,
    /// Split aces may be split again [default: no].
    #[arg(long, value_enum)]
    pub resplit_aces: Option<YesNo>,
    /// Split aces may draw more than one card [default: no].
    #[arg(long, value_enum)]
    pub hit_split_aces: Option<YesNo>,
    /// Which two-card hands may be doubled [default: any].
    #[arg(long, value_enum)]
    pub double: Option<DoubleArg>,
    /// What a blackjack pays, NUM:DEN [default: 6:5].
    #[arg(long)]
    pub blackjack_pays: Option<String>,
    /// Order of the initial deal [default: alternating].
    #[arg(long, value_enum)]
    pub deal_order: Option<DealOrderArg>,
}

fn invalid(field: &str, reason: impl Into<String>) -> anyhow::Error {
    OpError::from(InvalidInput::new(field, reason)).into()
}

fn yes(v: Option<YesNo>, default: bool) -> bool {
    v.map_or(default, |v| v == YesNo::Yes)
}

impl HouseEdgeArgs {
    /// The rules, with contradictory combinations refused.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let d = Rules::default();
        let r = Rules {
            decks: self.decks.unwrap_or(d.decks),
            hit_soft_17: self.soft_17.map_or(d.hit_soft_17, |s| s == Soft17::Hit),
            das: yes(self.das, d.das),
            peek: yes(self.peek, d.peek),
            max_hands: self.max_hands.unwrap_or(d.max_hands),
            resplit_aces: yes(self.resplit_aces, d.resplit_aces),
            hit_split_aces: yes(self.hit_split_aces, d.hit_split_aces),
            double_on: match self.double {
                None | Some(DoubleArg::Any) => DoubleOn::Any,
                Some(DoubleArg::NineToEleven) => DoubleOn::NineToEleven,
                Some(DoubleArg::TenEleven) => DoubleOn::TenEleven,
            },
            blackjack_pays: match &self.blackjack_pays {
                None => d.blackjack_pays,
                Some(t) => Payout::parse(t)?,
            },
            deal_order: match self.deal_order {
                None | Some(DealOrderArg::Alternating) => DealOrder::Alternating,
                Some(DealOrderArg::PlayersFirst) => DealOrder::PlayersFirst,
            },
        };
        r.check()?;
        if r.max_hands == 1 {
            for (name, given) in [
                ("das", self.das.is_some()),
                ("resplit-aces", self.resplit_aces == Some(YesNo::Yes)),
                ("hit-split-aces", self.hit_split_aces == Some(YesNo::Yes)),
            ] {
                if given {
                    return Err(invalid(name, "set, but --max-hands 1 allows no split"));
                }
            }
        }
        if r.max_hands == 2 && self.resplit_aces == Some(YesNo::Yes) {
            return Err(invalid("resplit-aces", "yes, but --max-hands 2 allows no resplit"));
        }
        Ok(r)
    }

    fn source(&self) -> anyhow::Result<(Source, usize)> {
        match self.rng {
            RngKind::Fast => {
                if self.server_seed.is_some() || !self.seat_seed.is_empty() {
                    return Err(invalid(
                        "rng",
                        "fast deals no verifiable shuffles; --server-seed and --seat-seed need --rng verifiable",
                    ));
                }
                Ok((Source::Fast { seed: self.seed }, self.seats.unwrap_or(1)))
            }
            RngKind::Verifiable => {
                if self.seats.is_some() {
                    return Err(invalid(
                        "seats",
                        "in verifiable mode the seats are the --seat-seed flags",
                    ));
                }
                let seats = if self.seat_seed.is_empty() {
                    vec!["seat-1".to_string()]
                } else {
                    self.seat_seed.clone()
                };
                let server_seed = self.server_seed.clone().unwrap_or_else(|| {
                    provably::base::crypto::sha256_hex(&format!("provably house-edge:{}", self.seed))
                });
                let client_seed = seats.concat();
                Ok((
                    Source::Verifiable {
                        server_seed,
                        client_seed,
                    },
                    seats.len(),
                ))
            }
        }
    }
}

/// Runs the command.
pub fn run(args: &HouseEdgeArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules()?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(invalid("jobs", "0; at least one thread"));
    }
    if args.exact {
        let start = Instant::now();
        print!("{}", exact_report(&rules, jobs).markdown());
        eprintln!("time: {:.1} s on {jobs} thread(s)", start.elapsed().as_secs_f64());
        return Ok(ExitCode::SUCCESS);
    }
    if args.rounds == 0 {
        return Err(invalid("rounds", "0; at least one round"));
    }
    let (source, seats) = args.source()?;
    if !(1..=MAX_SEATS).contains(&seats) {
        return Err(invalid("seats", format!("{seats} is outside 1..={MAX_SEATS}")));
    }
    if sim::worst_case_value(&rules, seats) > sim::shoe_value(rules.decks) {
        return Err(invalid(
            "seats",
            format!(
                "{seats} seats with up to {} hands each could empty a {}-deck shoe in one round",
                rules.max_hands, rules.decks
            ),
        ));
    }
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let b = indicatif::ProgressBar::new(args.rounds);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rounds  {per_sec}  eta {eta}")
                .expect("a fixed template"),
        );
        b
    });
    let start = Instant::now();
    let tally = sim::simulate(&rules, seats, &source, args.rounds, jobs, &|n| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    });
    let secs = start.elapsed().as_secs_f64();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    print!("{}", summary(&rules, &source, seats, &tally));
    #[allow(clippy::cast_precision_loss, reason = "a rate printed in whole rounds per second")]
    let rate = args.rounds as f64 / secs;
    eprintln!("time: {secs:.1} s, {rate:.0} rounds/s on {jobs} thread(s)");
    Ok(ExitCode::SUCCESS)
}

/// The result text: deterministic for the given flags (the time goes to stderr).
pub fn summary(rules: &Rules, source: &Source, seats: usize, t: &Tally) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let e = 100.0 * t.edge();
    let ci = 100.0 * t.ci95();
    let _ = writeln!(
        s,
        "house edge: {e:.4} % ± {ci:.4} % (95 % confidence interval {:.4} % … {:.4} %)",
        e - ci,
        e + ci
    );
    let _ = writeln!(s, "rounds: {}  seats: {seats}  initial bets: {}", t.rounds, t.bets);
    let _ = writeln!(s, "rules: {}", rules.describe());
    match source {
        Source::Verifiable {
            server_seed,
            client_seed,
        } => {
            let _ = writeln!(
                s,
                "cards: verifiable; server seed {server_seed} (SHA-256 {}), client seed {client_seed:?} (the seat seeds in player order), nonce = round 0…{}, cursor 0; each round's shoe is cursor.shuffle({}) and shoe index i is card i % 52",
                provably::schemes::cursor::hash(server_seed),
                t.rounds - 1,
                52 * u32::from(rules.decks)
            );
        }
        Source::Fast { seed } => {
            let _ = writeln!(
                s,
                "cards: fast (not verifiable); xoshiro256++ per chunk of {} rounds, seeded with SHA-256(\"provably house-edge fast:{seed}:CHUNK\")",
                sim::chunk_size(source)
            );
        }
    }
    #[allow(clippy::cast_precision_loss, reason = "a percentage printed to four decimals")]
    let share = |n: u64| 100.0 * n as f64 / t.hands as f64;
    let _ = writeln!(s, "hands per outcome ({} hands):", t.hands);
    let rows = [
        (format!("blackjack, paid {}", rules.blackjack_pays), t.blackjacks),
        ("blackjack against dealer blackjack (push)".into(), t.blackjack_pushes),
        ("won".into(), t.wins),
        ("pushed".into(), t.pushes),
        ("lost".into(), t.losses),
        ("  of which busted".into(), t.busts),
        ("  of which to a dealer blackjack".into(), t.dealer_blackjacks),
    ];
    for (name, n) in rows {
        let _ = writeln!(s, "  {name:<42} {n:>12} {:>8.4} %", share(n));
    }
    let _ = writeln!(s, "doubled hands: {}  splits: {}", t.doubles, t.splits);
    s
}
