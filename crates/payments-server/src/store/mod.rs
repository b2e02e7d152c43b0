//! Persistence behind use-case-sized operations. No backend type (rusqlite, r2d2) crosses the [`Store`] trait.
//!
//! The trait is blocking: services run it on tokio's blocking pool through [`blocking`], so a slow disk
//! never stalls the request threads.

#[cfg(test)]
mod contract;
// Until the server selects a backend through the repositories (the services still use `Store`), only
// tests construct the PostgreSQL store; the expectation fails, and must go, once it is wired in.
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "constructed only by tests until the server wires the repositories"
    )
)]
mod postgres;
mod receipt_types;
mod repository;
mod sqlite;
mod use_case;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use payments_core::{FeePct, Wallet};
use thiserror::Error;

use crate::domain::admin::{NewAdminSession, SessionId, StoredAdminSession};
use crate::domain::api_key::{KeyHash, SubscriptionId};
use crate::domain::inventory::{
    ImageDataUrl, InventoryItem, InventoryPage, InventoryQuery, ItemDraft, ProductId, Sku,
};
use crate::domain::receipt::{ItemRef, NewReceipt, Receipt, ReceiptId};
use crate::domain::shop::ShopConfig;
use crate::domain::split::{ArchivedSplit, SplitSaved, StoredSplit};
use crate::domain::subscription::{NewSubscription, Subscription};

pub(crate) use crate::domain::receipt::{OrderError, ReceiptError};
#[cfg_attr(
    not(test),
    expect(
        unused_imports,
        reason = "constructed only by tests until the server wires the repositories"
    )
)]
pub(crate) use postgres::PgStore;
#[cfg(any(test, feature = "testing"))]
pub use postgres::PgTestDatabase;
pub(crate) use receipt_types::{
    AttemptLog, AttemptRecord, CreateReceiptOutcome, DeliveryLog, DeliveryNext, DueDelivery,
    IdempotentResponse, NewDelivery, NewRefund, StockTake, TransitionCommit,
};
pub(crate) use repository::{
    HealthRepository, InventoryRepository, KeyRepository, OutboxRepository, ReceiptRepository,
    SessionRepository, ShopRepository,
};
pub(crate) use sqlite::SqliteStore;
pub(crate) use use_case::{
    Committed, IDEMPOTENCY_RETENTION_MS, IdempotencyClaim, MerchantSnapshot, Render, SaleDecision,
    SaleInputs, SalePlan, SaleTx, TransitionDecision, TransitionTx, Transitioned, TxError,
};

/// A failure of the datastore itself (never a business outcome).
#[derive(Debug, Error)]
pub enum StoreError {
    /// No connection could be had, or the database refused to work.
    #[error("datastore unavailable: {0}")]
    Unavailable(String),
    /// The datastore stayed busy (locked, serialization failures, deadlocks) past the bounded retries;
    /// nothing was written. Answered as 503 `datastore_unavailable` with `Retry-After`.
    #[error("datastore busy: {0}")]
    Busy(String),
    /// A query failed.
    #[error("datastore query failed: {0}")]
    Query(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A stored value could not be read back into its domain type.
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The blocking task running the operation panicked or was cancelled.
    #[error("datastore task failed: {0}")]
    Task(String),
}

/// Takes the datastore out of service without touching it: every repository operation then answers
/// [`StoreError::Unavailable`]. Tests use it to exercise degraded mode; both backends check it first.
#[derive(Debug, Clone, Default)]
pub(crate) struct Availability {
    offline: Arc<AtomicBool>,
}

impl Availability {
    pub(crate) fn set_available(&self, available: bool) {
        self.offline.store(!available, Ordering::SeqCst);
    }

    /// # Errors
    /// [`StoreError::Unavailable`] while switched off.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        if self.offline.load(Ordering::Relaxed) {
            Err(StoreError::Unavailable("switched off".to_owned()))
        } else {
            Ok(())
        }
    }
}

