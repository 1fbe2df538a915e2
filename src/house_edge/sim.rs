//! Simulated rounds of the table, played by the published strategy.
//!
//! **Verifiable mode.** Round `r` (r = 0, 1, …) is dealt from a fresh
//! `cursor.shuffle(52 · decks)` with the server seed, the client seed (the
//! seat seeds concatenated in player order, as seed 003 says) and nonce `r`,
//! cursor 0. The shuffle's output is a permutation of shoe indices
//! 0…52·decks−1; index `i` is card number `i % 52` of deck `i / 52`, so its
//! rank is `i % 52 % 13` (seed 003 does not print this mapping; this is the
//! one `poker_referenz.py` uses for one deck, repeated per deck). Cards are
//! taken from the front of the shuffled order: the initial deal in the
//! chosen [`DealOrder`], then each seat's hands in seat order (each split
//! hand receives its second card when its turn comes; the second hand of a
//! split joins the end of that seat's hands), then the dealer's draws. Any
//! simulated round can therefore be re-dealt with `provably derive
//! cursor.shuffle` and checked by hand.
//!
//! **Fast mode.** A seeded xoshiro256++ per chunk of rounds deals the same
//! game, drawing only the cards a round needs: card k of a round is a
//! uniform pick from the positions k… of the shoe array (a partial
//! Fisher–Yates). The array is not reset between rounds: whatever order the
//! previous round left, each pick is uniform over the cards still in the
//! shoe, so every round is a fresh, independent shuffle.
//!
//! **Determinism.** Rounds are grouped in fixed-size chunks; a fast chunk's
//! generator is seeded from SHA-256 of the seed and the chunk number, and a
//! verifiable round depends only on its nonce. Money is counted in whole
//! tenths of the bet (6:5 pays 12) in integer accumulators, so the totals
//! are the same whatever the number of threads or the order chunks finish.

use std::sync::atomic::{AtomicU64, Ordering};

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sha2::{Digest, Sha256};

use crate::schemes::blackjack::cards::{pip, pip_to_count, Hand};
use crate::schemes::blackjack::rules::{DealOrder, Rules};
use crate::schemes::blackjack::strategy::{decide, Action};
use crate::schemes::cursor::Round;

/// Where a round's cards come from, in shoe order, as pips 1…10.
pub trait CardSource {
    /// The next card of the round, as its pip (ace 1, two to nine 2 to 9, ten and faces 10).
    fn draw(&mut self) -> u8;
}

/// A verifiable round's shoe: the shuffled order of shoe indices.
pub struct ShuffledShoe {
    order: Vec<u32>,
    pos: usize,
}

impl ShuffledShoe {
    /// Shuffles the shoe of round `nonce` (cursor 0).
    pub fn new(server_seed: &str, client_seed: &str, nonce: u64, decks: u8) -> Self {
        let (order, _) = Round::new(server_seed, client_seed, nonce).shuffle(52 * usize::from(decks), 0);
        ShuffledShoe { order, pos: 0 }
    }

    /// The card number at shoe position `k`: shoe index `order[k]`, card `index % 52`.
    pub(crate) fn card_at(&self, k: usize) -> u8 {
        u8::try_from(self.order[k] % 52).expect("below 52")
    }
}

impl CardSource for ShuffledShoe {
    fn draw(&mut self) -> u8 {
        let c = self.card_at(self.pos);
        self.pos += 1;
        pip(c)
    }
}

/// The fast shoe: partial Fisher–Yates over a pip array, one pick per card.
pub struct FastShoe {
    pips: Vec<u8>,
    pos: usize,
    rng: Xoshiro256PlusPlus,
}

impl FastShoe {
    /// A shoe of `decks` full decks whose picks come from xoshiro256++ seeded with `seed`.
    pub fn new(decks: u8, seed: [u8; 32]) -> Self {
        let pips = (0..decks).flat_map(|_| (0u8..52).map(pip)).collect();
        FastShoe {
            pips,
            pos: 0,
            rng: Xoshiro256PlusPlus::from_seed(seed),
        }
    }

    /// Starts a new round: every card is back in the shoe.
    pub fn reshuffle(&mut self) {
        self.pos = 0;
    }

