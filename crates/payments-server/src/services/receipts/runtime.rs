//! Receipt machinery held by the app: the master key and the dispatcher's wake-up.

use std::sync::Arc;

use tokio::sync::Notify;

use crate::config::ServerConfig;
use crate::master_key::MasterKey;

#[derive(Debug)]
pub(crate) struct ReceiptRuntime {
    /// `None` when production runs without `--master-key` (receipts cannot store signing keys then).
    pub(crate) master_key: Option<MasterKey>,
    /// Signalled after a commit that enqueued a webhook, so delivery does not wait for the next poll.
    pub(crate) wakeup: Arc<Notify>,
}

impl ReceiptRuntime {
    pub(crate) fn new(config: &ServerConfig) -> Self {
        let master_key = match &config.master_key {
            Some(key) => Some(key.clone()),
            None if config.dev_mode => {
                let path = MasterKey::dev_file_for(&config.db_path);
                match MasterKey::load_or_create(&path) {
                    Ok(key) => Some(key),
                    Err(error) => {
                        tracing::error!(error = %error, "no master key: receipts cannot store signing keys");
                        None
                    }
                }
            }
            None => None,
        };
        ReceiptRuntime {
            master_key,
            wakeup: Arc::new(Notify::new()),
        }
    }
}
