//! Recurring billing: merchants' plans, customers' subscriptions to them (each backed by a signed spend
//! permission), and the charges the batch makes, one per (subscription, period).
//!
//! Named `recurring` because `Subscription` in this crate is a gateway key record
//! ([`crate::domain::subscription`]); on the wire these are the spec's "subscriptions".

mod charge;
mod ids;
mod plan;
mod plan_request;
mod subscribe;

pub(crate) use charge::{
    BatchReport, BillingEvent, ChargeClaim, ChargeClaimKind, ChargeOutcome, ChargeResult, ChargeResultStatus,
    ChargeSettlement, ClaimRequest, SettleOutcome,
};
pub(crate) use ids::{CustomerSubscriptionId, PlanId};
pub(crate) use plan::{Plan, PlanUpdate, PlanWebhook};
pub(crate) use plan_request::{CreatePlanRequest, DeletePlanRequest, PlanChange, UpdatePlanRequest};
pub(crate) use subscribe::{
    CancelRequest, CreateSubscriptionOutcome, CreateSubscriptionRequest, CustomerSubscription,
    NewCustomerSubscription, StatusQuery, SubscriptionRefusal,
};
