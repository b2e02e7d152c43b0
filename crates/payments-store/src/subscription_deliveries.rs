//! The subscription webhooks a recurring-billing transaction enqueues: both backends read the subscription's
//! [`SubscriptionHook`] inside the transaction that changes it, and insert what this module builds in the
//! same transaction, so a webhook exists exactly when its change committed.

use payments_core::{
    BillingPeriod, Cents, PlanChangeFacts, SubscriptionChargeFacts, SubscriptionEventKind,
    SubscriptionStatus, SubscriptionWebhook, UpcomingCharge, Wallet, WebhookAmount,
};

use crate::{MerchantEvent, NewDelivery};
use payments_domain::receipt::{DeliveryId, endpoint_of};
use payments_domain::recurring::{
    ChargeOutcome, ChargeSettlement, CustomerSubscriptionId, NewCustomerSubscription, PlanId,
};

/// A subscription as its webhooks describe it, read before the change (with its plan's webhook target).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SubscriptionHook {
    /// The subscription's row, which the delivery rows reference.
    pub(crate) row_id: i64,
    pub(crate) subscription_id: CustomerSubscriptionId,
    pub(crate) plan_id: PlanId,
    pub(crate) merchant: Wallet,
    pub(crate) customer: Wallet,
    pub(crate) price: Cents,
    pub(crate) period: BillingPeriod,
    /// The status before the change.
    pub(crate) status: SubscriptionStatus,
    /// The plan's webhook target; `None`: only the merchant's endpoints hear of the change.
    pub(crate) webhook_url: Option<String>,
}

/// What a body carries beyond the subscription itself; each is `null` unless its event sets it.
#[derive(Debug, Default)]
struct Details {
    charge: Option<SubscriptionChargeFacts>,
    upcoming_charge: Option<UpcomingCharge>,
    cancel_reason: Option<String>,
    plan_change: Option<PlanChangeFacts>,
}

/// What a subscription change records: the merchant event every matching endpoint receives, and the
/// delivery row to the plan's webhook target (when it has one) for the subscription at `row_id`.
#[derive(Debug, Clone)]
pub(crate) struct SubscriptionDelivery {
    pub(crate) row_id: i64,
    pub(crate) delivery: Option<NewDelivery>,
    pub(crate) event: MerchantEvent,
}

impl SubscriptionHook {
    /// The hook of a subscription just inserted at `row_id`.
    pub(crate) fn of_new(
        new: &NewCustomerSubscription,
        row_id: i64,
        webhook_url: Option<String>,
        now_ms: i64,
    ) -> Self {
        SubscriptionHook {
            row_id,
            subscription_id: new.id.clone(),
            plan_id: new.plan_id.clone(),
            merchant: new.merchant,
            customer: new.customer,
            price: new.price,
            period: new.period,
            status: new.initial_status(now_ms),
            webhook_url,
        }
    }

    /// `subscription.created`.
    pub(crate) fn created(&self, now_ms: i64) -> Option<SubscriptionDelivery> {
        self.delivery(
            SubscriptionEventKind::Created,
            self.status,
            None,
            Details::default(),
            now_ms,
        )
    }

    /// `subscription.charge_upcoming`: the status does not change.
    pub(crate) fn charge_upcoming(
        &self,
        upcoming: UpcomingCharge,
        now_ms: i64,
    ) -> Option<SubscriptionDelivery> {
        self.delivery(
            SubscriptionEventKind::ChargeUpcoming,
            self.status,
            Some(self.status),
            Details {
                upcoming_charge: Some(upcoming),
                ..Details::default()
            },
            now_ms,
        )
    }

    /// `subscription.updated`: the customer moved to another plan (this hook is read after the move, so it
    /// names the new plan, its price and its webhook target); the status does not change.
    pub(crate) fn updated(&self, facts: PlanChangeFacts, now_ms: i64) -> Option<SubscriptionDelivery> {
        self.delivery(
            SubscriptionEventKind::Updated,
            self.status,
            Some(self.status),
            Details {
                plan_change: Some(facts),
                ..Details::default()
            },
            now_ms,
        )
    }

    /// `subscription.canceled`, by its customer or merchant (`reason` `None`) or by the platform for
    /// `reason`; nothing when it was canceled already.
    pub(crate) fn canceled(&self, reason: Option<String>, now_ms: i64) -> Option<SubscriptionDelivery> {
        if self.status == SubscriptionStatus::Canceled {
            return None;
        }
        self.delivery(
            SubscriptionEventKind::Canceled,
            SubscriptionStatus::Canceled,
            Some(self.status),
            Details {
                cancel_reason: reason,
                ..Details::default()
            },
            now_ms,
        )
    }

