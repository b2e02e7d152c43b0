//! SQLite backend: WAL, one writer connection (writes are serialized, per PERF-NOTES: more writers only
//! collide in the busy handler) and a small pool of read-only connections.

mod admin_sessions;
mod idempotency;
mod inventory;
mod inventory_list;
mod migrations;
mod order_items;
mod receipts;
mod rows;
mod schema_v2;
mod schema_v3;
mod shops;
mod splits;
mod subscriptions;
mod webhooks;

use std::path::Path;
use std::time::Duration;

use payments_core::{FeePct, Wallet};
use r2d2::{Pool, PooledConnection};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, Transaction, TransactionBehavior};

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

const CONNECTION_PRAGMAS: &str = "PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA busy_timeout = 5000;
PRAGMA foreign_keys = ON;";
/// Reader connections refuse writes, so a write can never bypass the single writer by accident.
const READER_PRAGMAS: &str = "PRAGMA query_only = ON;";
const HEALTH_CHECK: &str = "SELECT 1";

const READER_CONNECTIONS: u32 = 4;
/// How long a request waits for a connection before the datastore counts as unavailable.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(5);

type SqlResult<T> = Result<T, rusqlite::Error>;

/// The SQLite store.
#[derive(Debug)]
pub(crate) struct SqliteStore {
    readers: Pool<SqliteConnectionManager>,
    writer: Pool<SqliteConnectionManager>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database and applies pending migrations.
    pub(crate) fn open(path: &Path, now_ms: i64) -> Result<Self, StoreError> {
        let writer_manager =
            SqliteConnectionManager::file(path).with_init(|conn| conn.execute_batch(CONNECTION_PRAGMAS));
        let writer = Pool::builder()
            .max_size(1)
            .connection_timeout(CONNECTION_TIMEOUT)
            .build(writer_manager)
            .map_err(unavailable)?;
        {
            let mut conn = writer.get().map_err(unavailable)?;
            migrations::apply(&mut conn, now_ms).map_err(query)?;
        }
        let reader_manager = SqliteConnectionManager::file(path).with_init(|conn| {
            conn.execute_batch(CONNECTION_PRAGMAS)?;
            conn.execute_batch(READER_PRAGMAS)
        });
        let readers = Pool::builder()
            .max_size(READER_CONNECTIONS)
            .min_idle(Some(1))
            .connection_timeout(CONNECTION_TIMEOUT)
            .build(reader_manager)
            .map_err(unavailable)?;
        Ok(SqliteStore { readers, writer })
    }

    fn read<T>(&self, operation: impl FnOnce(&Connection) -> SqlResult<T>) -> Result<T, StoreError> {
        let conn: PooledConnection<_> = self.readers.get().map_err(unavailable)?;
        operation(&conn).map_err(query)
    }

    /// Runs `operation` in an IMMEDIATE transaction (takes the write lock up front, so read-then-write
    /// sequences cannot interleave with another process's writes) and commits when it succeeds.
    fn write<T>(&self, operation: impl FnOnce(&Transaction<'_>) -> SqlResult<T>) -> Result<T, StoreError> {
        let mut conn = self.writer.get().map_err(unavailable)?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(query)?;
        let value = operation(&tx).map_err(query)?;
        tx.commit().map_err(query)?;
        Ok(value)
    }
}

fn unavailable(error: r2d2::Error) -> StoreError {
    StoreError::Unavailable(error.to_string())
}

fn query(error: rusqlite::Error) -> StoreError {
    match error {
        rusqlite::Error::FromSqlConversionFailure(_, _, source) => StoreError::Corrupt(source.to_string()),
        other => StoreError::Query(Box::new(other)),
    }
}

impl Store for SqliteStore {
    fn check_health(&self) -> Result<(), StoreError> {
        self.read(|conn| conn.query_row(HEALTH_CHECK, [], |_| Ok(())))
    }

    fn create_receipt(&self, receipt: &NewReceipt) -> Result<CreateReceiptOutcome, StoreError> {
        self.write(|tx| receipts::insert(tx, receipt))
    }

    fn fetch_idempotent_response(
        &self,
        wallet: Wallet,
        scope: &str,
        key: &str,
        not_before_ms: i64,
    ) -> Result<Option<IdempotentResponse>, StoreError> {
        self.read(|conn| idempotency::fetch(conn, wallet, scope, key, not_before_ms))
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
        self.write(|tx| idempotency::save(tx, wallet, scope, key, response, now_ms, not_before_ms))
    }

    fn fetch_order_items(
        &self,
        wallet: Wallet,
        refs: &[ItemRef],
    ) -> Result<Vec<Option<InventoryItem>>, StoreError> {
        self.read(|conn| order_items::fetch(conn, wallet, refs))
    }

    fn fetch_receipt(&self, wallet: Option<Wallet>, id: &ReceiptId) -> Result<Option<Receipt>, StoreError> {
        self.read(|conn| receipts::fetch(conn, wallet, id))
    }

    fn list_receipts(&self, wallet: Wallet, limit: u32) -> Result<Vec<Receipt>, StoreError> {
        self.read(|conn| receipts::list(conn, wallet, limit))
    }

    fn commit_transition(&self, commit: &TransitionCommit) -> Result<bool, StoreError> {
        self.write(|tx| receipts::commit_transition(tx, commit))
    }

