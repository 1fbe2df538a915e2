//! The conformance page's readings sections: game × implementation, one
//! section per scheme whose published sources disagree.
//!
//! A scheme has a section when one of its ops declares other readings
//! ([`crate::op::OpSpec::readings`]): its verifiers are trusted without a
//! check, and the sources they follow disagree on some games (Stake's
//! Limbo at least). The section turns the main table around: one row per
//! game (each op of the scheme some target claims), one column per
//! implementation that claims one, and each cell says which reading the
//! implementation follows:
//!
//! - `canonical`: every case agrees with provably, whose answers are the
//!   canonical reading (docs/schemes.md);
//! - the reading its recorded finding names: an expectation's cause that
//!   starts `follows the NAME reading` (harness/expectations/TARGET.toml)
//!   names the reading the target follows, and the cell shows NAME;
//! - otherwise `diverges`, with the finding's group.
//!
//! Each diverging cell links to its finding in the list below the table:
//! the minimal request and both answers, so each reading has its
//! reproduction on the page. Everything from the run files is escaped
//! ([`crate::base::text::markup`]).

use std::fmt::Write as _;

use super::report::{Finding, OpReport, Run, TargetReport};
use crate::base::text::markup as esc;
use crate::op::Scheme;

/// The reading a recorded cause names: "follows the NAME reading…" → NAME.
pub(crate) fn reading_of(cause: &str) -> Option<&str> {
    let rest = cause.strip_prefix("follows the ")?;
    let end = rest.find(" reading")?;
    Some(&rest[..end]).filter(|name| !name.is_empty())
}

/// Whether `op` is one of the scheme's ops, by its declaration.
fn of_scheme(scheme: &Scheme, op: &str) -> bool {
    scheme.ops.iter().any(|o| o.name == op)
}

/// The schemes whose sources disagree: one of their ops declares other readings.
fn disputed() -> impl Iterator<Item = &'static Scheme> {
    crate::registry::schemes()
        .iter()
        .copied()
        .filter(|s| s.ops.iter().any(|o| !o.readings.is_empty()))
}

/// The scheme's name as its players write it: `stake` → `Stake`.
fn title(scheme: &Scheme) -> String {
    let mut chars = scheme.name.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The scheme's ops some target claims, in protocol order.
fn games(scheme: &Scheme, targets: &[&TargetReport]) -> Vec<String> {
    let mut ops: Vec<String> = Vec::new();
    for o in targets.iter().flat_map(|t| &t.ops) {
        if o.claimed && of_scheme(scheme, &o.op) && !ops.contains(&o.op) {
            ops.push(o.op.clone());
        }
    }
    let order = crate::registry::names();
    ops.sort_by_key(|op| order.iter().position(|n| n == op).unwrap_or(usize::MAX));
    ops
}

/// The id of a finding in the section's list.
fn id(scheme: &Scheme, t: &TargetReport, o: &OpReport, i: usize) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect()
    };
    format!("{}--{}--{}--{i}", scheme.name, clean(&t.target), clean(&o.op))
}

/// What a finding says the target follows: the recorded reading, or the group.
fn label(f: &Finding) -> String {
    // The harness's own group names the reading: "follows reading NAME (source)".
    if let Some(rest) = f.group.strip_prefix("follows reading ") {
        let name = rest.split(" (").next().unwrap_or(rest);
        return format!("{name} reading");
    }
    match f.recorded.as_deref().and_then(reading_of) {
        Some(name) => format!("{name} reading"),
        None => format!("diverges: {}", f.group),
    }
}

fn cell(scheme: &Scheme, t: &TargetReport, o: &OpReport) -> String {
    if !o.claimed {
        return "<td class=\"cell na\" title=\"not claimed\">—</td>".into();
    }
    if o.faults > 0 {
        return format!(
            "<td class=\"cell fault\">fault<span class=\"n\">{} lost</span></td>",
            o.faults
        );
    }
    if o.findings.is_empty() {
        let (class, word) = if o.agree == 0 {
            ("skipped", "skipped")
        } else {
            ("agree", "canonical")
        };
        return format!(
            "<td class=\"cell {class}\">{word}<span class=\"n\">{} of {} agree</span></td>",
            o.agree, o.cases
        );
    }
    let mut h = String::from("<td class=\"cell diverge\">");
    for (i, f) in o.findings.iter().enumerate() {
        let _ = write!(h, "<a href=\"#{}\">{}</a><br>", id(scheme, t, o, i), esc(&label(f)));
    }
    let _ = write!(h, "<span class=\"n\">{} of {} diverge</span></td>", o.diverge, o.cases);
    h
}

fn finding(scheme: &Scheme, t: &TargetReport, o: &OpReport, i: usize, f: &Finding) -> String {
    let cause = f
        .recorded
        .as_deref()
        .map_or_else(|| "not recorded: a new finding".to_string(), str::to_string);
    format!(
        "<li id=\"{id}\"><b>{target}</b>, <code>{op}</code> — {label}. {cause} ({count} of {cases} cases)\
<pre class=\"request\">{request}</pre><div class=\"two\"><div>provably (canonical): <pre>{expected}</pre></div>\
<div>{target}: <pre>{got}</pre></div></div></li>\n",
        id = id(scheme, t, o, i),
        target = esc(&t.target),
        op = esc(&o.op),
        label = esc(&label(f)),
        cause = esc(&cause),
        count = f.count,
        cases = o.cases,
        request = esc(&f.request),
        expected = esc(&f.expected),
        got = esc(&f.got),
    )
}

/// The sections for `runs`, one per disputed scheme some target claims an op of.
pub(crate) fn sections(runs: &[Run]) -> String {
    disputed().map(|scheme| section(scheme, runs)).collect()
}

