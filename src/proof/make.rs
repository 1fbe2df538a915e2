//! Writing proof documents (`provably proof`): rounds in, a document out.
//!
//! Each input is a round with its secret inline: a protocol v1 request
//! (an `id` is ignored), which may carry `seats` instead of `clientSeed`,
//! `external`, or its own `observed`. A round without `observed` is derived
//! and the outcome written as what was observed (all `ok` fields, or the
//! ones asked for, arrays cut to a prefix if asked). Every round is read by
//! the same code as `audit` reads it, so a document written here audits
//! with the same rules. Rounds with the same secret in a row share an epoch
//! when grouping; the commitment is computed from the secret when asked.
//! Output streams: a document's rounds are written as they come.

use std::io::{self, BufRead, Write};

use serde_json::{Map, Value};

use super::commit;
use super::round::{self, EXTERNAL, OBSERVED, SEATS};
use super::FieldError;
use crate::op::{fields::CLIENT_SEED, type_name};

/// What of a derived outcome goes into `observed`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observe {
    /// Every `ok` field.
    All,
    /// No `observed`: the round is derived and listed by `audit`, nothing compared.
    Nothing,
    /// These `ok` fields (those the op has).
    Fields(Vec<String>),
}

/// How a document is written.
#[derive(Debug, Clone)]
pub struct MakeOptions {
    /// Consecutive rounds with the same secret share one epoch (otherwise one epoch per round).
    pub group: bool,
    /// Write each epoch's commitment, computed from its secret (otherwise `null`).
    pub commit: bool,
    /// What of each derived outcome goes into `observed`.
    pub observe: Observe,
    /// Cut every observed array to its first `prefix` items.
    pub prefix: Option<usize>,
    /// JSON lines (one epoch per line) instead of a document.
    pub lines: bool,
    /// The document's `title` (a document, not JSON lines, has one).
    pub title: Option<String>,
}

impl Default for MakeOptions {
    fn default() -> Self {
        MakeOptions {
            group: false,
            commit: false,
            observe: Observe::All,
            prefix: None,
            lines: false,
            title: None,
        }
    }
}

/// Why a document could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MakeError {
    /// Occurs when an input round breaks a rule (`line` counts input lines from 1).
    #[error("{}{error}", .line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    Invalid {
        /// The input line, from 1, when rounds are read as JSON lines.
        line: Option<u64>,
        /// The rule the round breaks.
        error: FieldError,
    },
    /// Occurs when the output cannot be written or the input read.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// The epoch being written.
struct Open {
    secret: Option<(&'static str, Value)>,
    rounds: u64,
    /// JSON lines: the epoch's line until it closes.
    line: Vec<u8>,
}

/// Writes a proof document round by round.
pub struct Maker<W: Write> {
    out: W,
    options: MakeOptions,
    open: Option<Open>,
    epochs: u64,
}

impl<W: Write> Maker<W> {
    /// A maker that writes to `out`; nothing is written before the first round.
    pub fn new(out: W, options: MakeOptions) -> Maker<W> {
        Maker {
            out,
            options,
            open: None,
            epochs: 0,
        }
    }

    /// Adds one round (with its secret inline).
    pub fn push(&mut self, request: Value) -> Result<(), MakeError> {
        let invalid = |error: FieldError| MakeError::Invalid { line: None, error };
        let (secret, round) = prepare(request, &self.options).map_err(invalid)?;
        let same = self
            .open
            .as_ref()
            .is_some_and(|o| self.options.group && o.secret == secret);
        if !same {
            self.close()?;
            self.start(secret).map_err(|e| match e {
                MakeError::Invalid { error, .. } => invalid(error),
                other => other,
            })?;
        }
        let open = self.open.as_mut().expect("an epoch is open");
        let text = serde_json::to_string(&round).map_err(io::Error::from)?;
        if self.options.lines {
            if open.rounds > 0 {
                open.line.push(b',');
            }
            open.line.extend_from_slice(text.as_bytes());
        } else {
            self.out.write_all(if open.rounds > 0 { b",\n" } else { b"\n" })?;
            self.out.write_all(text.as_bytes())?;
        }
        open.rounds += 1;
        Ok(())
    }

