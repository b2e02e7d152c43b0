//! Bounded retries of whole transactions after transient failures (serialization failures, deadlocks,
//! lock timeouts, lost races), with a short jittered backoff so racing instances do not collide again.

use std::time::Duration;

use crate::postgres::error::PgError;
use crate::{StoreError, TxError};

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

/// What to do after one attempt of a use-case transaction.
pub(super) enum Next<T, E> {
    /// Answer the caller with this.
    Answer(Result<T, TxError<E>>),
    /// Pause this long, then attempt again.
    Retry(Duration),
}

/// Settles attempt number `attempt` (0-based) of a use-case transaction; `decided`: its `FnOnce` decision
/// already ran, so a transient failure can no longer be cured by another attempt.
pub(super) fn settle<T, E>(outcome: Result<T, Failed<E>>, attempt: u32, decided: bool) -> Next<T, E> {
    match outcome {
        Ok(value) => Next::Answer(Ok(value)),
        Err(Failed::Refused(error)) => Next::Answer(Err(TxError::Refused(error))),
        Err(Failed::Conflict) => Next::Answer(Err(TxError::IdempotencyConflict)),
        Err(Failed::Busy(why)) => Next::Answer(Err(TxError::Store(StoreError::Busy(why)))),
        Err(Failed::Db(error)) => match pause_after(error, attempt, decided) {
            Ok(pause) => Next::Retry(pause),
            Err(error) => Next::Answer(Err(TxError::Store(error))),
        },
    }
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