    /// A uniform integer below `n` (Lemire's multiply-and-reject, unbiased).
    #[allow(
        clippy::cast_possible_truncation,
        reason = "Lemire's method reads the low and the high 32 bits of the 64-bit product"
    )]
    fn below(&mut self, n: u32) -> u32 {
        let mut m = u64::from(self.rng.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.rng.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }
}

impl CardSource for FastShoe {
    fn draw(&mut self) -> u8 {
        let left = u32::try_from(self.pips.len() - self.pos).expect("a shoe of at most 8 decks");
        let j = self.pos + usize::try_from(self.below(left)).expect("below the cards left");
        self.pips.swap(self.pos, j);
        self.pos += 1;
        self.pips[self.pos - 1]
    }
}

/// Hands per outcome and the money, summed over rounds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Rounds played.
    pub rounds: u64,
    /// Initial bets: rounds × seats.
    pub bets: u64,
    /// Final hands, split hands counted one by one.
    pub hands: u64,
    /// Player blackjacks paid at the table's payout.
    pub blackjacks: u64,
    /// Player blackjacks against a dealer blackjack.
    pub blackjack_pushes: u64,
    /// Hands that beat the dealer's final hand (blackjacks not included).
    pub wins: u64,
    /// Hands that tied the dealer's total (blackjack pushes not included).
    pub pushes: u64,
    /// Losses, busts and dealer blackjacks included.
    pub losses: u64,
    /// Hands that went over 21 (also counted in `losses`).
    pub busts: u64,
    /// Hands lost to a dealer blackjack.
    pub dealer_blackjacks: u64,
    /// Hands doubled down.
    pub doubles: u64,
    /// Splits made (each adds one hand to the seat).
    pub splits: u64,
    /// Sum of round results in tenths of a bet.
    pub(crate) net: i128,
    /// Sum of squared round results (tenths²), for the confidence interval.
    pub(crate) net_sq: u128,
}

impl Tally {
    /// Adds the counts and sums of `o` to these.
    pub fn add(&mut self, o: &Tally) {
        self.rounds += o.rounds;
        self.bets += o.bets;
        self.hands += o.hands;
        self.blackjacks += o.blackjacks;
        self.blackjack_pushes += o.blackjack_pushes;
        self.wins += o.wins;
        self.pushes += o.pushes;
        self.losses += o.losses;
        self.busts += o.busts;
        self.dealer_blackjacks += o.dealer_blackjacks;
        self.doubles += o.doubles;
        self.splits += o.splits;
        self.net += o.net;
        self.net_sq += o.net_sq;
    }

    /// House edge per initial bet (a fraction; positive = the house wins).
    #[allow(
        clippy::cast_precision_loss,
        reason = "a ratio of two counts that convert exactly below 2^53; four decimals are printed"
    )]
    pub fn edge(&self) -> f64 {
        -(self.net as f64) / 10.0 / self.bets as f64
    }

    /// Half-width of the 95 % confidence interval of [`Tally::edge`]:
    /// 1.96 · s / √n over per-round results, divided by the seats.
    #[allow(
        clippy::cast_precision_loss,
        reason = "the counts and sums convert exactly below 2^53; 10^9 rounds of at most 560 tenths squared stay under 4e14"
    )]
    pub fn ci95(&self) -> f64 {
        let n = self.rounds as f64;
        if self.rounds < 2 {
            return f64::INFINITY;
        }
        let mean = self.net as f64 / n;
        let var = (self.net_sq as f64 - n * mean * mean) / (n - 1.0);
        let seats = self.bets as f64 / n;
        1.96 * (var / n).sqrt() / 10.0 / seats
    }
}

/// One of a seat's hands during play.
#[derive(Clone, Copy, Default)]
struct SeatHand {
    hand: Hand,
    /// Pips of the first two cards, for the pair test.
    first: u8,
    second: u8,
    bet: i64,
    from_split: bool,
    split_aces: bool,
    busted: bool,
}

impl SeatHand {
    fn start(first: u8) -> Self {
        let mut h = SeatHand {
            first,
            bet: 1,
            ..SeatHand::default()
        };
        h.hand.add(first);
        h
    }