    fn start(&mut self, secret: Option<(&'static str, Value)>) -> Result<(), MakeError> {
        let commit = match (&secret, self.options.commit) {
            (Some((field, value)), true) => {
                Value::from(commit::commitment(field, value).map_err(|error| MakeError::Invalid { line: None, error })?)
            }
            _ => Value::Null,
        };
        let mut head = format!("{{\"commit\":{commit}");
        if let Some((field, value)) = &secret {
            head.push_str(&format!(",{}:{value}", Value::from(*field)));
        }
        head.push_str(",\"rounds\":[");
        if self.options.lines {
            self.open = Some(Open {
                secret,
                rounds: 0,
                line: head.into_bytes(),
            });
            return Ok(());
        }
        if self.epochs == 0 {
            self.header()?;
            self.out.write_all(b"\n")?;
        } else {
            self.out.write_all(b",\n")?;
        }
        self.out.write_all(head.as_bytes())?;
        self.open = Some(Open {
            secret,
            rounds: 0,
            line: Vec::new(),
        });
        Ok(())
    }

    fn header(&mut self) -> io::Result<()> {
        let mut head = format!("{{\"proof\":{}", super::VERSION);
        if let Some(t) = &self.options.title {
            head.push_str(&format!(",\"title\":{}", Value::from(t.as_str())));
        }
        head.push_str(",\"epochs\":[");
        self.out.write_all(head.as_bytes())
    }

    fn close(&mut self) -> io::Result<()> {
        let Some(mut open) = self.open.take() else {
            return Ok(());
        };
        self.epochs += 1;
        if self.options.lines {
            open.line.extend_from_slice(b"]}\n");
            self.out.write_all(&open.line)
        } else {
            self.out.write_all(if open.rounds > 0 { b"\n]}" } else { b"]}" })
        }
    }

    /// Closes the document and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.close()?;
        if !self.options.lines {
            if self.epochs == 0 {
                self.header()?;
            } else {
                self.out.write_all(b"\n")?;
            }
            self.out.write_all(b"]}\n")?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Splits a request into its epoch's secret and the round as written:
/// `op`, the fields in declaration order (`seats` where `clientSeed` stands),
/// `external`, `observed`.
/// An epoch's secret: its field and value.
type Secret = Option<(&'static str, Value)>;

fn prepare(request: Value, options: &MakeOptions) -> Result<(Secret, Value), FieldError> {
    let Value::Object(mut map) = request else {
        return Err(FieldError::new(
            "request",
            format!("must be a JSON object, not {}", type_name(&request)),
        ));
    };
    map.shift_remove("id");
    let name = map.get("op").and_then(Value::as_str).unwrap_or_default();
    let field = crate::registry::find(name).and_then(|o| o.secret).map(|s| s.field);
    let secret = match field {
        Some(f) => Some((
            f,
            map.shift_remove(f)
                .ok_or_else(|| FieldError::new(f, "is missing: give the round's secret"))?,
        )),
        None => None,
    };
    let given_observed = map.contains_key(OBSERVED);
    let round = round::read_round(Value::Object(map), secret.as_ref().map(|(f, v)| (*f, v)))?;
    let observed = if given_observed || round.external.is_some() {
        round.observed.clone()
    } else {
        derive(&round.request, options)?
    };
    let mut out = Map::new();
    let spec = round.request.spec();
    out.insert("op".into(), Value::from(spec.name));
    for f in spec.fields {
        if Some(f.name) == field {
            continue;
        }
        match &round.seats {
            Some(seats) if f.name == CLIENT_SEED.name => out.insert(SEATS.into(), seats.clone()),
            _ => out.insert(
                f.name.into(),
                round.request.get(f.name).expect("the op's field").to_value(),
            ),
        };
    }
    if let Some(e) = &round.external {
        out.insert(EXTERNAL.into(), Value::from(e.as_str()));
    }
    if let Some(o) = observed {
        out.insert(OBSERVED.into(), Value::Object(o));
    }
    Ok((secret, Value::Object(out)))
}

/// The observation of a derived round, as the options ask.
fn derive(request: &crate::op::Request, options: &MakeOptions) -> Result<Option<Map<String, Value>>, FieldError> {
    let keep = |k: &str| match &options.observe {
        Observe::All => true,
        Observe::Nothing => false,
        Observe::Fields(names) => names.iter().any(|n| n == k),
    };
    if options.observe == Observe::Nothing {
        return Ok(None);
    }
    let ok = request
        .run_value()
        .map_err(|e| FieldError::new("op", format!("{} cannot be derived: {e}", request.op())))?;
    let Value::Object(ok) = ok else {
        unreachable!("ok objects are objects")
    };
    let mut observed = Map::new();
    for (k, mut v) in ok {
        if !keep(&k) {
            continue;
        }
        if let (Some(n), Value::Array(items)) = (options.prefix, &mut v) {
            items.truncate(n);
        }
        observed.insert(k, v);
    }
    if let (Observe::Fields(names), true) = (&options.observe, observed.is_empty()) {
        let fields: Vec<&str> = request.spec().ok.iter().map(|f| f.name).collect();
        return Err(FieldError::new(
            "observe",
            format!(
                "none of {} is a field of {}'s answer ({}): the round would observe nothing",
                names.join(", "),
                request.op(),
                fields.join(", ")
            ),
        ));
    }
    Ok(Some(observed))
}

/// The `--observe` names that are no `ok` field of any op (a typo such as
/// `raww`), which would observe nothing.
pub fn unknown_fields(names: &[String]) -> Vec<String> {
    names
        .iter()
        .filter(|n| !crate::registry::ops().any(|o| o.ok.iter().any(|f| f.name == n.as_str())))
        .cloned()
        .collect()
}

/// Writes a document from JSON lines of rounds (blank lines skipped); an
/// error names the input line.
pub fn from_lines<R: BufRead, W: Write>(mut input: R, out: W, options: MakeOptions) -> Result<W, MakeError> {
    let mut maker = Maker::new(out, options);
    let mut line = 0u64;
    loop {
        let text = match crate::base::lines::read_line(&mut input, crate::base::lines::MAX_LINE)? {
            crate::base::lines::Line::Eof => break,
            crate::base::lines::Line::TooLong { read, .. } => {
                line += 1;
                return Err(MakeError::Invalid {
                    line: Some(line),
                    error: FieldError::new("request", format!("the line is longer than {read} bytes")),
                });
            }
            crate::base::lines::Line::Text(t) => t,
        };
        line += 1;
        if text.iter().all(|&b| crate::base::json::is_space(b)) {
            continue;
        }
        let at = |error: FieldError| MakeError::Invalid {
            line: Some(line),
            error,
        };
        let text = std::str::from_utf8(&text).map_err(|e| at(FieldError::new("request", format!("not UTF-8: {e}"))))?;
        let value = crate::base::json::parse(text).map_err(|e| at(FieldError::new("request", e.to_string())))?;
        maker.push(value).map_err(|e| match e {
            MakeError::Invalid { error, .. } => at(error),
            other => other,
        })?;
    }
    Ok(maker.finish()?)
}
