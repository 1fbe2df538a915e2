//! The conformance report page: `provably report RUN.json… -o DIR`.
//!
//! One static HTML file, readable with no network and no script (the CSS
//! is inline, there is no JavaScript): one row per implementation and
//! version, one column per op, each cell agree, diverge, fault or skipped
//! with its counts; below the table every finding with its minimal
//! request, both answers, the first step where the two sides part and the
//! recorded cause, then every fault with its evidence, then the recorded
//! expectations as they were asked again.
//!
//! The run files are `provably diff --report` output. Everything in them
//! that a target controls is already escaped for terminals; the page
//! escapes every text again for HTML (`esc`), whatever its origin.

use std::collections::BTreeMap;
use std::fmt::Write as _;

pub use super::report::Run;
use super::report::{ExpectationsInfo as Expectations, Finding, OpReport as Op, TargetReport as Target};
use super::Fault;

/// Text for the page: [`crate::base::text::markup`], the one rule for text shown
/// to people, for markup.
pub(crate) fn esc(text: &str) -> String {
    crate::base::text::markup(text)
}

/// JSON text with every non-ASCII character as a `\uXXXX` escape: the same
/// request, with invisible characters (U+FEFF, U+FE0F, U+200D) made visible.
/// Outside strings JSON is ASCII, so only string contents change.
fn ascii_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04X}");
            }
        }
    }
    out
}

/// The most characters of one answer the page shows (the run file has all).
const SHOWN: usize = 3000;

fn clip(text: &str) -> String {
    let n = text.chars().count();
    if n <= SHOWN {
        return text.to_string();
    }
    let kept: String = text.chars().take(SHOWN).collect();
    format!("{kept}\n… {} more characters in the run file", n - SHOWN)
}

