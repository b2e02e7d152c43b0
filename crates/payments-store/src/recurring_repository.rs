//! The repository of recurring billing: plans, customer subscriptions, and the exactly-once charge ledger
//! the batch claims and settles.
//!
//! Creating a plan or a subscription is one transaction with an optional idempotency claim, like the sale
//! use case ([`crate::ReceiptRepository::create`]): the key is checked first, the row written, and the
//! claim committed naming it; the caller keeps the rendered response afterwards. A plan change commits its
//! claim the same way when it is applied.

use std::convert::Infallible;
use std::fmt;

use async_trait::async_trait;
use payments_core::Wallet;

use crate::{Committed, EarlierCall, IdempotencyClaim, StoreError, TxError};
use payments_domain::recurring::{
    BillingEvent, ChangeRefusal, ChangedSubscription, ChargeClaim, ChargeNotice, ChargeSettlement,
    ClaimRequest, CustomerSubscription, CustomerSubscriptionId, NewCustomerSubscription, Plan, PlanId,
    PlanUpdate, PlatformCancelReason, SettleOutcome, StatusQuery, SubscriptionChange, SubscriptionChangeId,
    SubscriptionRefusal,
};

/// The most subscriptions a status listing returns (newest first).
pub const STATUS_LISTING_LIMIT: u32 = 200;

