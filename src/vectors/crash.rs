//! The crash family's vectors: the published outcomes and links, then the
//! cases that force each trap (text against bytes, key and message
//! swapped, the divisor, an instant point of 0 against 1, a salt with its
//! `0x`, BC.Game's `toPrecision(9)`, the edges of the instant crash).

use serde_json::json;

use crate::op::Flag;
use crate::schemes::crash as c;
use crate::vectors::VectorSet;

/// bustabit v1's salt: Bitcoin block 339,300's hash (`server/lib.js`).
const V1_SALT: &str = "000000000000000007a9a31ff7f07463d91af6b5454241d5faf282e5e0fe1b3a";
/// Roobet's salt: Bitcoin block 610,546's hash (rorybain96/roobet `roobet.js`).
const ROOBET_SALT: &str = "0000000000000000000fa3b65e43e4240d71762a5bf397d5304b2596d116859c";
/// Roobet's later salt: Ethereum block 17,985,520's hash, with its `0x`
/// (IsiraUdaththa/Roobet-Crash-Analysis `index-checkpoint.js`).
const ROOBET_ETH_SALT: &str = "0xd2867566759e9158bda9bf93b343bbd9aa02ce1e0c5bc2b37a2d70d391b04f14";
/// bustabit v2's previous chain's salt: block 505,750 (verifier `src/constants.ts`).
const V2_PREV_SALT: &str = "0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526";
/// bustabit v2's current chain's salt (verifier `src/constants.ts`, bitcointalk 5560454).
const V2_SALT: &str = "00000000000000000001e08b7fd44f95e3e950ac65650a8031a6d5e1750e34be";
/// BC.Game's salt, its page's default (bcgame-project/verify `crash.html`).
const BCGAME_SALT: &str = "0000000000000000000301e2801a9a9598bfb114e574a91a887f2132f33047e6";

/// The source of the published outcomes and links.
const CRATE: &str =
    "the bustabit crate 0.2.1 (crates.io), tests/lib.rs should_return_correct_outcome and should_have_next_item";

/// The crate's four game hashes, each the one before's previous game (text link).
const CRATE_CHAIN: [&str; 4] = [
    "b2acd37fbdb5509926ab5d7329704c840f8467266c90019682f3b260a029bdba",
    "82886b71b3b26e4b162bbdf4e7024f50f6a7250c207fb9ce497ad56a3e7e700a",
    "cb7da3ec6cb68d4c0fccd9640641cabcac641f12ff97e7314ec3e074ac0981e0",
    "b459e199bac1342bf22d7aa6d19180aff35ab69f453d809949aab3e8d5e545aa",
];

pub(crate) fn add(v: &mut VectorSet) {
    published(v);
    v1(v);
    v2(v);
    links(v);
}

/// The numbers the bustabit crate publishes: five outcomes and three links
/// (bustabit v2's previous chain, salted with block 505,750).
fn published(v: &mut VectorSet) {
    let outcomes = [("1.26", 0), ("1.18", 1), ("1.26", 2), ("3.77", 3)];
    for (shown, i) in outcomes {
        v.add(
            format!("v2: {CRATE}: {}… → {shown}", &CRATE_CHAIN[i][..8]),
            json!({ "op": "crash.v2", "hash": CRATE_CHAIN[i], "salt": V2_PREV_SALT }),
        )
        .tag(Flag::PublishedCrash);
    }
    v.add(
        "v2: the bustabit crate 0.2.1 (crates.io), examples/simple.rs: 5d07719b… → 2055.9",
        json!({ "op": "crash.v2", "hash": "5d07719b61b0abb6f1c3b17b1d69c838278f87f9b5e75077026e5fedf96c2eb2", "salt": V2_PREV_SALT }),
    )
    .tag(Flag::PublishedCrash);
    for w in CRATE_CHAIN.windows(2) {
        v.add(
            format!("link: {CRATE}: {}… → {}… (hex text)", &w[0][..8], &w[1][..8]),
            json!({ "op": "crash.link", "hash": w[0], "link": "text" }),
        )
        .tag(Flag::PublishedCrash);
    }
}