    fn add(&mut self, pip: u8) {
        if self.hand.cards == 1 {
            self.second = pip;
        }
        self.hand.add(pip);
    }
}

/// The most hands a seat can hold (`Rules::max_hands` is at most 8).
const MAX_HANDS: usize = 8;

/// The most seats at the table.
pub const MAX_SEATS: usize = 7;

/// Plays one seat's hands against the up-card; returns how many hands it holds.
fn play_seat<S: CardSource>(
    r: &Rules,
    up: u8,
    hands: &mut [SeatHand; MAX_HANDS],
    shoe: &mut S,
    t: &mut Tally,
) -> usize {
    let dealer = pip_to_count(up);
    let mut n = 1;
    let mut i = 0;
    while i < n {
        let mut h = hands[i];
        if h.hand.cards == 1 {
            h.add(shoe.draw());
        }
        loop {
            let v = h.hand.value();
            let two = h.hand.cards == 2;
            let pair = (two && h.first == h.second).then(|| pip_to_count(h.first));
            let may_resplit_aces = h.first != 1 || !h.from_split || r.resplit_aces;
            let can_split = pair.is_some() && n < usize::from(r.max_hands) && may_resplit_aces;
            if h.split_aces && !r.hit_split_aces && !can_split {
                break; // one card on each split ace
            }
            let can_double = two
                && r.double_on.allows(v.total, v.soft)
                && (!h.from_split || r.das)
                && (!h.split_aces || r.hit_split_aces);
            match decide(v, pair, dealer, can_double, can_split) {
                Action::Teilen => {
                    t.splits += 1;
                    let mut other = SeatHand::start(h.second);
                    other.from_split = true;
                    other.split_aces = h.second == 1;
                    hands[n] = other;
                    n += 1;
                    h = SeatHand {
                        from_split: true,
                        ..SeatHand::start(h.first)
                    };
                    h.split_aces = h.first == 1;
                    h.add(shoe.draw());
                }
                Action::Verdoppeln => {
                    t.doubles += 1;
                    h.bet = 2;
                    h.add(shoe.draw());
                    break;
                }
                Action::Ziehen => {
                    h.add(shoe.draw());
                    if h.hand.bust() {
                        break;
                    }
                }
                Action::Stehen => break,
            }
        }
        h.busted = h.hand.bust();
        hands[i] = h;
        i += 1;
    }
    n
}

/// Deals and plays one round for `seats` seats; returns the round's result in tenths.
pub fn play_round<S: CardSource>(r: &Rules, seats: usize, shoe: &mut S, t: &mut Tally) -> i64 {
    let mut first = [0u8; MAX_SEATS];
    let mut second = [0u8; MAX_SEATS];
    let (up, hole);
    match r.deal_order {
        DealOrder::Alternating => {
            first[..seats].iter_mut().for_each(|c| *c = shoe.draw());
            up = shoe.draw();
            second[..seats].iter_mut().for_each(|c| *c = shoe.draw());
            hole = shoe.draw();
        }
        DealOrder::PlayersFirst => {
            for s in 0..seats {
                first[s] = shoe.draw();
                second[s] = shoe.draw();
            }
            up = shoe.draw();
            hole = shoe.draw();
        }
    }
    let mut dealer = Hand::default();
    dealer.add(up);
    dealer.add(hole);
    let dealer_bj = dealer.natural();
    t.rounds += 1;
    t.bets += seats as u64;
    let mut net = 0i64;
    let mut hands = [[SeatHand::default(); MAX_HANDS]; MAX_SEATS];
    let mut counts = [0usize; MAX_SEATS];
    let mut live = false;
    for s in 0..seats {
        let mut h = SeatHand::start(first[s]);
        h.add(second[s]);
        if h.hand.natural() {
            t.hands += 1;
            if dealer_bj {
                t.blackjack_pushes += 1;
            } else {
                t.blackjacks += 1;
                net += r.blackjack_pays.tenths();
            }
            continue;
        }
        if dealer_bj && r.peek {
            t.hands += 1;
            t.losses += 1;
            t.dealer_blackjacks += 1;
            net -= 10;
            continue;
        }
        hands[s][0] = h;
        counts[s] = play_seat(r, up, &mut hands[s], shoe, t);
        live |= hands[s][..counts[s]].iter().any(|h| !h.busted);
    }
    if live && !dealer_bj {
        while {
            let v = dealer.value();
            v.total < 17 || (v.total == 17 && v.soft && r.hit_soft_17)
        } {
            dealer.add(shoe.draw());
        }
    }
    net += settle(&hands[..seats], &counts[..seats], &dealer, dealer_bj, t);
    t.net += i128::from(net);
    t.net_sq += u128::from(net.unsigned_abs()).pow(2);
    net
}

