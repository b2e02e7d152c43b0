//! Where the backends report how long their operations take: the app attaches its metrics once it exists
//! (the store is opened first); until then, and in tests of the store alone, nothing is recorded.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::metrics::Metrics;

/// Shared by a backend and the [`Repositories`](crate::store::Repositories) built over it.
#[derive(Debug, Clone, Default)]
pub(crate) struct StoreTiming {
    metrics: Arc<OnceLock<Arc<Metrics>>>,
}

impl StoreTiming {
    /// Records into `metrics` from now on (a second call is ignored: one app per store).
    pub(crate) fn attach(&self, metrics: Arc<Metrics>) {
        self.metrics.set(metrics).ok();
    }

    pub(crate) fn record(&self, backend: &'static str, kind: &'static str, elapsed: Duration) {
        if let Some(metrics) = self.metrics.get() {
            metrics.store_operation(backend, kind, elapsed);
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
