//! The in-process timer: runs the charge batch every `interval` (daily by default), so no external cron is
//! needed. The first run is one interval after start; the cron routes run the same batch on demand, and
//! overlapping runs are safe (each (subscription, period) is claimed once).

use std::time::Duration;

use crate::services::recurring::RecurringService;
use crate::services::worker::WorkerHandle;

pub(crate) fn start_scheduler(service: RecurringService, interval: Duration) -> WorkerHandle {
    WorkerHandle::spawn(move |mut stopped| async move {
        let period = interval.max(Duration::from_secs(1));
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                _ = ticks.tick() => {}
            }
            let run = tokio::select! {
                _ = &mut stopped => break,
                run = service.run_batch() => run,
            };
            match run {
                Ok(report) => tracing::info!(
                    processed = report.processed,
                    succeeded = report.succeeded,
                    failed = report.failed,
                    duration_ms = report.duration_ms,
                    "subscription batch ran"
                ),
                Err(error) => tracing::warn!(%error, "subscription batch did not run"),
            }
        }
    })
}
