//! Text for humans: the one rule for showing text that someone else
//! controls (a target's answers, its hello name and stderr, a proof
//! document's keys, reasons and file names, a request's seeds).
//!
//! Printed raw, `\x1b[2J` clears the screen and a forged "verdict: match"
//! line follows; a right-to-left override reorders a line; a private-use or
//! zero-width character makes `"\u{e000}x"` look like `"x"`; U+FFFE makes
//! XML that parsers reject. Every human-readable output (the terminal,
//! JUnit, the HTML page, the audit's findings, `proof --requests` errors)
//! shows such a character as an escape, decided by `hidden` and written
//! by `escape`: reversible, so a report still holds the exact bytes.
//!
//! The classes shown escaped: C0 and C1 controls and DEL; the bidirectional
//! marks, embeddings, overrides and isolates; zero-width and other format
//! characters (Unicode category Cf), the line and paragraph separators,
//! non-ASCII spaces, fillers and variation selectors; the private-use areas
//! (U+E000..U+F8FF, planes 15 and 16); every noncharacter (U+FDD0..U+FDEF
//! and the last two code points of each plane); and the surrogate range,
//! which a Rust `char` cannot hold. This module is a primitive: it imports
//! nothing from the crate.
//!
//! Every character a terminal or a log reader may take for a line break is
//! among them: LF, CR, VT, FF, NEL (U+0085) and U+2028, U+2029. So text
//! made by `escape` is one line, and nothing a target sends starts a line
//! of its own (GitHub Actions reads a line that starts with `::` as a
//! workflow command). Only [`escape_lines`] keeps line feeds, for text
//! shown with a prefix on each line (a stderr tail).
//!
//! The runner's legacy parser reads `##[command]` anywhere in a line, so
//! `escape` and `json` also write the `[` of every `##[` as an escape
//! (`##\u{5b}`, in JSON `##\u005b`, the same JSON value): no text they
//! make holds `##[`. `#` has no case, so this covers every spelling.

use std::fmt::Write;

/// Whether `c` is shown as an escape rather than as itself.
pub(crate) fn hidden(c: char) -> bool {
    let u = u32::from(c);
    // Noncharacters: U+FDD0..U+FDEF and U+xFFFE, U+xFFFF in every plane.
    if (0xfdd0..=0xfdef).contains(&u) || u & 0xfffe == 0xfffe {
        return true;
    }
    matches!(c,
        // C0, DEL, C1.
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        // No-break and other non-ASCII spaces: they look like a space.
        | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
        // Soft hyphen, combining grapheme joiner, Hangul fillers.
        | '\u{ad}' | '\u{34f}' | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'
        // Arabic and Syriac format characters, the Arabic letter mark.
        | '\u{600}'..='\u{605}' | '\u{61c}' | '\u{6dd}' | '\u{70f}' | '\u{890}' | '\u{891}' | '\u{8e2}'
        // Mongolian free variation selectors and vowel separator.
        | '\u{180b}'..='\u{180f}'
        // Zero-width space, joiners, directional marks.
        | '\u{200b}'..='\u{200f}'
        // Line and paragraph separators, embeddings and overrides.
        | '\u{2028}'..='\u{202e}'
        // Word joiner, invisible operators, isolates, deprecated format characters.
        | '\u{2060}'..='\u{206f}'
        // Variation selectors, the byte order mark, interlinear annotation.
        | '\u{fe00}'..='\u{fe0f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
        // Private use, basic plane.
        | '\u{e000}'..='\u{f8ff}'
        // Supplementary format characters.
        | '\u{110bd}' | '\u{110cd}' | '\u{13430}'..='\u{1343f}' | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}'
        // Tags and variation selectors supplement.
        | '\u{e0000}'..='\u{e0fff}'
        // Private use, planes 15 and 16.
        | '\u{f0000}'..='\u{10ffff}')
}

/// Returns `bytes` as text that shows every byte: valid UTF-8 stays as it
/// is, a backslash is doubled, a [`hidden`] character becomes `\u{…}` and
/// a byte that is not UTF-8 becomes `\x..`, and the `[` of `##[` becomes
/// `\u{5b}`. Nothing in the result moves the cursor, clears the screen,
/// reorders the line, breaks it, hides a character or is read as a
/// workflow command.
pub(crate) fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                c if hidden(c) || legacy_command(&out, c) => push_escape(&mut out, c),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// Whether `c` would complete a `##[` at the end of `out`: the runner's
/// legacy command marker, read anywhere in a line. `#` is never escaped,
/// so `out` ending in `##` means the text did.
fn legacy_command(out: &str, c: char) -> bool {
    c == '[' && out.ends_with("##")
}

