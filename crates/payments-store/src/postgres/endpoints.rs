//! Merchant webhook endpoints over PostgreSQL: their rows, the fan-out of every merchant event into their
//! deliveries (in the transaction that records the event), their delivery log, redelivery and recovery.

use crate::postgres::connection::{PgClient, Queries};
use payments_core::{DISABLE_AFTER_FAILING_MS, Wallet};
use tokio_postgres::Row;

use crate::endpoint_repository::{EndpointDelivery, FanoutTarget, fan_out};
use crate::postgres::error::PgError;
use crate::postgres::rows;
use crate::rows::{DeliveryLogRow, DisabledRow, EndpointRow};
use crate::{
    DeliveryQuery, EndpointChange, EndpointDeliveryLog, EndpointRefused, MerchantEvent, NewEndpoint,
    StoredEndpoint,
};
use payments_domain::webhook_endpoint::EndpointId;

const SELECT_ENDPOINT: &str = "SELECT id, public_id, wallet, url, events_json, description, enabled,
    failing_since, previous_secret_expires_at, created_at, updated_at FROM webhook_endpoints
    WHERE wallet = $1 AND public_id = $2";
const LIST_ENDPOINTS: &str = "SELECT id, public_id, wallet, url, events_json, description, enabled,
    failing_since, previous_secret_expires_at, created_at, updated_at FROM webhook_endpoints
    WHERE wallet = $1 ORDER BY id";
/// Serializes a merchant's creates, so two racing ones cannot both pass the count.
const LOCK_MERCHANT: &str = "SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints:' || $1))";
const COUNT_ENDPOINTS: &str = "SELECT COUNT(*) AS count FROM webhook_endpoints WHERE wallet = $1";
const INSERT_ENDPOINT: &str =
    "INSERT INTO webhook_endpoints (public_id, wallet, url, events_json, description,
    enabled, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)";
const UPDATE_ENDPOINT: &str = "UPDATE webhook_endpoints SET url = $2, events_json = $3, description = $4,
    enabled = $5, failing_since = CASE WHEN $5 AND NOT enabled THEN NULL ELSE failing_since END,
    updated_at = $6 WHERE id = $1";
const ROTATE: &str = "UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $2,
    secret = $3, updated_at = $4 WHERE id = $1";
const DELETE_ATTEMPTS: &str = "DELETE FROM webhook_attempts WHERE delivery_id IN
    (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1)";
const DELETE_DELIVERIES: &str = "DELETE FROM webhook_deliveries WHERE endpoint_id = $1";
const DELETE_ENDPOINT: &str = "DELETE FROM webhook_endpoints WHERE id = $1";
const FANOUT_TARGETS: &str =
    "SELECT id, url, events_json FROM webhook_endpoints WHERE wallet = $1 AND enabled ORDER BY id";
const INSERT_DELIVERY: &str = "INSERT INTO webhook_deliveries (public_id, endpoint_id, event_id, url, event,
    body, state, next_attempt_at, created_at, updated_at, origin)
    VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7, $7, $8)";
const LIST_DELIVERIES: &str = "SELECT d.id, d.public_id, d.event_id, d.event, d.state, d.attempts,
    d.next_attempt_at, d.created_at,
    (SELECT a.status_code FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1)
        AS last_status_code,
    (SELECT a.error FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1) AS last_error
    FROM webhook_deliveries d WHERE d.endpoint_id = $1 AND ($2::bigint IS NULL OR d.id < $2)
    AND ($3::text IS NULL OR d.state = $3) AND ($4::text IS NULL OR d.event = $4) ORDER BY d.id DESC LIMIT $5";
const REDELIVER: &str = "UPDATE webhook_deliveries SET
    redeliver_queued = CASE WHEN leased_until > $3::bigint THEN 1 ELSE 0 END,
    state = CASE WHEN leased_until > $3::bigint THEN state ELSE 'pending' END,
    round_attempts = CASE WHEN leased_until > $3::bigint THEN round_attempts ELSE 0 END,
    next_attempt_at = CASE WHEN leased_until > $3::bigint THEN next_attempt_at ELSE $3::bigint END,
    updated_at = $3 WHERE endpoint_id = $1 AND public_id = $2";