/// The scheme's section for `runs`; empty when no target claims one of its ops.
fn section(scheme: &Scheme, runs: &[Run]) -> String {
    let targets: Vec<&TargetReport> = runs
        .iter()
        .flat_map(|r| &r.targets)
        .filter(|t| t.ops.iter().any(|o| o.claimed && of_scheme(scheme, &o.op)))
        .collect();
    let games = games(scheme, &targets);
    if games.is_empty() {
        return String::new();
    }
    let (name, title) = (scheme.name, title(scheme));
    let mut h = format!(
        "<h2 id=\"{name}\">{title}'s games</h2>\n<p class=\"lead\">One row per game (a <code>{name}.*</code> op), one column per \
implementation. <i>canonical</i>: every case agrees with provably, the canonical reading of {title}'s published pages; \
otherwise the reading the implementation follows, as its recorded finding names it, linked to the minimal request \
that tells the readings apart.</p>\n<div class=\"scroll\"><table id=\"{name}-games\"><thead><tr><th>game</th>",
    );
    for t in &targets {
        let _ = write!(h, "<th scope=\"col\">{}</th>", esc(&t.target));
    }
    h.push_str("</tr></thead><tbody>\n");
    for game in &games {
        let _ = write!(h, "<tr><th scope=\"row\"><code>{}</code></th>", esc(game));
        for t in &targets {
            match t.ops.iter().find(|o| &o.op == game) {
                Some(o) => h.push_str(&cell(scheme, t, o)),
                None => h.push_str("<td class=\"cell na\" title=\"not claimed\">—</td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    let _ = write!(
        h,
        "</tbody></table></div>\n<h3>{title} findings, each with its minimal reproduction</h3>\n<ul class=\"{name}-findings\">\n"
    );
    let mut any = false;
    for t in &targets {
        for o in t.ops.iter().filter(|o| of_scheme(scheme, &o.op)) {
            for (i, f) in o.findings.iter().enumerate() {
                any = true;
                h.push_str(&finding(scheme, t, o, i, f));
            }
        }
    }
    if !any {
        h.push_str("<li>None: every implementation follows the canonical reading on every case.</li>\n");
    }
    h.push_str("</ul>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_cause_names_its_reading() {
        assert_eq!(reading_of("follows the fair reading (no clamp): x"), Some("fair"));
        assert_eq!(reading_of("follows the  reading"), None);
        assert_eq!(reading_of("the page rounds"), None);
    }

    const RUN: &str = r#"{"version":2,"seed":1,"cases":2,"vectorsOnly":false,"jobs":1,"targets":[
      {"target":"fair<x>","instances":1,"seconds":0.5,"ops":[
        {"op":"stake.dice","claimed":true,"cases":4,"agree":4,"diverge":0,"skipped":0,"faults":0,"findings":[]},
        {"op":"stake.limbo","claimed":true,"cases":4,"agree":3,"diverge":1,"skipped":0,"faults":0,"findings":[
          {"op":"stake.limbo","headline":"multiplier differs","group":"multiplier differs",
           "symptoms":[{"group":"multiplier differs","count":1}],
           "separates":{"text":"no simple property found","diverging":1,"divergingWith":0,"agreeing":3,"agreeingWith":0,"confirmedBy":0},
           "cause":"mapping","count":1,"origin":"vector","found":"",
           "request":"{\"op\":\"stake.limbo\"}","shrink_steps":0,"expected":"{\"multiplier\":1}","got":"{\"multiplier\":0.99}",
           "diff":"","parted":"","recorded":"follows the no-clamp reading: <b>"}]}],"faults":[]},
      {"target":"crypto-js","instances":1,"seconds":0.1,"ops":[
        {"op":"cursor.hash","claimed":true,"cases":5,"agree":5,"diverge":0,"skipped":0,"faults":0,"findings":[]}]}]}"#;

    #[test]
    fn each_game_cell_names_the_reading_and_links_its_reproduction() {
        let run: Run = serde_json::from_str(RUN).unwrap();
        let h = sections(&[run]);
        assert!(
            h.contains("<code>stake.dice</code></th><td class=\"cell agree\">canonical"),
            "{h}"
        );
        assert!(h.contains("no-clamp reading</a>"), "{h}");
        let id = "stake--fair-x---stake-limbo--0";
        assert!(
            h.contains(&format!("href=\"#{id}\"")) && h.contains(&format!("id=\"{id}\"")),
            "{h}"
        );
        assert!(h.contains("{&quot;multiplier&quot;:0.99}"), "{h}");
        assert!(
            !h.contains("reading: <b>") && h.contains("reading: &lt;b&gt;"),
            "escaped: {h}"
        );
        assert!(!h.contains("fair<x>"), "escaped: {h}");
        assert!(!h.contains("crypto-js"), "a target with no Stake op has no column");
    }

    #[test]
    fn a_run_with_no_op_of_a_disputed_scheme_has_no_readings_section() {
        let run: Run = serde_json::from_str(&RUN.replace("stake.", "cursor.")).unwrap();
        assert_eq!(sections(&[run]), "");
    }

    #[test]
    fn a_scheme_has_a_readings_section_exactly_when_an_op_of_it_declares_readings() {
        let names: Vec<&str> = disputed().map(|s| s.name).collect();
        for scheme in crate::registry::schemes() {
            let declares = scheme.ops.iter().any(|o| !o.readings.is_empty());
            assert_eq!(names.contains(&scheme.name), declares, "{}", scheme.name);
        }
        assert!(names.contains(&"stake"), "Stake's Limbo declares its readings");
    }
}
