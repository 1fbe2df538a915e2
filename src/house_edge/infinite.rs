//! The table's edge for an infinite deck, by code separate from [`crate::house_edge::exact`].
//!
//! With an infinite deck every card is drawn with fixed probability (1/13
//! for ace…nine, 4/13 for ten-valued), so a hand's value depends only on its
//! total and softness, and split hands are independent: the resplit chain
//! (pending hands, hands in all) is exact here, not an approximation. The
//! dealer's hole card under a peek is simply conditioned on not making
//! blackjack. This gives the table's house edge with no approximation at
//! all, and published infinite-deck tables check it cell by cell.

use crate::house_edge::exact::Policy;
use crate::schemes::blackjack::cards::{pip_to_count, Hand, HandValue};
use crate::schemes::blackjack::rules::Rules;
use crate::schemes::blackjack::strategy::{decide, Action};

/// P(pip) for pip 1…10 (index 0 unused).
pub(crate) fn p(pip: u8) -> f64 {
    if pip == 10 {
        4.0 / 13.0
    } else {
        1.0 / 13.0
    }
}

/// Dealer outcomes 17, 18, 19, 20, 21, bust, blackjack for an up-card pip,
/// unnormalised under a peek (the blackjack hole card is left out).
pub(crate) fn dealer(up: u8, r: &Rules) -> [f64; 7] {
    fn go(h: Hand, prob: f64, r: &Rules, out: &mut [f64; 7]) {
        for v in 1..=10u8 {
            let mut g = h;
            g.add(v);
            let pv = prob * p(v);
            if g.natural() {
                if !r.peek {
                    out[6] += pv;
                }
                continue;
            }
            let t = g.value();
            if g.bust() {
                out[5] += pv;
            } else if t.total > 17 || (t.total == 17 && !(t.soft && r.hit_soft_17)) {
                out[usize::from(t.total - 17)] += pv;
            } else {
                go(g, pv, r, out);
            }
        }
    }
    let mut h = Hand::default();
    h.add(up);
    let mut out = [0.0; 7];
    go(h, 1.0, r, &mut out);
    out
}

/// Values for one up-card; all unnormalised as in [`crate::house_edge::exact`].
pub(crate) struct Infinite {
    pub rules: Rules,
    pub(crate) policy: Policy,
    pub(crate) up: u8,
    d: [f64; 7],
    /// P(no dealer blackjack) under a peek, else 1.
    pub(crate) q: f64,
    play: std::collections::HashMap<(u8, bool), f64>,
}

impl Infinite {
    pub fn new(rules: Rules, policy: Policy, up: u8) -> Self {
        let d = dealer(up, &rules);
        let q = if rules.peek { d.iter().sum() } else { 1.0 };
        Infinite {
            rules,
            policy,
            up,
            d,
            q,
            play: Default::default(),
        }
    }

    pub(crate) fn stand(&self, total: u8) -> f64 {
        let d = &self.d;
        let mut ev = d[5] - d[6];
        for (dt, pk) in (17u8..).zip(&d[..5]) {
            if total > dt {
                ev += pk;
            } else if total < dt {
                ev -= pk;
            }
        }
        ev
    }

    fn after(&mut self, h: Hand, v: u8, then: &mut dyn FnMut(&mut Self, Hand) -> f64) -> f64 {
        let mut g = h;
        g.add(v);
        if g.bust() {
            -self.q
        } else {
            then(self, g)
        }
    }

    pub(crate) fn hit(&mut self, h: Hand) -> f64 {
        (1..=10u8).map(|v| p(v) * self.after(h, v, &mut |s, g| s.play(g))).sum()
    }

    pub(crate) fn double(&mut self, h: Hand) -> f64 {
        2.0 * (1..=10u8)
            .map(|v| p(v) * self.after(h, v, &mut |s, g| s.stand(g.value().total)))
            .sum::<f64>()
    }

