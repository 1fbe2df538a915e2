//! Shrinking a diverging request in the op's own terms: shorter seeds,
//! smaller numbers, fewer cards, simpler penetrations.
//!
//! proptest's value trees shrink one field to the end before touching the
//! next, which spends hundreds of target calls on the characters of a hex
//! seed before it ever tries a smaller count. Here every field proposes a
//! few big steps first (empty, zero, half) and the first candidate that
//! still diverges is taken; every candidate is strictly simpler than the
//! request it came from, so the loop ends.

use crate::protocol::Request;

/// Simpler versions of a string: empty, halves, one character fewer, ASCII only.
fn strings(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    if chars.is_empty() {
        return out;
    }
    out.push(String::new());
    if chars.len() > 1 {
        out.push(chars[..chars.len() / 2].iter().collect());
        out.push(chars[chars.len() / 2..].iter().collect());
    }
    for i in 0..chars.len().min(24) {
        out.push(
            chars
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .map(|(_, c)| *c)
                .collect(),
        );
    }
    if !s.is_ascii() {
        out.push(chars.iter().map(|c| if c.is_ascii() { *c } else { 'a' }).collect());
    }
    out
}

/// Smaller integers down to `min`: the minimum, halfway, one less.
fn ints(v: u64, min: u64) -> Vec<u64> {
    if v <= min {
        return Vec::new();
    }
    let mut out = vec![min, min + (v - min) / 2, v - (v - min) / 4, v - 1];
    out.dedup();
    out.retain(|&x| x < v);
    out
}

fn significant_bits(p: f64) -> u32 {
    let bits = p.to_bits() & ((1 << 52) - 1);
    if bits == 0 {
        0
    } else {
        52 - bits.trailing_zeros()
    }
}

/// Penetrations with fewer significant bits: 1/2, then p rounded to k binary digits.
fn penetrations(p: f64) -> Vec<f64> {
    let mine = significant_bits(p);
    let mut out = vec![0.5];
    for k in 1..=12 {
        let scale = f64::from(1u32 << k);
        out.push((p * scale).round() / scale);
    }
    out.retain(|&q| q > 0.0 && q < 1.0 && q != p && significant_bits(q) < mine);
    out
}

/// Replaces the fields common to the four cursor ops.
fn set_cursor_fields(r: &mut Request, s: Option<String>, c: Option<String>, n: Option<u64>, k: Option<u64>) {
    use Request::*;
    if let CursorRaw {
        server_seed,
        client_seed,
        nonce,
        cursor,
    }
    | CursorFloat {
        server_seed,
        client_seed,
        nonce,
        cursor,
    }
    | CursorInt {
        server_seed,
        client_seed,
        nonce,
        cursor,
        ..
    }
    | CursorShuffle {
        server_seed,
        client_seed,
        nonce,
        cursor,
        ..
    } = r
    {
        if let Some(s) = s {
            *server_seed = s;
        }
        if let Some(c) = c {
            *client_seed = c;
        }
        if let Some(n) = n {
            *nonce = n;
        }
        if let Some(k) = k {
            *cursor = k;
        }
    }
}

