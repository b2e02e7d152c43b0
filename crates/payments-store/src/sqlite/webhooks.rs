//! The webhook outbox: claiming due deliveries, recording attempts, the delivery log and redelivery.

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::rows::{AttemptRow, DeliveryLogEntryRow, DueRow};
use crate::sqlite::{endpoints, rows};
use crate::{
    AttemptLog, AttemptRecord, Claim, DeliveryLog, DeliveryNext, DueDelivery, NewDelivery, OutboxDepth,
    OwnerRow,
};
use payments_domain::receipt::ReceiptId;
use payments_domain::recurring::CustomerSubscriptionId;
use payments_domain::webhook_endpoint::EndpointId;

/// Due deliveries in due order, at most `?4` per endpoint counting the `?3` JSON object of attempts already
/// in flight per endpoint, so one slow endpoint's backlog never fills a claim that others are waiting for.
/// A delivery belongs to a receipt (signed with its key) or to a subscription (signed with its plan's).
/// The one insert of a new delivery, due at once, whichever row it belongs to.
const INSERT_DELIVERY: &str =
    "INSERT INTO webhook_deliveries (public_id, receipt_id, subscription_id, url, event,
    body, state, next_attempt_at, created_at, updated_at, origin)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'pending', ?7, ?7, ?7, ?8)";
const SELECT_DUE: &str = "WITH busy(endpoint, used) AS (SELECT key, value FROM json_each(?3)),
    ranked AS (SELECT id, next_attempt_at, origin,
        ROW_NUMBER() OVER (PARTITION BY origin ORDER BY next_attempt_at, id) AS rank_in_endpoint
        FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ?1
        AND (endpoint_id IS NULL OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE enabled = 1)))
    SELECT d.id, d.public_id, r.public_id, d.url, d.event, d.body,
        COALESCE(r.signing_key, p.signing_key, e.secret),
        d.attempts, d.round_attempts, d.origin, s.public_id, p.public_id, e.public_id, d.event_id,
        e.previous_secret, e.previous_secret_expires_at
    FROM ranked k JOIN webhook_deliveries d ON d.id = k.id
    LEFT JOIN receipts r ON r.id = d.receipt_id
    LEFT JOIN customer_subscriptions s ON s.id = d.subscription_id
    LEFT JOIN subscription_plans p ON p.id = s.plan_id
    LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
    LEFT JOIN busy b ON b.endpoint = k.origin
    WHERE k.rank_in_endpoint + COALESCE(b.used, 0) <= ?4
    ORDER BY k.next_attempt_at, k.id LIMIT ?2";
/// A claimed delivery is leased until `?2`, so it is not claimed again while its attempt runs; a process that
/// dies mid-attempt leaves it to be retried once the lease runs out. `leased_until` marks it in flight.
const LEASE: &str = "UPDATE webhook_deliveries SET next_attempt_at = ?2, leased_until = ?2 WHERE id = ?1";
const INSERT_ATTEMPT: &str =
    "INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, started_at,
    finished_at, duration_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
/// A redelivery asked for during the attempt (`redeliver_queued`) starts its new round now.
const AFTER_ATTEMPT: &str = "UPDATE webhook_deliveries SET
    state = CASE WHEN redeliver_queued = 1 THEN 'pending' ELSE ?2 END, attempts = attempts + 1,
    round_attempts = CASE WHEN redeliver_queued = 1 THEN 0 ELSE round_attempts + 1 END,
    next_attempt_at = CASE WHEN redeliver_queued = 1 THEN ?4 ELSE ?3 END,
    leased_until = NULL, redeliver_queued = 0, updated_at = ?4 WHERE id = ?1";
const RECEIPT_ROWID: &str = "SELECT id FROM receipts WHERE public_id = ?1 AND wallet = ?2";
const LIST_DELIVERIES: &str = "SELECT id, public_id, event, url, state, next_attempt_at, created_at
    FROM webhook_deliveries WHERE receipt_id = ?1 ORDER BY id";
const LIST_ATTEMPTS: &str = "SELECT attempt, status_code, error, started_at, finished_at, duration_ms
    FROM webhook_attempts WHERE delivery_id = ?1 ORDER BY id";
