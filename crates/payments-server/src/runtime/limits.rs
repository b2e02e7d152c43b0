//! Resource limits of the HTTP edge: how many connections, how long a client may take to send its headers or
//! its body, how long one request may take in all, and how large a JSON body may be. Without them a few
//! hundred connections that send headers and then nothing hold file descriptors and memory forever.

use std::time::Duration;

/// Connections served at once when not configured; more are answered 503 `overloaded` and closed. The cap is
/// lowered at start when the open-file limit could not hold it (see [`connection_cap`]).
pub const DEFAULT_MAX_CONNECTIONS: usize = 4096;
/// Time allowed for a request's headers when not configured. hyper starts this timer whenever the connection
/// waits for a request, so it is also the idle limit of a keep-alive connection.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// Time allowed for a whole request body when not configured (a 8 MiB product at 300 KiB/s).
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Time allowed for one request, body and handling included, when not configured.
pub const DEFAULT_REQUEST_DEADLINE: Duration = Duration::from_secs(60);
/// Largest body of a JSON route other than `POST /api/inventory` when not configured. The largest legitimate
/// one is a receipt with a few hundred line items and its metadata, well under this.
pub const DEFAULT_MAX_JSON_BODY_BYTES: usize = 256 * 1024;

/// File descriptors kept out of the connection cap: the listener, the database pool and its WAL/SHM files,
/// webhook connections, logs, and the short-lived sockets that carry the 503 overload answer.
const RESERVED_FDS: u64 = 256;

/// Connection, timeout and body limits; `Default` gives the documented defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// Connections served at once.
    pub max_connections: usize,
    /// Time to receive a request's headers; also the idle limit of a keep-alive connection.
    pub header_timeout: Duration,
    /// Time to receive a request's whole body (408 `body_timeout` after it).
    pub body_timeout: Duration,
    /// Time for one request in all, body included (503 `deadline_exceeded` after it).
    pub request_deadline: Duration,
    /// Largest body of the JSON routes other than `POST /api/inventory` (413 `payload_too_large` above it).
    pub max_json_body_bytes: usize,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            request_deadline: DEFAULT_REQUEST_DEADLINE,
            max_json_body_bytes: DEFAULT_MAX_JSON_BODY_BYTES,
        }
    }
}

/// Raises the soft open-file limit to the hard limit, where the system allows it, and returns the soft limit
/// in force afterwards (`None` where it cannot be read). Each connection costs one descriptor; the common
/// default soft limit of 1024 would run out before the default connection cap.
pub fn raise_open_file_limit() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => Some(limit),
        Err(error) => {
            tracing::warn!(error = %error, "cannot raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE)
                .ok()
                .map(|(soft, _)| soft)
        }
    }
}

/// The connection cap in force: the configured one, lowered so that connections can never take the
/// descriptors the server needs for everything else (`open_files` is the soft open-file limit).
pub(crate) fn connection_cap(configured: usize, open_files: Option<u64>) -> usize {
    let Some(open_files) = open_files else {
        return configured.max(1);
    };
    let room = usize::try_from(open_files.saturating_sub(RESERVED_FDS)).unwrap_or(usize::MAX);
    configured.min(room).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_cap_leaves_descriptors_for_the_rest_of_the_server() {
        assert_eq!(connection_cap(4096, Some(1024)), 768);
        assert_eq!(connection_cap(4096, Some(1_048_576)), 4096);
        assert_eq!(connection_cap(4096, None), 4096);
        assert_eq!(connection_cap(4096, Some(10)), 1);
        assert_eq!(connection_cap(0, Some(1_048_576)), 1);
    }
}
