//! The ledger's records over PostgreSQL (`crate::ledger`): the same keyset page and deposit spans as SQLite's.

use crate::postgres::connection::{PgClient, Queries as _};

use crate::ledger::{
    LedgerQuery, LedgerRecord, LedgerRow, SpanTransfers, after_or_start, deposit_spans, fill_received_before,
    source_bounds,
};
use crate::postgres::error::PgError;
use crate::postgres::rows;

/// The page's records: every branch carries the keyset bound itself, and `ORDER BY … LIMIT` keeps a page
/// (a bounded top-N sort). What arrived before each transfer is read from its deposit's span ([`SPAN`]).
const PAGE: &str = "SELECT at_ms, kind, row_id, reference, party, tx_hash, block_number, log_index, deposit, amount,
        total_cents, fee_units, split FROM (
    SELECT * FROM (
        SELECT t.recorded_at AS at_ms, 0::BIGINT AS kind, t.id AS row_id, r.public_id AS reference,
            t.from_wallet AS party, t.transaction_hash AS tx_hash, t.block_number AS block_number,
            t.log_index AS log_index, t.to_wallet AS deposit, t.amount AS amount, r.total_cents AS total_cents,
            NULL::BIGINT AS fee_units, NULL::TEXT AS split
        FROM chain_transfers t JOIN receipts r ON r.pay_to = t.to_wallet
        WHERE r.wallet = $1 AND t.chain_id = $2 AND t.token = $3 AND t.amount IS NOT NULL
          AND NOT t.removed
          AND t.recorded_at >= $4 AND t.recorded_at < $5 AND (t.recorded_at, t.id) > ($6, $7)
        ORDER BY t.recorded_at, t.id LIMIT $11) AS source_0
    UNION ALL
    SELECT * FROM (
        SELECT h.at, 1, h.id, r.public_id, NULL::TEXT, NULL::TEXT, NULL::BIGINT, NULL::BIGINT, NULL::TEXT,
            (SELECT COALESCE(SUM(p.amount::NUMERIC), 0) FROM chain_transfers p
                WHERE p.to_wallet = r.pay_to AND p.chain_id = $2 AND p.token = $3
                  AND p.amount IS NOT NULL AND NOT p.removed AND p.recorded_at <= h.at)::TEXT,
            NULL::BIGINT, NULL::BIGINT, r.pay_split
        FROM receipt_history h JOIN receipts r ON r.id = h.receipt_id
        WHERE r.wallet = $1 AND h.to_status = 'completed' AND r.pay_to IS NOT NULL AND r.pay_split IS NOT NULL
          AND h.at >= $4 AND h.at < $5 AND (h.at, h.id) > ($6, $8)
        ORDER BY h.at, h.id LIMIT $11) AS source_1
    UNION ALL
    SELECT * FROM (
        SELECT f.created_at, 2, f.id, r.public_id, f.buyer, f.tx_hash, f.block_number, NULL::BIGINT, NULL::TEXT,
            f.usd_cents::TEXT, NULL::BIGINT, NULL::BIGINT, NULL::TEXT
        FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
        WHERE r.wallet = $1 AND f.created_at >= $4 AND f.created_at < $5
          AND (f.created_at, f.id) > ($6, $9)
        ORDER BY f.created_at, f.id LIMIT $11) AS source_2
    UNION ALL
    SELECT * FROM (
        SELECT e.created_at, 3, e.id, s.public_id, s.customer, e.tx_hash, NULL::BIGINT, NULL::BIGINT, NULL::TEXT,
            e.net_units::TEXT, NULL::BIGINT, e.fee_units, NULL::TEXT
        FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
        WHERE s.merchant = $1 AND e.status = 'charged' AND e.created_at >= $4 AND e.created_at < $5
          AND (e.created_at, e.id) > ($6, $10)
        ORDER BY e.created_at, e.id LIMIT $11) AS source_3
) AS movements
ORDER BY at_ms, kind, row_id
LIMIT $11";

/// What arrived at a deposit before a span's first transfer, in chain order.
const BEFORE_SPAN: &str = "SELECT COALESCE(SUM(amount::NUMERIC), 0)::TEXT AS before FROM chain_transfers
    WHERE to_wallet = $1 AND chain_id = $2 AND token = $3 AND amount IS NOT NULL
      AND NOT removed
      AND (block_number, log_index) < ($4, $5)";
/// The deposit's transfers inside a span.
const SPAN: &str = "SELECT block_number, log_index, amount FROM chain_transfers
    WHERE to_wallet = $1 AND chain_id = $2 AND token = $3 AND amount IS NOT NULL
      AND NOT removed
      AND (block_number, log_index) >= ($4, $5) AND (block_number, log_index) <= ($6, $7)";

pub(super) async fn ledger_page(client: PgClient, query: &LedgerQuery) -> Result<Vec<LedgerRecord>, PgError> {
    let after = after_or_start(query.after);
    let bounds = source_bounds(after);
    let chain_id = i64::try_from(query.chain_id).unwrap_or(i64::MAX);
    let token = query.token.to_string();
    let statement = client.prepare_cached(PAGE).await?;
    let found = client
        .query(
            &statement,
            &[
                &query.merchant.to_string(),
                &chain_id,
                &token,
                &query.from_ms,
                &query.to_ms,
                &after.at_ms,
                &bounds[0],
                &bounds[1],
                &bounds[2],
                &bounds[3],
                &i64::from(query.limit),
            ],
        )
        .await?;
    let mut page = found
        .iter()
        .map(|row| {
            Ok(LedgerRow {
                at_ms: rows::get(row, "at_ms")?,
                kind: rows::get(row, "kind")?,
                row_id: rows::get(row, "row_id")?,
                reference: rows::get(row, "reference")?,
                party: rows::get(row, "party")?,
                transaction_hash: rows::get(row, "tx_hash")?,
                block_number: rows::get(row, "block_number")?,
                log_index: rows::get(row, "log_index")?,
                deposit: rows::get(row, "deposit")?,
                amount: rows::get(row, "amount")?,
                total_cents: rows::get(row, "total_cents")?,
                before_units: None,
                fee_units: rows::get(row, "fee_units")?,
                split: rows::get(row, "split")?,
            })
        })
        .collect::<Result<Vec<_>, PgError>>()?;
    let before_span = client.prepare_cached(BEFORE_SPAN).await?;
    let span_rows = client.prepare_cached(SPAN).await?;
    let mut read = Vec::new();
    for span in deposit_spans(&page) {
        let before = client
            .query_one(
                &before_span,
                &[&span.deposit, &chain_id, &token, &span.from.0, &span.from.1],
            )
            .await?;
        let before: u128 = rows::parsed(&before, "before", str::parse)?;
        let transfers = client
            .query(
                &span_rows,
                &[
                    &span.deposit,
                    &chain_id,
                    &token,
                    &span.from.0,
                    &span.from.1,
                    &span.to.0,
                    &span.to.1,
                ],
            )
            .await?
            .iter()
            .map(|row| {
                let place = (rows::get(row, "block_number")?, rows::get(row, "log_index")?);
                Ok((place, rows::parsed(row, "amount", str::parse::<u128>)?))
            })
            .collect::<Result<Vec<_>, PgError>>()?;
        read.push((span, SpanTransfers { before, transfers }));
    }
    fill_received_before(&mut page, read);
    page.into_iter()
        .map(|row| {
            row.into_record()
                .map_err(|error| PgError::corrupt("ledger row", error))
        })
        .collect()
}
