//! Primitives: what the op table and the schemes compute with. Nothing here
//! names another module of the crate.

pub mod chain;
pub mod crypto;
pub mod diff;
pub mod fsutil;
pub mod hmac;
pub mod json;
pub(crate) mod lines;
pub(crate) mod masks;
// The fast forms of `crypto`'s HMAC and of a remainder: left out of a
// build with `--features plain`, which is made of the plain forms alone.
#[cfg(not(feature = "plain"))]
pub(crate) mod midstate;
#[cfg(not(feature = "plain"))]
pub(crate) mod modulo;
pub(crate) mod ordered;
pub mod pyfmt;
pub(crate) mod tape;
pub mod text;
