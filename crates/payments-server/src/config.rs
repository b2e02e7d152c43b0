//! Server configuration, built by the binary from flags/env or by tests directly.

use std::num::NonZeroU32;
use std::path::PathBuf;

use url::Url;

use crate::secret::Secret;

/// Request bodies above this are refused with 413 `payload_too_large`. Large enough for a product carrying
/// three 2 MiB images as base64 data URLs (about 2.7 MiB each) plus the rest of its JSON.
pub const DEFAULT_MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// Requests per minute per subscription key when not configured.
pub const DEFAULT_RATE_LIMIT_PER_MINUTE: NonZeroU32 = match NonZeroU32::new(600) {
    Some(limit) => limit,
    None => NonZeroU32::MIN,
};

/// Everything `App` needs to know that is not a collaborator (store, clock).
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// SQLite database file; created with its schema when missing.
    pub db_path: PathBuf,
    /// Public base address used to build payment links.
    pub base_url: Url,
    /// Development mode: allows the development merchant bootstrap (and, later, HTTP webhook targets).
    pub dev_mode: bool,
    /// Quota per subscription key: this many requests per minute, replenished continuously.
    pub rate_limit_per_minute: NonZeroU32,
    /// When set, `x-edge-secret` plus `x-subscription-id` identify a caller in place of a key.
    pub edge_secret: Option<Secret>,
    /// Largest accepted request body in bytes.
    pub max_body_bytes: usize,
}

impl ServerConfig {
    /// A configuration with the documented defaults for everything but the database and base URL.
    pub fn new(db_path: impl Into<PathBuf>, base_url: Url) -> Self {
        ServerConfig {
            db_path: db_path.into(),
            base_url,
            dev_mode: false,
            rate_limit_per_minute: DEFAULT_RATE_LIMIT_PER_MINUTE,
            edge_secret: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }
}
