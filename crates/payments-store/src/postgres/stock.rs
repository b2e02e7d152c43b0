//! The products an order names (by id or SKU, within the merchant's inventory) and the finite stock a
//! sale reserves, inside the sale's transaction.

use deadpool_postgres::GenericClient;
use payments_core::Wallet;

use crate::StockTake;
use crate::postgres::error::PgError;
use crate::postgres::inventory::{item_columns, item_from_row};
use crate::postgres::rows;
use payments_domain::inventory::InventoryItem;
use payments_domain::receipt::ItemRef;

const BY_ID: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM inventory_items WHERE wallet = $1 AND public_id = $2"
);
const BY_SKU: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM inventory_items WHERE wallet = $1 AND sku = $2"
);
/// Takes `$3` units only if that many remain; a concurrent reservation is waited for and the condition
/// re-checked on its result. A product made unlimited (-1) since the decision read it stays unlimited.
const RESERVE: &str = "UPDATE inventory_items
    SET stock_qty = CASE WHEN stock_qty = -1 THEN -1 ELSE stock_qty - $3 END,
        updated_at = CASE WHEN stock_qty = -1 THEN updated_at ELSE $4 END
    WHERE wallet = $1 AND public_id = $2 AND (stock_qty = -1 OR stock_qty >= $3)";
const STOCK_OF: &str = "SELECT sku, stock_qty FROM inventory_items WHERE wallet = $1 AND public_id = $2";

/// One entry per reference, in order; `None` where the merchant has no such product.
pub(super) async fn fetch_refs(
    tx: &impl GenericClient,
    wallet: Wallet,
    refs: &[ItemRef],
) -> Result<Vec<Option<InventoryItem>>, PgError> {
    let wallet = wallet.to_string();
    let mut items = Vec::with_capacity(refs.len());
    for reference in refs {
        let (sql, key) = match reference {
            ItemRef::Id(id) => (BY_ID, id),
            ItemRef::Sku(sku) => (BY_SKU, sku),
        };
        let statement = tx.prepare_cached(sql).await?;
        let row = tx.query_opt(&statement, &[&wallet, key]).await?;
        items.push(row.map(|row| item_from_row(&row)).transpose()?);
    }
    Ok(items)
}

/// Reserves `take`; false when not enough stock remains (nothing changed).
pub(super) async fn reserve(
    tx: &impl GenericClient,
    wallet: Wallet,
    take: &StockTake,
    now_ms: i64,
) -> Result<bool, PgError> {
    let statement = tx.prepare_cached(RESERVE).await?;
    let changed = tx
        .execute(
            &statement,
            &[&wallet.to_string(), &take.item_id, &i64::from(take.qty), &now_ms],
        )
        .await?;
    Ok(changed == 1)
}

/// The product's SKU and current stock, for an out-of-stock answer.
pub(super) async fn stock_of(
    tx: &impl GenericClient,
    wallet: Wallet,
    item_id: &str,
) -> Result<Option<(String, i64)>, PgError> {
    let statement = tx.prepare_cached(STOCK_OF).await?;
    let Some(row) = tx.query_opt(&statement, &[&wallet.to_string(), &item_id]).await? else {
        return Ok(None);
    };
    Ok(Some((rows::get(&row, "sku")?, rows::get(&row, "stock_qty")?)))
}
