//! Protocol v1: typed requests and responses, and the op dispatcher.
//!
//! docs/protocol.md is the prose version; harness/protocol.schema.json the
//! schema. Requests are parsed by hand rather than by derive so that every
//! rejection names the field and says what was wrong with it.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{check_range, InvalidInput, OpError, MAX_COUNT, MAX_SAFE_INTEGER};
use crate::{cursor, dice, ladder, poker, selfpoker, shoe};

/// The protocol version this crate speaks.
pub const PROTOCOL: u64 = 1;

/// Every op of protocol v1, in the order of docs/protocol.md.
pub const OPS: [&str; 13] = [
    "cursor.hash",
    "cursor.raw",
    "cursor.float",
    "cursor.int",
    "cursor.shuffle",
    "poker.deal",
    "poker.evaluate",
    "shoe.deal",
    "shoe.tournament",
    "dice.roll",
    "selfpoker.commit",
    "selfpoker.deck",
    "ladder.shuffle",
];

/// The scheme an op belongs to: the part before the dot.
pub fn scheme_of(op: &str) -> &str {
    op.split('.').next().unwrap_or(op)
}

/// One request of protocol v1, without its id. Serializes to the wire form
/// (`{"op": "cursor.int", "serverSeed": …}`), which is also a vector's `input`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op")]
pub enum Request {
    #[serde(rename = "hello")]
    Hello { protocol: u64 },
    #[serde(rename = "cursor.hash", rename_all = "camelCase")]
    CursorHash { server_seed: String },
    #[serde(rename = "cursor.raw", rename_all = "camelCase")]
    CursorRaw {
        server_seed: String,
        client_seed: String,
        nonce: u64,
        cursor: u64,
    },
    #[serde(rename = "cursor.float", rename_all = "camelCase")]
    CursorFloat {
        server_seed: String,
        client_seed: String,
        nonce: u64,
        cursor: u64,
    },
    #[serde(rename = "cursor.int", rename_all = "camelCase")]
    CursorInt {
        server_seed: String,
        client_seed: String,
        nonce: u64,
        cursor: u64,
        range: u64,
    },
    #[serde(rename = "cursor.shuffle", rename_all = "camelCase")]
    CursorShuffle {
        server_seed: String,
        client_seed: String,
        nonce: u64,
        cursor: u64,
        count: u64,
    },
    #[serde(rename = "poker.deal", rename_all = "camelCase")]
    PokerDeal {
        server_seed: String,
        client_seed: String,
        nonce: u64,
        players: u64,
    },
    #[serde(rename = "poker.evaluate")]
    PokerEvaluate { cards: Vec<u64> },
    #[serde(rename = "shoe.deal", rename_all = "camelCase")]
    ShoeDeal {
        server_seed: String,
        client_seed: String,
        nonce: u64,
        decks: u64,
        penetration: f64,
    },
    #[serde(rename = "shoe.tournament", rename_all = "camelCase")]
    ShoeTournament {
        server_seed: String,
        tournament_id: String,
        hand: u64,
        decks: u64,
        penetration: f64,
    },
    #[serde(rename = "dice.roll", rename_all = "camelCase")]
    DiceRoll {
        server_seed: String,
        client_seed: String,
        n: u64,
    },
    #[serde(rename = "selfpoker.commit")]
    SelfpokerCommit { seed: String },
    #[serde(rename = "selfpoker.deck")]
    SelfpokerDeck { seed: String },
    #[serde(rename = "ladder.shuffle", rename_all = "camelCase")]
    LadderShuffle {
        server_seed: String,
        client_seed: String,
        size: u64,
    },
}

/// Reads the fields of one request object and remembers which were read, so
/// that a field the op does not take is reported instead of ignored.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    read: Vec<&'static str>,
}

