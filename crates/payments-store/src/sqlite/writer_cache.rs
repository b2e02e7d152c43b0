//! The products and merchant configuration that sale transactions read, kept in memory by the writer.
//!
//! Every order reads its merchant's split and shop and each product it names (the product row with its
//! images' metadata): a third of the writer's time per order before this cache. These rows change rarely and
//! only through writes, and the writer sees every write:
//! - this process writes through the writer's connection only, whose update hook drops what a write touches
//!   the moment the row changes (a product by its row; any split or shop change, or any image change, drops
//!   all of that kind), so a later job of the same batch reads the new row;
//! - a job that rolls back, or a batch that fails, may have left values read after its own writes: the whole
//!   cache is dropped then;
//! - another process's commit (a second server on the file, a `keys` command) moves SQLite's `data_version`
//!   of the writer's connection; it is compared at the start of every batch, when the writer already holds
//!   the write lock, so nothing else can commit while the batch reads from the cache.
//!
//! So a value served is the value the database holds at that point of the transaction, as if it had been
//! read. Only rows found are kept: a product created later must not be hidden by a remembered absence.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use payments_core::Wallet;
use rusqlite::Connection;

use crate::MerchantSnapshot;
use crate::sqlite::{order_items, shops, splits};
use payments_domain::inventory::InventoryItem;
use payments_domain::receipt::ItemRef;

/// Past this many products (or merchants) the cache starts over, so its memory stays bounded.
const MAX_ENTRIES: usize = 4096;

const DATA_VERSION: &str = "PRAGMA data_version";

type ProductKey = (Wallet, ItemRef);

#[derive(Default)]
struct Entries {
    /// `PRAGMA data_version` at the start of the last batch.
    data_version: Option<i64>,
    merchants: HashMap<Wallet, MerchantSnapshot>,
    products: HashMap<ProductKey, InventoryItem>,
    /// The keys a product row is kept under (its id, its SKU, or both).
    keys_of_row: HashMap<i64, Vec<ProductKey>>,
}

impl Entries {
    fn forget_products(&mut self) {
        self.products.clear();
        self.keys_of_row.clear();
    }

    fn forget_all(&mut self) {
        self.merchants.clear();
        self.forget_products();
    }
}

/// The writer's cache; used on the writer thread only (the mutex is never contended).
#[derive(Default)]
pub(super) struct WriterCache {
    entries: Mutex<Entries>,
}

impl std::fmt::Debug for WriterCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriterCache").finish_non_exhaustive()
    }
}

impl WriterCache {
    /// The writer's update hook: a row of `table` changed.
    pub(super) fn saw_write(&self, table: &str, row_id: i64) {
        let mut entries = self.entries();
        match table {
            "splits" | "shops" => entries.merchants.clear(),
            "inventory_images" => entries.forget_products(),
            "inventory_items" => {
                for key in entries.keys_of_row.remove(&row_id).unwrap_or_default() {
                    entries.products.remove(&key);
                }
            }
            _ => {}
        }
    }

    /// Called by the writer once its batch's transaction has begun (holding the write lock): drops
    /// everything when another connection committed since the last batch.
    pub(super) fn batch_began(&self, conn: &Connection) -> rusqlite::Result<()> {
        let version: i64 = conn
            .prepare_cached(DATA_VERSION)?
            .query_row([], |row| row.get(0))?;
        let mut entries = self.entries();
        if entries.data_version != Some(version) {
            entries.forget_all();
            entries.data_version = Some(version);
        }
        Ok(())
    }

    /// Called by the writer when a job rolled back or a batch failed.
    pub(super) fn forget_all(&self) {
        self.entries().forget_all();
    }

    /// The merchant's split and shop.
    pub(super) fn merchant(&self, conn: &Connection, wallet: Wallet) -> rusqlite::Result<MerchantSnapshot> {
        if let Some(found) = self.entries().merchants.get(&wallet) {
            return Ok(found.clone());
        }
        let snapshot = MerchantSnapshot {
            split: splits::fetch(conn, wallet)?,
            shop: shops::fetch(conn, wallet)?,
        };
        let mut entries = self.entries();
        if entries.merchants.len() >= MAX_ENTRIES {
            entries.merchants.clear();
        }
        entries.merchants.insert(wallet, snapshot.clone());
        Ok(snapshot)
    }

    /// One entry per reference, in order; `None` where the merchant has no such product.
    pub(super) fn products(
        &self,
        conn: &Connection,
        wallet: Wallet,
        refs: &[ItemRef],
    ) -> rusqlite::Result<Vec<Option<InventoryItem>>> {
        refs.iter()
            .map(|reference| self.product(conn, wallet, reference))
            .collect()
    }

    fn product(
        &self,
        conn: &Connection,
        wallet: Wallet,
        reference: &ItemRef,
    ) -> rusqlite::Result<Option<InventoryItem>> {
        let key = (wallet, reference.clone());
        if let Some(item) = self.entries().products.get(&key) {
            return Ok(Some(item.clone()));
        }
        let Some((row_id, item)) = order_items::fetch_one(conn, wallet, reference)? else {
            return Ok(None);
        };
        let mut entries = self.entries();
        if entries.products.len() >= MAX_ENTRIES {
            entries.forget_products();
        }
        entries.keys_of_row.entry(row_id).or_default().push(key.clone());
        entries.products.insert(key, item.clone());
        Ok(Some(item))
    }

    fn entries(&self) -> MutexGuard<'_, Entries> {
        // Each change leaves the maps consistent, so a lock poisoned by a panic elsewhere is still usable.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
