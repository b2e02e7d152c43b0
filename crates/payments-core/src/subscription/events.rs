//! The subscription webhooks: `subscription.created`, `subscription.charge_upcoming`,
//! `subscription.charged`, `subscription.charge_failed`, `subscription.canceled` and `subscription.updated`,
//! and their body. They travel through the same outbox, with the same headers
//! and signatures, as `receipt.status_updated` ([`crate::x_service_signature`],
//! [`crate::StandardWebhooksSecret`]).
//!
//! Every key is present in every body (`null` where it does not apply), so receivers can decode one shape.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{BillingPeriod, SubscriptionStatus};
use crate::wallet::Wallet;
use crate::webhook_amount::{AmountField, FeeField, GrossField, NetField, PriceField, WebhookAmount};

/// Which change of a subscription a webhook reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum SubscriptionEventKind {
    /// A customer subscribed (`subscription.created`).
    #[serde(rename = "subscription.created")]
    Created,
    /// A charge falls within the notice window (`subscription.charge_upcoming`), sent once per period.
    #[serde(rename = "subscription.charge_upcoming")]
    ChargeUpcoming,
    /// A period was charged (`subscription.charged`).
    #[serde(rename = "subscription.charged")]
    Charged,
    /// An attempt to charge a period failed; nothing moved (`subscription.charge_failed`).
    #[serde(rename = "subscription.charge_failed")]
    ChargeFailed,
    /// The subscription ended: by its customer, its merchant, or the failure policy
    /// (`subscription.canceled`).
    #[serde(rename = "subscription.canceled")]
    Canceled,
    /// The customer moved the subscription to another plan of the merchant (`subscription.updated`);
    /// `planChange` says what it charged or credited.
    #[serde(rename = "subscription.updated")]
    Updated,
}

impl SubscriptionEventKind {
    /// Every kind, in lifecycle order.
    pub const ALL: [SubscriptionEventKind; 6] = [
        SubscriptionEventKind::Created,
        SubscriptionEventKind::ChargeUpcoming,
        SubscriptionEventKind::Charged,
        SubscriptionEventKind::ChargeFailed,
        SubscriptionEventKind::Canceled,
        SubscriptionEventKind::Updated,
    ];

    /// The event name, as in the body's `event` and the `X-Service-Event` header.
    pub const fn as_str(self) -> &'static str {
        match self {
            SubscriptionEventKind::Created => "subscription.created",
            SubscriptionEventKind::ChargeUpcoming => "subscription.charge_upcoming",
            SubscriptionEventKind::Charged => "subscription.charged",
            SubscriptionEventKind::ChargeFailed => "subscription.charge_failed",
            SubscriptionEventKind::Canceled => "subscription.canceled",
            SubscriptionEventKind::Updated => "subscription.updated",
        }
    }
}

