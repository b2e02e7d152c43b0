//! [`ReconcileRepository`] on SQLite: keyset pages of deposits (with their recorded transfers), refunds and
//! charges of a time window (`crate::reconcile_repository`).

use rusqlite::{Connection, named_params};

use crate::reconcile_repository::{
    ChargeRecord, ChargeRow, DepositRecord, DepositRow, ReconcileWindow, RefundRecord, RefundRow,
    TransferRow, assemble_deposits,
};
use crate::sqlite::rows;
use crate::{ReconcileRepository, StoreError};

const DEPOSITS: &str = "SELECT r.id, r.public_id, r.pay_to, r.pay_split, r.received_units,
        EXISTS (SELECT 1 FROM receipt_history h WHERE h.receipt_id = r.id AND h.to_status = 'completed')
    FROM receipts r
    WHERE r.pay_to IS NOT NULL AND r.created_at >= :from_ms AND r.created_at < :to_ms AND r.id > :after
    ORDER BY r.id LIMIT :limit";
/// `:deposits` is a JSON array of addresses: one statement for the whole page.
const TRANSFERS: &str = "SELECT to_wallet, transaction_hash, log_index, amount FROM chain_transfers
    WHERE chain_id = :chain_id AND token = :token AND amount IS NOT NULL AND removed = 0
      AND to_wallet IN (SELECT value FROM json_each(:deposits))";
const REFUNDS: &str = "SELECT f.id, r.public_id, f.buyer, f.usd_cents, f.tx_hash
    FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
    WHERE f.created_at >= :from_ms AND f.created_at < :to_ms AND f.id > :after
    ORDER BY f.id LIMIT :limit";
const CHARGES: &str =
    "SELECT e.id, s.public_id, s.customer, e.period_index, e.net_units, e.fee_units, e.tx_hash
    FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
    WHERE e.status = 'charged' AND e.tx_hash IS NOT NULL
      AND e.created_at >= :from_ms AND e.created_at < :to_ms AND e.id > :after
    ORDER BY e.id LIMIT :limit";

fn deposits_page(
    conn: &Connection,
    window: &ReconcileWindow,
    after: i64,
    limit: u32,
) -> rusqlite::Result<Vec<DepositRecord>> {
    let deposits: Vec<DepositRow> = conn
        .prepare_cached(DEPOSITS)?
        .query_map(
            named_params! {":from_ms": window.from_ms, ":to_ms": window.to_ms, ":after": after, ":limit": limit},
            |row| {
                Ok(DepositRow {
                    row_id: row.get(0)?,
                    receipt_id: row.get(1)?,
                    deposit: row.get(2)?,
                    split: row.get(3)?,
                    received: row.get(4)?,
                    completed: row.get(5)?,
                })
            },
        )?
        .collect::<rusqlite::Result<_>>()?;
    let addresses: Vec<&str> = deposits.iter().map(|row| row.deposit.as_str()).collect();
    let transfers: Vec<TransferRow> = conn
        .prepare_cached(TRANSFERS)?
        .query_map(
            named_params! {
                ":chain_id": i64::try_from(window.chain_id).unwrap_or(i64::MAX),
                ":token": window.token.to_string(),
                ":deposits": rows::to_json(&addresses)?,
            },
            |row| {
                Ok(TransferRow {
                    deposit: row.get(0)?,
                    transaction_hash: row.get(1)?,
                    log_index: row.get(2)?,
                    amount: row.get(3)?,
                })
            },
        )?
        .collect::<rusqlite::Result<_>>()?;
    assemble_deposits(deposits, transfers).map_err(|error| rows::corrupt(0, error))
}

fn refunds_page(
    conn: &Connection,
    window: &ReconcileWindow,
    after: i64,
    limit: u32,
) -> rusqlite::Result<Vec<RefundRecord>> {
    conn.prepare_cached(REFUNDS)?
        .query_map(
            named_params! {":from_ms": window.from_ms, ":to_ms": window.to_ms, ":after": after, ":limit": limit},
            |row| {
                RefundRow {
                    row_id: row.get(0)?,
                    receipt_id: row.get(1)?,
                    buyer: row.get(2)?,
                    amount_cents: row.get(3)?,
                    transaction_hash: row.get(4)?,
                }
                .into_record()
                .map_err(|error| rows::corrupt(0, error))
            },
        )?
        .collect()
}

fn charges_page(
    conn: &Connection,
    window: &ReconcileWindow,
    after: i64,
    limit: u32,
) -> rusqlite::Result<Vec<ChargeRecord>> {
    conn.prepare_cached(CHARGES)?
        .query_map(
            named_params! {":from_ms": window.from_ms, ":to_ms": window.to_ms, ":after": after, ":limit": limit},
            |row| {
                ChargeRow {
                    row_id: row.get(0)?,
                    subscription_id: row.get(1)?,
                    customer: row.get(2)?,
                    period_index: row.get(3)?,
                    net_units: row.get(4)?,
                    fee_units: row.get(5)?,
                    transaction_hash: row.get(6)?,
                }
                .into_record()
                .map_err(|error| rows::corrupt(0, error))
            },
        )?
        .collect()
}

#[async_trait::async_trait]
impl ReconcileRepository for super::SqliteStore {
    async fn deposits_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<DepositRecord>, StoreError> {
        let window = window.clone();
        self.read(move |conn| deposits_page(conn, &window, after, limit))
            .await
    }

    async fn refunds_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<RefundRecord>, StoreError> {
        let window = window.clone();
        self.read(move |conn| refunds_page(conn, &window, after, limit))
            .await
    }

    async fn charges_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<ChargeRecord>, StoreError> {
        let window = window.clone();
        self.read(move |conn| charges_page(conn, &window, after, limit))
            .await
    }
}
