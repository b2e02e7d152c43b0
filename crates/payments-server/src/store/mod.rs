//! Persistence behind use-case-sized operations. No backend type (rusqlite, r2d2) crosses the [`Store`] trait.
//!
//! The trait is blocking: services run it on tokio's blocking pool through [`blocking`], so a slow disk
//! never stalls the request threads.

mod sqlite;

use std::fmt;
use std::sync::Arc;

use payments_core::Wallet;
use thiserror::Error;

use crate::domain::api_key::{KeyHash, SubscriptionId};
use crate::domain::inventory::{
    ImageDataUrl, InventoryItem, InventoryPage, InventoryQuery, ItemDraft, ProductId, Sku,
};
use crate::domain::shop::ShopConfig;
use crate::domain::subscription::{NewSubscription, Subscription};

pub(crate) use sqlite::SqliteStore;

/// A failure of the datastore itself (never a business outcome).
#[derive(Debug, Error)]
pub enum StoreError {
    /// No connection could be had, or the database refused to work.
    #[error("datastore unavailable: {0}")]
    Unavailable(String),
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
