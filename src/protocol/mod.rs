//! Protocol v1 lines: the handshake, response lines, and answering one
//! request line as `provably serve` does.
//!
//! docs/protocol.md is the prose version; harness/protocol.schema.json the
//! schema. What each op takes and answers is declared in the op table
//! ([`crate::op`]).

pub mod serve;

use serde::Serialize;
use serde_json::Value;

use crate::op::error::{InvalidInput, OpError};
use crate::op::{short, type_name, Outcome, Request};

/// The protocol version this crate speaks.
pub(crate) const PROTOCOL: u64 = 1;

/// The name this implementation gives in `hello`.
pub(crate) const NAME: &str = concat!("provably ", env!("CARGO_PKG_VERSION"));

/// The handshake request line with its id.
pub(crate) fn hello_line(id: i64) -> String {
    format!(r#"{{"id":{id},"op":"hello","protocol":{PROTOCOL}}}"#)
}

/// What one request line asks for.
pub enum Message {
    /// The handshake, `{"op": "hello", "protocol": 1}`.
    Hello,
    /// A request of an op of the table, parsed and validated.
    Request(Request),
}

impl Message {
    /// Parses a request object: the handshake or an op of the table.
    pub fn parse(value: &Value) -> Result<Message, OpError> {
        let Value::Object(map) = value else {
            return crate::registry::parse(value).map(Message::Request);
        };
        Message::read(map.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    }

    /// Reads a request object's members (in text order): the handshake, or
    /// an op of the table through [`Request::read`].
    pub fn read(members: Vec<(String, Value)>) -> Result<Message, OpError> {
        let member = |name: &str| members.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        if member("op").and_then(Value::as_str) != Some("hello") {
            return Request::read(members, crate::registry::find).map(Message::Request);
        }
        let protocol = match member("protocol") {
            None => return Err(InvalidInput::new("protocol", "is missing").into()),
            Some(v) => crate::op::read_int("protocol", v)?,
        };
        if let Some((key, _)) = members
            .iter()
            .find(|(k, _)| !matches!(k.as_str(), "op" | "id" | "protocol"))
        {
            return Err(InvalidInput::new(key.clone(), "is not a field of this op").into());
        }
        if protocol != PROTOCOL {
            return Err(InvalidInput::new(
                "protocol",
                format!("{protocol} is not supported; this is protocol {PROTOCOL}"),
            )
            .into());
        }
        Ok(Message::Hello)
    }

    /// Answers the message.
    pub fn run(&self) -> Result<Outcome, OpError> {
        #[derive(Serialize, Debug)]
        struct HelloOk {
            name: &'static str,
            ops: Vec<&'static str>,
        }
        match self {
            Message::Hello => Ok(Outcome::new(HelloOk {
                name: NAME,
                ops: crate::registry::names(),
            })),
            Message::Request(r) => r.run(),
        }
    }
}

/// The answer half of a response line.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// The `ok` object of a successful answer.
    Ok(Value),
    /// An error answer.
    Error {
        /// The error's kind: `unsupported`, `invalid`, `exhausted` or `declined`.
        kind: String,
        /// What went wrong, in words.
        message: String,
    },
}

impl Reply {
    /// The reply to a request's result: its `ok` object, or the error's protocol kind and message.
    pub fn from_result(r: Result<Value, OpError>) -> Reply {
        match r {
            Ok(v) => Reply::Ok(v),
            Err(e) => Reply::from_error(&e),
        }
    }

    pub(crate) fn from_error(e: &OpError) -> Reply {
        Reply::Error {
            kind: e.kind().to_string(),
            message: e.to_string(),
        }
    }
}

/// One response line: the request's id (null when the line had none) and the reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The id the response carries; `None` for `"id": null`.
    pub id: Option<i64>,
    /// The `ok` object or the error.
    pub reply: Reply,
}

