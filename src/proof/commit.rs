//! An epoch's head and its commitment: which fields hold a committed
//! secret, which op answers its commitment (both read from the op table,
//! [`crate::op::Secret`]), and the check of `commit` against the revealed
//! secret.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::{CommitVerdict, Event, FieldError, Finding, FindingKind, Place};
use crate::op::{short, OpSpec};

/// What a worker needs to know about an epoch to check its rounds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EpochHead {
    pub epoch: u64,
    /// The line of a JSON-lines epoch.
    pub line: Option<u64>,
    /// The secret's field (`serverSeed`, `seed`) and its value as written.
    pub secret: Option<(&'static str, Value)>,
    /// The secret as text (a server seed), shared by the epoch's bets.
    pub text: Option<std::sync::Arc<str>>,
    /// A crash history's chain (the epoch's `chain` in place of a secret),
    /// read once for its games, or why it cannot be.
    pub chain: Option<Result<std::sync::Arc<super::chain::Head>, FieldError>>,
}

impl EpochHead {
    pub fn new(epoch: u64, line: Option<u64>, secret: Option<(&'static str, Value)>) -> EpochHead {
        let text = secret.as_ref().and_then(|(_, v)| v.as_str()).map(std::sync::Arc::from);
        let chain = secret
            .as_ref()
            .filter(|(field, _)| *field == super::chain::KEY)
            .map(|(_, v)| super::chain::Head::read(v).map(std::sync::Arc::new));
        EpochHead {
            epoch,
            line,
            secret,
            text,
            chain,
        }
    }

    pub(crate) fn place(&self) -> Place {
        Place::epoch(self.epoch, self.line)
    }
}

/// The fields that hold a committed secret, in op-table order.
pub(crate) fn secret_fields() -> &'static [&'static str] {
    static FIELDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    FIELDS.get_or_init(|| {
        let mut out = Vec::new();
        for s in crate::registry::ops().filter_map(|o| o.secret) {
            if !out.contains(&s.field) {
                out.push(s.field);
            }
        }
        out
    })
}

/// The keys that head an epoch: a committed secret's, or a crash
/// history's `chain` (an epoch holds one of them).
pub(crate) fn head_fields() -> &'static [&'static str] {
    static FIELDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    FIELDS.get_or_init(|| {
        let mut out = secret_fields().to_vec();
        out.push(super::chain::KEY);
        out
    })
}

/// The op that answers the commitment of the secret `field` (`cursor.hash`
/// for `serverSeed`, `selfpoker.commit` for `seed`).
pub(crate) fn commit_op(field: &str) -> Option<&'static OpSpec> {
    // Asked once per epoch: the registry is walked once per process.
    static COMMIT_OPS: std::sync::OnceLock<Vec<(&'static str, &'static OpSpec)>> = std::sync::OnceLock::new();
    let ops = COMMIT_OPS.get_or_init(|| {
        crate::registry::ops()
            .filter_map(|o| o.secret.filter(|s| s.commit_op == o.name).map(|s| (s.field, o)))
            .collect()
    });
    ops.iter().find(|(f, _)| *f == field).map(|(_, o)| *o)
}

/// The commitment (lowercase hex) of `value` as the secret `field`, held to
/// the field's rules by the protocol parser.
pub(crate) fn commitment(field: &str, value: &Value) -> Result<String, FieldError> {
    let spec = commit_op(field).ok_or_else(|| FieldError::new(field, "is not a committed secret"))?;
    let secret = spec.secret.expect("a commit op has a secret");
    let mut m = Map::new();
    m.insert("op".into(), Value::from(spec.name));
    m.insert(field.into(), value.clone());
    let request = crate::registry::parse(&Value::Object(m)).map_err(|e| FieldError::of_op(&e))?;
    Ok((secret.commit)(
        request.get(field).expect("the commit op has its secret field"),
    ))
}

/// A commitment as written: 64 hex characters in either case.
pub(crate) fn is_commitment(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Checks an epoch's `commit` (None: the key is left out). A crash
/// history has no commitment of its own to check: its games are checked
/// against its terminating hash ([`super::chain::check_commit`]).
pub(crate) fn check_commit(head: &EpochHead, commit: Option<&Value>) -> Option<Event> {
    if let Some(chain) = &head.chain {
        return super::chain::check_commit(head.place(), chain.as_ref().err(), commit);
    }
    Some(check_seed_commit(head, commit))
}

fn check_seed_commit(head: &EpochHead, commit: Option<&Value>) -> Event {
    let at = head.place();
    let epoch = head.epoch;
    let invalid = |e: FieldError| Event::Commit {
        epoch,
        verdict: CommitVerdict::Invalid,
        finding: Some(e.at(at).finding()),
    };
    let shown = match commit {
        None | Some(Value::Null) => {
            return Event::Commit {
                epoch,
                verdict: CommitVerdict::Absent,
                finding: None,
            }
        }
        Some(Value::String(s)) if is_commitment(s) => s,
        Some(other) => {
            return invalid(FieldError::new(
                "commit",
                format!("must be 64 hex characters (a SHA-256) or null, not {}", short(other)),
            ))
        }
    };
    let Some((field, value)) = &head.secret else {
        return invalid(FieldError::new(
            "commit",
            format!("the epoch has no {} to check it against", secret_fields().join(" or ")),
        ));
    };
    match commitment(field, value) {
        Err(e) => invalid(e),
        Ok(computed) if computed.eq_ignore_ascii_case(shown) => Event::Commit {
            epoch,
            verdict: CommitVerdict::Ok,
            finding: None,
        },
        Ok(computed) => {
            let mut f = Finding::new(FindingKind::Commit, at);
            f.field = Some("commit".into());
            f.derived = Value::from(computed);
            f.observed = Value::from(shown.as_str());
            f.reason = Some(format!(
                "the commitment of the revealed {field} is not the one shown before play"
            ));
            Event::Commit {
                epoch,
                verdict: CommitVerdict::Mismatch,
                finding: Some(f),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_secret_field_has_exactly_one_commit_op() {
        for field in secret_fields() {
            let ops: Vec<&str> = crate::registry::ops()
                .filter(|o| o.secret.is_some_and(|s| s.field == *field && s.commit_op == o.name))
                .map(|o| o.name)
                .collect();
            assert_eq!(ops.len(), 1, "{field}: {ops:?}");
            // Every op keyed by the field commits through that same op.
            for o in crate::registry::ops().filter(|o| o.secret.is_some_and(|s| s.field == *field)) {
                assert_eq!(o.secret.unwrap().commit_op, ops[0], "{}", o.name);
            }
        }
    }
}
