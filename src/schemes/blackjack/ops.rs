//! The `blackjack.strategy` op of protocol v1: the published basic
//! strategy's action for a situation.
//!
//! The per-field limits (2…21 cards 0…51, none more than six times; an
//! up-card 2…11) live in the field declarations and are enforced by the
//! request parser. The rules that tie fields together (a bust hand,
//! `canDouble` with three or more cards, `canSplit` without a pair) are the
//! op's own `invalid` answers, from `super::strategy::validate`, each
//! naming its field.
//!
//! Generated cases are situations of `super::situations`, picked
//! uniformly by number, and the rare ones (A,A, the published DAS line,
//! long hands, two-card 21) more often than uniformly.

use std::sync::OnceLock;

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::cards::{count_value, hand_of_pips, pip, rank};
use super::situations::{situation, situations, Situation, COUNT};
use super::strategy::{decision, pair_of, Action, Chart, Decision, COPIES, MAX_CARDS};
use crate::op::stats::Stats;
use crate::op::{self, Arg, Field, Kind, OpSpec, Outcome, Parting, Request, Scheme};
use crate::op::{Flag, OkField, Reach, Shape};

pub static SCHEME: Scheme = Scheme {
    name: "blackjack",
    source: "seed 003 (basisstrategie, published TypeScript)",
    ops: &[&STRATEGY],
    generated: &[],
};

/// The player's cards, numbered as in `poker_referenz.py`. Unlike
/// `poker.evaluate`'s cards they come from a 6-deck shoe: a card number may
/// repeat, up to six times.
const CARDS: Field = Field::new(
    "cards",
    Kind::Cards {
        min: 2,
        max: MAX_CARDS,
        max_copies: COPIES,
    },
);
/// The up-card's count value: 2…10, ace 11.
const DEALER: Field = Field::new(
    "dealer",
    Kind::Int {
        min: 2,
        max: 11,
        size: false,
        only: None,
    },
);
const CAN_DOUBLE: Field = Field::new("canDouble", Kind::Bool);
const CAN_SPLIT: Field = Field::new("canSplit", Kind::Bool);
/// The published default rules double after a split.
const DAS: Field = Field::new("doubleAfterSplit", Kind::Bool).or(op::FieldDefault::Bool(true));

/// The wire names of the actions, in the published union's order.
const ACTIONS: [&str; 4] = ["teilen", "verdoppeln", "stehen", "ziehen"];

#[derive(Serialize, Debug)]
struct ActionOk {
    action: Action,
}

/// The `blackjack.strategy` op: the published basic strategy's action for the player's cards, the dealer's up-card and what the table allows.
pub static STRATEGY: OpSpec = OpSpec {
    name: "blackjack.strategy",
    fields: &[CARDS, DEALER, CAN_DOUBLE, CAN_SPLIT, DAS],
    ok: &[OkField::new("action", Shape::OneOf(&ACTIONS))],
    run: |r| {
        let d = decide(r)?;
        Ok(Outcome::new(ActionOk { action: d.action }))
    },
    generate,
    flags,
    explain,
    reach: Reach {
        vectors: &[
            Flag::Pair,
            Flag::TenPair,
            Flag::AcePair,
            Flag::Soft,
            Flag::Hard,
            Flag::SoftTwelve,
            Flag::SoftTotalEdge,
            Flag::HardTotalEdge,
            Flag::DoubleRefused,
            Flag::AceCountsOne,
            Flag::MultiCard,
            Flag::MaxCards,
            Flag::FourFourNoDas,
            Flag::WithoutDas,
            Flag::DealerAce,
            Flag::TwoCardTwentyOne,
        ],
        generated: &[],
    },
    secret: None,
    readings: &[],
    bet: false,
    stats: Stats::None("no randomness: the published strategy chart"),
};

/// The decision for a parsed request (its fields are within their limits).
fn decide(r: &Request) -> Result<Decision, crate::op::error::InvalidInput> {
    let dealer = u8::try_from(r.int(DEALER)).expect("the parser holds dealer to 2..=11");
    decision(
        r.cards(CARDS),
        dealer,
        r.flag(CAN_DOUBLE),
        r.flag(CAN_SPLIT),
        r.flag(DAS),
    )
}

/// A situation as a request of the op.
pub fn request(s: &Situation) -> Request {
    Request::of(
        &STRATEGY,
        vec![
            Arg::Cards(s.cards.clone()),
            u64::from(s.dealer).into(),
            s.can_double.into(),
            s.can_split.into(),
            s.double_after_split.into(),
        ],
    )
}

