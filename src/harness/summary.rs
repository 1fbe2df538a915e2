//! What a run says to people: the summary table and each problem in full.

use super::report::{Finding, OpReport, TargetReport};

/// The summary table, one row per target: the ops it claims (of those the
/// run asks) and the ops it does not; the cases asked, and of them those
/// that agree, diverge, were skipped (declined by the target, or refused by
/// a published program) or lost to a fault (`cases` = `agree` + `diverge`
/// + `skipped` + `lost`); the faults; the time.
pub fn table(reports: &[TargetReport]) -> String {
    let mut rows = vec![[
        "target",
        "ops",
        "not claimed",
        "cases",
        "agree",
        "diverge",
        "skipped",
        "lost",
        "faults",
        "time",
    ]
    .map(String::from)
    .to_vec()];
    for r in reports {
        rows.push(vec![
            r.target.clone(),
            r.claimed_ops().to_string(),
            (r.ops.len() - r.claimed_ops()).to_string(),
            r.total(|o| o.cases).to_string(),
            r.total(|o| o.agree).to_string(),
            r.total(|o| o.diverge).to_string(),
            r.total(|o| o.skipped).to_string(),
            r.total(|o| o.faults).to_string(),
            r.faults.len().to_string(),
            format!("{:.1}s", r.seconds),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap())
        .collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c == 0 {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        out += cells.join("  ").trim_end();
        out.push('\n');
        if i == 0 {
            out += &"-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1));
            out.push('\n');
        }
    }
    out
}

/// The problems of one report, for people: every fault, every group of
/// divergences with its example, and what was declined. Everything a target
/// controls in them was escaped when the report was made.
pub fn details(r: &TargetReport) -> String {
    let mut out = String::new();
    for f in &r.faults {
        out += &format!("FAULT in {}: {f}\n\n", r.target);
    }
    for o in &r.ops {
        for d in &o.findings {
            out += &finding(r, o, d);
        }
        for (reason, n) in &o.declined {
            out += &format!("DECLINED by {} {}: {n} cases: {reason}\n", r.target, o.op);
        }
    }
    out
}

/// One finding for people: the bug first, then what separates its cases,
/// its symptom classes and the known bug it answers as, then the example.
fn finding(r: &TargetReport, o: &OpReport, d: &Finding) -> String {
    let hmac = d.hmac.as_ref().map_or(String::new(), |h| {
        format!(
            "\n  HMAC of that step (provably): key {} (UTF-8 {}), message {} (UTF-8 {})",
            h.key, h.key_hex, h.message, h.message_hex
        )
    });
    let symptoms = match &d.symptoms[..] {
        [one] => format!("1 class: {}", one.group),
        many => format!(
            "{} classes: {}",
            many.len(),
            many.iter()
                .map(|s| format!("{} ({})", s.group, s.count))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    let known = match &d.known {
        Some(k) => {
            let also = if k.also.is_empty() {
                String::new()
            } else {
                format!("; {} fit the cases tried too", k.also.join(", "))
            };
            format!(
                "`{}` ({}): reproduces the target's answers on all {} diverging cases tried and agrees on all {} agreeing ones{also}",
                k.name, k.description, k.diverging, k.agreeing
            )
        }
        None => d.unknown.clone(),
    };
    format!(
        "DIVERGENCE in {} {}: {} ({} of {} cases)\n  cause:     {}\n  separates: {}\n  symptoms:  {symptoms}\n  known bug: {known}\n  found:   {} ({})\n  minimal: {} ({} shrink steps)\n{}\n  first step where the two sides part (on the minimal request): {}{hmac}\n\n",
        r.target, o.op, d.headline, d.count, o.cases, d.cause.words(), d.separates.text, d.found, d.origin, d.request, d.shrink_steps, indent(&d.diff), d.parted
    )
}

/// Indents a diff, cut to its first 60 lines (the JSON report keeps it whole).
fn indent(s: &str) -> String {
    const SHOWN: usize = 60;
    let lines: Vec<&str> = s.lines().collect();
    let mut out: Vec<String> = lines.iter().take(SHOWN).map(|l| format!("    {l}")).collect();
    if lines.len() > SHOWN {
        out.push(format!(
            "    … {} more diff lines (the --report file has them all)",
            lines.len() - SHOWN
        ));
    }
    out.join("\n")
}
