//! The recurring billing repository over PostgreSQL.

use async_trait::async_trait;
use payments_core::Wallet;

use crate::domain::recurring::{
    BillingEvent, ChargeClaim, ChargeSettlement, ClaimRequest, CreateSubscriptionOutcome,
    CustomerSubscription, CustomerSubscriptionId, NewCustomerSubscription, Plan, PlanId, PlanUpdate,
    SettleOutcome, StatusQuery,
};
use crate::store::postgres::{PgStore, recurring, recurring_charges};
use crate::store::{RecurringRepository, StoreError};

#[async_trait]
impl RecurringRepository for PgStore {
    async fn create_plan(&self, plan: &Plan) -> Result<(), StoreError> {
        self.run(|client| Box::pin(async move { recurring::create_plan(&client, plan).await }))
            .await
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
    ) -> Result<CreateSubscriptionOutcome, StoreError> {
        self.run(|client| Box::pin(recurring::create_subscription(client, subscription, now_ms)))
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
        self.run(|client| Box::pin(recurring::cancel_subscription(client, id, now_ms)))
            .await
    }

    async fn claim_due(&self, request: &ClaimRequest) -> Result<Vec<ChargeClaim>, StoreError> {
        self.run(|client| Box::pin(recurring_charges::claim_due(client, request)))
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
