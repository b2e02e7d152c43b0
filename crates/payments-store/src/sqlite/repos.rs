//! The repository traits over SQLite: reads on reader connections, every write one transaction of the writer.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use payments_core::{FeePct, Wallet};

use crate::sqlite::{
    HEALTH_CHECK, SqliteStore, admin_sessions, inventory, inventory_images, inventory_list, onramp_sessions,
    plan_deliveries, receipts, refunds, shops, splits, subscriptions, use_cases, webhooks,
};
use crate::{
    AttachOutcome, AttemptRecord, Claim, Committed, DeliveryLog, DueDelivery, HealthRepository,
    InventoryRepository, ItemUpsert, KeyRepository, OutboxDepth, OutboxRepository, PendingRefund,
    ReceiptFilter, ReceiptPage, ReceiptRepository, Sale, SaleRefused, SaleTx, SessionRepository,
    ShopRepository, StoreError, TransitionRefused, TransitionTx, Transitioned, TxError, UpsertOutcome,
};
use payments_domain::admin::{NewAdminSession, SessionId, StoredAdminSession};
use payments_domain::api_key::{KeyHash, SubscriptionId};
use payments_domain::inventory::{
    ContentHash, ImageFetch, ImageKey, InventoryPage, InventoryQuery, NewImage, ProductId, Sku, StoredImage,
};
use payments_domain::page_cursor::ReceiptKey;
use payments_domain::receipt::{OnrampSession, Receipt, ReceiptId};
use payments_domain::recurring::PlanId;
use payments_domain::shop::ShopConfig;
use payments_domain::split::{ArchivedSplit, SplitSaved, StoredSplit};
use payments_domain::subscription::{NewSubscription, Subscription};
use payments_domain::webhook_endpoint::EndpointId;

#[async_trait]
impl HealthRepository for SqliteStore {
    async fn check_health(&self) -> Result<(), StoreError> {
        self.read(|conn| conn.query_row(HEALTH_CHECK, [], |_| Ok(())))
            .await
    }
}

#[async_trait]
impl KeyRepository for SqliteStore {
    async fn fetch_active_by_key(&self, hash: &KeyHash) -> Result<Option<Subscription>, StoreError> {
        let hash = hash.clone();
        self.read_point(move |conn| subscriptions::fetch_active_by_key(conn, &hash))
            .await
    }

    async fn fetch_active(&self, id: &SubscriptionId) -> Result<Option<Subscription>, StoreError> {
        let id = id.clone();
        self.read_point(move |conn| subscriptions::fetch_active(conn, &id))
            .await
    }

    async fn list(&self) -> Result<Vec<Subscription>, StoreError> {
        self.read(subscriptions::list).await
    }

    async fn create(&self, subscription: &NewSubscription) -> Result<(), StoreError> {
        let subscription = subscription.clone();
        self.write(move |conn| subscriptions::insert(conn, &subscription))
            .await
    }

    async fn create_first(&self, subscription: &NewSubscription) -> Result<bool, StoreError> {
        let subscription = subscription.clone();
        self.write(move |conn| subscriptions::insert_if_none_exist(conn, &subscription))
            .await
    }

    async fn revoke(&self, id: &SubscriptionId, now_ms: i64) -> Result<bool, StoreError> {
        let id = id.clone();
        self.write(move |conn| subscriptions::revoke(conn, &id, now_ms))
            .await
    }

    async fn rotate(
        &self,
        id: &SubscriptionId,
        replacement_id: &SubscriptionId,
        replacement_hash: &KeyHash,
        now_ms: i64,
    ) -> Result<Option<Subscription>, StoreError> {
        let (id, replacement_id, replacement_hash) =
            (id.clone(), replacement_id.clone(), replacement_hash.clone());
        self.write(move |conn| subscriptions::rotate(conn, &id, &replacement_id, &replacement_hash, now_ms))
            .await
    }

    async fn fetch_setting(&self, name: &str) -> Result<Option<String>, StoreError> {
        let name = name.to_owned();
        self.read(move |conn| super::settings::fetch(conn, &name)).await
    }

    async fn record_setting(&self, name: &str, proposed: &str, now_ms: i64) -> Result<String, StoreError> {
        let (name, proposed) = (name.to_owned(), proposed.to_owned());
        self.write(move |conn| super::settings::record(conn, &name, &proposed, now_ms))
            .await
    }
}

#[async_trait]
impl InventoryRepository for SqliteStore {
    async fn list(
        &self,
        wallet: Wallet,
        query: &InventoryQuery,
        budget: Duration,
    ) -> Result<InventoryPage, StoreError> {
        let query = query.clone();
        self.read(move |conn| inventory_list::list_within(conn, wallet, &query, budget))
            .await
    }

