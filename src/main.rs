//! The `provably` binary: argument parsing and dispatch only; everything else
//! lives in the library.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use serde_json::{Map, Value};

use provably::error::OpError;
use provably::protocol::{self, Request, OPS};

#[derive(Parser)]
#[command(
    name = "provably",
    version,
    about = "Re-derive five published provably-fair schemes and hold other implementations to the same answers."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer protocol v1 requests on stdin, one JSON line each (this implementation as a target).
    Serve,
    /// Derive one result from flags or a JSON request and print its `ok` object.
    Derive(DeriveArgs),
    /// Write the canonical vectors (one file per scheme, the web self-test bundle, their schema, the protocol schema) or check them.
    Vectors {
        /// Exit 1 with a diff if the files on disk differ from what the code generates.
        #[arg(long)]
        check: bool,
        /// The repository root: files go to vectors/ and harness/ below it.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Print exactly what `python3 referenz.py vektoren` prints, computed in Rust.
    Vektoren,
    /// After the reveal: check the commitment, re-derive the outcome and compare it with what you saw.
    Verify(provably::verify::VerifyArgs),
    /// Run the differential harness against targets (the main job).
    Diff(provably::harness::cli::DiffArgs),
    /// Serve the verification page on localhost.
    Web(provably::web::WebArgs),
}

#[derive(Args)]
struct DeriveArgs {
    /// The op, for example cursor.int or shoe.deal.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(OPS))]
    op: Option<String>,
    /// A whole request as JSON (`-` reads it from stdin); flags are then not allowed.
    #[arg(long, conflicts_with = "op")]
    json: Option<String>,
    #[arg(long)]
    server_seed: Option<String>,
    #[arg(long)]
    client_seed: Option<String>,
    #[arg(long)]
    tournament_id: Option<String>,
    #[arg(long)]
    nonce: Option<u64>,
    /// Defaults to 0 for the cursor ops.
    #[arg(long)]
    cursor: Option<u64>,
    #[arg(long)]
    range: Option<u64>,
    #[arg(long)]
    count: Option<u64>,
    #[arg(long)]
    players: Option<u64>,
    /// Cards as comma-separated integers 0..=51.
    #[arg(long, value_delimiter = ',')]
    cards: Option<Vec<u64>>,
    #[arg(long)]
    decks: Option<u64>,
    #[arg(long)]
    penetration: Option<f64>,
    #[arg(long)]
    hand: Option<u64>,
    /// Die number.
    #[arg(long)]
    n: Option<u64>,
    /// The selfpoker seed, plain decimal.
    #[arg(long)]
    seed: Option<String>,
    /// Ladder size; defaults to 25.
    #[arg(long)]
    size: Option<u64>,
}

impl DeriveArgs {
    /// The request as the JSON object the protocol parser reads, so that flags
    /// and `--json` are validated by one code path.
    fn to_request_value(&self) -> anyhow::Result<Value> {
        if let Some(json) = &self.json {
            let text = if json == "-" {
                io::read_to_string(io::stdin()).context("reading stdin")?
            } else {
                json.clone()
            };
            return provably::json::parse(&text).map_err(|e| {
                OpError::from(provably::error::InvalidInput::new("request", format!("not JSON: {e}"))).into()
            });
        }
        let Some(op) = &self.op else {
            anyhow::bail!(OpError::from(provably::error::InvalidInput::new(
                "op",
                "is missing: give an op or --json"
            )));
        };
        let mut m = Map::new();
        m.insert("op".into(), op.clone().into());
        let mut put = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(k.into(), v);
            }
        };
        put("serverSeed", self.server_seed.clone().map(Value::from));
        put("clientSeed", self.client_seed.clone().map(Value::from));
        put("tournamentId", self.tournament_id.clone().map(Value::from));
        put("nonce", self.nonce.map(Value::from));
        let cursor_default = op.starts_with("cursor.") && op != "cursor.hash";
        put("cursor", self.cursor.or(cursor_default.then_some(0)).map(Value::from));
        put("range", self.range.map(Value::from));
        put("count", self.count.map(Value::from));
        put("players", self.players.map(Value::from));
        put("cards", self.cards.clone().map(Value::from));
        put("decks", self.decks.map(Value::from));
        put("penetration", self.penetration.map(Value::from));
        put("hand", self.hand.map(Value::from));
        put("n", self.n.map(Value::from));
        put("seed", self.seed.clone().map(Value::from));
        let size_default = (op == "ladder.shuffle").then_some(provably::ladder::DEFAULT_SIZE);
        put("size", self.size.or(size_default).map(Value::from));
        Ok(Value::Object(m))
    }
}

fn derive(args: &DeriveArgs) -> anyhow::Result<ExitCode> {
    let value = args.to_request_value()?;
    let request = Request::parse(&value)?;
    let ok = protocol::execute(&request)?;
    // Only a request that was answered gets the warning: bad input reports its error alone.
    if let Some(warning) = provably::verify::server_seed_warning(&request) {
        eprintln!("warning: {warning}");
    }
    println!("{}", serde_json::to_string_pretty(&ok)?);
    Ok(ExitCode::SUCCESS)
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Serve => {
            provably::serve::serve(io::stdin().lock(), io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Derive(args) => derive(&args),
        Command::Vectors { check, root } => {
            if check {
                let drift = provably::vectors::check(&root);
                for d in &drift {
                    eprintln!("{} differs from the generated vectors:\n{}", d.file, d.diff);
                }
                if !drift.is_empty() {
                    eprintln!("run `provably vectors` (or `make vectors`) and review the change");
                    return Ok(ExitCode::from(1));
                }
                println!("vectors and schemas under {} are up to date", root.display());
            } else {
                for name in provably::vectors::write(&root)
                    .with_context(|| format!("writing vectors under {}", root.display()))?
                {
                    println!("wrote {}", root.join(name).display());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Vektoren => {
            io::stdout().lock().write_all(provably::vektoren::text().as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify(args) => provably::verify::run(&args),
        Command::Diff(args) => provably::harness::cli::run(&args),
        Command::Web(args) => {
            provably::web::serve_with(args.root.as_deref(), args.port, &args.limits(), &mut |url| {
                println!("listening on {url}");
                let _ = io::stdout().flush();
            })?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(err) => {
            // A closed stdout (`provably derive … | head`) is not an error worth a message.
            if err
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
