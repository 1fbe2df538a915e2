//! The `bcgame` vectors: the published games (a Mines board and a Coin
//! Flip run as BC.Game's own verification showed them), a seed pair's first
//! bets of every game, the bets that force each trap and branch (the old
//! dice's `toFixed(9)`, floats at both ends, the window's index through a
//! double, Limbo's clamp, hash dice's later groups), and the edges of the
//! inputs.

use serde_json::{json, Value};

use crate::op::error::MAX_SAFE_INTEGER;
use crate::op::Flag;
use crate::vectors::cursor::UNICODE_CLIENT;
use crate::vectors::VectorSet;

const DEEPSEARCH: &str = "nucleare/DeepSearch_HashGames";

/// The published games: request, the answer its source prints, and the source.
pub(crate) fn published() -> Vec<(Value, Value, String)> {
    let mut mines = bet(
        "bcgame.mines",
        "3ab06c36571e74e3abdcffa3003182816a7e2846cfdeb85b596b1116302066ba",
        "00ff0000ff000000ff",
        1921,
    );
    mines["mines"] = 10.into();
    let mut coins = bet(
        "bcgame.coinflip.old",
        "18fbbc01bbad8823f5a2e2380574119d61d6ae8d5ae1385761ac08a53fe813e8",
        "34b3304ea17b8faed51f1a72af1bfb8f",
        6371,
    );
    coins["rounds"] = 4.into();
    vec![
        (
            mines,
            json!({
                "mines": [24, 16, 25, 20, 10, 3, 4, 11, 21, 6],
                "order": [24, 16, 25, 20, 10, 3, 4, 11, 21, 6, 22, 7, 18, 19, 13, 1, 5, 23, 17, 15, 2, 8, 12, 14, 9],
            }),
            format!(
                "{DEEPSEARCH} BCGame/Mines/BCGamesMinesvsStakeMines.md, ten mines (its remaining order lists tile 6 twice; the 25 tiles are this order)"
            ),
        ),
        (
            coins,
            json!({ "coins": [1, 1, 0, 1] }),
            format!("{DEEPSEARCH} BCGame/CoinFlip/Referencedata.md, BC.Game's Verify Results of a four-round game"),
        ),
    ]
}

const SERVER: &str = "9e1d46b3a3c7f1b2e4d5a6978c0b1a2f3e4d5c6b7a8998877665544332211000";
const CLIENT: &str = "provably";

fn bet(op: &str, server: &str, client: &str, nonce: u64) -> Value {
    json!({ "op": op, "serverSeed": server, "clientSeed": client, "nonce": nonce })
}

/// Every op with the extra fields of one configuration.
fn ops() -> Vec<(&'static str, Value)> {
    vec![
        ("bcgame.hmac", json!({ "hash": "sha256" })),
        ("bcgame.hmac", json!({ "hash": "sha512" })),
        ("bcgame.classicdice.old", json!({})),
        ("bcgame.classicdice", json!({})),
        ("bcgame.dice", json!({})),
        ("bcgame.limbo", json!({})),
        ("bcgame.hashdice", json!({})),
        ("bcgame.mines", json!({ "mines": 3 })),
        ("bcgame.keno", json!({})),
        ("bcgame.plinko", json!({ "rows": 16 })),
        ("bcgame.coinflip.old", json!({ "rounds": 10 })),
        ("bcgame.coinflip", json!({ "rounds": 10 })),
    ]
}

fn with(mut v: Value, extra: &Value) -> Value {
    for (k, x) in extra.as_object().expect("an object") {
        v[k] = x.clone();
    }
    v
}

/// The first nonces of (SERVER, CLIENT) where `pick` holds.
fn nonces_where(op: &str, take: usize, pick: impl Fn(&Value) -> bool) -> Vec<u64> {
    (0..)
        .filter(|&n| pick(&bet(op, SERVER, CLIENT, n)))
        .take(take)
        .collect()
}

/// Whether the request's derived flags hold `flag`.
fn reaches(request: &Value, flag: Flag) -> bool {
    let r = crate::registry::parse(request).expect("a valid request");
    crate::vectors::derived_flags(&r).contains(&flag)
}

