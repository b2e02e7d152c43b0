//! The products an order names, looked up by id or SKU within the merchant's inventory.

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::inventory::InventoryItem;
use crate::domain::receipt::ItemRef;
use crate::store::sqlite::inventory::{item_columns, item_from_row};

const BY_ID: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM inventory_items WHERE wallet = ?1 AND public_id = ?2"
);
const BY_SKU: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM inventory_items WHERE wallet = ?1 AND sku = ?2"
);

/// One entry per reference, in order; `None` where the merchant has no such product.
pub(super) fn fetch(
    conn: &Connection,
    wallet: Wallet,
    refs: &[ItemRef],
) -> rusqlite::Result<Vec<Option<InventoryItem>>> {
    let wallet = wallet.to_string();
    refs.iter()
        .map(|reference| {
            let (sql, key) = match reference {
                ItemRef::Id(id) => (BY_ID, id),
                ItemRef::Sku(sku) => (BY_SKU, sku),
            };
            conn.prepare_cached(sql)?
                .query_row(params![wallet, key], item_from_row)
                .optional()
        })
        .collect()
}
