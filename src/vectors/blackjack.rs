//! The `blackjack.strategy` vectors: every pair against the up-cards where
//! the published split lists change, the soft and hard rows where their
//! double and stand lists change, multi-card hands, and the two things the
//! published function does that its comments do not say (an A,A that may
//! not be split stands against 4, 5 and 6; `doubleAfterSplit` changes no
//! answer).
//!
//! Hands are written as cards ("Ac Kd": rank A23456789TJQK, suit cdhs), the
//! numbering of `poker_referenz.py`. The up-card is its count value, 11 for
//! an ace.

use serde_json::json;

use crate::op::Flag;
use crate::schemes::poker::card_from_text;
use crate::vectors::negative::Invalid;
use crate::vectors::VectorSet;

/// Card numbers of a hand written as text.
fn hand(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|t| card_from_text(t).unwrap_or_else(|| panic!("{t:?} is not a card")))
        .collect()
}

/// The up-card as a chart prints it.
fn up(dealer: u8) -> String {
    if dealer == 11 {
        "A".into()
    } else {
        dealer.to_string()
    }
}

/// What a request allows: `canDouble`, `canSplit`, `doubleAfterSplit`.
#[derive(Clone, Copy)]
struct Allow {
    double: bool,
    split: bool,
    das: bool,
}

const ALL: Allow = Allow {
    double: true,
    split: true,
    das: true,
};
const DOUBLE: Allow = Allow {
    double: true,
    split: false,
    das: true,
};
const NOTHING: Allow = Allow {
    double: false,
    split: false,
    das: true,
};

/// The request of one situation, every field written out.
fn request(cards: &str, dealer: u8, allow: Allow) -> serde_json::Value {
    json!({
        "op": "blackjack.strategy",
        "cards": hand(cards),
        "dealer": dealer,
        "canDouble": allow.double,
        "canSplit": allow.split,
        "doubleAfterSplit": allow.das,
    })
}

fn add_case(v: &mut VectorSet, comment: String, cards: &str, dealer: u8, allow: Allow) {
    v.add(comment, request(cards, dealer, allow));
}

/// Every pair by count value, with K,10 (a pair by count value, not by
/// rank), against the up-cards where a split list starts or stops: 2,2,
/// 3,3 and 7,7 split to 7 and not against 8; 4,4 only against 5 and 6; 9,9
/// not against 7, 10 or the ace.
const PAIRS: &[(&str, &str)] = &[
    ("2,2", "2c 2d"),
    ("3,3", "3c 3h"),
    ("4,4", "4c 4s"),
    ("5,5 (never split: a hard 10)", "5d 5h"),
    ("6,6", "6c 6d"),
    ("7,7", "7h 7s"),
    ("8,8", "8c 8d"),
    ("9,9", "9d 9s"),
    ("10,10", "Tc Td"),
    ("K,10: a pair by count value (istPaar), not by rank", "Kc Th"),
    ("A,A (a pair and soft 12; played as a pair)", "Ac Ad"),
];
const PAIR_UP_CARDS: [u8; 6] = [2, 5, 7, 8, 10, 11];

/// Soft totals as two cards, the ace first.
const SOFT: &[(u8, &str)] = &[
    (13, "Ac 2d"),
    (14, "Ah 3c"),
    (15, "As 4d"),
    (16, "Ac 5h"),
    (17, "Ad 6s"),
    (18, "Ac 7c"),
    (19, "Ah 8d"),
    (20, "As 9h"),
    (21, "Ac Kd"),
];

/// Hard totals 4…21: two cards, no pair among them but 2,2 (played
/// unsplit), and 21 as three cards.
const HARD: &[(u8, &str)] = &[
    (4, "2c 2d"),
    (5, "2h 3s"),
    (6, "2c 4d"),
    (7, "2d 5h"),
    (8, "2h 6s"),
    (9, "2s 7c"),
    (10, "2c 8h"),
    (11, "2d 9c"),
    (12, "Tc 2h"),
    (13, "Js 3d"),
    (14, "Qh 4c"),
    (15, "Kd 5s"),
    (16, "Tc 6h"),
    (17, "Jd 7c"),
    (18, "Qs 8d"),
    (19, "Kc 9h"),
    (20, "Tc Kd"),
    (21, "Th 5c 6d"),
];

