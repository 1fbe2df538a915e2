//! Python's text forms, so that `provably vektoren` prints exactly what the
//! published `referenz.py vektoren` prints.

use std::io;

use serde::Serialize;

/// The shortest digits that read back to |x| (finite, not zero) and the
/// place of the decimal point: |x| = 0.digits × 10^decpt. Rust's `{:e}`
/// gives the same shortest round-trip digits as Python's repr and
/// JavaScript's `String`; only their layouts differ.
fn shortest(x: f64) -> (String, i32) {
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("exponent is an integer");
    (mantissa.chars().filter(|c| *c != '.').collect(), exp + 1)
}

/// `digits` with the point after `decpt` digits (0 < decpt), padded with zeros.
fn fixed(digits: &str, decpt: i32, integer_tail: &str) -> String {
    let places = decpt.unsigned_abs() as usize;
    if decpt <= 0 {
        format!("0.{}{}", "0".repeat(places), digits)
    } else if places >= digits.len() {
        format!("{}{}{integer_tail}", digits, "0".repeat(places - digits.len()))
    } else {
        format!("{}.{}", &digits[..places], &digits[places..])
    }
}

/// d.ddd then `e`, the exponent's sign and at least `width` digits.
fn scientific(digits: &str, decpt: i32, width: usize) -> String {
    let exp = decpt - 1;
    let m = if digits.len() > 1 {
        format!("{}.{}", &digits[..1], &digits[1..])
    } else {
        digits.to_string()
    };
    format!("{m}e{}{:0width$}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// Returns `repr(x)` as CPython 3 prints a float: the shortest digits that
/// read back to `x`, fixed notation for 1e-4 ≤ |x| < 1e16, otherwise
/// scientific with a signed exponent of at least two digits.
pub(crate) fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let (digits, decpt) = shortest(x);
    let sign = if x < 0.0 { "-" } else { "" };
    let body = if -4 < decpt && decpt <= 16 {
        fixed(&digits, decpt, ".0")
    } else {
        scientific(&digits, decpt, 2)
    };
    format!("{sign}{body}")
}

/// Returns `String(x)` as JavaScript writes a number (ECMAScript
/// Number::toString): the shortest digits, fixed notation for
/// 1e-6 ≤ |x| < 1e21 (no `.0` on an integer), otherwise scientific with a
/// signed exponent (`5e-324`, `1e+21`). What the page writes too, so a
/// number in a family's name or a level reads the same on both sides, and
/// a tiny one is not written out in 300 digits.
pub fn js_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if x == 0.0 {
        return "0".into();
    }
    let (digits, decpt) = shortest(x);
    let sign = if x < 0.0 { "-" } else { "" };
    let body = if -6 < decpt && decpt <= 21 {
        fixed(&digits, decpt, "")
    } else {
        scientific(&digits, decpt, 1)
    };
    format!("{sign}{body}")
}

/// serde_json's pretty printer with Python's `ensure_ascii`: every character
/// outside printable ASCII is written as `\uXXXX` (surrogate pairs above the BMP).
struct AsciiPretty<'a>(serde_json::ser::PrettyFormatter<'a>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $name<W: ?Sized + io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            self.0.$name(w $(, $arg)*)
        })*
    };
}

impl serde_json::ser::Formatter for AsciiPretty<'_> {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }

    fn write_string_fragment<W: ?Sized + io::Write>(&mut self, w: &mut W, fragment: &str) -> io::Result<()> {
        for c in fragment.chars() {
            if (' '..='~').contains(&c) {
                w.write_all(&[c as u8])?;
            } else {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(w, "\\u{:04x}", u)?;
                }
            }
        }
        Ok(())
    }
}

/// Returns `json.dumps(value, indent=2)` as CPython prints it (ensure_ascii on).
pub(crate) fn dumps_indent2<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let fmt = AsciiPretty(serde_json::ser::PrettyFormatter::with_indent(b"  "));
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    value.serialize(&mut ser).expect("serializing to memory cannot fail");
    String::from_utf8(out).expect("the output is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_switches_notation_where_python_does() {
        // Expected strings are CPython 3.11's repr of the same doubles.
        let cases = [
            (0.5, "0.5"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-05, "1.5e-05"),
            (2.3283064365386963e-10, "2.3283064365386963e-10"),
            (1e16, "1e+16"),
            (1234567890123456.0, "1234567890123456.0"),
            (123.0, "123.0"),
            (0.9999999997671694, "0.9999999997671694"),
        ];
        for (x, want) in cases {
            assert_eq!(float_repr(x), want, "{x:e}");
        }
    }

    #[test]
    fn dumps_escapes_like_ensure_ascii() {
        assert_eq!(dumps_indent2(&"é\u{7f}😀\n"), r#""\u00e9\u007f\ud83d\ude00\n""#);
    }
}