impl<'a> Fields<'a> {
    fn get(&mut self, name: &'static str) -> Result<&'a Value, InvalidInput> {
        self.read.push(name);
        self.map.get(name).ok_or_else(|| InvalidInput::new(name, "is missing"))
    }

    fn string(&mut self, name: &'static str) -> Result<String, InvalidInput> {
        match self.get(name)? {
            Value::String(s) => Ok(s.clone()),
            other => Err(InvalidInput::new(
                name,
                format!("must be a string, not {}", type_name(other)),
            )),
        }
    }

    fn int(&mut self, name: &'static str) -> Result<u64, InvalidInput> {
        let v = self.get(name)?;
        match v.as_u64() {
            Some(n) if n <= MAX_SAFE_INTEGER => Ok(n),
            Some(n) => Err(InvalidInput::new(name, format!("{n} is above 2^53-1"))),
            None => Err(InvalidInput::new(
                name,
                format!("must be an integer in 0..=2^53-1, not {}", short(v)),
            )),
        }
    }

    fn number(&mut self, name: &'static str) -> Result<f64, InvalidInput> {
        let v = self.get(name)?;
        v.as_f64()
            .ok_or_else(|| InvalidInput::new(name, format!("must be a number, not {}", short(v))))
    }

    fn cards(&mut self) -> Result<Vec<u64>, InvalidInput> {
        let Value::Array(items) = self.get("cards")? else {
            return Err(InvalidInput::new("cards", "must be a list of integers"));
        };
        items
            .iter()
            .map(|c| {
                c.as_u64()
                    .ok_or_else(|| InvalidInput::new("cards", format!("{} is not a card (0..=51)", short(c))))
            })
            .collect()
    }

    fn finish(self) -> Result<(), InvalidInput> {
        for key in self.map.keys() {
            if key != "op" && key != "id" && !self.read.contains(&key.as_str()) {
                return Err(InvalidInput::new(key.clone(), "is not a field of this op"));
            }
        }
        Ok(())
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A value quoted for an error message, cut to a readable length.
fn short(v: &Value) -> String {
    let mut s = v.to_string();
    if s.len() > 60 {
        let mut end = 57;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("...");
    }
    s
}

/// An op name is either one of [`OPS`] (or `hello`), or unsupported.
pub enum Parsed {
    Request(Request),
    Unsupported(String),
}

impl Request {
    /// The op name on the wire.
    pub fn op(&self) -> &'static str {
        match self {
            Request::Hello { .. } => "hello",
            Request::CursorHash { .. } => "cursor.hash",
            Request::CursorRaw { .. } => "cursor.raw",
            Request::CursorFloat { .. } => "cursor.float",
            Request::CursorInt { .. } => "cursor.int",
            Request::CursorShuffle { .. } => "cursor.shuffle",
            Request::PokerDeal { .. } => "poker.deal",
            Request::PokerEvaluate { .. } => "poker.evaluate",
            Request::ShoeDeal { .. } => "shoe.deal",
            Request::ShoeTournament { .. } => "shoe.tournament",
            Request::DiceRoll { .. } => "dice.roll",
            Request::SelfpokerCommit { .. } => "selfpoker.commit",
            Request::SelfpokerDeck { .. } => "selfpoker.deck",
            Request::LadderShuffle { .. } => "ladder.shuffle",
        }
    }

    /// The request as a JSON object (a vector's `input`).
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("requests serialize")
    }

    /// Parses a request object (the `id` member, if any, is ignored).
    pub fn from_value(value: &Value) -> Result<Parsed, InvalidInput> {
        let Value::Object(map) = value else {
            return Err(InvalidInput::new(
                "request",
                format!("must be a JSON object, not {}", type_name(value)),
            ));
        };
        let op = match map.get("op") {
            Some(Value::String(op)) => op.as_str(),
            Some(other) => {
                return Err(InvalidInput::new(
                    "op",
                    format!("must be a string, not {}", type_name(other)),
                ))
            }
            None => return Err(InvalidInput::new("op", "is missing")),
        };
        let mut f = Fields { map, read: Vec::new() };
        let req = match op {
            "hello" => Request::Hello {
                protocol: f.int("protocol")?,
            },
            "cursor.hash" => Request::CursorHash {
                server_seed: f.string("serverSeed")?,
            },
            "cursor.raw" | "cursor.float" | "cursor.int" | "cursor.shuffle" => {
                let (server_seed, client_seed) = (f.string("serverSeed")?, f.string("clientSeed")?);
                let (nonce, cursor) = (f.int("nonce")?, f.int("cursor")?);
                match op {
                    "cursor.raw" => Request::CursorRaw {
                        server_seed,
                        client_seed,
                        nonce,
                        cursor,
                    },
                    "cursor.float" => Request::CursorFloat {
                        server_seed,
                        client_seed,
                        nonce,
                        cursor,
                    },
                    "cursor.int" => Request::CursorInt {
                        server_seed,
                        client_seed,
                        nonce,
                        cursor,
                        range: f.int("range")?,
                    },
                    _ => Request::CursorShuffle {
                        server_seed,
                        client_seed,
                        nonce,
                        cursor,
                        count: f.int("count")?,
                    },
                }
            }
            "poker.deal" => Request::PokerDeal {
                server_seed: f.string("serverSeed")?,
                client_seed: f.string("clientSeed")?,
                nonce: f.int("nonce")?,
                players: f.int("players")?,
            },
            "poker.evaluate" => Request::PokerEvaluate { cards: f.cards()? },
            "shoe.deal" => Request::ShoeDeal {
                server_seed: f.string("serverSeed")?,
                client_seed: f.string("clientSeed")?,
                nonce: f.int("nonce")?,
                decks: f.int("decks")?,
                penetration: f.number("penetration")?,
            },
            "shoe.tournament" => Request::ShoeTournament {
                server_seed: f.string("serverSeed")?,
                tournament_id: f.string("tournamentId")?,
                hand: f.int("hand")?,
                decks: f.int("decks")?,
                penetration: f.number("penetration")?,
            },
            "dice.roll" => Request::DiceRoll {
                server_seed: f.string("serverSeed")?,
                client_seed: f.string("clientSeed")?,
                n: f.int("n")?,
            },
            "selfpoker.commit" => Request::SelfpokerCommit {
                seed: f.string("seed")?,
            },
            "selfpoker.deck" => Request::SelfpokerDeck {
                seed: f.string("seed")?,
            },
            "ladder.shuffle" => Request::LadderShuffle {
                server_seed: f.string("serverSeed")?,
                client_seed: f.string("clientSeed")?,
                size: f.int("size")?,
            },
            other => return Ok(Parsed::Unsupported(other.to_string())),
        };
        f.finish()?;
        Ok(Parsed::Request(req))
    }

    /// Parses and type-checks a request, treating unknown ops as errors.
    pub fn parse(value: &Value) -> Result<Request, OpError> {
        match Request::from_value(value)? {
            Parsed::Request(r) => Ok(r),
            Parsed::Unsupported(op) => Err(OpError::Unsupported { op }),
        }
    }
}

/// The `ok` object of every op, typed. Serializes to exactly the wire form,
/// so `provably serve` writes it without building a JSON tree first.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Outcome {
    Hello {
        name: &'static str,
        ops: [&'static str; 13],
    },
    Hash {
        hash: String,
    },
    Raw {
        raw: String,
    },
    Float {
        float: f64,
    },
    #[serde(rename_all = "camelCase")]
    Int {
        value: u64,
        cursor_next: u64,
    },
    #[serde(rename_all = "camelCase")]
    Shuffle {
        order: Vec<u32>,
        cursor_next: u64,
    },
    Deal(poker::Deal),
    Hand {
        category: &'static str,
        ranks: [u8; 5],
    },
    Shoe(shoe::Shoe),
    Face {
        face: u8,
    },
    Commit {
        commit: String,
    },
    Deck {
        deck: Vec<u32>,
    },
    Order {
        order: Vec<u32>,
    },
}

/// Runs one request and returns its `ok` object as a JSON value (what the
/// harness compares and the vectors record).
pub fn execute(request: &Request) -> Result<Value, OpError> {
    run(request).map(|o| serde_json::to_value(o).expect("outcomes serialize"))
}

/// Runs one request.
pub fn run(request: &Request) -> Result<Outcome, OpError> {
    use Request::*;
    Ok(match request {
        Hello { protocol } => {
            if *protocol != PROTOCOL {
                return Err(InvalidInput::new(
                    "protocol",
                    format!("{protocol} is not supported; this is protocol {PROTOCOL}"),
                )
                .into());
            }
            Outcome::Hello {
                name: concat!("provably ", env!("CARGO_PKG_VERSION")),
                ops: OPS,
            }
        }
        CursorHash { server_seed } => Outcome::Hash {
            hash: cursor::hash(server_seed),
        },
        CursorRaw {
            server_seed,
            client_seed,
            nonce,
            cursor,
        } => Outcome::Raw {
            raw: crate::crypto::hex(&cursor::Round::new(server_seed, client_seed, *nonce).raw(*cursor)),
        },
        CursorFloat {
            server_seed,
            client_seed,
            nonce,
            cursor,
        } => Outcome::Float {
            float: cursor::Round::new(server_seed, client_seed, *nonce).float(*cursor),
        },
        CursorInt {
            server_seed,
            client_seed,
            nonce,
            cursor,
            range,
        } => {
            let range = check_range("range", *range, 1, MAX_SAFE_INTEGER)?;
            let (value, next) = cursor::Round::new(server_seed, client_seed, *nonce).int(range, *cursor)?;
            Outcome::Int {
                value,
                cursor_next: next,
            }
        }
        CursorShuffle {
            server_seed,
            client_seed,
            nonce,
            cursor,
            count,
        } => {
            let count = check_range("count", *count, 0, MAX_COUNT)?;
            let (order, next) = cursor::Round::new(server_seed, client_seed, *nonce).shuffle(count as usize, *cursor);
            Outcome::Shuffle {
                order,
                cursor_next: next,
            }
        }
        PokerDeal {
            server_seed,
            client_seed,
            nonce,
            players,
        } => Outcome::Deal(poker::deal(server_seed, client_seed, *nonce, *players)?),
        PokerEvaluate { cards } => {
            let hand = poker::evaluate(cards)?;
            Outcome::Hand {
                category: hand.category_name(),
                ranks: hand.ranks,
            }
        }
        ShoeDeal {
            server_seed,
            client_seed,
            nonce,
            decks,
            penetration,
        } => Outcome::Shoe(shoe::deal(server_seed, client_seed, *nonce, *decks, *penetration)?),
        ShoeTournament {
            server_seed,
            tournament_id,
            hand,
            decks,
            penetration,
        } => Outcome::Shoe(shoe::tournament(
            server_seed,
            tournament_id,
            *hand,
            *decks,
            *penetration,
        )?),
        DiceRoll {
            server_seed,
            client_seed,
            n,
        } => Outcome::Face {
            face: dice::roll(server_seed, client_seed, *n)?,
        },
        SelfpokerCommit { seed } => Outcome::Commit {
            commit: selfpoker::commit(selfpoker::parse_seed(seed)?),
        },
        SelfpokerDeck { seed } => Outcome::Deck {
            deck: selfpoker::deck(selfpoker::parse_seed(seed)?),
        },
        LadderShuffle {
            server_seed,
            client_seed,
            size,
        } => Outcome::Order {
            order: ladder::shuffle(server_seed, client_seed, *size)?,
        },
    })
}

/// The answer half of a response line.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Ok(Value),
    Error { kind: String, message: String },
}