/// An id for anchors: letters, digits and dashes only.
fn anchor(parts: &[&str]) -> String {
    parts
        .iter()
        .map(|p| {
            p.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("--")
}

const STYLE: &str = "
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5rem;color:#1b1f24}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #d0d7de}
.lead{color:#57606a;max-width:60rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:.8rem}
th,td{border:1px solid #d0d7de;padding:.3rem .4rem;vertical-align:top}
thead th{background:#f6f8fa;font-weight:600}
th.impl{text-align:left;min-width:13rem;max-width:18rem;font-weight:normal}
th.impl b{font-size:.95rem}
.pkg{color:#57606a;display:block;font-size:.75rem}
td.cell{text-align:center;white-space:nowrap;min-width:3.6rem}
td.cell a{color:inherit}
.agree{background:#dafbe1}.diverge{background:#ffd8d3}.fault{background:#ffe7b3}.skipped{background:#eaeef2}.na{background:#fff;color:#8c959f}
.n{display:block;font-size:.75rem;color:#57606a}
.legend span{display:inline-block;padding:.1rem .5rem;margin-right:.4rem;border:1px solid #d0d7de}
article{border:1px solid #d0d7de;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}
article h3{margin:.2rem 0}
pre{background:#f6f8fa;padding:.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font-size:.8rem;max-height:22rem}
.cause{background:#fff8c5;padding:.3rem .5rem;border-left:4px solid #d4a72c}
.unrecorded{background:#ffd8d3;padding:.3rem .5rem;border-left:4px solid #cf222e}
.two{display:grid;grid-template-columns:1fr 1fr;gap:.8rem}
.recon{color:#8250df}
";

/// One cell of the table: its class, its words and its counts.
fn cell(t: &Target, o: &Op) -> String {
    let href = format!("#{}", anchor(&[&t.target, &o.op]));
    let counts = format!("{} cases", o.cases);
    let (class, word, more) = if !o.claimed {
        return "<td class=\"cell na\" title=\"not claimed\">—</td>".into();
    } else if o.faults > 0 {
        ("fault", "fault", format!("{} lost · {} agree", o.faults, o.agree))
    } else if o.diverge > 0 {
        ("diverge", "diverge", format!("{} of {}", o.diverge, o.cases))
    } else if o.agree == 0 && o.skipped > 0 {
        ("skipped", "skipped", format!("{} skipped", o.skipped))
    } else {
        let declined: u64 = o.declined.values().sum();
        let extra = if declined > 0 {
            format!(" · {declined} declined")
        } else {
            String::new()
        };
        ("agree", "agree", format!("{}{extra}", o.agree))
    };
    let link = if o.findings.is_empty() {
        esc(word)
    } else {
        format!("<a href=\"{href}\">{}</a>", esc(word))
    };
    format!(
        "<td class=\"cell {class}\" title=\"{}\">{link}<span class=\"n\">{}</span></td>",
        esc(&counts),
        esc(&more)
    )
}

/// The implementation's header cell: name, version, packages, licences.
fn implementation(t: &Target) -> String {
    let mut h = format!("<th class=\"impl\" scope=\"row\"><b>{}</b>", esc(&t.target));
    if let Some(hello) = &t.hello {
        let _ = write!(h, "<span class=\"pkg\">{}</span>", esc(hello));
    }
    if let Some(m) = &t.manifest {
        for p in &m.provenance.packages {
            let _ = write!(
                h,
                "<span class=\"pkg\">{} {} {} · {}</span>",
                esc(&p.registry),
                esc(&p.name),
                esc(&p.version),
                esc(&p.licence)
            );
        }
        if m.provenance.packages.is_empty() && !m.description.is_empty() {
            let _ = write!(h, "<span class=\"pkg\">{}</span>", esc(&m.description));
        }
        if m.provenance.reconstruction.is_some() {
            h.push_str("<span class=\"pkg recon\">reconstruction, not a package</span>");
        }
    }
    h.push_str("</th>");
    h
}

/// Every op some row claims, in protocol order (ops this build does not know last).
fn columns(runs: &[Run]) -> Vec<String> {
    let mut ops: Vec<String> = Vec::new();
    for t in runs.iter().flat_map(|r| &r.targets) {
        for o in t.ops.iter().filter(|o| o.claimed) {
            if !ops.contains(&o.op) {
                ops.push(o.op.clone());
            }
        }
    }
    let order = crate::registry::names();
    ops.sort_by_key(|op| order.iter().position(|n| n == op).unwrap_or(usize::MAX));
    ops
}

fn table(runs: &[Run], ops: &[String]) -> String {
    let mut h = String::from("<div class=\"scroll\"><table id=\"conformance\"><thead><tr><th>implementation</th>");
    for op in ops {
        // A break after the dot keeps a dozen columns on one screen.
        let _ = write!(h, "<th scope=\"col\">{}</th>", esc(op).replacen('.', ".<wbr>", 1));
    }
    h.push_str("</tr></thead><tbody>\n");
    for t in runs.iter().flat_map(|r| &r.targets) {
        let _ = write!(h, "<tr data-target=\"{}\">{}", esc(&t.target), implementation(t));
        for op in ops {
            match t.ops.iter().find(|o| &o.op == op) {
                Some(o) => h.push_str(&cell(t, o)),
                None => h.push_str("<td class=\"cell na\" title=\"not in this run\">—</td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table></div>\n");
    h
}

fn finding(t: &Target, o: &Op, f: &Finding) -> String {
    let escaped = if f.request.is_ascii() {
        String::new()
    } else {
        format!(
            "<p class=\"escaped\">The same request with every non-ASCII character escaped: <code>{}</code></p>",
            esc(&ascii_json(&f.request))
        )
    };
    let cause = match &f.recorded {
        Some(c) => format!("<p class=\"cause\"><b>Recorded cause:</b> {}</p>", esc(c)),
        None => "<p class=\"unrecorded\"><b>Not recorded</b> in the expectations: a new finding.</p>".into(),
    };
    let cause = match &f.reading {
        Some(r) => format!("{cause}<p class=\"cause\"><b>Follows reading</b> {}</p>", esc(r)),
        None => cause,
    };
    let symptoms: Vec<String> = f
        .symptoms
        .iter()
        .map(|s| format!("<li>{} <i>({} cases)</i></li>", esc(&s.group), s.count))
        .collect();
    let known = match &f.known {
        Some(k) => format!(
            "<p class=\"known\"><b>Known bug</b> <code>{}</code>: {} (reproduces the target's answers on all {} diverging cases tried, agrees on all {} agreeing ones)</p>",
            esc(&k.name), esc(&k.description), k.diverging, k.agreeing
        ),
        None => format!("<p><b>Known bug:</b> {}</p>", esc(&f.unknown)),
    };
    let cause = format!(
        "{cause}<p class=\"separates\"><b>Separates:</b> {}</p>{known}<p><b>{} symptom class(es):</b></p><ul class=\"symptoms\">{}</ul>",
        esc(&f.separates.text),
        f.symptoms.len(),
        symptoms.concat()
    );
    format!(
        "<section class=\"finding\"><h4>{op}: {group}</h4><p>{count} of {cases} cases diverge this way; the first was {origin}.</p>{cause}\
<p><b>Minimal request</b></p><pre class=\"request\">{request}</pre>{escaped}\
<div class=\"two\"><div><p><b>provably answers</b></p><pre>{expected}</pre></div><div><p><b>{target} answers</b></p><pre>{got}</pre></div></div>\
<p><b>Cause:</b> {why}{hmac}</p><p><b>First step where the two sides part:</b> {parted}</p></section>\n",
        why = esc(f.cause.words()),
        hmac = f.hmac.as_ref().map_or(String::new(), |h| format!(
            " — provably's HMAC key <code>{}</code> (UTF-8 <code>{}</code>), message <code>{}</code>",
            esc(&h.key), esc(&h.key_hex), esc(&h.message)
        )),
        op = esc(&o.op),
        group = esc(&f.headline),
        count = f.count,
        cases = o.cases,
        origin = esc(&f.origin),
        request = esc(&f.request),
        escaped = escaped,
        expected = esc(&clip(&f.expected)),
        got = esc(&clip(&f.got)),
        target = esc(&t.target),
        parted = esc(&f.parted),
    )
}

fn fault(f: &Fault) -> String {
    let mut h = format!(
        "<section class=\"fault\"><h4>fault: {}</h4><p>{}</p>",
        esc(f.kind.name()),
        esc(&f.detail)
    );
    if let Some(r) = &f.request {
        let _ = write!(h, "<p><b>Request</b></p><pre>{}</pre>", esc(r));
    }
    if let Some(r) = &f.received {
        let _ = write!(h, "<p><b>Received</b></p><pre>{}</pre>", esc(r));
    }
    if !f.stderr_tail.is_empty() {
        let tail: Vec<&str> = f.stderr_tail.lines().rev().take(12).collect::<Vec<_>>();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        let _ = write!(
            h,
            "<p><b>stderr (last lines)</b></p><pre>{}</pre>",
            esc(&tail.join("\n"))
        );
    }
    h.push_str("</section>\n");
    h
}

/// The details of one target: findings by op, faults, recorded expectations.
fn details(t: &Target) -> String {
    let has = t.ops.iter().any(|o| !o.findings.is_empty())
        || !t.faults.is_empty()
        || t.expectations
            .as_ref()
            .is_some_and(|e| !e.replayed.is_empty() || !e.faults.is_empty());
    if !has {
        return String::new();
    }
    let mut h = format!("<article id=\"{}\"><h3>{}</h3>", anchor(&[&t.target]), esc(&t.target));
    if let Some(m) = &t.manifest {
        let _ = write!(h, "<p>{}</p>", esc(&m.description));
        if let Some(r) = &m.provenance.reconstruction {
            let _ = write!(h, "<p class=\"recon\">Reconstruction: {}</p>", esc(r));
        }
        if !m.provenance.scheme_logic.is_empty() {
            let _ = write!(h, "<p>Scheme logic: {}</p>", esc(&m.provenance.scheme_logic));
        }
    }
    for o in &t.ops {
        if !o.findings.is_empty() {
            let _ = write!(h, "<div id=\"{}\">", anchor(&[&t.target, &o.op]));
            for f in &o.findings {
                h.push_str(&finding(t, o, f));
            }
            h.push_str("</div>");
        }
    }
    for f in &t.faults {
        h.push_str(&fault(f));
    }
    if let Some(e) = &t.expectations {
        h.push_str(&recorded(e));
    }
    h.push_str("</article>\n");
    h
}

/// The recorded expectations and what asking their requests again showed.
fn recorded(e: &Expectations) -> String {
    if e.replayed.is_empty() && e.faults.is_empty() {
        return String::new();
    }
    let mut h = format!(
        "<p><b>Recorded in {}</b>, each request asked again after the run:</p><ul class=\"recorded\">",
        esc(&e.file)
    );
    for r in &e.replayed {
        let _ = write!(
            h,
            "<li>{} {}: <code>{}</code> — {} <i>({})</i></li>",
            if r.holds { "✔" } else { "✘" },
            esc(&r.op),
            esc(&r.request),
            esc(&r.cause),
            esc(&r.now)
        );
    }
    for f in &e.faults {
        let _ = write!(h, "<li>fault {}: {}</li>", esc(&f.kind), esc(&f.cause));
    }
    h.push_str("</ul>");
    h
}

/// How many distinct third-party packages the rows are built on, by registry.
fn packages(runs: &[Run]) -> BTreeMap<String, Vec<String>> {
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for t in runs.iter().flat_map(|r| &r.targets) {
        let Some(m) = &t.manifest else { continue };
        if m.provenance.reconstruction.is_some() {
            continue;
        }
        for p in &m.provenance.packages {
            let name = format!("{} {}", p.name, p.version);
            let list = by.entry(p.registry.clone()).or_default();
            if !list.contains(&name) {
                list.push(name);
            }
        }
    }
    by
}

/// The whole page for `runs` (each with the name of the file it came from).
pub fn render(runs: &[(String, Run)]) -> String {
    let files: Vec<&str> = runs.iter().map(|(f, _)| f.as_str()).collect();
    let runs: Vec<Run> = runs.iter().map(|(_, r)| r.clone()).collect();
    let ops = columns(&runs);
    let rows = runs.iter().map(|r| r.targets.len()).sum::<usize>();
    let by = packages(&runs);
    let mut h = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
<title>provably — conformance of provably-fair stacks</title><style>{STYLE}</style></head><body>\n\
<h1>Conformance of provably-fair stacks</h1>\n<p class=\"lead\">Each row is an implementation at the version that ran; each column an op of protocol v1. \
A cell says whether the implementation answered every case of that op as <code>provably</code> does (canonical vectors plus generated cases), with the counts. \
Findings below give the minimal request, both answers, the first step where they part and the recorded cause. Made by <code>provably report</code> from {}.</p>\n",
        esc(&files.join(", "))
    );
    let _ = write!(h, "<p id=\"summary\">{rows} implementations; third-party packages: ");
    let parts: Vec<String> = by
        .iter()
        .map(|(reg, names)| format!("{} {} ({})", names.len(), esc(reg), esc(&names.join(", "))))
        .collect();
    h.push_str(&if parts.is_empty() {
        "none".into()
    } else {
        parts.join("; ")
    });
    h.push_str(".</p>\n<p>");
    for (file, r) in files.iter().zip(&runs) {
        let _ = write!(
            h,
            "{}: seed {}, {}. ",
            esc(file),
            r.seed,
            if r.vectors_only {
                "vectors only".into()
            } else {
                format!("{} generated cases per op plus every vector", r.cases)
            }
        );
    }
    h.push_str("</p>\n<p class=\"legend\"><span class=\"agree\">agree</span><span class=\"diverge\">diverge</span><span class=\"fault\">fault</span><span class=\"skipped\">skipped</span><span class=\"na\">— not claimed</span></p>\n");
    h.push_str(&table(&runs, &ops));
    h.push_str(&super::html_readings::sections(&runs));
    h.push_str("<h2>Findings and faults</h2>\n");
    let details: String = runs.iter().flat_map(|r| &r.targets).map(details).collect();
    h.push_str(if details.is_empty() {
        "<p>None: every implementation agrees on every case.</p>"
    } else {
        &details
    });
    h.push_str("</body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(json: &str) -> Run {
        serde_json::from_str(json).expect("a run")
    }

    const HOSTILE: &str = r#"{"version":2,"seed":1,"cases":2,"vectorsOnly":false,"jobs":1,"targets":[{"target":"<script>alert(1)</script>","hello":"x\" onload=\"y","instances":1,"seconds":0.5,"ops":[
        {"op":"cursor.raw","claimed":true,"cases":3,"agree":2,"diverge":1,"skipped":0,"faults":0,"findings":[
          {"op":"cursor.raw","headline":"raw differs","group":"raw differs","symptoms":[{"group":"raw differs","count":1}],"separates":{"text":"no simple property found","diverging":1,"divergingWith":0,"agreeing":2,"agreeingWith":0,"confirmedBy":0},"cause":"input","count":1,"origin":"vector","found":"","request":"{\"op\":\"cursor.raw\",\"clientSeed\":\"</pre><b>\"}","shrink_steps":0,"expected":"{}","got":"{}","diff":"","parted":"&amp;","recorded":"it's <odd>"}]},
        {"op":"cursor.hash","claimed":false,"cases":0,"agree":0,"diverge":0,"skipped":0,"faults":0,"findings":[]},
        {"op":"dice.roll","claimed":false,"cases":0,"agree":0,"diverge":0,"skipped":0,"faults":0,"findings":[]}],"faults":[]},
      {"target":"b","instances":1,"seconds":0.1,"ops":[{"op":"cursor.hash","claimed":true,"cases":5,"agree":5,"diverge":0,"skipped":0,"faults":0,"findings":[]}]}]}"#;

    #[test]
    fn everything_from_the_run_is_escaped_for_html() {
        let page = render(&[("r<1>.json".into(), run(HOSTILE))]);
        for raw in ["<script>", "onload=\"y", "</pre><b>", "<odd>", "r<1>"] {
            assert!(!page.contains(raw), "{raw} reached the page unescaped");
        }
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(
            page.contains("&amp;amp;"),
            "text is escaped once more, even when it looks escaped"
        );
        assert!(page.contains("it&#39;s &lt;odd&gt;"));
        assert!(
            !page.contains("<script") && !page.contains("http"),
            "no script, no network"
        );
    }

    #[test]
    fn cells_say_diverge_with_counts_and_link_to_the_finding() {
        let page = render(&[("r.json".into(), run(HOSTILE))]);
        assert!(page.contains("class=\"cell diverge\""));
        assert!(page.contains("1 of 3"));
        assert!(page.contains("class=\"cell na\" title=\"not claimed\""));
        assert!(page.contains("class=\"cell agree\""));
        assert!(!page.contains("dice.<wbr>roll"), "a column no row claims is left out");
        let id = anchor(&["<script>alert(1)</script>", "cursor.raw"]);
        assert!(page.contains(&format!("href=\"#{id}\"")) && page.contains(&format!("id=\"{id}\"")));
    }

    #[test]
    fn invisible_characters_of_a_request_are_shown_escaped_too() {
        assert_eq!(
            ascii_json("{\"s\":\"\u{feff}a\u{1f600}\"}"),
            r#"{"s":"\uFEFFa\uD83D\uDE00"}"#
        );
        let json = HOSTILE.replace("</pre><b>", "\u{feff}");
        let page = render(&[("r.json".into(), run(&json))]);
        assert!(page.contains(r#"\uFEFF"#), "the escaped form is shown");
    }

    #[test]
    fn a_finding_shows_its_bug_what_separates_its_cases_and_its_symptom_classes() {
        let json = HOSTILE
            .replace(
                r#""headline":"raw differs""#,
                r#""headline":"answers as the known bug `latin1-key` would""#,
            )
            .replace("no simple property found", "`serverSeed` has a non-ASCII character");
        let page = render(&[("r.json".into(), run(&json))]);
        assert!(
            page.contains("<h4>cursor.raw: answers as the known bug `latin1-key` would</h4>"),
            "{page}"
        );
        assert!(
            page.contains("<b>Separates:</b> `serverSeed` has a non-ASCII character"),
            "{page}"
        );
        assert!(page.contains("<b>1 symptom class(es):</b>"), "{page}");
    }

    #[test]
    fn a_run_file_without_targets_is_refused() {
        assert!(serde_json::from_str::<Run>(r#"{"seed":1}"#).is_err());
    }
}