    /// A hand that may only stand or hit (three cards or more).
    pub(crate) fn play(&mut self, h: Hand) -> f64 {
        let key = (h.hard, h.ace);
        if let Some(v) = self.play.get(&key) {
            return *v;
        }
        let v: HandValue = h.value();
        let val = match self.policy {
            Policy::Table => match decide(v, None, pip_to_count(self.up), false, false) {
                Action::Stehen => self.stand(v.total),
                _ => self.hit(h),
            },
            Policy::Optimal if v.total == 21 => self.stand(21),
            Policy::Optimal => self.stand(v.total).max(self.hit(h)),
        };
        self.play.insert(key, val);
        val
    }

    /// The value of a two-card hand with the given options.
    pub(crate) fn two_cards(&mut self, a: u8, b: u8, can_double: bool, can_split: bool) -> f64 {
        let mut h = Hand::default();
        h.add(a);
        h.add(b);
        let v = h.value();
        let stand = self.stand(v.total);
        let hit = self.hit(h);
        let double = can_double.then(|| self.double(h));
        let split = can_split.then(|| self.split(a));
        match self.policy {
            Policy::Table => {
                let pair = (a == b).then(|| pip_to_count(a));
                match decide(v, pair, pip_to_count(self.up), can_double, can_split) {
                    Action::Stehen => stand,
                    Action::Ziehen => hit,
                    Action::Verdoppeln => double.expect("open"),
                    Action::Teilen => split.expect("open"),
                }
            }
            Policy::Optimal => [Some(stand), Some(hit), double, split]
                .into_iter()
                .flatten()
                .fold(f64::MIN, f64::max),
        }
    }

    fn post_split(&mut self, pair: u8, c: u8) -> f64 {
        if pair == 1 && !self.rules.hit_split_aces {
            let mut h = Hand::default();
            h.add(1);
            h.add(c);
            return self.stand(h.value().total);
        }
        let mut h = Hand::default();
        h.add(pair);
        h.add(c);
        let v = h.value();
        let can_double = self.rules.das && self.rules.double_on.allows(v.total, v.soft);
        self.two_cards(pair, c, can_double, false)
    }

    /// Splitting pair `pair`: exact, since split hands are independent here.
    pub(crate) fn split(&mut self, pair: u8) -> f64 {
        let w: f64 = (1..=10u8)
            .filter(|&c| c != pair)
            .map(|c| p(c) * self.post_split(pair, c))
            .sum();
        let u = self.post_split(pair, pair);
        let pp = p(pair);
        let mut h = Hand::default();
        h.add(pair);
        h.add(pair);
        let v = h.value();
        let dbl =
            self.rules.das && self.rules.double_on.allows(v.total, v.soft) && (pair != 1 || self.rules.hit_split_aces);
        let by_table = decide(v, Some(pip_to_count(pair)), pip_to_count(self.up), dbl, true) == Action::Teilen;
        let r = self.rules;
        let may = move |hands: u8| hands < r.max_hands && (pair != 1 || r.resplit_aces);
        // chain(k, h): k hands waiting for a second card, h hands in all.
        fn chain(k: u8, h: u8, e: &(f64, f64, f64, bool, Policy), may: &dyn Fn(u8) -> bool) -> f64 {
            if k == 0 {
                return 0.0;
            }
            let (w, u, pp, by_table, policy) = *e;
            let done = chain(k - 1, h, e, may);
            let stuck = u + done;
            let pair = if may(h) {
                let re = chain(k + 1, h + 1, e, may);
                match policy {
                    Policy::Table if by_table => re,
                    Policy::Table => stuck,
                    Policy::Optimal => re.max(stuck),
                }
            } else {
                stuck
            };
            w + (1.0 - pp) * done + pp * pair
        }
        chain(2, 2, &(w, u, pp, by_table, self.policy), &may)
    }

