//! Statistics over whole archives (`provably audit --stats`): evidence of
//! **seed grinding**, which byte equality cannot see. An operator who
//! draws many server seeds and commits to one whose outcomes suit it leaves
//! every commitment and every round matching; what moves is the
//! distribution of the outcomes it chose.
//!
//! Decisions (docs/statistics.md has the reasoning and the power table):
//! * Tests follow what each op's outcome *is* ([`model`]): a shoe's or a
//!   deck's positions (rank and suit per position), a die per index and
//!   overall, a ladder's cases, the cut card's position, and serial tests
//!   along nonces (pairs, up/down/equal, correlation).
//! * Expected cell probabilities are the scheme's exact ones under uniform
//!   HMAC output ([`certify`]): the cut card's clamped distribution, the
//!   ladder's ⌊r·(i+1)⌋ carried through its shuffle, exact bins.
//! * Pearson's χ² per table, p-values from the regularized incomplete gamma
//!   (`math`); the serial correlation is a normal z. A table is tested
//!   only when every cell expects at least `MIN_EXPECTED` = 20 counts:
//!   the χ² tail of a multinomial is heavier than the χ² distribution's
//!   far out (simulated for six cells at a per-test level of 7·10⁻⁵: 1.29×
//!   the nominal rate at 10 expected per cell, 1.16× at 20, 1.10× at 40),
//!   and the textbook 5 lets honest archives alarm above the level.
//! * Holm's step-down correction over every test run: the alarm (any test
//!   rejected) is raised by an honest archive with probability at most the
//!   family-wise level, whatever the dependence between the tests (a shoe's
//!   positions are dependent). Default level [`DEFAULT_LEVEL`] = 10⁻³.
//! * Fixed-size count tables ([`collect`]): memory does not grow with the
//!   archive. A worker reads each derived round's cells ([`Counted`]), which
//!   travel with the round's event to the audit's one ordered consumer: the
//!   counts are those of one pass over the rounds, whatever the batches,
//!   workers or layout, and the family cap is decided once for the whole
//!   audit. The page counts in one pass too and reports the same.

pub mod certify;
pub mod collect;
pub(crate) mod math;
pub mod model;
pub mod power;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use collect::{Collector, Counted};

/// The default family-wise level: an honest archive raises the alarm with
/// probability at most 10⁻³.
pub const DEFAULT_LEVEL: f64 = 1e-3;

/// A table is tested only when each of its cells expects this many counts.
pub(crate) const MIN_EXPECTED: f64 = 20.0;

/// One test's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestResult {
    /// The op and configuration, e.g. `shoe.deal decks=6 penetration=0.75`.
    pub family: String,
    /// What is tested, e.g. `rank at position 0`, `serial pairs`.
    pub name: String,
    /// `chi2` or `normal`.
    pub(crate) distribution: String,
    pub(crate) statistic: f64,
    /// Degrees of freedom of a χ² (null for a normal statistic).
    pub(crate) df: Option<u64>,
    /// The probability that an honest archive gives a statistic at least this far out; 0 when a count falls on a cell of probability 0.
    pub p_value: f64,
    /// Observations in the table (rounds, or pairs for the serial tests).
    pub n: u64,
    /// Holm's threshold at this test's rank: rejected when p ≤ it (and every smaller p was).
    pub(crate) threshold: f64,
    /// Whether Holm's procedure rejects the test: p ≤ `threshold`, and every smaller p-value was rejected too.
    pub rejected: bool,
}

/// The statistics section of an audit report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Statistics {
    /// The family-wise level α.
    pub(crate) level: f64,
    /// `holm`.
    pub(crate) correction: String,
    /// Whether any test was rejected: evidence, not proof (an honest archive raises it with probability at most `level`).
    pub alarm: bool,
    /// Rounds counted in the tables.
    pub rounds: u64,
    /// Rounds of a tested op in a configuration without tables.
    pub untested: u64,
    /// Tables with too few counts to test.
    pub(crate) not_run: u64,
    /// Families past the cap of `collect::MAX_FAMILIES` (the smallest keys
    /// keep tables), whose rounds are in `untested`; at least this many
    /// when it is `collect::MAX_PAST`.
    pub past_cap: u64,
    /// Every test run, in family and layout order.
    pub tests: Vec<TestResult>,
}