/// Pays or takes every played hand against the dealer's final hand.
fn settle(hands: &[[SeatHand; MAX_HANDS]], counts: &[usize], dealer: &Hand, dealer_bj: bool, t: &mut Tally) -> i64 {
    let mut net = 0;
    let dealer_total = if dealer.bust() { 0 } else { dealer.value().total };
    for (seat, &n) in hands.iter().zip(counts) {
        for h in &seat[..n] {
            t.hands += 1;
            let stake = 10 * h.bet;
            if h.busted {
                t.losses += 1;
                t.busts += 1;
                net -= stake;
            } else if dealer_bj {
                t.losses += 1;
                t.dealer_blackjacks += 1;
                net -= stake;
            } else {
                let total = h.hand.value().total;
                match total.cmp(&dealer_total) {
                    std::cmp::Ordering::Greater => {
                        t.wins += 1;
                        net += stake;
                    }
                    std::cmp::Ordering::Equal => t.pushes += 1,
                    std::cmp::Ordering::Less => {
                        t.losses += 1;
                        net -= stake;
                    }
                }
            }
        }
    }
    net
}

/// Where the simulated rounds' cards come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A fresh `cursor.shuffle` per round; `client_seed` is the seat seeds concatenated.
    Verifiable {
        /// The server seed of every round.
        server_seed: String,
        /// The client seed of every round: the seat seeds concatenated in player order.
        client_seed: String,
    },
    /// xoshiro256++, seeded per chunk from `seed`.
    Fast {
        /// The run's seed: chunk k's generator is seeded with SHA-256 of it and k.
        seed: u64,
    },
}

/// Rounds per chunk: small for the slow verifiable shuffles (a smooth
/// progress bar), large for the fast generator.
pub fn chunk_size(source: &Source) -> u64 {
    match source {
        Source::Verifiable { .. } => 64,
        Source::Fast { .. } => 1 << 16,
    }
}

/// The 32-byte xoshiro seed of fast chunk `chunk`: SHA-256 of "provably house-edge fast:SEED:CHUNK".
pub(crate) fn chunk_seed(seed: u64, chunk: u64) -> [u8; 32] {
    Sha256::digest(format!("provably house-edge fast:{seed}:{chunk}").as_bytes()).into()
}

/// Plays rounds `first .. first + count` of the run.
pub(crate) fn run_chunk(r: &Rules, seats: usize, source: &Source, chunk: u64, first: u64, count: u64) -> Tally {
    let mut t = Tally::default();
    match source {
        Source::Verifiable {
            server_seed,
            client_seed,
        } => {
            for nonce in first..first + count {
                let mut shoe = ShuffledShoe::new(server_seed, client_seed, nonce, r.decks);
                play_round(r, seats, &mut shoe, &mut t);
            }
        }
        Source::Fast { seed } => {
            let mut shoe = FastShoe::new(r.decks, chunk_seed(*seed, chunk));
            for _ in 0..count {
                shoe.reshuffle();
                play_round(r, seats, &mut shoe, &mut t);
            }
        }
    }
    t
}

/// Simulates `rounds` rounds on `jobs` threads; `progress` is told of every finished chunk.
pub fn simulate(
    r: &Rules,
    seats: usize,
    source: &Source,
    rounds: u64,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Tally {
    let size = chunk_size(source);
    let chunks = rounds.div_ceil(size);
    let next = AtomicU64::new(0);
    let worker = || {
        let mut t = Tally::default();
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= chunks {
                return t;
            }
            let first = c * size;
            let count = size.min(rounds - first);
            t.add(&run_chunk(r, seats, source, c, first, count));
            progress(count);
        }
    };
    let mut total = Tally::default();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs.max(1)).map(|_| scope.spawn(worker)).collect();
        for h in handles {
            total.add(&h.join().expect("a simulation thread panicked"));
        }
    });
    total
}

