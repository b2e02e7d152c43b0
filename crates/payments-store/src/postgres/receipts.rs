//! Receipt rows: the mapper, the reads (always by merchant wallet, except the payment page's lookup by
//! id), the insert, and [`ReceiptRepository`] (whose use cases live in [`super::sale`] and
//! [`super::transition`]).

use crate::postgres::connection::{PgClient, Queries};
use async_trait::async_trait;
use payments_core::Wallet;
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::{
    BACKEND, PgStore, onramp_sessions, receipt_stamp, refunds, rows, sale, splits, transition,
};
use crate::rows::ReceiptRow;
use crate::{
    Committed, PendingRefund, ReceiptFilter, ReceiptPage, ReceiptRepository, ReceiptStamp, Sale, SaleRefused,
    SaleTx, StoreError, TransitionRefused, TransitionTx, Transitioned, TxError,
};
use payments_domain::page_cursor::ReceiptKey;
use payments_domain::receipt::{NewReceipt, OnrampSession, Receipt, ReceiptId};
use payments_domain::split::StoredSplit;

/// The columns [`receipt_from_row`] decodes, in every receipt read below.
macro_rules! receipt_columns {
    () => {
        "id, public_id, wallet, source, status, version, currency, subtotal_cents, tax_cents, fee_cents,
    total_cents, paid_cents, refunded_cents, line_items_json, brand_name, jurisdiction_code, tax_rate,
    tax_components_json, options_json, webhook_url, transaction_hash, transaction_timestamp, buyer_wallet,
    failure_json, created_at, updated_at, status_authority, pay_to, pay_split, expires_at, expired, paid_late,
    stock_short, onramp_provider, onramp_session_id, onramp_url, onramp_created_at, received_units"
    };
}

// A lookup by id is two statements, one per case, rather than one with `($2 IS NULL OR wallet = $2)`:
// PostgreSQL never settles on a generic plan for that one (its generic plan scans the `public_id` index and
// filters, which costs more than the custom plan on the unique `(wallet, public_id)` index), so it planned
// the statement again on every execution, about 40 µs of the database's CPU per `GET /api/receipts/{id}`
// (docs/benchmarks.md). Each statement below keeps one generic plan per connection.

/// A merchant's receipt by id.
const FETCH_OF_MERCHANT: &str = concat!(
    "SELECT ",
    receipt_columns!(),
    " FROM receipts WHERE public_id = $1 AND wallet = $2"
);
/// [`FETCH_OF_MERCHANT`] with the merchant's split (the payment link's address), one statement: fewer
/// executor start-ups on the database than two pipelined reads.
const FETCH_WITH_SPLIT_OF_MERCHANT: &str = concat!(
    "SELECT ",
    receipt_columns!(),
    ", split.split_address, split.split_recipients_json FROM receipts
    LEFT JOIN LATERAL (SELECT address AS split_address, recipients_json AS split_recipients_json
        FROM splits WHERE splits.wallet = $2) split ON true
    WHERE public_id = $1 AND wallet = $2"
);
/// The payment page's lookup by id alone, which names a receipt only when exactly one merchant has that id
/// (two rows at most are read to tell).
const FETCH_BY_ID: &str = concat!(
    "SELECT ",
    receipt_columns!(),
    " FROM receipts WHERE public_id = $1 LIMIT 2"
);
/// Like [`FETCH_OF_MERCHANT`], holding the row until the transaction ends so concurrent transitions of one
/// receipt run one after the other, each deciding on the previous one's result.
const LOCK_OF_MERCHANT: &str = concat!(
    "SELECT ",
    receipt_columns!(),
    " FROM receipts WHERE public_id = $1 AND wallet = $2 FOR UPDATE"
);
/// Like [`FETCH_BY_ID`], holding the rows until the transaction ends.
const LOCK_BY_ID: &str = concat!(
    "SELECT ",
    receipt_columns!(),
    " FROM receipts WHERE public_id = $1 LIMIT 2 FOR UPDATE"
);
/// Newest first; the row id breaks ties between receipts created in the same millisecond.
const LIST: &str = concat!(
    "SELECT ",
    receipt_columns!(),
    " FROM receipts WHERE wallet = $1 AND ($3::boolean IS NULL OR paid_late = $3)
    ORDER BY created_at DESC, id DESC LIMIT $2"
);
/// [`LIST`] after a cursor's `(created_at, id)`: a keyset page on the `(wallet, created_at, id)` index.
const LIST_AFTER: &str = concat!(
    "SELECT ",
    receipt_columns!(),
    " FROM receipts WHERE wallet = $1 AND (created_at, id) < ($3, $4)
        AND ($5::boolean IS NULL OR paid_late = $5)
    ORDER BY created_at DESC, id DESC LIMIT $2"
);
/// Receipt ids are unique per merchant (schema v4): a taken id inserts nothing (and returns no row), also
/// when the other insert is still uncommitted (this one waits for it).
pub(super) const INSERT: &str = "INSERT INTO receipts (public_id, wallet, source, status, currency,
    subtotal_cents, tax_cents, fee_cents, total_cents, line_items_json, brand_name, jurisdiction_code, tax_rate,
    tax_components_json, options_json, webhook_url, signing_key, created_at, updated_at, pay_to, pay_split,
    expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18, $19, $20,
    $21)
    ON CONFLICT (wallet, public_id) DO NOTHING RETURNING id";

