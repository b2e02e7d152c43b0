//! What the subscription routes answer: plans, customer subscriptions, their billing events and the
//! charge batch's report, with the statuses a newer service may extend kept verbatim ([`OrUnknown`]).

use payments_core::{BillingPeriod, Cents, SubscriptionStatus, Wallet};
use serde::{Deserialize, Serialize};

use crate::or_unknown::{OrUnknown, wire_names};

/// How one charge attempt of the batch ended (`results[].status` of the batch answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChargeStatus {
    /// The period was charged.
    Charged,
    /// Nothing moved; `error` says why.
    Failed,
    /// The outcome is unknown (the chain did not answer in time); a later batch reconciles it.
    Pending,
}

wire_names!(ChargeStatus {
    Charged => "charged",
    Failed => "failed",
    Pending => "pending",
});

/// What a billing event records about one period's charge attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BillingEventStatus {
    /// `charged`: the money moved.
    Charged,
    /// `charge_failed`: nothing moved; `failure` says why.
    ChargeFailed,
    /// `prorated_charge`: a plan upgrade's prorated difference, charged at once with the change.
    ProratedCharge,
}

wire_names!(BillingEventStatus {
    Charged => "charged",
    ChargeFailed => "charge_failed",
    ProratedCharge => "prorated_charge",
});

/// A merchant's subscription plan.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionPlan {
    /// `plan_` + 32 hex digits.
    pub plan_id: String,
    /// The merchant.
    pub wallet: Wallet,
    /// Shown to subscribers.
    pub name: String,
    /// May be empty.
    #[serde(default)]
    pub description: String,
    /// Charged every period.
    pub price_usd: Cents,
    /// How often.
    pub period: OrUnknown<BillingPeriod>,
    /// Free days before a new subscription's first charge (0 from a service without trials).
    #[serde(default)]
    pub trial_days: u16,
    /// Deactivated plans take no new subscribers.
    pub active: bool,
    /// Where the plan's subscription webhooks go; shown to the merchant only (absent from the public list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
    /// Unix ms.
    pub created_at: i64,
}

/// A customer's subscription to a plan.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CustomerSubscription {
    /// `csub_` + 32 hex digits.
    pub subscription_id: String,
    /// Where the subscription stands.
    pub status: OrUnknown<SubscriptionStatus>,
    /// When the next charge is due, unix ms; absent once canceled.
    #[serde(default)]
    pub next_charge_at: Option<i64>,
    /// The plan subscribed to.
    #[serde(default)]
    pub plan_id: Option<String>,
    /// The merchant paid.
    #[serde(default)]
    pub merchant: Option<Wallet>,
    /// The customer charged.
    #[serde(default)]
    pub customer: Option<Wallet>,
    /// The price signed for.
    #[serde(default)]
    pub price_usd: Option<Cents>,
    /// Unix ms.
    #[serde(default)]
    pub canceled_at: Option<i64>,
    /// Why the platform ended it (`revoked_on_chain`); absent when a person or the failure policy did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel_reason: Option<String>,
}

/// One charge attempt of a subscription.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct BillingEvent {
    /// The period charged (0 is the first).
    pub period_index: u64,
    /// Whether the period was charged.
    pub status: OrUnknown<BillingEventStatus>,
    /// The price.
    pub gross_usd: Cents,
    /// The platform fee.
    pub fee_usd: Cents,
    /// What the merchant received.
    pub net_usd: Cents,
    /// The charge transaction, when known.
    #[serde(default)]
    pub transaction_hash: Option<String>,
    /// Why the attempt failed.
    #[serde(default)]
    pub failure: Option<String>,
    /// Unix ms.
    pub created_at: i64,
}

/// `GET /api/subscriptions/status`: the subscriptions selected, with the billing events when one id was asked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionStatusReply {
    /// Newest first.
    pub subscriptions: Vec<CustomerSubscription>,
    /// Only for a `subscriptionId` query.
    #[serde(default)]
    pub billing_events: Option<Vec<BillingEvent>>,
}

/// One line of the batch answer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ChargeResult {
    /// The subscription.
    pub subscription_id: String,
    /// The period attempted.
    pub period_index: u64,
    /// How the attempt ended.
    pub status: OrUnknown<ChargeStatus>,
    /// The charge transaction.
    #[serde(default)]
    pub transaction_hash: Option<String>,
    /// Why it failed.
    #[serde(default)]
    pub error: Option<String>,
    /// The subscription's status after the attempt (absent from older services).
    #[serde(default)]
    pub subscription_status: Option<OrUnknown<SubscriptionStatus>>,
}

/// The batch answer `{ success, processed, succeeded, failed, durationMs, results }`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct BatchReport {
    /// Whether the batch ran.
    pub success: bool,
    /// Attempts made.
    pub processed: u64,
    /// Charged.
    pub succeeded: u64,
    /// Failed or left pending.
    pub failed: u64,
    /// How long the batch took.
    pub duration_ms: u64,
    /// `subscription.charge_upcoming` notices the run recorded (0 from a service without notices).
    #[serde(default)]
    pub notices_sent: u64,
    /// Subscriptions the run canceled because their customer revoked the permission on chain.
    #[serde(default)]
    pub revoked_on_chain: u64,
    /// One line per attempt.
    pub results: Vec<ChargeResult>,
}
