//! Independent oracles that need no subprocess.

use fair::ProvablyFairRNG;
use proptest::prelude::*;

use provably::schemes::cursor::Round;
use provably::schemes::shoe::{self, ByteSource, ByteStream};

proptest! {
    /// The `fair` crate (crates.io, 0.0.13) is the byte generator Stake
    /// publishes; the shoe must read the same bytes, across block
    /// boundaries, byte by byte (the plain stream) and in one read
    /// (`shoe.stream`'s, the fast form unless `--features plain`).
    #[test]
    fn shoe_byte_stream_equals_the_fair_crate(server in ".{0,70}", client in ".{0,20}", nonce in 0u64..1_000_000) {
        let mut ours = ByteStream::new(&server, &client, nonce);
        let theirs: Vec<u8> = ProvablyFairRNG::<u8>::new(&client, &server, nonce).take(100).collect();
        let mine: Vec<u8> = (0..100).map(|_| ours.next_byte()).collect();
        prop_assert_eq!(&mine, &theirs);
        prop_assert_eq!(shoe::stream(&server, &client, nonce, 100), theirs);
    }

    /// The fair crate's floats read four stream bytes per float; the k-th
    /// equals `cursor.float` at cursor k / 8 when the float is the first in its block.
    #[test]
    fn fair_floats_equal_cursor_floats_at_block_starts(server in "[0-9a-f]{64}", client in ".{0,20}", nonce in 0u64..1000) {
        let floats: Vec<f64> = ProvablyFairRNG::<f64>::new(&client, &server, nonce).take(24).collect();
        let round = Round::new(&server, &client, nonce);
        for block in 0..3u64 {
            prop_assert_eq!(floats[usize::try_from(block * 8).unwrap()].to_bits(), round.float(block).to_bits());
        }
    }
}

/// numpy's own numbers from docs/schemes.md (produced by numpy 2.4.6, as
/// the checked specification records them): first ten cards of permutation(52).
#[test]
fn numpy_permutation_matches_the_recorded_numpy_outputs() {
    let cases: [(u64, [u32; 10]); 6] = [
        (0, [38, 11, 18, 10, 23, 28, 4, 36, 34, 27]),
        (42, [27, 7, 47, 38, 51, 17, 5, 49, 34, 23]),
        (12345, [26, 35, 49, 45, 20, 12, 7, 17, 8, 24]),
        (4294967296, [9, 23, 22, 30, 43, 5, 42, 10, 21, 0]),
        (9223372036854775807, [21, 16, 34, 42, 0, 39, 48, 9, 46, 18]),
        (6012398147733912337, [46, 50, 24, 11, 1, 29, 6, 3, 42, 45]),
    ];
    for (seed, first) in cases {
        assert_eq!(
            &provably::schemes::selfpoker::numpy::permutation(seed, 52)[..10],
            &first,
            "seed {seed}"
        );
    }
}

#[test]
fn numpy_pcg64_trace_for_seed_12345_matches_the_recorded_state_and_draws() {
    assert_eq!(
        provably::schemes::selfpoker::numpy::seed_sequence_state(12345),
        [
            0xb5ae6482a03d837c,
            0xbbe2996ffa1f7a2f,
            0x64e39a9f37158f94,
            0x3ebb0f96a013fd73
        ]
    );
    let mut rng = provably::schemes::selfpoker::numpy::Pcg64::from_seed(12345);
    let halves: Vec<u32> = (0..6).map(|_| rng.next_u32()).collect();
    assert_eq!(
        halves,
        [0xb2ffc19d, 0x3a32b18d, 0xc9e4c4de, 0x51171315, 0x3444efd9, 0xcc202482]
    );
    let full = provably::schemes::selfpoker::numpy::permutation(12345, 52);
    assert_eq!(&full[48..], &[21, 30, 13, 29]);
}
