//! The poker vectors: a deal for every table size, a table round with seat
//! seeds, and a hand of every category, written as cards ("9c 9d 7h").

use serde_json::json;

use crate::op::error::MAX_SAFE_INTEGER;
use crate::schemes::poker::card_from_text;
use crate::vectors::cursor::CLIENT_B;
use crate::vectors::vektoren::{SEED_A, SEED_B};
use crate::vectors::VectorSet;

/// Hands in the order of the file: a comment and the cards.
const HANDS: &[(&str, &str)] = &[
    ("royal flush", "As Ks Qs Js Ts"),
    ("steel wheel: five-high straight flush", "Ac 2c 3c 4c 5c"),
    ("quads with the best kicker of three", "9c 9d 9h 9s 2c Kd 7h"),
    ("full house from two trips", "4c 4d 4h Jc Jd Jh 2s"),
    ("full house: trips and the higher of two pairs", "6c 6d 6h 3c 3d Qh Qs"),
    ("flush of six cards keeps the top five", "2d 5d 7d 9d Jd Kd"),
    ("flush beats a straight in the same seven", "5h 6c 7h 8h 9d Qh 2h"),
    ("straight, ace high", "Tc Jd Qh Ks Ac"),
    ("wheel among seven cards", "Ac 2d 3h 4s 5c 9d Kh"),
    (
        "six-high straight beats the wheel in the same cards",
        "Ac 2d 3h 4s 5c 6d Kh",
    ),
    ("trips", "8c 8d 8h 3c Qd 5h Ts"),
    ("two pair with the third pair as kicker", "9c 9d 7c 7d 5h 5s 2c"),
    ("two pair", "Ac Ad Kc Kd Qh"),
    ("pair", "Tc Td 2h 4s 6c 8d Kh"),
    ("high card", "2c 4d 6h 8s Tc Qd Kh"),
    ("high card, five cards", "2c 3d 4h 5s 7c"),
    (
        "ace-low straight flush among seven with a higher plain straight",
        "Ad 2d 3d 4d 5d 6h 7s",
    ),
    ("six cards: pair", "3c 3d 9h Js Kc Ad"),
    // Runs that are straights only under modular rank arithmetic (the king
    // wrapping round to the two): high card here, a straight to an evaluator
    // that counts ranks mod 13.
    ("Q K A 2 3 is no straight (ranks do not wrap)", "Qc Kd Ah 2s 3c"),
    ("K A 2 3 4 is no straight", "Kc Ad 2h 3s 4c"),
    ("J Q K A 2 is no straight", "Jc Qd Kh Ac 2s"),
    ("wrap-around run among seven is no straight", "Jc Qd Kh Ad 2s 7h 9c"),
    (
        "wrap-around run in one suit is a flush, not a straight flush",
        "Qh Kh Ah 2h 3h",
    ),
];

/// Card numbers of a hand written as text.
fn hand(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|t| card_from_text(t).unwrap_or_else(|| panic!("{t:?} is not a card")))
        .collect()
}

pub(crate) fn add(v: &mut VectorSet) {
    for players in crate::schemes::poker::PLAYERS {
        v.add(
            format!("deal for {players} players"),
            json!({ "op": "poker.deal", "serverSeed": SEED_B, "clientSeed": CLIENT_B, "nonce": players, "players": players }),
        );
    }
    v.add(
        "table round: seat seeds concatenated in player order",
        json!({ "op": "poker.deal", "serverSeed": SEED_A, "clientSeed": "seat1-ä\u{301}seat2-😀seat3", "nonce": MAX_SAFE_INTEGER, "players": 3 }),
    );
    for (comment, cards) in HANDS {
        v.add(*comment, json!({ "op": "poker.evaluate", "cards": hand(cards) }));
    }
    v.edges(json!({ "op": "poker.deal", "serverSeed": SEED_B, "clientSeed": CLIENT_B, "nonce": 1, "players": 2 }));
    for (comment, cards) in [
        ("the five lowest card numbers, 0 to 4", [0u8, 1, 2, 3, 4]),
        ("the five highest card numbers, 47 to 51", [47, 48, 49, 50, 51]),
    ] {
        v.add(comment, json!({ "op": "poker.evaluate", "cards": cards }));
    }
    v.variants(json!({ "op": "poker.deal", "serverSeed": "s", "clientSeed": "c", "nonce": 1, "players": 3 }));
    v.variants(json!({ "op": "poker.evaluate", "cards": [0, 13, 26, 39, 51] }));
}