/// Every simplification of `request`, boldest first.
pub fn candidates(request: &Request) -> Vec<Request> {
    use Request::*;
    let mut out = Vec::new();
    let mut r = request.clone();
    match &mut r {
        CursorHash { server_seed } => {
            for s in strings(server_seed) {
                out.push(CursorHash { server_seed: s });
            }
        }
        CursorRaw {
            server_seed,
            client_seed,
            nonce,
            cursor,
        }
        | CursorFloat {
            server_seed,
            client_seed,
            nonce,
            cursor,
        }
        | CursorInt {
            server_seed,
            client_seed,
            nonce,
            cursor,
            ..
        }
        | CursorShuffle {
            server_seed,
            client_seed,
            nonce,
            cursor,
            ..
        } => {
            let (s, c, n, k) = (server_seed.clone(), client_seed.clone(), *nonce, *cursor);
            let base = request.clone();
            let with = |f: &dyn Fn(&mut Request)| {
                let mut x = base.clone();
                f(&mut x);
                x
            };
            if let CursorInt { range, .. } = request {
                for v in ints(*range, 1) {
                    out.push(with(&|x| {
                        if let CursorInt { range, .. } = x {
                            *range = v
                        }
                    }));
                }
            }
            if let CursorShuffle { count, .. } = request {
                for v in ints(*count, 0) {
                    out.push(with(&|x| {
                        if let CursorShuffle { count, .. } = x {
                            *count = v
                        }
                    }));
                }
            }
            for v in ints(k, 0) {
                out.push(with(&|x| set_cursor_fields(x, None, None, None, Some(v))));
            }
            for v in ints(n, 0) {
                out.push(with(&|x| set_cursor_fields(x, None, None, Some(v), None)));
            }
            for v in strings(&c) {
                out.push(with(&|x| set_cursor_fields(x, None, Some(v.clone()), None, None)));
            }
            for v in strings(&s) {
                out.push(with(&|x| set_cursor_fields(x, Some(v.clone()), None, None, None)));
            }
        }
        PokerDeal {
            server_seed,
            client_seed,
            nonce,
            players,
        } => {
            for v in ints(*players, 2) {
                out.push(PokerDeal {
                    server_seed: server_seed.clone(),
                    client_seed: client_seed.clone(),
                    nonce: *nonce,
                    players: v,
                });
            }
            for v in ints(*nonce, 0) {
                out.push(PokerDeal {
                    server_seed: server_seed.clone(),
                    client_seed: client_seed.clone(),
                    nonce: v,
                    players: *players,
                });
            }
            for v in strings(client_seed) {
                out.push(PokerDeal {
                    server_seed: server_seed.clone(),
                    client_seed: v,
                    nonce: *nonce,
                    players: *players,
                });
            }
            for v in strings(server_seed) {
                out.push(PokerDeal {
                    server_seed: v,
                    client_seed: client_seed.clone(),
                    nonce: *nonce,
                    players: *players,
                });
            }
        }
        PokerEvaluate { cards } => {
            if cards.len() > 5 {
                for i in 0..cards.len() {
                    let mut c = cards.clone();
                    c.remove(i);
                    out.push(PokerEvaluate { cards: c });
                }
            }
            for i in 0..cards.len() {
                for smaller in (0..cards[i]).rev().filter(|x| !cards.contains(x)).take(3) {
                    let mut c = cards.clone();
                    c[i] = smaller;
                    out.push(PokerEvaluate { cards: c });
                }
            }
        }
        ShoeDeal {
            server_seed,
            client_seed,
            nonce,
            decks,
            penetration,
        } => {
            let mk = |s: &str, c: &str, n: u64, d: u64, p: f64| ShoeDeal {
                server_seed: s.into(),
                client_seed: c.into(),
                nonce: n,
                decks: d,
                penetration: p,
            };
            for v in ints(*decks, 1) {
                out.push(mk(server_seed, client_seed, *nonce, v, *penetration));
            }
            for v in penetrations(*penetration) {
                out.push(mk(server_seed, client_seed, *nonce, *decks, v));
            }
            for v in ints(*nonce, 0) {
                out.push(mk(server_seed, client_seed, v, *decks, *penetration));
            }
            for v in strings(client_seed) {
                out.push(mk(server_seed, &v, *nonce, *decks, *penetration));
            }
            for v in strings(server_seed) {
                out.push(mk(&v, client_seed, *nonce, *decks, *penetration));
            }
        }
        ShoeTournament {
            server_seed,
            tournament_id,
            hand,
            decks,
            penetration,
        } => {
            let mk = |s: &str, t: &str, h: u64, d: u64, p: f64| ShoeTournament {
                server_seed: s.into(),
                tournament_id: t.into(),
                hand: h,
                decks: d,
                penetration: p,
            };
            for v in ints(*decks, 1) {
                out.push(mk(server_seed, tournament_id, *hand, v, *penetration));
            }
            for v in penetrations(*penetration) {
                out.push(mk(server_seed, tournament_id, *hand, *decks, v));
            }
            for v in ints(*hand, 0) {
                out.push(mk(server_seed, tournament_id, v, *decks, *penetration));
            }
            for v in strings(tournament_id) {
                out.push(mk(server_seed, &v, *hand, *decks, *penetration));
            }
            for v in strings(server_seed) {
                out.push(mk(&v, tournament_id, *hand, *decks, *penetration));
            }
        }
        DiceRoll {
            server_seed,
            client_seed,
            n,
        } => {
            for v in ints(*n, 0) {
                out.push(DiceRoll {
                    server_seed: server_seed.clone(),
                    client_seed: client_seed.clone(),
                    n: v,
                });
            }
            for v in strings(client_seed) {
                out.push(DiceRoll {
                    server_seed: server_seed.clone(),
                    client_seed: v,
                    n: *n,
                });
            }
            for v in strings(server_seed).into_iter().filter(|s| !s.is_empty()) {
                out.push(DiceRoll {
                    server_seed: v,
                    client_seed: client_seed.clone(),
                    n: *n,
                });
            }
        }
        SelfpokerCommit { seed } | SelfpokerDeck { seed } => {
            let deck = matches!(request, SelfpokerDeck { .. });
            for v in ints(seed.parse().unwrap_or(0), 0) {
                let seed = v.to_string();
                out.push(if deck {
                    SelfpokerDeck { seed }
                } else {
                    SelfpokerCommit { seed }
                });
            }
        }
        LadderShuffle {
            server_seed,
            client_seed,
            size,
        } => {
            for v in ints(*size, 1) {
                out.push(LadderShuffle {
                    server_seed: server_seed.clone(),
                    client_seed: client_seed.clone(),
                    size: v,
                });
            }
            for v in strings(client_seed) {
                out.push(LadderShuffle {
                    server_seed: server_seed.clone(),
                    client_seed: v,
                    size: *size,
                });
            }
            for v in strings(server_seed) {
                out.push(LadderShuffle {
                    server_seed: v,
                    client_seed: client_seed.clone(),
                    size: *size,
                });
            }
        }
        Hello { .. } => {}
    }
    out
}