/// A chain of `n` hashes from a start text, by `link`.
fn chain(start: &str, link: c::Link, n: usize) -> Vec<String> {
    let mut h = vec![crate::base::crypto::sha256_hex(start)];
    while h.len() < n {
        h.push(crate::base::crypto::hex(&c::previous(link, h.last().expect("one"))));
    }
    h
}

/// The first hash of `sha256(i)`, i = 0, 1, …, that `hit` accepts.
fn find(hit: impl Fn(&str) -> bool) -> String {
    (0u32..)
        .map(|i| crate::base::crypto::sha256_hex(&format!("crash {i}")))
        .find(|h| hit(h))
        .expect("such a game turns up")
}

/// The v1 MAC's remainder by `d`.
fn rem(hash: &str, salt: &str, d: u64) -> u64 {
    c::remainder(&c::v1_mac(hash, salt), d)
}

fn v1(v: &mut VectorSet) {
    let game = |h: &str, salt: &str, d: u64, i: u64| json!({ "op": "crash.v1", "hash": h, "salt": salt, "divisor": d, "instant": i });
    for (i, h) in chain("provably bustabit v1", c::Link::Text, 6).iter().enumerate() {
        v.add(
            format!("v1: bustabit, game {i} of a chain"),
            json!({ "op": "crash.v1", "hash": h, "salt": V1_SALT }),
        );
    }
    for (i, h) in chain("provably roobet", c::Link::Text, 4).iter().enumerate() {
        v.add(
            format!("v1: Roobet (20, instant 1), game {i} of a chain"),
            game(h, ROOBET_SALT, 20, 1),
        );
    }
    // The instant crash and its edges: remainder 0 (at once), 1 and d − 1 (not).
    for (d, salt) in [
        (101, V1_SALT),
        (20, ROOBET_SALT),
        (25, ROOBET_ETH_SALT),
        (33, ROOBET_SALT),
    ] {
        for (r, what) in [
            (0, "divisible: an instant crash"),
            (1, "remainder 1"),
            (d - 1, "remainder d − 1"),
        ] {
            let h = find(|h| rem(h, salt, d) == r);
            for i in [0, 1] {
                v.add(
                    format!("v1: divisor {d}, {what}, instant point {i}"),
                    game(&h, salt, d, i),
                );
            }
        }
    }
    // Divisible by 33 (or 20) but not by 101: the wrong divisor crashes it at once.
    for other in [20, 25, 33] {
        let h = find(|h| rem(h, V1_SALT, other) == 0 && rem(h, V1_SALT, 101) != 0);
        v.add(format!("v1: divisible by {other}, not 101"), game(&h, V1_SALT, 101, 0));
    }
    // The least point of the formula, 1.00 (h < 2^52/100), not an instant crash.
    let low = find(|h| rem(h, V1_SALT, 101) != 0 && c::first52(&c::v1_mac(h, V1_SALT)) < (1 << 52) / 100);
    v.add(
        "v1: 1.00 by the formula (h below 2^52/100), no instant crash",
        game(&low, V1_SALT, 101, 0),
    );
    // The Ethereum salt with and without its 0x: two texts, two games.
    let h = chain("provably roobet eth", c::Link::Text, 1).remove(0);
    v.add(
        "v1: Roobet's Ethereum salt with its 0x",
        game(&h, ROOBET_ETH_SALT, 25, 1),
    );
    v.add(
        "v1: the same salt without its 0x",
        game(&h, &ROOBET_ETH_SALT[2..], 25, 1),
    );
    v.add(
        "v1: the salt and the game hash swapped (the key is the hash)",
        game(V1_SALT, &h, 101, 0),
    );
    v.edges(game(&h, V1_SALT, 101, 0));
    v.variants(game(&h, V1_SALT, 101, 0));
}