/// Situations a uniform pick rarely reaches (under 1 % of all each): every
/// A,A (a pair and soft 12), every 4,4 that reaches the published DAS
/// line, and the longest hands (15 to 21 cards).
fn rare(s: &Situation) -> bool {
    let aces = s.cards.len() == 2 && s.cards.iter().all(|&c| pip(c) == 1);
    let das_line = pair_of(&s.cards) == Some(4) && s.can_split && !s.double_after_split;
    aces || das_line || s.cards.len() >= 15
}

/// The numbers of the rare situations, found once.
fn rare_numbers() -> &'static [usize] {
    static RARE: OnceLock<Vec<usize>> = OnceLock::new();
    RARE.get_or_init(|| {
        situations()
            .enumerate()
            .filter(|(_, s)| rare(s))
            .map(|(k, _)| k)
            .collect()
    })
}

/// Four in five cases are a situation picked uniformly from all 184,500,
/// one in five one of the rare ones (3,100). Shrinking goes towards situation 0 (A,A against
/// a 2, nothing allowed).
fn generate() -> BoxedStrategy<Request> {
    prop_oneof![
        4 => 0..COUNT,
        1 => prop::sample::select(rare_numbers()),
    ]
    .prop_map(|k| request(&situation(k).expect("k below COUNT")))
    .boxed()
}

/// What a request is: read off the request and the cell that decides it.
fn flags(r: &Request) -> Vec<Flag> {
    let Ok(d) = decide(r) else {
        return Vec::new();
    };
    let cards = r.cards(CARDS);
    let pair = pair_of(cards);
    let mut flags = Vec::new();
    let mut flag = |on: bool, name: Flag| {
        if on {
            flags.push(name);
        }
    };
    flag(pair.is_some() && r.flag(CAN_SPLIT), Flag::Pair);
    flag(
        pair == Some(10) && r.flag(CAN_SPLIT) && rank(cards[0]) != rank(cards[1]),
        Flag::TenPair,
    );
    flag(pair == Some(11), Flag::AcePair);
    flag(d.chart == Chart::Soft, Flag::Soft);
    flag(d.chart == Chart::Hard, Flag::Hard);
    flag(d.chart == Chart::Soft && d.row == 12, Flag::SoftTwelve);
    flag(
        d.chart == Chart::Soft && matches!(d.row, 13 | 19 | 20),
        Flag::SoftTotalEdge,
    );
    flag(
        d.chart == Chart::Hard && matches!(d.row, 12 | 13 | 16 | 17),
        Flag::HardTotalEdge,
    );
    flag(d.double_refused, Flag::DoubleRefused);
    // Every ace counts 1 in a hard hand; in a soft hand all but one. (A
    // split is decided by the pair alone.)
    let aces = cards.iter().filter(|&&c| pip(c) == 1).count();
    let soft = hand_of_pips(cards.iter().map(|&c| pip(c))).value().soft;
    flag(d.chart != Chart::Pair && aces > usize::from(soft), Flag::AceCountsOne);
    flag(cards.len() > 2, Flag::MultiCard);
    flag(cards.len() == MAX_CARDS, Flag::MaxCards);
    flag(
        pair == Some(4) && r.flag(CAN_SPLIT) && !r.flag(DAS),
        Flag::FourFourNoDas,
    );
    flag(!r.flag(DAS), Flag::WithoutDas);
    flag(r.int(DEALER) == 11, Flag::DealerAce);
    flag(
        cards.len() == 2 && d.row == 21 && d.chart == Chart::Soft,
        Flag::TwoCardTwentyOne,
    );
    flags
}

/// The row of a decision as a strategy chart labels it: `8,8`, `A,A`,
/// `soft 18`, `hard 12`.
fn row_label(chart: Chart, row: u8) -> String {
    match chart {
        Chart::Pair if row == 11 => "A,A".into(),
        Chart::Pair => format!("{row},{row}"),
        Chart::Soft | Chart::Hard => format!("{} {row}", chart.name()),
    }
}

/// The up-card as a chart's column heading.
fn column(dealer: u8) -> String {
    if dealer == 11 {
        "A".into()
    } else {
        dealer.to_string()
    }
}

