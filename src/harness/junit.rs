//! JUnit XML, for CI systems that draw test reports: one test suite per
//! target, one test case per op, plus one per fault.

use super::run::TargetReport;

/// Text as XML 1.0 character data or attribute value. XML 1.0 cannot
/// carry most control characters or U+FFFE and U+FFFF, not even as
/// character references: those are written as `\u{…}` (the text came
/// through [`super::escape::escape`] already, which does the same).
pub(crate) fn esc(s: &str) -> String {
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

/// Renders the reports as one JUnit XML document.
pub fn render(reports: &[TargetReport]) -> String {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"provably diff\">\n");
    for r in reports {
        let cases: Vec<_> = r.ops.iter().collect();
        let failures = r.ops.iter().filter(|o| o.diverge > 0).count();
        let skipped = r.ops.iter().filter(|o| !o.claimed).count();
        x += &format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\" skipped=\"{skipped}\" time=\"{:.3}\">\n",
            esc(&r.target),
            cases.len() + r.faults.len(),
            r.faults.len(),
            r.seconds
        );
        for o in cases {
            x += &format!(
                "    <testcase classname=\"{}\" name=\"{}\">\n",
                esc(&r.target),
                esc(&o.op)
            );
            if !o.claimed {
                x += "      <skipped message=\"not claimed in hello\"/>\n";
            } else if o.diverge > 0 {
                let body: Vec<String> = o
                    .findings
                    .iter()
                    .map(|d| {
                        format!(
                            "{} ({} cases)\nrequest: {}\n{}\n{}",
                            d.group, d.count, d.request, d.diff, d.parted
                        )
                    })
                    .collect();
                x += &format!(
                    "      <failure message=\"{} of {} cases diverge in {} group(s)\">{}</failure>\n",
                    o.diverge,
                    o.cases,
                    o.findings.len(),
                    esc(&body.join("\n\n"))
                );
            }
            x += &format!(
                "      <system-out>{} cases, {} agree, {} faults</system-out>\n",
                o.cases, o.agree, o.faults
            );
            x += "    </testcase>\n";
        }
        for (i, f) in r.faults.iter().enumerate() {
            x += &format!(
                "    <testcase classname=\"{}\" name=\"fault {}\">\n",
                esc(&r.target),
                i + 1
            );
            x += &format!(
                "      <error type=\"{}\" message=\"{}\">{}</error>\n",
                f.kind.name(),
                esc(&f.detail),
                esc(&f.to_string())
            );
            x += "    </testcase>\n";
        }
        x += "  </testsuite>\n";
    }
    x += "</testsuites>\n";
    x
}
