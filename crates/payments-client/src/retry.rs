//! Retries: which failures are worth another attempt, and how long to wait before it.
//!
//! Modelled on async-stripe's `RequestStrategy::ExponentialBackoff`: off by default; when on, a request is
//! repeated only when repeating it cannot do the work twice — a `GET`, or a write carrying an
//! `Idempotency-Key` (the service replays the first answer of a key instead of running it again).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rand::Rng as _;

use crate::error::Error;

/// How the client retries failed requests. Off by default ([`RetryPolicy::OFF`]).
///
/// When on, a `GET`, or a create sent with an idempotency key (the client makes one per call when the
/// caller gave none: [`crate::CreateOrder::idempotency_key`]), is tried again after:
/// - a transport failure (connection refused or reset, timeout);
/// - 429 `rate_limited`: waiting until the answer's `resetAt` (else `Retry-After`, else the backoff);
/// - 503 (`datastore_unavailable`, or a proxy's): waiting `Retry-After`, else the backoff;
/// - 502 and 504 from a proxy in front of the service: waiting the backoff.
///
/// The backoff doubles from [`RetryPolicy::initial_backoff`] up to [`RetryPolicy::max_backoff`], with
/// jitter (half fixed, half random) so that many clients do not come back at the same instant. A wait the
/// server names (`resetAt`, `Retry-After`) longer than [`RetryPolicy::max_wait`] is not waited for: the
/// error is returned at once. Other answers (400s, 401, 403, 404, 409 `idempotency_conflict`, 500) are
/// returned at once: repeating them cannot succeed. Writes without a key (inventory upserts, status posts,
/// admin writes other than refunds) are never retried.
///
/// ```
/// use std::time::Duration;
/// use payments_client::{Client, RetryPolicy};
///
/// let client = Client::builder("http://127.0.0.1:8080")
///     .subscription_key("sk_test_123")
///     .retries(RetryPolicy::exponential(3).max_wait(Duration::from_secs(30)))
///     .build()?;
/// # Ok::<(), payments_client::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Retries after the first attempt; 0 disables retrying.
    pub max_retries: u32,
    /// The first backoff; each further one doubles.
    pub initial_backoff: Duration,
    /// The cap of one backoff.
    pub max_backoff: Duration,
    /// The longest wait the server may name (`resetAt`, `Retry-After`) that the client accepts.
    pub max_wait: Duration,
}

impl RetryPolicy {
    /// No retries (the default): every request is sent once.
    pub const OFF: RetryPolicy = RetryPolicy {
        max_retries: 0,
        initial_backoff: Duration::ZERO,
        max_backoff: Duration::ZERO,
        max_wait: Duration::ZERO,
    };

    /// Up to `max_retries` retries, backing off from 500 ms doubling to at most 8 s, and waiting at most
    /// 60 s for a time the server names.
    pub const fn exponential(max_retries: u32) -> Self {
        RetryPolicy {
            max_retries,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
            max_wait: Duration::from_secs(60),
        }
    }

    /// Sets the first backoff and the cap of one backoff.
    #[must_use]
    pub const fn backoff(mut self, initial: Duration, max: Duration) -> Self {
        self.initial_backoff = initial;
        self.max_backoff = max;
        self
    }

    /// Sets the longest server-named wait accepted.
    #[must_use]
    pub const fn max_wait(mut self, max_wait: Duration) -> Self {
        self.max_wait = max_wait;
        self
    }

    /// Whether any retry can happen.
    pub const fn is_enabled(&self) -> bool {
        self.max_retries > 0
    }

