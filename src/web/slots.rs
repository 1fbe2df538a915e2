//! The connection bound: at most `max` connections at once, and when all are
//! taken, the newcomer displaces the connection that has waited longest for
//! its request head.
//!
//! A cap alone lets a slowloris client fill every slot and keep the page
//! away from everyone else until the head deadline frees one. Eviction puts
//! the cost on the client that is slowest to say what it wants: a browser
//! sends its request within milliseconds of connecting, so it is never the
//! oldest one waiting. The newcomer takes the slot over at once; the
//! displaced socket is answered 503 and closed by its own task, outside the
//! count, within a second. Connections already being answered are never
//! displaced (their response deadline bounds them); if every slot is
//! answering, the accept loop waits and newcomers queue in the kernel's
//! listen backlog.
//!
//! A connection is displaced only once it has waited [`EVICT_AFTER`] for its
//! head. Without that grace, a flood that connects faster than the server's
//! tasks get to run displaced complete requests too: a GET whose head was
//! already in the socket, accepted a moment before 500 flood connections,
//! was the oldest waiting before its task had read it, and got 503 (3 of 8
//! GETs answered under a 2,000-connection flood against a cap of 500). A
//! head that is in the socket is read at the task's first run, far inside
//! the grace; a slowloris client is still displaced, half a second later.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// How long a connection may wait for its head before a newcomer may displace it.
pub(crate) const EVICT_AFTER: Duration = Duration::from_millis(500);

/// The slots of one server.
#[derive(Debug)]
pub(crate) struct Slots {
    permits: Arc<Semaphore>,
    grace: Duration,
    /// Connections still reading their head, by admission order (oldest first).
    waiting: Mutex<Waiting>,
}

#[derive(Debug, Default)]
struct Waiting {
    next_id: u64,
    by_age: BTreeMap<u64, Waiter>,
}

/// A waiting connection's slot is held here, not by the connection, so a
/// newcomer takes it over at once instead of waiting for the displaced
/// connection's task to run and let go.
#[derive(Debug)]
struct Waiter {
    evict: oneshot::Sender<()>,
    permit: OwnedSemaphorePermit,
    since: Instant,
}

/// One admitted connection; dropping it frees the slot.
#[derive(Debug)]
pub(crate) struct Slot {
    slots: Arc<Slots>,
    id: u64,
    evicted: Option<oneshot::Receiver<()>>,
    /// Held once the connection is answering.
    permit: Option<OwnedSemaphorePermit>,
}

impl Slots {
    pub fn new(max: usize) -> Arc<Slots> {
        Slots::with_grace(max, EVICT_AFTER)
    }

    /// Slots whose waiting connections may be displaced after `grace`.
    pub(crate) fn with_grace(max: usize, grace: Duration) -> Arc<Slots> {
        Arc::new(Slots {
            permits: Arc::new(Semaphore::new(max)),
            grace,
            waiting: Mutex::new(Waiting::default()),
        })
    }

    fn waiting(&self) -> MutexGuard<'_, Waiting> {
        // Every change under the lock is a single insert or remove, so a
        // poisoned lock still guards a consistent map.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for a new connection: a free one, else the oldest waiting
    /// connection's once it has waited the grace (it is told to go), else
    /// the next one to finish.
    pub(crate) async fn admit(self: &Arc<Self>) -> Slot {
        let permit = self.permit().await;
        let (evict, evicted) = oneshot::channel();
        let mut waiting = self.waiting();
        let id = waiting.next_id;
        waiting.next_id += 1;
        let since = Instant::now();
        waiting.by_age.insert(id, Waiter { evict, permit, since });
        Slot {
            slots: Arc::clone(self),
            id,
            evicted: Some(evicted),
            permit: None,
        }
    }
}

impl Slots {
    async fn permit(&self) -> OwnedSemaphorePermit {
        loop {
            if let Ok(permit) = Arc::clone(&self.permits).try_acquire_owned() {
                return permit;
            }
            let oldest = self.waiting().by_age.first_key_value().map(|(id, w)| (*id, w.since));
            let free = Arc::clone(&self.permits).acquire_owned();
            let Some((id, since)) = oldest else {
                return free.await.expect("the semaphore is never closed");
            };
            let due = since + self.grace;
            if Instant::now() >= due {
                // Still there (its head may have come in meanwhile): it goes.
                if let Some(waiter) = self.waiting().by_age.remove(&id) {
                    let _ = waiter.evict.send(());
                    return waiter.permit;
                }
                continue;
            }
            if let Ok(permit) = tokio::time::timeout_at(due, free).await {
                return permit.expect("the semaphore is never closed");
            }
        }
    }
}

impl Slot {
    /// Resolves when a newcomer has taken this slot; never, once [`Slot::answering`].
    pub(crate) async fn evicted(&mut self) {
        if let Some(rx) = self.evicted.as_mut() {
            if rx.await.is_ok() {
                return;
            }
        }
        std::future::pending::<()>().await;
    }

    /// The head is in: the connection takes its slot back from the waiting
    /// list. `false` if a newcomer took it first (the connection must go).
    pub(crate) fn answering(&mut self) -> bool {
        self.evicted = None;
        let waiter = self.slots.waiting().by_age.remove(&self.id);
        self.permit = waiter.map(|w| w.permit);
        self.permit.is_some()
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.waiting().by_age.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    }

    /// A flood must not displace a connection whose head may already be in
    /// its socket: the regression of a complete GET answered 503.
    #[test]
    fn a_connection_admitted_within_the_grace_is_not_displaced_by_a_newcomer() {
        runtime().block_on(async {
            let slots = Slots::with_grace(1, Duration::from_millis(300));
            let mut first = slots.admit().await;
            let started = Instant::now();
            let newcomer = slots.admit();
            let mut newcomer = std::pin::pin!(newcomer);
            // Within the grace the newcomer waits, and the first keeps its slot.
            let early = tokio::time::timeout(Duration::from_millis(100), newcomer.as_mut()).await;
            assert!(early.is_err(), "the newcomer took the slot within the grace");
            assert!(first.answering(), "the first connection was displaced within the grace");
            drop(first);
            let second = tokio::time::timeout(Duration::from_secs(10), newcomer).await;
            assert!(second.is_ok(), "a freed slot goes to the newcomer");
            assert!(started.elapsed() < Duration::from_secs(10));
        });
    }

    #[test]
    fn a_slow_connection_is_displaced_once_the_grace_is_over() {
        runtime().block_on(async {
            let slots = Slots::with_grace(1, Duration::from_millis(50));
            let mut slow = slots.admit().await;
            let _newcomer = tokio::time::timeout(Duration::from_secs(10), slots.admit())
                .await
                .expect("the newcomer displaced the slow connection");
            tokio::time::timeout(Duration::from_secs(10), slow.evicted())
                .await
                .expect("the slow connection was told to go");
            assert!(!slow.answering());
        });
    }
}