impl Reply {
    pub fn from_result(r: Result<Value, OpError>) -> Reply {
        match r {
            Ok(v) => Reply::Ok(v),
            Err(e) => Reply::Error {
                kind: e.kind().to_string(),
                message: e.to_string(),
            },
        }
    }
}

/// One response line: the request's id (null when the line had none) and the reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub id: Option<i64>,
    pub reply: Reply,
}

/// Why a response line could not be read as a protocol v1 response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MalformedResponse(pub String);

impl std::fmt::Display for MalformedResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Response {
    /// The response as one JSON line, without the newline. Serializes the
    /// reply in place: cloning a 100,000-element order just to print it
    /// would cost more than computing it.
    pub fn to_line(&self) -> String {
        #[derive(Serialize)]
        struct OkLine<'a> {
            id: Option<i64>,
            ok: &'a Value,
        }
        #[derive(Serialize)]
        struct ErrorBody<'a> {
            kind: &'a str,
            message: &'a str,
        }
        #[derive(Serialize)]
        struct ErrorLine<'a> {
            id: Option<i64>,
            error: ErrorBody<'a>,
        }
        let text = match &self.reply {
            Reply::Ok(ok) => serde_json::to_string(&OkLine { id: self.id, ok }),
            Reply::Error { kind, message } => serde_json::to_string(&ErrorLine {
                id: self.id,
                error: ErrorBody { kind, message },
            }),
        };
        text.expect("responses serialize")
    }

    /// Parses one response line strictly: an object with `id` and exactly one
    /// of `ok` (an object) or `error` (with a known `kind` and a `message`).
    pub fn parse(line: &str) -> Result<Response, MalformedResponse> {
        let bad = |why: String| MalformedResponse(why);
        let value: Value = crate::json::parse(line).map_err(|e| bad(format!("not JSON: {e}")))?;
        let Value::Object(map) = value else {
            return Err(bad(format!("a {} where an object was expected", type_name(&value))));
        };
        let id = match map.get("id") {
            Some(Value::Null) => None,
            Some(v) => Some(
                v.as_i64()
                    .ok_or_else(|| bad(format!("id {} is not an integer", short(v))))?,
            ),
            None => return Err(bad("no id".into())),
        };
        if let Some(k) = map.keys().find(|k| !matches!(k.as_str(), "id" | "ok" | "error")) {
            return Err(bad(format!("unexpected member {k:?}")));
        }
        let reply = match (map.get("ok"), map.get("error")) {
            (Some(Value::Object(ok)), None) => Reply::Ok(Value::Object(ok.clone())),
            (Some(other), None) => return Err(bad(format!("ok is {}, not an object", type_name(other)))),
            (None, Some(Value::Object(err))) => {
                let kind = match err.get("kind") {
                    Some(Value::String(k)) if matches!(k.as_str(), "unsupported" | "invalid" | "exhausted") => {
                        k.clone()
                    }
                    other => {
                        return Err(bad(format!(
                            "error kind {} is not unsupported, invalid or exhausted",
                            other.map_or("missing".into(), short)
                        )))
                    }
                };
                let message = match err.get("message") {
                    Some(Value::String(m)) => m.clone(),
                    _ => return Err(bad("error without a string message".into())),
                };
                Reply::Error { kind, message }
            }
            (None, Some(other)) => return Err(bad(format!("error is {}, not an object", type_name(other)))),
            (Some(_), Some(_)) => return Err(bad("both ok and error".into())),
            (None, None) => return Err(bad("neither ok nor error".into())),
        };
        Ok(Response { id, reply })
    }
}

