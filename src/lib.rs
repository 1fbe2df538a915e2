#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod blackjack;
pub mod crypto;
pub mod cursor;
pub mod dice;
pub mod error;
pub mod fsutil;
pub mod harness;
pub mod json;
pub mod ladder;
pub mod numpy;
pub mod poker;
pub mod protocol;
pub mod pyfmt;
pub mod report;
pub mod schema;
pub mod selfpoker;
pub mod serve;
pub mod shoe;
pub mod vectors;
pub mod vektoren;
pub mod verify;
pub mod web;