/// Every repository, over one backend.
#[derive(Debug, Clone)]
pub(crate) struct Repositories {
    pub(crate) health: Arc<dyn HealthRepository>,
    pub(crate) keys: Arc<dyn KeyRepository>,
    pub(crate) inventory: Arc<dyn InventoryRepository>,
    pub(crate) receipts: Arc<dyn ReceiptRepository>,
    pub(crate) outbox: Arc<dyn OutboxRepository>,
    pub(crate) shops: Arc<dyn ShopRepository>,
    pub(crate) sessions: Arc<dyn SessionRepository>,
    pub(crate) availability: Availability,
}

impl Repositories {
    /// Serves every repository from `backend`.
    pub(crate) fn of<B>(backend: Arc<B>, availability: Availability) -> Self
    where
        B: HealthRepository
            + KeyRepository
            + InventoryRepository
            + ReceiptRepository
            + OutboxRepository
            + ShopRepository
            + SessionRepository
            + 'static,
    {
        Repositories {
            health: backend.clone(),
            keys: backend.clone(),
            inventory: backend.clone(),
            receipts: backend.clone(),
            outbox: backend.clone(),
            shops: backend.clone(),
            sessions: backend,
            availability,
        }
    }
}

/// What an inventory upsert did.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UpsertOutcome {
    Saved(Box<InventoryItem>),
    /// The draft named an id this merchant has no product with.
    UnknownId,
    /// The draft moves a product to a SKU another product of this merchant has.
    SkuTaken,
}

/// What attaching an uploaded image did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AttachOutcome {
    Attached,
    UnknownSku,
    TooManyImages,
}

/// An inventory write: the draft plus what the service decided (new id, time).
#[derive(Debug, Clone)]
pub(crate) struct ItemUpsert {
    pub(crate) wallet: Wallet,
    pub(crate) draft: ItemDraft,
    /// Used only when the upsert creates a product.
    pub(crate) new_id: ProductId,
    pub(crate) now_ms: i64,
}

pub(crate) trait Store: Send + Sync + fmt::Debug {
    /// Answers when the datastore can serve a read.
    fn check_health(&self) -> Result<(), StoreError>;

