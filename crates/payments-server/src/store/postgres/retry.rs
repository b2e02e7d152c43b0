//! Bounded retries of whole transactions after transient failures (serialization failures, deadlocks,
//! lock timeouts, lost races), with a short jittered backoff so racing instances do not collide again.

use std::time::Duration;

use crate::store::StoreError;
use crate::store::postgres::error::PgError;

/// Attempts of one operation before it answers [`StoreError::Busy`].
pub(super) const MAX_ATTEMPTS: u32 = 5;
const BASE_BACKOFF_MS: u64 = 5;
const MAX_JITTER_MS: u64 = 10;

/// After failed attempt number `attempt` (0-based): how long to pause before the next one, or the error to
/// answer with. `decided`: the service's decision already ran (it is `FnOnce`), so no new attempt can be made.
pub(super) fn pause_after(error: PgError, attempt: u32, decided: bool) -> Result<Duration, StoreError> {
    if !error.is_transient() {
        return Err(error.into_store());
    }
    if decided || attempt + 1 >= MAX_ATTEMPTS {
        let store = error.into_store();
        return Err(match store {
            StoreError::Busy(_) => store,
            other => StoreError::Busy(other.to_string()),
        });
    }
    let backoff = BASE_BACKOFF_MS << attempt.min(6);
    let jitter = rand::random_range(0..=MAX_JITTER_MS);
    Ok(Duration::from_millis(backoff + jitter))
}

/// What ended one attempt of a use-case transaction ([`super::sale`], [`super::transition`]).
#[derive(Debug)]
pub(super) enum Failed<E> {
    /// The decision (or a constraint it ran into) refused: rolled back, answered as is.
    Refused(E),
    /// The idempotency key was used with another request body.
    Conflict,
    /// Stop without a new attempt (an idempotency claim still in progress).
    Busy(String),
    /// The database failed; a new attempt may cure it if the decision has not run yet.
    Db(PgError),
}

impl<E> From<PgError> for Failed<E> {
    fn from(error: PgError) -> Self {
        Failed::Db(error)
    }
}

impl<E> From<tokio_postgres::Error> for Failed<E> {
    fn from(error: tokio_postgres::Error) -> Self {
        Failed::Db(PgError::Db(error))
    }
}