    /// The round's value for a two-card start, dealer blackjack included.
    pub(crate) fn start(&mut self, a: u8, b: u8) -> f64 {
        let mut h = Hand::default();
        h.add(a);
        h.add(b);
        let pbj = match self.up {
            1 => p(10),
            10 => p(1),
            _ => 0.0,
        };
        if h.natural() {
            return self.rules.blackjack_pays.ratio() * (1.0 - pbj);
        }
        let v = h.value();
        let can_double = self.rules.double_on.allows(v.total, v.soft);
        let can_split = a == b && self.rules.max_hands >= 2;
        self.two_cards(a, b, can_double, can_split) - if self.rules.peek { pbj } else { 0.0 }
    }
}

/// The player's expected value per initial bet (negative: the house edge).
pub fn game(rules: &Rules, policy: Policy) -> f64 {
    let mut ev = 0.0;
    for up in 1..=10u8 {
        let mut t = Infinite::new(*rules, policy, up);
        for a in 1..=10u8 {
            for b in 1..=10u8 {
                ev += p(up) * p(a) * p(b) * t.start(a, b);
            }
        }
    }
    ev
}

#[cfg(test)]
mod tests {
    //! Expected figures: the Wizard of Odds, "Expected Returns in
    //! Infinite-Deck Blackjack" (wizardofodds.com/games/blackjack/appendix/1/):
    //! dealer stands on soft 17, infinite deck, double after split, split up to
    //! three times (four hands) except aces, one card on split aces; values
    //! given no dealer blackjack; game value −0.511734 %.
    use super::*;
    use crate::schemes::blackjack::rules::Payout;

    fn wizard_rules() -> Rules {
        Rules {
            hit_soft_17: false,
            blackjack_pays: Payout { num: 3, den: 2 },
            ..Rules::default()
        }
    }

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!((got - want).abs() <= tol, "{what}: got {got:.6}, published {want:.6}");
    }

    #[test]
    fn stand_values_match_the_published_infinite_deck_table() {
        // (up pip, player total, published value)
        let cases = [
            (2, 16, -0.292784),
            (6, 16, -0.153699),
            (10, 16, -0.540430),
            (1, 16, -0.666951),
            (7, 17, -0.106809),
            (6, 17, 0.011739),
            (10, 20, 0.554538),
            (1, 21, 0.922194),
            (9, 19, 0.287597),
        ];
        for (up, total, want) in cases {
            let t = Infinite::new(wizard_rules(), Policy::Optimal, up);
            close(t.stand(total) / t.q, want, 1e-6, &format!("stand {total} vs {up}"));
        }
    }

    #[test]
    fn hit_values_match_the_published_infinite_deck_table() {
        // "Player's Expected Return by Hitting", hard 4…7 (no double after hitting).
        let cases = [
            (2, 4, -0.114913),
            (6, 4, 0.011130),
            (10, 5, -0.313412),
            (1, 6, -0.304147),
            (6, 7, 0.029185),
        ];
        for (up, total, want) in cases {
            let mut t = Infinite::new(wizard_rules(), Policy::Optimal, up);
            let h = Hand {
                hard: total,
                ace: false,
                cards: 2,
            };
            close(t.hit(h) / t.q, want, 1e-6, &format!("hit {total} vs {up}"));
        }
    }

    #[test]
    fn eights_against_ten_match_the_published_example() {
        // "two 8's and the dealer has a 10": stand −0.5404, hit −0.5398, double −1.0797, split −0.4807.
        let mut t = Infinite::new(wizard_rules(), Policy::Optimal, 10);
        let mut h = Hand::default();
        h.add(8);
        h.add(8);
        close(t.stand(16) / t.q, -0.5404, 5e-5, "stand");
        close(t.hit(h) / t.q, -0.5398, 5e-5, "hit");
        close(t.double(h) / t.q, -1.0797, 5e-5, "double");
        close(t.split(8) / t.q, -0.4807, 5e-5, "split");
    }

    #[test]
    fn best_play_game_value_matches_the_published_minus_0_511734_percent() {
        close(game(&wizard_rules(), Policy::Optimal), -0.00511734, 2e-8, "game");
    }
}
