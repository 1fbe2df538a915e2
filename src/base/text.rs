//! Text a target controls, made safe to show.
//!
//! A target's answers, its hello name, its stderr and a `--target-cmd`
//! string reach the terminal and the reports. Printed raw, `\x1b[2J` clears
//! the screen and a forged "ALL TARGETS AGREE" line follows; a right-to-left
//! override reorders a line; U+FFFE makes JUnit XML that parsers reject.
//! Everything a target controls goes through [`escape`] before it is shown
//! or stored: reversible, so the report still holds the exact bytes.

use std::fmt::Write;

/// Whether a character is shown as an escape: C0 and C1 controls, DEL,
/// the bidirectional embeddings, overrides and isolates, the line and
/// paragraph separators, and the noncharacters U+FFFE and U+FFFF.
fn hidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{061c}' | '\u{fffe}' | '\u{ffff}')
}

/// Returns `bytes` as text that shows every byte: valid UTF-8 stays as it
/// is, a backslash is doubled, a hidden character becomes `\u{…}` and a
/// byte that is not UTF-8 becomes `\x..`. Nothing in the result moves the
/// cursor, clears the screen or reorders the line.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                c if hidden(c) => {
                    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// [`escape`] for text that is already UTF-8.
pub fn escape_str(text: &str) -> String {
    escape(text.as_bytes())
}

/// [`escape`] for text of several lines: line feeds stay.
pub fn escape_lines(bytes: &[u8]) -> String {
    bytes.split(|&b| b == b'\n').map(escape).collect::<Vec<_>>().join("\n")
}

/// A JSON value as JSON text that shows every character: hidden characters
/// inside strings become `\uXXXX` escapes, so the text is still the same
/// JSON value and can be copied into a request file.
pub fn json(value: &serde_json::Value, pretty: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .expect("values serialize");
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        // Outside strings JSON is ASCII, so every hidden character is in a string.
        if hidden(c) && c != '\n' {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// Text as XML 1.0 character data or attribute value. XML 1.0 cannot
/// carry most control characters or U+FFFE and U+FFFF, not even as
/// character references: those are written as `\u{…}` (the text came
/// through [`crate::base::text::escape`] already, which does the same).
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..='\u{10ffff}' => out.push(c),
            c => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_and_bidi_overrides_are_shown_not_obeyed() {
        let hostile = "\u{1b}[2J\rALL TARGETS AGREE\u{202e}txt.exe\u{ffff}";
        let shown = escape_str(hostile);
        assert_eq!(shown, r"\u{1b}[2J\u{d}ALL TARGETS AGREE\u{202e}txt.exe\u{ffff}");
        assert!(!shown.chars().any(hidden));
    }

    #[test]
    fn json_text_keeps_its_value_and_shows_hidden_characters() {
        let v = serde_json::json!({ "seed": "a\u{202e}b\u{ffff}\u{7f}" });
        let text = json(&v, false);
        assert_eq!(text, r#"{"seed":"a\u202eb\uffff\u007f"}"#);
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), v);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_kept_as_hex_and_backslashes_stay_unambiguous() {
        assert_eq!(escape(b"a\xffb\\x00"), r"a\xffb\\x00");
        assert_eq!(escape("ß😀".as_bytes()), "ß😀");
    }
}
