//! A store wrapper a test can switch off, to exercise "datastore unavailable" paths without breaking files.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use payments_core::Wallet;

use crate::domain::api_key::{KeyHash, SubscriptionId};
use crate::domain::inventory::{ImageDataUrl, InventoryPage, InventoryQuery, ProductId, Sku};
use crate::domain::shop::ShopConfig;
use crate::domain::subscription::{NewSubscription, Subscription};
use crate::store::{AttachOutcome, ItemUpsert, Store, StoreError, UpsertOutcome};

#[derive(Debug)]
pub(crate) struct SwitchableStore {
    inner: Arc<dyn Store>,
    available: AtomicBool,
}

impl SwitchableStore {
    pub(crate) fn new(inner: Arc<dyn Store>) -> Self {
        SwitchableStore {
            inner,
            available: AtomicBool::new(true),
        }
    }

    pub(crate) fn set_available(&self, available: bool) {
        self.available.store(available, Ordering::SeqCst);
    }

    fn inner(&self) -> Result<&dyn Store, StoreError> {
        if self.available.load(Ordering::SeqCst) {
            Ok(self.inner.as_ref())
        } else {
            Err(StoreError::Unavailable("switched off by the test".to_owned()))
        }
    }
}

impl Store for SwitchableStore {
    fn check_health(&self) -> Result<(), StoreError> {
        self.inner()?.check_health()
    }

    fn fetch_active_subscription_by_key(&self, hash: &KeyHash) -> Result<Option<Subscription>, StoreError> {
        self.inner()?.fetch_active_subscription_by_key(hash)
    }

    fn fetch_active_subscription(&self, id: &SubscriptionId) -> Result<Option<Subscription>, StoreError> {
        self.inner()?.fetch_active_subscription(id)
    }

    fn list_subscriptions(&self) -> Result<Vec<Subscription>, StoreError> {
        self.inner()?.list_subscriptions()
    }

    fn create_subscription(&self, subscription: &NewSubscription) -> Result<(), StoreError> {
        self.inner()?.create_subscription(subscription)
    }

    fn create_first_subscription(&self, subscription: &NewSubscription) -> Result<bool, StoreError> {
        self.inner()?.create_first_subscription(subscription)
    }

    fn revoke_subscription(&self, id: &SubscriptionId, now_ms: i64) -> Result<bool, StoreError> {
        self.inner()?.revoke_subscription(id, now_ms)
    }

    fn rotate_subscription(
        &self,
        id: &SubscriptionId,
        replacement_id: &SubscriptionId,
        replacement_hash: &KeyHash,
        now_ms: i64,
    ) -> Result<Option<Subscription>, StoreError> {
        self.inner()?
            .rotate_subscription(id, replacement_id, replacement_hash, now_ms)
    }

    fn list_inventory(&self, wallet: Wallet, query: &InventoryQuery) -> Result<InventoryPage, StoreError> {
        self.inner()?.list_inventory(wallet, query)
    }

    fn upsert_inventory_item(&self, upsert: &ItemUpsert) -> Result<UpsertOutcome, StoreError> {
        self.inner()?.upsert_inventory_item(upsert)
    }

    fn delete_inventory_item(&self, wallet: Wallet, id: &ProductId) -> Result<bool, StoreError> {
        self.inner()?.delete_inventory_item(wallet, id)
    }

    fn attach_inventory_image(
        &self,
        wallet: Wallet,
        sku: &Sku,
        image: &ImageDataUrl,
        now_ms: i64,
    ) -> Result<AttachOutcome, StoreError> {
        self.inner()?.attach_inventory_image(wallet, sku, image, now_ms)
    }

    fn fetch_shop_config(&self, wallet: Wallet) -> Result<Option<ShopConfig>, StoreError> {
        self.inner()?.fetch_shop_config(wallet)
    }

    fn save_shop_config(&self, config: &ShopConfig, now_ms: i64) -> Result<(), StoreError> {
        self.inner()?.save_shop_config(config, now_ms)
    }
}
