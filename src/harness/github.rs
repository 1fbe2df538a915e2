//! Reports where engineers read them in GitHub Actions: the step summary
//! (`$GITHUB_STEP_SUMMARY`, GitHub-flavoured Markdown) and one `::error`
//! annotation per finding, as ruff's `--output-format github` writes one
//! per diagnostic.
//!
//! Everything a target controls was escaped when the report was made, and
//! is escaped once more for where it goes, by the one rule of
//! [`crate::base::text`]: [`markdown`] for text in the summary,
//! `markdown_code` for requests and diffs, `workflow_data` and
//! `workflow_property` for annotations. A target cannot add a link,
//! close a code block, or end an annotation and forge another.
//!
//! The runner reads a line of the log that starts with `::` (after white
//! space) as a workflow command, and one holding `##[` as a legacy one.
//! The one rule escapes every line break and every `##[` in what a target
//! sends; and all the human-readable output of a run goes between
//! `::stop-commands::TOKEN` and `::TOKEN::` ([`Quiet`]), with a token the
//! target cannot guess, so that even a line the rule missed is only text.
//! The annotations come after the resume line.
//!
//! GitHub drops a step summary over 1,024 KiB whole (the runner's error
//! annotation: "$GITHUB_STEP_SUMMARY upload aborted, supports content up to
//! a size of 1024k"; docs.github.com, "Workflow commands for GitHub
//! Actions", "Adding a job summary"): [`summary`] stops adding findings at
//! the limit it is given and says how many it left out.

use std::fmt::Write as _;

use super::report::{Finding, OpReport, Run, TargetReport};
use crate::base::text::{markdown, markdown_code, workflow_data, workflow_property};

/// The most bytes of step summary a run writes: GitHub's cap per step is
/// 1,024 KiB, and the margin leaves room for what other steps' tools add.
pub const SUMMARY_LIMIT: usize = 896 * 1024;

/// The commands of a run's log stopped and resumed: [`Quiet::stop`] before
/// the first human-readable line, [`Quiet::resume`] before the first
/// annotation. The token is 128 random bits from the OS, new each run.
pub struct Quiet {
    token: String,
}

impl Quiet {
    /// A fresh token, or an error when the OS gives no random bytes (the
    /// run then must not print a guessable one).
    pub fn new() -> std::io::Result<Quiet> {
        use std::io::Read as _;
        let mut bytes = [0u8; 16];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        let token = bytes.iter().fold(String::from("provably-"), |mut t, b| {
            let _ = write!(t, "{b:02x}");
            t
        });
        Ok(Quiet { token })
    }

    /// The line that stops the runner reading commands.
    pub fn stop(&self) -> String {
        format!("::stop-commands::{}\n", self.token)
    }

    /// The line that resumes it.
    pub fn resume(&self) -> String {
        format!("::{}::\n", self.token)
    }
}

/// The step summary of a run: the target table, then one block per finding
/// (op, cause, what separates its cases, its known bug, the minimal
/// request) and one line per fault, in at most `limit` bytes: the findings
/// and faults past it are counted in a last line instead.
pub fn summary(run: &Run, limit: usize) -> String {
    let mut md = String::from("## provably diff\n\n");
    md.push_str("| target | ops | not claimed | cases | agree | diverge | skipped | lost | faults | time |\n");
    md.push_str("|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for t in &run.targets {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1}s |",
            markdown(&t.target),
            t.claimed_ops(),
            t.ops.len() - t.claimed_ops(),
            t.total(|o| o.cases),
            t.total(|o| o.agree),
            t.total(|o| o.diverge),
            t.total(|o| o.skipped),
            t.total(|o| o.faults),
            t.faults.len(),
            t.seconds
        );
    }
    let _ = writeln!(
        md,
        "\nseed {} · {} generated cases per op{}\n",
        run.seed,
        if run.vectors_only { 0 } else { run.cases },
        if run.vectors_only { " (vectors only)" } else { "" }
    );
    let mut cut = Cut::default();
    let room = limit.saturating_sub(CUT_LINE);
    if md.len() > room {
        md.clear();
        cut.full = true;
    }
    for t in &run.targets {
        for o in &t.ops {
            for f in &o.findings {
                cut.add(&mut md, room, &block(t, o, f), true);
            }
        }
        for f in &t.faults {
            let line = format!(
                "- **fault** in {}: `{}`: {}\n\n",
                markdown(&t.target),
                f.kind.name(),
                markdown(&f.detail)
            );
            cut.add(&mut md, room, &line, false);
        }
    }
    if cut.full {
        let _ = writeln!(
            md,
            "**Cut:** {} finding(s) and {} fault(s) not shown{}: a step summary holds at most {} KiB here \
(GitHub drops one over 1,024 KiB whole); the JSON report (`--report`) has every one.",
            cut.findings,
            cut.faults,
            if md.is_empty() { ", nor the table" } else { "" },
            limit / 1024
        );
    }
    md
}

/// Room kept for the line that says what was cut.
const CUT_LINE: usize = 512;

/// What did not fit in the summary.
#[derive(Default)]
struct Cut {
    /// Set by the first part that did not fit: every later one is cut too.
    full: bool,
    findings: usize,
    faults: usize,
}

impl Cut {
    /// Adds `part` to `md` if it fits in `room` and nothing was cut before
    /// (the summary keeps the run's order), else counts it.
    fn add(&mut self, md: &mut String, room: usize, part: &str, finding: bool) {
        self.full |= md.len() + part.len() > room;
        if !self.full {
            md.push_str(part);
        } else if finding {
            self.findings += 1;
        } else {
            self.faults += 1;
        }
    }
}

fn block(t: &TargetReport, o: &OpReport, f: &Finding) -> String {
    let known = f.known.as_ref().map_or_else(
        || markdown(&f.unknown),
        |k| format!("{} ({})", markdown(&format!("`{}`", k.name)), markdown(&k.description)),
    );
    format!(
        "### {op} in {target}: {headline}\n\n\
- **cases:** {count} of {cases} diverge ({classes} symptom class(es))\n\
- **cause:** {cause}\n\
- **separates:** {separates}\n\
- **known bug:** {known}\n\n\
Minimal request:\n\n{request}\n",
        op = markdown(&o.op),
        target = markdown(&t.target),
        headline = markdown(&f.headline),
        count = f.count,
        cases = o.cases,
        classes = f.symptoms.len(),
        cause = markdown(f.cause.words()),
        separates = markdown(&f.separates.text),
        request = markdown_code(&f.request, "json"),
    )
}

/// One `::error` line per finding and per fault, for the job's annotations.
pub fn annotations(run: &Run) -> String {
    let mut out = String::new();
    for t in &run.targets {
        for o in &t.ops {
            for f in &o.findings {
                let title = format!("provably: {} {}", t.target, o.op);
                let text = format!(
                    "{} ({} of {} cases). Separates: {}. Minimal request: {}",
                    f.headline, f.count, o.cases, f.separates.text, f.request
                );
                let _ = writeln!(
                    out,
                    "::error title={}::{}",
                    workflow_property(&title),
                    workflow_data(&text)
                );
            }
        }
        for f in &t.faults {
            let title = format!("provably: {} fault {}", t.target, f.kind.name());
            let _ = writeln!(
                out,
                "::error title={}::{}",
                workflow_property(&title),
                workflow_data(&f.detail)
            );
        }
    }
    out
}
