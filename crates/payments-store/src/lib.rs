//! The payments server's persistence: public async repository traits (one per aggregate, each method one
//! transaction) implemented by an embedded SQLite backend and a PostgreSQL backend. No backend type
//! (rusqlite, r2d2, tokio-postgres) crosses the traits.
//!
//! The store names no metrics, services or HTTP: it returns its own typed refusals ([`SaleRefused`],
//! [`TransitionRefused`], `SubscriptionRefusal`) and reports operation times through a [`StoreObserver`]
//! the application attaches.

mod chain_repository;
mod endpoint_repository;
mod idempotency_repository;
mod item_columns;
mod ledger;
mod location;
mod observer;
mod postgres;
mod purchase_credit;
mod receipt_stamp;
mod receipt_types;
mod reconcile_repository;
mod recurring_repository;
mod repository;
mod reserve_repository;
mod rows;
mod schema;
mod sqlite;
mod subscription_deliveries;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod use_case;
mod user_repository;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use payments_core::Wallet;
use thiserror::Error;

use payments_domain::inventory::{InventoryItem, ItemDraft, ProductId};

pub use chain_repository::{
    ChainCursor, ChainRepository, ChainTip, FundedDeposit, Recheck, RecordedTransfer, SettlementDue,
    SettlementFailure, SettlementState, TransferKey, UnfinalizedTransfer,
};
pub use endpoint_repository::{
    DeliveryQuery, EndpointChange, EndpointDeliveryLog, EndpointRefused, MerchantEvent, NewEndpoint,
    StoredEndpoint, WebhookEndpointRepository,
};
pub use idempotency_repository::IdempotencyRepository;
pub(crate) use item_columns::ItemColumns;
pub use ledger::{LEDGER_PAGE_ROWS, LedgerCursor, LedgerQuery, LedgerRecord, LedgerSource};
pub use location::{DatabaseLocation, DatabaseState, backup_sqlite, check_database, open};
pub use observer::{StoreObserver, StoreTiming};
pub(crate) use postgres::PgPoolOptions;
pub use postgres::PgStore;
#[cfg(any(test, feature = "testing"))]
pub use postgres::{PgBouncer, PgTestDatabase, ThrowawayCluster};
pub(crate) use purchase_credit::purchase_credit_changes;
pub use receipt_stamp::ReceiptStamp;
pub use receipt_types::{
    AttemptLog, AttemptRecord, Claim, DeliveryLog, DeliveryNext, DeliveryOwner, DueDelivery,
    IdempotentResponse, NewDelivery, NewRefund, OutboxDepth, PendingRefund, PreviousKey, ReceiptFilter,
    ReceiptPage, StockTake, TransitionCommit,
};
pub(crate) use receipt_types::{CreateReceiptOutcome, OwnerRow};
pub use reconcile_repository::{
    ChargeRecord, DepositRecord, RECONCILE_PAGE_ROWS, ReconcileRepository, ReconcileWindow, RefundRecord,
};
pub use recurring_repository::{RecurringRepository, STATUS_LISTING_LIMIT};
pub use repository::{
    HealthRepository, InventoryRepository, KeyRepository, OutboxRepository, ReceiptRepository,
    SessionRepository, ShopRepository,
};
pub use reserve_repository::ReserveRepository;
pub use sqlite::SqliteStore;
pub(crate) use subscription_deliveries::{
    SubscriptionDelivery, SubscriptionHook, merged_credits, subscription_credit,
};
pub use use_case::{
    Committed, EarlierCall, IDEMPOTENCY_RETENTION_MS, IdempotencyClaim, MerchantSnapshot, Resource, Sale,
    SaleDecision, SaleInputs, SalePlan, SaleRefused, SaleTx, TransitionDecision, TransitionRefused,
    TransitionTx, Transitioned, TxError,
};
pub use user_repository::{BillingRepository, ReceiptFeeBase, SubscriptionFeeBase, UserRepository};

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
pub struct Availability {
    offline: Arc<AtomicBool>,
}

impl Availability {
    #[cfg(any(test, feature = "testing"))]
    pub fn set_available(&self, available: bool) {
        self.offline.store(!available, Ordering::SeqCst);
    }

