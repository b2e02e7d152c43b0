//! The webhook attempts one dispatcher has in flight: a global pool, and a count per endpoint (URL origin)
//! so that one slow endpoint holds at most [`PER_ENDPOINT`] of the pool and never starves the others.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

/// Attempts in flight at once, across all endpoints.
pub(crate) const POOL: usize = 64;
/// Attempts in flight at once to one endpoint. A receiver that takes its full 5 s timeout then receives at
/// most this many deliveries per 5 s from one server instance; the rest of the pool serves everyone else.
pub(crate) const PER_ENDPOINT: u32 = 4;

/// Shared by the dispatcher loop and its attempt tasks.
#[derive(Debug)]
pub(super) struct InFlight {
    pool: Arc<Semaphore>,
    per_endpoint: Mutex<HashMap<String, u32>>,
    /// Signalled when an attempt ends (its slot may let a waiting delivery go).
    pub(super) finished: Notify,
}

impl InFlight {
    pub(super) fn new(pool: usize) -> Arc<Self> {
        Arc::new(InFlight {
            pool: Arc::new(Semaphore::new(pool)),
            per_endpoint: Mutex::new(HashMap::new()),
            finished: Notify::new(),
        })
    }

    /// Free places in the pool.
    pub(super) fn free(&self) -> usize {
        self.pool.available_permits()
    }

    /// Endpoints with attempts in flight, and how many (what a claim must count against the limit).
    pub(super) fn busy(&self) -> Vec<(String, u32)> {
        self.counts()
            .iter()
            .map(|(endpoint, count)| (endpoint.clone(), *count))
            .collect()
    }

    /// Takes a place in the pool for an attempt to `endpoint`; `None` when the pool is full. The place is
    /// given back when the [`Slot`] drops.
    pub(super) fn start(self: &Arc<Self>, endpoint: String) -> Option<Slot> {
        let permit = Arc::clone(&self.pool).try_acquire_owned().ok()?;
        *self.counts().entry(endpoint.clone()).or_insert(0) += 1;
        Some(Slot {
            _permit: permit,
            endpoint,
            in_flight: Arc::clone(self),
        })
    }

    fn counts(&self) -> MutexGuard<'_, HashMap<String, u32>> {
        // The map holds plain counts: a panic elsewhere cannot leave it half-updated.
        self.per_endpoint.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One attempt's place in the pool and in its endpoint's count.
#[derive(Debug)]
pub(super) struct Slot {
    _permit: OwnedSemaphorePermit,
    endpoint: String,
    in_flight: Arc<InFlight>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.in_flight.counts();
        if let Some(count) = counts.get_mut(&self.endpoint) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&self.endpoint);
            }
        }
        drop(counts);
        self.in_flight.finished.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_count_per_endpoint_and_give_their_place_back() {
        let in_flight = InFlight::new(2);
        let first = in_flight.start("https://a.example".to_owned());
        let second = in_flight.start("https://a.example".to_owned());
        let third = in_flight.start("https://b.example".to_owned());

        assert!(first.is_some() && second.is_some());
        assert!(third.is_none(), "the pool holds two");
        assert_eq!(in_flight.busy(), [("https://a.example".to_owned(), 2)]);
        drop(first);
        assert_eq!(in_flight.free(), 1);
        assert_eq!(in_flight.busy(), [("https://a.example".to_owned(), 1)]);
        drop(second);
        assert!(in_flight.busy().is_empty());
    }
}
