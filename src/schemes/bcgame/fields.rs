//! The fields of BC.Game's ops beyond a bet's seeds and nonce, read by the
//! ops and by their statistics.

use crate::op::Field;

/// How many mines a Mines board holds.
pub(crate) const MINES: Field = Field::size("mines", 1, 24);

/// Plinko's rows: the first `rows` numbers of the MAC.
pub(crate) const ROWS: Field = Field::size("rows", 8, 16);

/// Coin Flip's flips in one game (the op's limit; the pages take any number).
pub(crate) const ROUNDS: Field = Field::size("rounds", 1, 100);
