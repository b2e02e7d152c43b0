//! The stock an order reserved, per product (`receipt_stock`): recorded with the sale, given back when its
//! payment window ends unpaid, taken again when a late payment arrives (docs/money.md).

use payments_core::Wallet;
use rusqlite::{Connection, params};

use crate::StockTake;

const RECORD: &str = "INSERT INTO receipt_stock (receipt_id, item_id, qty, held) VALUES (?1, ?2, ?3, 1)";
const WITH_HELD: &str = "SELECT item_id, qty FROM receipt_stock WHERE receipt_id = ?1 AND held = ?2
    ORDER BY item_id";
const MARK: &str = "UPDATE receipt_stock SET held = ?3 WHERE receipt_id = ?1 AND item_id = ?2";
/// A product made unlimited (-1) since the order stays unlimited: there is nothing to give back.
const GIVE_BACK: &str = "UPDATE inventory_items SET stock_qty = stock_qty + ?3, updated_at = ?4
    WHERE wallet = ?1 AND public_id = ?2 AND stock_qty >= 0";
/// The sale's guarded take again; an unlimited product (-1) is always available and stays unlimited.
const TAKE_AGAIN: &str = "UPDATE inventory_items
    SET stock_qty = CASE WHEN stock_qty = -1 THEN -1 ELSE stock_qty - ?3 END, updated_at = ?4
    WHERE wallet = ?1 AND public_id = ?2 AND (stock_qty = -1 OR stock_qty >= ?3)";
const MARK_SHORT: &str = "UPDATE receipts SET stock_short = 1 WHERE id = ?1";

/// Records what the sale of receipt row `receipt` reserved.
pub(super) fn record(conn: &Connection, receipt: i64, reserved: &[StockTake]) -> rusqlite::Result<()> {
    let mut insert = conn.prepare_cached(RECORD)?;
    for take in reserved {
        insert.execute(params![receipt, take.item_id, take.qty])?;
    }
    Ok(())
}

fn rows_with(conn: &Connection, receipt: i64, held: bool) -> rusqlite::Result<Vec<(String, i64)>> {
    conn.prepare_cached(WITH_HELD)?
        .query_map(params![receipt, held], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect()
}

/// Gives back every unit the receipt still holds.
pub(super) fn release(conn: &Connection, receipt: i64, wallet: Wallet, now_ms: i64) -> rusqlite::Result<()> {
    let wallet = wallet.to_string();
    for (item, qty) in rows_with(conn, receipt, true)? {
        conn.prepare_cached(GIVE_BACK)?
            .execute(params![wallet, item, qty, now_ms])?;
        conn.prepare_cached(MARK)?
            .execute(params![receipt, item, false])?;
    }
    Ok(())
}

/// Takes again what the receipt gave back, product by product where enough remains; a product that no
/// longer has enough marks the receipt `stock_short`.
pub(super) fn retake(conn: &Connection, receipt: i64, wallet: Wallet, now_ms: i64) -> rusqlite::Result<()> {
    let wallet = wallet.to_string();
    let mut short = false;
    for (item, qty) in rows_with(conn, receipt, false)? {
        let taken = conn
            .prepare_cached(TAKE_AGAIN)?
            .execute(params![wallet, item, qty, now_ms])?;
        if taken == 1 {
            conn.prepare_cached(MARK)?.execute(params![receipt, item, true])?;
        } else {
            short = true;
        }
    }
    if short {
        conn.prepare_cached(MARK_SHORT)?.execute([receipt])?;
    }
    Ok(())
}
