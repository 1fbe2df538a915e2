//! The library's errors. `anyhow` stays in the binary and the tests.

/// The largest integer every field may hold: 2^53 − 1, the largest integer a
/// JavaScript `Number` (and so a browser verifier) represents exactly.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The largest `count` (shuffle) and `size` (ladder) a request may ask for.
pub(crate) const MAX_COUNT: u64 = 100_000;

/// A rejected input, naming the field and saying what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct InvalidInput {
    /// The request field (for example `range`), or `request` for the line as a whole.
    pub field: String,
    /// What the field held and what was expected.
    pub reason: String,
}

impl InvalidInput {
    /// An error for the request field `field` (or `request`), saying what was wrong in `reason`.
    pub fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        InvalidInput {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// Why an operation produced no result. The variants map one to one onto the
/// protocol's error kinds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OpError {
    /// Occurs when a request is malformed or a value lies outside its range.
    #[error(transparent)]
    Invalid(#[from] InvalidInput),
    /// Occurs when an op name is not one this implementation knows.
    #[error("op {op:?} is not supported")]
    Unsupported {
        /// The op name as the request gave it.
        op: String,
    },
    /// Occurs when a die finds no byte below 252 in all 16 rounds.
    #[error("{message}")]
    Exhausted {
        /// Why there is no result, in words: the protocol error's message.
        message: String,
    },
    /// A wild target's package cannot take a valid request (a third
    /// party's limit, not a fault): the harness skips it and counts the reason.
    #[error("{reason}")]
    Declined {
        /// Why the package cannot take it; the harness counts declined cases by it.
        reason: String,
    },
}

impl OpError {
    /// The protocol's name for this error: `invalid`, `unsupported`, `exhausted` or `declined`.
    pub fn kind(&self) -> &'static str {
        match self {
            OpError::Invalid(_) => "invalid",
            OpError::Unsupported { .. } => "unsupported",
            OpError::Exhausted { .. } => "exhausted",
            OpError::Declined { .. } => "declined",
        }
    }
}

/// A decimal seed (selfpoker's, seed 002) is drawn with `secrets.randbits(63)`, so 2^63 − 1 is the largest.
pub const MAX_SEED: u64 = (1 << 63) - 1;

/// Parses a seed: plain decimal digits, no sign, no leading zeros, below 2^63.
///
/// Seeds travel as strings because a 63-bit integer does not survive a
/// JavaScript `Number`.
/// `field` names the field in the error.
pub fn parse_seed(field: &str, text: &str) -> Result<u64, InvalidInput> {
    let bad = |why: &str| InvalidInput::new(field, format!("{text:?} {why}"));
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("is not plain decimal digits"));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(bad("has a leading zero"));
    }
    match text.parse::<u64>() {
        Ok(v) if v <= MAX_SEED => Ok(v),
        _ => Err(bad("is 2^63 or more")),
    }
}

/// Checks that `value` of `field` lies in `min ..= max`.
pub(crate) fn check_range(field: &str, value: u64, min: u64, max: u64) -> Result<u64, InvalidInput> {
    if value < min || value > max {
        return Err(InvalidInput::new(field, format!("{value} is outside {min}..={max}")));
    }
    Ok(value)
}
