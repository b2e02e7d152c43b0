//! Failures inside one attempt of a PostgreSQL operation, which of them a new attempt can cure, and how
//! they reach the services as [`StoreError`]. No message here ever carries the connection password:
//! `tokio-postgres` and `deadpool` errors name hosts and SQLSTATEs, never the connection string.

use std::fmt::Display;

use deadpool_postgres::PoolError;
use tokio_postgres::error::SqlState;

use crate::StoreError;

/// Why one attempt failed.
#[derive(Debug)]
pub(super) enum PgError {
    /// The server answered with an error, or the connection broke.
    Db(tokio_postgres::Error),
    /// No connection could be had from the pool (timed out, or the server refused new ones).
    Pool(PoolError),
    /// A stored value does not decode into its domain type.
    Corrupt(String),
    /// Another transaction won a race that this one only learns about by starting again: a row it meant to
    /// create appeared, or a row it waited for went away. The next attempt sees the winner's result.
    Contended(&'static str),
    /// The commit of a transaction shared with other requests failed (see [`super::batches`]): the
    /// connection may have broken after the server committed, so whether this request's rows were written
    /// is not known.
    Lost(String),
}

impl From<tokio_postgres::Error> for PgError {
    fn from(error: tokio_postgres::Error) -> Self {
        PgError::Db(error)
    }
}

impl From<PoolError> for PgError {
    fn from(error: PoolError) -> Self {
        PgError::Pool(error)
    }
}

/// SQLSTATEs after which running the whole transaction again may succeed: serialization_failure,
/// deadlock_detected and lock_not_available (our `lock_timeout` ran out).
const TRANSIENT: [SqlState; 3] = [
    SqlState::T_R_SERIALIZATION_FAILURE,
    SqlState::T_R_DEADLOCK_DETECTED,
    SqlState::LOCK_NOT_AVAILABLE,
];

/// SQLSTATEs that mean the server is not serving us (rather than refusing this statement).
const UNAVAILABLE: [SqlState; 5] = [
    SqlState::ADMIN_SHUTDOWN,
    SqlState::CRASH_SHUTDOWN,
    SqlState::CANNOT_CONNECT_NOW,
    SqlState::TOO_MANY_CONNECTIONS,
    SqlState::READ_ONLY_SQL_TRANSACTION,
];

impl PgError {
    /// A stored value that does not decode.
    pub(super) fn corrupt(what: impl Display, error: impl Display) -> Self {
        PgError::Corrupt(format!("{what}: {error}"))
    }

    /// Whether a new attempt of the whole transaction may succeed.
    pub(super) fn is_transient(&self) -> bool {
        match self {
            PgError::Db(error) => error.code().is_some_and(|code| TRANSIENT.contains(code)),
            PgError::Contended(_) => true,
            PgError::Pool(_) | PgError::Corrupt(_) | PgError::Lost(_) => false,
        }
    }

    /// The failure as the services see it.
    pub(super) fn into_store(self) -> StoreError {
        let transient = self.is_transient();
        match self {
            PgError::Pool(error) => StoreError::Unavailable(error.to_string()),
            PgError::Corrupt(message) => StoreError::Corrupt(message),
            PgError::Contended(what) => StoreError::Busy(what.to_owned()),
            PgError::Lost(why) => StoreError::Unavailable(format!("the commit did not complete: {why}")),
            PgError::Db(error) if transient || out_of_time(&error) => StoreError::Busy(error.to_string()),
            PgError::Db(error) if connection_lost(&error) => StoreError::Unavailable(error.to_string()),
            PgError::Db(error) => StoreError::Query(Box::new(error)),
        }
    }
}

/// The connection broke or the server is going away: class 08 (connection exception), shutdowns,
/// or an I/O failure without any SQLSTATE.
fn connection_lost(error: &tokio_postgres::Error) -> bool {
    match error.code() {
        Some(code) => code.code().starts_with("08") || UNAVAILABLE.contains(code),
        None => {
            error.is_closed()
                || std::error::Error::source(error).is_some_and(|source| source.is::<std::io::Error>())
        }
    }
}

/// Maps a unique violation (another transaction created the same row first) to [`PgError::Contended`], so
/// the operation runs again and takes the path a serialized writer would have taken.
pub(super) fn contended_on_unique(error: PgError, what: &'static str) -> PgError {
    match &error {
        PgError::Db(db) if db.code() == Some(&SqlState::UNIQUE_VIOLATION) => PgError::Contended(what),
        _ => error,
    }
}

/// A statement cancelled by its `statement_timeout` (a listing over its time budget): the request is
/// answered busy, and not retried (the next attempt would run over too).
fn out_of_time(error: &tokio_postgres::Error) -> bool {
    error.code() == Some(&SqlState::QUERY_CANCELED)
}