impl fmt::Display for SubscriptionEventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one charge attempt moved (`subscription.charged` / `subscription.charge_failed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionChargeFacts {
    /// The period charged (0 = the first).
    pub period_index: u64,
    /// What the customer pays: fee + net (`grossUsd`, `grossBaseUnits`).
    #[serde(flatten)]
    pub gross: WebhookAmount<GrossField>,
    /// The platform's fee (`feeUsd`, `feeBaseUnits`).
    #[serde(flatten)]
    pub fee: WebhookAmount<FeeField>,
    /// What the merchant receives (`netUsd`, `netBaseUnits`).
    #[serde(flatten)]
    pub net: WebhookAmount<NetField>,
    /// The charge's transaction; `null` when it failed, or when a crashed run's charge was found on chain.
    pub transaction_hash: Option<String>,
    /// Why the attempt failed (`charge_failed`).
    pub failure_reason: Option<String>,
}

/// The charge a `subscription.charge_upcoming` announces, and whether it would go through if made now
/// (both read on chain when the notice was sent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpcomingCharge {
    /// The period to be charged.
    pub period_index: u64,
    /// When the charge is due, unix ms.
    pub charge_at: i64,
    /// What the customer will pay (`amountUsd`, `amountBaseUnits`).
    #[serde(flatten)]
    pub amount: WebhookAmount<AmountField>,
    /// Whether the customer's token balance covers `amount`.
    pub balance_sufficient: bool,
    /// Whether the customer's token approval of the spend permission manager covers `amount` (and the
    /// permission still allows it).
    pub allowance_sufficient: bool,
}

/// The body of a subscription webhook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionWebhook {
    /// The event, e.g. `subscription.charged` (the same key as receipt webhooks' `event`).
    pub event: SubscriptionEventKind,
    /// The delivery id: the same as `X-Service-Delivery` and `webhook-id`, stable across retries.
    pub id: String,
    /// When the change was committed, unix ms.
    pub timestamp: i64,
    /// The subscription (`csub_...`).
    pub subscription_id: String,
    /// Its plan (`plan_...`).
    pub plan_id: String,
    /// The merchant.
    pub merchant_wallet: Wallet,
    /// The customer.
    pub customer_wallet: Wallet,
    /// The subscription's status after the change.
    pub status: SubscriptionStatus,
    /// Its status before; `null` for `subscription.created`.
    pub previous_status: Option<SubscriptionStatus>,
    /// The period the subscription was signed for.
    pub period: BillingPeriod,
    /// The price per period the customer signed for (`priceUsd`, `priceBaseUnits`).
    #[serde(flatten)]
    pub price: WebhookAmount<PriceField>,
    /// The charge attempt; `null` for `created` and `canceled`.
    pub charge: Option<SubscriptionChargeFacts>,
    /// The announced charge of `subscription.charge_upcoming`; `null` for every other event.
    pub upcoming_charge: Option<UpcomingCharge>,
    /// Why the subscription ended when no person ended it: the failure policy's last failure, or
    /// `revoked_on_chain`; `null` otherwise.
    pub cancel_reason: Option<String>,
    /// What a plan change did (`subscription.updated`); `null` for every other event.
    pub plan_change: Option<super::PlanChangeFacts>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Cents;

    fn wallet(byte: u8) -> Wallet {
        Wallet::parse(&format!("0x{}", hex::encode([byte; 20]))).unwrap()
    }

    #[test]
    fn event_names_serialize_as_the_header_shows_them() {
        for kind in SubscriptionEventKind::ALL {
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                serde_json::Value::String(kind.as_str().to_owned())
            );
        }
        assert_eq!(
            SubscriptionEventKind::ChargeFailed.to_string(),
            "subscription.charge_failed"
        );
    }

    #[test]
    fn a_charged_body_carries_every_key_with_each_amount_as_usd_and_base_units() {
        let body = SubscriptionWebhook {
            event: SubscriptionEventKind::Charged,
            id: "d-1".to_owned(),
            timestamp: 1_700_000_000_000,
            subscription_id: "csub_1".to_owned(),
            plan_id: "plan_1".to_owned(),
            merchant_wallet: wallet(0xaa),
            customer_wallet: wallet(0xcc),
            status: SubscriptionStatus::Active,
            previous_status: Some(SubscriptionStatus::PastDue),
            period: BillingPeriod::Weekly,
            price: WebhookAmount::of(Cents::new(999)),
            charge: Some(SubscriptionChargeFacts {
                period_index: 2,
                gross: WebhookAmount::of(Cents::new(999)),
                fee: WebhookAmount::of(Cents::new(5)),
                net: WebhookAmount::of(Cents::new(994)),
                transaction_hash: Some("0xabc".to_owned()),
                failure_reason: None,
            }),
            upcoming_charge: None,
            cancel_reason: None,
            plan_change: None,
        };

        let json = serde_json::to_value(&body).unwrap();

        assert_eq!(
            json,
            serde_json::json!({
                "event": "subscription.charged",
                "id": "d-1",
                "timestamp": 1_700_000_000_000_i64,
                "subscriptionId": "csub_1",
                "planId": "plan_1",
                "merchantWallet": "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                "customerWallet": "0xcccccccccccccccccccccccccccccccccccccccc",
                "status": "active",
                "previousStatus": "past_due",
                "period": "WEEKLY",
                "priceUsd": 9.99,
                "priceBaseUnits": "9990000",
                "charge": {
                    "periodIndex": 2,
                    "grossUsd": 9.99,
                    "grossBaseUnits": "9990000",
                    "feeUsd": 0.05,
                    "feeBaseUnits": "50000",
                    "netUsd": 9.94,
                    "netBaseUnits": "9940000",
                    "transactionHash": "0xabc",
                    "failureReason": null
                },
                "upcomingCharge": null,
                "cancelReason": null,
                "planChange": null
            })
        );
        let back: SubscriptionWebhook = serde_json::from_value(json).unwrap();
        assert_eq!(back, body);
    }
}
