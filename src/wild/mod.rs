//! Implementations in the wild: the schemes over another crate's primitives.
//!
//! A verifier built on a third-party package rarely re-implements a scheme;
//! it calls the package's HMAC-SHA256 (or its byte generator) from a few
//! lines of scheme logic. To hold such a stack to the published schemes,
//! the package must do exactly its own part and nothing else:
//!
//! - [`Primitives`]: HMAC-SHA256 and SHA-256 over text (the package's own
//!   calls, keyed with the server seed's UTF-8 text);
//! - [`Stream`]: the shoe's byte stream, for a package that is a byte
//!   generator (block b = HMAC(serverSeed, "clientSeed:nonce:b"), blocks
//!   concatenated).
//!
//! Everything above them is the scheme modules' own logic, in its plain
//! form, which takes its MACs or its bytes from whoever makes them: the
//! cursor's `int` and shuffle, the die, the ladder's words and shuffle over
//! [`Primitives`]' MACs, the shoe over a [`Stream`]; this module only asks
//! the package and writes the answers. `tests/wild.rs` checks it over
//! another HMAC and over the library's own stream against the library (its
//! fast forms) on generated requests. [`serve`] answers
//! protocol v1 for an [`Engine`] of these ops; the binaries `wild-ring` and
//! `wild-fair` (`--features wild`) are the two crates as targets, with
//! manifests in harness/wild/.

use serde_json::{json, Value};

use crate::op::error::OpError;
use crate::op::fields::{CLIENT_SEED, COUNT, CURSOR, NONCE, RANGE, SERVER_SEED};
use crate::op::{Field, Outcome, Request};
use crate::schemes::dice::fields::N;
use crate::schemes::ladder::fields::SIZE;
use crate::schemes::poker::fields::PLAYERS_FIELD as PLAYERS;
use crate::schemes::shoe::fields::{DECKS, HAND, PENETRATION, TOURNAMENT_ID};

mod serve;

pub use serve::serve;

/// HMAC-SHA256 and SHA-256 of a package, on text: the package (or the
/// language) encodes the text as UTF-8.
pub trait Primitives: Sync {
    /// HMAC-SHA256 keyed with `key`'s UTF-8 text, of `message`'s UTF-8 text.
    fn hmac_sha256(&self, key: &str, message: &str) -> [u8; 32];
    /// SHA-256 of `text`'s UTF-8.
    fn sha256(&self, text: &str) -> [u8; 32];
}

/// The shoe's byte stream, one byte at a time, from its first byte on.
pub use crate::schemes::shoe::ByteSource as Stream;

/// The stream made of [`Primitives`]' MACs: block b = HMAC(serverSeed, "clientSeed:nonce:b").
pub(crate) struct MacStream<'a, P: Primitives + ?Sized> {
    p: &'a P,
    server_seed: String,
    prefix: String,
    block: [u8; 32],
    next_block: u64,
    pos: usize,
}

impl<'a, P: Primitives + ?Sized> MacStream<'a, P> {
    pub fn new(p: &'a P, server_seed: &str, client_seed: &str, nonce: u64) -> Self {
        MacStream {
            p,
            server_seed: server_seed.to_string(),
            prefix: format!("{client_seed}:{nonce}:"),
            block: [0; 32],
            next_block: 0,
            pos: 32,
        }
    }
}

impl<P: Primitives + ?Sized> Stream for MacStream<'_, P> {
    fn next_byte(&mut self) -> u8 {
        if self.pos == 32 {
            let message = format!("{}{}", self.prefix, self.next_block);
            self.block = self.p.hmac_sha256(&self.server_seed, &message);
            self.next_block += 1;
            self.pos = 0;
        }
        self.pos += 1;
        self.block[self.pos - 1]
    }
}

/// Every op of protocol v1 that [`Primitives`] alone can answer: the ones
/// whose answers go through an HMAC or a SHA-256 (poker.evaluate and
/// selfpoker.deck use neither).
pub const MAC_OPS: &[&str] = &[
    "cursor.hash",
    "cursor.raw",
    "cursor.float",
    "cursor.int",
    "cursor.shuffle",
    "poker.deal",
    "shoe.deal",
    "shoe.tournament",
    "shoe.stream",
    "dice.roll",
    "selfpoker.commit",
    "ladder.shuffle",
];