pub fn add(v: &mut VectorSet) {
    for (request, answer, source) in published() {
        v.add(format!("{source}: {answer}"), request).tag(Flag::PublishedField);
    }
    for (op, extra) in ops() {
        for n in 0..3 {
            v.add(format!("bet {n}"), with(bet(op, SERVER, CLIENT, n), &extra));
        }
    }
    traps(v);
    let mut seen = Vec::new();
    for (op, extra) in ops() {
        // Each op's edges and invalid variants once, in its first configuration.
        if seen.contains(&op) {
            continue;
        }
        seen.push(op);
        let base = with(bet(op, SERVER, CLIENT, 1), &extra);
        v.add("nonce 2^53-1", with(bet(op, SERVER, CLIENT, MAX_SAFE_INTEGER), &extra));
        v.add("Unicode client seed", with(bet(op, SERVER, UNICODE_CLIENT, 1), &extra));
        v.add(
            "a client seed with the separator in it",
            with(bet(op, SERVER, "a:1", 2), &extra),
        );
        v.edges(base);
        v.variants(with(bet(op, "s", "c", 1), &extra));
    }
}

/// The bets that force each trap and branch.
fn traps(v: &mut VectorSet) {
    // Found by searching the nonces of (SERVER, CLIENT) once (the search
    // runs 430,000 MACs): the old page's toFixed(9) parts the roll at
    // nonces 305,530 (59.51, the float itself 59.50) and 432,868; the float
    // is below 2^-16 at 5,569 and at 1 − 2^-16 or above at 38,047. The
    // derived flags say so, or the reach test fails.
    for (n, what) in [
        (
            305_530,
            "toFixed(9) rounds the float up across a hundredth: 59.51, not 59.50",
        ),
        (432_868, "toFixed(9) parts the roll again: 79.96, not 79.95"),
        (5_569, "the float is below 2^-16"),
        (38_047, "the float is 1 - 2^-16 or above"),
    ] {
        v.add(
            format!("bet {n}: {what}"),
            bet("bcgame.classicdice.old", SERVER, CLIENT, n),
        );
    }
    // The window's index through a double: most MACs; and one where it
    // does not part.
    for (op, extra) in [("bcgame.classicdice", json!({})), ("bcgame.dice", json!({}))] {
        let same = nonces_where(op, 1, |r| !reaches(r, Flag::WindowIndexParts))[0];
        v.add(
            format!("bet {same}: the 15 hex digits through a double give the same index"),
            with(bet(op, SERVER, CLIENT, same), &extra),
        );
    }
    for n in nonces_where("bcgame.limbo", 2, |r| reaches(r, Flag::CrashAtOne)) {
        v.add(
            format!("bet {n}: X below 0.01, the clamp at 1 decides"),
            bet("bcgame.limbo", SERVER, CLIENT, n),
        );
    }
    for n in nonces_where("bcgame.hashdice", 3, |r| reaches(r, Flag::LateGroup)) {
        v.add(
            format!("bet {n}: group 0 is 10^6 or more, lucky from a later group"),
            bet("bcgame.hashdice", SERVER, CLIENT, n),
        );
    }
    // Found by searching once (500,000 MACs): group 0 reads exactly 1,000,000.
    v.add(
        "bet 497150: group 0 reads exactly 1,000,000, skipped",
        bet("bcgame.hashdice", SERVER, CLIENT, 497_150),
    );
    for rows in [8, 12] {
        let mut r = bet("bcgame.plinko", SERVER, CLIENT, 4);
        r["rows"] = rows.into();
        v.add(format!("{rows} rows: the first {rows} numbers"), r);
    }
    for mines in [1, 24] {
        let mut r = bet("bcgame.mines", SERVER, CLIENT, 4);
        r["mines"] = mines.into();
        v.add(format!("{mines} mines: the first {mines} of the order"), r);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_published_games_are_answered_as_published() {
        for (request, answer, source) in super::published() {
            let got = crate::registry::parse(&request).unwrap().run_value().unwrap();
            assert_eq!(got, answer, "{source}");
        }
    }
}
