//! An ordered parallel map over a stream of unknown length, in bounded
//! memory: items are pulled from an iterator on one thread, mapped on
//! `workers` threads, and handed on in the iterator's order.
//!
//! Why not a crate: rayon's parallel iterators want their input split up
//! front, or (through `par_bridge`) give up its order; an audit streams an
//! input of unknown length and must keep document order with a bounded
//! window. What that takes is a window of tickets, a queue and a reorder
//! buffer: these few lines, on std's threads and channels.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::Mutex;
use std::thread;

/// Maps every item of `items` with `f` on `workers` threads and hands the
/// results to `out` in the order of `items`. At most `window` items are
/// between the iterator and `out` at any time (queued, being mapped, or
/// waiting for an earlier one), so memory is bounded by `window` items and
/// results whatever the stream's length. `items` runs on a thread of its
/// own. The first error of `out` stops the map and is returned: the
/// iterator is not asked for more, and results not handed on are dropped.
///
/// # Errors
/// The first error of `out`.
pub fn map<I, U, E, F, O>(items: I, workers: usize, window: usize, f: F, mut out: O) -> Result<(), E>
where
    I: Iterator + Send,
    I::Item: Send,
    U: Send,
    F: Fn(I::Item) -> U + Sync,
    O: FnMut(U) -> Result<(), E>,
{
    let window = window.max(1);
    // A ticket per item in flight: the feeder takes one before it queues an
    // item, and it is given back once the item's result is handed on.
    let (tickets, ticket_back) = mpsc::sync_channel::<()>(window);
    let (queue, queued) = mpsc::sync_channel::<(u64, I::Item)>(window);
    let queued = Mutex::new(queued);
    let (results, mapped) = mpsc::channel::<(u64, U)>();
    let f = &f;
    thread::scope(|s| {
        s.spawn(move || {
            for (i, item) in (0u64..).zip(items) {
                if tickets.send(()).is_err() || queue.send((i, item)).is_err() {
                    return;
                }
            }
        });
        for _ in 0..workers.max(1) {
            let (queued, results) = (&queued, results.clone());
            s.spawn(move || loop {
                // The lock is held only while waiting for the next item.
                let next = queued.lock().map_err(drop).and_then(|q| q.recv().map_err(drop));
                let Ok((i, item)) = next else { return };
                if results.send((i, f(item))).is_err() {
                    return;
                }
            });
        }
        drop(results);
        // Ends when every result is in (the feeder and the workers are done),
        // or at `out`'s first error: then the tickets and results are
        // dropped here (moved in), every send fails, and the threads end.
        let (ticket_back, mapped) = (ticket_back, mapped);
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        for (i, u) in mapped {
            waiting.insert(i, u);
            while let Some(u) = waiting.remove(&next) {
                out(u)?;
                next += 1;
                let _ = ticket_back.recv();
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_come_in_the_order_of_the_items_whatever_the_workers_take() {
        for workers in [1, 2, 7] {
            let mut got = Vec::new();
            let r: Result<(), ()> = map(
                0..500u64,
                workers,
                8,
                |i| {
                    // Later items are quicker: the workers finish out of order.
                    std::thread::sleep(std::time::Duration::from_micros(500 - i));
                    i * 2
                },
                |u| {
                    got.push(u);
                    Ok(())
                },
            );
            assert!(r.is_ok());
            assert_eq!(got, (0..500).map(|i| i * 2).collect::<Vec<_>>(), "{workers} workers");
        }
    }

    #[test]
    fn no_more_than_the_window_is_in_flight_and_an_error_stops_the_stream() {
        let pulled = AtomicUsize::new(0);
        let items = (0..10_000).inspect(|_| {
            pulled.fetch_add(1, Ordering::SeqCst);
        });
        let mut handed = 0;
        let r = map(
            items,
            2,
            4,
            |i| i,
            |i| {
                handed += 1;
                // Slow to take results: the feeder must wait for tickets.
                std::thread::sleep(std::time::Duration::from_micros(200));
                if i == 99 {
                    Err("stop")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(r, Err("stop"));
        assert_eq!(handed, 100);
        // 100 handed on, at most the window in flight, one pulled and waiting for a ticket.
        let pulled = pulled.load(Ordering::SeqCst);
        assert!(pulled <= 100 + 4 + 1, "pulled {pulled}");
    }
}
