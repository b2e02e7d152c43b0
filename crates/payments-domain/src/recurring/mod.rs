//! Recurring billing: merchants' plans, customers' subscriptions to them (each backed by a signed spend
//! permission), and the charges the batch makes, one per (subscription, period).
//!
//! Named `recurring` because `Subscription` in this crate is a gateway key record
//! ([`crate::subscription`]); on the wire these are the spec's "subscriptions".

mod change;
mod charge;
mod ids;
mod notice;
mod plan;
mod plan_request;
mod subscribe;

pub use change::{
    ChangeRefusal, ChangeSubscriptionRequest, ChangedSubscription, SubscriptionChange, SubscriptionChangeId,
};
pub use charge::{
    BatchReport, BillingEvent, BillingEventStatus, ChargeClaim, ChargeClaimKind, ChargeOutcome, ChargeResult,
    ChargeResultStatus, ChargeSettlement, ClaimRequest, SettleOutcome,
};
pub use ids::{CustomerSubscriptionId, PlanId};
pub use notice::{ChargeNotice, PlatformCancelReason};
pub use plan::{Plan, PlanUpdate, PlanWebhook, TrialDays};
pub use plan_request::{CreatePlanRequest, DeletePlanRequest, PlanChange, UpdatePlanRequest};
pub use subscribe::{
    CancelRequest, CreateSubscriptionOutcome, CreateSubscriptionRequest, CustomerSubscription,
    NewCustomerSubscription, StatusQuery, SubscriptionRefusal,
};