/// The ops a [`Stream`] alone can answer: the stream and the shoes drawn from it.
pub const STREAM_OPS: &[&str] = &["shoe.deal", "shoe.tournament", "shoe.stream"];

/// How an [`Engine`] answers one valid request of an op it claims.
pub(crate) type Answer = Box<dyn Fn(&Request) -> Result<Outcome, OpError> + Sync>;

/// A protocol v1 target: the name it gives in hello, the ops it claims,
/// and how it answers one of them.
pub struct Engine {
    /// The name the target gives in hello (the package, its version, what of it is used).
    pub name: String,
    /// The protocol v1 ops it claims.
    pub ops: &'static [&'static str],
    /// Answers one valid request of an op it claims.
    pub run: Answer,
}

impl Engine {
    /// The scheme logic over `p` for every op of [`MAC_OPS`].
    pub fn over_primitives<P: Primitives + 'static>(name: impl Into<String>, p: P) -> Engine {
        Engine {
            name: name.into(),
            ops: MAC_OPS,
            run: Box::new(move |r| run_mac(&p, r)),
        }
    }

    /// The shoe ops of [`STREAM_OPS`] over the streams `open(serverSeed, clientSeed, nonce)` makes.
    pub fn over_stream<S, F>(name: impl Into<String>, open: F) -> Engine
    where
        S: Stream,
        F: Fn(&str, &str, u64) -> S + Sync + 'static,
    {
        Engine {
            name: name.into(),
            ops: STREAM_OPS,
            run: Box::new(move |r| run_stream(&|s, c, n| open(s, c, n), r)),
        }
    }
}

fn unsupported(r: &Request) -> OpError {
    OpError::Unsupported { op: r.op().to_string() }
}

fn usize_of(v: u64) -> usize {
    usize::try_from(v).expect("the field's limit fits usize")
}

/// One request of [`MAC_OPS`] over `p`.
fn run_mac<P: Primitives + ?Sized>(p: &P, r: &Request) -> Result<Outcome, OpError> {
    let seeds = || (r.text(SERVER_SEED), r.text(CLIENT_SEED));
    let ok = match r.op() {
        "cursor.hash" => json!({ "hash": crate::base::crypto::hex(&p.sha256(r.text(SERVER_SEED))) }),
        "cursor.raw" => {
            let (s, c) = seeds();
            json!({ "raw": crate::base::crypto::hex(&raw(p, s, c, r.int(NONCE), r.int(CURSOR))) })
        }
        "cursor.float" => {
            let (s, c) = seeds();
            let b = raw(p, s, c, r.int(NONCE), r.int(CURSOR));
            json!({ "float": f64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])) / 4_294_967_296.0 })
        }
        "cursor.int" => {
            let (s, c) = seeds();
            let (value, next) = int(p, s, c, r.int(NONCE), r.int(RANGE), r.int(CURSOR));
            json!({ "value": value, "cursorNext": next })
        }
        "cursor.shuffle" => {
            let (s, c) = seeds();
            let (order, next) = shuffle(p, s, c, r.int(NONCE), r.int(CURSOR), usize_of(r.int(COUNT)));
            json!({ "order": order, "cursorNext": next })
        }
        "poker.deal" => {
            let (s, c) = seeds();
            let (deck, _) = shuffle(p, s, c, r.int(NONCE), 0, 52);
            let (hole, board) = crate::schemes::poker::positions(usize_of(r.int(PLAYERS)));
            let hole: Vec<[u32; 2]> = hole.iter().map(|&[a, b]| [deck[a], deck[b]]).collect();
            json!({ "hole": hole, "board": board.map(|x| deck[x]) })
        }
        "dice.roll" => {
            let (s, c) = seeds();
            json!({ "face": roll(p, s, c, r.int(N))? })
        }
        "selfpoker.commit" => {
            let seed = r.int(Field::new("seed", crate::op::Kind::DecimalSeed));
            json!({ "commit": crate::base::crypto::hex(&p.sha256(&format!("selfpoker:{seed}"))) })
        }
        "ladder.shuffle" => {
            let (s, c) = seeds();
            json!({ "order": ladder(p, s, c, usize_of(r.int(SIZE))) })
        }
        _ => return run_stream(&|s, c, n| MacStream::new(p, s, c, n), r),
    };
    Ok(Outcome::new(ok))
}

