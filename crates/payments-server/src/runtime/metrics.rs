//! Prometheus metrics, rendered by `GET /metrics` (docs/operations.md lists them).
//!
//! Each [`App`](crate::App) has its own recorder, not a process-wide one: a library (and every test app in one
//! process) keeps its own counts. Metrics are recorded through [`metrics::with_local_recorder`] on the
//! calling thread, so the usual macros name them.

use std::fmt;
use std::time::Duration;

use metrics::{SharedString, counter, gauge, histogram, with_local_recorder};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

use crate::store::{OutboxDepth, StoreObserver};

/// Upper bounds (seconds) of the latency histograms: 0.5 ms to 10 s, about x2.5 apart.
const LATENCY_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// How often histogram samples are folded into their buckets when nobody scrapes (without it they would
/// pile up between scrapes).
pub(crate) const UPKEEP_INTERVAL: Duration = Duration::from_secs(5);

/// How a webhook attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttemptOutcome {
    Delivered,
    /// Failed; another attempt is scheduled.
    Retrying,
    /// Failed; the delivery gave up.
    Failed,
}

impl AttemptOutcome {
    fn label(self) -> &'static str {
        match self {
            AttemptOutcome::Delivered => "delivered",
            AttemptOutcome::Retrying => "retrying",
            AttemptOutcome::Failed => "failed",
        }
    }
}

/// The app's metrics registry.
pub(crate) struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
}

impl fmt::Debug for Metrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub(crate) fn new() -> Self {
        // Only an empty bucket list is refused; without buckets histograms render as summaries.
        let builder = PrometheusBuilder::new()
            .set_buckets(LATENCY_BUCKETS)
            .unwrap_or_else(|_| PrometheusBuilder::new());
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        Metrics { recorder, handle }
    }

    /// One answered request. `route` is the route's pattern (`/api/receipts/{id}`), never the raw path, so
    /// ids do not multiply the series.
    pub(crate) fn request(&self, method: &'static str, route: &'static str, status: u16, elapsed: Duration) {
        with_local_recorder(&self.recorder, || {
            // Borrowed labels: no allocation per request for the method, route and the usual statuses.
            let labels = [
                ("method", SharedString::const_str(method)),
                ("route", SharedString::const_str(route)),
                ("status", status_label(status)),
            ];
            counter!("payments_http_requests_total", &labels).increment(1);
            histogram!("payments_http_request_duration_seconds", &labels).record(elapsed.as_secs_f64());
        });
    }

    /// One webhook attempt and how it ended.
    pub(crate) fn webhook_attempt(&self, outcome: AttemptOutcome, elapsed: Duration) {
        with_local_recorder(&self.recorder, || {
            counter!("payments_webhook_attempts_total", "outcome" => outcome.label()).increment(1);
            histogram!("payments_webhook_attempt_duration_seconds").record(elapsed.as_secs_f64());
        });
    }

    /// The outbox's depth, read when the metrics are rendered.
    pub(crate) fn webhook_queue(&self, depth: OutboxDepth) {
        with_local_recorder(&self.recorder, || {
            gauge!("payments_webhook_queue_depth").set(depth.pending as f64);
            gauge!("payments_webhook_in_flight").set(depth.in_flight as f64);
        });
    }

    /// Folds histogram samples into their buckets.
    pub(crate) fn run_upkeep(&self) {
        self.handle.run_upkeep();
    }

    /// The Prometheus text exposition format (version 0.0.4).
    pub(crate) fn render(&self) -> String {
        self.handle.render()
    }
}

/// Statuses this server answers, as label text that needs no allocation.
const KNOWN_STATUSES: [(u16, &str); 21] = [
    (200, "200"),
    (201, "201"),
    (204, "204"),
    (304, "304"),
    (400, "400"),
    (401, "401"),
    (403, "403"),
    (404, "404"),
    (405, "405"),
    (408, "408"),
    (409, "409"),
    (410, "410"),
    (413, "413"),
    (415, "415"),
    (422, "422"),
    (429, "429"),
    (431, "431"),
    (500, "500"),
    (502, "502"),
    (503, "503"),
    (504, "504"),
];

fn status_label(status: u16) -> SharedString {
    KNOWN_STATUSES
        .iter()
        .find(|(code, _)| *code == status)
        .map_or_else(
            || SharedString::from(status.to_string()),
            |(_, text)| SharedString::const_str(text),
        )
}

/// The store reports the time of each of its operations here, once the app attached these metrics.
impl StoreObserver for Metrics {
    /// One datastore operation of `backend` (`sqlite`, `postgres`); `kind` is `read` or `write` on SQLite,
    /// `query`, `sale` or `transition` on PostgreSQL.
    fn operation(&self, backend: &'static str, kind: &'static str, elapsed: Duration) {
        with_local_recorder(&self.recorder, || {
            histogram!("payments_store_operation_duration_seconds", "backend" => backend, "kind" => kind)
                .record(elapsed.as_secs_f64());
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_method_route_pattern_and_status() {
        let metrics = Metrics::new();

        metrics.request("GET", "/api/receipts/{id}", 404, Duration::from_millis(3));
        metrics.request("GET", "/api/receipts/{id}", 404, Duration::from_millis(30));

        let text = metrics.render();
        assert!(
            text.contains(
                r#"payments_http_requests_total{method="GET",route="/api/receipts/{id}",status="404"} 2"#
            ),
            "{text}"
        );
        assert!(
            text.contains(
                r#"payments_http_request_duration_seconds_bucket{method="GET",route="/api/receipts/{id}",status="404",le="0.005"} 1"#
            ),
            "{text}"
        );
    }

    #[test]
    fn a_status_outside_the_usual_ones_is_counted_under_its_own_number() {
        let metrics = Metrics::new();

        metrics.request("POST", "/api/orders", 201, Duration::from_millis(1));
        metrics.request("POST", "/api/orders", 418, Duration::from_millis(1));
        metrics.request("POST", "/api/orders", 418, Duration::from_millis(1));

        let text = metrics.render();
        for line in [
            r#"payments_http_requests_total{method="POST",route="/api/orders",status="201"} 1"#,
            r#"payments_http_requests_total{method="POST",route="/api/orders",status="418"} 2"#,
        ] {
            assert!(text.contains(line), "{line} missing from {text}");
        }
    }

    #[test]
    fn two_registries_do_not_share_counts() {
        let (first, second) = (Metrics::new(), Metrics::new());

        first.webhook_attempt(AttemptOutcome::Failed, Duration::from_millis(1));

        assert!(
            first
                .render()
                .contains(r#"payments_webhook_attempts_total{outcome="failed"} 1"#)
        );
        assert!(!second.render().contains("payments_webhook_attempts_total"));
    }
}