    fn claim_due_deliveries(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> Result<Vec<DueDelivery>, StoreError> {
        self.write(|tx| webhooks::claim_due(tx, now_ms, lease_until_ms, limit))
    }

    fn record_delivery_attempt(&self, record: &AttemptRecord) -> Result<(), StoreError> {
        self.write(|tx| webhooks::record_attempt(tx, record))
    }

    fn list_deliveries(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError> {
        self.read(|conn| webhooks::list(conn, wallet, receipt_id))
    }

    fn redeliver(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        self.write(|tx| webhooks::redeliver(tx, wallet, receipt_id, delivery_id, now_ms))
    }

    fn fetch_active_subscription_by_key(&self, hash: &KeyHash) -> Result<Option<Subscription>, StoreError> {
        self.read(|conn| subscriptions::fetch_active_by_key(conn, hash))
    }

    fn fetch_active_subscription(&self, id: &SubscriptionId) -> Result<Option<Subscription>, StoreError> {
        self.read(|conn| subscriptions::fetch_active(conn, id))
    }

    fn list_subscriptions(&self) -> Result<Vec<Subscription>, StoreError> {
        self.read(subscriptions::list)
    }

    fn create_subscription(&self, subscription: &NewSubscription) -> Result<(), StoreError> {
        self.write(|tx| subscriptions::insert(tx, subscription))
    }

    fn create_first_subscription(&self, subscription: &NewSubscription) -> Result<bool, StoreError> {
        self.write(|tx| subscriptions::insert_if_none_exist(tx, subscription))
    }

    fn revoke_subscription(&self, id: &SubscriptionId, now_ms: i64) -> Result<bool, StoreError> {
        self.write(|tx| subscriptions::revoke(tx, id, now_ms))
    }

    fn rotate_subscription(
        &self,
        id: &SubscriptionId,
        replacement_id: &SubscriptionId,
        replacement_hash: &KeyHash,
        now_ms: i64,
    ) -> Result<Option<Subscription>, StoreError> {
        self.write(|tx| subscriptions::rotate(tx, id, replacement_id, replacement_hash, now_ms))
    }

    fn list_inventory(&self, wallet: Wallet, query: &InventoryQuery) -> Result<InventoryPage, StoreError> {
        self.read(|conn| inventory_list::list(conn, wallet, query))
    }

    fn upsert_inventory_item(&self, upsert: &ItemUpsert) -> Result<UpsertOutcome, StoreError> {
        self.write(|tx| inventory::upsert(tx, upsert))
    }

    fn delete_inventory_item(&self, wallet: Wallet, id: &ProductId) -> Result<bool, StoreError> {
        self.write(|tx| inventory::delete(tx, wallet, id))
    }

    fn attach_inventory_image(
        &self,
        wallet: Wallet,
        sku: &Sku,
        image: &ImageDataUrl,
        now_ms: i64,
    ) -> Result<AttachOutcome, StoreError> {
        self.write(|tx| inventory::attach_image(tx, wallet, sku, image, now_ms))
    }

    fn fetch_shop_config(&self, wallet: Wallet) -> Result<Option<ShopConfig>, StoreError> {
        self.read(|conn| shops::fetch(conn, wallet))
    }

    fn save_shop_config(&self, config: &ShopConfig, now_ms: i64) -> Result<(), StoreError> {
        self.write(|tx| shops::save(tx, config, now_ms))
    }

    fn save_processing_fee(&self, wallet: Wallet, fee: FeePct, now_ms: i64) -> Result<(), StoreError> {
        self.write(|tx| shops::save_fee(tx, wallet, fee, now_ms))
    }

    fn issue_admin_nonce(
        &self,
        wallet: Wallet,
        nonce: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.write(|tx| admin_sessions::issue_nonce(tx, wallet, nonce, expires_at_ms, now_ms))
    }

    fn open_admin_session(&self, nonce: &str, session: &NewAdminSession) -> Result<bool, StoreError> {
        self.write(|tx| admin_sessions::open_session(tx, nonce, session))
    }

    fn fetch_admin_session(
        &self,
        id: &SessionId,
        now_ms: i64,
    ) -> Result<Option<StoredAdminSession>, StoreError> {
        self.read(|conn| admin_sessions::fetch_live(conn, id, now_ms))
    }

    fn end_admin_session(&self, id: &SessionId, now_ms: i64) -> Result<bool, StoreError> {
        self.write(|tx| admin_sessions::end(tx, id, now_ms))
    }

    fn revoke_admin_sessions(&self, wallet: Wallet, now_ms: i64) -> Result<u64, StoreError> {
        self.write(|tx| admin_sessions::revoke_wallet(tx, wallet, now_ms))
    }

    fn fetch_split(&self, wallet: Wallet) -> Result<Option<StoredSplit>, StoreError> {
        self.read(|conn| splits::fetch(conn, wallet))
    }

    fn save_split(
        &self,
        wallet: Wallet,
        split: &StoredSplit,
        replace: bool,
        now_ms: i64,
    ) -> Result<SplitSaved, StoreError> {
        self.write(|tx| splits::save(tx, wallet, split, replace, now_ms))
    }

    fn list_split_history(&self, wallet: Wallet) -> Result<Vec<ArchivedSplit>, StoreError> {
        self.read(|conn| splits::history(conn, wallet))
    }
}
