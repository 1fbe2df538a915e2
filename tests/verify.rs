use crate::support::run;

const SEED: &str = "a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60";

fn shoe_cards() -> Vec<String> {
    provably::shoe::deal(SEED, "table-7", 12, 6, 0.75)
        .cards
        .iter()
        .map(|c| c.to_string())
        .collect()
}

fn verify_shoe(commit: &str, observed: &str) -> (i32, String, String) {
    run(
        &[
            "verify",
            "shoe",
            "--server-seed",
            SEED,
            "--commit",
            commit,
            "--client-seed",
            "table-7",
            "--nonce",
            "12",
            "--decks",
            "6",
            "--penetration",
            "0.75",
            "--observed",
            observed,
        ],
        "",
    )
}

#[test]
fn matching_round_exits_0_and_says_so() {
    let observed = shoe_cards()[..40].join(" ");
    let (code, out, err) = verify_shoe(&provably::cursor::hash(SEED), &observed);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("commitment: OK")
            && out.contains("all 40 observed cards match")
            && out.contains("everything matches"),
        "{out}"
    );
}

#[test]
fn wrong_card_at_a_known_position_is_named() {
    let mut cards = shoe_cards()[..30].to_vec();
    let derived = cards[17].clone();
    cards[17] = if derived == "AS" { "KC".into() } else { "AS".into() };
    let (code, out, _) = verify_shoe(&provably::cursor::hash(SEED), &cards.join(","));
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!(
            "MISMATCH at card 17 (counting from 0): derived {derived}, observed {}",
            cards[17]
        )),
        "{out}"
    );
}

#[test]
fn seed_that_does_not_match_its_commitment_fails_even_when_the_cards_match() {
    let observed = shoe_cards()[..10].join(" ");
    let other = provably::cursor::hash("another seed");
    let (code, out, _) = verify_shoe(&other, &observed);
    assert_eq!(code, 1);
    assert!(
        out.contains("commitment: MISMATCH") && out.contains("all 10 observed cards match"),
        "{out}"
    );
}

#[test]
fn dice_and_ladder_and_selfpoker_verify() {
    let faces: Vec<String> = (5..15)
        .map(|n| provably::dice::roll(SEED, "a:b", n).unwrap().to_string())
        .collect();
    let (code, out, _) = run(
        &[
            "verify",
            "dice",
            "--server-seed",
            SEED,
            "--commit",
            &provably::cursor::hash(SEED),
            "--client-seed",
            "a:b",
            "--first",
            "5",
            "--observed",
            &faces.join(" "),
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");
    let mut wrong = faces.clone();
    wrong[3] = if wrong[3] == "1" { "2".into() } else { "1".into() };
    let (code, out, _) = run(
        &[
            "verify",
            "dice",
            "--server-seed",
            SEED,
            "--commit",
            &provably::cursor::hash(SEED),
            "--client-seed",
            "a:b",
            "--first",
            "5",
            "--observed",
            &wrong.join(" "),
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(out.contains("MISMATCH at die 3"), "{out}");

    let deck: Vec<String> = provably::selfpoker::deck(42).iter().map(u32::to_string).collect();
    let (code, out, _) = run(
        &[
            "verify",
            "selfpoker",
            "--server-seed",
            "42",
            "--commit",
            &provably::selfpoker::commit(42),
            "--observed",
            &deck[..9].join(","),
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");

    let order: Vec<String> = provably::ladder::shuffle(SEED, "c", 25)
        .iter()
        .map(u32::to_string)
        .collect();
    let (code, out, _) = run(
        &[
            "verify",
            "ladder",
            "--server-seed",
            SEED,
            "--commit",
            &provably::cursor::hash(SEED),
            "--client-seed",
            "c",
            "--observed",
            &order.join(" "),
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");
}

#[test]
fn more_observed_than_dealt_is_a_mismatch_and_garbage_is_bad_input() {
    let deck: Vec<String> = provably::selfpoker::deck(7).iter().map(u32::to_string).collect();
    let mut too_many = deck.clone();
    too_many.push("0".into());
    let (code, out, _) = run(
        &[
            "verify",
            "selfpoker",
            "--server-seed",
            "7",
            "--commit",
            &provably::selfpoker::commit(7),
            "--observed",
            &too_many.join(" "),
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(out.contains("MISMATCH at card 52"), "{out}");
    let (code, _, err) = verify_shoe(&provably::cursor::hash(SEED), "AS XX");
    assert_eq!(code, 2);
    assert!(err.contains("observed") && err.contains("XX"), "{err}");
}