/// Why a response line could not be read as a protocol v1 response.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MalformedResponse(pub String);

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
        let value: Value = crate::base::json::parse(line).map_err(|e| bad(e.to_string()))?;
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
                    Some(Value::String(k))
                        if matches!(k.as_str(), "unsupported" | "invalid" | "exhausted" | "declined") =>
                    {
                        k.clone()
                    }
                    other => {
                        return Err(bad(format!(
                            "error kind {} is not unsupported, invalid, exhausted or declined",
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
#[derive(Debug)]
pub struct Answer {
    /// The id of the line being answered; `None` when the line had no integer `id` (the response then says `"id": null`).
    pub id: Option<i64>,
    /// The op's outcome, or why there is none.
    pub result: Result<Outcome, OpError>,
}

impl Answer {
    /// The response line, without the newline, serialized straight from the
    /// typed outcome.
    pub fn to_line(&self) -> String {
        let mut out = Vec::with_capacity(64);
        self.write_line(&mut out);
        String::from_utf8(out).expect("JSON is UTF-8")
    }

    /// Appends [`Answer::to_line`] to `out` (`serve` reuses one buffer).
    pub fn write_line(&self, out: &mut Vec<u8>) {
        match &self.result {
            Ok(ok) => write_ok_line(self.id, ok, out),
            Err(e) => out.extend_from_slice(
                Response {
                    id: self.id,
                    reply: Reply::from_error(e),
                }
                .to_line()
                .as_bytes(),
            ),
        }
    }

    /// The same answer as a [`Response`] (a JSON value), as the harness reads it.
    pub fn into_response(self) -> Response {
        let reply = match self.result {
            Ok(o) => Reply::Ok(o.to_value()),
            Err(e) => Reply::from_error(&e),
        };
        Response { id: self.id, reply }
    }
}

/// Appends the `ok` response line of request `id` (null when the line had
/// none), without the newline: `{"id":…,"ok":…}`, serialized straight from
/// the typed outcome. The one framing of an `ok` line: `serve` prints it,
/// and the harness compares a target's line with it byte for byte.
pub(crate) fn write_ok_line(id: Option<i64>, ok: &Outcome, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"id\":");
    match id {
        Some(id) => out.extend_from_slice(itoa::Buffer::new().format(id).as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"ok\":");
    ok.write_json(out);
    out.push(b'}');
}

/// Answers one request line as `provably serve` does: never panics, never
/// fails. A malformed line gets an `invalid` reply, with the line's id
/// whenever it is a JSON object with one integer `id`, else with id null.
/// The line is read into its members (`base::json::read_members`:
/// no map, no hashing of keys) and those into the request (`Message::read`).
pub fn answer_line(line: &str) -> Answer {
    use crate::base::json::{Members, Refused};
    let invalid = |field: &str, reason: String| Answer {
        id: None,
        result: Err(InvalidInput::new(field, reason).into()),
    };
    let members = match crate::base::json::read_members(line) {
        Ok(Members::Object(members)) => members,
        Ok(Members::Other) => return invalid("id", "is missing".into()),
        Err(Refused::TooMany(why)) => {
            return Answer {
                id: crate::base::json::lenient_id(line),
                result: Err(InvalidInput::new("request", why).into()),
            }
        }
        // JSON that Rust cannot hold (a lone surrogate) or that repeats a
        // key is still answered with the line's own id, when it has one.
        Err(Refused::NotJson(e)) => {
            return match crate::base::json::lenient_id(line) {
                Some(id) => Answer {
                    id: Some(id),
                    result: Err(InvalidInput::new(
                        "request",
                        match crate::base::json::lone_surrogate(line) {
                            Some(u) => {
                                format!("a string holds the lone surrogate {u}, which is not a Unicode scalar value")
                            }
                            None => e.to_string(),
                        },
                    )
                    .into()),
                },
                None => invalid("request", format!("not JSON: {}", crate::base::json::why_not(line, &e))),
            }
        }
    };
    let id = match members.iter().find(|(k, _)| k == "id").map(|(_, v)| v) {
        Some(v) if v.is_i64() => v.as_i64(),
        Some(v) => return invalid("id", format!("must be an integer, not {}", short(v))),
        None => return invalid("id", "is missing".into()),
    };
    Answer {
        id,
        result: Message::read(members).and_then(|m| m.run()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_past_the_parsers_item_limit_is_refused_as_the_parser_refuses_it() {
        let cards = vec!["1"; crate::base::json::MAX_ITEMS + 1].join(",");
        let line = format!(r#"{{"id":3,"op":"poker.evaluate","cards":[{cards}]}}"#);
        let Err(crate::base::json::Refused::TooMany(why)) = crate::base::json::parse(&line) else {
            panic!("the parser takes more than its item limit")
        };
        let answer = answer_line(&line);
        assert_eq!(answer.id, Some(3));
        assert!(
            matches!(&answer.result, Err(OpError::Invalid(i)) if i.field == "request" && i.reason == why),
            "{}",
            answer.to_line()
        );
    }
}
