//! The user and billing repositories over PostgreSQL.

use async_trait::async_trait;
use payments_core::Wallet;

use crate::ledger::{LedgerQuery, LedgerRecord};
use crate::postgres::{PgStore, billing, ledger, users, users_search};
use crate::{BillingRepository, ReceiptFeeBase, StoreError, SubscriptionFeeBase, UserRepository};
use payments_domain::user::{
    FollowOutcome, FollowPage, Heartbeat, LiveQuery, ProfileUpdate, User, UserPage, UserSearch,
};

#[async_trait]
impl UserRepository for PgStore {
    async fn fetch_user(&self, wallet: Wallet) -> Result<Option<User>, StoreError> {
        self.run(|client| Box::pin(async move { users::fetch(&client, wallet).await }))
            .await
    }

    async fn save_profile(&self, update: &ProfileUpdate) -> Result<User, StoreError> {
        self.run(|client| Box::pin(users::save_profile(client, update)))
            .await
    }

    async fn heartbeat(&self, beat: &Heartbeat) -> Result<User, StoreError> {
        self.run(|client| Box::pin(users::heartbeat(client, beat))).await
    }

    async fn follow(
        &self,
        follower: Wallet,
        followed: Wallet,
        now_ms: i64,
    ) -> Result<FollowOutcome, StoreError> {
        self.run(|client| Box::pin(users::follow(client, follower, followed, now_ms)))
            .await
    }

    async fn unfollow(&self, follower: Wallet, followed: Wallet, now_ms: i64) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(users::unfollow(client, follower, followed, now_ms)))
            .await
    }

    async fn search(&self, search: &UserSearch) -> Result<UserPage, StoreError> {
        self.run(|client| Box::pin(users_search::search(client, search)))
            .await
    }

    async fn live(&self, query: LiveQuery) -> Result<Vec<User>, StoreError> {
        self.run(|client| Box::pin(users_search::live(client, query)))
            .await
    }

    async fn follows(
        &self,
        follower: Wallet,
        first: u32,
        after: Option<Wallet>,
    ) -> Result<FollowPage, StoreError> {
        self.run(|client| Box::pin(users_search::follows(client, follower, first, after)))
            .await
    }
}

#[async_trait]
impl BillingRepository for PgStore {
    async fn receipt_fee_base(&self, merchant: Wallet) -> Result<ReceiptFeeBase, StoreError> {
        self.run(|client| Box::pin(billing::receipt_fee_base(client, merchant)))
            .await
    }

    async fn subscription_fee_base(&self, merchant: Wallet) -> Result<SubscriptionFeeBase, StoreError> {
        self.run(|client| Box::pin(billing::subscription_fee_base(client, merchant)))
            .await
    }

    async fn ledger_page(&self, query: LedgerQuery) -> Result<Vec<LedgerRecord>, StoreError> {
        self.run(|client| {
            let query = query.clone();
            Box::pin(async move { ledger::ledger_page(client, &query).await })
        })
        .await
    }
}
