//! Where the backends report how long their operations take. The store knows no metrics library: the
//! application attaches a [`StoreObserver`] once it exists (the store is opened first); until then, and in
//! tests of the store alone, nothing is reported.

use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Receives the time of every store operation.
pub trait StoreObserver: Send + Sync + fmt::Debug {
    /// `backend` is `sqlite` or `postgres`; `kind` is `read` or `write` on SQLite, `query`, `sale` or
    /// `transition` on PostgreSQL.
    fn operation(&self, backend: &'static str, kind: &'static str, elapsed: Duration);
}

/// Shared by a backend and the [`Repositories`](crate::Repositories) built over it.
#[derive(Debug, Clone, Default)]
pub struct StoreTiming {
    observer: Arc<OnceLock<Arc<dyn StoreObserver>>>,
}

impl StoreTiming {
    /// Reports to `observer` from now on (a second call is ignored: one app per store).
    pub fn attach(&self, observer: Arc<dyn StoreObserver>) {
        self.observer.set(observer).ok();
    }

    pub(crate) fn record(&self, backend: &'static str, kind: &'static str, elapsed: Duration) {
        if let Some(observer) = self.observer.get() {
            observer.operation(backend, kind, elapsed);
        }
    }

    /// Runs `operation` and records its time, whatever its outcome.
    pub(crate) async fn time<T>(
        &self,
        backend: &'static str,
        kind: &'static str,
        operation: impl Future<Output = T>,
    ) -> T {
        let started = Instant::now();
        let outcome = operation.await;
        self.record(backend, kind, started.elapsed());
        outcome
    }
}
