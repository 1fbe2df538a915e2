//! The connection bound: at most `max` connections at once, and when all are
//! taken, the newcomer displaces the connection that has waited longest for
//! its request head.
//!
//! A cap alone lets a slowloris client fill every slot and keep the page
//! away from everyone else until the head deadline frees one. Eviction puts
//! the cost on the client that is slowest to say what it wants: a browser
//! sends its request within milliseconds of connecting, so it is never the
//! oldest one waiting. Connections already being answered are never evicted
//! (their response deadline bounds them); if every slot is answering, the
//! accept loop waits, and newcomers queue in the kernel's listen backlog.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

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
    by_age: BTreeMap<u64, oneshot::Sender<()>>,
}

/// One admitted connection; dropping it frees the slot.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    id: u64,
    evicted: Option<oneshot::Receiver<()>>,
    _permit: OwnedSemaphorePermit,
}

impl Slots {
    pub fn new(max: usize) -> Arc<Slots> {
        Arc::new(Slots {
            permits: Arc::new(Semaphore::new(max)),
            waiting: Mutex::new(Waiting::default()),
        })
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, Waiting> {
        // The map stays consistent under every panic point (single inserts and
        // removes), so a poisoned lock is still usable.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for a new connection: a free one, else the oldest waiting
    /// connection's (it is told to go), else the next one to finish.
    pub async fn admit(self: &Arc<Self>) -> Slot {
        let permit = match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let oldest = self.waiting().by_age.pop_first();
                if let Some((_, tx)) = oldest {
                    let _ = tx.send(());
                }
                Arc::clone(&self.permits)
                    .acquire_owned()
                    .await
                    .expect("the semaphore is never closed")
            }
        };
        let (tx, rx) = oneshot::channel();
        let id = {
            let mut waiting = self.waiting();
            let id = waiting.next_id;
            waiting.next_id += 1;
            waiting.by_age.insert(id, tx);
            id
        };
        Slot {
            slots: Arc::clone(self),
            id,
            evicted: Some(rx),
            _permit: permit,
        }
    }
}

impl Slot {
    /// Resolves when a newcomer needs this slot; never, once [`Slot::answering`].
    pub async fn evicted(&mut self) {
        if let Some(rx) = self.evicted.as_mut() {
            if rx.await.is_ok() {
                return;
            }
        }
        std::future::pending::<()>().await;
    }

    /// The head is in: this connection is no longer a candidate for eviction.
    pub fn answering(&mut self) {
        self.evicted = None;
        self.slots.waiting().by_age.remove(&self.id);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.waiting().by_age.remove(&self.id);
    }
}