const WINDOWS_ENDED: &str = "SELECT wallet, public_id FROM receipts
    WHERE paid_cents = 0 AND NOT expired AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2";

/// The row id and the receipt.
pub(super) fn receipt_from_row(row: &Row) -> Result<(i64, Receipt), PgError> {
    let receipt = ReceiptRow {
        public_id: rows::get(row, "public_id")?,
        wallet: rows::get(row, "wallet")?,
        source: rows::get(row, "source")?,
        status: rows::get(row, "status")?,
        version: rows::get(row, "version")?,
        currency: rows::get(row, "currency")?,
        subtotal_cents: rows::get(row, "subtotal_cents")?,
        tax_cents: rows::get(row, "tax_cents")?,
        fee_cents: rows::get(row, "fee_cents")?,
        total_cents: rows::get(row, "total_cents")?,
        paid_cents: rows::get(row, "paid_cents")?,
        refunded_cents: rows::get(row, "refunded_cents")?,
        line_items_json: rows::get(row, "line_items_json")?,
        brand_name: rows::get(row, "brand_name")?,
        jurisdiction_code: rows::get(row, "jurisdiction_code")?,
        tax_rate: rows::get(row, "tax_rate")?,
        tax_components_json: rows::get(row, "tax_components_json")?,
        options_json: rows::get(row, "options_json")?,
        webhook_url: rows::get(row, "webhook_url")?,
        transaction_hash: rows::get(row, "transaction_hash")?,
        transaction_timestamp: rows::get(row, "transaction_timestamp")?,
        buyer_wallet: rows::get(row, "buyer_wallet")?,
        failure_json: rows::get(row, "failure_json")?,
        created_at: rows::get(row, "created_at")?,
        updated_at: rows::get(row, "updated_at")?,
        status_authority: rows::get(row, "status_authority")?,
        pay_to: rows::get(row, "pay_to")?,
        pay_split: rows::get(row, "pay_split")?,
        expires_at: rows::get(row, "expires_at")?,
        expired: rows::get(row, "expired")?,
        paid_late: rows::get(row, "paid_late")?,
        stock_short: rows::get(row, "stock_short")?,
        onramp_provider: rows::get(row, "onramp_provider")?,
        onramp_session_id: rows::get(row, "onramp_session_id")?,
        onramp_url: rows::get(row, "onramp_url")?,
        onramp_created_at: rows::get(row, "onramp_created_at")?,
        received_units: rows::get(row, "received_units")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a receipt", error))?;
    Ok((rows::get(row, "id")?, receipt))
}

/// Inserts the receipt; `None` when this merchant already has its id.
pub(super) async fn insert(client: &impl Queries, receipt: &NewReceipt) -> Result<Option<i64>, PgError> {
    let statement = client.prepare_cached(INSERT).await?;
    let row = client
        .query_opt(
            &statement,
            &[
                &receipt.id.as_str(),
                &receipt.wallet.to_string(),
                &receipt.source.as_str(),
                &receipt.source.initial_status().as_str(),
                &receipt.currency,
                &receipt.amounts.subtotal.as_i64(),
                &receipt.amounts.tax.as_i64(),
                &receipt.amounts.fee.as_i64(),
                &receipt.amounts.total.as_i64(),
                &rows::to_json(&receipt.line_items)?,
                &receipt.brand_name,
                &receipt.tax.jurisdiction_code,
                &receipt.tax.rate.to_string(),
                &rows::to_json(&receipt.tax.components)?,
                &rows::to_json(&receipt.options)?,
                &receipt.webhook_url,
                &receipt.sealed_signing_key,
                &receipt.now_ms,
                &receipt.payment.map(|target| target.to.to_string()),
                &receipt.payment.map(|target| target.split.to_string()),
                &receipt.expires_at,
            ],
        )
        .await?;
    row.map(|row| rows::get(&row, "id")).transpose()
}

/// Whether a lookup by id locks the row for the rest of the transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Hold {
    Read,
    Lock,
}