fn v2(v: &mut VectorSet) {
    let game = |h: &str, salt: &str, b: bool| json!({ "op": "crash.v2", "hash": h, "salt": salt, "bcgame": b });
    for (i, h) in chain("provably bustabit v2", c::Link::Bytes, 6).iter().enumerate() {
        v.add(
            format!("v2: bustabit's current chain, game {i}"),
            json!({ "op": "crash.v2", "hash": h, "salt": V2_SALT }),
        );
    }
    for (i, h) in chain("provably bcgame", c::Link::Text, 6).iter().enumerate() {
        v.add(format!("v2: BC.Game, game {i} of a chain"), game(h, BCGAME_SALT, true));
    }
    // toPrecision(9) parts the points by 0.01: each such game with and without it.
    let parts = |h: &str| {
        let mac = c::v2_mac(h, BCGAME_SALT);
        c::v2_of(c::v2_x(&mac)) != c::v2_of(c::bcgame_x(&mac))
    };
    let mut found = Vec::new();
    for i in 0u32.. {
        let h = crate::base::crypto::sha256_hex(&format!("crash {i}"));
        if parts(&h) {
            found.push(h);
            if found.len() == 3 {
                break;
            }
        }
    }
    for (k, h) in found.iter().enumerate() {
        for b in [true, false] {
            v.add(
                format!("v2: toPrecision(9) parts the point ({k}), bcgame {b}"),
                game(h, BCGAME_SALT, b),
            );
        }
    }
    // The clamp at 1 (X < 0.01) and the least point above it.
    let x = |h: &str| c::v2_x(&c::v2_mac(h, V2_SALT));
    let clamped = find(|h| c::v2_unclamped(x(h)) < 1.0);
    v.add(
        "v2: X below 0.01, the point clamped to 1",
        game(&clamped, V2_SALT, false),
    );
    let one = find(|h| c::v2_unclamped(x(h)) == 1.0);
    v.add(
        "v2: 1.00 by the formula (X from 0.01), not the clamp",
        game(&one, V2_SALT, false),
    );
    let above = find(|h| c::v2_of(x(h)) == 1.01);
    v.add("v2: 1.01, the least point above 1", game(&above, V2_SALT, false));
    // Key and message swapped: the hash as the salt (a text like any other).
    v.add(
        "v2: the game hash as the salt text",
        game(V2_PREV_SALT, CRATE_CHAIN[0], false),
    );
    v.add(
        "v2: the published game's hash, BC.Game's rounding",
        game(CRATE_CHAIN[0], V2_PREV_SALT, true),
    );
    v.edges(game(CRATE_CHAIN[0], V2_SALT, false));
    v.variants(game(CRATE_CHAIN[0], V2_SALT, false));
}

fn links(v: &mut VectorSet) {
    let text = chain("provably link", c::Link::Text, 3);
    for h in &text {
        for link in c::LINKS {
            v.add(
                format!("link: {}… by {link}", &h[..8]),
                json!({ "op": "crash.link", "hash": h, "link": link }),
            );
        }
    }
    let bytes = chain("provably bytes chain", c::Link::Bytes, 11);
    let tip = bytes.last().expect("eleven");
    for (i, h) in bytes.iter().enumerate() {
        v.add(
            format!("chain (bytes): game {i}, {} links from the tip", bytes.len() - 1 - i),
            json!({ "op": "crash.chain.bytes", "hash": h, "terminatingHash": tip, "limit": 10 }),
        );
    }
    v.add(
        "chain (bytes): limit 1",
        json!({ "op": "crash.chain.bytes", "hash": bytes[9], "terminatingHash": tip, "limit": 1 }),
    );
    v.edges(json!({ "op": "crash.link", "hash": text[0], "link": "bytes" }));
    v.variants(json!({ "op": "crash.link", "hash": text[0], "link": "bytes" }));
    v.variants(json!({ "op": "crash.chain.bytes", "hash": bytes[9], "terminatingHash": tip, "limit": 1 }));
}
