//! `provably derive`: one result from flags or a JSON request.
//!
//! The flags are made from the op table: every field any op takes is a
//! flag (`serverSeed` is `--server-seed`), so a new op's fields need no
//! change here. Flags and `--json` end in the same request object, which
//! the protocol parser validates, so both are held to one set of rules.

use std::io::{self, Write};

use anyhow::Context;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use serde_json::{Map, Value};

use provably::op::error::{InvalidInput, OpError};
use provably::op::{self, Kind};
use provably::protocol::Message;

#[derive(Args)]
pub struct DeriveArgs {
    /// The op, for example cursor.int or shoe.deal.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(provably::registry::names()))]
    op: Option<String>,
    /// A whole request as JSON (`-` reads it from stdin); flags are then not allowed.
    #[arg(long, conflicts_with = "op")]
    json: Option<String>,
    #[command(flatten)]
    fields: FieldFlags,
}

/// One flag per request field of the op table, by wire name.
pub struct FieldFlags(Vec<(&'static str, Value)>);

/// Every field of every op once, in table order.
fn all_fields() -> Vec<&'static op::Field> {
    let mut out: Vec<&op::Field> = Vec::new();
    for f in provably::registry::ops().flat_map(|o| o.fields) {
        if !out.iter().any(|g| g.name == f.name) {
            out.push(f);
        }
    }
    out
}

/// `serverSeed` → `server-seed`.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn help(f: &op::Field) -> String {
    let what = match f.kind {
        Kind::Text => "text, used exactly as given".to_string(),
        Kind::Int { only: Some(values), .. } => format!("one of {}", op::join_ints(values)),
        Kind::Int { min, max, .. } => format!("an integer {min}..={max}"),
        Kind::Fraction => "a number strictly between 0 and 1".into(),
        Kind::Cards { .. } => "cards as comma-separated integers 0..=51".into(),
        Kind::DecimalSeed => "plain decimal digits, below 2^63".into(),
        Kind::Bool => "true or false".into(),
        Kind::Word(words) => format!("one of {}", words.join(", ")),
        Kind::Hex64 => "64 lowercase hex characters".into(),
    };
    match f.cli_default {
        Some(d) => format!("{}: {what} (default {d} where the op takes it)", f.name),
        None => format!("{}: {what}", f.name),
    }
}

/// A float flag: a finite number. NaN and the infinities parse as f64 but
/// are no JSON number; say what was given instead of "null".
pub fn finite(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("{text} is not a finite number")),
        Err(e) => Err(format!("{text:?} is not a number: {e}")),
    }
}

impl Args for FieldFlags {
    fn augment_args(mut cmd: Command) -> Command {
        for f in all_fields() {
            // A leading `-` is a value (`--nonce -1`), refused with the range.
            let arg = Arg::new(f.name)
                .long(kebab(f.name))
                .help(help(f))
                .allow_negative_numbers(true);
            cmd = cmd.arg(match f.kind {
                Kind::Int { .. } => arg.value_parser(crate::args::field(f.name)),
                Kind::Fraction => arg.value_parser(finite),
                Kind::Cards { .. } => arg
                    .value_parser(|t: &str| crate::args::digits(t, "a card number 0..=51"))
                    .value_delimiter(',')
                    .action(ArgAction::Set),
                Kind::Bool => arg.value_parser(clap::value_parser!(bool)),
                Kind::Text | Kind::DecimalSeed | Kind::Word(_) | Kind::Hex64 => arg,
            });
        }
        cmd
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for FieldFlags {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut values = Vec::new();
        for f in all_fields() {
            let v = match f.kind {
                Kind::Int { .. } => m.get_one::<u64>(f.name).map(|v| Value::from(*v)),
                Kind::Fraction => m.get_one::<f64>(f.name).map(|v| Value::from(*v)),
                Kind::Cards { .. } => m
                    .get_many::<u64>(f.name)
                    .map(|cards| Value::from(cards.copied().collect::<Vec<u64>>())),
                Kind::Bool => m.get_one::<bool>(f.name).map(|v| Value::from(*v)),
                Kind::Text | Kind::DecimalSeed | Kind::Word(_) | Kind::Hex64 => {
                    m.get_one::<String>(f.name).map(|v| Value::from(v.as_str()))
                }
            };
            if let Some(v) = v {
                values.push((f.name, v));
            }
        }
        Ok(FieldFlags(values))
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl DeriveArgs {
    /// The request as the JSON object the protocol parser reads.
    fn request_value(&self) -> anyhow::Result<Value> {
        if let Some(json) = &self.json {
            let text = if json == "-" {
                io::read_to_string(io::stdin()).context("reading stdin")?
            } else {
                json.clone()
            };
            return provably::base::json::parse(&text).map_err(|e| {
                let why = match e {
                    provably::base::json::Refused::NotJson(e) => {
                        format!("not JSON: {}", provably::base::json::why_not(&text, &e))
                    }
                    too_many @ provably::base::json::Refused::TooMany(_) => too_many.to_string(),
                };
                OpError::from(InvalidInput::new("request", why)).into()
            });
        }
        let Some(name) = &self.op else {
            anyhow::bail!(OpError::from(InvalidInput::new(
                "op",
                "is missing: give an op or --json"
            )));
        };
        Ok(self.fields.request(name))
    }
}

impl FieldFlags {
    /// The request object of op `name` from the flags given, with the
    /// command line's conveniences filled in (a cursor op starts at cursor
    /// 0, a ladder has 25 cases).
    pub fn request(&self, name: &str) -> Value {
        let mut m = Map::new();
        m.insert("op".into(), Value::from(name));
        for (k, v) in &self.0 {
            m.insert((*k).to_string(), v.clone());
        }
        for f in provably::registry::find(name).map_or(&[][..], |o| o.fields) {
            if let (Some(d), false) = (f.cli_default, m.contains_key(f.name)) {
                m.insert(f.name.to_string(), Value::from(d));
            }
        }
        Value::Object(m)
    }
}

/// Prints the request's `ok` object, pretty.
pub fn run(args: &DeriveArgs) -> anyhow::Result<()> {
    let message = Message::parse(&args.request_value()?)?;
    let ok = message.run()?.to_value();
    // Only a request that was answered gets the warning: bad input reports its error alone.
    if let Message::Request(request) = &message {
        if let Some(warning) = provably::verify::server_seed_warning(request) {
            eprintln!("warning: {warning}");
        }
    }
    writeln!(io::stdout().lock(), "{}", crate::out::people_json(&ok))?;
    Ok(())
}