const RECOVER: &str = "UPDATE webhook_deliveries SET state = 'pending', round_attempts = 0,
    next_attempt_at = $3, updated_at = $3 WHERE endpoint_id = $1 AND state = 'failed' AND created_at >= $2";
const TRACK_FAILING: &str = "UPDATE webhook_endpoints SET
    failing_since = CASE WHEN $2 THEN NULL ELSE COALESCE(failing_since, $3) END
    WHERE id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = $1)";
const DISABLE_FAILING: &str = "UPDATE webhook_endpoints SET enabled = FALSE, updated_at = $2
    WHERE id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = $1) AND enabled
    AND failing_since <= $3 RETURNING public_id, wallet, url, failing_since";

fn endpoint_from_row(row: &Row) -> Result<(i64, StoredEndpoint), PgError> {
    EndpointRow {
        row_id: rows::get(row, "id")?,
        public_id: rows::get(row, "public_id")?,
        wallet: rows::get(row, "wallet")?,
        url: rows::get(row, "url")?,
        events_json: rows::get(row, "events_json")?,
        description: rows::get(row, "description")?,
        enabled: rows::get(row, "enabled")?,
        failing_since: rows::get(row, "failing_since")?,
        previous_secret_expires_at: rows::get(row, "previous_secret_expires_at")?,
        created_at: rows::get(row, "created_at")?,
        updated_at: rows::get(row, "updated_at")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a webhook endpoint", error))
}

async fn find(
    client: &impl Queries,
    wallet: Wallet,
    id: &EndpointId,
) -> Result<Option<(i64, StoredEndpoint)>, PgError> {
    let statement = client.prepare_cached(SELECT_ENDPOINT).await?;
    let row = client
        .query_opt(&statement, &[&wallet.to_string(), &id.as_str()])
        .await?;
    row.map(|row| endpoint_from_row(&row)).transpose()
}

pub(super) async fn fetch(
    client: PgClient,
    wallet: Wallet,
    id: &EndpointId,
) -> Result<Option<StoredEndpoint>, PgError> {
    Ok(find(&client, wallet, id).await?.map(|(_, endpoint)| endpoint))
}

pub(super) async fn list(client: PgClient, wallet: Wallet) -> Result<Vec<StoredEndpoint>, PgError> {
    let statement = client.prepare_cached(LIST_ENDPOINTS).await?;
    client
        .query(&statement, &[&wallet.to_string()])
        .await?
        .iter()
        .map(|row| endpoint_from_row(row).map(|(_, endpoint)| endpoint))
        .collect()
}

pub(super) async fn create(
    mut client: PgClient,
    new: &NewEndpoint,
    max_per_merchant: usize,
) -> Result<Result<StoredEndpoint, EndpointRefused>, PgError> {
    let tx = client.transaction().await?;
    let wallet = new.wallet.to_string();
    tx.execute(&tx.prepare_cached(LOCK_MERCHANT).await?, &[&wallet])
        .await?;
    let count: i64 = rows::get(
        &tx.query_one(&tx.prepare_cached(COUNT_ENDPOINTS).await?, &[&wallet])
            .await?,
        "count",
    )?;
    if usize::try_from(count).unwrap_or(usize::MAX) >= max_per_merchant {
        return Ok(Err(EndpointRefused::LimitReached));
    }
    let insert = tx.prepare_cached(INSERT_ENDPOINT).await?;
    tx.execute(
        &insert,
        &[
            &new.id.as_str(),
            &wallet,
            &new.url,
            &rows::to_json(&new.events)?,
            &new.description,
            &new.enabled,
            &new.sealed_secret,
            &new.now_ms,
        ],
    )
    .await?;
    let created = find(&tx, new.wallet, &new.id)
        .await?
        .map(|(_, endpoint)| endpoint)
        .ok_or_else(|| PgError::corrupt("webhook_endpoints", "the inserted endpoint was not found"))?;
    tx.commit().await?;
    Ok(Ok(created))
}

pub(super) async fn update(
    mut client: PgClient,
    wallet: Wallet,
    id: &EndpointId,
    change: &EndpointChange,
    now_ms: i64,
) -> Result<Option<StoredEndpoint>, PgError> {
    let tx = client.transaction().await?;
    let Some((row, current)) = find(&tx, wallet, id).await? else {
        return Ok(None);
    };
    let statement = tx.prepare_cached(UPDATE_ENDPOINT).await?;
    tx.execute(
        &statement,
        &[
            &row,
            change.url.as_ref().unwrap_or(&current.url),
            &rows::to_json(change.events.as_ref().unwrap_or(&current.events))?,
            &change.description.clone().unwrap_or(current.description),
            &change.enabled.unwrap_or(current.enabled),
            &now_ms,
        ],
    )
    .await?;
    let updated = find(&tx, wallet, id).await?.map(|(_, endpoint)| endpoint);
    tx.commit().await?;
    Ok(updated)
}

pub(super) async fn delete(mut client: PgClient, wallet: Wallet, id: &EndpointId) -> Result<bool, PgError> {
    let tx = client.transaction().await?;
    let Some((row, _)) = find(&tx, wallet, id).await? else {
        return Ok(false);
    };
    for sql in [DELETE_ATTEMPTS, DELETE_DELIVERIES, DELETE_ENDPOINT] {
        tx.execute(&tx.prepare_cached(sql).await?, &[&row]).await?;
    }
    tx.commit().await?;
    Ok(true)
}

pub(super) async fn rotate(
    mut client: PgClient,
    wallet: Wallet,
    id: &EndpointId,
    sealed_secret: &[u8],
    previous_expires_at: i64,
    now_ms: i64,
) -> Result<Option<StoredEndpoint>, PgError> {
    let tx = client.transaction().await?;
    let Some((row, _)) = find(&tx, wallet, id).await? else {
        return Ok(None);
    };
    let statement = tx.prepare_cached(ROTATE).await?;
    tx.execute(&statement, &[&row, &previous_expires_at, &sealed_secret, &now_ms])
        .await?;
    let rotated = find(&tx, wallet, id).await?.map(|(_, endpoint)| endpoint);
    tx.commit().await?;
    Ok(rotated)
}

fn delivery_from_row(row: &Row) -> Result<EndpointDeliveryLog, PgError> {
    Ok(DeliveryLogRow {
        row_id: rows::get(row, "id")?,
        public_id: rows::get(row, "public_id")?,
        event_id: rows::get(row, "event_id")?,
        event: rows::get(row, "event")?,
        state: rows::get(row, "state")?,
        attempts: rows::get(row, "attempts")?,
        next_attempt_at: rows::get(row, "next_attempt_at")?,
        created_at: rows::get(row, "created_at")?,
        last_status_code: rows::get::<Option<i32>>(row, "last_status_code")?.map(i64::from),
        last_error: rows::get(row, "last_error")?,
    }
    .into_record())
}

pub(super) async fn deliveries(
    client: PgClient,
    wallet: Wallet,
    id: &EndpointId,
    query: &DeliveryQuery,
) -> Result<Option<Vec<EndpointDeliveryLog>>, PgError> {
    let Some((row, _)) = find(&client, wallet, id).await? else {
        return Ok(None);
    };
    let statement = client.prepare_cached(LIST_DELIVERIES).await?;
    let found = client
        .query(
            &statement,
            &[
                &row,
                &query.before_row,
                &query.state,
                &query.event_type,
                &i64::from(query.limit),
            ],
        )
        .await?;
    found
        .iter()
        .map(delivery_from_row)
        .collect::<Result<_, _>>()
        .map(Some)
}

pub(super) async fn redeliver(
    client: PgClient,
    wallet: Wallet,
    id: &EndpointId,
    delivery: &str,
    now_ms: i64,
) -> Result<bool, PgError> {
    let Some((row, _)) = find(&client, wallet, id).await? else {
        return Ok(false);
    };
    let statement = client.prepare_cached(REDELIVER).await?;
    Ok(client.execute(&statement, &[&row, &delivery, &now_ms]).await? == 1)
}

pub(super) async fn recover(
    client: PgClient,
    wallet: Wallet,
    id: &EndpointId,
    since_ms: i64,
    now_ms: i64,
) -> Result<Option<u64>, PgError> {
    let Some((row, _)) = find(&client, wallet, id).await? else {
        return Ok(None);
    };
    let statement = client.prepare_cached(RECOVER).await?;
    Ok(Some(
        client.execute(&statement, &[&row, &since_ms, &now_ms]).await?,
    ))
}

async fn insert(
    client: &impl Queries,
    event: &MerchantEvent,
    deliveries: &[EndpointDelivery],
) -> Result<u64, PgError> {
    if deliveries.is_empty() {
        return Ok(0);
    }
    let body = event.body();
    let statement = client.prepare_cached(INSERT_DELIVERY).await?;
    for delivery in deliveries {
        client
            .execute(
                &statement,
                &[
                    &delivery.id.as_str(),
                    &delivery.endpoint_row,
                    &event.id.as_str(),
                    &delivery.url,
                    &event.event_type,
                    &body,
                    &event.created_at_ms,
                    &delivery.origin,
                ],
            )
            .await?;
    }
    Ok(u64::try_from(deliveries.len()).unwrap_or(u64::MAX))
}

fn target_from_row(row: &Row) -> Result<FanoutTarget, PgError> {
    Ok(FanoutTarget {
        row_id: rows::get(row, "id")?,
        url: rows::get(row, "url")?,
        events_json: rows::get(row, "events_json")?,
    })
}

/// The one place every merchant event is recorded for endpoints: a delivery for each of the merchant's
/// enabled endpoints whose patterns match, in the caller's transaction.
pub(crate) async fn record_event(client: &impl Queries, event: &MerchantEvent) -> Result<u64, PgError> {
    let statement = client.prepare_cached(FANOUT_TARGETS).await?;
    let targets = client
        .query(&statement, &[&event.merchant.to_string()])
        .await?
        .iter()
        .map(target_from_row)
        .collect::<Result<Vec<_>, _>>()?;
    insert(client, event, &fan_out(event, targets)).await
}

/// [`record_event`], or to the one endpoint `only` whatever its patterns.
pub(super) async fn send_event(
    mut client: PgClient,
    event: &MerchantEvent,
    only: Option<&EndpointId>,
) -> Result<Option<u64>, PgError> {
    let tx = client.transaction().await?;
    let sent = match only {
        None => Some(record_event(&tx, event).await?),
        Some(only) => match find(&tx, event.merchant, only).await? {
            None => None,
            Some((row, endpoint)) => {
                let target = FanoutTarget {
                    row_id: row,
                    url: endpoint.url,
                    events_json: "[\"*\"]".to_owned(),
                };
                Some(insert(&tx, event, &fan_out(event, vec![target])).await?)
            }
        },
    };
    tx.commit().await?;
    Ok(sent)
}

/// After an attempt of delivery `delivery_row`: tracks its endpoint's failing streak and disables an endpoint
/// failing for [`DISABLE_AFTER_FAILING_MS`] or longer, telling the merchant's other endpoints. The disabled
/// endpoint's id, when one was.
pub(super) async fn after_attempt(
    tx: &impl Queries,
    delivery_row: i64,
    delivered: bool,
    now_ms: i64,
) -> Result<Option<EndpointId>, PgError> {
    let track = tx.prepare_cached(TRACK_FAILING).await?;
    tx.execute(&track, &[&delivery_row, &delivered, &now_ms]).await?;
    let disable = tx.prepare_cached(DISABLE_FAILING).await?;
    let disable_before_ms = now_ms.saturating_sub(DISABLE_AFTER_FAILING_MS);
    let Some(row) = tx
        .query_opt(&disable, &[&delivery_row, &now_ms, &disable_before_ms])
        .await?
    else {
        return Ok(None);
    };
    let (id, event) = DisabledRow {
        public_id: rows::get(&row, "public_id")?,
        wallet: rows::get(&row, "wallet")?,
        url: rows::get(&row, "url")?,
        failing_since: rows::get(&row, "failing_since")?,
    }
    .into_event(now_ms)
    .map_err(|error| PgError::corrupt("a disabled webhook endpoint", error))?;
    record_event(tx, &event).await?;
    Ok(Some(id))
}