/// One answered request line: the id it carried (None when it had none)
/// and the typed result.
#[derive(Debug, Clone)]
pub struct Answer {
    pub id: Option<i64>,
    pub result: Result<Outcome, OpError>,
}

impl Answer {
    /// The response line, without the newline, serialized straight from the
    /// typed outcome.
    pub fn to_line(&self) -> String {
        #[derive(Serialize)]
        struct OkLine<'a> {
            id: Option<i64>,
            ok: &'a Outcome,
        }
        match &self.result {
            Ok(ok) => serde_json::to_string(&OkLine { id: self.id, ok }).expect("outcomes serialize"),
            Err(_) => self.clone().into_response().to_line(),
        }
    }

    /// The same answer as a [`Response`] (a JSON value), as the harness reads it.
    pub fn into_response(self) -> Response {
        let reply = Reply::from_result(
            self.result
                .map(|o| serde_json::to_value(o).expect("outcomes serialize")),
        );
        Response { id: self.id, reply }
    }
}

/// Answers one request line as `provably serve` does: never panics, never
/// fails; a malformed line gets an `invalid` reply with id null.
pub fn answer_line(line: &str) -> Answer {
    let invalid = |field: &str, reason: String| Answer {
        id: None,
        result: Err(InvalidInput::new(field, reason).into()),
    };
    let value: Value = match crate::json::parse(line) {
        Ok(v) => v,
        Err(e) => return invalid("request", format!("not JSON: {e}")),
    };
    let id = match value.get("id") {
        Some(v) if v.is_i64() => v.as_i64(),
        Some(v) => return invalid("id", format!("must be an integer, not {}", short(v))),
        None => return invalid("id", "is missing".into()),
    };
    Answer {
        id,
        result: Request::parse(&value).and_then(|r| run(&r)),
    }
}