    /// What settling `settlement` sends: `subscription.charged` or `subscription.charge_failed`, then
    /// `subscription.canceled` when the failure policy ended the subscription with it.
    pub(crate) fn settled(&self, settlement: &ChargeSettlement) -> Vec<SubscriptionDelivery> {
        // As the store's update: a subscription canceled while its charge was in flight stays canceled.
        let after = if self.status == SubscriptionStatus::Canceled {
            SubscriptionStatus::Canceled
        } else {
            settlement.schedule.status
        };
        let (kind, transaction_hash, failure_reason) = match &settlement.outcome {
            ChargeOutcome::Charged { tx_hash } => (SubscriptionEventKind::Charged, tx_hash.clone(), None),
            ChargeOutcome::Failed { reason } => {
                (SubscriptionEventKind::ChargeFailed, None, Some(reason.clone()))
            }
        };
        let charge = SubscriptionChargeFacts {
            period_index: settlement.period_index,
            gross: WebhookAmount::of(settlement.gross),
            fee: WebhookAmount::of_units(settlement.fee),
            net: WebhookAmount::of_units(settlement.net),
            transaction_hash,
            failure_reason: failure_reason.clone(),
        };
        let now_ms = settlement.now_ms;
        let mut deliveries = Vec::new();
        let details = Details {
            charge: Some(charge),
            ..Details::default()
        };
        deliveries.extend(self.delivery(kind, after, Some(self.status), details, now_ms));
        if after == SubscriptionStatus::Canceled && self.status != SubscriptionStatus::Canceled {
            let reason = failure_reason.unwrap_or_else(|| "ended by the failure policy".to_owned());
            let details = Details {
                cancel_reason: Some(reason),
                ..Details::default()
            };
            deliveries.extend(self.delivery(
                SubscriptionEventKind::Canceled,
                after,
                Some(self.status),
                details,
                now_ms,
            ));
        }
        deliveries
    }

    fn delivery(
        &self,
        event: SubscriptionEventKind,
        status: SubscriptionStatus,
        previous_status: Option<SubscriptionStatus>,
        details: Details,
        now_ms: i64,
    ) -> Option<SubscriptionDelivery> {
        let id = DeliveryId::generate();
        let body = SubscriptionWebhook {
            event,
            id: id.as_str().to_owned(),
            timestamp: now_ms,
            subscription_id: self.subscription_id.as_str().to_owned(),
            plan_id: self.plan_id.as_str().to_owned(),
            merchant_wallet: self.merchant,
            customer_wallet: self.customer,
            status,
            previous_status,
            period: self.period,
            price: WebhookAmount::of(self.price),
            charge: details.charge,
            upcoming_charge: details.upcoming_charge,
            cancel_reason: details.cancel_reason,
            plan_change: details.plan_change,
        };
        // Serializing plain owned data cannot fail; an empty body would fail verification loudly.
        let body = serde_json::to_vec(&body).unwrap_or_default();
        Some(SubscriptionDelivery {
            row_id: self.row_id,
            event: MerchantEvent::new(self.merchant, event.as_str(), now_ms, body.clone()),
            delivery: self.webhook_url.clone().map(|url| NewDelivery {
                id,
                endpoint: endpoint_of(&url),
                url,
                event: event.as_str(),
                body,
            }),
        })
    }
}

/// The xp credit of a settlement: a successful charge adds its gross to the customer's subscription
/// spending (`users.subscription_cents`), in the transaction that records it.
pub(crate) fn subscription_credit(
    hook: &SubscriptionHook,
    settlement: &ChargeSettlement,
) -> Option<(Wallet, Cents)> {
    match settlement.outcome {
        ChargeOutcome::Charged { .. } if settlement.gross != Cents::ZERO => {
            Some((hook.customer, settlement.gross))
        }
        ChargeOutcome::Charged { .. } | ChargeOutcome::Failed { .. } => None,
    }
}

/// Credits summed per customer and ordered by wallet: every writer locks user rows in one order, so two
/// settlements crediting the same customers never wait on each other in opposite orders (PostgreSQL).
pub(crate) fn merged_credits(credits: Vec<(Wallet, Cents)>) -> Vec<(Wallet, Cents)> {
    let mut merged: std::collections::BTreeMap<Wallet, i64> = std::collections::BTreeMap::new();
    for (wallet, amount) in credits {
        let total = merged.entry(wallet).or_default();
        *total = total.saturating_add(amount.as_i64());
    }
    merged
        .into_iter()
        .map(|(wallet, total)| (wallet, Cents::new(total)))
        .collect()
}
