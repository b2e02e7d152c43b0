//! The plan routes' bodies, parsed: `priceUsd` above zero with at most 2 decimals, `period` one of the five
//! names, a non-empty name.

use payments_core::{BillingPeriod, Cents, Wallet};
use serde::Deserialize;
use serde_json::Value;

use crate::domain::field_error::FieldError;
use crate::domain::inventory::text;
use crate::domain::recurring::{Plan, PlanId, PlanUpdate};

const MAX_NAME_CHARS: usize = 120;
const MAX_DESCRIPTION_CHARS: usize = 2_000;

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
}

/// `DELETE /api/subscriptions/plans` body `{ planId, wallet }`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeletePlanRequest {
    plan_id: Option<String>,
    wallet: Option<String>,
}

impl CreatePlanRequest {
    /// The wallet the body names (checked against the caller by the handler).
    pub(crate) fn wallet(&self) -> Result<Option<Wallet>, FieldError> {
        optional_wallet(self.wallet.as_deref())
    }

    /// The plan for `merchant`, active, created now.
    pub(crate) fn into_plan(self, merchant: Wallet, now_ms: i64) -> Result<Plan, FieldError> {
        Ok(Plan {
            id: PlanId::generate(),
            merchant,
            name: name(self.name.as_deref().unwrap_or(""))?,
            description: description(self.description.as_deref())?,
            price: price(self.price_usd.as_ref().unwrap_or(&Value::Null))?,
            period: period(self.period.as_deref().unwrap_or(""))?,
            active: true,
            created_at: now_ms,
            updated_at: now_ms,
        })
    }
}

/// A body that changes a stored plan (`PUT` edits it, `DELETE` deactivates it): the wallet it names and the
/// change it asks for. One handler serves both.
pub(crate) trait PlanChange {
    /// The wallet the body names (checked against the caller by the handler).
    fn wallet(&self) -> Result<Option<Wallet>, FieldError>;
    /// The change to `merchant`'s plan, made now.
    fn into_update(self, merchant: Wallet, now_ms: i64) -> Result<PlanUpdate, FieldError>;
}

impl PlanChange for UpdatePlanRequest {
    fn wallet(&self) -> Result<Option<Wallet>, FieldError> {
        optional_wallet(self.wallet.as_deref())
    }

    fn into_update(self, merchant: Wallet, now_ms: i64) -> Result<PlanUpdate, FieldError> {
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
            now_ms,
        })
    }
}

impl PlanChange for DeletePlanRequest {
    fn wallet(&self) -> Result<Option<Wallet>, FieldError> {
        optional_wallet(self.wallet.as_deref())
    }

    /// The deactivation of the named plan.
    fn into_update(self, merchant: Wallet, now_ms: i64) -> Result<PlanUpdate, FieldError> {
        Ok(PlanUpdate {
            id: PlanId::parse("planId", self.plan_id.as_deref().unwrap_or(""))?,
            merchant,
            name: None,
            description: None,
            price: None,
            period: None,
            active: Some(false),
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

    fn create(body: Value) -> Result<Plan, FieldError> {
        let request: CreatePlanRequest = serde_json::from_value(body).unwrap();
        request.into_plan(Wallet::parse(MERCHANT).unwrap(), 1_000)
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
    fn unknown_periods_are_refused() {
        let error = create(json!({"name": "Pro", "priceUsd": 1, "period": "DAILY"})).unwrap_err();

        assert_eq!(error.field, "period");
    }

    #[test]
    fn an_update_keeps_what_it_does_not_name() {
        let plan = create(json!({"name": "Pro", "priceUsd": 5, "period": "WEEKLY"})).unwrap();
        let request: UpdatePlanRequest =
            serde_json::from_value(json!({"planId": plan.id.as_str(), "priceUsd": 7.5})).unwrap();

        let updated = request.into_update(plan.merchant, 2_000).unwrap().apply(&plan);

        assert_eq!(updated.price, Cents::new(750));
        assert_eq!(updated.name, "Pro");
        assert_eq!(updated.updated_at, 2_000);
    }
}
