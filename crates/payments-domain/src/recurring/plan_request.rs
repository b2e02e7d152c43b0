//! The plan routes' bodies, parsed: `priceUsd` above zero with at most 2 decimals, `period` one of the five
//! names, a non-empty name, `webhookUrl` under the same rules as a receipt's `webhook_url`.

use payments_core::{BillingPeriod, Cents, Wallet};
use serde_json::Value;

use crate::field_error::FieldError;
use crate::inventory::text;
use crate::receipt::{TargetPolicy, webhook_target};
use crate::recurring::{Plan, PlanId, PlanUpdate, PlanWebhook, TrialDays};

/// The wire name of a plan's webhook target.
const WEBHOOK_URL: &str = "webhookUrl";

const MAX_NAME_CHARS: usize = 120;
const MAX_DESCRIPTION_CHARS: usize = 2_000;

/// `POST /api/subscriptions/plans` body `{ wallet, name, description, priceUsd, period }`.
#[derive(Debug)]
pub struct CreatePlanRequest {
    pub wallet: Option<String>,
    pub name: Option<String>,
    pub description: Option<String>,
    /// USD, greater than 0, at most 2 decimals.
    pub price_usd: Option<Value>,
    pub period: Option<String>,
    /// Free days before a new subscription's first charge, 0 to 365 (default 0: charged at once).
    pub trial_days: Option<Value>,
    /// HTTPS endpoint for the plan's subscription webhooks (HTTP and loopback in development mode). Needs an
    /// API key: its deliveries are signed with the key of this request.
    pub webhook_url: Option<String>,
}

/// `PUT /api/subscriptions/plans` body `{ planId, name, description, priceUsd, period, active }`; every field
/// but `planId` may be left out to keep its value.
#[derive(Debug)]
pub struct UpdatePlanRequest {
    pub plan_id: Option<String>,
    pub wallet: Option<String>,
    pub name: Option<String>,
    pub description: Option<String>,
    /// USD, greater than 0, at most 2 decimals.
    pub price_usd: Option<Value>,
    pub period: Option<String>,
    pub active: Option<bool>,
    /// A new webhook target (signed with this request's API key from now on); `null` or `""` removes it;
    /// left out, the plan keeps its target and key.
    pub webhook_url: Option<Option<String>>,
}

/// `DELETE /api/subscriptions/plans` body `{ planId, wallet }`.
#[derive(Debug)]
pub struct DeletePlanRequest {
    pub plan_id: Option<String>,
    pub wallet: Option<String>,
}

impl CreatePlanRequest {
    /// The wallet the body names (checked against the caller by the handler).
    pub fn wallet(&self) -> Result<Option<Wallet>, FieldError> {
        optional_wallet(self.wallet.as_deref())
    }

    /// The plan for `merchant`, active, created now; its webhook target (if any) still needs its key.
    pub fn into_plan(self, merchant: Wallet, now_ms: i64, policy: TargetPolicy) -> Result<Plan, FieldError> {
        Ok(Plan {
            id: PlanId::generate(),
            merchant,
            name: name(self.name.as_deref().unwrap_or(""))?,
            description: description(self.description.as_deref())?,
            price: price(self.price_usd.as_ref().unwrap_or(&Value::Null))?,
            period: period(self.period.as_deref().unwrap_or(""))?,
            trial_days: trial_days(self.trial_days.as_ref())?,
            active: true,
            webhook: webhook_target(WEBHOOK_URL, policy, self.webhook_url)?.map(PlanWebhook::unsealed),
            created_at: now_ms,
            updated_at: now_ms,
        })
    }
}

/// A body that changes a stored plan (`PUT` edits it, `DELETE` deactivates it): the wallet it names and the
/// change it asks for. One handler serves both.
pub trait PlanChange {
    /// The wallet the body names (checked against the caller by the handler).
    fn wallet(&self) -> Result<Option<Wallet>, FieldError>;
    /// The change to `merchant`'s plan, made now; a new webhook target still needs its key.
    fn into_update(
        self,
        merchant: Wallet,
        now_ms: i64,
        policy: TargetPolicy,
    ) -> Result<PlanUpdate, FieldError>;
}

impl PlanChange for UpdatePlanRequest {
    fn wallet(&self) -> Result<Option<Wallet>, FieldError> {
        optional_wallet(self.wallet.as_deref())
    }

    fn into_update(
        self,
        merchant: Wallet,
        now_ms: i64,
        policy: TargetPolicy,
    ) -> Result<PlanUpdate, FieldError> {
        let webhook = self
            .webhook_url
            .map(|url| webhook_target(WEBHOOK_URL, policy, url))
            .transpose()?
            .map(|url| url.map(PlanWebhook::unsealed));
        Ok(PlanUpdate {
            id: PlanId::parse("planId", self.plan_id.as_deref().unwrap_or(""))?,
            merchant,
            name: self.name.as_deref().map(name).transpose()?,
            description: self
                .description
                .as_deref()
                .map(|text| description(Some(text)))
                .transpose()?,
            price: self.price_usd.as_ref().map(price).transpose()?,
            period: self.period.as_deref().map(period).transpose()?,
            active: self.active,
            webhook,
            now_ms,
        })
    }
}

impl PlanChange for DeletePlanRequest {
    fn wallet(&self) -> Result<Option<Wallet>, FieldError> {
        optional_wallet(self.wallet.as_deref())
    }

    /// The deactivation of the named plan (its webhook target stays: existing subscriptions keep theirs).
    fn into_update(
        self,
        merchant: Wallet,
        now_ms: i64,
        _policy: TargetPolicy,
    ) -> Result<PlanUpdate, FieldError> {
        Ok(PlanUpdate {
            id: PlanId::parse("planId", self.plan_id.as_deref().unwrap_or(""))?,
            merchant,
            name: None,
            description: None,
            price: None,
            period: None,
            active: Some(false),
            webhook: None,
            now_ms,
        })
    }
}

fn optional_wallet(text: Option<&str>) -> Result<Option<Wallet>, FieldError> {
    text.map(|text| Wallet::parse(text).map_err(|_| FieldError::new("wallet", "must be a 0x address")))
        .transpose()
}

fn name(text: &str) -> Result<String, FieldError> {
    text::printable("name", text, MAX_NAME_CHARS)
}

fn description(text: Option<&str>) -> Result<String, FieldError> {
    let text = text.unwrap_or("").trim();
    if text.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(FieldError::new(
            "description",
            format!("must be at most {MAX_DESCRIPTION_CHARS} characters"),
        ));
    }
    Ok(text.to_owned())
}

fn price(value: &Value) -> Result<Cents, FieldError> {
    let price = Cents::from_json_value(value)
        .map_err(|error| FieldError::new("priceUsd", format!("must be a USD number: {error}")))?;
    if price.as_i64() <= 0 {
        return Err(FieldError::new("priceUsd", "must be greater than 0"));
    }
    Ok(price)
}

fn trial_days(value: Option<&Value>) -> Result<TrialDays, FieldError> {
    let Some(value) = value.filter(|value| !value.is_null()) else {
        return Ok(TrialDays::default());
    };
    value
        .as_i64()
        .and_then(TrialDays::new)
        .ok_or_else(|| FieldError::new("trialDays", "must be a whole number of days from 0 to 365"))
}

fn period(text: &str) -> Result<BillingPeriod, FieldError> {
    text.parse().map_err(|_| {
        FieldError::new(
            "period",
            "must be one of WEEKLY, BIWEEKLY, MONTHLY, QUARTERLY, YEARLY",
        )
    })
}
