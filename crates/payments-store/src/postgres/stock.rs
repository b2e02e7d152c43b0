//! The products an order names (by id or SKU, within the merchant's inventory) and the finite stock a
//! sale reserves, inside the sale's transaction.

use crate::postgres::connection::Queries;
use futures_util::future::try_join_all;
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
    tx: &impl Queries,
    wallet: Wallet,
    refs: &[ItemRef],
) -> Result<Vec<Option<InventoryItem>>, PgError> {
    let wallet = wallet.to_string();
    // All at once: the queries are pipelined on the connection, answered in order.
    try_join_all(refs.iter().map(|reference| fetch_ref(tx, &wallet, reference))).await
}

async fn fetch_ref(
    tx: &impl Queries,
    wallet: &str,
    reference: &ItemRef,
) -> Result<Option<InventoryItem>, PgError> {
    let (sql, key) = match reference {
        ItemRef::Id(id) => (BY_ID, id),
        ItemRef::Sku(sku) => (BY_SKU, sku),
    };
    let statement = tx.prepare_cached(sql).await?;
    let row = tx.query_opt(&statement, &[&wallet, key]).await?;
    row.map(|row| item_from_row(&row)).transpose()
}

/// Reserves `take`; false when not enough stock remains (nothing changed).
pub(super) async fn reserve(
    tx: &impl Queries,
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
    tx: &impl Queries,
    wallet: Wallet,
    item_id: &str,
) -> Result<Option<(String, i64)>, PgError> {
    let statement = tx.prepare_cached(STOCK_OF).await?;
    let Some(row) = tx.query_opt(&statement, &[&wallet.to_string(), &item_id]).await? else {
        return Ok(None);
    };
    Ok(Some((rows::get(&row, "sku")?, rows::get(&row, "stock_qty")?)))
}

const RECORD: &str = "INSERT INTO receipt_stock (receipt_id, item_id, qty, held) VALUES ($1, $2, $3, TRUE)";
const WITH_HELD: &str = "SELECT item_id, qty FROM receipt_stock WHERE receipt_id = $1 AND held = $2
    ORDER BY item_id";
const MARK: &str = "UPDATE receipt_stock SET held = $3 WHERE receipt_id = $1 AND item_id = $2";
/// A product made unlimited (-1) since the order stays unlimited: there is nothing to give back.
const GIVE_BACK: &str = "UPDATE inventory_items SET stock_qty = stock_qty + $3, updated_at = $4
    WHERE wallet = $1 AND public_id = $2 AND stock_qty >= 0";
const MARK_SHORT: &str = "UPDATE receipts SET stock_short = TRUE WHERE id = $1";

/// Records what the sale of receipt row `receipt` reserved (docs/money.md: payment windows).
pub(super) async fn record(tx: &impl Queries, receipt: i64, reserved: &[StockTake]) -> Result<(), PgError> {
    let statement = tx.prepare_cached(RECORD).await?;
    for take in reserved {
        tx.execute(&statement, &[&receipt, &take.item_id, &i64::from(take.qty)])
            .await?;
    }
    Ok(())
}

async fn rows_with(tx: &impl Queries, receipt: i64, held: bool) -> Result<Vec<(String, i64)>, PgError> {
    let statement = tx.prepare_cached(WITH_HELD).await?;
    tx.query(&statement, &[&receipt, &held])
        .await?
        .iter()
        .map(|row| Ok((rows::get(row, "item_id")?, rows::get(row, "qty")?)))
        .collect()
}

/// Gives back every unit receipt row `receipt` still holds.
pub(super) async fn release(
    tx: &impl Queries,
    receipt: i64,
    wallet: Wallet,
    now_ms: i64,
) -> Result<(), PgError> {
    let wallet = wallet.to_string();
    let (give_back, mark) = (
        tx.prepare_cached(GIVE_BACK).await?,
        tx.prepare_cached(MARK).await?,
    );
    for (item, qty) in rows_with(tx, receipt, true).await? {
        tx.execute(&give_back, &[&wallet, &item, &qty, &now_ms]).await?;
        tx.execute(&mark, &[&receipt, &item, &false]).await?;
    }
    Ok(())
}

/// Takes again what receipt row `receipt` gave back, product by product where enough remains (the sale's
/// guarded take); a product without enough marks the receipt `stock_short`.
pub(super) async fn retake(
    tx: &impl Queries,
    receipt: i64,
    wallet: Wallet,
    now_ms: i64,
) -> Result<(), PgError> {
    let mark = tx.prepare_cached(MARK).await?;
    let mut short = false;
    for (item_id, qty) in rows_with(tx, receipt, false).await? {
        let qty = u32::try_from(qty).map_err(|error| PgError::Corrupt(format!("receipt stock: {error}")))?;
        if reserve(
            tx,
            wallet,
            &StockTake {
                item_id: item_id.clone(),
                qty,
            },
            now_ms,
        )
        .await?
        {
            tx.execute(&mark, &[&receipt, &item_id, &true]).await?;
        } else {
            short = true;
        }
    }
    if short {
        let statement = tx.prepare_cached(MARK_SHORT).await?;
        tx.execute(&statement, &[&receipt]).await?;
    }
    Ok(())
}
