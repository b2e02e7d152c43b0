//! A customer subscription's status and what a failed charge does to it: bounded retries within the
//! period, then `past_due` and the next period, finally `canceled`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Where a customer subscription stands, in JSON as `trialing`, `active`, `past_due` or `canceled`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SubscriptionStatus {
    /// In its plan's free trial: nothing charged yet; the first charge is due when the trial ends.
    Trialing,
    /// Charged on schedule.
    Active,
    /// Every attempt of at least one period failed; the next period is still attempted.
    PastDue,
    /// Ended by the customer, the merchant, an expired permission or repeated failures: never charged again.
    Canceled,
}

impl SubscriptionStatus {
    /// Every status, in lifecycle order.
    pub const ALL: [SubscriptionStatus; 4] = [
        SubscriptionStatus::Trialing,
        SubscriptionStatus::Active,
        SubscriptionStatus::PastDue,
        SubscriptionStatus::Canceled,
    ];

    /// The JSON name.
    pub const fn as_str(self) -> &'static str {
        match self {
            SubscriptionStatus::Trialing => "trialing",
            SubscriptionStatus::Active => "active",
            SubscriptionStatus::PastDue => "past_due",
            SubscriptionStatus::Canceled => "canceled",
        }
    }

    /// Whether the batch still charges a subscription in this status.
    pub const fn is_chargeable(self) -> bool {
        matches!(
            self,
            SubscriptionStatus::Trialing | SubscriptionStatus::Active | SubscriptionStatus::PastDue
        )
    }
}

impl fmt::Display for SubscriptionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A status name that is not one of `trialing`, `active`, `past_due`, `canceled`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown subscription status {0:?}")]
pub struct UnknownSubscriptionStatus(pub String);

impl FromStr for SubscriptionStatus {
    type Err = UnknownSubscriptionStatus;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "trialing" => Ok(SubscriptionStatus::Trialing),
            "active" => Ok(SubscriptionStatus::Active),
            "past_due" => Ok(SubscriptionStatus::PastDue),
            "canceled" => Ok(SubscriptionStatus::Canceled),
            other => Err(UnknownSubscriptionStatus(other.chars().take(32).collect())),
        }
    }
}

/// How failed charges are retried.
///
/// A period is attempted up to `attempts_per_period` times, `retry_after_ms` apart (never past the next
/// period's slot). When every attempt of a period failed, the subscription becomes `past_due` and moves on
/// to the next period; after `failed_periods_before_cancel` consecutive failed periods it is `canceled`. A
/// successful charge makes it `active` again and forgets earlier failed periods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FailurePolicy {
    /// Charge attempts per period (at least 1).
    pub attempts_per_period: u32,
    /// Pause between two attempts of one period, in milliseconds.
    pub retry_after_ms: i64,
    /// Consecutive failed periods after which the subscription is canceled (at least 1).
    pub failed_periods_before_cancel: u32,
}

impl FailurePolicy {
    /// Three attempts a day apart, canceled after two failed periods in a row.
    pub const DEFAULT: FailurePolicy = FailurePolicy {
        attempts_per_period: 3,
        retry_after_ms: 86_400_000,
        failed_periods_before_cancel: 2,
    };
}

impl Default for FailurePolicy {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Where a subscription's schedule stands before a charge attempt's outcome is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChargeProgress {
    /// The period being charged.
    pub period_index: u64,
    /// Attempts of this period so far, including the one whose outcome is applied.
    pub attempts: u32,
    /// Consecutive failed periods before this one.
    pub failed_periods: u32,
}

/// What a subscription looks like after a charge attempt: its status, the period it charges next and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScheduleAfter {
    /// The new status.
    pub status: SubscriptionStatus,
    /// The period the next attempt charges.
    pub next_period_index: u64,
    /// When the next attempt is due, unix ms.
    pub next_charge_at: i64,
    /// Attempts already made of `next_period_index` (0 when it is a fresh period).
    pub attempts: u32,
    /// Consecutive failed periods so far.
    pub failed_periods: u32,
}

impl FailurePolicy {
    /// After a successful charge of `progress.period_index`: active, the following period at
    /// `next_slot_at` (the slot after the charged one).
    pub fn after_success(&self, progress: ChargeProgress, next_slot_at: i64) -> ScheduleAfter {
        ScheduleAfter {
            status: SubscriptionStatus::Active,
            next_period_index: progress.period_index.saturating_add(1),
            next_charge_at: next_slot_at,
            attempts: 0,
            failed_periods: 0,
        }
    }