fn push_escape(out: &mut String, c: char) {
    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
}

/// `escape` for text that is already UTF-8.
pub fn escape_str(text: &str) -> String {
    escape(text.as_bytes())
}

/// `escape` for text of several lines: line feeds stay. Only for text
/// shown with a prefix on every line (see the module's doc): a line of it
/// must never start a line of output.
pub fn escape_lines(bytes: &[u8]) -> String {
    bytes.split(|&b| b == b'\n').map(escape).collect::<Vec<_>>().join("\n")
}

/// JSON text that shows every character: a `hidden` character inside a
/// string becomes a `\uXXXX` escape (a surrogate pair above the basic
/// plane), so the text is still the same JSON value and can be copied into
/// a request file. Outside strings JSON is ASCII, so only strings change;
/// a line feed outside strings (pretty printing) stays.
pub(crate) fn json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        // `##[` only occurs inside a string: `#` is not JSON outside one.
        if (hidden(c) && c != '\n') || legacy_command(&out, c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Text for HTML or XML 1.0, element content or attribute value: the five
/// markup characters as entities, and every [`hidden`] character as
/// `\u{…}` (XML 1.0 cannot carry most controls or U+FFFE, not even as a
/// character reference). Backslashes stay as they are: this is for text
/// that [`escape`] already made (a report's), shown once more in markup,
/// so a hostile report file still cannot hide or reorder anything.
pub(crate) fn markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' => out.push('\n'),
            c if hidden(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// Text as the data of a GitHub Actions workflow command (`::error::…`):
/// [`escape_str`] (which already shows CR and LF as `\u{d}`, `\u{a}`), then
/// `%`, CR and LF percent-encoded as the runner decodes them
/// (actions/toolkit `packages/core/src/command.ts`, `escapeData`), so a
/// text cannot end the command or start another.
pub(crate) fn workflow_data(text: &str) -> String {
    escape_str(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Text as a property of a workflow command (`title=…`): [`workflow_data`],
/// and `:` and `,` encoded too (`escapeProperty`).
pub(crate) fn workflow_property(text: &str) -> String {
    workflow_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Text as Markdown inline content (a step summary's lines and table
/// cells): `hidden` characters escaped as `escape` does, every ASCII
/// punctuation character Markdown could read as syntax escaped with a
/// backslash (CommonMark's backslash escapes), a line break as a space.
/// Backslashes are escaped too, so a report's `\u{1b}` is shown as it is.
pub fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c if hidden(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// Text as a fenced Markdown code block: [`hidden`] characters escaped,
/// and a fence longer than any run of backticks inside, so nothing in the
/// text can close the block.
pub(crate) fn markdown_code(text: &str, info: &str) -> String {
    let mut body = String::with_capacity(text.len());
    for c in text.chars() {
        if hidden(c) && c != '\n' {
            push_escape(&mut body, c);
        } else {
            body.push(c);
        }
    }
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{info}\n{}\n{fence}\n", body.trim_end_matches('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One character of every class that must not reach a human raw.
    pub(crate) const CLASSES: &[(&str, char)] = &[
        ("C0 escape", '\u{1b}'),
        ("C0 bell", '\u{7}'),
        ("carriage return", '\r'),
        ("DEL", '\u{7f}'),
        ("C1 CSI", '\u{9b}'),
        ("no-break space", '\u{a0}'),
        ("soft hyphen", '\u{ad}'),
        ("Arabic letter mark", '\u{61c}'),
        ("zero-width space", '\u{200b}'),
        ("zero-width joiner", '\u{200d}'),
        ("left-to-right mark", '\u{200e}'),
        ("line separator", '\u{2028}'),
        ("right-to-left override", '\u{202e}'),
        ("word joiner", '\u{2060}'),
        ("first strong isolate", '\u{2068}'),
        ("private use E000", '\u{e000}'),
        ("private use F8FF", '\u{f8ff}'),
        ("noncharacter FDD0", '\u{fdd0}'),
        ("noncharacter FDEF", '\u{fdef}'),
        ("variation selector 16", '\u{fe0f}'),
        ("byte order mark", '\u{feff}'),
        ("noncharacter FFFE", '\u{fffe}'),
        ("noncharacter FFFF", '\u{ffff}'),
        ("noncharacter 1FFFE", '\u{1fffe}'),
        ("tag space", '\u{e0020}'),
        ("private use F0000", '\u{f0000}'),
        ("private use 100000", '\u{100000}'),
        ("noncharacter 10FFFF", '\u{10ffff}'),
    ];

    #[test]
    fn every_invisible_class_is_shown_escaped_by_every_function() {
        for &(class, c) in CLASSES {
            let text = format!("a{c}b");
            for (how, shown) in [
                ("escape", escape_str(&text)),
                ("escape_lines", escape_lines(text.as_bytes())),
                ("json", json(&serde_json::to_string(&text).unwrap())),
                ("markup", markup(&text)),
            ] {
                assert!(
                    !shown.contains(c),
                    "{class} (U+{:04X}) reached {how} raw: {shown:?}",
                    u32::from(c)
                );
            }
        }
    }

    #[test]
    fn visible_text_stays_as_it_is() {
        for text in ["ß😀 café", "abc xyz", "日本語", "Ünïcödé"] {
            assert_eq!(escape_str(text), text);
        }
    }

    #[test]
    fn terminal_controls_and_bidi_overrides_are_shown_not_obeyed() {
        let hostile = "\u{1b}[2J\rALL TARGETS AGREE\u{202e}txt.exe\u{ffff}";
        assert_eq!(
            escape_str(hostile),
            r"\u{1b}[2J\u{d}ALL TARGETS AGREE\u{202e}txt.exe\u{ffff}"
        );
    }

    #[test]
    fn json_text_keeps_its_value_and_shows_hidden_characters() {
        let v = serde_json::json!({ "seed": "a\u{202e}b\u{ffff}\u{7f}\u{100000}" });
        let text = json(&v.to_string());
        assert_eq!(text, r#"{"seed":"a\u202eb\uffff\u007f\udbc0\udc00"}"#);
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), v);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_kept_as_hex_and_backslashes_stay_unambiguous() {
        assert_eq!(escape(b"a\xffb\\x00"), r"a\xffb\\x00");
    }

    #[test]
    fn workflow_commands_cannot_be_ended_or_forged() {
        let text = "50% done\r\n::error::forged\u{1b}[2J";
        let data = workflow_data(text);
        assert_eq!(data, "50%25 done\\u{d}\\u{a}::error::forged\\u{1b}[2J");
        assert!(!data.contains('\n') && !data.contains('\r'));
        assert_eq!(workflow_property("a:b,c"), "a%3Ab%2Cc");
    }

    #[test]
    fn no_line_break_of_any_kind_survives_escape() {
        for brk in ['\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}'] {
            let shown = escape_str(&format!("nope{brk}::stop-commands::x"));
            assert_eq!(shown.lines().count(), 1, "U+{:04X}: {shown:?}", u32::from(brk));
            assert!(!shown.contains(brk), "U+{:04X}: {shown:?}", u32::from(brk));
            assert!(!workflow_data(&shown).contains(brk));
        }
    }

    #[test]
    fn the_runners_legacy_command_marker_never_survives() {
        let text = r"##[error]a ###[warning]b #\u{5b} ##";
        let shown = escape_str(text);
        assert_eq!(shown, r"##\u{5b}error]a ###\u{5b}warning]b #\\u{5b} ##");
        assert!(!shown.contains("##["), "{shown}");
        assert!(!escape_lines(b"x\n##[group]").contains("##["));
        let v = serde_json::json!({ "action": text });
        let shown = json(&v.to_string());
        assert!(!shown.contains("##["), "{shown}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&shown).unwrap(), v);
        assert!(!workflow_data(text).contains("##["));
    }

    #[test]
    fn markdown_shows_syntax_as_text_and_code_blocks_cannot_be_closed() {
        assert_eq!(markdown("*a* [x](y) <b>\n|"), "\\*a\\* \\[x\\]\\(y\\) \\<b\\> \\|");
        let block = markdown_code("``` x\u{202e}", "json");
        assert!(block.starts_with("````json\n"), "{block}");
        assert!(block.contains("\\u{202e}") && block.ends_with("\n````\n"), "{block}");
    }

    #[test]
    fn markup_escapes_entities_once_more() {
        assert_eq!(
            markup("<a href='x'>&amp;\u{1b}</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;amp;\\u{1b}&lt;/a&gt;"
        );
    }
}
