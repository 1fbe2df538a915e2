use crate::support::run;

const SEED: &str = "a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60";

fn shoe_cards() -> Vec<String> {
    provably::schemes::shoe::deal(SEED, "table-7", 12, 6, 0.75)
        .cards
        .iter()
        .map(|c| c.to_string())
        .collect()
}

fn verify_shoe(commit: &str, observed: &str) -> (i32, String, String) {
    verify_shoe_with(commit, observed, &[])
}

#[test]
fn matching_round_exits_0_and_says_so() {
    let observed = shoe_cards()[..40].join(" ");
    let (code, out, err) = verify_shoe(&provably::schemes::cursor::hash(SEED), &observed);
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
    let (code, out, _) = verify_shoe(&provably::schemes::cursor::hash(SEED), &cards.join(","));
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
    let other = provably::schemes::cursor::hash("another seed");
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
        .map(|n| provably::schemes::dice::roll(SEED, "a:b", n).unwrap().to_string())
        .collect();
    let (code, out, _) = run(
        &[
            "verify",
            "dice",
            "--server-seed",
            SEED,
            "--commit",
            &provably::schemes::cursor::hash(SEED),
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
            &provably::schemes::cursor::hash(SEED),
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

    let deck: Vec<String> = provably::schemes::selfpoker::deck(42)
        .iter()
        .map(u32::to_string)
        .collect();
    let (code, out, _) = run(
        &[
            "verify",
            "selfpoker",
            "--server-seed",
            "42",
            "--commit",
            &provably::schemes::selfpoker::commit(42),
            "--observed",
            &deck[..9].join(","),
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");

    let order: Vec<String> = provably::schemes::ladder::shuffle(SEED, "c", 25)
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
            &provably::schemes::cursor::hash(SEED),
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
    let deck: Vec<String> = provably::schemes::selfpoker::deck(7)
        .iter()
        .map(u32::to_string)
        .collect();
    let mut too_many = deck.clone();
    too_many.push("0".into());
    let (code, out, _) = run(
        &[
            "verify",
            "selfpoker",
            "--server-seed",
            "7",
            "--commit",
            &provably::schemes::selfpoker::commit(7),
            "--observed",
            &too_many.join(" "),
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(out.contains("MISMATCH at card 52"), "{out}");
    let (code, _, err) = verify_shoe(&provably::schemes::cursor::hash(SEED), "AS XX");
    assert_eq!(code, 2);
    assert!(err.contains("observed") && err.contains("XX"), "{err}");
}

fn verify_shoe_with(commit: &str, observed: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
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
    ];
    args.extend_from_slice(extra);
    run(&args, "")
}

#[test]
fn an_empty_observation_is_nothing_to_compare_never_everything_matches() {
    for observed in ["", " , "] {
        let (code, out, _) = verify_shoe(&provably::schemes::cursor::hash(SEED), observed);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("nothing to compare"), "{out}");
        assert!(
            !out.contains("everything matches") && !out.contains("match the derived"),
            "{out}"
        );
    }
    let (code, out, _) = verify_shoe(&provably::schemes::cursor::hash("other"), "");
    assert_eq!(code, 1, "a wrong commitment still fails: {out}");
}

#[test]
fn the_cut_card_is_shown_and_checked() {
    let cut = provably::schemes::shoe::deal(SEED, "table-7", 12, 6, 0.75).cut;
    let commit = provably::schemes::cursor::hash(SEED);
    let observed = shoe_cards()[..5].join(" ");
    let (code, out, _) = verify_shoe(&commit, &observed);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("cut card: position {cut} (derived)")), "{out}");
    let (code, out, _) = verify_shoe_with(&commit, &observed, &["--cut", &cut.to_string()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("the observed position") && out.contains("everything matches"),
        "{out}"
    );
    let (code, out, _) = verify_shoe_with(&commit, &observed, &["--cut", &(cut + 1).to_string()]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!(
            "MISMATCH at the cut card: derived {cut}, observed {}",
            cut + 1
        )),
        "{out}"
    );
}

#[test]
fn every_differing_card_is_listed_and_unseen_ones_are_skipped() {
    let mut cards = shoe_cards()[..30].to_vec();
    let swap = |c: &str| if c == "AS" { "KC".to_string() } else { "AS".to_string() };
    for i in [3, 17, 29] {
        cards[i] = swap(&cards[i]);
    }
    cards[5] = "?".into();
    let (code, out, _) = verify_shoe(&provably::schemes::cursor::hash(SEED), &cards.join(" "));
    assert_eq!(code, 1);
    let listed: Vec<&str> = out.lines().filter(|l| l.contains("MISMATCH at card")).collect();
    assert_eq!(listed.len(), 3, "{out}");
    for (line, i) in listed.iter().zip([3, 17, 29]) {
        assert!(line.contains(&format!("card {i} (counting from 0)")), "{line}");
    }
}

#[test]
fn a_commitment_must_be_64_hex_characters_in_any_case_with_space_around_ignored() {
    let commit = provably::schemes::cursor::hash(SEED);
    let observed = shoe_cards()[..3].join(" ");
    let (code, out, _) = verify_shoe(&format!("  {}\n", commit.to_uppercase()), &observed);
    assert_eq!(code, 0, "{out}");
    for bad in [&commit[..63], "not a commitment", &format!("{}g", &commit[..63]), ""] {
        let (code, _, err) = verify_shoe(bad, &observed);
        assert_eq!(code, 2, "{bad:?}");
        assert!(err.contains("commit") && err.contains("64 hex"), "{err}");
    }
}

fn dice(first: &str, observed: &str) -> (i32, String, String) {
    run(
        &[
            "verify",
            "dice",
            "--server-seed",
            SEED,
            "--commit",
            &provably::schemes::cursor::hash(SEED),
            "--client-seed",
            "a:b",
            "--first",
            first,
            "--observed",
            observed,
        ],
        "",
    )
}

#[test]
fn dice_faces_outside_1_to_6_are_invalid_input() {
    for face in ["0", "7", "-1", "x"] {
        let (code, _, err) = dice("0", &format!("1 {face}"));
        assert_eq!(code, 2, "{face}: {err}");
        assert!(err.contains("observed"), "{err}");
    }
}

#[test]
fn counters_share_derives_2_pow_53_bound_including_the_last_observed_die() {
    let max = provably::op::error::MAX_SAFE_INTEGER;
    let (code, _, err) = dice(&(max - 1).to_string(), "1 2 3");
    assert_eq!(code, 2);
    assert!(err.contains("first") && err.contains("2^53-1"), "{err}");
    let face = provably::schemes::dice::roll(SEED, "a:b", max).unwrap().to_string();
    let (code, out, _) = dice(&max.to_string(), &face);
    assert_eq!(code, 0, "die 2^53-1 itself is fine: {out}");
    let above = (max + 1).to_string();
    let (code, _, err) = dice(&above, "1");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = verify_shoe_with(&provably::schemes::cursor::hash(SEED), "AS", &["--nonce", &above]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(
        &[
            "verify",
            "shuffle",
            "--server-seed",
            SEED,
            "--commit",
            &provably::schemes::cursor::hash(SEED),
            "--client-seed",
            "c",
            "--nonce",
            "0",
            "--count",
            "5",
            "--cursor",
            &above,
            "--observed",
            "1",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("cursor"), "{err}");
    let (code, _, err) = run(
        &[
            "verify",
            "tournament",
            "--server-seed",
            SEED,
            "--commit",
            &provably::schemes::cursor::hash(SEED),
            "--tournament-id",
            "T",
            "--hand",
            &above,
            "--decks",
            "1",
            "--penetration",
            "0.5",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("hand"), "{err}");
}

#[test]
fn poker_items_run_seat_by_seat_then_the_board() {
    let deal = provably::schemes::poker::deal(SEED, "c", 4, 2);
    let mut items: Vec<String> = deal
        .hole
        .iter()
        .flatten()
        .chain(deal.board.iter())
        .map(u8::to_string)
        .collect();
    let wrong = if items[6] == "0" { "1" } else { "0" };
    items[6] = wrong.into();
    let (code, out, _) = run(
        &[
            "verify",
            "poker",
            "--server-seed",
            SEED,
            "--commit",
            &provably::schemes::cursor::hash(SEED),
            "--client-seed",
            "c",
            "--nonce",
            "4",
            "--players",
            "2",
            "--observed",
            &items.join(","),
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(out.contains("MISMATCH at card 6 (counting from 0)"), "{out}");
    assert_eq!(out.matches("MISMATCH at").count(), 1, "{out}");
}
