//! Rate limits (GCRA via `governor`), driven by the app's [`Clock`] so tests move time instead of sleeping.
//! Dev callers are counted per subscription key and admin callers per signed-in wallet ([`RateKey`]); the
//! unauthenticated sign-in routes per client address, under their own, smaller quota.
//!
//! Headers on Dev responses: `X-RateLimit-Limit` (requests per minute), `X-RateLimit-Remaining` (requests
//! that may follow right now) and `X-RateLimit-Reset` (Unix ms when the full quota is available again; on a
//! 429, when the next request is allowed, the same instant as the body's `resetAt`).

use std::fmt;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use governor::clock::Clock as GovernorClockTrait;
use governor::middleware::StateInformationMiddleware;
use governor::nanos::Nanos;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};
use hyper::HeaderMap;
use hyper::header::{HeaderName, HeaderValue};
use payments_core::Wallet;

use crate::domain::api_key::SubscriptionId;
use crate::runtime::clock::Clock;

const NANOS_PER_MS: u64 = 1_000_000;

// Names made once: inserting by `&str` validates and hashes the name text again on every response.
const LIMIT_HEADER: HeaderName = HeaderName::from_static("x-ratelimit-limit");
const REMAINING_HEADER: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
const RESET_HEADER: HeaderName = HeaderName::from_static("x-ratelimit-reset");

/// Adapts the app clock to governor's clock.
#[derive(Debug, Clone)]
struct GovernorClock(Arc<dyn Clock>);

impl GovernorClockTrait for GovernorClock {
    type Instant = Nanos;

    fn now(&self) -> Nanos {
        let ms = u64::try_from(self.0.now_ms()).unwrap_or(0);
        Nanos::new(ms.saturating_mul(NANOS_PER_MS))
    }
}

type KeyedLimiter<K> = RateLimiter<K, HashMapStateStore<K>, GovernorClock, StateInformationMiddleware>;

/// Whose quota a request counts against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum RateKey {
    /// A Dev caller: its subscription key (every key of a merchant has its own quota).
    Subscription(SubscriptionId),
    /// An admin caller: the signed-in wallet, across all of its sessions.
    AdminWallet(Wallet),
}

/// The client address of a sign-in request, put in the request's extensions by the server's accept loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PeerAddr(pub(crate) IpAddr);

/// The quota state reported to a caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RateStatus {
    pub(crate) limit: u32,
    pub(crate) remaining: u32,
    pub(crate) reset_at_ms: i64,
}

impl RateStatus {
    pub(crate) fn write_headers(&self, headers: &mut HeaderMap) {
        headers.insert(LIMIT_HEADER, HeaderValue::from(self.limit));
        headers.insert(REMAINING_HEADER, HeaderValue::from(self.remaining));
        headers.insert(RESET_HEADER, HeaderValue::from(self.reset_at_ms));
    }
}

pub(crate) struct RateLimits<K: Hash + Eq + Clone> {
    limiter: KeyedLimiter<K>,
    clock: Arc<dyn Clock>,
    limit: u32,
    /// Time for one request's worth of quota to come back.
    replenish_ms: i64,
    /// When idle keys were last dropped (so a stream of new source addresses cannot grow the map forever).
    last_prune_ms: AtomicI64,
}

/// How often keys whose quota is whole again (indistinguishable from a new key) are dropped.
const PRUNE_INTERVAL_MS: i64 = 60_000;

impl<K: Hash + Eq + Clone> fmt::Debug for RateLimits<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimits")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl<K: Hash + Eq + Clone> RateLimits<K> {
    pub(crate) fn per_minute(limit: NonZeroU32, clock: Arc<dyn Clock>) -> Self {
        let quota = Quota::per_minute(limit);
        let replenish_ms = i64::try_from(quota.replenish_interval().as_millis()).unwrap_or(i64::MAX);
        let now_ms = clock.now_ms();
        let limiter = RateLimiter::hashmap_with_clock(quota, GovernorClock(Arc::clone(&clock)))
            .with_middleware::<StateInformationMiddleware>();
        RateLimits {
            limiter,
            clock,
            limit: limit.get(),
            replenish_ms,
            last_prune_ms: AtomicI64::new(now_ms),
        }
    }

    /// Counts one request; `Err` carries the status to report with the 429.
    pub(crate) fn check(&self, key: &K) -> Result<RateStatus, RateStatus> {
        let now_ms = self.clock.now_ms();
        self.prune_idle(now_ms);
        match self.limiter.check_key(key) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                let used = i64::from(self.limit.saturating_sub(remaining));
                let reset_at_ms = now_ms.saturating_add(used.saturating_mul(self.replenish_ms));
                Ok(RateStatus {
                    limit: self.limit,
                    remaining,
                    reset_at_ms,
                })
            }
            Err(not_until) => {
                let wait = not_until.wait_time_from(GovernorClock(Arc::clone(&self.clock)).now());
                // Round up: reporting a reset one millisecond early would invite a retry that fails again.
                let wait_ms =
                    i64::try_from(wait.as_nanos().div_ceil(u128::from(NANOS_PER_MS))).unwrap_or(i64::MAX);
                Err(RateStatus {
                    limit: self.limit,
                    remaining: 0,
                    reset_at_ms: now_ms.saturating_add(wait_ms),
                })
            }
        }
    }
}

impl<K: Hash + Eq + Clone> RateLimits<K> {
    /// At most once per [`PRUNE_INTERVAL_MS`]: forgets keys whose quota has fully come back. Forgetting them
    /// changes no answer (a returning key starts with a whole quota either way).
    fn prune_idle(&self, now_ms: i64) {
        let last = self.last_prune_ms.load(Ordering::Relaxed);
        if now_ms.saturating_sub(last) < PRUNE_INTERVAL_MS {
            return;
        }
        if self
            .last_prune_ms
            .compare_exchange(last, now_ms, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
    }

    /// How many keys the limiter currently tracks.
    #[cfg(test)]
    fn tracked_keys(&self) -> usize {
        self.limiter.len()
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;
    use std::time::Duration;

    use super::*;
    use crate::runtime::clock::ManualClock;

    #[test]
    fn idle_source_addresses_are_forgotten_once_their_quota_is_whole_again() {
        let clock = Arc::new(ManualClock::new(1_000_000));
        let limits =
            RateLimits::per_minute(NonZeroU32::new(10).unwrap(), Arc::clone(&clock) as Arc<dyn Clock>);
        for n in 0..5_000u32 {
            let _ = limits.check(&IpAddr::V4(Ipv4Addr::from(n)));
        }
        let tracked_while_busy = limits.tracked_keys();

        clock.advance(Duration::from_millis(2 * PRUNE_INTERVAL_MS as u64));
        let _ = limits.check(&IpAddr::V4(Ipv4Addr::new(203, 0, 113, 7)));

        assert_eq!(tracked_while_busy, 5_000);
        assert!(limits.tracked_keys() <= 1, "{} keys kept", limits.tracked_keys());
    }
}
