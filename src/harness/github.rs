//! Reports where engineers read them in GitHub Actions: the step summary
//! (`$GITHUB_STEP_SUMMARY`, GitHub-flavoured Markdown) and one `::error`
//! annotation per finding, as ruff's `--output-format github` writes one
//! per diagnostic.
//!
//! Everything a target controls was escaped when the report was made, and
//! is escaped once more for where it goes, by the one rule of
//! [`crate::base::text`]: [`markdown`] for text in the summary,
//! [`markdown_code`] for requests and diffs, [`workflow_data`] and
//! [`workflow_property`] for annotations. A target cannot add a link,
//! close a code block, or end an annotation and forge another.

use std::fmt::Write as _;

use super::report::{Finding, OpReport, Run, TargetReport};
use crate::base::text::{markdown, markdown_code, workflow_data, workflow_property};

/// The step summary of a run: the target table, then one block per finding
/// (op, cause, what separates its cases, its known bug, the minimal
/// request) and one line per fault.
pub fn summary(run: &Run) -> String {
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
    for t in &run.targets {
        for o in &t.ops {
            for f in &o.findings {
                md.push_str(&block(t, o, f));
            }
        }
        for f in &t.faults {
            let _ = writeln!(
                md,
                "- **fault** in {}: `{}`: {}\n",
                markdown(&t.target),
                f.kind.name(),
                markdown(&f.detail)
            );
        }
    }
    md
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