/// Redelivery starts a new round: the same body and delivery id, the full retry schedule again. While an
/// attempt is in flight (leased) it is queued instead, and the attempt's end starts the round.
/// The start of a redelivery's update; the caller names the delivery (`?1` its owner, `?2` its public id).
macro_rules! redeliver_round {
    () => {
        "UPDATE webhook_deliveries SET
    redeliver_queued = CASE WHEN leased_until > ?3 THEN 1 ELSE 0 END,
    state = CASE WHEN leased_until > ?3 THEN state ELSE 'pending' END,
    round_attempts = CASE WHEN leased_until > ?3 THEN round_attempts ELSE 0 END,
    next_attempt_at = CASE WHEN leased_until > ?3 THEN next_attempt_at ELSE ?3 END,
    updated_at = ?3 WHERE "
    };
}
pub(super) use redeliver_round;
const REDELIVER: &str = concat!(redeliver_round!(), "receipt_id = ?1 AND public_id = ?2");

/// Pending deliveries, and those leased (in flight) at `?1`; served by the `(state, next_attempt_at)` index.
const DEPTH: &str = "SELECT COUNT(*), COALESCE(SUM(leased_until > ?1), 0) FROM webhook_deliveries
    WHERE state = 'pending'";

fn due_from_row(row: &Row<'_>) -> rusqlite::Result<DueDelivery> {
    DueRow {
        row_id: row.get(0)?,
        public_id: row.get(1)?,
        receipt_public_id: row.get(2)?,
        url: row.get(3)?,
        event: row.get(4)?,
        body: row.get(5)?,
        signing_key: row.get(6)?,
        attempts: row.get(7)?,
        round_attempts: row.get(8)?,
        origin: row.get(9)?,
        subscription_public_id: row.get(10)?,
        plan_public_id: row.get(11)?,
        endpoint_public_id: row.get(12)?,
        event_id: row.get(13)?,
        previous_secret: row.get(14)?,
        previous_secret_expires_at: row.get(15)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(2, error))
}

pub(super) fn claim_due(tx: &Connection, claim: &Claim) -> rusqlite::Result<Vec<DueDelivery>> {
    let busy: serde_json::Map<String, serde_json::Value> = claim
        .busy
        .iter()
        .map(|(endpoint, used)| (endpoint.clone(), serde_json::Value::from(*used)))
        .collect();
    let busy = serde_json::Value::Object(busy).to_string();
    let due: Vec<DueDelivery> = {
        let mut statement = tx.prepare_cached(SELECT_DUE)?;
        let rows = statement.query_map(
            params![claim.now_ms, claim.limit, busy, claim.per_endpoint],
            due_from_row,
        )?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for delivery in &due {
        tx.prepare_cached(LEASE)?
            .execute(params![delivery.rowid, claim.lease_until_ms])?;
    }
    Ok(due)
}

/// Records the attempt; for an endpoint's delivery also its failing streak, and the endpoint's id when the
/// streak disabled it.
pub(super) fn record_attempt(
    tx: &Connection,
    record: &AttemptRecord,
) -> rusqlite::Result<Option<EndpointId>> {
    tx.prepare_cached(INSERT_ATTEMPT)?.execute(params![
        record.delivery_rowid,
        record.attempt,
        record.status_code,
        record.error,
        record.started_at,
        record.finished_at,
        record.duration_ms
    ])?;
    let (state, next_attempt_at) = match record.next {
        DeliveryNext::Delivered => ("delivered", None),
        DeliveryNext::RetryAt(at) => ("pending", Some(at)),
        DeliveryNext::Failed => ("failed", None),
    };
    tx.prepare_cached(AFTER_ATTEMPT)?.execute(params![
        record.delivery_rowid,
        state,
        next_attempt_at,
        record.finished_at
    ])?;
    endpoints::after_attempt(
        tx,
        record.delivery_rowid,
        record.next == DeliveryNext::Delivered,
        record.finished_at,
    )
}

fn receipt_rowid(conn: &Connection, wallet: Wallet, receipt_id: &ReceiptId) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(RECEIPT_ROWID)?
        .query_row(params![receipt_id.as_str(), wallet.to_string()], |row| row.get(0))
        .optional()
}

