//! Merchant webhook endpoints over SQLite: their rows, the fan-out of every merchant event into their
//! deliveries (in the transaction that records the event), their delivery log, redelivery and recovery.

use payments_core::{DISABLE_AFTER_FAILING_MS, Wallet};
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::endpoint_repository::{EndpointDelivery, FanoutTarget, fan_out};
use crate::rows::{DeliveryLogRow, DisabledRow, EndpointRow};
use crate::sqlite::rows;
use crate::{
    DeliveryQuery, EndpointChange, EndpointDeliveryLog, EndpointRefused, MerchantEvent, NewEndpoint,
    StoredEndpoint,
};
use payments_domain::webhook_endpoint::EndpointId;

const ENDPOINT_COLUMNS: &str = "id, public_id, wallet, url, events_json, description, enabled, failing_since,
    previous_secret_expires_at, created_at, updated_at";
const INSERT_ENDPOINT: &str =
    "INSERT INTO webhook_endpoints (public_id, wallet, url, events_json, description,
    enabled, secret, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)";
const COUNT_ENDPOINTS: &str = "SELECT COUNT(*) FROM webhook_endpoints WHERE wallet = ?1";
const UPDATE_ENDPOINT: &str = "UPDATE webhook_endpoints SET url = ?2, events_json = ?3, description = ?4,
    enabled = ?5, failing_since = CASE WHEN ?5 = 1 AND enabled = 0 THEN NULL ELSE failing_since END,
    updated_at = ?6 WHERE id = ?1";
const ROTATE: &str = "UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = ?2,
    secret = ?3, updated_at = ?4 WHERE id = ?1";
const DELETE_ATTEMPTS: &str = "DELETE FROM webhook_attempts WHERE delivery_id IN
    (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?1)";
const DELETE_DELIVERIES: &str = "DELETE FROM webhook_deliveries WHERE endpoint_id = ?1";
const DELETE_ENDPOINT: &str = "DELETE FROM webhook_endpoints WHERE id = ?1";
/// The merchant's enabled endpoints, which the fan-out filters by their patterns.
const FANOUT_TARGETS: &str =
    "SELECT id, url, events_json FROM webhook_endpoints WHERE wallet = ?1 AND enabled = 1 ORDER BY id";
const INSERT_DELIVERY: &str = "INSERT INTO webhook_deliveries (public_id, endpoint_id, event_id, url, event,
    body, state, next_attempt_at, created_at, updated_at, origin)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'pending', ?7, ?7, ?7, ?8)";
/// Newest first, before the cursor row, with the last attempt's answer.
const LIST_DELIVERIES: &str = "SELECT d.id, d.public_id, d.event_id, d.event, d.state, d.attempts,
    d.next_attempt_at, d.created_at,
    (SELECT a.status_code FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1),
    (SELECT a.error FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1)
    FROM webhook_deliveries d WHERE d.endpoint_id = ?1 AND (?2 IS NULL OR d.id < ?2)
    AND (?3 IS NULL OR d.state = ?3) AND (?4 IS NULL OR d.event = ?4) ORDER BY d.id DESC LIMIT ?5";
/// As the receipt outbox's redelivery: a new round now, or queued behind an attempt in flight.
const REDELIVER: &str = "UPDATE webhook_deliveries SET
    redeliver_queued = CASE WHEN leased_until > ?3 THEN 1 ELSE 0 END,
    state = CASE WHEN leased_until > ?3 THEN state ELSE 'pending' END,
    round_attempts = CASE WHEN leased_until > ?3 THEN round_attempts ELSE 0 END,
    next_attempt_at = CASE WHEN leased_until > ?3 THEN next_attempt_at ELSE ?3 END,
    updated_at = ?3 WHERE endpoint_id = ?1 AND public_id = ?2";
const RECOVER: &str = "UPDATE webhook_deliveries SET state = 'pending', round_attempts = 0,
    next_attempt_at = ?3, updated_at = ?3 WHERE endpoint_id = ?1 AND state = 'failed' AND created_at >= ?2";
/// After an endpoint delivery's attempt: a success ends its failing streak, a failure starts one.
const TRACK_FAILING: &str = "UPDATE webhook_endpoints SET
    failing_since = CASE WHEN ?2 = 1 THEN NULL ELSE COALESCE(failing_since, ?3) END
    WHERE id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = ?1)";
const DISABLE_FAILING: &str = "UPDATE webhook_endpoints SET enabled = 0, updated_at = ?2
    WHERE id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = ?1) AND enabled = 1
    AND failing_since <= ?3 RETURNING public_id, wallet, url, failing_since";