/// Which cell of which chart provably read, and what the target answered
/// instead. Divergences in one cell share a cause (a chart entry, or the
/// stand-in's hand value), so the cell is the group.
fn explain(r: &Request, want: &Value, got: &Value) -> Option<Parting> {
    let d = decide(r).ok()?;
    let got = got.get("action").map_or_else(|| "no action".to_string(), op::short);
    let cell = format!(
        "{} chart, row {}, up-card {}",
        d.chart.name(),
        row_label(d.chart, d.row),
        column(d.dealer)
    );
    let declined = d.pair_declined.map_or(String::new(), |p| {
        format!(
            " (the pair chart's row {} says do not split)",
            row_label(Chart::Pair, p)
        )
    });
    let refused = if d.double_refused {
        " (the cell doubles, but canDouble is false)"
    } else if d.chart == Chart::Soft && d.row == 12 {
        " (the published soft branch starts at 13: soft 12 is played as hard 12)"
    } else {
        ""
    };
    Some(Parting::new(
        format!("{cell}: provably {}, the target {got}", want["action"]),
        format!(
            "cards {:?} (count values {:?}): provably reads the {cell}{declined}{refused}: {}; the target says {got}",
            r.cards(CARDS),
            r.cards(CARDS).iter().map(|&c| count_value(c)).collect::<Vec<_>>(),
            d.action
        ),
    ))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use serde_json::json;

    use super::*;

    fn parse(v: &Value) -> Request {
        Request::parse_with(v, |name| (name == STRATEGY.name).then_some(&STRATEGY)).unwrap()
    }

    #[test]
    fn explain_names_the_chart_row_and_up_card() {
        let r = parse(
            &json!({"op": "blackjack.strategy", "cards": [7, 20], "dealer": 10, "canDouble": true, "canSplit": true}),
        );
        let p = explain(&r, &json!({"action": "teilen"}), &json!({"action": "stehen"})).unwrap();
        assert_eq!(
            p.group,
            "pair chart, row 8,8, up-card 10: provably \"teilen\", the target \"stehen\""
        );
        let r = parse(
            &json!({"op": "blackjack.strategy", "cards": [0, 13], "dealer": 5, "canDouble": true, "canSplit": false}),
        );
        let p = explain(&r, &json!({"action": "stehen"}), &json!({"action": "ziehen"})).unwrap();
        assert!(p.story.contains("soft chart, row soft 12, up-card 5"), "{}", p.story);
        assert!(p.story.contains("played as hard 12"), "{}", p.story);
        let r = parse(
            &json!({"op": "blackjack.strategy", "cards": [3, 16], "dealer": 11, "canDouble": false, "canSplit": true}),
        );
        let p = explain(&r, &json!({"action": "ziehen"}), &json!({"action": "teilen"})).unwrap();
        assert!(
            p.story
                .contains("hard chart, row hard 8, up-card A (the pair chart's row 4,4 says do not split)"),
            "{}",
            p.story
        );
    }

    #[test]
    fn a_huge_answer_is_quoted_cut_in_the_headline_and_the_story() {
        let r = parse(
            &json!({"op": "blackjack.strategy", "cards": [7, 20], "dealer": 10, "canDouble": true, "canSplit": true}),
        );
        let huge = "x".repeat(200_000);
        let p = explain(&r, &json!({"action": "teilen"}), &json!({ "action": huge })).unwrap();
        assert!(
            p.group.len() < 200 && p.story.len() < 400,
            "{} / {}",
            p.group.len(),
            p.story.len()
        );
        assert!(
            p.group.ends_with(&format!("the target \"{}...", "x".repeat(56))),
            "{}",
            p.group
        );
    }

    #[test]
    fn generated_cases_reach_two_and_many_cards_every_action_and_the_rare_situations() {
        let mut runner = TestRunner::deterministic();
        let mut actions = BTreeSet::new();
        let (mut multi, mut aces, mut das_line, mut long) = (0, 0, 0, 0);
        for _ in 0..2000 {
            let r = generate().new_tree(&mut runner).unwrap().current();
            let cards = r.cards(CARDS);
            multi += usize::from(cards.len() > 2);
            aces += usize::from(cards.iter().all(|&c| pip(c) == 1) && cards.len() == 2);
            das_line += usize::from(flags(&r).contains(&Flag::FourFourNoDas));
            long += usize::from(cards.len() >= 15);
            actions.insert(r.run_value().unwrap()["action"].to_string());
        }
        assert_eq!(actions.len(), 4, "{actions:?}");
        // 60,340 of 184,500 situations have three or more cards, 1,500 of
        // them 15 or more; 1,280 are A,A and 320 reach the DAS line. About
        // 520 + 190 multi-card cases are expected, 14 + 165 A,A, 3 + 40 on
        // the DAS line, 13 + 190 long hands.
        assert!((550..=900).contains(&multi), "{multi} multi-card cases of 2000");
        assert!(aces > 100, "{aces} A,A of 2000");
        assert!(das_line > 20, "{das_line} cases reach the DAS line");
        assert!(long > 100, "{long} hands of 15 cards or more");
        assert_eq!(rare_numbers().len(), 1280 + 320 + 1500);
    }

    #[test]
    fn situation_numbers_round_trip_through_the_wire_form() {
        for k in [0, 1, 79, 80, 123_456, COUNT - 1] {
            let s = situation(k).unwrap();
            let r = request(&s);
            assert_eq!(parse(&r.to_value()), r);
            assert_eq!(r.run_value().unwrap()["action"], s.action().name());
        }
    }
}