/// The most card value a round can consume: every seat at `max_hands` hands
/// of at most 31 (a hard 21 plus a ten) and the dealer at 26. A shoe whose
/// total value is below this could run out mid-round.
pub fn worst_case_value(r: &Rules, seats: usize) -> u32 {
    u32::try_from(seats).expect("at most MAX_SEATS seats") * u32::from(r.max_hands) * 31 + 26
}

/// The total pip value of the shoe: 340 per deck.
pub fn shoe_value(decks: u8) -> u32 {
    340 * u32::from(decks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stacked shoe for rule tests.
    struct Stack(Vec<u8>, usize);
    impl CardSource for Stack {
        fn draw(&mut self) -> u8 {
            self.1 += 1;
            self.0[self.1 - 1]
        }
    }

    fn play(r: &Rules, pips: &[u8]) -> (i64, Tally) {
        let mut t = Tally::default();
        let net = play_round(r, 1, &mut Stack(pips.to_vec(), 0), &mut t);
        (net, t)
    }

    #[test]
    fn blackjack_pays_six_to_five_by_default_and_three_to_two_when_asked() {
        // alternating deal: player A, dealer 9, player 10, dealer 7
        assert_eq!(play(&Rules::default(), &[1, 9, 10, 7]).0, 12);
        let r = Rules {
            blackjack_pays: crate::schemes::blackjack::rules::Payout { num: 3, den: 2 },
            ..Rules::default()
        };
        assert_eq!(play(&r, &[1, 9, 10, 7]).0, 15);
    }

    #[test]
    fn peeked_dealer_blackjack_takes_only_the_original_bet() {
        // player 5,6 (would double) vs dealer A up, 10 hole
        let (net, t) = play(&Rules::default(), &[5, 1, 6, 10]);
        assert_eq!((net, t.dealer_blackjacks, t.doubles), (-10, 1, 0));
        let no_peek = Rules {
            peek: false,
            ..Rules::default()
        };
        // without a peek the player doubles 11 against the ace and loses both units
        let (net, t) = play(&no_peek, &[5, 1, 6, 10, 9]);
        assert_eq!((net, t.doubles), (-20, 1));
    }

    #[test]
    fn split_aces_get_one_card_each_and_21_is_not_blackjack() {
        // player A,A vs dealer 6 up, 10 hole: split, first ace gets 10, second gets 9; dealer 16 draws 10.
        let (net, t) = play(&Rules::default(), &[1, 6, 1, 10, 10, 9, 10]);
        assert_eq!(t.splits, 1);
        assert_eq!(t.blackjacks, 0);
        assert_eq!((t.hands, t.wins), (2, 2));
        assert_eq!(net, 20);
    }

    #[test]
    fn eights_resplit_to_four_hands_and_no_further() {
        // 8,8 vs 10: every new card is an 8 until four hands exist.
        let pips = [8, 10, 8, 7, 8, 8, 8, 8, 10, 10, 10, 10, 10, 10, 10];
        let (_, t) = play(&Rules::default(), &pips);
        assert_eq!(t.splits, 3);
        assert_eq!(t.hands, 4);
    }

    #[test]
    fn thread_count_does_not_change_the_result() {
        let r = Rules::default();
        let src = Source::Fast { seed: 7 };
        let one = simulate(&r, 1, &src, 200_000, 1, &|_| {});
        let three = simulate(&r, 1, &src, 200_000, 3, &|_| {});
        assert_eq!(one, three);
        assert_eq!(one.rounds, 200_000);
    }

    #[test]
    fn verifiable_round_reads_the_published_shuffle() {
        let shoe = ShuffledShoe::new("s", "seat-1", 3, 6);
        let (order, _) = Round::new("s", "seat-1", 3).shuffle(312, 0);
        assert_eq!(shoe.card_at(0), (order[0] % 52) as u8);
    }
}
