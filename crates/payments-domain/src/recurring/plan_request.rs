//! The plan routes' bodies, parsed: `priceUsd` above zero with at most 2 decimals, `period` one of the five
//! names, a non-empty name, `webhookUrl` under the same rules as a receipt's `webhook_url`.

use payments_core::{BillingPeriod, Cents, Wallet};
use serde::{Deserialize, Deserializer};
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
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatePlanRequest {
    wallet: Option<String>,
    name: Option<String>,
    description: Option<String>,
    /// USD, greater than 0, at most 2 decimals.
    #[schema(value_type = Option<f64>)]
    price_usd: Option<Value>,
    period: Option<String>,
    /// Free days before a new subscription's first charge, 0 to 365 (default 0: charged at once).
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 365)]
    trial_days: Option<Value>,
    /// HTTPS endpoint for the plan's subscription webhooks (HTTP and loopback in development mode). Needs an
    /// API key: its deliveries are signed with the key of this request.
    #[serde(alias = "webhook_url")]
    webhook_url: Option<String>,
}

/// `PUT /api/subscriptions/plans` body `{ planId, name, description, priceUsd, period, active }`; every field
/// but `planId` may be left out to keep its value.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePlanRequest {
    plan_id: Option<String>,
    wallet: Option<String>,
    name: Option<String>,
    description: Option<String>,
    /// USD, greater than 0, at most 2 decimals.
    #[schema(value_type = Option<f64>)]
    price_usd: Option<Value>,
    period: Option<String>,
    active: Option<bool>,
    /// A new webhook target (signed with this request's API key from now on); `null` or `""` removes it;
    /// left out, the plan keeps its target and key.
    #[serde(default, alias = "webhook_url", deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    webhook_url: Option<Option<String>>,
}

/// Tells a `null` field (`Some(None)`) from a missing one (`None`, through `#[serde(default)]`).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// `DELETE /api/subscriptions/plans` body `{ planId, wallet }`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletePlanRequest {
    plan_id: Option<String>,
    wallet: Option<String>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const MERCHANT: &str = "0x00000000000000000000000000000000000000aa";
    const PRODUCTION: TargetPolicy = TargetPolicy { dev_mode: false };

    fn create(body: Value) -> Result<Plan, FieldError> {
        let request: CreatePlanRequest = serde_json::from_value(body).unwrap();
        request.into_plan(Wallet::parse(MERCHANT).unwrap(), 1_000, PRODUCTION)
    }

    #[test]
    fn a_complete_body_becomes_an_active_plan() {
        let plan = create(json!({"name": " Pro ", "priceUsd": 9.99, "period": "MONTHLY"})).unwrap();

        assert_eq!(plan.name, "Pro");
        assert_eq!(plan.price, Cents::new(999));
        assert_eq!(plan.period, BillingPeriod::Monthly);
        assert!(plan.active);
        assert_eq!(plan.description, "");
    }

    #[test]
    fn zero_negative_or_too_precise_prices_are_refused() {
        for bad in [json!(0), json!(-1), json!(1.005), json!("9.99")] {
            let error = create(json!({"name": "Pro", "priceUsd": bad, "period": "WEEKLY"})).unwrap_err();
            assert_eq!(error.field, "priceUsd");
        }
    }

    #[test]
    fn trial_days_default_to_none_and_stay_within_a_year() {
        let plain = create(json!({"name": "Pro", "priceUsd": 1, "period": "WEEKLY"})).unwrap();
        let year =
            create(json!({"name": "Pro", "priceUsd": 1, "period": "WEEKLY", "trialDays": 365})).unwrap();

        assert_eq!(plain.trial_days.days(), 0);
        assert_eq!(year.trial_days.days(), 365);
        for bad in [json!(366), json!(-1), json!(1.5), json!("7")] {
            let error = create(json!({"name": "Pro", "priceUsd": 1, "period": "WEEKLY", "trialDays": bad}))
                .unwrap_err();
            assert_eq!(error.field, "trialDays");
        }
    }

    #[test]
    fn unknown_periods_are_refused() {
        let error = create(json!({"name": "Pro", "priceUsd": 1, "period": "DAILY"})).unwrap_err();

        assert_eq!(error.field, "period");
    }

    #[test]
    fn an_update_keeps_what_it_does_not_name() {
        let plan = create(json!({"name": "Pro", "priceUsd": 5, "period": "WEEKLY"})).unwrap();
        let request: UpdatePlanRequest =
            serde_json::from_value(json!({"planId": plan.id.as_str(), "priceUsd": 7.5})).unwrap();

        let updated = request
            .into_update(plan.merchant, 2_000, PRODUCTION)
            .unwrap()
            .apply(&plan);

        assert_eq!(updated.price, Cents::new(750));
        assert_eq!(updated.name, "Pro");
        assert_eq!(updated.updated_at, 2_000);
    }

    #[test]
    fn a_plan_webhook_url_follows_the_receipt_rules_and_is_named_in_camel_case() {
        let plan = create(json!({"name": "Pro", "priceUsd": 1, "period": "WEEKLY",
            "webhookUrl": "https://shop.example.com/hooks"}))
        .unwrap();
        let refused = create(json!({"name": "Pro", "priceUsd": 1, "period": "WEEKLY",
            "webhookUrl": "http://shop.example.com/hooks"}))
        .unwrap_err();
        let none =
            create(json!({"name": "Pro", "priceUsd": 1, "period": "WEEKLY", "webhookUrl": ""})).unwrap();

        assert_eq!(
            plan.webhook,
            Some(PlanWebhook::unsealed("https://shop.example.com/hooks".to_owned()))
        );
        assert_eq!(refused.field, "webhookUrl");
        assert_eq!(none.webhook, None);
    }

    #[test]
    fn an_update_tells_a_removed_webhook_from_one_left_out() {
        let plan_id = PlanId::generate();
        let update = |body: Value| {
            let request: UpdatePlanRequest = serde_json::from_value(body).unwrap();
            request
                .into_update(Wallet::parse(MERCHANT).unwrap(), 2_000, PRODUCTION)
                .unwrap()
                .webhook
        };

        let kept = update(json!({"planId": plan_id.as_str()}));
        let removed = update(json!({"planId": plan_id.as_str(), "webhookUrl": null}));
        let emptied = update(json!({"planId": plan_id.as_str(), "webhookUrl": ""}));
        let set = update(json!({"planId": plan_id.as_str(), "webhookUrl": "https://a.example/h"}));

        assert_eq!(kept, None);
        assert_eq!(removed, Some(None));
        assert_eq!(emptied, Some(None));
        assert_eq!(
            set,
            Some(Some(PlanWebhook::unsealed("https://a.example/h".to_owned())))
        );
    }
}
