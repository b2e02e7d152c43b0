//! Plans and customer subscriptions as stored (`subscription_plans`, `customer_subscriptions`).

use super::{bad, json, units};
use crate::SubscriptionHook;
use payments_core::{Cents, SpendPermissionData, Wallet, stored_signature_fits};
use payments_domain::recurring::{
    CustomerSubscription, CustomerSubscriptionId, Plan, PlanId, PlanWebhook, TrialDays,
};

/// The plan columns every plan read selects, in [`PlanRow`]'s order; the same text for both dialects.
macro_rules! plan_columns {
    () => {
        "public_id, merchant, name, description, price_cents, period, active, created_at, updated_at,
        webhook_url, signing_key, trial_days"
    };
}
pub(crate) use plan_columns;

/// A `subscription_plans` row ([`plan_columns`]).
pub(crate) struct PlanRow {
    pub(crate) public_id: String,
    pub(crate) merchant: String,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) price_cents: i64,
    pub(crate) period: String,
    pub(crate) active: bool,
    pub(crate) created_at: i64,
    pub(crate) updated_at: i64,
    pub(crate) webhook_url: Option<String>,
    pub(crate) signing_key: Option<Vec<u8>>,
    pub(crate) trial_days: i64,
}

impl PlanRow {
    pub(crate) fn into_record(self) -> Result<Plan, String> {
        Ok(Plan {
            id: PlanId::from_stored(self.public_id),
            merchant: Wallet::parse(&self.merchant).map_err(|error| bad("merchant", error))?,
            name: self.name,
            description: self.description,
            price: Cents::new(self.price_cents),
            period: self.period.parse().map_err(|error| bad("period", error))?,
            active: self.active,
            trial_days: TrialDays::new(self.trial_days).ok_or("trial_days out of range")?,
            // The sealed key is kept only with a URL: without one there is no target.
            webhook: self.webhook_url.map(|url| PlanWebhook {
                url,
                sealed_key: self.signing_key,
            }),
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

/// A plan's webhook columns: its URL and sealed key, both `NULL` without a target.
pub(crate) fn webhook_columns(plan: &Plan) -> (Option<&str>, Option<&[u8]>) {
    plan.webhook.as_ref().map_or((None, None), |webhook| {
        (Some(webhook.url.as_str()), webhook.sealed_key.as_deref())
    })
}

/// A `customer_subscriptions` row joined with its plan's public id.
pub(crate) struct SubscriptionRow {
    pub(crate) public_id: String,
    pub(crate) plan_public_id: String,
    pub(crate) merchant: String,
    pub(crate) customer: String,
    pub(crate) price_cents: i64,
    pub(crate) period: String,
    pub(crate) permission_json: String,
    pub(crate) signature: Vec<u8>,
    pub(crate) status: String,
    pub(crate) anchor_ms: i64,
    pub(crate) next_period_index: i64,
    pub(crate) next_charge_at: i64,
    pub(crate) attempts: i64,
    pub(crate) failed_periods: i64,
    pub(crate) created_at: i64,
    pub(crate) updated_at: i64,
    pub(crate) canceled_at: Option<i64>,
    pub(crate) cancel_reason: Option<String>,
    pub(crate) credit_units: i64,
}

impl SubscriptionRow {
    pub(crate) fn into_record(self) -> Result<CustomerSubscription, String> {
        let permission: SpendPermissionData = json("permission_json", &self.permission_json)?;
        stored_signature_fits(&self.signature).map_err(|error| bad("signature", error))?;
        // Counters saturate: a count past u32 is still "many", not corrupt data.
        let count = |value: i64| u32::try_from(value).unwrap_or(u32::MAX);
        Ok(CustomerSubscription {
            id: CustomerSubscriptionId::from_stored(self.public_id),
            plan_id: PlanId::from_stored(self.plan_public_id),
            merchant: Wallet::parse(&self.merchant).map_err(|error| bad("merchant", error))?,
            customer: Wallet::parse(&self.customer).map_err(|error| bad("customer", error))?,
            price: Cents::new(self.price_cents),
            period: self.period.parse().map_err(|error| bad("period", error))?,
            permission: permission
                .parse()
                .map_err(|error| bad("permission_json", error))?,
            signature: self.signature,
            status: self.status.parse().map_err(|error| bad("status", error))?,
            anchor_ms: self.anchor_ms,
            next_period_index: u64::try_from(self.next_period_index)
                .map_err(|error| bad("next_period_index", error))?,
            next_charge_at: self.next_charge_at,
            attempts: count(self.attempts),
            failed_periods: count(self.failed_periods),
            created_at: self.created_at,
            updated_at: self.updated_at,
            canceled_at: self.canceled_at,
            cancel_reason: self.cancel_reason,
            credit: units(self.credit_units),
        })
    }
}

/// A subscription as its webhooks need it ([`SubscriptionHook`]), with its row id and its plan's target.
pub(crate) struct HookRow {
    pub(crate) row_id: i64,
    pub(crate) public_id: String,
    pub(crate) plan_public_id: String,
    pub(crate) merchant: String,
    pub(crate) customer: String,
    pub(crate) price_cents: i64,
    pub(crate) period: String,
    pub(crate) status: String,
    pub(crate) webhook_url: Option<String>,
}

impl HookRow {
    pub(crate) fn into_record(self) -> Result<SubscriptionHook, String> {
        Ok(SubscriptionHook {
            row_id: self.row_id,
            subscription_id: CustomerSubscriptionId::from_stored(self.public_id),
            plan_id: PlanId::from_stored(self.plan_public_id),
            merchant: Wallet::parse(&self.merchant).map_err(|error| bad("merchant", error))?,
            customer: Wallet::parse(&self.customer).map_err(|error| bad("customer", error))?,
            price: Cents::new(self.price_cents),
            period: self.period.parse().map_err(|error| bad("period", error))?,
            status: self.status.parse().map_err(|error| bad("status", error))?,
            webhook_url: self.webhook_url,
        })
    }
}
