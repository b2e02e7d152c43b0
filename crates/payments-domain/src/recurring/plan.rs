//! A merchant's subscription plan as stored, and a change to one.

use std::fmt;

use payments_core::{BillingPeriod, Cents, PlanTerms, Wallet};

use crate::recurring::PlanId;

/// A subscription plan: what a subscriber pays, how often. Deactivated plans take no new subscribers;
/// existing subscriptions keep the terms they signed (price and period are copied onto each subscription).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub id: PlanId,
    pub merchant: Wallet,
    pub name: String,
    pub description: String,
    pub price: Cents,
    pub period: BillingPeriod,
    /// Free days before a new subscription's first charge (0–365, 0: charged at once).
    pub trial_days: TrialDays,
    pub active: bool,
    /// Where the plan's subscription webhooks go; `None`: no deliveries.
    pub webhook: Option<PlanWebhook>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A plan's webhook target and the key that signs its deliveries: the API key of the request that set the
/// URL, sealed with the master key for this plan (as a receipt keeps the key that created it). `Debug`
/// never prints the sealed bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct PlanWebhook {
    pub url: String,
    /// `None` only between parsing the request and the service sealing the caller's key.
    pub sealed_key: Option<Vec<u8>>,
}

impl PlanWebhook {
    /// A target parsed from a request, not yet given its key.
    pub fn unsealed(url: String) -> Self {
        PlanWebhook {
            url,
            sealed_key: None,
        }
    }
}

impl fmt::Debug for PlanWebhook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlanWebhook")
            .field("url", &self.url)
            .field("sealed_key", &self.sealed_key.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}

/// A plan's free trial in days, 0 to [`TrialDays::MAX`]: a subscription created on the plan is `trialing`
/// and first charged this many days after it was created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct TrialDays(u16);

impl TrialDays {
    /// The longest trial: a year.
    pub const MAX: u16 = 365;
    const DAY_MS: i64 = 86_400_000;

    /// `days` when within 0..=[`TrialDays::MAX`].
    pub fn new(days: i64) -> Option<Self> {
        u16::try_from(days)
            .ok()
            .filter(|days| *days <= Self::MAX)
            .map(TrialDays)
    }

    pub fn days(self) -> u16 {
        self.0
    }

    /// When a subscription created at `created_ms` is first charged: the end of its trial.
    pub fn first_charge_at(self, created_ms: i64) -> i64 {
        created_ms.saturating_add(i64::from(self.0) * Self::DAY_MS)
    }
}

impl Plan {
    /// What a spend permission must cover.
    pub fn terms(&self) -> PlanTerms {
        PlanTerms {
            price: self.price,
            period: self.period,
        }
    }
}

/// A merchant's change to one of its plans: `None` keeps the stored value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanUpdate {
    pub id: PlanId,
    pub merchant: Wallet,
    pub name: Option<String>,
    pub description: Option<String>,
    pub price: Option<Cents>,
    pub period: Option<BillingPeriod>,
    pub active: Option<bool>,
    /// `None` keeps the stored target; `Some(None)` removes it (and its key); `Some(Some(..))` replaces it.
    pub webhook: Option<Option<PlanWebhook>>,
    pub now_ms: i64,
}

impl PlanUpdate {
    /// The plan after this change.
    pub fn apply(&self, plan: &Plan) -> Plan {
        Plan {
            id: plan.id.clone(),
            merchant: plan.merchant,
            name: self.name.clone().unwrap_or_else(|| plan.name.clone()),
            description: self
                .description
                .clone()
                .unwrap_or_else(|| plan.description.clone()),
            price: self.price.unwrap_or(plan.price),
            period: self.period.unwrap_or(plan.period),
            trial_days: plan.trial_days,
            active: self.active.unwrap_or(plan.active),
            webhook: self.webhook.clone().unwrap_or_else(|| plan.webhook.clone()),
            created_at: plan.created_at,
            updated_at: self.now_ms,
        }
    }
}
