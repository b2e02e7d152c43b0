//! The batch's notices before a charge (`subscription.charge_upcoming`) and the platform's own ends of a
//! subscription (a permission revoked on chain).

use payments_core::UpcomingCharge;

use crate::recurring::CustomerSubscriptionId;

/// A notice to record: at most one per (subscription, period), with its webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeNotice {
    pub subscription_id: CustomerSubscriptionId,
    /// What the webhook announces; its `period_index` is the notice's period.
    pub upcoming: UpcomingCharge,
    pub now_ms: i64,
}

/// Why the platform (not a person) ended a subscription: the `cancelReason` of its webhook and record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlatformCancelReason {
    /// The customer revoked the spend permission on chain (the manager's `revoke`).
    RevokedOnChain,
}

impl PlatformCancelReason {
    pub const fn as_str(self) -> &'static str {
        match self {
            PlatformCancelReason::RevokedOnChain => "revoked_on_chain",
        }
    }
}
