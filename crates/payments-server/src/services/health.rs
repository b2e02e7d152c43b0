//! Liveness of the server and its datastore.

use crate::app::AppState;
use crate::store;

/// Whether the datastore answers a trivial read. The failure itself is logged here because the health route
/// still answers 200 (degraded) and so renders no error that would log it.
pub(crate) async fn datastore_available(state: &AppState) -> bool {
    match store::blocking(&state.store, |store| store.check_health()).await {
        Ok(()) => true,
        Err(error) => {
            tracing::warn!(error = %error, "datastore health check failed");
            false
        }
    }
}
