//! The chain workers: the deposit watcher (payments become `paid`) and settlement (paid receipts become
//! `completed`), run one after the other in one background loop per server.

mod finality;
pub(crate) mod settlement;
pub(crate) mod watcher;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::services::worker::WorkerHandle;
use settlement::Settlement;
use watcher::DepositWatcher;

/// What the loop runs and how often.
#[derive(Debug, Clone)]
pub(crate) struct ChainWorkers {
    pub(crate) watcher: DepositWatcher,
    /// `None` without a relayer (a read-only RPC chain): paid receipts wait for a server that can settle.
    pub(crate) settlement: Option<Settlement>,
    /// Pause between passes once caught up (roughly a block time).
    pub(crate) poll: Duration,
    /// Signalled to run a pass now (a simulated payment, a verified `checkout_success`).
    pub(crate) wakeup: Arc<Notify>,
}

impl ChainWorkers {
    /// One watcher pass then one settlement pass; errors are logged and the next pass retries.
    pub(crate) async fn run_once(&self) -> bool {
        let caught_up = match self.watcher.pass().await {
            Ok(pass) => {
                if pass.transfers > 0 || pass.paid > 0 || pass.removed > 0 {
                    tracing::info!(
                        blocks = pass.blocks,
                        transfers = pass.transfers,
                        paid = pass.paid,
                        removed = pass.removed,
                        "deposit watcher pass"
                    );
                }
                pass.caught_up
            }
            Err(error) => {
                tracing::warn!(error = %error, "deposit watcher pass failed; retrying");
                true
            }
        };
        // After the watcher: a payment confirmed in this pass is paid, not expired.
        match self.watcher.receipts.expire_ended_windows().await {
            Ok(0) => {}
            Ok(expired) => tracing::info!(expired, "payment windows closed"),
            Err(error) => tracing::warn!(error = %error, "payment window pass failed; retrying"),
        }
        match self.watcher.receipts.confirm_pending_refunds().await {
            Ok(0) => {}
            Ok(confirmed) => tracing::info!(confirmed, "refunds confirmed on chain"),
            Err(error) => tracing::warn!(error = %error, "refund confirmation pass failed; retrying"),
        }
        if let Some(settlement) = &self.settlement {
            match settlement.pass().await {
                Ok(0) => {}
                Ok(completed) => tracing::info!(completed, "settlement pass"),
                Err(error) => tracing::warn!(error = %error, "settlement pass failed; retrying"),
            }
        }
        caught_up
    }
}

/// Starts the loop; it stops with the returned handle.
pub(crate) fn start_chain_workers(workers: ChainWorkers) -> WorkerHandle {
    WorkerHandle::spawn(|mut stopped| async move {
        loop {
            let caught_up = tokio::select! {
                _ = &mut stopped => break,
                caught_up = workers.run_once() => caught_up,
            };
            if caught_up {
                tokio::select! {
                    _ = &mut stopped => break,
                    () = workers.wakeup.notified() => {}
                    () = tokio::time::sleep(workers.poll) => {}
                }
            }
        }
    })
}
