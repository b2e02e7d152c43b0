//! The typed body of the subscription webhooks: `subscription.created`, `.charge_upcoming`, `.charged`,
//! `.charge_failed`, `.canceled` and `.updated`.

use serde::{Deserialize, Serialize};

use crate::amount::Amount;
use crate::status::{BillingPeriod, SubscriptionStatus};

/// The event type sent when a customer subscribes.
pub const SUBSCRIPTION_CREATED: &str = "subscription.created";
/// The event type sent once per period, a few days before its charge (the service's notice window).
pub const SUBSCRIPTION_CHARGE_UPCOMING: &str = "subscription.charge_upcoming";
/// The event type sent when a period was charged.
pub const SUBSCRIPTION_CHARGED: &str = "subscription.charged";
/// The event type sent when an attempt to charge a period failed (nothing moved).
pub const SUBSCRIPTION_CHARGE_FAILED: &str = "subscription.charge_failed";
/// The event type sent when a subscription ended.
pub const SUBSCRIPTION_CANCELED: &str = "subscription.canceled";
/// The event type sent when the customer moved a subscription to another plan of the merchant.
pub const SUBSCRIPTION_UPDATED: &str = "subscription.updated";

/// The body of a subscription webhook, sent to the plan's `webhookUrl` (or as an endpoint envelope's
/// `data`) when a customer subscription is created, charged, fails a charge or ends.
///
/// Field names are camelCase on the wire. Only `event`, `subscriptionId` and `status` are required; every
/// other field may be absent or `null` and is then `None` (the service sends every key, `null` where it
/// does not apply). Unknown fields are ignored, and an unknown status or period lands in an `Unknown`
/// variant instead of failing. Amounts are pairs of fields, `<name>Usd` (a number) and `<name>BaseUnits`
/// (the exact integer text), as in every body; [`SubscriptionEvent::price`] and the like read a pair as
/// an [`Amount`].
///
/// Get one from [`Verifier::verify_and_parse`](crate::Verifier::verify_and_parse) as one of the
/// `Event::Subscription*` variants of [`Event`](crate::Event).
///
/// ```
/// # let event: webhook_verify::SubscriptionEvent = serde_json::from_str(r#"{
/// #     "event": "subscription.charged", "subscriptionId": "csub_1", "status": "active",
/// #     "charge": {"periodIndex": 2, "grossUsd": 9.99, "grossBaseUnits": "9990000"}}"#)?;
/// use webhook_verify::SubscriptionStatus;
///
/// assert_eq!(event.status, SubscriptionStatus::Active);
/// let gross = event.charge.as_ref().and_then(|charge| charge.gross());
/// assert_eq!(gross.and_then(|gross| gross.cents()), Some(999));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionEvent {
    /// The event type, e.g. [`SUBSCRIPTION_CHARGED`].
    pub event: String,
    /// The delivery id, stable across retries: the same as `X-Service-Delivery` and `webhook-id`.
    pub id: Option<String>,
    /// When the change was committed, Unix milliseconds.
    pub timestamp: Option<i64>,
    /// The customer subscription (`csub_...`).
    pub subscription_id: String,
    /// Its plan (`plan_...`).
    pub plan_id: Option<String>,
    /// The merchant's wallet.
    pub merchant_wallet: Option<String>,
    /// The customer's wallet.
    pub customer_wallet: Option<String>,
    /// The subscription's status after the change.
    pub status: SubscriptionStatus,
    /// Its status before the change; `None` for `subscription.created`.
    pub previous_status: Option<SubscriptionStatus>,
    /// How often the subscription is charged.
    pub period: Option<BillingPeriod>,
    /// `priceUsd`: the price per period the customer signed for, as sent (see [`SubscriptionEvent::price`]).
    pub price_usd: Option<f64>,
    /// `priceBaseUnits`: the exact price in token base units.
    pub price_base_units: Option<String>,
    /// The charge attempt of `subscription.charged` and `subscription.charge_failed`.
    pub charge: Option<SubscriptionCharge>,
    /// The announced charge of `subscription.charge_upcoming`.
    pub upcoming_charge: Option<UpcomingCharge>,
    /// Why the subscription ended, when no person ended it: the failure policy's last failure, or
    /// `revoked_on_chain` (the customer revoked its spend permission on chain).
    pub cancel_reason: Option<String>,
    /// What a plan change did, in `subscription.updated` (the body's `planId` and `price` are then the new
    /// plan's).
    pub plan_change: Option<PlanChange>,
}

