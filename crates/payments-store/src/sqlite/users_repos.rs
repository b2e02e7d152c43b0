//! The user and billing repositories over SQLite.

use async_trait::async_trait;
use payments_core::Wallet;

use crate::ledger::{LedgerQuery, LedgerRecord};
use crate::sqlite::{SqliteStore, billing, ledger, users, users_search};
use crate::{BillingRepository, ReceiptFeeBase, StoreError, SubscriptionFeeBase, UserRepository};
use payments_domain::user::{
    FollowOutcome, FollowPage, Heartbeat, LiveQuery, ProfileUpdate, User, UserPage, UserSearch,
};

#[async_trait]
impl UserRepository for SqliteStore {
    async fn fetch_user(&self, wallet: Wallet) -> Result<Option<User>, StoreError> {
        self.read_point(move |conn| users::fetch(conn, wallet)).await
    }

    async fn save_profile(&self, update: &ProfileUpdate) -> Result<User, StoreError> {
        let update = update.clone();
        self.write(move |conn| users::save_profile(conn, &update)).await
    }

    async fn heartbeat(&self, beat: &Heartbeat) -> Result<User, StoreError> {
        let beat = beat.clone();
        self.write(move |conn| users::heartbeat(conn, &beat)).await
    }

    async fn follow(
        &self,
        follower: Wallet,
        followed: Wallet,
        now_ms: i64,
    ) -> Result<FollowOutcome, StoreError> {
        self.write(move |conn| users::follow(conn, follower, followed, now_ms))
            .await
    }

    async fn unfollow(&self, follower: Wallet, followed: Wallet, now_ms: i64) -> Result<bool, StoreError> {
        self.write(move |conn| users::unfollow(conn, follower, followed, now_ms))
            .await
    }

    async fn search(&self, search: &UserSearch) -> Result<UserPage, StoreError> {
        let search = search.clone();
        self.read(move |conn| users_search::search(conn, &search)).await
    }

    async fn live(&self, query: LiveQuery) -> Result<Vec<User>, StoreError> {
        self.read(move |conn| users_search::live(conn, query)).await
    }

    async fn follows(
        &self,
        follower: Wallet,
        first: u32,
        after: Option<Wallet>,
    ) -> Result<FollowPage, StoreError> {
        self.read(move |conn| users_search::follows(conn, follower, first, after))
            .await
    }
}

#[async_trait]
impl BillingRepository for SqliteStore {
    async fn receipt_fee_base(&self, merchant: Wallet) -> Result<ReceiptFeeBase, StoreError> {
        self.read(move |conn| billing::receipt_fee_base(conn, merchant))
            .await
    }

    async fn subscription_fee_base(&self, merchant: Wallet) -> Result<SubscriptionFeeBase, StoreError> {
        self.read(move |conn| billing::subscription_fee_base(conn, merchant))
            .await
    }

    async fn ledger_page(&self, query: LedgerQuery) -> Result<Vec<LedgerRecord>, StoreError> {
        self.read(move |conn| ledger::ledger_page(conn, &query)).await
    }
}