    /// Inserts a receipt unless its id is taken (receipt ids are unique across merchants).
    fn create_receipt(&self, receipt: &NewReceipt) -> Result<CreateReceiptOutcome, StoreError>;
    /// The stored first response for an idempotency key, if saved at or after `not_before_ms`.
    fn fetch_idempotent_response(
        &self,
        wallet: Wallet,
        scope: &str,
        key: &str,
        not_before_ms: i64,
    ) -> Result<Option<IdempotentResponse>, StoreError>;
    /// Keeps the first response for an idempotency key (drops keys saved before `not_before_ms`).
    fn save_idempotent_response(
        &self,
        wallet: Wallet,
        scope: &str,
        key: &str,
        response: &IdempotentResponse,
        now_ms: i64,
        not_before_ms: i64,
    ) -> Result<(), StoreError>;
    /// The merchant's products an order names, one entry per reference (`None`: no such product).
    fn fetch_order_items(
        &self,
        wallet: Wallet,
        refs: &[ItemRef],
    ) -> Result<Vec<Option<InventoryItem>>, StoreError>;
    /// A merchant's receipt; `wallet: None` only for the unauthenticated payment page.
    fn fetch_receipt(&self, wallet: Option<Wallet>, id: &ReceiptId) -> Result<Option<Receipt>, StoreError>;
    /// A merchant's receipts, newest first.
    fn list_receipts(&self, wallet: Wallet, limit: u32) -> Result<Vec<Receipt>, StoreError>;
    /// Applies a transition with its history, outbox, refund and stock rows in one transaction, if the
    /// receipt is still at `expected_version`; false (nothing written) when it moved on.
    fn commit_transition(&self, commit: &TransitionCommit) -> Result<bool, StoreError>;
    /// Due webhook deliveries, leased until `lease_until_ms` so they are not claimed twice.
    fn claim_due_deliveries(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> Result<Vec<DueDelivery>, StoreError>;
    fn record_delivery_attempt(&self, record: &AttemptRecord) -> Result<(), StoreError>;
    /// `None` when the merchant has no such receipt.
    fn list_deliveries(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError>;
    /// Enqueues a delivery's same body again; false when the merchant's receipt has no such delivery.
    fn redeliver(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError>;

    fn fetch_active_subscription_by_key(&self, hash: &KeyHash) -> Result<Option<Subscription>, StoreError>;
    fn fetch_active_subscription(&self, id: &SubscriptionId) -> Result<Option<Subscription>, StoreError>;
    fn list_subscriptions(&self) -> Result<Vec<Subscription>, StoreError>;
    fn create_subscription(&self, subscription: &NewSubscription) -> Result<(), StoreError>;
    /// Creates the subscription only when none exists at all (a fresh database); returns whether it did.
    fn create_first_subscription(&self, subscription: &NewSubscription) -> Result<bool, StoreError>;
    /// Revokes an active subscription; false when there is no active one with this id.
    fn revoke_subscription(&self, id: &SubscriptionId, now_ms: i64) -> Result<bool, StoreError>;
    /// Atomically revokes `id` and creates `replacement` with the same wallet, scopes and name.
    /// `None` when there is no active subscription with this id.
    fn rotate_subscription(
        &self,
        id: &SubscriptionId,
        replacement_id: &SubscriptionId,
        replacement_hash: &KeyHash,
        now_ms: i64,
    ) -> Result<Option<Subscription>, StoreError>;

    fn list_inventory(&self, wallet: Wallet, query: &InventoryQuery) -> Result<InventoryPage, StoreError>;
    fn upsert_inventory_item(&self, upsert: &ItemUpsert) -> Result<UpsertOutcome, StoreError>;
    /// Deletes this merchant's product; false when it has none with this id.
    fn delete_inventory_item(&self, wallet: Wallet, id: &ProductId) -> Result<bool, StoreError>;
    /// Appends an image to the product with this SKU unless it already has the maximum.
    fn attach_inventory_image(
        &self,
        wallet: Wallet,
        sku: &Sku,
        image: &ImageDataUrl,
        now_ms: i64,
    ) -> Result<AttachOutcome, StoreError>;

    fn fetch_shop_config(&self, wallet: Wallet) -> Result<Option<ShopConfig>, StoreError>;
    fn save_shop_config(&self, config: &ShopConfig, now_ms: i64) -> Result<(), StoreError>;
    /// Sets only the merchant's fee add-on (creating the shop row with defaults when missing).
    fn save_processing_fee(&self, wallet: Wallet, fee: FeePct, now_ms: i64) -> Result<(), StoreError>;

    /// Stores a sign-in nonce for `wallet` (and drops expired ones).
    fn issue_admin_nonce(
        &self,
        wallet: Wallet,
        nonce: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), StoreError>;
    /// In one transaction: consumes `nonce` (it must be `session.wallet`'s and unexpired at
    /// `session.created_at_ms`) and opens the session. False when the nonce is unknown, used or expired.
    fn open_admin_session(&self, nonce: &str, session: &NewAdminSession) -> Result<bool, StoreError>;
    /// The session when it exists, is not revoked and has not expired at `now_ms`.
    fn fetch_admin_session(
        &self,
        id: &SessionId,
        now_ms: i64,
    ) -> Result<Option<StoredAdminSession>, StoreError>;
    /// Revokes one session (logout); false when it was not live.
    fn end_admin_session(&self, id: &SessionId, now_ms: i64) -> Result<bool, StoreError>;
    /// Revokes every live session of a wallet; returns how many.
    fn revoke_admin_sessions(&self, wallet: Wallet, now_ms: i64) -> Result<u64, StoreError>;

    /// The merchant's split configuration, if it configured one.
    fn fetch_split(&self, wallet: Wallet) -> Result<Option<StoredSplit>, StoreError>;
    /// Creates the merchant's split; an existing one is kept unless `replace`, which archives it first.
    fn save_split(
        &self,
        wallet: Wallet,
        split: &StoredSplit,
        replace: bool,
        now_ms: i64,
    ) -> Result<SplitSaved, StoreError>;
    /// Replaced split configurations, newest first.
    fn list_split_history(&self, wallet: Wallet) -> Result<Vec<ArchivedSplit>, StoreError>;
}

/// Runs a store operation on the blocking pool.
pub(crate) async fn blocking<T, F>(store: &Arc<dyn Store>, operation: F) -> Result<T, StoreError>
where
    T: Send + 'static,
    F: FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
{
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || operation(store.as_ref()))
        .await
        .map_err(|error| StoreError::Task(error.to_string()))?
}
