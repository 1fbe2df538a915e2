//! Primitives: what the op table and the schemes compute with. Nothing here
//! names another module of the crate.

pub mod chain;
pub mod crypto;
pub mod diff;
pub mod fsutil;
pub mod json;
pub(crate) mod lines;
pub mod masks;
pub(crate) mod modulo;
pub(crate) mod ordered;
pub mod pyfmt;
pub(crate) mod tape;
pub mod text;
