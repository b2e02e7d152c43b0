//! Refund rows on PostgreSQL: recorded with their transition, one per transaction hash (schema v18), confirmed
//! later when their transaction waited for confirmations.

use crate::postgres::connection::{PgClient, Queries};
use payments_core::{Cents, Wallet};

use crate::postgres::error::PgError;
use crate::postgres::rows;
use crate::{NewRefund, PendingRefund};
use payments_domain::receipt::ReceiptId;

/// `ON CONFLICT DO NOTHING`: a concurrent transaction recording the same hash makes this one wait on the
/// unique index until it commits, then insert nothing (the caller refuses the transition).
const INSERT: &str =
    "INSERT INTO receipt_refunds (receipt_id, buyer, usd_cents, items_json, tx_hash, created_at,
    block_number, confirmed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING";
const IS_RECORDED: &str =
    "SELECT EXISTS (SELECT 1 FROM receipt_refunds WHERE tx_hash = $1 AND block_number IS NOT NULL)";
const CONFIRM: &str = "UPDATE receipt_refunds SET confirmed_at = $3
    WHERE receipt_id = $1 AND tx_hash = $2 AND confirmed_at IS NULL";
/// On the partial index `receipt_refunds_unconfirmed`.
const PENDING: &str = "SELECT r.wallet, r.public_id, f.tx_hash, f.block_number, f.usd_cents
    FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
    WHERE f.confirmed_at IS NULL ORDER BY f.id LIMIT $1";

/// Records `refund` of the receipt at `rowid`; false (nothing written) when its transaction already proves
/// a refund.
pub(super) async fn insert(
    tx: &impl Queries,
    rowid: i64,
    refund: &NewRefund,
    now_ms: i64,
) -> Result<bool, PgError> {
    let block = i64::try_from(refund.block_number).unwrap_or(i64::MAX);
    let confirmed_at = refund.confirmed.then_some(now_ms);
    let insert = tx.prepare_cached(INSERT).await?;
    let inserted = tx
        .execute(
            &insert,
            &[
                &rowid,
                &refund.buyer.to_string(),
                &refund.amount.as_i64(),
                &rows::to_json(&refund.items)?,
                &refund.tx_hash,
                &now_ms,
                &block,
                &confirmed_at,
            ],
        )
        .await?;
    Ok(inserted == 1)
}

/// Marks the receipt's refund with `tx_hash` confirmed.
pub(super) async fn confirm(
    tx: &impl Queries,
    rowid: i64,
    tx_hash: &str,
    now_ms: i64,
) -> Result<(), PgError> {
    let confirm = tx.prepare_cached(CONFIRM).await?;
    tx.execute(&confirm, &[&rowid, &tx_hash, &now_ms]).await?;
    Ok(())
}

pub(super) async fn is_recorded(client: PgClient, tx_hash: String) -> Result<bool, PgError> {
    let statement = client.prepare_cached(IS_RECORDED).await?;
    let row = client.query_one(&statement, &[&tx_hash]).await?;
    rows::get(&row, "exists")
}

pub(super) async fn pending(client: PgClient, limit: u32) -> Result<Vec<PendingRefund>, PgError> {
    let statement = client.prepare_cached(PENDING).await?;
    client
        .query(&statement, &[&i64::from(limit)])
        .await?
        .iter()
        .map(|row| {
            let block_number: i64 = rows::get(row, "block_number")?;
            Ok(PendingRefund {
                wallet: rows::parsed(row, "wallet", Wallet::parse)?,
                receipt_id: ReceiptId::from_stored(rows::get(row, "public_id")?),
                tx_hash: rows::get(row, "tx_hash")?,
                block_number: u64::try_from(block_number).unwrap_or_default(),
                amount: Cents::new(rows::get(row, "usd_cents")?),
            })
        })
        .collect()
}
