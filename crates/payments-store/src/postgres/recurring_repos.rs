//! The recurring billing repository over PostgreSQL.

use std::convert::Infallible;

use async_trait::async_trait;
use payments_core::Wallet;

use crate::postgres::{
    PgStore, idempotency, recurring, recurring_changes, recurring_charges, recurring_create,
    recurring_notices, relayer_lease,
};
use crate::{Committed, EarlierCall, IdempotencyClaim, RecurringRepository, StoreError, TxError};
use payments_domain::recurring::{
    BillingEvent, ChangeRefusal, ChangedSubscription, ChargeClaim, ChargeNotice, ChargeSettlement,
    ClaimRequest, CustomerSubscription, CustomerSubscriptionId, NewCustomerSubscription, Plan, PlanId,
    PlanUpdate, PlatformCancelReason, SettleOutcome, StatusQuery, SubscriptionChange, SubscriptionChangeId,
    SubscriptionRefusal,
};

#[async_trait]
impl RecurringRepository for PgStore {
    async fn create_plan(
        &self,
        plan: &Plan,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<Plan>, TxError<Infallible>> {
        recurring_create::create_plan(self, plan, claim).await
    }

    async fn fetch_plan(&self, id: &PlanId) -> Result<Option<Plan>, StoreError> {
        self.run(|client| Box::pin(async move { recurring::fetch_plan(&client, id).await }))
            .await
    }

    async fn active_plans(&self, merchant: Wallet) -> Result<Vec<Plan>, StoreError> {
        self.run(|client| Box::pin(async move { recurring::active_plans(&client, merchant).await }))
            .await
    }

    async fn update_plan(&self, update: &PlanUpdate) -> Result<Option<Plan>, StoreError> {
        self.run(|client| Box::pin(recurring::update_plan(client, update)))
            .await
    }

    async fn create_subscription(
        &self,
        subscription: &NewCustomerSubscription,
        now_ms: i64,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<CustomerSubscription>, TxError<SubscriptionRefusal>> {
        recurring_create::create_subscription(self, subscription, now_ms, claim).await
    }

    async fn earlier_call(&self, claim: &IdempotencyClaim) -> Result<Option<EarlierCall>, StoreError> {
        self.run(|client| Box::pin(async move { idempotency::earlier(&client, claim).await }))
            .await
    }

    async fn fetch_subscription(
        &self,
        id: &CustomerSubscriptionId,
    ) -> Result<Option<CustomerSubscription>, StoreError> {
        self.run(|client| Box::pin(async move { recurring::fetch_subscription(&client, id).await }))
            .await
    }

    async fn find_subscriptions(&self, query: &StatusQuery) -> Result<Vec<CustomerSubscription>, StoreError> {
        self.run(|client| Box::pin(async move { recurring::find_subscriptions(&client, query).await }))
            .await
    }

    async fn cancel_subscription(
        &self,
        id: &CustomerSubscriptionId,
        now_ms: i64,
    ) -> Result<Option<CustomerSubscription>, StoreError> {
        self.run(|client| Box::pin(recurring::cancel_subscription(client, id, None, now_ms)))
            .await
    }

    async fn cancel_for_reason(
        &self,
        id: &CustomerSubscriptionId,
        reason: PlatformCancelReason,
        now_ms: i64,
    ) -> Result<Option<CustomerSubscription>, StoreError> {
        self.run(|client| Box::pin(recurring::cancel_subscription(client, id, Some(reason), now_ms)))
            .await
    }

    async fn notice_candidates(
        &self,
        now_ms: i64,
        until_ms: i64,
        limit: u32,
    ) -> Result<Vec<CustomerSubscription>, StoreError> {
        self.run(|client| {
            Box::pin(async move { recurring_notices::candidates(&client, now_ms, until_ms, limit).await })
        })
        .await
    }

    async fn record_notices(&self, notices: &[ChargeNotice]) -> Result<u64, StoreError> {
        self.run(|client| Box::pin(recurring_notices::record(client, notices)))
            .await
    }

    async fn claim_due(&self, request: &ClaimRequest) -> Result<Vec<ChargeClaim>, StoreError> {
        self.run(|client| Box::pin(recurring_charges::claim_due(client, request)))
            .await
    }

    async fn acquire_send_lease(
        &self,
        relayer: Wallet,
        owner: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let relayer = relayer.to_string();
        self.run(|client| Box::pin(relayer_lease::acquire(client, &relayer, owner, now_ms, until_ms)))
            .await
    }

    async fn begin_change(
        &self,
        change: &SubscriptionChange,
        lease_until: i64,
    ) -> Result<(), TxError<ChangeRefusal>> {
        match self
            .run(|client| Box::pin(recurring_changes::begin(client, change, lease_until)))
            .await
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(refusal)) => Err(TxError::Refused(refusal)),
            Err(error) => Err(TxError::Store(error)),
        }
    }

    async fn apply_change(
        &self,
        id: &SubscriptionChangeId,
        transaction_hash: Option<String>,
        now_ms: i64,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Option<ChangedSubscription>, StoreError> {
        let claim = claim.as_ref();
        let hash = transaction_hash.as_ref();
        self.run(|client| Box::pin(recurring_changes::apply(client, id, hash.cloned(), now_ms, claim)))
            .await
    }

    async fn applied_change(
        &self,
        id: &SubscriptionChangeId,
    ) -> Result<Option<ChangedSubscription>, StoreError> {
        self.run(|client| Box::pin(async move { recurring_changes::applied(&client, id).await }))
            .await
    }

    async fn fail_change(
        &self,
        id: &SubscriptionChangeId,
        reason: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.run(|client| Box::pin(recurring_changes::fail(client, id, reason, now_ms)))
            .await
    }

    async fn stale_changes(&self, now_ms: i64, limit: u32) -> Result<Vec<SubscriptionChange>, StoreError> {
        self.run(|client| Box::pin(recurring_changes::stale(client, now_ms, limit)))
            .await
    }

    async fn release_send_lease(&self, relayer: Wallet, owner: &str) -> Result<(), StoreError> {
        let relayer = relayer.to_string();
        self.run(|client| Box::pin(relayer_lease::release(client, &relayer, owner)))
            .await
    }

    async fn settle_charges(
        &self,
        settlements: &[ChargeSettlement],
    ) -> Result<Vec<SettleOutcome>, StoreError> {
        self.run(|client| Box::pin(recurring_charges::settle_charges(client, settlements)))
            .await
    }

    async fn billing_events(&self, id: &CustomerSubscriptionId) -> Result<Vec<BillingEvent>, StoreError> {
        self.run(|client| Box::pin(async move { recurring_charges::billing_events(&client, id).await }))
            .await
    }
}