    async fn upsert(&self, upsert: &ItemUpsert) -> Result<UpsertOutcome, StoreError> {
        let upsert = upsert.clone();
        self.write(move |conn| inventory::upsert(conn, &upsert)).await
    }

    async fn delete(&self, wallet: Wallet, id: &ProductId) -> Result<bool, StoreError> {
        let id = id.clone();
        self.write(move |conn| inventory::delete(conn, wallet, &id)).await
    }

    async fn attach_image(
        &self,
        wallet: Wallet,
        sku: &Sku,
        image: &NewImage,
        now_ms: i64,
    ) -> Result<AttachOutcome, StoreError> {
        let (sku, image) = (sku.clone(), image.clone());
        self.write(move |conn| inventory::attach_image(conn, wallet, &sku, &image, now_ms))
            .await
    }

    async fn fetch_image(
        &self,
        wallet: Wallet,
        image: &ImageKey,
        known: &[ContentHash],
    ) -> Result<Option<ImageFetch>, StoreError> {
        let (image, known) = (image.clone(), known.to_vec());
        self.read(move |conn| inventory_images::fetch_one(conn, wallet, &image, &known))
            .await
    }

    async fn fetch_images(
        &self,
        wallet: Wallet,
        images: &[ImageKey],
    ) -> Result<Vec<(ImageKey, StoredImage)>, StoreError> {
        let images = images.to_vec();
        self.read(move |conn| inventory_images::fetch_many(conn, wallet, &images))
            .await
    }
}

#[async_trait]
impl<S: Send + 'static, T: Send + 'static> ReceiptRepository<S, T> for SqliteStore {
    async fn windows_ended(&self, now_ms: i64, limit: u32) -> Result<Vec<(Wallet, ReceiptId)>, StoreError> {
        self.read(move |conn| receipts::windows_ended(conn, now_ms, limit))
            .await
    }

    async fn refund_tx_recorded(&self, tx_hash: &str) -> Result<bool, StoreError> {
        let tx_hash = tx_hash.to_owned();
        self.read(move |conn| refunds::is_recorded(conn, &tx_hash)).await
    }

    async fn pending_refunds(&self, limit: u32) -> Result<Vec<PendingRefund>, StoreError> {
        self.read(move |conn| refunds::pending(conn, limit)).await
    }

    async fn record_onramp_session(
        &self,
        wallet: Wallet,
        id: &ReceiptId,
        session: &OnrampSession,
    ) -> Result<bool, StoreError> {
        let (id, session) = (id.clone(), session.clone());
        self.write(move |conn| onramp_sessions::record(conn, wallet, &id, &session))
            .await
    }

    async fn fetch(&self, wallet: Option<Wallet>, id: &ReceiptId) -> Result<Option<Receipt>, StoreError> {
        let id = id.clone();
        self.read_point(move |conn| receipts::fetch(conn, wallet, &id))
            .await
    }

    async fn fetch_with_split(
        &self,
        wallet: Option<Wallet>,
        id: &ReceiptId,
    ) -> Result<Option<(Receipt, Option<StoredSplit>)>, StoreError> {
        if let Some(wallet) = wallet {
            self.availability.check()?;
            if let Some(cached) = self.receipt_cache.get(wallet, id) {
                return Ok(Some(cached));
            }
        }
        let ticket = self.receipt_cache.ticket();
        let id = id.clone();
        let found = self
            .read_point(move |conn| {
                // One read transaction for both statements: one shared-lock round on the WAL index instead of
                // two, which is what contends between threads under load.
                let tx = conn.unchecked_transaction()?;
                let Some((receipt, row_id)) = receipts::fetch_with_row_id(&tx, wallet, &id)? else {
                    return Ok(None);
                };
                let split = splits::fetch(&tx, receipt.wallet)?;
                tx.commit()?;
                Ok(Some(((receipt, split), row_id)))
            })
            .await?;
        Ok(found.map(|(found, row_id)| {
            // Only the merchant's own reads are kept: the payment page's lookup by id alone is not.
            if wallet.is_some() {
                self.receipt_cache.store(ticket, row_id, &found);
            }
            found
        }))
    }

    async fn list_page(
        &self,
        wallet: Wallet,
        limit: u32,
        after: Option<ReceiptKey>,
        filter: ReceiptFilter,
    ) -> Result<ReceiptPage, StoreError> {
        self.read(move |conn| receipts::list(conn, wallet, limit, after, filter))
            .await
    }

    async fn create(&self, sale: SaleTx<S>) -> Result<Committed<Sale>, TxError<SaleRefused<S>>> {
        let lookups = Arc::clone(&self.lookups);
        self.transact_claimed(sale, move |conn, sale, recover| {
            use_cases::create_sale(conn, &lookups, sale, recover)
        })
        .await
    }

