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

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

/// The slots of one server.
#[derive(Debug)]
pub struct Slots {
    permits: Arc<Semaphore>,
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
}

/// One admitted connection; dropping it frees the slot.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    id: u64,
    evicted: Option<oneshot::Receiver<()>>,
    /// Held once the connection is answering.
    permit: Option<OwnedSemaphorePermit>,
}

impl Slots {
    pub fn new(max: usize) -> Arc<Slots> {
        Arc::new(Slots {
            permits: Arc::new(Semaphore::new(max)),
            waiting: Mutex::new(Waiting::default()),
        })
    }

    fn waiting(&self) -> MutexGuard<'_, Waiting> {
        // Every change under the lock is a single insert or remove, so a
        // poisoned lock still guards a consistent map.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for a new connection: a free one, else the oldest waiting
    /// connection's (which is told to go), else the next one to finish.
    pub async fn admit(self: &Arc<Self>) -> Slot {
        let permit = match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let oldest = self.waiting().by_age.pop_first();
                match oldest {
                    Some((_, waiter)) => {
                        let _ = waiter.evict.send(());
                        waiter.permit
                    }
                    None => Arc::clone(&self.permits)
                        .acquire_owned()
                        .await
                        .expect("the semaphore is never closed"),
                }
            }
        };
        let (evict, evicted) = oneshot::channel();
        let mut waiting = self.waiting();
        let id = waiting.next_id;
        waiting.next_id += 1;
        waiting.by_age.insert(id, Waiter { evict, permit });
        Slot {
            slots: Arc::clone(self),
            id,
            evicted: Some(evicted),
            permit: None,
        }
    }
}

impl Slot {
    /// Resolves when a newcomer has taken this slot; never, once [`Slot::answering`].
    pub async fn evicted(&mut self) {
        if let Some(rx) = self.evicted.as_mut() {
            if rx.await.is_ok() {
                return;
            }
        }
        std::future::pending::<()>().await;
    }

    /// The head is in: the connection takes its slot back from the waiting
    /// list. `false` if a newcomer took it first (the connection must go).
    pub fn answering(&mut self) -> bool {
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
