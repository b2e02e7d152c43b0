//! A store wrapper a test can switch off, to exercise "datastore unavailable" paths without breaking files.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use payments_core::{FeePct, Wallet};

use crate::domain::admin::{NewAdminSession, SessionId, StoredAdminSession};
use crate::domain::api_key::{KeyHash, SubscriptionId};
use crate::domain::inventory::{ImageDataUrl, InventoryItem, InventoryPage, InventoryQuery, ProductId, Sku};
use crate::domain::receipt::{ItemRef, NewReceipt, Receipt, ReceiptId};
use crate::domain::shop::ShopConfig;
use crate::domain::split::{ArchivedSplit, SplitSaved, StoredSplit};
use crate::domain::subscription::{NewSubscription, Subscription};
use crate::store::{AttachOutcome, ItemUpsert, Store, StoreError, UpsertOutcome};
use crate::store::{
    AttemptRecord, CreateReceiptOutcome, DeliveryLog, DueDelivery, IdempotentResponse, TransitionCommit,
};

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

    fn create_receipt(&self, receipt: &NewReceipt) -> Result<CreateReceiptOutcome, StoreError> {
        self.inner()?.create_receipt(receipt)
    }

    fn fetch_idempotent_response(
        &self,
        wallet: Wallet,
        scope: &str,
        key: &str,
        not_before_ms: i64,
    ) -> Result<Option<IdempotentResponse>, StoreError> {
        self.inner()?
            .fetch_idempotent_response(wallet, scope, key, not_before_ms)
    }

    fn save_idempotent_response(
        &self,
        wallet: Wallet,
        scope: &str,
        key: &str,
        response: &IdempotentResponse,
        now_ms: i64,
        not_before_ms: i64,
    ) -> Result<(), StoreError> {
        self.inner()?
            .save_idempotent_response(wallet, scope, key, response, now_ms, not_before_ms)
    }

    fn fetch_order_items(
        &self,
        wallet: Wallet,
        refs: &[ItemRef],
    ) -> Result<Vec<Option<InventoryItem>>, StoreError> {
        self.inner()?.fetch_order_items(wallet, refs)
    }

    fn fetch_receipt(&self, wallet: Option<Wallet>, id: &ReceiptId) -> Result<Option<Receipt>, StoreError> {
        self.inner()?.fetch_receipt(wallet, id)
    }

    fn list_receipts(&self, wallet: Wallet, limit: u32) -> Result<Vec<Receipt>, StoreError> {
        self.inner()?.list_receipts(wallet, limit)
    }

    fn commit_transition(&self, commit: &TransitionCommit) -> Result<bool, StoreError> {
        self.inner()?.commit_transition(commit)
    }

    fn claim_due_deliveries(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> Result<Vec<DueDelivery>, StoreError> {
        self.inner()?.claim_due_deliveries(now_ms, lease_until_ms, limit)
    }

    fn record_delivery_attempt(&self, record: &AttemptRecord) -> Result<(), StoreError> {
        self.inner()?.record_delivery_attempt(record)
    }

    fn list_deliveries(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError> {
        self.inner()?.list_deliveries(wallet, receipt_id)
    }

    fn redeliver(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        self.inner()?.redeliver(wallet, receipt_id, delivery_id, now_ms)
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

    fn save_processing_fee(&self, wallet: Wallet, fee: FeePct, now_ms: i64) -> Result<(), StoreError> {
        self.inner()?.save_processing_fee(wallet, fee, now_ms)
    }

    fn issue_admin_nonce(
        &self,
        wallet: Wallet,
        nonce: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.inner()?
            .issue_admin_nonce(wallet, nonce, expires_at_ms, now_ms)
    }

    fn open_admin_session(&self, nonce: &str, session: &NewAdminSession) -> Result<bool, StoreError> {
        self.inner()?.open_admin_session(nonce, session)
    }

    fn fetch_admin_session(
        &self,
        id: &SessionId,
        now_ms: i64,
    ) -> Result<Option<StoredAdminSession>, StoreError> {
        self.inner()?.fetch_admin_session(id, now_ms)
    }

    fn end_admin_session(&self, id: &SessionId, now_ms: i64) -> Result<bool, StoreError> {
        self.inner()?.end_admin_session(id, now_ms)
    }

    fn revoke_admin_sessions(&self, wallet: Wallet, now_ms: i64) -> Result<u64, StoreError> {
        self.inner()?.revoke_admin_sessions(wallet, now_ms)
    }

    fn fetch_split(&self, wallet: Wallet) -> Result<Option<StoredSplit>, StoreError> {
        self.inner()?.fetch_split(wallet)
    }

    fn save_split(
        &self,
        wallet: Wallet,
        split: &StoredSplit,
        replace: bool,
        now_ms: i64,
    ) -> Result<SplitSaved, StoreError> {
        self.inner()?.save_split(wallet, split, replace, now_ms)
    }

    fn list_split_history(&self, wallet: Wallet) -> Result<Vec<ArchivedSplit>, StoreError> {
        self.inner()?.list_split_history(wallet)
    }
}
