//! The registry: every scheme, in the order of docs/protocol.md.
//!
//! It sits above the schemes (it names them) and below everything that
//! looks an op up by name: the protocol, the proofs, the vectors, the
//! harness. The op table itself ([`crate::op`]) names no scheme.

use serde_json::Value;

use crate::op::error::OpError;
use crate::op::{OpSpec, Request, Scheme};

/// Every scheme, in the order of docs/protocol.md.
pub fn schemes() -> &'static [&'static Scheme] {
    static SCHEMES: &[&Scheme] = &[
        &crate::schemes::cursor::SCHEME,
        &crate::schemes::poker::SCHEME,
        &crate::schemes::shoe::SCHEME,
        &crate::schemes::dice::SCHEME,
        &crate::schemes::selfpoker::SCHEME,
        &crate::schemes::ladder::SCHEME,
        &crate::schemes::blackjack::SCHEME,
        &crate::schemes::stake::SCHEME,
        &crate::schemes::crash::SCHEME,
        &crate::schemes::lucky::SCHEME,
        &crate::schemes::skinclub::SCHEME,
        &crate::schemes::freebitco::SCHEME,
        &crate::schemes::bcgame::SCHEME,
        &crate::schemes::csgoempire::SCHEME,
        #[cfg(feature = "toy")]
        &crate::schemes::toy::SCHEME,
    ];
    SCHEMES
}

/// Every op, in the order of docs/protocol.md.
pub fn ops() -> impl Iterator<Item = &'static OpSpec> {
    schemes().iter().flat_map(|s| s.ops.iter().copied())
}

/// Every op name, in order (what `hello` claims).
pub fn names() -> Vec<&'static str> {
    ops().map(|o| o.name).collect()
}

/// The op called `name`.
pub fn find(name: &str) -> Option<&'static OpSpec> {
    ops().find(|o| o.name == name)
}

/// Parses and validates a request object of any registered op (an `id`
/// member is ignored). An op that is not registered is [`OpError::Unsupported`].
pub fn parse(value: &Value) -> Result<Request, OpError> {
    Request::parse_with(value, find)
}

/// The non-canonical readings of the op called `name` (none for most ops,
/// and none for a name that is not an op).
pub fn readings(name: &str) -> &'static [crate::op::reading::Reading] {
    find(name).map_or(&[], |op| op.readings)
}
