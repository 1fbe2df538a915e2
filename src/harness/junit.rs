//! JUnit XML, for CI systems that draw test reports: one test suite per
//! target, one test case per op, plus one per fault.

use super::report::TargetReport;

/// Text as XML 1.0 character data or attribute value: [`crate::base::text::markup`].
fn esc(s: &str) -> String {
    crate::base::text::markup(s)
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
                        let known = d.known.as_ref().map_or_else(
                            || d.unknown.clone(),
                            |k| format!("`{}`: {}", k.name, k.description),
                        );
                        format!(
                            "{} ({} cases; cause: {})\nseparates: {}\nsymptom classes: {}\nknown bug: {known}\nrequest: {}\n{}\n{}",
                            d.headline,
                            d.count,
                            d.cause.words(),
                            d.separates.text,
                            d.symptoms.len(),
                            d.request,
                            d.diff,
                            d.parted
                        )
                    })
                    .collect();
                x += &format!(
                    "      <failure message=\"{} of {} cases diverge in {} finding(s)\">{}</failure>\n",
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