    /// # Errors
    /// [`StoreError::Unavailable`] while switched off.
    pub fn check(&self) -> Result<(), StoreError> {
        if self.offline.load(Ordering::Relaxed) {
            Err(StoreError::Unavailable("switched off".to_owned()))
        } else {
            Ok(())
        }
    }
}

/// Every repository, over one backend. `S` and `T` are what the application's sale and transition decisions
/// refuse with (see [`ReceiptRepository`]).
#[derive(Debug)]
pub struct Repositories<S, T> {
    pub health: Arc<dyn HealthRepository>,
    pub keys: Arc<dyn KeyRepository>,
    pub inventory: Arc<dyn InventoryRepository>,
    pub receipts: Arc<dyn ReceiptRepository<S, T>>,
    pub outbox: Arc<dyn OutboxRepository>,
    pub endpoints: Arc<dyn WebhookEndpointRepository>,
    pub shops: Arc<dyn ShopRepository>,
    pub sessions: Arc<dyn SessionRepository>,
    pub chain: Arc<dyn ChainRepository>,
    pub reserve: Arc<dyn ReserveRepository>,
    pub reconcile: Arc<dyn ReconcileRepository>,
    /// Where the backend reports its operation times; the app attaches its metrics.
    pub timing: StoreTiming,
    pub users: Arc<dyn UserRepository>,
    pub billing: Arc<dyn BillingRepository>,
    pub recurring: Arc<dyn RecurringRepository>,
    pub idempotency: Arc<dyn IdempotencyRepository>,
    /// The backend's out-of-service switch (tests flip it through the harness).
    pub availability: Availability,
}

// Derived `Clone` would ask `S: Clone, T: Clone`; only the handles are cloned.
impl<S, T> Clone for Repositories<S, T> {
    fn clone(&self) -> Self {
        Repositories {
            health: Arc::clone(&self.health),
            keys: Arc::clone(&self.keys),
            inventory: Arc::clone(&self.inventory),
            receipts: Arc::clone(&self.receipts),
            outbox: Arc::clone(&self.outbox),
            endpoints: Arc::clone(&self.endpoints),
            shops: Arc::clone(&self.shops),
            sessions: Arc::clone(&self.sessions),
            chain: Arc::clone(&self.chain),
            reserve: Arc::clone(&self.reserve),
            reconcile: Arc::clone(&self.reconcile),
            timing: self.timing.clone(),
            users: Arc::clone(&self.users),
            billing: Arc::clone(&self.billing),
            recurring: Arc::clone(&self.recurring),
            idempotency: Arc::clone(&self.idempotency),
            availability: self.availability.clone(),
        }
    }
}

impl<S: Send + 'static, T: Send + 'static> Repositories<S, T> {
    /// Serves every repository from `backend` (whose operation times are not recorded).
    pub fn of<B>(backend: Arc<B>, availability: Availability) -> Self
    where
        B: HealthRepository
            + KeyRepository
            + InventoryRepository
            + ReceiptRepository<S, T>
            + OutboxRepository
            + WebhookEndpointRepository
            + ShopRepository
            + SessionRepository
            + ChainRepository
            + ReserveRepository
            + ReconcileRepository
            + UserRepository
            + BillingRepository
            + RecurringRepository
            + IdempotencyRepository
            + 'static,
    {
        Repositories {
            health: backend.clone(),
            keys: backend.clone(),
            inventory: backend.clone(),
            receipts: backend.clone(),
            outbox: backend.clone(),
            endpoints: backend.clone(),
            shops: backend.clone(),
            sessions: backend.clone(),
            chain: backend.clone(),
            reserve: backend.clone(),
            reconcile: backend.clone(),
            timing: StoreTiming::default(),
            users: backend.clone(),
            billing: backend.clone(),
            recurring: backend.clone(),
            idempotency: backend,
            availability,
        }
    }
}

/// What an inventory upsert did.
#[derive(Debug, Clone, PartialEq)]
pub enum UpsertOutcome {
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
pub enum AttachOutcome {
    Attached,
    UnknownSku,
    TooManyImages,
}

/// An inventory write: the draft plus what the service decided (new id, time).
#[derive(Debug, Clone)]
pub struct ItemUpsert {
    pub wallet: Wallet,
    pub draft: ItemDraft,
    /// Used only when the upsert creates a product.
    pub new_id: ProductId,
    pub now_ms: i64,
}