/// The rows a lookup by id finds: of `wallet`'s receipts, or of every merchant's when `wallet` is none (the
/// payment page; see [`only_row`]).
pub(super) async fn select_by_id(
    client: &impl Queries,
    wallet: Option<Wallet>,
    id: &ReceiptId,
    hold: Hold,
) -> Result<Vec<Row>, tokio_postgres::Error> {
    match wallet {
        Some(wallet) => {
            let sql = if hold == Hold::Lock {
                LOCK_OF_MERCHANT
            } else {
                FETCH_OF_MERCHANT
            };
            let statement = client.prepare_cached(sql).await?;
            client
                .query(&statement, &[&id.as_str(), &wallet.to_string()])
                .await
        }
        None => {
            let sql = if hold == Hold::Lock {
                LOCK_BY_ID
            } else {
                FETCH_BY_ID
            };
            let statement = client.prepare_cached(sql).await?;
            client.query(&statement, &[&id.as_str()]).await
        }
    }
}

/// The one row of a lookup by id; none when there is none or (the payment page's lookup by id alone)
/// several merchants have that id, which then names no receipt.
pub(super) fn only_row(mut rows: Vec<Row>) -> Option<Row> {
    if rows.len() == 1 { rows.pop() } else { None }
}

async fn fetch(client: PgClient, wallet: Option<Wallet>, id: &ReceiptId) -> Result<Option<Receipt>, PgError> {
    fetch_row(&client, wallet, id).await
}

pub(super) async fn fetch_row(
    client: &impl Queries,
    wallet: Option<Wallet>,
    id: &ReceiptId,
) -> Result<Option<Receipt>, PgError> {
    let rows = select_by_id(client, wallet, id, Hold::Read).await?;
    only_row(rows)
        .map(|row| receipt_from_row(&row).map(|(_, receipt)| receipt))
        .transpose()
}

async fn fetch_with_split(
    client: PgClient,
    wallet: Option<Wallet>,
    id: &ReceiptId,
) -> Result<Option<(Receipt, Option<StoredSplit>)>, PgError> {
    let Some(merchant) = wallet else {
        // The payment page's lookup by id alone: the split's merchant is known only from the receipt.
        let Some(receipt) = fetch_row(&client, None, id).await? else {
            return Ok(None);
        };
        let split = splits::fetch(&client, receipt.wallet).await?;
        return Ok(Some((receipt, split)));
    };
    // The merchant is known: one statement reads both.
    let statement = client.prepare_cached(FETCH_WITH_SPLIT_OF_MERCHANT).await?;
    let row = client
        .query_opt(&statement, &[&id.as_str(), &merchant.to_string()])
        .await?;
    row.map(|row| {
        let (_, receipt) = receipt_from_row(&row)?;
        Ok((receipt, splits::joined_split(&row)?))
    })
    .transpose()
}