/// One request of [`STREAM_OPS`] over the streams `open` makes.
fn run_stream<S: Stream>(open: &dyn Fn(&str, &str, u64) -> S, r: &Request) -> Result<Outcome, OpError> {
    let ok = match r.op() {
        "shoe.stream" => {
            let mut s = open(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
            let bytes: Vec<u8> = (0..r.int(COUNT)).map(|_| s.next_byte()).collect();
            json!({ "bytes": crate::base::crypto::hex(&bytes) })
        }
        "shoe.deal" => {
            let mut s = open(r.text(SERVER_SEED), r.text(CLIENT_SEED), r.int(NONCE));
            shoe(&mut s, usize_of(r.int(DECKS)), r.number(PENETRATION))
        }
        "shoe.tournament" => {
            let (client, nonce) = crate::schemes::shoe::tournament_round(r.text(TOURNAMENT_ID), r.int(HAND));
            let mut s = open(r.text(SERVER_SEED), &client, nonce);
            shoe(&mut s, usize_of(r.int(DECKS)), r.number(PENETRATION))
        }
        _ => return Err(unsupported(r)),
    };
    Ok(Outcome::new(ok))
}

/// HMAC(serverSeed, "clientSeed:nonce:cursor").
pub fn raw<P: Primitives + ?Sized>(p: &P, server: &str, client: &str, nonce: u64, cursor: u64) -> [u8; 32] {
    p.hmac_sha256(server, &format!("{client}:{nonce}:{cursor}"))
}

/// `cursor.int` over `p`'s MACs: the cursor module's own `int`.
pub fn int<P: Primitives + ?Sized>(
    p: &P,
    server: &str,
    client: &str,
    nonce: u64,
    range: u64,
    cursor: u64,
) -> (u64, u64) {
    let mut raw = |c| raw(p, server, client, nonce, c);
    crate::schemes::cursor::int_from(range, cursor, &mut raw, &mut |_| {})
}

/// `cursor.shuffle` over `p`'s MACs: the cursor module's own shuffle.
pub fn shuffle<P: Primitives + ?Sized>(
    p: &P,
    server: &str,
    client: &str,
    nonce: u64,
    cursor: u64,
    count: usize,
) -> (Vec<u32>, u64) {
    let mut raw = |c| raw(p, server, client, nonce, c);
    crate::schemes::cursor::shuffle_from(count, cursor, &mut raw, &mut |_, _| {})
}

/// `dice.roll` over `p`'s MACs: the dice module's own roll.
pub fn roll<P: Primitives + ?Sized>(p: &P, server: &str, client: &str, n: u64) -> Result<u8, OpError> {
    let mut mac = |round| p.hmac_sha256(server, &format!("{client}:{n}:{round}"));
    crate::schemes::dice::roll_from(n, &mut mac).map(|found| found.face)
}

/// `ladder.shuffle` over `p`'s MACs: the ladder module's own words and shuffle.
pub(crate) fn ladder<P: Primitives + ?Sized>(p: &P, server: &str, client: &str, size: usize) -> Vec<u32> {
    let words = crate::schemes::ladder::words_of(|b| p.hmac_sha256(server, &format!("{client}:{b}")));
    crate::schemes::ladder::shuffle_of(size, words)
}

/// A shoe of `decks` decks from the stream: the shoe module's steps 1, 4
/// and 5 on the stream's bytes.
fn shoe(s: &mut impl Stream, decks: usize, penetration: f64) -> Value {
    let (shoe, _) = crate::schemes::shoe::deal_from(s, decks, penetration, &mut |_| {});
    json!({ "cards": shoe.cards, "cut": shoe.cut })
}
