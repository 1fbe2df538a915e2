//! The audit's last stage: every event seen in document order before it
//! goes out. Bet histories follow each seed pair's nonces (a nonce bet
//! twice becomes a mismatch at the second round), crash histories each
//! chain's games (`super::chain::Chains`), the statistics count each
//! round's cells, and the counts add every event up.

use std::io;

use super::bets::Bets;
use super::chain::Chains;
use super::{Counts, Event};
use crate::stats::Collector;

/// The fold of one input's events.
pub(crate) struct Fold<'a> {
    bets: Option<&'a mut Bets>,
    stats: Option<&'a mut Collector>,
    chains: &'a mut Chains,
    on_event: &'a mut dyn FnMut(&Event) -> io::Result<()>,
    counts: Counts,
}

impl<'a> Fold<'a> {
    pub(crate) fn new(
        bets: Option<&'a mut Bets>,
        stats: Option<&'a mut Collector>,
        chains: &'a mut Chains,
        on_event: &'a mut dyn FnMut(&Event) -> io::Result<()>,
    ) -> Fold<'a> {
        Fold {
            bets,
            stats,
            chains,
            on_event,
            counts: Counts::default(),
        }
    }

    /// The counts of the events seen.
    pub(crate) fn counts(&self) -> Counts {
        self.counts
    }

    /// Sees events, in document order.
    pub(crate) fn take(&mut self, events: Vec<Event>) -> io::Result<()> {
        events.into_iter().try_for_each(|e| self.see(e))
    }

    fn see(&mut self, mut e: Event) -> io::Result<()> {
        if let Event::Round { epoch, counted, .. } = &mut e {
            if let (Some(c), Some(stats)) = (counted.take(), self.stats.as_deref_mut()) {
                stats.count(*epoch, &c);
            }
        }
        let extra = self.bets.as_deref_mut().and_then(|b| b.see(&mut e));
        let chained = self.chains.see(&mut e);
        self.counts.add(&e);
        (self.on_event)(&e)?;
        for x in extra.into_iter().chain(chained) {
            self.counts.add(&x);
            (self.on_event)(&x)?;
        }
        Ok(())
    }
}
