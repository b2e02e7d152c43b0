//! Subscription math: billing periods, the charge schedule, whether a signed spend permission fits a plan,
//! and the platform fee on each charge.
//!
//! Times are unix milliseconds (`i64`), as stored; spend permission times are unix seconds, as signed.

mod cancel;
mod events;
mod fee;
mod fit;
mod lifecycle;
mod offer;
mod plan_change;
mod proration;
mod schedule;

use serde::{Deserialize, Serialize};
use std::fmt;

pub use self::cancel::{CANCEL_DOMAIN_NAME, CANCEL_DOMAIN_VERSION, CancelError, CancelSubscription};
pub use self::events::{SubscriptionChargeFacts, SubscriptionEventKind, SubscriptionWebhook, UpcomingCharge};
pub use self::fee::{
    DEFAULT_SUBSCRIPTION_FEE_BPS, SubscriptionCharge, SubscriptionChargeUnits, subscription_fee_at,
    subscription_merchant_net, subscription_platform_fee,
};
pub use self::fit::{PlanFitError, PlanTerms, SpendingConfig, check_permission_fits_plan};
pub use self::lifecycle::{
    ChargeProgress, FailurePolicy, ScheduleAfter, SubscriptionStatus, UnknownSubscriptionStatus,
};
pub use self::offer::{
    PERMISSION_START_SLACK_SECS, SubscriptionPermissionOffer, TokenApproval, plan_permission,
};
pub use self::plan_change::{
    ChangeAlignmentError, PlanChangeFacts, aligned_permission_start, check_change_alignment, credited_charge,
};
pub use self::proration::{Proration, ProrationError, prorate};
pub use self::schedule::{due_slot, next_charge_at, slot_at};

const SECONDS_PER_DAY: u64 = 86_400;

/// How often a subscription plan charges, in JSON as `WEEKLY`, `BIWEEKLY`, `MONTHLY`, `QUARTERLY` or
/// `YEARLY`.
///
/// Every period is a fixed number of seconds, because the spend permission a subscriber signs renews its
/// allowance every `period` seconds on chain and cannot follow calendar months:
///
/// | Period      | Days | Seconds    |
/// |-------------|------|------------|
/// | `WEEKLY`    | 7    | 604 800    |
/// | `BIWEEKLY`  | 14   | 1 209 600  |
/// | `MONTHLY`   | 30   | 2 592 000  |
/// | `QUARTERLY` | 90   | 7 776 000  |
/// | `YEARLY`    | 365  | 31 536 000 |
///
/// A permission for a plan must carry exactly [`BillingPeriod::seconds`] as its `period`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum BillingPeriod {
    /// Every 7 days.
    Weekly,
    /// Every 14 days.
    Biweekly,
    /// Every 30 days.
    Monthly,
    /// Every 90 days.
    Quarterly,
    /// Every 365 days.
    Yearly,
}

impl BillingPeriod {
    /// Every period, shortest first.
    pub const ALL: [BillingPeriod; 5] = [
        BillingPeriod::Weekly,
        BillingPeriod::Biweekly,
        BillingPeriod::Monthly,
        BillingPeriod::Quarterly,
        BillingPeriod::Yearly,
    ];

    /// Length in days.
    pub const fn days(self) -> u64 {
        match self {
            BillingPeriod::Weekly => 7,
            BillingPeriod::Biweekly => 14,
            BillingPeriod::Monthly => 30,
            BillingPeriod::Quarterly => 90,
            BillingPeriod::Yearly => 365,
        }
    }

    /// Length in seconds: the `period` a spend permission for this plan must carry.
    pub const fn seconds(self) -> u64 {
        self.days() * SECONDS_PER_DAY
    }

    /// Length in milliseconds, the unit of the schedule.
    pub const fn millis(self) -> i64 {
        // At most 365 days, so the cast cannot truncate.
        (self.seconds() * 1000) as i64
    }

    /// The period whose length is exactly `seconds`, if any.
    pub fn from_seconds(seconds: u64) -> Option<BillingPeriod> {
        Self::ALL.into_iter().find(|period| period.seconds() == seconds)
    }

    /// The JSON name (`WEEKLY`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            BillingPeriod::Weekly => "WEEKLY",
            BillingPeriod::Biweekly => "BIWEEKLY",
            BillingPeriod::Monthly => "MONTHLY",
            BillingPeriod::Quarterly => "QUARTERLY",
            BillingPeriod::Yearly => "YEARLY",
        }
    }
}

/// A period name that is not one of the five.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown billing period {0:?} (known: WEEKLY, BIWEEKLY, MONTHLY, QUARTERLY, YEARLY)")]
pub struct UnknownBillingPeriod(pub String);

impl std::str::FromStr for BillingPeriod {
    type Err = UnknownBillingPeriod;

    /// Parses the JSON name (`WEEKLY`, ...); case matters, as on the wire.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|period| period.as_str() == text)
            .ok_or_else(|| UnknownBillingPeriod(text.chars().take(32).collect()))
    }
}

impl fmt::Display for BillingPeriod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_period_has_its_documented_length_in_seconds() {
        assert_eq!(BillingPeriod::Weekly.seconds(), 604_800);
        assert_eq!(BillingPeriod::Biweekly.seconds(), 1_209_600);
        assert_eq!(BillingPeriod::Monthly.seconds(), 2_592_000);
        assert_eq!(BillingPeriod::Quarterly.seconds(), 7_776_000);
        assert_eq!(BillingPeriod::Yearly.seconds(), 31_536_000);
    }

    #[test]
    fn milliseconds_are_a_thousand_times_the_seconds() {
        assert_eq!(BillingPeriod::Weekly.millis(), 604_800_000);
        assert_eq!(BillingPeriod::Yearly.millis(), 31_536_000_000);
    }

    #[test]
    fn periods_use_screaming_case_names_in_json() {
        let json = serde_json::to_string(&BillingPeriod::ALL).expect("periods serialize");

        assert_eq!(json, r#"["WEEKLY","BIWEEKLY","MONTHLY","QUARTERLY","YEARLY"]"#);
    }

    #[test]
    fn periods_parse_from_their_json_names() {
        let period: BillingPeriod = serde_json::from_str(r#""BIWEEKLY""#).expect("known name");

        assert_eq!(period, BillingPeriod::Biweekly);
    }

    #[test]
    fn lowercase_or_unknown_period_names_are_rejected() {
        assert!(serde_json::from_str::<BillingPeriod>(r#""weekly""#).is_err());
        assert!(serde_json::from_str::<BillingPeriod>(r#""DAILY""#).is_err());
    }

    #[test]
    fn a_permission_period_maps_back_to_its_plan_period() {
        assert_eq!(
            BillingPeriod::from_seconds(7_776_000),
            Some(BillingPeriod::Quarterly)
        );
        assert_eq!(BillingPeriod::from_seconds(2_629_746), None);
    }

    #[test]
    fn names_parse_back_to_their_periods() {
        for period in BillingPeriod::ALL {
            assert_eq!(period.as_str().parse::<BillingPeriod>(), Ok(period));
        }
        assert!("monthly".parse::<BillingPeriod>().is_err());
    }

    #[test]
    fn display_prints_the_json_name() {
        assert_eq!(BillingPeriod::Monthly.to_string(), "MONTHLY");
    }
}