impl Statistics {
    /// The rejected tests.
    pub fn rejected(&self) -> impl Iterator<Item = &TestResult> {
        self.tests.iter().filter(|t| t.rejected)
    }

    /// The test with the smallest p-value.
    pub fn smallest(&self) -> Option<&TestResult> {
        self.tests.iter().min_by(|a, b| a.p_value.total_cmp(&b.p_value))
    }

    /// One sentence for the verdict line.
    pub fn line(&self) -> String {
        let m = self.tests.len();
        let head = format!(
            "statistics: {m} test(s) over {} round(s), family-wise level {} (Holm)",
            self.rounds,
            crate::base::pyfmt::js_number(self.level)
        );
        let small = self
            .smallest()
            .map(|t| format!("; smallest p = {:.3e} ({}: {})", t.p_value, t.family, t.name))
            .unwrap_or_default();
        let verdict = if self.alarm {
            format!("{head}: ALARM, {} test(s) rejected{small}", self.rejected().count())
        } else {
            format!("{head}: no alarm{small}")
        };
        if self.past_cap == 0 {
            return verdict;
        }
        let at_least = if self.past_cap >= collect::MAX_PAST as u64 {
            "at least "
        } else {
            ""
        };
        format!(
            "{verdict}; NOT TESTED: {at_least}{} configuration(s) past the cap of {} families (the smallest are tested), {} round(s) untested",
            self.past_cap,
            collect::MAX_FAMILIES,
            self.untested
        )
    }
}

