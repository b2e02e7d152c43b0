//! Time source injected into the app, so tests move time instead of sleeping.

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Current time as Unix milliseconds.
pub trait Clock: Send + Sync + fmt::Debug {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

/// The real wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX)
    }
}

/// A clock that only moves when told to (tests, test-clock mode).
#[derive(Debug)]
pub struct ManualClock {
    now_ms: AtomicI64,
}

impl ManualClock {
    /// A clock standing at `now_ms`.
    pub fn new(now_ms: i64) -> Self {
        ManualClock {
            now_ms: AtomicI64::new(now_ms),
        }
    }

    /// Moves the clock to `now_ms` (backwards too, to test clock skew).
    pub fn set(&self, now_ms: i64) {
        self.now_ms.store(now_ms, Ordering::SeqCst);
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let by_ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.now_ms
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
                Some(now.saturating_add(by_ms))
            })
            .ok();
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now_ms.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let clock = ManualClock::new(1_000);

        clock.advance(Duration::from_secs(2));

        assert_eq!(clock.now_ms(), 3_000);
        clock.set(10);
        assert_eq!(clock.now_ms(), 10);
    }
}
