//! The recurring billing repository over SQLite: reads on the reader pool, every write (claims and
//! settlements included) one transaction of the single writer, so two batch runs in one process or two
//! processes on one file are serialized by the database.

use std::convert::Infallible;

use async_trait::async_trait;
use payments_core::Wallet;

use crate::sqlite::{
    SqliteStore, idempotency, recurring, recurring_changes, recurring_charges, recurring_notices,
    relayer_lease, use_cases,
};
use crate::{Committed, EarlierCall, IdempotencyClaim, RecurringRepository, StoreError, TxError};
use payments_domain::recurring::{
    BillingEvent, ChangeRefusal, ChangedSubscription, ChargeClaim, ChargeNotice, ChargeSettlement,
    ClaimRequest, CustomerSubscription, CustomerSubscriptionId, NewCustomerSubscription, Plan, PlanId,
    PlanUpdate, PlatformCancelReason, SettleOutcome, StatusQuery, SubscriptionChange, SubscriptionChangeId,
    SubscriptionRefusal,
};

#[async_trait]
impl RecurringRepository for SqliteStore {
    async fn create_plan(
        &self,
        plan: &Plan,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<Plan>, TxError<Infallible>> {
        self.transact_claimed((plan.clone(), claim), use_cases::create_plan)
            .await
    }

    async fn fetch_plan(&self, id: &PlanId) -> Result<Option<Plan>, StoreError> {
        let id = id.clone();
        self.read_point(move |conn| recurring::fetch_plan(conn, &id))
            .await
    }

    async fn active_plans(&self, merchant: Wallet) -> Result<Vec<Plan>, StoreError> {
        self.read(move |conn| recurring::active_plans(conn, merchant))
            .await
    }

    async fn update_plan(&self, update: &PlanUpdate) -> Result<Option<Plan>, StoreError> {
        let update = update.clone();
        self.write(move |conn| recurring::update_plan(conn, &update))
            .await
    }

    async fn create_subscription(
        &self,
        subscription: &NewCustomerSubscription,
        now_ms: i64,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<CustomerSubscription>, TxError<SubscriptionRefusal>> {
        self.transact_claimed((subscription.clone(), claim), move |conn, work, recover| {
            use_cases::create_subscription(conn, work, now_ms, recover)
        })
        .await
    }

    async fn earlier_call(&self, claim: &IdempotencyClaim) -> Result<Option<EarlierCall>, StoreError> {
        let claim = claim.clone();
        self.read_point(move |conn| idempotency::earlier(conn, &claim))
            .await
    }

    async fn fetch_subscription(
        &self,
        id: &CustomerSubscriptionId,
    ) -> Result<Option<CustomerSubscription>, StoreError> {
        let id = id.clone();
        self.read_point(move |conn| recurring::fetch_subscription(conn, &id))
            .await
    }

    async fn find_subscriptions(&self, query: &StatusQuery) -> Result<Vec<CustomerSubscription>, StoreError> {
        let query = query.clone();
        self.read(move |conn| recurring::find_subscriptions(conn, &query))
            .await
    }

    async fn cancel_subscription(
        &self,
        id: &CustomerSubscriptionId,
        now_ms: i64,
    ) -> Result<Option<CustomerSubscription>, StoreError> {
        let id = id.clone();
        self.write(move |conn| recurring::cancel_subscription(conn, &id, None, now_ms))
            .await
    }

    async fn cancel_for_reason(
        &self,
        id: &CustomerSubscriptionId,
        reason: PlatformCancelReason,
        now_ms: i64,
    ) -> Result<Option<CustomerSubscription>, StoreError> {
        let id = id.clone();
        self.write(move |conn| recurring::cancel_subscription(conn, &id, Some(reason), now_ms))
            .await
    }

    async fn notice_candidates(
        &self,
        now_ms: i64,
        until_ms: i64,
        limit: u32,
    ) -> Result<Vec<CustomerSubscription>, StoreError> {
        self.read(move |conn| recurring_notices::candidates(conn, now_ms, until_ms, limit))
            .await
    }

    async fn record_notices(&self, notices: &[ChargeNotice]) -> Result<u64, StoreError> {
        let notices = notices.to_vec();
        self.write(move |conn| recurring_notices::record(conn, &notices))
            .await
    }

    async fn claim_due(&self, request: &ClaimRequest) -> Result<Vec<ChargeClaim>, StoreError> {
        let request = request.clone();
        self.write(move |conn| recurring_charges::claim_due(conn, &request))
            .await
    }

    async fn acquire_send_lease(
        &self,
        relayer: Wallet,
        owner: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let owner = owner.to_owned();
        self.write(move |conn| relayer_lease::acquire(conn, &relayer.to_string(), &owner, now_ms, until_ms))
            .await
    }

    async fn begin_change(
        &self,
        change: &SubscriptionChange,
        lease_until: i64,
    ) -> Result<(), TxError<ChangeRefusal>> {
        let change = change.clone();
        match self
            .write(move |conn| recurring_changes::begin(conn, &change, lease_until))
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
        let id = id.clone();
        self.write(move |conn| recurring_changes::apply(conn, &id, transaction_hash, now_ms, claim))
            .await
    }

    async fn applied_change(
        &self,
        id: &SubscriptionChangeId,
    ) -> Result<Option<ChangedSubscription>, StoreError> {
        let id = id.clone();
        self.read_point(move |conn| recurring_changes::applied(conn, &id))
            .await
    }

    async fn fail_change(
        &self,
        id: &SubscriptionChangeId,
        reason: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let (id, reason) = (id.clone(), reason.to_owned());
        self.write(move |conn| recurring_changes::fail(conn, &id, &reason, now_ms))
            .await
    }

    async fn stale_changes(&self, now_ms: i64, limit: u32) -> Result<Vec<SubscriptionChange>, StoreError> {
        self.read(move |conn| recurring_changes::stale(conn, now_ms, limit))
            .await
    }

    async fn release_send_lease(&self, relayer: Wallet, owner: &str) -> Result<(), StoreError> {
        let owner = owner.to_owned();
        self.write(move |conn| relayer_lease::release(conn, &relayer.to_string(), &owner))
            .await
    }

    async fn settle_charges(
        &self,
        settlements: &[ChargeSettlement],
    ) -> Result<Vec<SettleOutcome>, StoreError> {
        let settlements = settlements.to_vec();
        self.write(move |conn| recurring_charges::settle_charges(conn, &settlements))
            .await
    }

    async fn billing_events(&self, id: &CustomerSubscriptionId) -> Result<Vec<BillingEvent>, StoreError> {
        let id = id.clone();
        self.read(move |conn| recurring_charges::billing_events(conn, &id))
            .await
    }
}
