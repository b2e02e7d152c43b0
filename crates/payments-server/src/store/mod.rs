//! Persistence behind use-case-sized operations. No backend type (rusqlite, r2d2) crosses the [`Store`] trait.
//!
//! The trait is blocking: services run it on tokio's blocking pool through [`blocking`], so a slow disk
//! never stalls the request threads.

mod chain_repository;
#[cfg(test)]
pub(crate) mod contract;
mod item_columns;
mod location;
mod postgres;
mod purchase_credit;
mod receipt_types;
mod recurring_repository;
mod repository;
mod reserve_repository;
mod sqlite;
mod subscription_deliveries;
mod timing;
mod use_case;
mod user_repository;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use payments_core::Wallet;
use thiserror::Error;

use crate::domain::inventory::{InventoryItem, ItemDraft, ProductId};

pub(crate) use crate::domain::receipt::{OrderError, ReceiptError};
pub(crate) use chain_repository::{
    ChainCursor, ChainRepository, FundedDeposit, RecordedTransfer, SettlementDue, SettlementFailure,
    SettlementState,
};
pub(crate) use item_columns::ItemColumns;
pub(crate) use location::open;
pub use location::{DatabaseLocation, DatabaseState, backup_sqlite, check_database};
pub(crate) use postgres::PgStore;
#[cfg(any(test, feature = "testing"))]
pub use postgres::PgTestDatabase;
pub(crate) use purchase_credit::purchase_credit_changes;
pub(crate) use receipt_types::{
    AttemptLog, AttemptRecord, Claim, CreateReceiptOutcome, DeliveryLog, DeliveryNext, DeliveryOwner,
    DueDelivery, IdempotentResponse, NewDelivery, NewRefund, OutboxDepth, OwnerRow, ReceiptFilter,
    ReceiptPage, StockTake, TransitionCommit,
};
pub(crate) use recurring_repository::{RecurringRepository, STATUS_LISTING_LIMIT};
pub(crate) use repository::{
    HealthRepository, InventoryRepository, KeyRepository, OutboxRepository, ReceiptRepository,
    SessionRepository, ShopRepository,
};
pub(crate) use reserve_repository::ReserveRepository;
pub(crate) use sqlite::SqliteStore;
pub(crate) use subscription_deliveries::{
    SubscriptionDelivery, SubscriptionHook, merged_credits, subscription_credit,
};
pub(crate) use timing::StoreTiming;
pub(crate) use use_case::{
    Committed, IdempotencyClaim, MerchantSnapshot, Render, Sale, SaleDecision, SaleInputs, SalePlan, SaleTx,
    TransitionDecision, TransitionTx, Transitioned, TxError,
};
pub(crate) use user_repository::{BillingRepository, ReceiptFeeBase, SubscriptionFeeBase, UserRepository};

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
    #[cfg(any(test, feature = "testing"))]
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
    pub(crate) chain: Arc<dyn ChainRepository>,
    pub(crate) reserve: Arc<dyn ReserveRepository>,
    /// Where the backend reports its operation times; the app attaches its metrics.
    pub(crate) timing: StoreTiming,
    pub(crate) users: Arc<dyn UserRepository>,
    pub(crate) billing: Arc<dyn BillingRepository>,
    pub(crate) recurring: Arc<dyn RecurringRepository>,
    /// The backend's out-of-service switch (tests flip it through the harness).
    #[cfg_attr(
        not(any(test, feature = "testing")),
        expect(dead_code, reason = "only the test harness switches the datastore off")
    )]
    pub(crate) availability: Availability,
}

impl Repositories {
    /// Serves every repository from `backend` (whose operation times are not recorded).
    pub(crate) fn of<B>(backend: Arc<B>, availability: Availability) -> Self
    where
        B: HealthRepository
            + KeyRepository
            + InventoryRepository
            + ReceiptRepository
            + OutboxRepository
            + ShopRepository
            + SessionRepository
            + ChainRepository
            + ReserveRepository
            + UserRepository
            + BillingRepository
            + RecurringRepository
            + 'static,
    {
        Repositories {
            health: backend.clone(),
            keys: backend.clone(),
            inventory: backend.clone(),
            receipts: backend.clone(),
            outbox: backend.clone(),
            shops: backend.clone(),
            sessions: backend.clone(),
            chain: backend.clone(),
            reserve: backend.clone(),
            timing: StoreTiming::default(),
            users: backend.clone(),
            billing: backend.clone(),
            recurring: backend,
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
    /// `images[index]` of the draft names a stored image this product does not have. Nothing was written.
    UnknownImage {
        index: usize,
    },
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
