//! `provably house-edge --exact`: the exact check of the table as Markdown.

use std::fmt::Write;

use crate::house_edge::exact::{self, CellKey, CellSum, Choices, Policy, Row};
use crate::house_edge::infinite;
use crate::schemes::blackjack::rules::Rules;
use crate::schemes::blackjack::strategy::Action;

/// The figures of one exact check.
pub struct ExactReport {
    /// The table's rules the figures are for.
    pub rules: Rules,
    /// Player's expected value per initial bet, finite shoe, published table.
    pub(crate) finite_table: f64,
    /// The same with the best action at every decision by exact composition.
    pub(crate) finite_best: f64,
    /// Infinite deck, published table (exact).
    pub(crate) infinite_table: f64,
    /// Infinite deck, best total-dependent play.
    pub(crate) infinite_best: f64,
    pub(crate) cells: std::collections::BTreeMap<CellKey, CellSum>,
}

/// Runs every calculation (the finite ones on up to `jobs` threads).
pub fn exact_report(rules: &Rules, jobs: usize) -> ExactReport {
    let (finite_table, cells) = exact::game(rules, Policy::Table, true, jobs);
    let (finite_best, _) = exact::game(rules, Policy::Optimal, false, jobs);
    ExactReport {
        rules: *rules,
        finite_table,
        finite_best,
        infinite_table: infinite::game(rules, Policy::Table),
        infinite_best: infinite::game(rules, Policy::Optimal),
        cells,
    }
}

/// A cell whose published action is not the best.
pub(crate) struct Deviation {
    pub(crate) key: CellKey,
    pub(crate) sum: CellSum,
    pub(crate) best: Action,
    /// EV(best) − EV(published) per hand played.
    pub(crate) per_hand: f64,
    /// The same per round: what fixing this one cell would gain.
    pub(crate) per_round: f64,
}

fn up(dealer: u8) -> String {
    if dealer == 11 {
        "A".into()
    } else {
        dealer.to_string()
    }
}

fn pct(x: f64) -> String {
    format!("{:+.4} %", 100.0 * x)
}

impl ExactReport {
    /// Every cell where another open action has a higher value.
    pub(crate) fn deviations(&self) -> Vec<Deviation> {
        let mut out = Vec::new();
        for (key, sum) in &self.cells {
            let ph = sum.per_hand();
            let (best, v) = ph.best();
            let published = ph.value(sum.published);
            if best != sum.published && v > published {
                let unnorm = |c: &CellSum, a: Action| match a {
                    Action::Stehen => c.stand,
                    Action::Ziehen => c.hit,
                    Action::Verdoppeln => c.double.unwrap_or(f64::NAN),
                    Action::Teilen => c.split.unwrap_or(f64::NAN),
                };
                out.push(Deviation {
                    key: *key,
                    sum: *sum,
                    best,
                    per_hand: v - published,
                    per_round: unnorm(sum, best) - unnorm(sum, sum.published),
                });
            }
        }
        out
    }