    /// How long to wait before retry number `retry` (0-based) of a request that failed with `error`;
    /// `None` when it must not be retried.
    pub(crate) fn delay(&self, retry: u32, error: &Error) -> Option<Duration> {
        if retry >= self.max_retries {
            return None;
        }
        let named = |wait: Option<Duration>| match wait {
            Some(wait) if wait > self.max_wait => None,
            Some(wait) => Some(wait),
            None => Some(self.backoff_for(retry)),
        };
        match error {
            Error::Transport { .. } => Some(self.backoff_for(retry)),
            Error::Api(api) => match api.status {
                429 => named(api.reset_at.map(until).or(api.retry_after)),
                503 => named(api.retry_after),
                502 | 504 => Some(self.backoff_for(retry)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The jittered exponential backoff of retry number `retry`: between half and all of
    /// `initial * 2^retry`, capped at `max_backoff`.
    fn backoff_for(&self, retry: u32) -> Duration {
        let full = self
            .initial_backoff
            .saturating_mul(2u32.saturating_pow(retry))
            .min(self.max_backoff);
        let half = full / 2;
        let jitter_ms = u64::try_from(half.as_millis()).unwrap_or(u64::MAX);
        half + Duration::from_millis(rand::rng().random_range(0..=jitter_ms))
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy::OFF
    }
}

/// Time until `reset_at` (Unix ms); zero when it has passed.
fn until(reset_at: u64) -> Duration {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    Duration::from_millis(reset_at).saturating_sub(now)
}

/// A new idempotency key for one logical call, reused by all its attempts.
pub(crate) fn new_idempotency_key() -> String {
    format!("pc-{}", uuid::Uuid::new_v4())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use super::RetryPolicy;
    use crate::error::{ApiError, Error};
    use crate::or_unknown::OrUnknown;

    fn refused(status: u16, reset_at: Option<u64>, retry_after: Option<Duration>) -> Error {
        Error::from(ApiError {
            status,
            code: OrUnknown::Unknown("scripted".to_owned()),
            message: String::new(),
            field: None,
            reset_at,
            retry_after,
            correlation_id: None,
        })
    }

    fn in_ms(wait: Duration) -> u64 {
        let at = SystemTime::now().duration_since(UNIX_EPOCH).unwrap() + wait;
        u64::try_from(at.as_millis()).unwrap()
    }

    #[test]
    fn a_429_waits_until_reset_at_when_that_is_within_max_wait() {
        let policy = RetryPolicy::exponential(3).max_wait(Duration::from_secs(60));
        let error = refused(
            429,
            Some(in_ms(Duration::from_secs(20))),
            Some(Duration::from_secs(1)),
        );

        let wait = policy.delay(0, &error).unwrap();

        assert!(
            wait > Duration::from_secs(18) && wait <= Duration::from_secs(20),
            "{wait:?}"
        );
        let far = refused(429, Some(in_ms(Duration::from_secs(120))), None);
        assert_eq!(policy.delay(0, &far), None);
    }

    #[test]
    fn a_503_waits_retry_after_and_the_retries_run_out() {
        let policy = RetryPolicy::exponential(2);
        let error = refused(503, None, Some(Duration::from_secs(5)));

        assert_eq!(policy.delay(0, &error), Some(Duration::from_secs(5)));
        assert_eq!(policy.delay(1, &error), Some(Duration::from_secs(5)));
        assert_eq!(policy.delay(2, &error), None);
        assert_eq!(RetryPolicy::OFF.delay(0, &error), None);
    }

    #[test]
    fn client_errors_and_500s_are_not_retried() {
        let policy = RetryPolicy::exponential(3);
        for status in [400, 401, 403, 404, 409, 500] {
            assert_eq!(policy.delay(0, &refused(status, None, None)), None, "{status}");
        }
    }

    #[test]
    fn the_backoff_doubles_with_jitter_and_stops_at_the_cap() {
        let policy =
            RetryPolicy::exponential(10).backoff(Duration::from_millis(100), Duration::from_millis(350));
        for (retry, full) in [(0, 100), (1, 200), (2, 350), (5, 350)] {
            let delay = policy.backoff_for(retry);
            let full = Duration::from_millis(full);
            assert!(delay >= full / 2 && delay <= full, "retry {retry}: {delay:?}");
        }
    }

    #[test]
    fn generated_keys_differ_and_fit_the_header_rules() {
        let (one, two) = (super::new_idempotency_key(), super::new_idempotency_key());
        assert_ne!(one, two);
        assert!(
            one.len() <= 255 && one.bytes().all(|b| b.is_ascii_graphic()),
            "{one}"
        );
    }
}
