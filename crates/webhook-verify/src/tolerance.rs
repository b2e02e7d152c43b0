//! Freshness: how far a delivery's timestamp may be from "now".

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::VerifyError;

/// How far a timestamp may lie from "now", in either direction, for a request to count as fresh.
///
/// The default, [`Tolerance::DEFAULT`], is five minutes.
///
/// ```
/// use std::time::Duration;
/// use webhook_verify::Tolerance;
///
/// assert_eq!(Tolerance::default(), Tolerance::Within(Duration::from_secs(300)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tolerance {
    /// Reject timestamps older, or further in the future, than this.
    Within(Duration),
    /// Do not check timestamps at all. `X-Service-Timestamp` is then not required; `webhook-timestamp`
    /// still is, because it is part of the signed message.
    Disabled,
}

impl Tolerance {
    /// Five minutes, the tolerance Standard Webhooks recommends.
    pub const DEFAULT: Self = Self::Within(Duration::from_secs(5 * 60));

    /// Checks a timestamp (as a duration since the Unix epoch) against `now`.
    pub(crate) fn check(self, timestamp: Duration, now: SystemTime) -> Result<(), VerifyError> {
        let Self::Within(tolerance) = self else {
            return Ok(());
        };
        // A clock before 1970 is treated as the epoch itself: every real timestamp is then "future".
        let now = now.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
        if timestamp <= now {
            let age = now.saturating_sub(timestamp);
            if age > tolerance {
                return Err(VerifyError::Stale { age, tolerance });
            }
        } else {
            let ahead = timestamp.saturating_sub(now);
            if ahead > tolerance {
                return Err(VerifyError::FromTheFuture { ahead, tolerance });
            }
        }
        Ok(())
    }
}

impl Default for Tolerance {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Parses a non-negative decimal integer made of ASCII digits only (no sign, no spaces, no fraction).
pub(crate) fn parse_digits(text: &str, name: &'static str) -> Result<u64, VerifyError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VerifyError::MalformedHeader {
            name,
            reason: "expected a decimal integer",
        });
    }
    text.parse().map_err(|_| VerifyError::MalformedHeader {
        name,
        reason: "integer is too large",
    })
}