fn endpoint_from_row(row: &Row<'_>) -> rusqlite::Result<(i64, StoredEndpoint)> {
    EndpointRow {
        row_id: row.get(0)?,
        public_id: row.get(1)?,
        wallet: row.get(2)?,
        url: row.get(3)?,
        events_json: row.get(4)?,
        description: row.get(5)?,
        enabled: row.get(6)?,
        failing_since: row.get(7)?,
        previous_secret_expires_at: row.get(8)?,
        created_at: row.get(9)?,
        updated_at: row.get(10)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

/// The merchant's endpoint `id` with its row.
fn find(
    conn: &Connection,
    wallet: Wallet,
    id: &EndpointId,
) -> rusqlite::Result<Option<(i64, StoredEndpoint)>> {
    conn.prepare_cached(&format!(
        "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE wallet = ?1 AND public_id = ?2"
    ))?
    .query_row(params![wallet.to_string(), id.as_str()], endpoint_from_row)
    .optional()
}

pub(super) fn fetch(
    conn: &Connection,
    wallet: Wallet,
    id: &EndpointId,
) -> rusqlite::Result<Option<StoredEndpoint>> {
    Ok(find(conn, wallet, id)?.map(|(_, endpoint)| endpoint))
}

pub(super) fn list(conn: &Connection, wallet: Wallet) -> rusqlite::Result<Vec<StoredEndpoint>> {
    conn.prepare_cached(&format!(
        "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE wallet = ?1 ORDER BY id"
    ))?
    .query_map([wallet.to_string()], endpoint_from_row)?
    .map(|found| found.map(|(_, endpoint)| endpoint))
    .collect()
}

pub(super) fn create(
    tx: &Connection,
    new: &NewEndpoint,
    max_per_merchant: usize,
) -> rusqlite::Result<Result<StoredEndpoint, EndpointRefused>> {
    let count: i64 = tx
        .prepare_cached(COUNT_ENDPOINTS)?
        .query_row([new.wallet.to_string()], |row| row.get(0))?;
    if rows::non_negative(count) >= max_per_merchant {
        return Ok(Err(EndpointRefused::LimitReached));
    }
    tx.prepare_cached(INSERT_ENDPOINT)?.execute(params![
        new.id.as_str(),
        new.wallet.to_string(),
        new.url,
        rows::to_json(&new.events)?,
        new.description,
        new.enabled,
        new.sealed_secret,
        new.now_ms
    ])?;
    let created = fetch(tx, new.wallet, &new.id)?.ok_or(rusqlite::Error::QueryReturnedNoRows)?;
    Ok(Ok(created))
}

pub(super) fn update(
    tx: &Connection,
    wallet: Wallet,
    id: &EndpointId,
    change: &EndpointChange,
    now_ms: i64,
) -> rusqlite::Result<Option<StoredEndpoint>> {
    let Some((row, current)) = find(tx, wallet, id)? else {
        return Ok(None);
    };
    tx.prepare_cached(UPDATE_ENDPOINT)?.execute(params![
        row,
        change.url.as_ref().unwrap_or(&current.url),
        rows::to_json(change.events.as_ref().unwrap_or(&current.events))?,
        change.description.clone().unwrap_or(current.description),
        change.enabled.unwrap_or(current.enabled),
        now_ms
    ])?;
    fetch(tx, wallet, id)
}

pub(super) fn delete(tx: &Connection, wallet: Wallet, id: &EndpointId) -> rusqlite::Result<bool> {
    let Some((row, _)) = find(tx, wallet, id)? else {
        return Ok(false);
    };
    tx.prepare_cached(DELETE_ATTEMPTS)?.execute([row])?;
    tx.prepare_cached(DELETE_DELIVERIES)?.execute([row])?;
    tx.prepare_cached(DELETE_ENDPOINT)?.execute([row])?;
    Ok(true)
}

pub(super) fn rotate(
    tx: &Connection,
    wallet: Wallet,
    id: &EndpointId,
    sealed_secret: &[u8],
    previous_expires_at: i64,
    now_ms: i64,
) -> rusqlite::Result<Option<StoredEndpoint>> {
    let Some((row, _)) = find(tx, wallet, id)? else {
        return Ok(None);
    };
    tx.prepare_cached(ROTATE)?
        .execute(params![row, previous_expires_at, sealed_secret, now_ms])?;
    fetch(tx, wallet, id)
}

fn delivery_from_row(row: &Row<'_>) -> rusqlite::Result<EndpointDeliveryLog> {
    Ok(DeliveryLogRow {
        row_id: row.get(0)?,
        public_id: row.get(1)?,
        event_id: row.get(2)?,
        event: row.get(3)?,
        state: row.get(4)?,
        attempts: row.get(5)?,
        next_attempt_at: row.get(6)?,
        created_at: row.get(7)?,
        last_status_code: row.get(8)?,
        last_error: row.get(9)?,
    }
    .into_record())
}

pub(super) fn deliveries(
    conn: &Connection,
    wallet: Wallet,
    id: &EndpointId,
    query: &DeliveryQuery,
) -> rusqlite::Result<Option<Vec<EndpointDeliveryLog>>> {
    let Some((row, _)) = find(conn, wallet, id)? else {
        return Ok(None);
    };
    let found = conn
        .prepare_cached(LIST_DELIVERIES)?
        .query_map(
            params![row, query.before_row, query.state, query.event_type, query.limit],
            delivery_from_row,
        )?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(found))
}

pub(super) fn redeliver(
    tx: &Connection,
    wallet: Wallet,
    id: &EndpointId,
    delivery: &str,
    now_ms: i64,
) -> rusqlite::Result<bool> {
    let Some((row, _)) = find(tx, wallet, id)? else {
        return Ok(false);
    };
    Ok(tx
        .prepare_cached(REDELIVER)?
        .execute(params![row, delivery, now_ms])?
        == 1)
}

pub(super) fn recover(
    tx: &Connection,
    wallet: Wallet,
    id: &EndpointId,
    since_ms: i64,
    now_ms: i64,
) -> rusqlite::Result<Option<u64>> {
    let Some((row, _)) = find(tx, wallet, id)? else {
        return Ok(None);
    };
    let recovered = tx
        .prepare_cached(RECOVER)?
        .execute(params![row, since_ms, now_ms])?;
    Ok(Some(u64::try_from(recovered).unwrap_or(u64::MAX)))
}

fn insert(
    conn: &Connection,
    event: &MerchantEvent,
    deliveries: &[EndpointDelivery],
) -> rusqlite::Result<u64> {
    if deliveries.is_empty() {
        return Ok(0);
    }
    let body = event.body();
    let mut insert = conn.prepare_cached(INSERT_DELIVERY)?;
    for delivery in deliveries {
        insert.execute(params![
            delivery.id.as_str(),
            delivery.endpoint_row,
            event.id.as_str(),
            delivery.url,
            event.event_type,
            body,
            event.created_at_ms,
            delivery.origin
        ])?;
    }
    Ok(u64::try_from(deliveries.len()).unwrap_or(u64::MAX))
}

fn target_from_row(row: &Row<'_>) -> rusqlite::Result<FanoutTarget> {
    Ok(FanoutTarget {
        row_id: row.get(0)?,
        url: row.get(1)?,
        events_json: row.get(2)?,
    })
}

/// The one place every merchant event is recorded for endpoints: a delivery for each of the merchant's
/// enabled endpoints whose patterns match, in the caller's transaction.
pub(crate) fn record_event(conn: &Connection, event: &MerchantEvent) -> rusqlite::Result<u64> {
    let targets = conn
        .prepare_cached(FANOUT_TARGETS)?
        .query_map([event.merchant.to_string()], target_from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    insert(conn, event, &fan_out(event, targets))
}

/// [`record_event`], or to the one endpoint `only` whatever its patterns.
pub(super) fn send_event(
    tx: &Connection,
    event: &MerchantEvent,
    only: Option<&EndpointId>,
) -> rusqlite::Result<Option<u64>> {
    let Some(only) = only else {
        return record_event(tx, event).map(Some);
    };
    let Some((row, endpoint)) = find(tx, event.merchant, only)? else {
        return Ok(None);
    };
    let target = FanoutTarget {
        row_id: row,
        url: endpoint.url,
        events_json: "[\"*\"]".to_owned(),
    };
    insert(tx, event, &fan_out(event, vec![target])).map(Some)
}

/// After an attempt of delivery `delivery_row`: tracks its endpoint's failing streak and disables an endpoint
/// failing for [`DISABLE_AFTER_FAILING_MS`] or longer, telling the merchant's other endpoints. The disabled
/// endpoint's id, when one was.
pub(super) fn after_attempt(
    tx: &Connection,
    delivery_row: i64,
    delivered: bool,
    now_ms: i64,
) -> rusqlite::Result<Option<EndpointId>> {
    let disable_before_ms = now_ms.saturating_sub(DISABLE_AFTER_FAILING_MS);
    tx.prepare_cached(TRACK_FAILING)?
        .execute(params![delivery_row, delivered, now_ms])?;
    let disabled = tx
        .prepare_cached(DISABLE_FAILING)?
        .query_row(params![delivery_row, now_ms, disable_before_ms], |row| {
            Ok(DisabledRow {
                public_id: row.get(0)?,
                wallet: row.get(1)?,
                url: row.get(2)?,
                failing_since: row.get(3)?,
            })
        })
        .optional()?;
    let Some(disabled) = disabled else {
        return Ok(None);
    };
    let (id, event) = disabled
        .into_event(now_ms)
        .map_err(|error| rows::corrupt(1, error))?;
    record_event(tx, &event)?;
    Ok(Some(id))
}
