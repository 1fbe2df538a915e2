//! Comparing answers: exact, with floats compared bit for bit.

use serde_json::Value;

use crate::protocol::Reply;

/// Returns true if and only if `got` is the same answer as `want`.
///
/// Integers must be integers and equal. Where `want` is a float, `got` may
/// be any JSON number with the same binary64 bits (JavaScript prints the
/// float 0 as `0`). Objects compare by key, ignoring order.
pub fn same_value(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Number(w), Value::Number(g)) => {
            if w.is_f64() {
                g.as_f64().is_some_and(|g| g.to_bits() == w.as_f64().unwrap().to_bits())
            } else {
                !g.is_f64() && w == g
            }
        }
        (Value::Array(w), Value::Array(g)) => w.len() == g.len() && w.iter().zip(g).all(|(w, g)| same_value(w, g)),
        (Value::Object(w), Value::Object(g)) => {
            w.len() == g.len() && w.iter().all(|(k, wv)| g.get(k).is_some_and(|gv| same_value(wv, gv)))
        }
        _ => want == got,
    }
}

/// Returns true if and only if two replies agree: both `ok` with the same
/// value, or both errors of the same kind (messages are free text).
pub fn same_reply(want: &Reply, got: &Reply) -> bool {
    match (want, got) {
        (Reply::Ok(w), Reply::Ok(g)) => same_value(w, g),
        (Reply::Error { kind: wk, .. }, Reply::Error { kind: gk, .. }) => wk == gk,
        _ => false,
    }
}

/// The reply as the JSON object of its response line (without id), for diffs.
pub(crate) fn pretty(reply: &Reply) -> serde_json::Value {
    match reply {
        Reply::Ok(v) => serde_json::json!({ "ok": v }),
        Reply::Error { kind, message } => {
            serde_json::json!({ "error": { "kind": kind, "message": message } })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn float_zero_printed_as_integer_matches_but_negative_zero_does_not() {
        assert!(same_value(&json!(0.0), &json!(0)));
        assert!(!same_value(&json!(0.0), &json!(-0.0)));
    }

    #[test]
    fn integer_printed_as_float_does_not_match() {
        assert!(!same_value(&json!(3), &json!(3.0)));
    }

    #[test]
    fn objects_compare_without_key_order() {
        assert!(same_value(&json!({"a": 1, "b": [1, 2]}), &json!({"b": [1, 2], "a": 1})));
        assert!(!same_value(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
    }
}
