//! Receipt rows: insert, reads (always by merchant wallet, except the payment page's lookup by id), and
//! transitions committed with their history, outbox and refund rows.

use payments_core::{ReceiptStatus, Wallet};
use rusqlite::{Connection, OptionalExtension, Row, named_params, params};

use crate::rows::ReceiptRow;
use crate::sqlite::{endpoints, receipt_stock, refunds, rows, webhooks};
use crate::{CreateReceiptOutcome, OwnerRow, ReceiptFilter, ReceiptPage, TransitionCommit};
use payments_domain::page_cursor::ReceiptKey;
use payments_domain::receipt::{NewReceipt, Receipt, ReceiptId};

const FETCH_BY_ID: &str = "SELECT public_id, wallet, source, status, version, currency, subtotal_cents, tax_cents,
    fee_cents, total_cents, paid_cents, refunded_cents, line_items_json, brand_name, jurisdiction_code, tax_rate,
    tax_components_json, options_json, webhook_url, transaction_hash, transaction_timestamp, buyer_wallet,
    failure_json, created_at, updated_at, status_authority, pay_to, pay_split, id, expires_at, expired, paid_late,
    stock_short, onramp_provider, onramp_session_id, onramp_url, onramp_created_at, received_units FROM receipts
    WHERE public_id = ?1 AND (?2 IS NULL OR wallet = ?2)
    LIMIT 2";
/// Receipt ids are unique per merchant (schema v4's `UNIQUE (wallet, public_id)`, the table's only uniqueness
/// besides its row id): a taken id inserts nothing instead of failing, and another merchant's use of the same
/// id is no conflict. Positional parameters: binding 21 named ones looked each name up per insert.
const INSERT: &str =
    "INSERT INTO receipts (public_id, wallet, source, status, currency, subtotal_cents, tax_cents,
    fee_cents, total_cents, line_items_json, brand_name, jurisdiction_code, tax_rate, tax_components_json,
    options_json, webhook_url, signing_key, created_at, updated_at, pay_to, pay_split, expires_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?18, ?19, ?20, ?21)
    ON CONFLICT DO NOTHING";
/// Newest first; the rowid breaks ties between receipts created in the same millisecond. The rowid is read
/// last (column 28) for the page's cursor.
const LIST: &str = "SELECT public_id, wallet, source, status, version, currency, subtotal_cents, tax_cents,
    fee_cents, total_cents, paid_cents, refunded_cents, line_items_json, brand_name, jurisdiction_code, tax_rate,
    tax_components_json, options_json, webhook_url, transaction_hash, transaction_timestamp, buyer_wallet,
    failure_json, created_at, updated_at, status_authority, pay_to, pay_split, id, expires_at, expired, paid_late,
    stock_short, onramp_provider, onramp_session_id, onramp_url, onramp_created_at, received_units FROM receipts WHERE wallet = ?1
    AND (?3 IS NULL OR paid_late = ?3)
    ORDER BY created_at DESC, id DESC LIMIT ?2";
/// [`LIST`] after a cursor's `(created_at, id)`: a keyset page on the `(wallet, created_at, id)` index.
const LIST_AFTER: &str = "SELECT public_id, wallet, source, status, version, currency, subtotal_cents, tax_cents,
    fee_cents, total_cents, paid_cents, refunded_cents, line_items_json, brand_name, jurisdiction_code, tax_rate,
    tax_components_json, options_json, webhook_url, transaction_hash, transaction_timestamp, buyer_wallet,
    failure_json, created_at, updated_at, status_authority, pay_to, pay_split, id, expires_at, expired, paid_late,
    stock_short, onramp_provider, onramp_session_id, onramp_url, onramp_created_at, received_units FROM receipts WHERE wallet = ?1
    AND (created_at < ?3 OR (created_at = ?3 AND id < ?4)) AND (?5 IS NULL OR paid_late = ?5)
    ORDER BY created_at DESC, id DESC LIMIT ?2";
/// Where [`FETCH_BY_ID`], [`LIST`] and [`LIST_AFTER`] put the rowid, after the receipt's first columns (the
/// payment-window columns of v14 follow it).
const ROW_ID_COLUMN: usize = 28;
/// The version check makes a transition decided on a stale read a no-op (the service reloads and retries).
const APPLY_TRANSITION: &str = "UPDATE receipts SET status = :status, version = version + 1,
    paid_cents = :paid, refunded_cents = :refunded,
    transaction_hash = COALESCE(:transaction_hash, transaction_hash),
    transaction_timestamp = CASE WHEN :transaction_hash IS NULL THEN transaction_timestamp ELSE :now END,
    buyer_wallet = COALESCE(:buyer_wallet, buyer_wallet), failure_json = :failure, updated_at = :now,
    status_authority = :authority, expired = CASE WHEN :expires THEN 1 ELSE expired END,
    paid_late = :paid_late, received_units = :received
    WHERE public_id = :public_id AND wallet = :wallet AND version = :version
    RETURNING id";
