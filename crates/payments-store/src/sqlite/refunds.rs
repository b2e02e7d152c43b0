//! Refund rows on SQLite: recorded with their transition, one per transaction hash (schema v18), confirmed
//! later when their transaction waited for confirmations.

use payments_core::{Cents, Wallet};
use rusqlite::{Connection, params};

use crate::sqlite::rows;
use crate::{NewRefund, PendingRefund};
use payments_domain::receipt::ReceiptId;

const INSERT: &str =
    "INSERT INTO receipt_refunds (receipt_id, buyer, usd_cents, items_json, tx_hash, created_at,
    block_number, confirmed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
const IS_RECORDED: &str =
    "SELECT EXISTS (SELECT 1 FROM receipt_refunds WHERE tx_hash = ?1 AND block_number IS NOT NULL)";
const CONFIRM: &str = "UPDATE receipt_refunds SET confirmed_at = ?3
    WHERE receipt_id = ?1 AND tx_hash = ?2 AND confirmed_at IS NULL";
/// On the partial index `receipt_refunds_unconfirmed`.
const PENDING: &str = "SELECT r.wallet, r.public_id, f.tx_hash, f.block_number, f.usd_cents
    FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
    WHERE f.confirmed_at IS NULL ORDER BY f.id LIMIT ?1";

/// Whether a refund was recorded with this transaction (the writer checks it before recording another: it
/// holds the only write lock, so nothing records the hash in between).
pub(super) fn is_recorded(conn: &Connection, tx_hash: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached(IS_RECORDED)?
        .query_row([tx_hash], |row| row.get(0))
}

/// Records `refund` of the receipt at `rowid`, confirmed now when its transaction had its confirmations.
pub(super) fn insert(tx: &Connection, rowid: i64, refund: &NewRefund, now_ms: i64) -> rusqlite::Result<()> {
    let block = i64::try_from(refund.block_number).unwrap_or(i64::MAX);
    tx.prepare_cached(INSERT)?.execute(params![
        rowid,
        refund.buyer.to_string(),
        refund.amount.as_i64(),
        rows::to_json(&refund.items)?,
        refund.tx_hash,
        now_ms,
        block,
        refund.confirmed.then_some(now_ms),
    ])?;
    Ok(())
}

/// Marks the receipt's refund with `tx_hash` confirmed.
pub(super) fn confirm(tx: &Connection, rowid: i64, tx_hash: &str, now_ms: i64) -> rusqlite::Result<()> {
    tx.prepare_cached(CONFIRM)?
        .execute(params![rowid, tx_hash, now_ms])?;
    Ok(())
}

pub(super) fn pending(conn: &Connection, limit: u32) -> rusqlite::Result<Vec<PendingRefund>> {
    conn.prepare_cached(PENDING)?
        .query_map([limit], |row| {
            Ok(PendingRefund {
                wallet: rows::parsed(row, 0, Wallet::parse)?,
                receipt_id: ReceiptId::from_stored(row.get(1)?),
                tx_hash: row.get(2)?,
                block_number: u64::try_from(row.get::<_, i64>(3)?).unwrap_or_default(),
                amount: Cents::new(row.get(4)?),
            })
        })?
        .collect()
}
