//! Integer flags read so that a wrong one names what is wanted.
//!
//! clap's own `u64` parser answers `--nonce abc` with Rust's "invalid digit
//! found in string" and takes `--nonce -1` for an unknown flag (its tip,
//! `-- -1`, then fails again). These parsers take a leading `-` as a value
//! (with `allow_negative_numbers`) and say what the flag holds: for a
//! request field, the range of the op table (the protocol parser still
//! holds the value to it, so flags and `--json` share one set of rules).
//! Only digits are integers: `1e3`, `0x10` and `1.0` are refused with the
//! range, as the protocol refuses them.

use provably::op::error::MAX_SAFE_INTEGER;
use provably::op::Kind;

/// `2^53-1` for the largest safe integer, else the number.
pub fn bound(n: u64) -> String {
    match n {
        MAX_SAFE_INTEGER => "2^53-1".into(),
        u64::MAX => "2^64-1".into(),
        n => n.to_string(),
    }
}

/// The range of request field `name` in the op table, as text.
fn field_range(name: &str) -> String {
    let range = provably::registry::ops()
        .flat_map(|o| o.fields)
        .find_map(|f| match f.kind {
            Kind::Int { min, max, .. } if f.name == name => Some((min, max)),
            _ => None,
        });
    let (min, max) = range.unwrap_or((0, MAX_SAFE_INTEGER));
    format!("an integer {}..={}", bound(min), bound(max))
}

/// Reads `text` as an integer in digits, or says why not and what `wanted` is.
pub fn digits(text: &str, wanted: &str) -> Result<u64, String> {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{text:?} is not an integer in digits; {wanted} is wanted"));
    }
    if text.starts_with('-') && body.bytes().any(|b| b != b'0') {
        return Err(format!("{text} is negative; {wanted} is wanted"));
    }
    body.parse::<u64>()
        .map_err(|_| format!("{text} is above 2^64-1; {wanted} is wanted"))
}

/// A flag for request field `name`: digits only, range checked by the protocol.
pub fn field(name: &'static str) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    let wanted = field_range(name);
    move |text: &str| digits(text, &wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wrong_integer_names_the_range() {
        let nonce = field("nonce");
        for bad in ["-1", "1e3", "abc", "0x10", "1.0", "", "99999999999999999999999"] {
            let err = nonce(bad).unwrap_err();
            assert!(err.contains("0..=2^53-1"), "{bad}: {err}");
        }
        assert_eq!(nonce("42"), Ok(42));
        assert_eq!(
            field("range")("x").unwrap_err(),
            "\"x\" is not an integer in digits; an integer 1..=2^53-1 is wanted"
        );
    }
}