const WINDOWS_ENDED: &str = "SELECT wallet, public_id FROM receipts
    WHERE paid_cents = 0 AND expired = 0 AND expires_at <= ?1 ORDER BY expires_at, id LIMIT ?2";
const INSERT_HISTORY: &str = "INSERT INTO receipt_history (receipt_id, from_status, to_status, actor, at)
    VALUES (?1, ?2, ?3, ?4, ?5)";
const HISTORY_ENTRY: &str = "SELECT h.from_status, h.to_status FROM receipt_history h
    JOIN receipts r ON r.id = h.receipt_id WHERE h.id = ?1 AND r.public_id = ?2";

fn receipt_from_row(row: &Row<'_>) -> rusqlite::Result<Receipt> {
    ReceiptRow {
        public_id: row.get(0)?,
        wallet: row.get(1)?,
        source: row.get(2)?,
        status: row.get(3)?,
        version: row.get(4)?,
        currency: row.get(5)?,
        subtotal_cents: row.get(6)?,
        tax_cents: row.get(7)?,
        fee_cents: row.get(8)?,
        total_cents: row.get(9)?,
        paid_cents: row.get(10)?,
        refunded_cents: row.get(11)?,
        line_items_json: row.get(12)?,
        brand_name: row.get(13)?,
        jurisdiction_code: row.get(14)?,
        tax_rate: row.get(15)?,
        tax_components_json: row.get(16)?,
        options_json: row.get(17)?,
        webhook_url: row.get(18)?,
        transaction_hash: row.get(19)?,
        transaction_timestamp: row.get(20)?,
        buyer_wallet: row.get(21)?,
        failure_json: row.get(22)?,
        created_at: row.get(23)?,
        updated_at: row.get(24)?,
        status_authority: row.get(25)?,
        pay_to: row.get(26)?,
        pay_split: row.get(27)?,
        expires_at: row.get(29)?,
        expired: row.get(30)?,
        paid_late: row.get(31)?,
        stock_short: row.get(32)?,
        onramp_provider: row.get(33)?,
        onramp_session_id: row.get(34)?,
        onramp_url: row.get(35)?,
        onramp_created_at: row.get(36)?,
        received_units: row.get(37)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

pub(super) fn insert(tx: &Connection, receipt: &NewReceipt) -> rusqlite::Result<CreateReceiptOutcome> {
    let params = params![
        receipt.id.as_str(),
        receipt.wallet.to_string(),
        receipt.source.as_str(),
        receipt.source.initial_status().as_str(),
        receipt.currency,
        receipt.amounts.subtotal.as_i64(),
        receipt.amounts.tax.as_i64(),
        receipt.amounts.fee.as_i64(),
        receipt.amounts.total.as_i64(),
        rows::to_json(&receipt.line_items)?,
        receipt.brand_name,
        receipt.tax.jurisdiction_code,
        receipt.tax.rate.to_string(),
        rows::to_json(&receipt.tax.components)?,
        rows::to_json(&receipt.options)?,
        receipt.webhook_url,
        receipt.sealed_signing_key,
        receipt.now_ms,
        receipt.payment.map(|target| target.to.to_string()),
        receipt.payment.map(|target| target.split.to_string()),
        receipt.expires_at,
    ];
    match tx.prepare_cached(INSERT)?.execute(params)? {
        0 => Ok(CreateReceiptOutcome::IdTaken),
        _ => Ok(CreateReceiptOutcome::Created),
    }
}

/// `wallet: None` is the payment page's lookup by id alone: it names a receipt only when exactly one
/// merchant has that id.
pub(super) fn fetch(
    conn: &Connection,
    wallet: Option<Wallet>,
    id: &ReceiptId,
) -> rusqlite::Result<Option<Receipt>> {
    Ok(fetch_with_row_id(conn, wallet, id)?.map(|(receipt, _)| receipt))
}

/// [`fetch`] with the receipt's rowid, which the read cache is invalidated by.
pub(super) fn fetch_with_row_id(
    conn: &Connection,
    wallet: Option<Wallet>,
    id: &ReceiptId,
) -> rusqlite::Result<Option<(Receipt, i64)>> {
    let mut statement = conn.prepare_cached(FETCH_BY_ID)?;
    let wallet = wallet.map(|wallet| wallet.to_string());
    let row = |row: &Row<'_>| Ok((receipt_from_row(row)?, row.get::<_, i64>(ROW_ID_COLUMN)?));
    let mut found: Vec<(Receipt, i64)> = statement
        .query_map(params![id.as_str(), wallet], row)?
        .collect::<Result<_, _>>()?;
    Ok(if found.len() == 1 { found.pop() } else { None })
}

/// One page (one row more is read to learn whether another page follows).
pub(super) fn list(
    conn: &Connection,
    wallet: Wallet,
    limit: u32,
    after: Option<ReceiptKey>,
    filter: ReceiptFilter,
) -> rusqlite::Result<ReceiptPage> {
    let wallet = wallet.to_string();
    let read_limit = i64::from(limit) + 1;
    let row = |row: &Row<'_>| Ok((receipt_from_row(row)?, row.get::<_, i64>(ROW_ID_COLUMN)?));
    let found: Vec<(Receipt, i64)> = match after {
        None => conn
            .prepare_cached(LIST)?
            .query_map(params![wallet, read_limit, filter.paid_late], row)?
            .collect::<rusqlite::Result<_>>()?,
        Some(key) => conn
            .prepare_cached(LIST_AFTER)?
            .query_map(
                params![wallet, read_limit, key.created_at, key.row_id, filter.paid_late],
                row,
            )?
            .collect::<rusqlite::Result<_>>()?,
    };
    Ok(ReceiptPage::of_rows(found, limit))
}

/// The history entry (row id) the transition wrote; `None` when the receipt moved on since it was read
/// (nothing written).
pub(super) fn commit_transition(tx: &Connection, commit: &TransitionCommit) -> rusqlite::Result<Option<i64>> {
    let failure = match &commit.failure {
        Some(failure) => Some(rows::to_json(failure)?),
        None => None,
    };
    let params = named_params! {
        ":status": commit.to.status.as_str(), ":paid": commit.to.paid.as_i64(),
        ":refunded": commit.to.refunded.as_i64(), ":transaction_hash": commit.transaction_hash,
        ":buyer_wallet": commit.buyer_wallet.map(|wallet| wallet.to_string()), ":failure": failure,
        ":now": commit.now_ms, ":public_id": commit.receipt_id.as_str(),
        ":wallet": commit.wallet.to_string(), ":version": commit.expected_version,
        ":authority": commit.to.held_by.as_str(), ":expires": commit.expires,
        ":paid_late": commit.paid_late, ":received": commit.received.to_string(),
    };
    let Some(rowid) = tx
        .prepare_cached(APPLY_TRANSITION)?
        .query_row(params, |row| row.get::<_, i64>(0))
        .optional()?
    else {
        return Ok(None);
    };
    tx.prepare_cached(INSERT_HISTORY)?.execute(params![
        rowid,
        commit.from.as_str(),
        commit.to.status.as_str(),
        commit.actor,
        commit.now_ms
    ])?;
    let entry = tx.last_insert_rowid();
    if let Some(delivery) = &commit.delivery {
        webhooks::insert_delivery(tx, OwnerRow::Receipt(rowid), delivery, commit.now_ms)?;
    }
    endpoints::record_event(tx, &commit.event)?;
    if commit.expires {
        receipt_stock::release(tx, rowid, commit.wallet, commit.now_ms)?;
    }
    if commit.retakes_stock {
        receipt_stock::retake(tx, rowid, commit.wallet, commit.now_ms)?;
    }
    if let Some(refund) = &commit.refund {
        refunds::insert(tx, rowid, refund, commit.now_ms)?;
    }
    if let Some(tx_hash) = &commit.confirms_refund {
        refunds::confirm(tx, rowid, tx_hash, commit.now_ms)?;
    }
    Ok(Some(entry))
}

/// The statuses history entry `entry` of receipt `id` moved between; `None` when there is no such entry.
pub(super) fn history_entry(
    conn: &Connection,
    entry: i64,
    id: &ReceiptId,
) -> rusqlite::Result<Option<(ReceiptStatus, ReceiptStatus)>> {
    let status = |row: &Row<'_>, index: usize| {
        row.get::<_, String>(index)?
            .parse::<ReceiptStatus>()
            .map_err(|error| rows::corrupt(index, error))
    };
    conn.prepare_cached(HISTORY_ENTRY)?
        .query_row(params![entry, id.as_str()], |row| {
            Ok((status(row, 0)?, status(row, 1)?))
        })
        .optional()
}

/// Unpaid, unexpired receipts whose window ended by `now_ms` (the partial index `receipts_window_open`).
pub(super) fn windows_ended(
    conn: &Connection,
    now_ms: i64,
    limit: u32,
) -> rusqlite::Result<Vec<(Wallet, ReceiptId)>> {
    conn.prepare_cached(WINDOWS_ENDED)?
        .query_map(params![now_ms, limit], |row| {
            Ok((
                rows::parsed(row, 0, Wallet::parse)?,
                ReceiptId::from_stored(row.get(1)?),
            ))
        })?
        .collect()
}
