//! [`ReconcileRepository`] on PostgreSQL (the statements mirror `sqlite/reconcile.rs`).

use async_trait::async_trait;

use crate::postgres::connection::{PgClient, Queries as _};
use crate::postgres::error::PgError;
use crate::postgres::{PgStore, rows};
use crate::reconcile_repository::{
    ChargeRecord, ChargeRow, DepositRecord, DepositRow, ReconcileWindow, RefundRecord, RefundRow,
    TransferRow, assemble_deposits,
};
use crate::{ReconcileRepository, StoreError};

const DEPOSITS: &str = "SELECT r.id AS row_id, r.public_id, r.pay_to, r.pay_split, r.received_units,
        EXISTS (SELECT 1 FROM receipt_history h WHERE h.receipt_id = r.id AND h.to_status = 'completed')
            AS completed
    FROM receipts r
    WHERE r.pay_to IS NOT NULL AND r.created_at >= $1 AND r.created_at < $2 AND r.id > $3
    ORDER BY r.id LIMIT $4";
const TRANSFERS: &str = "SELECT to_wallet, transaction_hash, log_index, amount FROM chain_transfers
    WHERE chain_id = $1 AND token = $2 AND amount IS NOT NULL AND NOT removed AND to_wallet = ANY($3)";
const REFUNDS: &str = "SELECT f.id AS row_id, r.public_id, f.buyer, f.usd_cents, f.tx_hash
    FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
    WHERE f.created_at >= $1 AND f.created_at < $2 AND f.id > $3
    ORDER BY f.id LIMIT $4";
const CHARGES: &str =
    "SELECT e.id AS row_id, s.public_id, s.customer, e.period_index, e.net_units, e.fee_units,
        e.tx_hash
    FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
    WHERE e.status = 'charged' AND e.tx_hash IS NOT NULL AND e.created_at >= $1 AND e.created_at < $2
      AND e.id > $3
    ORDER BY e.id LIMIT $4";

/// One keyset page of a window's records: every statement above takes `(from, to, after, limit)`.
async fn window_rows(
    client: &PgClient,
    sql: &str,
    window: &ReconcileWindow,
    after: i64,
    limit: u32,
) -> Result<Vec<tokio_postgres::Row>, PgError> {
    let statement = client.prepare_cached(sql).await?;
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 4] =
        [&window.from_ms, &window.to_ms, &after, &i64::from(limit)];
    Ok(client.query(&statement, &params).await?)
}

async fn deposits_page(
    client: PgClient,
    window: &ReconcileWindow,
    after: i64,
    limit: u32,
) -> Result<Vec<DepositRecord>, PgError> {
    let deposits = window_rows(&client, DEPOSITS, window, after, limit)
        .await?
        .iter()
        .map(|row| {
            Ok(DepositRow {
                row_id: rows::get(row, "row_id")?,
                receipt_id: rows::get(row, "public_id")?,
                deposit: rows::get(row, "pay_to")?,
                split: rows::get(row, "pay_split")?,
                received: rows::get(row, "received_units")?,
                completed: rows::get(row, "completed")?,
            })
        })
        .collect::<Result<Vec<_>, PgError>>()?;
    let addresses: Vec<&str> = deposits.iter().map(|row| row.deposit.as_str()).collect();
    let chain_id = i64::try_from(window.chain_id).unwrap_or(i64::MAX);
    let statement = client.prepare_cached(TRANSFERS).await?;
    let transfers = client
        .query(&statement, &[&chain_id, &window.token.to_string(), &addresses])
        .await?
        .iter()
        .map(|row| {
            Ok(TransferRow {
                deposit: rows::get(row, "to_wallet")?,
                transaction_hash: rows::get(row, "transaction_hash")?,
                log_index: rows::get(row, "log_index")?,
                amount: rows::get(row, "amount")?,
            })
        })
        .collect::<Result<Vec<_>, PgError>>()?;
    assemble_deposits(deposits, transfers).map_err(|error| PgError::corrupt("a reconciled deposit", error))
}

async fn refunds_page(
    client: PgClient,
    window: &ReconcileWindow,
    after: i64,
    limit: u32,
) -> Result<Vec<RefundRecord>, PgError> {
    window_rows(&client, REFUNDS, window, after, limit)
        .await?
        .iter()
        .map(|row| {
            RefundRow {
                row_id: rows::get(row, "row_id")?,
                receipt_id: rows::get(row, "public_id")?,
                buyer: rows::get(row, "buyer")?,
                amount_cents: rows::get(row, "usd_cents")?,
                transaction_hash: rows::get(row, "tx_hash")?,
            }
            .into_record()
            .map_err(|error| PgError::corrupt("a reconciled refund", error))
        })
        .collect()
}

async fn charges_page(
    client: PgClient,
    window: &ReconcileWindow,
    after: i64,
    limit: u32,
) -> Result<Vec<ChargeRecord>, PgError> {
    window_rows(&client, CHARGES, window, after, limit)
        .await?
        .iter()
        .map(|row| {
            ChargeRow {
                row_id: rows::get(row, "row_id")?,
                subscription_id: rows::get(row, "public_id")?,
                customer: rows::get(row, "customer")?,
                period_index: rows::get(row, "period_index")?,
                net_units: rows::get(row, "net_units")?,
                fee_units: rows::get(row, "fee_units")?,
                transaction_hash: rows::get(row, "tx_hash")?,
            }
            .into_record()
            .map_err(|error| PgError::corrupt("a reconciled charge", error))
        })
        .collect()
}

#[async_trait]
impl ReconcileRepository for PgStore {
    async fn deposits_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<DepositRecord>, StoreError> {
        self.run(|client| Box::pin(deposits_page(client, window, after, limit)))
            .await
    }

    async fn refunds_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<RefundRecord>, StoreError> {
        self.run(|client| Box::pin(refunds_page(client, window, after, limit)))
            .await
    }

    async fn charges_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<ChargeRecord>, StoreError> {
        self.run(|client| Box::pin(charges_page(client, window, after, limit)))
            .await
    }
}
