//! The ledger's records over SQLite (`crate::ledger`): one keyset page of a UNION over transfers, settlements,
//! refunds and subscription charges, then what arrived before each transfer from its deposit's span.

use rusqlite::{Connection, named_params};

use crate::ledger::{
    LedgerQuery, LedgerRecord, LedgerRow, SpanTransfers, after_or_start, deposit_spans, fill_received_before,
    source_bounds,
};
use crate::sqlite::rows;

/// The page's records. Every branch carries the keyset bound itself, so each is read through its own rows
/// only and the sort keeps at most `:limit` rows (SQLite's top-N sorter): memory is a page's, whatever the
/// history. What arrived before each transfer is read per page from its deposit's span ([`SPAN`]).
const PAGE: &str = "SELECT at_ms, kind, row_id, reference, party, tx_hash, block_number, log_index, deposit, amount,
        total_cents, fee_units, split FROM (
    SELECT * FROM (
        SELECT t.recorded_at AS at_ms, 0 AS kind, t.id AS row_id, r.public_id AS reference, t.from_wallet AS party,
            t.transaction_hash AS tx_hash, t.block_number AS block_number, t.log_index AS log_index,
            t.to_wallet AS deposit, t.amount AS amount, r.total_cents AS total_cents, NULL AS fee_units,
            NULL AS split
        FROM chain_transfers t JOIN receipts r ON r.pay_to = t.to_wallet
        WHERE r.wallet = :merchant AND t.chain_id = :chain_id AND t.token = :token AND t.amount IS NOT NULL
          AND t.removed = 0
          AND t.recorded_at >= :from_ms AND t.recorded_at < :to_ms
          AND (t.recorded_at, t.id) > (:after_at, :after_row_0)
        ORDER BY t.recorded_at, t.id LIMIT :limit) AS source_0
    UNION ALL
    SELECT * FROM (
        SELECT h.at, 1, h.id, r.public_id, NULL, NULL, NULL, NULL, NULL,
            CAST((SELECT COALESCE(SUM(CAST(p.amount AS INTEGER)), 0) FROM chain_transfers p
                WHERE p.to_wallet = r.pay_to AND p.chain_id = :chain_id AND p.token = :token
                  AND p.amount IS NOT NULL AND p.removed = 0 AND p.recorded_at <= h.at) AS TEXT),
            NULL, NULL, r.pay_split
        FROM receipt_history h JOIN receipts r ON r.id = h.receipt_id
        WHERE r.wallet = :merchant AND h.to_status = 'completed' AND r.pay_to IS NOT NULL
          AND r.pay_split IS NOT NULL AND h.at >= :from_ms AND h.at < :to_ms
          AND (h.at, h.id) > (:after_at, :after_row_1)
        ORDER BY h.at, h.id LIMIT :limit) AS source_1
    UNION ALL
    SELECT * FROM (
        SELECT f.created_at, 2, f.id, r.public_id, f.buyer, f.tx_hash, f.block_number, NULL, NULL,
            CAST(f.usd_cents AS TEXT),
            NULL, NULL, NULL
        FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
        WHERE r.wallet = :merchant AND f.created_at >= :from_ms AND f.created_at < :to_ms
          AND (f.created_at, f.id) > (:after_at, :after_row_2)
        ORDER BY f.created_at, f.id LIMIT :limit) AS source_2
    UNION ALL
    SELECT * FROM (
        SELECT e.created_at, 3, e.id, s.public_id, s.customer, e.tx_hash, NULL, NULL, NULL, CAST(e.net_units AS TEXT),
            NULL, e.fee_units, NULL
        FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
        WHERE s.merchant = :merchant AND e.status = 'charged' AND e.created_at >= :from_ms AND e.created_at < :to_ms
          AND (e.created_at, e.id) > (:after_at, :after_row_3)
        ORDER BY e.created_at, e.id LIMIT :limit) AS source_3
)
ORDER BY at_ms, kind, row_id
LIMIT :limit";

/// What arrived at a deposit before a span (`:from_block`, `:from_log`) in chain order.
const BEFORE_SPAN: &str =
    "SELECT CAST(COALESCE(SUM(CAST(amount AS INTEGER)), 0) AS TEXT) FROM chain_transfers
    WHERE to_wallet = :deposit AND chain_id = :chain_id AND token = :token AND amount IS NOT NULL
      AND removed = 0
      AND (block_number, log_index) < (:from_block, :from_log)";
/// The deposit's transfers inside a span, in chain order.
const SPAN: &str = "SELECT block_number, log_index, amount FROM chain_transfers
    WHERE to_wallet = :deposit AND chain_id = :chain_id AND token = :token AND amount IS NOT NULL
      AND removed = 0
      AND (block_number, log_index) >= (:from_block, :from_log) AND (block_number, log_index) <= (:to_block, :to_log)";

pub(super) fn ledger_page(conn: &Connection, query: &LedgerQuery) -> rusqlite::Result<Vec<LedgerRecord>> {
    let after = after_or_start(query.after);
    let bounds = source_bounds(after);
    let chain_id = i64::try_from(query.chain_id).unwrap_or(i64::MAX);
    let token = query.token.to_string();
    let mut statement = conn.prepare_cached(PAGE)?;
    let mut page = statement
        .query_map(
            named_params! {
                ":merchant": query.merchant.to_string(),
                ":chain_id": chain_id,
                ":token": token,
                ":from_ms": query.from_ms,
                ":to_ms": query.to_ms,
                ":after_at": after.at_ms,
                ":after_row_0": bounds[0],
                ":after_row_1": bounds[1],
                ":after_row_2": bounds[2],
                ":after_row_3": bounds[3],
                ":limit": query.limit,
            },
            |row| {
                Ok(LedgerRow {
                    at_ms: row.get(0)?,
                    kind: row.get(1)?,
                    row_id: row.get(2)?,
                    reference: row.get(3)?,
                    party: row.get(4)?,
                    transaction_hash: row.get(5)?,
                    block_number: row.get(6)?,
                    log_index: row.get(7)?,
                    deposit: row.get(8)?,
                    amount: row.get(9)?,
                    total_cents: row.get(10)?,
                    before_units: None,
                    fee_units: row.get(11)?,
                    split: row.get(12)?,
                })
            },
        )?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut read = Vec::new();
    for span in deposit_spans(&page) {
        let bounds = named_params! {
            ":deposit": span.deposit,
            ":chain_id": chain_id,
            ":token": token,
            ":from_block": span.from.0,
            ":from_log": span.from.1,
        };
        let before: String = conn
            .prepare_cached(BEFORE_SPAN)?
            .query_row(bounds, |row| row.get(0))?;
        let transfers = conn
            .prepare_cached(SPAN)?
            .query_map(
                named_params! {
                    ":deposit": span.deposit,
                    ":chain_id": chain_id,
                    ":token": token,
                    ":from_block": span.from.0,
                    ":from_log": span.from.1,
                    ":to_block": span.to.0,
                    ":to_log": span.to.1,
                },
                |row| Ok(((row.get(0)?, row.get(1)?), row.get::<_, String>(2)?)),
            )?
            .map(|transfer| {
                transfer.and_then(|(place, amount)| {
                    amount
                        .parse::<u128>()
                        .map(|amount| (place, amount))
                        .map_err(|error| rows::corrupt(2, error))
                })
            })
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let before = before.parse::<u128>().map_err(|error| rows::corrupt(0, error))?;
        read.push((span, SpanTransfers { before, transfers }));
    }
    fill_received_before(&mut page, read);
    page.into_iter()
        .map(|row| row.into_record().map_err(|error| rows::corrupt(0, error)))
        .collect()
}
