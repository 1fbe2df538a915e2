//! The toy coin's vectors: both sides, and the edges of the inputs.

use serde_json::json;

use crate::vectors::VectorSet;

pub(crate) fn add(v: &mut VectorSet) {
    let coin = |nonce: u64| json!({ "op": "toy.coin", "serverSeed": "toy server seed", "clientSeed": "toy client", "nonce": nonce });
    let side = |nonce: u64| crate::schemes::toy::flip("toy server seed", "toy client", nonce);
    for want in [0, 1] {
        let nonce = (0..).find(|&n| side(n) == want).expect("both sides turn up");
        v.add(
            format!("nonce {nonce}: {}", crate::schemes::toy::SIDES[want]),
            coin(nonce),
        );
    }
    v.edges(coin(1));
    v.variants(coin(1));
}