    /// The whole report as Markdown.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let r = &self.rules;
        let _ = writeln!(s, "## Exact check of the published table\n");
        let _ = writeln!(s, "Rules: `{}`\n", r.describe());
        let _ = writeln!(s, "| game | player's expected value per initial bet | house edge |");
        let _ = writeln!(s, "|---|---:|---:|");
        let rows = [
            (
                format!("{} decks, published table (exact but for splits)", r.decks),
                self.finite_table,
            ),
            (
                format!("{} decks, best play by exact composition", r.decks),
                self.finite_best,
            ),
            (
                "infinite deck, published table (exact)".to_string(),
                self.infinite_table,
            ),
            (
                "infinite deck, best total-dependent play (exact)".to_string(),
                self.infinite_best,
            ),
        ];
        for (name, ev) in rows {
            let _ = writeln!(s, "| {name} | {} | {:.4} % |", pct(ev), -100.0 * ev);
        }
        let _ = writeln!(
            s,
            "\nFinite-deck shift of the published table ({} decks − infinite): {:+.4} percentage points of player's value.\n",
            r.decks,
            100.0 * (self.finite_table - self.infinite_table)
        );
        self.write_deviations(&mut s);
        self.write_grids(&mut s);
        self.write_listing(&mut s);
        s
    }

    fn write_deviations(&self, s: &mut String) {
        let devs = self.deviations();
        let _ = writeln!(s, "### Cells where the published action is not the best\n");
        if devs.is_empty() {
            let _ = writeln!(s, "None.\n");
            return;
        }
        let _ = writeln!(
            s,
            "| cards | dealer | double open | published | its EV | best | its EV | cost per hand | hands per round | cost per round |"
        );
        let _ = writeln!(s, "|---|---|---|---|---:|---|---:|---:|---:|---:|");
        let mut total = 0.0;
        for d in &devs {
            let ph = d.sum.per_hand();
            total += d.per_round;
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:+.5} | {} | {:+.5} | {:.5} | {:.3e} | {:.3e} |",
                d.key.row,
                up(d.key.dealer),
                if d.key.can_double { "yes" } else { "no" },
                d.sum.published,
                ph.value(d.sum.published),
                d.best,
                ph.value(d.best),
                d.per_hand,
                d.sum.reach,
                d.per_round
            );
        }
        let _ = writeln!(
            s,
            "\nTogether these cells cost {:.5} % of the initial bet (each fixed alone, summed).\n",
            100.0 * total
        );
    }

    fn grid_rows(&self, can_double: bool, kind: fn(Row) -> Option<u8>) -> Vec<(Row, [Option<&CellSum>; 10])> {
        let mut rows: Vec<(Row, [Option<&CellSum>; 10])> = Vec::new();
        for (k, v) in &self.cells {
            if k.can_double != can_double || kind(k.row).is_none() {
                continue;
            }
            if rows.last().map(|r| r.0) != Some(k.row) {
                rows.push((k.row, [None; 10]));
            }
            rows.last_mut().unwrap().1[usize::from(k.dealer - 2)] = Some(v);
        }
        rows
    }

    fn write_grids(&self, s: &mut String) {
        let _ = writeln!(
            s,
            "### The table, cell by cell\n\nEach cell: the published action (P split, D double, S stand, H hit) and its margin per hand over the best other open action; a negative margin (marked `!`) is a cell listed above. Rows are only those the table's own play reaches.\n"
        );
        let sections: [Section; 5] = [
            ("Pairs, first two cards", true, |r| {
                matches!(r, Row::Pair(_)).then_some(0)
            }),
            ("Soft hands, two cards (doubling open)", true, |r| {
                matches!(r, Row::Soft(_)).then_some(0)
            }),
            ("Hard hands, two cards (doubling open)", true, |r| {
                matches!(r, Row::Hard(_)).then_some(0)
            }),
            (
                "Soft hands, doubling not open (three cards or more, or after a split without DAS)",
                false,
                |r| matches!(r, Row::Soft(_)).then_some(0),
            ),
            ("Hard hands, doubling not open", false, |r| {
                matches!(r, Row::Hard(_)).then_some(0)
            }),
        ];
        for (title, dbl, kind) in sections {
            let rows = self.grid_rows(dbl, kind);
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(s, "**{title}**\n");
            let _ = writeln!(s, "| | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | A |");
            let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
            for (row, cols) in rows {
                let _ = write!(s, "| {row} |");
                for c in cols {
                    match c {
                        None => {
                            let _ = write!(s, " |");
                        }
                        Some(c) => {
                            let m = margin(&c.per_hand(), c.published);
                            let flag = if m < 0.0 { "!" } else { "" };
                            let _ = write!(s, " {}{flag} {:+.3} |", c.published.letter(), m);
                        }
                    }
                }
                let _ = writeln!(s);
            }
            let _ = writeln!(s);
        }
    }

    fn write_listing(&self, s: &mut String) {
        let _ = writeln!(
            s,
            "### Every cell: the value of each open action per hand played\n\n<details><summary>{} cells</summary>\n\n| cards | dealer | double open | hands per round | stand | hit | double | split | published | best |\n|---|---|---|---:|---:|---:|---:|---:|---|---|",
            self.cells.len()
        );
        for (k, c) in &self.cells {
            let ph = c.per_hand();
            let opt = |v: Option<f64>| v.map_or("".to_string(), |v| format!("{v:+.5}"));
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.3e} | {:+.5} | {:+.5} | {} | {} | {} | {} |",
                k.row,
                up(k.dealer),
                if k.can_double { "yes" } else { "no" },
                c.reach,
                ph.stand,
                ph.hit,
                opt(ph.double),
                opt(ph.split),
                c.published,
                ph.best().0
            );
        }
        let _ = writeln!(s, "\n</details>");
    }
}

/// A grid: title, whether doubling is open, and which rows it shows.
type Section = (&'static str, bool, fn(Row) -> Option<u8>);

/// EV(published) − the best EV among the other open actions.
fn margin(c: &Choices, published: Action) -> f64 {
    let p = c.value(published);
    let others = [
        (Action::Stehen, Some(c.stand)),
        (Action::Ziehen, Some(c.hit)),
        (Action::Verdoppeln, c.double),
        (Action::Teilen, c.split),
    ];
    let best_other = others
        .iter()
        .filter(|(a, _)| *a != published)
        .filter_map(|(_, v)| *v)
        .fold(f64::NEG_INFINITY, f64::max);
    p - best_other
}
