//! Plan bodies (`POST`, `PUT` and `DELETE /api/subscriptions/plans`), decoded here and handed to the domain
//! as its requests, which parse them. The tests read real JSON bodies: which field is `null` and which is
//! left out is a property of the wire.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::domain::recurring as domain;

/// `POST /api/subscriptions/plans` body `{ wallet, name, description, priceUsd, period }`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CreatePlanRequest {
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

impl From<CreatePlanRequest> for domain::CreatePlanRequest {
    fn from(request: CreatePlanRequest) -> Self {
        domain::CreatePlanRequest {
            wallet: request.wallet,
            name: request.name,
            description: request.description,
            price_usd: request.price_usd,
            period: request.period,
            trial_days: request.trial_days,
            webhook_url: request.webhook_url,
        }
    }
}

/// `PUT /api/subscriptions/plans` body `{ planId, name, description, priceUsd, period, active }`; every field
/// but `planId` may be left out to keep its value.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UpdatePlanRequest {
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

impl From<UpdatePlanRequest> for domain::UpdatePlanRequest {
    fn from(request: UpdatePlanRequest) -> Self {
        domain::UpdatePlanRequest {
            plan_id: request.plan_id,
            wallet: request.wallet,
            name: request.name,
            description: request.description,
            price_usd: request.price_usd,
            period: request.period,
            active: request.active,
            webhook_url: request.webhook_url,
        }
    }
}

/// `DELETE /api/subscriptions/plans` body `{ planId, wallet }`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeletePlanRequest {
    plan_id: Option<String>,
    wallet: Option<String>,
}

impl From<DeletePlanRequest> for domain::DeletePlanRequest {
    fn from(request: DeletePlanRequest) -> Self {
        domain::DeletePlanRequest {
            plan_id: request.plan_id,
            wallet: request.wallet,
        }
    }
}

/// Tells a `null` field (`Some(None)`) from a missing one (`None`, through `#[serde(default)]`).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use payments_core::{BillingPeriod, Cents, Wallet};
    use serde_json::{Value, json};

    use super::*;
    use crate::domain::field_error::FieldError;
    use crate::domain::receipt::TargetPolicy;
    use crate::domain::recurring::{Plan, PlanChange, PlanId, PlanWebhook};

    const MERCHANT: &str = "0x00000000000000000000000000000000000000aa";
    const PRODUCTION: TargetPolicy = TargetPolicy { dev_mode: false };

    fn create(body: Value) -> Result<Plan, FieldError> {
        let request: CreatePlanRequest = serde_json::from_value(body).unwrap();
        domain::CreatePlanRequest::from(request).into_plan(
            Wallet::parse(MERCHANT).unwrap(),
            1_000,
            PRODUCTION,
        )
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

        let updated = domain::UpdatePlanRequest::from(request)
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
            domain::UpdatePlanRequest::from(request)
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
