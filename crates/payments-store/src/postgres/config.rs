//! Turning a connection URL into the pool's connection settings.
//!
//! TLS follows libpq's `sslmode` and certificate parameters (see [`super::tls`]). `pooler=transaction`
//! says a transaction-pooling proxy (PgBouncer's `pool_mode = transaction`) stands between the store and the
//! server: statements then go unnamed and session settings per transaction (see [`super::connection`]).

use std::time::Duration;

use super::connection::StatementMode;
use super::tls::{TlsParameters, split_parameters, split_tls_parameters};
use crate::StoreError;

/// The URL parameter naming the pooler in front of the server (`pooler=transaction`).
const POOLER_KEY: &str = "pooler";

/// How long a statement waits for a row or table lock before failing with `lock_not_available` (then
/// retried as a whole transaction, see [`super::retry`]).
pub(super) const LOCK_TIMEOUT_MS: u64 = 5_000;
const APPLICATION_NAME: &str = "payments-server";

/// Pool settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PgPoolOptions {
    /// Most connections held at once (each request holds one for its transaction).
    pub(crate) max_size: usize,
    /// How long a request waits for a free connection, or a new one to open, before the datastore
    /// counts as unavailable (503, or a degraded list).
    pub(crate) wait_timeout: Duration,
}

/// The default of [`PgPoolOptions::wait_timeout`]: a stopped or unreachable server is answered 503 within
/// 2 s (the spec's degraded mode), while a new TLS connection to a remote server (a few round trips) still
/// fits.
pub(crate) const CONNECTION_WAIT: Duration = Duration::from_millis(1500);

impl Default for PgPoolOptions {
    fn default() -> Self {
        PgPoolOptions {
            max_size: 16,
            wait_timeout: CONNECTION_WAIT,
        }
    }
}

/// What a connection URL says: the driver's settings, TLS, and how statements must be sent.
#[derive(Debug)]
pub(super) struct ConnectionSettings {
    pub(super) config: tokio_postgres::Config,
    pub(super) tls: TlsParameters,
    pub(super) statements: StatementMode,
}

/// Parses `url` (`postgres://user@host:port/db?...` or `host=... user=...`) into the driver's settings, the
/// TLS parameters and the statement mode, and adds our session settings. The error never repeats the URL
/// (it may hold a password).
pub(super) fn connection_config(url: &str, options: PgPoolOptions) -> Result<ConnectionSettings, StoreError> {
    let (rest, tls) = split_tls_parameters(url)?;
    let (rest, ours) = split_parameters(&rest, &[POOLER_KEY])?;
    let statements = match ours.last().map(|(_, value)| value.as_str()) {
        None | Some("none") => StatementMode::Cached,
        Some("transaction") => StatementMode::Unnamed,
        Some(other) => {
            return Err(StoreError::Unavailable(format!(
                "invalid pooler `{other}` in the PostgreSQL URL: use transaction (PgBouncer's pool_mode = \
                 transaction) or none"
            )));
        }
    };
    let mut config: tokio_postgres::Config = rest
        .parse()
        .map_err(|error| StoreError::Unavailable(format!("invalid PostgreSQL URL: {error}")))?;
    config.ssl_mode(tls.mode.negotiation());
    // A transaction pooler refuses unknown startup parameters (PgBouncer: unless listed in
    // `ignore_startup_parameters`, and then drops them), so there each transaction sets the timeout itself.
    if statements == StatementMode::Cached {
        // Ours first, so a `-c lock_timeout=...` in the URL's own options still wins.
        let session = match config.get_options() {
            Some(theirs) => format!("-c lock_timeout={LOCK_TIMEOUT_MS} {theirs}"),
            None => format!("-c lock_timeout={LOCK_TIMEOUT_MS}"),
        };
        config.options(&session);
    }
    if config.get_application_name().is_none() {
        config.application_name(APPLICATION_NAME);
    }
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(options.wait_timeout);
    }
    Ok(ConnectionSettings {
        config,
        tls,
        statements,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_full_asks_the_driver_to_insist_on_tls() {
        let ConnectionSettings { config, tls, .. } = connection_config(
            "postgres://payments:hunter2@db.internal/payments?sslmode=verify-full",
            PgPoolOptions::default(),
        )
        .unwrap();

        assert_eq!(config.get_ssl_mode(), tokio_postgres::config::SslMode::Require);
        assert_eq!(tls.mode, super::super::tls::TlsMode::VerifyFull);
    }

    #[test]
    fn an_invalid_url_error_does_not_carry_the_password() {
        let error = connection_config(
            "postgres://payments:hunter2@db.internal:notaport/payments",
            PgPoolOptions::default(),
        )
        .unwrap_err();

        assert!(!error.to_string().contains("hunter2"), "{error}");
    }

    #[test]
    fn our_lock_timeout_comes_before_the_urls_own_options() {
        let ConnectionSettings {
            config, statements, ..
        } = connection_config(
            "postgres://postgres@127.0.0.1/test?options=-c%20statement_timeout%3D1000",
            PgPoolOptions::default(),
        )
        .unwrap();

        assert_eq!(statements, StatementMode::Cached);
        assert_eq!(
            config.get_options(),
            Some("-c lock_timeout=5000 -c statement_timeout=1000")
        );
        assert_eq!(config.get_application_name(), Some("payments-server"));
    }

    #[test]
    fn behind_a_transaction_pooler_no_startup_options_are_sent_and_statements_go_unnamed() {
        let ConnectionSettings {
            config, statements, ..
        } = connection_config(
            "postgres://postgres@127.0.0.1:6432/test?pooler=transaction&sslmode=disable",
            PgPoolOptions::default(),
        )
        .unwrap();

        assert_eq!(statements, StatementMode::Unnamed);
        assert_eq!(config.get_options(), None);
        assert_eq!(config.get_dbname(), Some("test"));
    }

    #[test]
    fn an_unknown_pooler_mode_is_refused_by_name() {
        let error = connection_config(
            "host=127.0.0.1 password=hunter2 pooler=session",
            PgPoolOptions::default(),
        )
        .unwrap_err();

        assert!(error.to_string().contains("invalid pooler `session`"), "{error}");
        assert!(!error.to_string().contains("hunter2"), "{error}");
    }
}
