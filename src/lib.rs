#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod crypto;
pub mod cursor;
pub mod dice;
pub mod error;
pub mod ladder;
pub mod numpy;
pub mod poker;
pub mod protocol;
pub mod pyfmt;
pub mod selfpoker;
pub mod shoe;
pub mod vektoren;
