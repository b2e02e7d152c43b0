//! [`ReserveRepository`] on SQLite: read-only aggregates over receipts, refunds and recorded transfers.

use payments_core::{Cents, ReserveVolume, Wallet};
use rusqlite::{Connection, params};

use crate::sqlite::rows;
use crate::{ReserveRepository, StoreError};
use payments_domain::receipt::ReceiptId;

/// Receipts whose `paid` history entry falls in the window (a receipt becomes paid once).
const PAID_SINCE: &str = "SELECT COALESCE(SUM(r.paid_cents), 0) FROM receipts r
    WHERE r.wallet = ?1 AND EXISTS (SELECT 1 FROM receipt_history h
        WHERE h.receipt_id = r.id AND h.to_status = 'paid' AND h.at >= ?2)";
const REFUNDED_SINCE: &str = "SELECT COALESCE(SUM(f.usd_cents), 0)
    FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
    WHERE r.wallet = ?1 AND f.created_at >= ?2";
/// `?2` is a JSON array of addresses: one statement for any number of them.
const RECEIPTS_PAID_TO: &str = "SELECT r.pay_to, r.public_id FROM receipts r
    WHERE r.wallet = ?1 AND r.pay_to IN (SELECT value FROM json_each(?2))";
const FIRST_DEPOSIT_BLOCK: &str = "SELECT MIN(t.block_number)
    FROM chain_transfers t JOIN receipts r ON t.to_wallet = r.pay_to
    WHERE r.wallet = ?1 AND t.chain_id = ?2";

fn volume_since(conn: &Connection, wallet: Wallet, since_ms: i64) -> rusqlite::Result<ReserveVolume> {
    let merchant = wallet.to_string();
    let paid: i64 = conn
        .prepare_cached(PAID_SINCE)?
        .query_row(params![merchant, since_ms], |row| row.get(0))?;
    let refunded: i64 = conn
        .prepare_cached(REFUNDED_SINCE)?
        .query_row(params![merchant, since_ms], |row| row.get(0))?;
    Ok(ReserveVolume {
        paid: Cents::new(paid),
        refunded: Cents::new(refunded),
    })
}

fn receipts_paid_to(
    conn: &Connection,
    wallet: Wallet,
    deposits: &[Wallet],
) -> rusqlite::Result<Vec<(Wallet, ReceiptId)>> {
    let addresses: Vec<String> = deposits.iter().map(Wallet::to_string).collect();
    let json = serde_json::to_string(&addresses)
        .map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
    conn.prepare_cached(RECEIPTS_PAID_TO)?
        .query_map(params![wallet.to_string(), json], |row| {
            Ok((
                rows::parsed(row, 0, Wallet::parse)?,
                ReceiptId::from_stored(row.get(1)?),
            ))
        })?
        .collect()
}

fn first_deposit_block(conn: &Connection, wallet: Wallet, chain_id: u64) -> rusqlite::Result<Option<u64>> {
    let chain =
        i64::try_from(chain_id).map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
    let block: Option<i64> = conn
        .prepare_cached(FIRST_DEPOSIT_BLOCK)?
        .query_row(params![wallet.to_string(), chain], |row| row.get(0))?;
    block
        .map(|block| u64::try_from(block).map_err(|error| rows::corrupt(0, error)))
        .transpose()
}

#[async_trait::async_trait]
impl ReserveRepository for super::SqliteStore {
    async fn volume_since(&self, wallet: Wallet, since_ms: i64) -> Result<ReserveVolume, StoreError> {
        self.read(move |conn| volume_since(conn, wallet, since_ms)).await
    }

    async fn receipts_paid_to(
        &self,
        wallet: Wallet,
        deposits: &[Wallet],
    ) -> Result<Vec<(Wallet, ReceiptId)>, StoreError> {
        if deposits.is_empty() {
            return Ok(Vec::new());
        }
        let deposits = deposits.to_vec();
        self.read(move |conn| receipts_paid_to(conn, wallet, &deposits))
            .await
    }

    async fn first_deposit_block(&self, wallet: Wallet, chain_id: u64) -> Result<Option<u64>, StoreError> {
        self.read(move |conn| first_deposit_block(conn, wallet, chain_id))
            .await
    }
}
