//! Standard output for the commands that print a listing (`diff`, `audit`,
//! `verify`, `proof`): once the reader goes away (`| head`), writing stops,
//! quietly, and nothing else changes. The run goes on to its end, its
//! report files are still written and its exit status still says what it
//! found: a closed stdout must not turn a mismatch into success, nor an
//! error into a panic.

use std::io::{self, Write};

use anyhow::Context;

#[derive(Debug, Default)]
pub struct Out {
    closed: bool,
}

impl Out {
    /// Writes `text` and flushes it.
    pub fn print(&mut self, text: &str) -> anyhow::Result<()> {
        self.write_all(text.as_bytes())
            .and_then(|()| self.flush())
            .context("writing to stdout")
    }

    /// Runs a write on stdout unless it is closed; a closed stdout (EPIPE)
    /// marks it closed and counts as written.
    fn unless_closed<T>(&mut self, done: T, f: impl FnOnce(&mut io::StdoutLock) -> io::Result<T>) -> io::Result<T> {
        if self.closed {
            return Ok(done);
        }
        match f(&mut io::stdout().lock()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            other => other,
        }
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.unless_closed(buf.len(), |s| s.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.unless_closed((), |s| s.flush())
    }
}

/// The widest line [`people_json`] writes, where it can.
const WIDTH: usize = 100;

/// JSON for people: a value that fits on its line is written on it
/// (`{"face": 6}`), a longer list of numbers or texts is filled into lines
/// of at most 100 columns (a 312-card shoe in 17 lines, not 314), and
/// anything else gets one member per line. It parses back to the same value.
pub fn people_json(v: &serde_json::Value) -> String {
    let mut out = String::new();
    write_json(v, 0, 0, &mut out);
    out
}

/// One line's worth of `v`: `[1, 2]`, `{"a": 1}`.
fn flat_json(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Array(items) => format!("[{}]", items.iter().map(flat_json).collect::<Vec<_>>().join(", ")),
        Value::Object(m) => {
            let members: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), flat_json(v)))
                .collect();
            format!("{{{}}}", members.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

/// Writes `v` at `indent`, its first line starting at column `used`.
fn write_json(v: &serde_json::Value, indent: usize, used: usize, out: &mut String) {
    use serde_json::Value;
    let flat = flat_json(v);
    let pad = " ".repeat(indent + 2);
    match v {
        _ if used + flat.len() <= WIDTH => out.push_str(&flat),
        Value::Array(items) if items.iter().all(|i| !i.is_array() && !i.is_object()) => {
            out.push('[');
            let mut column = WIDTH;
            for (k, item) in items.iter().enumerate() {
                let text = item.to_string();
                let comma = if k + 1 < items.len() { "," } else { "" };
                if column + 1 + text.len() + comma.len() > WIDTH {
                    out.push('\n');
                    out.push_str(&pad);
                    column = pad.len();
                } else {
                    out.push(' ');
                    column += 1;
                }
                out.push_str(&text);
                out.push_str(comma);
                column += text.len() + comma.len();
            }
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            out.push(']');
        }
        Value::Array(items) => {
            out.push_str("[\n");
            for (k, item) in items.iter().enumerate() {
                out.push_str(&pad);
                write_json(item, indent + 2, indent + 2, out);
                out.push_str(if k + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&" ".repeat(indent));
            out.push(']');
        }
        Value::Object(m) => {
            out.push_str("{\n");
            for (k, (key, item)) in m.iter().enumerate() {
                let key = format!("{}: ", Value::from(key.as_str()));
                out.push_str(&pad);
                out.push_str(&key);
                write_json(item, indent + 2, indent + 2 + key.len(), out);
                out.push_str(if k + 1 < m.len() { ",\n" } else { "\n" });
            }
            out.push_str(&" ".repeat(indent));
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people_json_parses_back_and_keeps_to_100_columns() {
        let cards: Vec<String> = (0..312).map(|i| format!("{}H", i % 10)).collect();
        let v = serde_json::json!({"cards": cards, "cut": 234, "hole": [[21, 30], [17, 39]], "s": "ä\"\\"});
        let text = people_json(&v);
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), v);
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        assert!(text.lines().count() < 30, "{text}");
        assert_eq!(people_json(&serde_json::json!({"face": 6})), r#"{"face": 6}"#);
    }
}