/// Rows whose cells change with the up-card are asked against every
/// up-card where a list starts or stops; rows that are the same everywhere
/// (hit hard 4…8, stand on hard 17…21 and soft 20, 21) against two.
fn up_cards(soft: bool, total: u8) -> &'static [u8] {
    match (soft, total) {
        (false, 4..=8 | 17..) | (true, 20 | 21) => &[6, 11],
        (false, 9..=16) => &[2, 3, 4, 6, 7, 9, 10, 11],
        (true, _) => &[2, 3, 4, 5, 6, 7, 8, 9, 11],
        (false, _) => unreachable!("no hard total below 4"),
    }
}

pub(crate) fn add(v: &mut VectorSet) {
    for (name, cards) in PAIRS {
        for d in PAIR_UP_CARDS {
            add_case(v, format!("{name} against {}, split allowed", up(d)), cards, d, ALL);
        }
    }
    for &(total, cards) in SOFT {
        for &d in up_cards(true, total) {
            add_case(
                v,
                format!("soft {total} against {}, double allowed", up(d)),
                cards,
                d,
                DOUBLE,
            );
        }
    }
    for &(total, cards) in HARD {
        // Hard 21 has three cards, and three cards may not double.
        let (allow, what) = if hand(cards).len() == 2 {
            (DOUBLE, "double allowed")
        } else {
            (NOTHING, "three cards")
        };
        for &d in up_cards(false, total) {
            add_case(v, format!("hard {total} against {}, {what}", up(d)), cards, d, allow);
        }
    }
    without_double(v);
    quirks(v);
    multi_card(v);
    // Every integer field at its edges, and every single-fault mutation.
    v.edges(json!({ "op": "blackjack.strategy", "cards": [9, 5], "dealer": 6, "canDouble": true, "canSplit": false }));
    v.variants(
        json!({ "op": "blackjack.strategy", "cards": [0, 13], "dealer": 5, "canDouble": true, "canSplit": true }),
    );
    illegal(v);
}

/// Situations whose every field is within its limits but which the op
/// refuses by its own rules (`strategy::validate`). The field variants
/// above cannot make them: they mutate one field against its declaration,
/// and these are legal field by field. The published function answers
/// each of them (a bust hand `stehen`); a target that does too diverges.
fn illegal(v: &mut VectorSet) {
    let cases: &[(&str, &str, u8, Allow)] = &[
        ("a bust hand, hard 22: one past 21", "Tc 5d 7h", 6, NOTHING),
        ("a bust hand, hard 30", "Tc Jd Qh", 2, NOTHING),
        ("a bust hand with an ace counted 1, hard 22", "Ac Kd 5h 6s", 6, NOTHING),
        (
            "canDouble with three cards (hard 9 against 3, a double cell)",
            "2c 3d 4h",
            3,
            DOUBLE,
        ),
        ("canSplit with three cards (4,4 and a 2)", "4c 4d 2h", 5, ALL),
        ("canSplit with two cards of other count values (2,3)", "2c 3d", 5, ALL),
        (
            "canSplit with an ace and a ten: count values 11 and 10",
            "Ac Kd",
            5,
            ALL,
        ),
    ];
    for &(comment, cards, dealer, allow) in cases {
        let line = request(cards, dealer, allow);
        v.add_invalid(Invalid {
            comment: comment.into(),
            flags: vec![Flag::IllegalSituation],
            op: crate::registry::find("blackjack.strategy").expect("the op is declared"),
            line: line.to_string(),
        });
    }
}

