//! Wire views of plans, subscriptions and billing events (the spec's SubscriptionPlan and Subscription,
//! plus fields the spec leaves open).

use payments_core::{BillingPeriod, Cents, Wallet};
use serde::Serialize;

use crate::domain::recurring::{CustomerSubscription, Plan};

/// SubscriptionPlan: `planId, name, description, priceUsd, period, active, createdAt` (+ `wallet`, and
/// `webhookUrl`; never its signing key).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlanView<'a> {
    #[schema(value_type = String)]
    plan_id: &'a str,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    name: &'a str,
    description: &'a str,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    price_usd: Cents,
    /// WEEKLY, BIWEEKLY, MONTHLY, QUARTERLY or YEARLY.
    #[schema(value_type = String)]
    period: BillingPeriod,
    /// Free days before a new subscription's first charge (0: charged at once).
    #[schema(minimum = 0, maximum = 365)]
    trial_days: u16,
    active: bool,
    /// Where the plan's subscription webhooks go (null without a target). Shown to the merchant only: left
    /// out of the public list.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    webhook_url: Option<Option<&'a str>>,
    created_at: i64,
}

impl<'a> PlanView<'a> {
    pub(crate) fn new(plan: &'a Plan) -> Self {
        PlanView {
            plan_id: plan.id.as_str(),
            wallet: plan.merchant,
            name: &plan.name,
            description: &plan.description,
            price_usd: plan.price,
            period: plan.period,
            trial_days: plan.trial_days.days(),
            active: plan.active,
            webhook_url: Some(plan.webhook.as_ref().map(|webhook| webhook.url.as_str())),
            created_at: plan.created_at,
        }
    }

    /// The plan as anyone may see it: without its webhook target.
    pub(crate) fn public(plan: &'a Plan) -> Self {
        PlanView {
            webhook_url: None,
            ..PlanView::new(plan)
        }
    }
}

/// Subscription: `subscriptionId, status, nextChargeAt` (+ the plan, parties, terms and times; never the
/// permission signature).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SubscriptionView<'a> {
    #[schema(value_type = String)]
    subscription_id: &'a str,
    /// trialing, active, past_due or canceled.
    status: &'static str,
    /// Unix ms; absent once canceled.
    #[serde(skip_serializing_if = "Option::is_none")]
    next_charge_at: Option<i64>,
    #[schema(value_type = String)]
    plan_id: &'a str,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    merchant: Wallet,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    customer: Wallet,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    price_usd: Cents,
    #[schema(value_type = String)]
    period: BillingPeriod,
    created_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    canceled_at: Option<i64>,
    /// Why the platform ended it: `revoked_on_chain` (the customer revoked its spend permission on chain).
    /// Absent when a person or the failure policy ended it.
    #[serde(skip_serializing_if = "Option::is_none")]
    cancel_reason: Option<&'a str>,
}

impl<'a> SubscriptionView<'a> {
    pub(crate) fn new(subscription: &'a CustomerSubscription) -> Self {
        SubscriptionView {
            subscription_id: subscription.id.as_str(),
            status: subscription.status.as_str(),
            next_charge_at: subscription
                .status
                .is_chargeable()
                .then_some(subscription.next_charge_at),
            plan_id: subscription.plan_id.as_str(),
            merchant: subscription.merchant,
            customer: subscription.customer,
            price_usd: subscription.price,
            period: subscription.period,
            created_at: subscription.created_at,
            canceled_at: subscription.canceled_at,
            cancel_reason: subscription.cancel_reason.as_deref(),
        }
    }
}