    async fn transition(
        &self,
        change: TransitionTx<T>,
    ) -> Result<Committed<Transitioned>, TxError<TransitionRefused<T>>> {
        let lookups = Arc::clone(&self.lookups);
        self.transact_claimed(change, move |conn, change, recover| {
            use_cases::transition(conn, &lookups, change, recover)
        })
        .await
    }
}

#[async_trait]
impl OutboxRepository for SqliteStore {
    async fn claim_due(&self, claim: &Claim) -> Result<Vec<DueDelivery>, StoreError> {
        let claim = claim.clone();
        self.write(move |conn| webhooks::claim_due(conn, &claim)).await
    }

    async fn record_attempt(&self, record: &AttemptRecord) -> Result<Option<EndpointId>, StoreError> {
        let record = record.clone();
        self.write(move |conn| webhooks::record_attempt(conn, &record))
            .await
    }

    async fn list_deliveries(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError> {
        let receipt_id = receipt_id.clone();
        self.read(move |conn| webhooks::list(conn, wallet, &receipt_id))
            .await
    }

    async fn redeliver(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (receipt_id, delivery_id) = (receipt_id.clone(), delivery_id.to_owned());
        self.write(move |conn| webhooks::redeliver(conn, wallet, &receipt_id, &delivery_id, now_ms))
            .await
    }

    async fn list_plan_deliveries(
        &self,
        merchant: Wallet,
        plan_id: &PlanId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError> {
        let plan_id = plan_id.clone();
        self.read(move |conn| plan_deliveries::list(conn, merchant, &plan_id))
            .await
    }

    async fn redeliver_plan_delivery(
        &self,
        merchant: Wallet,
        plan_id: &PlanId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (plan_id, delivery_id) = (plan_id.clone(), delivery_id.to_owned());
        self.write(move |conn| plan_deliveries::redeliver(conn, merchant, &plan_id, &delivery_id, now_ms))
            .await
    }

    async fn depth(&self, now_ms: i64) -> Result<OutboxDepth, StoreError> {
        self.read(move |conn| webhooks::depth(conn, now_ms)).await
    }
}

#[async_trait]
impl ShopRepository for SqliteStore {
    async fn fetch_shop(&self, wallet: Wallet) -> Result<Option<ShopConfig>, StoreError> {
        self.read_point(move |conn| shops::fetch(conn, wallet)).await
    }

    async fn save_shop(&self, config: &ShopConfig, now_ms: i64) -> Result<(), StoreError> {
        let config = config.clone();
        self.write(move |conn| shops::save(conn, &config, now_ms)).await
    }

    async fn save_processing_fee(&self, wallet: Wallet, fee: FeePct, now_ms: i64) -> Result<(), StoreError> {
        self.write(move |conn| shops::save_fee(conn, wallet, fee, now_ms))
            .await
    }

    async fn fetch_split(&self, wallet: Wallet) -> Result<Option<StoredSplit>, StoreError> {
        self.read_point(move |conn| splits::fetch(conn, wallet)).await
    }

    async fn save_split(
        &self,
        wallet: Wallet,
        split: &StoredSplit,
        replace: bool,
        now_ms: i64,
    ) -> Result<SplitSaved, StoreError> {
        let split = split.clone();
        self.write(move |conn| splits::save(conn, wallet, &split, replace, now_ms))
            .await
    }

    async fn list_split_history(&self, wallet: Wallet) -> Result<Vec<ArchivedSplit>, StoreError> {
        self.read(move |conn| splits::history(conn, wallet)).await
    }
}

#[async_trait]
impl SessionRepository for SqliteStore {
    async fn issue_nonce(
        &self,
        wallet: Wallet,
        nonce: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let nonce = nonce.to_owned();
        self.write(move |conn| admin_sessions::issue_nonce(conn, wallet, &nonce, expires_at_ms, now_ms))
            .await
    }

    async fn open_session(&self, nonce: &str, session: &NewAdminSession) -> Result<bool, StoreError> {
        let (nonce, session) = (nonce.to_owned(), session.clone());
        self.write(move |conn| admin_sessions::open_session(conn, &nonce, &session))
            .await
    }

    async fn fetch_live(
        &self,
        id: &SessionId,
        now_ms: i64,
    ) -> Result<Option<StoredAdminSession>, StoreError> {
        let id = id.clone();
        self.read_point(move |conn| admin_sessions::fetch_live(conn, &id, now_ms))
            .await
    }

    async fn end(&self, id: &SessionId, now_ms: i64) -> Result<bool, StoreError> {
        let id = id.clone();
        self.write(move |conn| admin_sessions::end(conn, &id, now_ms))
            .await
    }

    async fn revoke_wallet(&self, wallet: Wallet, now_ms: i64) -> Result<u64, StoreError> {
        self.write(move |conn| admin_sessions::revoke_wallet(conn, wallet, now_ms))
            .await
    }
}