/// One page (one row more is read to learn whether another page follows).
async fn list(
    client: PgClient,
    wallet: Wallet,
    limit: u32,
    after: Option<ReceiptKey>,
    filter: ReceiptFilter,
) -> Result<ReceiptPage, PgError> {
    let wallet = wallet.to_string();
    let read_limit = i64::from(limit) + 1;
    let rows = match after {
        None => {
            let statement = client.prepare_cached(LIST).await?;
            client
                .query(&statement, &[&wallet, &read_limit, &filter.paid_late])
                .await?
        }
        Some(key) => {
            let statement = client.prepare_cached(LIST_AFTER).await?;
            client
                .query(
                    &statement,
                    &[
                        &wallet,
                        &read_limit,
                        &key.created_at,
                        &key.row_id,
                        &filter.paid_late,
                    ],
                )
                .await?
        }
    };
    let found = rows
        .iter()
        .map(|row| receipt_from_row(row).map(|(row_id, receipt)| (receipt, row_id)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ReceiptPage::of_rows(found, limit))
}

/// Unpaid, unexpired receipts whose window ended by `now_ms` (the partial index `receipts_window_open`).
async fn windows_ended(
    client: PgClient,
    now_ms: i64,
    limit: u32,
) -> Result<Vec<(Wallet, ReceiptId)>, PgError> {
    let statement = client.prepare_cached(WINDOWS_ENDED).await?;
    client
        .query(&statement, &[&now_ms, &i64::from(limit)])
        .await?
        .iter()
        .map(|row| {
            Ok((
                rows::parsed(row, "wallet", Wallet::parse)?,
                ReceiptId::from_stored(rows::get(row, "public_id")?),
            ))
        })
        .collect()
}

#[async_trait]
impl<S: Send + 'static, T: Send + 'static> ReceiptRepository<S, T> for PgStore {
    async fn windows_ended(&self, now_ms: i64, limit: u32) -> Result<Vec<(Wallet, ReceiptId)>, StoreError> {
        self.run(|client| Box::pin(windows_ended(client, now_ms, limit)))
            .await
    }

    async fn refund_tx_recorded(&self, tx_hash: &str) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(refunds::is_recorded(client, tx_hash.to_owned())))
            .await
    }

    async fn pending_refunds(&self, limit: u32) -> Result<Vec<PendingRefund>, StoreError> {
        self.run(|client| Box::pin(refunds::pending(client, limit))).await
    }

    async fn record_onramp_session(
        &self,
        wallet: Wallet,
        id: &ReceiptId,
        session: &OnrampSession,
    ) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(onramp_sessions::record(client, wallet, id, session)))
            .await
    }

    async fn fetch(&self, wallet: Option<Wallet>, id: &ReceiptId) -> Result<Option<Receipt>, StoreError> {
        self.run(|client| Box::pin(fetch(client, wallet, id))).await
    }

    async fn fetch_with_split(
        &self,
        wallet: Option<Wallet>,
        id: &ReceiptId,
    ) -> Result<Option<(Receipt, Option<StoredSplit>)>, StoreError> {
        self.run(|client| Box::pin(fetch_with_split(client, wallet, id)))
            .await
    }

    /// Read together with the stamps other requests want at the same time (see [`super::batcher`]), or
    /// alone when that batch failed.
    async fn fetch_stamp(&self, wallet: Wallet, id: &ReceiptId) -> Result<Option<ReceiptStamp>, StoreError> {
        self.availability.check()?;
        let batched = self.batches.stamps.submit((wallet, id.clone()));
        if let Some(stamp) = self.timing.time(BACKEND, "query", batched).await {
            return Ok(stamp);
        }
        self.run(|client| Box::pin(receipt_stamp::fetch(client, wallet, id)))
            .await
    }

    async fn list_page(
        &self,
        wallet: Wallet,
        limit: u32,
        after: Option<ReceiptKey>,
        filter: ReceiptFilter,
    ) -> Result<ReceiptPage, StoreError> {
        self.run(|client| Box::pin(list(client, wallet, limit, after, filter)))
            .await
    }

    async fn create(&self, sale: SaleTx<S>) -> Result<Committed<Sale>, TxError<SaleRefused<S>>> {
        self.timing.time(BACKEND, "sale", sale::create(self, sale)).await
    }

    async fn transition(
        &self,
        change: TransitionTx<T>,
    ) -> Result<Committed<Transitioned>, TxError<TransitionRefused<T>>> {
        self.timing
            .time(BACKEND, "transition", transition::apply(self, change))
            .await
    }
}
