//! The repositories of user discovery and of the billing balance.

use std::fmt;

use async_trait::async_trait;
use payments_core::{Cents, Wallet};

use crate::StoreError;
use crate::ledger::{LedgerQuery, LedgerRecord};
use payments_domain::user::{
    FollowOutcome, FollowPage, Heartbeat, LiveQuery, ProfileUpdate, User, UserPage, UserSearch,
};

/// Users: profiles with their metrics, presence, follows, and the xp receipts credit (see
/// [`crate::purchase_credit_changes`], applied inside [`super::ReceiptRepository::transition`]).
#[async_trait]
pub trait UserRepository: Send + Sync + fmt::Debug {
    /// A listed user.
    async fn fetch_user(&self, wallet: Wallet) -> Result<Option<User>, StoreError>;
    /// Replaces the wallet's profile (and lists it); returns the stored user.
    async fn save_profile(&self, update: &ProfileUpdate) -> Result<User, StoreError>;
    /// Records a heartbeat (and lists the wallet); `live_since` follows `domain::user::next_live_since`.
    async fn heartbeat(&self, beat: &Heartbeat) -> Result<User, StoreError>;
    /// `follower` follows `followed`, which must be a listed user; the follower becomes listed.
    async fn follow(
        &self,
        follower: Wallet,
        followed: Wallet,
        now_ms: i64,
    ) -> Result<FollowOutcome, StoreError>;
    /// False when `follower` did not follow `followed`.
    async fn unfollow(&self, follower: Wallet, followed: Wallet, now_ms: i64) -> Result<bool, StoreError>;
    /// Listed users by xp (descending, then wallet): at most `search.scan` of them are read from the xp
    /// index (positioned by the xp bounds), the other filters are applied to those; `total` counts the
    /// matches among them.
    async fn search(&self, search: &UserSearch) -> Result<UserPage, StoreError>;
    /// Listed users live with a public space and heard from at or after `query.after_ms`, most recent
    /// heartbeat first.
    async fn live(&self, query: LiveQuery) -> Result<Vec<User>, StoreError>;
    /// The listed users `follower` follows, by wallet, after `after` (exclusive), at most `first`.
    async fn follows(
        &self,
        follower: Wallet,
        first: u32,
        after: Option<Wallet>,
    ) -> Result<FollowPage, StoreError>;
}

/// What a merchant's receipts owe the platform, before the fee rate is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReceiptFeeBase {
    /// Receipts with money paid (whatever happened after, refunds included).
    pub paid_receipts: u64,
    /// What those receipts were paid.
    pub paid: Cents,
    /// The paid receipts whose split ran on chain: they reached `completed`.
    pub settled_receipts: u64,
    /// What those receipts were paid.
    pub settled_paid: Cents,
}

/// The totals the billing balance is computed from.
#[async_trait]
pub trait BillingRepository: Send + Sync + fmt::Debug {
    async fn receipt_fee_base(&self, merchant: Wallet) -> Result<ReceiptFeeBase, StoreError>;
    /// The merchant's successful subscription charges, from their billing events.
    async fn subscription_fee_base(&self, merchant: Wallet) -> Result<SubscriptionFeeBase, StoreError>;
    /// One page of the merchant's recorded money movements in export order (`crate::ledger`).
    async fn ledger_page(&self, query: LedgerQuery) -> Result<Vec<LedgerRecord>, StoreError>;
}

/// What a merchant's subscription charges paid the platform: the `charged` billing events' sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SubscriptionFeeBase {
    pub charges: u64,
    /// What the customers paid (the prices, whole cents).
    pub charged: Cents,
    /// The platform's fees, exact in token base units (moved to the platform by each charge itself).
    pub fees: payments_core::TokenAmount,
}
