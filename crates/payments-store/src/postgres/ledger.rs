//! The ledger's records over PostgreSQL (`crate::ledger`): the same UNION and keyset as SQLite's.

use deadpool_postgres::Object;

use crate::ledger::{LedgerQuery, LedgerRecord, LedgerRow, after_or_start};
use crate::postgres::error::PgError;
use crate::postgres::rows;

/// A transfer's earlier transfers are those before it in chain order to the same deposit, of the same token.
const PAGE: &str = "SELECT at_ms, kind, row_id, reference, party, tx_hash, block_number, amount, total_cents,
        before_units, fee_units, split FROM (
    SELECT t.recorded_at AS at_ms, 0::BIGINT AS kind, t.id AS row_id, r.public_id AS reference,
        t.from_wallet AS party, t.transaction_hash AS tx_hash, t.block_number AS block_number,
        t.amount AS amount, r.total_cents AS total_cents,
        (SELECT COALESCE(SUM(p.amount::NUMERIC), 0) FROM chain_transfers p
            WHERE p.to_wallet = t.to_wallet AND p.chain_id = t.chain_id AND p.token = t.token
              AND p.amount IS NOT NULL
              AND (p.block_number, p.log_index) < (t.block_number, t.log_index))::TEXT AS before_units,
        NULL::BIGINT AS fee_units, NULL::TEXT AS split
    FROM chain_transfers t JOIN receipts r ON r.pay_to = t.to_wallet
    WHERE r.wallet = $1 AND t.chain_id = $2 AND t.token = $3 AND t.amount IS NOT NULL
    UNION ALL
    SELECT f.created_at, 2, f.id, r.public_id, f.buyer, f.tx_hash, NULL, f.usd_cents::TEXT, NULL, NULL, NULL,
        NULL
    FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
    WHERE r.wallet = $1
    UNION ALL
    SELECT h.at, 1, h.id, r.public_id, NULL, NULL, NULL,
        (SELECT COALESCE(SUM(p.amount::NUMERIC), 0) FROM chain_transfers p
            WHERE p.to_wallet = r.pay_to AND p.chain_id = $2 AND p.token = $3
              AND p.amount IS NOT NULL AND p.recorded_at <= h.at)::TEXT,
        NULL, NULL, NULL, r.pay_split
    FROM receipt_history h JOIN receipts r ON r.id = h.receipt_id
    WHERE r.wallet = $1 AND h.to_status = 'completed' AND r.pay_to IS NOT NULL AND r.pay_split IS NOT NULL
    UNION ALL
    SELECT e.created_at, 3, e.id, s.public_id, s.customer, e.tx_hash, NULL, e.net_units::TEXT, NULL, NULL,
        e.fee_units, NULL
    FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
    WHERE s.merchant = $1 AND e.status = 'charged'
) AS movements
WHERE at_ms >= $4 AND at_ms < $5 AND (at_ms, kind, row_id) > ($6, $7, $8)
ORDER BY at_ms, kind, row_id
LIMIT $9";

pub(super) async fn ledger_page(client: Object, query: &LedgerQuery) -> Result<Vec<LedgerRecord>, PgError> {
    let after = after_or_start(query.after);
    let statement = client.prepare_cached(PAGE).await?;
    let found = client
        .query(
            &statement,
            &[
                &query.merchant.to_string(),
                &i64::try_from(query.chain_id).unwrap_or(i64::MAX),
                &query.token.to_string(),
                &query.from_ms,
                &query.to_ms,
                &after.at_ms,
                &after.kind,
                &after.row_id,
                &i64::from(query.limit),
            ],
        )
        .await?;
    found
        .iter()
        .map(|row| {
            let row = LedgerRow {
                at_ms: rows::get(row, "at_ms")?,
                kind: rows::get(row, "kind")?,
                row_id: rows::get(row, "row_id")?,
                reference: rows::get(row, "reference")?,
                party: rows::get(row, "party")?,
                transaction_hash: rows::get(row, "tx_hash")?,
                block_number: rows::get(row, "block_number")?,
                amount: rows::get(row, "amount")?,
                total_cents: rows::get(row, "total_cents")?,
                before_units: rows::get(row, "before_units")?,
                fee_units: rows::get(row, "fee_units")?,
                split: rows::get(row, "split")?,
            };
            row.into_record()
                .map_err(|error| PgError::corrupt("ledger row", error))
        })
        .collect()
}