/// A cell that doubles, asked with doubling not allowed: "Dh" cells hit,
/// "Ds" cells (soft 18 against 2…6, soft 19 against 6) stand.
fn without_double(v: &mut VectorSet) {
    let cases: &[(&str, &str, u8)] = &[
        ("soft 13 against 5 without double: hit", "Ac 2d", 5),
        ("soft 17 against 3 without double: hit", "Ad 6s", 3),
        ("soft 18 against 2 without double: stand", "Ac 7c", 2),
        ("soft 18 against 6 without double: stand", "Ac 7c", 6),
        ("soft 18 against 8 without double: stand (to 8)", "Ac 7c", 8),
        ("soft 18 against 9 without double: hit (from 9)", "Ac 7c", 9),
        ("soft 19 against 6 without double: stand", "Ah 8d", 6),
        ("hard 9 against 3 without double: hit", "2s 7c", 3),
        ("hard 10 against 9 without double: hit", "2c 8h", 9),
        ("hard 11 against A without double: hit", "2d 9c", 11),
    ];
    for &(comment, cards, d) in cases {
        add_case(v, comment.into(), cards, d, NOTHING);
    }
}

/// What the published function does that its comments do not say.
fn quirks(v: &mut VectorSet) {
    // A,A that may not be split is soft 12; the soft branch starts at 13,
    // so it is played as a hard 12 and stands against 4, 5 and 6.
    for d in [3, 4, 5, 6, 7] {
        add_case(
            v,
            format!("A,A not splittable against {d}: soft 12 falls to the hard 12 row"),
            "Ac Ah",
            d,
            DOUBLE,
        );
    }
    // The DAS line ("4,4 nur mit Double nach Split; ohne DAS wird gezogen")
    // comes after the split test: 4,4 splits against 5 and 6 either way,
    // and an unsplit 4,4 is a hard 8, which hits anyway.
    for d in [4, 5, 6, 7] {
        for das in [true, false] {
            add_case(
                v,
                format!("4,4 against {d}, doubleAfterSplit {das}"),
                "4d 4h",
                d,
                Allow {
                    double: true,
                    split: true,
                    das,
                },
            );
        }
    }
    // The splits basic strategy makes only with DAS, kept without it.
    for (name, cards, d) in [("2,2", "2c 2s", 2), ("3,3", "3d 3s", 3), ("6,6", "6h 6s", 2)] {
        add_case(
            v,
            format!("{name} against {d} without DAS: still split"),
            cards,
            d,
            Allow {
                double: true,
                split: true,
                das: false,
            },
        );
    }
    add_case(
        v,
        "4,4 against 5, split not allowed, no DAS: hard 8 hits".into(),
        "4d 4h",
        5,
        Allow {
            double: true,
            split: false,
            das: false,
        },
    );
}

/// Hands of three or more cards: aces that count 1, soft hands that turn
/// hard, and the longest legal hands.
fn multi_card(v: &mut VectorSet) {
    let cases: &[(&str, &str, u8)] = &[
        ("A,6,10: hard 17 with an ace counted 1", "Ac 6d Th", 10),
        ("A,5,10: hard 16 against 7 hits", "Ad 5c Ks", 7),
        ("A,5,10: hard 16 against 6 stands", "Ad 5c Ks", 6),
        ("A,A,9: soft 21 of three cards", "Ac Ad 9h", 10),
        ("A,A,A,A,5: soft 19, three aces counted 1", "Ac Ad Ah As 5c", 6),
        (
            "A,2,3: soft 16 of three cards against 4 hits (no double)",
            "Ah 2c 3d",
            4,
        ),
        ("A,2,5: soft 18 of three cards against 8 stands", "Ac 2d 5h", 8),
        ("A,2,5: soft 18 of three cards against 9 hits", "Ac 2d 5h", 9),
        ("2,3,4,5: hard 14 against 7", "2c 3d 4h 5s", 7),
        (
            "2,2,2,2,2,2: hard 12 against 4, one card number four times",
            "2c 2c 2c 2c 2d 2d",
            4,
        ),
        (
            "six aces of one card number and a 2: soft 18 of seven cards against 9",
            "Ac Ac Ac Ac Ac Ac 2d",
            9,
        ),
        (
            "21 aces, the longest legal hand (six of three suits, three of the fourth)",
            "Ac Ac Ac Ac Ac Ac Ad Ad Ad Ad Ad Ad Ah Ah Ah Ah Ah Ah As As As",
            10,
        ),
    ];
    for &(comment, cards, d) in cases {
        add_case(v, comment.into(), cards, d, NOTHING);
    }
}
