//! `negative::variants`: every single-fault mutation of a valid request is
//! answered `invalid`, for generated requests of every op.

use std::collections::BTreeSet;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use provably::op;
use provably::vectors::negative::{variant, variants, Invalid};

/// `n` generated requests of `op`, from a fixed seed.
fn generated(o: &'static op::OpSpec, n: usize) -> Vec<op::Request> {
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[9; 32]));
    (0..n)
        .map(|_| (o.generate)().new_tree(&mut runner).unwrap().current())
        .collect()
}

#[test]
fn every_variant_of_every_generated_request_is_answered_invalid() {
    for o in provably::registry::ops() {
        for r in generated(o, 8) {
            let all = variants(&r);
            assert!(all.len() >= 10, "{}: only {} variants", o.name, all.len());
            for v in &all {
                assert_eq!(v.op, o);
                assert!(v.line.starts_with('{'), "{}: {}", o.name, v.line);
                if let Err(answer) = v.check() {
                    panic!("{} {:?}: {} is answered {answer}", o.name, v.comment, v.line);
                }
            }
            let lines: BTreeSet<&str> = all.iter().map(|v| v.line.as_str()).collect();
            assert_eq!(lines.len(), all.len(), "{}: two variants with the same line", o.name);
        }
    }
}

#[test]
fn the_same_request_gives_the_same_variants() {
    for o in provably::registry::ops() {
        let r = generated(o, 1).remove(0);
        assert_eq!(variants(&r), variants(&r), "{}", o.name);
    }
}

/// The harness writes out one variant of a request; it must be the one the
/// whole list holds at that place, or a `--seed` would ask other faults
/// than the list promises.
#[test]
fn one_variant_picked_is_the_one_the_list_holds_at_that_place() {
    for o in provably::registry::ops() {
        // Eight requests: the count is kept per op for ops without cards,
        // so every request of such an op must have as many variants.
        for r in generated(o, 8) {
            let all = variants(&r);
            for pick in [0, 1, 7, all.len() as u64 - 1, all.len() as u64, u64::MAX] {
                let i = usize::try_from(pick % all.len() as u64).unwrap();
                assert_eq!(variant(&r, pick), all[i], "{} pick {pick}", o.name);
            }
        }
    }
}

/// The id goes first and the rest of the line stays byte for byte, so a
/// duplicate key or a `\ud800` escape reaches the target as written.
#[test]
fn the_id_goes_first_and_the_line_stays_as_written() {
    let r = provably::registry::parse(&serde_json::json!({ "op": "cursor.int", "serverSeed": "s", "clientSeed": "c", "nonce": 1, "cursor": 2, "range": 6 })).unwrap();
    let all = variants(&r);
    let find = |flag: &str, part: &str| -> &Invalid {
        all.iter()
            .find(|v| v.flags.len() == 1 && v.flags[0].name() == flag && v.line.contains(part))
            .unwrap_or_else(|| panic!("no {flag} variant with {part}"))
    };
    let dup = find("DuplicateKey", r#""range":6,"range":6"#);
    assert_eq!(
        dup.line_with_id(9),
        r#"{"id":9,"op":"cursor.int","serverSeed":"s","clientSeed":"c","nonce":1,"cursor":2,"range":6,"range":6}"#
    );
    assert_eq!(dup.input(), None, "a key twice is no JSON value to a strict reader");
    let lone = find("LoneSurrogate", r#""serverSeed":"\ud800""#);
    assert_eq!(lone.input(), None);
    let float = find("FloatInteger", r#""nonce":1.0"#);
    assert!(float.input().is_some(), "1.0 is a JSON value, just not an integer");
    // provably answers every such line with its id (docs/protocol.md), even
    // the ones a strict reader cannot hold; a target that answers those with
    // id null is not faulted for it.
    let answer = provably::protocol::answer_line(&dup.line_with_id(9));
    assert_eq!(answer.id, Some(9));
    let answer = provably::protocol::answer_line(&float.line_with_id(9));
    assert_eq!(answer.id, Some(9));
    assert_eq!(answer.result.unwrap_err().kind(), "invalid");
}