fn attempt_from_row(row: &Row<'_>) -> rusqlite::Result<AttemptLog> {
    AttemptRow {
        attempt: row.get(0)?,
        status_code: row.get(1)?,
        error: row.get(2)?,
        started_at: row.get(3)?,
        finished_at: row.get(4)?,
        duration_ms: row.get(5)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(1, error))
}

/// `None` when the merchant has no such receipt.
pub(super) fn list(
    conn: &Connection,
    wallet: Wallet,
    receipt_id: &ReceiptId,
) -> rusqlite::Result<Option<Vec<DeliveryLog>>> {
    let Some(rowid) = receipt_rowid(conn, wallet, receipt_id)? else {
        return Ok(None);
    };
    let rows = conn
        .prepare_cached(LIST_DELIVERIES)?
        .query_map([rowid], |row| delivery_from_row(row, None))?
        .collect::<rusqlite::Result<_>>()?;
    with_attempts(conn, rows).map(Some)
}

/// A delivery of the log (its row id, and its columns `id, public_id, event, url, state, next_attempt_at,
/// created_at` in that order) without its attempts yet.
pub(super) fn delivery_from_row(
    row: &Row<'_>,
    subscription_id: Option<CustomerSubscriptionId>,
) -> rusqlite::Result<(i64, DeliveryLog)> {
    Ok(DeliveryLogEntryRow {
        row_id: row.get(0)?,
        public_id: row.get(1)?,
        event: row.get(2)?,
        url: row.get(3)?,
        state: row.get(4)?,
        next_attempt_at: row.get(5)?,
        created_at: row.get(6)?,
    }
    .into_record(subscription_id))
}

/// Each delivery with its attempts, oldest first.
pub(super) fn with_attempts(
    conn: &Connection,
    deliveries: Vec<(i64, DeliveryLog)>,
) -> rusqlite::Result<Vec<DeliveryLog>> {
    let mut attempts = conn.prepare_cached(LIST_ATTEMPTS)?;
    deliveries
        .into_iter()
        .map(|(row_id, mut log)| {
            log.attempts = attempts
                .query_map([row_id], attempt_from_row)?
                .collect::<rusqlite::Result<_>>()?;
            Ok(log)
        })
        .collect()
}

/// False when the merchant has no such receipt or the receipt no such delivery.
pub(super) fn redeliver(
    tx: &Connection,
    wallet: Wallet,
    receipt_id: &ReceiptId,
    delivery_id: &str,
    now_ms: i64,
) -> rusqlite::Result<bool> {
    let Some(rowid) = receipt_rowid(tx, wallet, receipt_id)? else {
        return Ok(false);
    };
    tx.prepare_cached(REDELIVER)?
        .execute(params![rowid, delivery_id, now_ms])
        .map(|changed| changed == 1)
}

pub(super) fn depth(conn: &Connection, now_ms: i64) -> rusqlite::Result<OutboxDepth> {
    conn.prepare_cached(DEPTH)?.query_row([now_ms], |row| {
        let (pending, in_flight): (i64, i64) = (row.get(0)?, row.get(1)?);
        Ok(OutboxDepth {
            pending: u64::try_from(pending).unwrap_or_default(),
            in_flight: u64::try_from(in_flight).unwrap_or_default(),
        })
    })
}

/// Queues `delivery` for `owner`, due at once, in the caller's transaction.
pub(super) fn insert_delivery(
    conn: &Connection,
    owner: OwnerRow,
    delivery: &NewDelivery,
    now_ms: i64,
) -> rusqlite::Result<()> {
    let (receipt, subscription) = owner.columns();
    conn.prepare_cached(INSERT_DELIVERY)?.execute(params![
        delivery.id.as_str(),
        receipt,
        subscription,
        delivery.url,
        delivery.event,
        delivery.body,
        now_ms,
        delivery.endpoint,
    ])?;
    Ok(())
}