    /// After a failed attempt at `now_ms`, `next_slot_at` being the slot of the following period: retry the
    /// same period later while attempts remain and the retry falls before the next slot; else the period is
    /// lost (`past_due`, or `canceled` once enough periods failed in a row).
    pub fn after_failure(
        &self,
        progress: ChargeProgress,
        current: SubscriptionStatus,
        now_ms: i64,
        next_slot_at: i64,
    ) -> ScheduleAfter {
        let retry_at = now_ms.saturating_add(self.retry_after_ms.max(0));
        if progress.attempts < self.attempts_per_period.max(1) && retry_at < next_slot_at {
            // The trial ended with the first charge's due date, whatever its outcome: a retry of it is the
            // retry of an `active` subscription's charge.
            let status = match current {
                SubscriptionStatus::Trialing => SubscriptionStatus::Active,
                other => other,
            };
            return ScheduleAfter {
                status,
                next_period_index: progress.period_index,
                next_charge_at: retry_at,
                attempts: progress.attempts,
                failed_periods: progress.failed_periods,
            };
        }
        let failed_periods = progress.failed_periods.saturating_add(1);
        let status = if failed_periods >= self.failed_periods_before_cancel.max(1) {
            SubscriptionStatus::Canceled
        } else {
            SubscriptionStatus::PastDue
        };
        ScheduleAfter {
            status,
            next_period_index: progress.period_index.saturating_add(1),
            next_charge_at: next_slot_at,
            attempts: 0,
            failed_periods,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_767_225_600_000;
    const DAY: i64 = 86_400_000;
    const NEXT_SLOT: i64 = NOW + 30 * DAY;

    fn progress(attempts: u32, failed_periods: u32) -> ChargeProgress {
        ChargeProgress {
            period_index: 4,
            attempts,
            failed_periods,
        }
    }

    #[test]
    fn statuses_use_snake_case_names_and_parse_back() {
        for status in SubscriptionStatus::ALL {
            assert_eq!(status.as_str().parse::<SubscriptionStatus>(), Ok(status));
        }
        assert_eq!(SubscriptionStatus::PastDue.as_str(), "past_due");
        assert_eq!(SubscriptionStatus::Trialing.as_str(), "trialing");
        assert!("cancelled".parse::<SubscriptionStatus>().is_err());
    }

    #[test]
    fn a_first_failure_retries_the_same_period_a_day_later() {
        let after =
            FailurePolicy::DEFAULT.after_failure(progress(1, 0), SubscriptionStatus::Active, NOW, NEXT_SLOT);

        assert_eq!(
            after,
            ScheduleAfter {
                status: SubscriptionStatus::Active,
                next_period_index: 4,
                next_charge_at: NOW + DAY,
                attempts: 1,
                failed_periods: 0,
            }
        );
    }

    #[test]
    fn the_last_attempt_of_a_period_makes_the_subscription_past_due() {
        let after =
            FailurePolicy::DEFAULT.after_failure(progress(3, 0), SubscriptionStatus::Active, NOW, NEXT_SLOT);

        assert_eq!(after.status, SubscriptionStatus::PastDue);
        assert_eq!(after.next_period_index, 5);
        assert_eq!(after.next_charge_at, NEXT_SLOT);
        assert_eq!(after.attempts, 0);
        assert_eq!(after.failed_periods, 1);
    }

    #[test]
    fn a_retry_that_would_reach_the_next_slot_gives_the_period_up() {
        let after = FailurePolicy::DEFAULT.after_failure(
            progress(1, 0),
            SubscriptionStatus::Active,
            NEXT_SLOT - DAY,
            NEXT_SLOT,
        );

        assert_eq!(after.status, SubscriptionStatus::PastDue);
        assert_eq!(after.next_period_index, 5);
    }

    #[test]
    fn a_second_failed_period_in_a_row_cancels() {
        let after =
            FailurePolicy::DEFAULT.after_failure(progress(3, 1), SubscriptionStatus::PastDue, NOW, NEXT_SLOT);

        assert_eq!(after.status, SubscriptionStatus::Canceled);
        assert_eq!(after.failed_periods, 2);
    }

    #[test]
    fn a_success_reactivates_and_forgets_failed_periods() {
        let after = FailurePolicy::DEFAULT.after_success(progress(2, 1), NEXT_SLOT);

        assert_eq!(
            after,
            ScheduleAfter {
                status: SubscriptionStatus::Active,
                next_period_index: 5,
                next_charge_at: NEXT_SLOT,
                attempts: 0,
                failed_periods: 0,
            }
        );
    }

    #[test]
    fn a_failed_first_charge_after_a_trial_retries_as_active() {
        let after = FailurePolicy::DEFAULT.after_failure(
            progress(1, 0),
            SubscriptionStatus::Trialing,
            NOW,
            NEXT_SLOT,
        );

        assert_eq!(after.status, SubscriptionStatus::Active);
        assert_eq!(after.next_charge_at, NOW + DAY);
    }

    #[test]
    fn a_trial_whose_every_first_attempt_failed_becomes_past_due() {
        let after = FailurePolicy::DEFAULT.after_failure(
            progress(3, 0),
            SubscriptionStatus::Trialing,
            NOW,
            NEXT_SLOT,
        );

        assert_eq!(after.status, SubscriptionStatus::PastDue);
    }

    #[test]
    fn canceled_subscriptions_are_not_chargeable() {
        assert!(SubscriptionStatus::Trialing.is_chargeable());
        assert!(SubscriptionStatus::Active.is_chargeable());
        assert!(SubscriptionStatus::PastDue.is_chargeable());
        assert!(!SubscriptionStatus::Canceled.is_chargeable());
    }
}
