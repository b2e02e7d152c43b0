//! The ledger's records over SQLite (`crate::ledger`): one keyset page of a UNION over transfers, refunds,
//! settlements and subscription charges.

use rusqlite::{Connection, named_params};

use crate::ledger::{LedgerQuery, LedgerRecord, LedgerRow, after_or_start};
use crate::sqlite::rows;

/// A transfer's earlier transfers are those before it in chain order to the same deposit, of the same token.
const PAGE: &str = "SELECT at_ms, kind, row_id, reference, party, tx_hash, block_number, amount, total_cents,
        before_units, fee_units, split FROM (
    SELECT t.recorded_at AS at_ms, 0 AS kind, t.id AS row_id, r.public_id AS reference, t.from_wallet AS party,
        t.transaction_hash AS tx_hash, t.block_number AS block_number, t.amount AS amount,
        r.total_cents AS total_cents,
        CAST((SELECT COALESCE(SUM(CAST(p.amount AS INTEGER)), 0) FROM chain_transfers p
            WHERE p.to_wallet = t.to_wallet AND p.chain_id = t.chain_id AND p.token = t.token
              AND p.amount IS NOT NULL
              AND (p.block_number < t.block_number
                   OR (p.block_number = t.block_number AND p.log_index < t.log_index))) AS TEXT) AS before_units,
        NULL AS fee_units, NULL AS split
    FROM chain_transfers t JOIN receipts r ON r.pay_to = t.to_wallet
    WHERE r.wallet = :merchant AND t.chain_id = :chain_id AND t.token = :token AND t.amount IS NOT NULL
    UNION ALL
    SELECT f.created_at, 2, f.id, r.public_id, f.buyer, f.tx_hash, NULL, CAST(f.usd_cents AS TEXT), NULL, NULL,
        NULL, NULL
    FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
    WHERE r.wallet = :merchant
    UNION ALL
    SELECT h.at, 1, h.id, r.public_id, NULL, NULL, NULL,
        CAST((SELECT COALESCE(SUM(CAST(p.amount AS INTEGER)), 0) FROM chain_transfers p
            WHERE p.to_wallet = r.pay_to AND p.chain_id = :chain_id AND p.token = :token
              AND p.amount IS NOT NULL AND p.recorded_at <= h.at) AS TEXT),
        NULL, NULL, NULL, r.pay_split
    FROM receipt_history h JOIN receipts r ON r.id = h.receipt_id
    WHERE r.wallet = :merchant AND h.to_status = 'completed' AND r.pay_to IS NOT NULL
      AND r.pay_split IS NOT NULL
    UNION ALL
    SELECT e.created_at, 3, e.id, s.public_id, s.customer, e.tx_hash, NULL, CAST(e.net_units AS TEXT), NULL,
        NULL, e.fee_units, NULL
    FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
    WHERE s.merchant = :merchant AND e.status = 'charged'
)
WHERE at_ms >= :from_ms AND at_ms < :to_ms AND (at_ms, kind, row_id) > (:after_at, :after_kind, :after_row)
ORDER BY at_ms, kind, row_id
LIMIT :limit";

pub(super) fn ledger_page(conn: &Connection, query: &LedgerQuery) -> rusqlite::Result<Vec<LedgerRecord>> {
    let after = after_or_start(query.after);
    let mut statement = conn.prepare_cached(PAGE)?;
    let rows = statement.query_map(
        named_params! {
            ":merchant": query.merchant.to_string(),
            ":chain_id": i64::try_from(query.chain_id).unwrap_or(i64::MAX),
            ":token": query.token.to_string(),
            ":from_ms": query.from_ms,
            ":to_ms": query.to_ms,
            ":after_at": after.at_ms,
            ":after_kind": after.kind,
            ":after_row": after.row_id,
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
                amount: row.get(7)?,
                total_cents: row.get(8)?,
                before_units: row.get(9)?,
                fee_units: row.get(10)?,
                split: row.get(11)?,
            })
        },
    )?;
    rows.map(|row| row.and_then(|row| row.into_record().map_err(|error| rows::corrupt(0, error))))
        .collect()
}