/// The JSON Schema of [`Statistics`] (the report's optional `statistics`).
pub(crate) fn schema() -> Value {
    let number = serde_json::json!({ "type": "number" });
    let count = serde_json::json!({ "type": "integer", "minimum": 0 });
    let test = serde_json::json!({
        "type": "object",
        "properties": {
            "family": { "type": "string" }, "name": { "type": "string" },
            "distribution": { "enum": ["chi2", "normal"] }, "statistic": number,
            "df": { "type": ["integer", "null"], "minimum": 1 },
            "pValue": { "type": "number", "minimum": 0, "maximum": 1 }, "n": count,
            "threshold": number, "rejected": { "type": "boolean" }
        },
        "required": ["family", "name", "distribution", "statistic", "df", "pValue", "n", "threshold", "rejected"],
        "additionalProperties": false
    });
    serde_json::json!({
        "type": "object",
        "properties": {
            "level": { "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1 },
            "correction": { "const": "holm" }, "alarm": { "type": "boolean" },
            "rounds": count, "untested": count, "notRun": count, "pastCap": count,
            "tests": { "type": "array", "items": test }
        },
        "required": ["level", "correction", "alarm", "rounds", "untested", "notRun", "pastCap", "tests"],
        "additionalProperties": false
    })
}

/// A χ² of observed counts against exact probabilities; `None` when a cell
/// expects fewer than `MIN_EXPECTED` or nothing is left to test.
pub fn chi_square(counts: &[u64], probs: &[f64]) -> Option<(f64, u64, f64)> {
    let n: u64 = counts.iter().sum();
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^53")]
    let nf = n as f64;
    let mut stat = 0.0;
    let mut cells = 0u64;
    for (i, &p) in probs.iter().enumerate() {
        #[allow(clippy::cast_precision_loss, reason = "counts far below 2^53")]
        let o = counts.get(i).copied().unwrap_or(0) as f64;
        if p <= 0.0 {
            if o > 0.0 {
                // An outcome the scheme cannot give: as strong as evidence gets.
                return Some((f64::MAX, 1, 0.0));
            }
            continue;
        }
        let e = nf * p;
        if e < MIN_EXPECTED {
            return None;
        }
        stat += (o - e) * (o - e) / e;
        cells += 1;
    }
    let df = cells.checked_sub(1).filter(|d| *d > 0)?;
    #[allow(clippy::cast_precision_loss, reason = "df is small")]
    Some((stat, df, math::chi2_sf(stat, df as f64)))
}

/// Holm's step-down procedure: each test's threshold α/(m − rank) and
/// whether it is rejected (every smaller p-value was rejected too).
pub(crate) fn holm(tests: &mut [TestResult], level: f64) {
    let mut order: Vec<usize> = (0..tests.len()).collect();
    order.sort_by(|&a, &b| tests[a].p_value.total_cmp(&tests[b].p_value));
    let m = tests.len();
    let mut rejecting = true;
    for (rank, &i) in order.iter().enumerate() {
        #[allow(clippy::cast_precision_loss, reason = "m is a few thousand")]
        let threshold = level / (m - rank) as f64;
        tests[i].threshold = threshold;
        rejecting = rejecting && tests[i].p_value <= threshold;
        tests[i].rejected = rejecting;
    }
}

/// The tests of a finished collector, corrected at `level`.
pub fn evaluate(c: &Collector, level: f64) -> Statistics {
    let mut tests = Vec::new();
    let mut not_run = 0;
    for (key, table) in &c.tables {
        let layout = model::layout(*key);
        for (t, (name, probs)) in layout.tests.iter().enumerate() {
            match chi_square(table.test(t), probs) {
                Some((statistic, df, p_value)) => {
                    tests.push(result(&layout.label, name, statistic, Some(df), p_value, table.test(t)))
                }
                None => not_run += 1,
            }
        }
        if let Some(marginal) = &layout.serial {
            not_run += serial_tests(&layout.label, &table.pairs, table.stride, marginal, &mut tests);
        }
    }
    holm(&mut tests, level);
    Statistics {
        level,
        correction: "holm".into(),
        alarm: tests.iter().any(|t| t.rejected),
        rounds: c.rounds,
        untested: c.untested,
        not_run,
        past_cap: c.past_cap(),
        tests,
    }
}

fn result(family: &str, name: &str, statistic: f64, df: Option<u64>, p_value: f64, counts: &[u64]) -> TestResult {
    TestResult {
        family: family.to_string(),
        name: name.to_string(),
        distribution: if df.is_some() { "chi2" } else { "normal" }.into(),
        statistic,
        df,
        p_value,
        n: counts.iter().sum(),
        threshold: 0.0,
        rejected: false,
    }
}

/// The serial tests of one family's pair table: pairs against p_a·p_b,
/// up/down/equal against their exact probabilities, and the lag-one
/// correlation z = Σ(a−μ)(b−μ) / (σ²√n). Returns how many could not run.
fn serial_tests(family: &str, pairs: &[u64], stride: usize, marginal: &[f64], out: &mut Vec<TestResult>) -> u64 {
    let k = marginal.len();
    let at = |a: usize, b: usize| pairs[a * stride + b];
    let flat: Vec<u64> = (0..k).flat_map(|a| (0..k).map(move |b| at(a, b))).collect();
    let expected: Vec<f64> = (0..k)
        .flat_map(|a| (0..k).map(move |b| marginal[a] * marginal[b]))
        .collect();
    let mut not_run = 0;
    match chi_square(&flat, &expected) {
        Some((s, df, p)) => out.push(result(family, "serial pairs along nonces", s, Some(df), p, &flat)),
        None => not_run += 1,
    }
    let mut moves = [0u64; 3];
    let mut probs = [0.0f64; 3];
    for a in 0..k {
        for b in 0..k {
            let m = usize::from(b <= a) + usize::from(b < a);
            moves[m] += at(a, b);
            probs[m] += marginal[a] * marginal[b];
        }
    }
    match chi_square(&moves, &probs) {
        Some((s, df, p)) => out.push(result(
            family,
            "runs: up, equal, down along nonces",
            s,
            Some(df),
            p,
            &moves,
        )),
        None => not_run += 1,
    }
    #[allow(clippy::cast_precision_loss, reason = "small values and counts")]
    let (mu, n) = (
        marginal.iter().enumerate().map(|(a, p)| a as f64 * p).sum::<f64>(),
        flat.iter().sum::<u64>() as f64,
    );
    #[allow(clippy::cast_precision_loss, reason = "small values")]
    let var: f64 = marginal
        .iter()
        .enumerate()
        .map(|(a, p)| (a as f64 - mu).powi(2) * p)
        .sum();
    if n >= 30.0 && var > 0.0 {
        #[allow(clippy::cast_precision_loss, reason = "small values and counts")]
        let s: f64 = (0..k)
            .flat_map(|a| (0..k).map(move |b| (a, b)))
            .map(|(a, b)| (a as f64 - mu) * (b as f64 - mu) * at(a, b) as f64)
            .sum();
        let z = s / (var * n.sqrt());
        out.push(result(
            family,
            "serial correlation along nonces",
            z,
            None,
            math::normal_two_sided(z),
            &flat,
        ));
    } else {
        not_run += 1;
    }
    not_run
}
