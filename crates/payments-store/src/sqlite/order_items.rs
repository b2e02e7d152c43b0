//! The products an order names, looked up by id or SKU within the merchant's inventory.

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, params};

use crate::sqlite::inventory::{item_columns, item_from_row};
use payments_domain::inventory::InventoryItem;
use payments_domain::receipt::ItemRef;

// The row id is read last, after the columns `item_from_row` reads by position.
const BY_ID: &str = concat!(
    "SELECT ",
    item_columns!(),
    ", inventory_items.id FROM inventory_items WHERE wallet = ?1 AND public_id = ?2"
);
const BY_SKU: &str = concat!(
    "SELECT ",
    item_columns!(),
    ", inventory_items.id FROM inventory_items WHERE wallet = ?1 AND sku = ?2"
);

/// The merchant's product that `reference` names, with its row id (what the writer's update hook reports
/// when the row changes); `None` where the merchant has no such product.
pub(super) fn fetch_one(
    conn: &Connection,
    wallet: Wallet,
    reference: &ItemRef,
) -> rusqlite::Result<Option<(i64, InventoryItem)>> {
    let (sql, key) = match reference {
        ItemRef::Id(id) => (BY_ID, id),
        ItemRef::Sku(sku) => (BY_SKU, sku),
    };
    conn.prepare_cached(sql)?
        .query_row(params![wallet.to_string(), key], |row| {
            let row_id = row.get(row.as_ref().column_count().saturating_sub(1))?;
            Ok((row_id, item_from_row(row)?))
        })
        .optional()
}