/// What a plan change did to money, in `subscription.updated`: each amount as `<name>Usd` (a JSON number,
/// for people) and `<name>BaseUnits` (integer text in the token's base units, 1 USD = 1 000 000: exact, for
/// arithmetic).
///
/// ```
/// # let change: webhook_verify::PlanChange = serde_json::from_str(r#"{"previousPlanId": "plan_1",
/// #     "proration": "charge", "prorationUsd": 2.333333, "prorationBaseUnits": "2333333"}"#)?;
/// assert_eq!(change.proration.as_deref(), Some("charge"));
/// assert_eq!(change.proration_base_units.as_deref(), Some("2333333"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PlanChange {
    /// The plan the subscription left.
    pub previous_plan_id: Option<String>,
    /// `charge` (an upgrade: the prorated difference charged at once), `credit` (a downgrade: taken off the
    /// next charges) or `none`.
    pub proration: Option<String>,
    /// The left plan's price per period.
    pub previous_price_usd: Option<serde_json::Number>,
    /// The same, exact.
    pub previous_price_base_units: Option<String>,
    /// The prorated difference charged or credited.
    pub proration_usd: Option<serde_json::Number>,
    /// The same, exact.
    pub proration_base_units: Option<String>,
    /// The platform fee of a prorated charge.
    pub fee_usd: Option<serde_json::Number>,
    /// The same, exact.
    pub fee_base_units: Option<String>,
    /// The merchant's part of a prorated charge.
    pub net_usd: Option<serde_json::Number>,
    /// The same, exact.
    pub net_base_units: Option<String>,
    /// The credit waiting for the next charges after the change.
    pub credit_balance_usd: Option<serde_json::Number>,
    /// The same, exact.
    pub credit_balance_base_units: Option<String>,
    /// The change's transaction (revoke, approve and charge in one).
    pub transaction_hash: Option<String>,
}

/// What one charge attempt moved, in `subscription.charged` and `subscription.charge_failed`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionCharge {
    /// The period charged (0 = the first).
    pub period_index: Option<u64>,
    /// `grossUsd`: what the customer pays, fee + net (see [`SubscriptionCharge::gross`]).
    pub gross_usd: Option<f64>,
    /// `grossBaseUnits`: the exact gross in token base units.
    pub gross_base_units: Option<String>,
    /// `feeUsd`: the platform's fee (see [`SubscriptionCharge::fee`]).
    pub fee_usd: Option<f64>,
    /// `feeBaseUnits`: the exact fee.
    pub fee_base_units: Option<String>,
    /// `netUsd`: what the merchant receives (see [`SubscriptionCharge::net`]).
    pub net_usd: Option<f64>,
    /// `netBaseUnits`: the exact net.
    pub net_base_units: Option<String>,
    /// The charge's transaction; `None` when it failed.
    pub transaction_hash: Option<String>,
    /// Why the attempt failed (`subscription.charge_failed`).
    pub failure_reason: Option<String>,
}

/// The charge a `subscription.charge_upcoming` announces, and whether it would go through if made now (both
/// read on chain when the notice was sent): warn the customer when either is `false`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct UpcomingCharge {
    /// The period to be charged.
    pub period_index: Option<u64>,
    /// When the charge is due, Unix milliseconds.
    pub charge_at: Option<i64>,
    /// `amountUsd`: what the customer will pay (see [`UpcomingCharge::amount`]).
    pub amount_usd: Option<f64>,
    /// `amountBaseUnits`: the exact amount.
    pub amount_base_units: Option<String>,
    /// Whether the customer's token balance covers `amount`.
    pub balance_sufficient: Option<bool>,
    /// Whether the customer's token approval of the spend permission manager covers `amount`.
    pub allowance_sufficient: Option<bool>,
}

impl SubscriptionEvent {
    /// The price per period (`priceUsd` / `priceBaseUnits`), when the body has its base units.
    pub fn price(&self) -> Option<Amount> {
        Amount::from_fields(self.price_usd, self.price_base_units.as_deref())
    }
}

impl SubscriptionCharge {
    /// What the customer pays (`grossUsd` / `grossBaseUnits`).
    pub fn gross(&self) -> Option<Amount> {
        Amount::from_fields(self.gross_usd, self.gross_base_units.as_deref())
    }

    /// The platform's fee (`feeUsd` / `feeBaseUnits`).
    pub fn fee(&self) -> Option<Amount> {
        Amount::from_fields(self.fee_usd, self.fee_base_units.as_deref())
    }

    /// What the merchant receives (`netUsd` / `netBaseUnits`).
    pub fn net(&self) -> Option<Amount> {
        Amount::from_fields(self.net_usd, self.net_base_units.as_deref())
    }
}

impl UpcomingCharge {
    /// What the customer will pay (`amountUsd` / `amountBaseUnits`).
    pub fn amount(&self) -> Option<Amount> {
        Amount::from_fields(self.amount_usd, self.amount_base_units.as_deref())
    }
}
