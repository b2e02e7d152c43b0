//! Time source injected into the app, so tests move time instead of sleeping.

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Current time as Unix milliseconds.
pub trait Clock: Send + Sync + fmt::Debug {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;

    /// The test clock (`POST /api/test-clock/advance`): moves this clock forward to `to_ms` and answers the
    /// new time. Only clocks built for it move; they never move back.
    ///
    /// # Errors
    /// [`ClockRefusal::Fixed`] for the wall clock, [`ClockRefusal::Backwards`] when `to_ms` is before now.
    fn advance_to(&self, to_ms: i64) -> Result<i64, ClockRefusal> {
        let _ = to_ms;
        Err(ClockRefusal::Fixed)
    }
}

/// Why the test clock did not move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ClockRefusal {
    /// This clock is the wall clock.
    #[error("this server's clock cannot be moved")]
    Fixed,
    /// The clock only moves forward.
    #[error("the clock only moves forward: it is at {now_ms}")]
    Backwards {
        /// Where the clock stands.
        now_ms: i64,
    },
}

/// The wall clock plus an offset that only grows: development mode's test clock, so due dates can be
/// reached without waiting (`POST /api/test-clock/advance`).
#[derive(Debug, Default)]
pub struct OffsetClock {
    offset_ms: AtomicI64,
}

impl OffsetClock {
    /// The wall clock, not moved yet.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Clock for OffsetClock {
    fn now_ms(&self) -> i64 {
        SystemClock
            .now_ms()
            .saturating_add(self.offset_ms.load(Ordering::SeqCst))
    }

    fn advance_to(&self, to_ms: i64) -> Result<i64, ClockRefusal> {
        let now_ms = self.now_ms();
        if to_ms < now_ms {
            return Err(ClockRefusal::Backwards { now_ms });
        }
        self.offset_ms
            .fetch_add(to_ms.saturating_sub(now_ms), Ordering::SeqCst);
        Ok(self.now_ms())
    }
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

    fn advance_to(&self, to_ms: i64) -> Result<i64, ClockRefusal> {
        self.now_ms
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
                (to_ms >= now).then_some(to_ms)
            })
            .map(|_| to_ms)
            .map_err(|now_ms| ClockRefusal::Backwards { now_ms })
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

    #[test]
    fn the_test_clock_moves_forward_only() {
        let clock = ManualClock::new(1_000);

        assert_eq!(clock.advance_to(5_000), Ok(5_000));
        assert_eq!(
            clock.advance_to(4_000),
            Err(ClockRefusal::Backwards { now_ms: 5_000 })
        );
        assert_eq!(SystemClock.advance_to(i64::MAX), Err(ClockRefusal::Fixed));
    }

    #[test]
    fn an_offset_clock_runs_ahead_of_the_wall_clock_once_advanced() {
        let clock = OffsetClock::new();
        let target = SystemClock.now_ms() + 86_400_000;

        let moved = clock.advance_to(target).unwrap();

        assert!(moved >= target && clock.now_ms() >= target);
        assert!(matches!(clock.advance_to(0), Err(ClockRefusal::Backwards { .. })));
    }
}
