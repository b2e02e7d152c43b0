//! Liveness of the server and its datastore.

use std::sync::Arc;

use crate::store::HealthRepository;

/// Answers whether the datastore serves a trivial read.
#[derive(Debug, Clone)]
pub(crate) struct HealthService {
    pub(crate) health: Arc<dyn HealthRepository>,
}

impl HealthService {
    /// Whether the datastore answers a trivial read. The failure itself is logged here because the health
    /// route still answers 200 (degraded) and so renders no error that would log it.
    pub(crate) async fn datastore_available(&self) -> bool {
        match self.health.check_health().await {
            Ok(()) => true,
            Err(error) => {
                tracing::warn!(error = %error, "datastore health check failed");
                false
            }
        }
    }
}