/// Plans, subscriptions and charges; each method is one transaction.
#[async_trait]
pub trait RecurringRepository: Send + Sync + fmt::Debug {
    /// Stores `plan`; with a claim, a key already kept answers its response instead (same body) or
    /// [`TxError::IdempotencyConflict`] (another body), a key committed without a kept response answers the
    /// stored plan it names ([`Committed::Recovered`]), and a fresh create commits the claim naming the plan
    /// (the caller keeps the response with [`crate::IdempotencyRepository::keep_response`]).
    async fn create_plan(
        &self,
        plan: &Plan,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<Plan>, TxError<Infallible>>;
    async fn fetch_plan(&self, id: &PlanId) -> Result<Option<Plan>, StoreError>;
    /// The merchant's active plans, oldest first.
    async fn active_plans(&self, merchant: Wallet) -> Result<Vec<Plan>, StoreError>;
    /// Applies `update` to the merchant's plan; `None` when the merchant has no plan with that id.
    async fn update_plan(&self, update: &PlanUpdate) -> Result<Option<Plan>, StoreError>;

    /// Stores a subscription if its plan is still active and its permission hash unused, with the claim
    /// checked and named as in [`RecurringRepository::create_plan`]. A refusal keeps nothing.
    async fn create_subscription(
        &self,
        subscription: &NewCustomerSubscription,
        now_ms: i64,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<CustomerSubscription>, TxError<SubscriptionRefusal>>;
    /// What an earlier call under the claim's wallet, scope and key left within the retention (its request
    /// hash tells a replay from a conflict); `None` when the key is unused. A read outside any transaction:
    /// the service answers a replay, or recovers a committed call's answer from the resource its claim
    /// names, before checks that read state a replay must not depend on (the use case's transaction checks
    /// the claim again).
    async fn earlier_call(&self, claim: &IdempotencyClaim) -> Result<Option<EarlierCall>, StoreError>;
    async fn fetch_subscription(
        &self,
        id: &CustomerSubscriptionId,
    ) -> Result<Option<CustomerSubscription>, StoreError>;
    /// The subscriptions `query` selects, newest first, at most [`STATUS_LISTING_LIMIT`].
    async fn find_subscriptions(&self, query: &StatusQuery) -> Result<Vec<CustomerSubscription>, StoreError>;
    /// Marks the subscription `canceled` (idempotent) and returns it; `None` when unknown.
    async fn cancel_subscription(
        &self,
        id: &CustomerSubscriptionId,
        now_ms: i64,
    ) -> Result<Option<CustomerSubscription>, StoreError>;

    /// Cancels the subscription for `reason` (its record and its webhook's `cancelReason` say why);
    /// `None` when unknown, unchanged when canceled already.
    async fn cancel_for_reason(
        &self,
        id: &CustomerSubscriptionId,
        reason: PlatformCancelReason,
        now_ms: i64,
    ) -> Result<Option<CustomerSubscription>, StoreError>;

    /// Up to `limit` chargeable subscriptions whose next charge is a fresh period's, due after `now_ms` and
    /// at or before `until_ms`, and not yet noticed for that period; soonest first.
    async fn notice_candidates(
        &self,
        now_ms: i64,
        until_ms: i64,
        limit: u32,
    ) -> Result<Vec<CustomerSubscription>, StoreError>;
    /// Records each notice once per (subscription, period) with its `subscription.charge_upcoming` webhook,
    /// all in one transaction; a notice already recorded (by another run) is skipped. Answers how many
    /// were recorded.
    async fn record_notices(&self, notices: &[ChargeNotice]) -> Result<u64, StoreError>;

    /// Leases up to `request.limit` due (subscription, period) pairs to `request.owner`: writes each one's
    /// charge row `pending` with the lease before returning it, so no other run can take it until the lease
    /// ends. A pending row whose lease ended comes back as [`payments_domain::recurring::ChargeClaimKind::Reconcile`].
    async fn claim_due(&self, request: &ClaimRequest) -> Result<Vec<ChargeClaim>, StoreError>;
    /// Settles each claim the owner still holds: the charge row, its billing event and the subscription's
    /// new schedule together (all of them in one transaction). Answers one outcome per settlement, in order.
    async fn settle_charges(
        &self,
        settlements: &[ChargeSettlement],
    ) -> Result<Vec<SettleOutcome>, StoreError>;
    /// A subscription's billing events, oldest first.
    async fn billing_events(&self, id: &CustomerSubscriptionId) -> Result<Vec<BillingEvent>, StoreError>;
    /// Takes (or extends) the send lease of `relayer` for `owner` until `until_ms`: `false` while another
    /// owner holds it unexpired. Instances sharing the database send a relayer's charge batches in turn.
    async fn acquire_send_lease(
        &self,
        relayer: Wallet,
        owner: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError>;
    /// Records `change` `pending` until `lease_until`, before its chain transaction is sent, when the
    /// subscription is not canceled, the new plan is active, no charge or other change of the subscription
    /// is pending and the new permission backs no subscription; otherwise the refusal, and nothing written.
    /// While pending, the batch does not claim the subscription.
    async fn begin_change(
        &self,
        change: &SubscriptionChange,
        lease_until: i64,
    ) -> Result<(), TxError<ChangeRefusal>>;
    /// Applies the pending change `id` in one transaction: the subscription's plan, price, permission and
    /// credit, the prorated charge's billing event (`transaction_hash`, `None` when found on chain by a
    /// reconciliation), the `subscription.updated` webhook, what the change replaced (kept on its record),
    /// and the claim committed naming the change (the caller keeps the answer with
    /// [`crate::IdempotencyRepository::keep_response`]). `None` when the change is not pending (another run
    /// finished it).
    async fn apply_change(
        &self,
        id: &SubscriptionChangeId,
        transaction_hash: Option<String>,
        now_ms: i64,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Option<ChangedSubscription>, StoreError>;
    /// The applied change `id` as it answered: the subscription as stored now, and what the change did as its
    /// record kept it; `None` when it is not applied (or was applied before its record kept that, v24).
    async fn applied_change(
        &self,
        id: &SubscriptionChangeId,
    ) -> Result<Option<ChangedSubscription>, StoreError>;
    /// Marks the pending change `id` failed (the chain refused it, or it never happened): the subscription
    /// keeps its plan. Nothing when it is not pending.
    async fn fail_change(
        &self,
        id: &SubscriptionChangeId,
        reason: &str,
        now_ms: i64,
    ) -> Result<(), StoreError>;
    /// Up to `limit` pending changes whose lease ended at or before `now_ms`: a run crashed (or lost the
    /// node) after recording them; a later run reconciles each with the chain.
    async fn stale_changes(&self, now_ms: i64, limit: u32) -> Result<Vec<SubscriptionChange>, StoreError>;
    /// Gives the send lease back (nothing when `owner` no longer holds it).
    async fn release_send_lease(&self, relayer: Wallet, owner: &str) -> Result<(), StoreError>;
}
