//! The webhook outbox and [`OutboxRepository`]: claiming due deliveries, recording attempts, the delivery
//! log and redelivery.

use crate::postgres::connection::{PgClient, Queries};
use async_trait::async_trait;
use payments_core::Wallet;
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::{PgStore, endpoints, plan_deliveries, rows};
use crate::rows::{AttemptRow, DeliveryLogEntryRow, DueRow};
use crate::{
    AttemptLog, AttemptRecord, Claim, DeliveryLog, DeliveryNext, DueDelivery, NewDelivery, OutboxDepth,
    OutboxRepository, OwnerRow, StoreError,
};
use payments_domain::receipt::ReceiptId;
use payments_domain::recurring::{CustomerSubscriptionId, PlanId};
use payments_domain::webhook_endpoint::EndpointId;

/// The one insert of a new delivery, due at once, whichever row it belongs to.
const INSERT_DELIVERY: &str =
    "INSERT INTO webhook_deliveries (public_id, receipt_id, subscription_id, url, event,
    body, state, next_attempt_at, created_at, updated_at, origin)
    VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7, $7, $8)";

/// Leases due deliveries until `$2`. `SKIP LOCKED` lets two dispatchers (of two instances) claim at once
/// without waiting for or sharing rows; a row another claimer leased and committed meanwhile is re-checked
/// by the lock and no longer due. A process that dies mid-attempt leaves the delivery to be retried once
/// its lease runs out. Returned in due order (the order before the lease).
///
/// At most `$6` per endpoint, counting the attempts this dispatcher already has in flight there (`$4`
/// endpoints, `$5` counts), so one slow endpoint's backlog never fills a claim others are waiting for. The
/// ranking cannot lock rows (no `FOR UPDATE` with window functions), so the picked rows are locked after
/// and re-checked; `leased_until` marks them in flight.
///
/// A delivery belongs to a receipt (signed with its key) or to a subscription (signed with its plan's).
const CLAIM_DUE: &str = "WITH ranked AS (
        SELECT id, origin, next_attempt_at,
            row_number() OVER (PARTITION BY origin ORDER BY next_attempt_at, id) AS rank_in_endpoint
        FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= $1
        AND (endpoint_id IS NULL OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE enabled))),
    picked AS (
        SELECT k.id FROM ranked k
        LEFT JOIN unnest($4::text[], $5::bigint[]) AS busy(endpoint, used) ON busy.endpoint = k.origin
        WHERE k.rank_in_endpoint + COALESCE(busy.used, 0) <= $6
        ORDER BY k.next_attempt_at, k.id LIMIT $3),
    due AS (
        SELECT d.id, d.next_attempt_at FROM webhook_deliveries d JOIN picked p ON p.id = d.id
        WHERE d.state = 'pending' AND d.next_attempt_at <= $1
        FOR UPDATE OF d SKIP LOCKED),
    leased AS (
        UPDATE webhook_deliveries d SET next_attempt_at = $2, leased_until = $2 FROM due WHERE d.id = due.id
        RETURNING d.id, d.public_id, d.receipt_id, d.subscription_id, d.endpoint_id, d.event_id, d.url, d.event,
            d.body, d.attempts, d.round_attempts, d.origin, due.next_attempt_at AS due_at)
    SELECT l.id, l.public_id, r.public_id AS receipt_public_id, s.public_id AS subscription_public_id,
        p.public_id AS plan_public_id, e.public_id AS endpoint_public_id, l.event_id, l.url, l.event, l.body,
        COALESCE(r.signing_key, p.signing_key, e.secret) AS signing_key, e.previous_secret,
        e.previous_secret_expires_at, l.attempts, l.round_attempts, l.origin
    FROM leased l
    LEFT JOIN receipts r ON r.id = l.receipt_id
    LEFT JOIN customer_subscriptions s ON s.id = l.subscription_id
    LEFT JOIN subscription_plans p ON p.id = s.plan_id
    LEFT JOIN webhook_endpoints e ON e.id = l.endpoint_id
    ORDER BY l.due_at, l.id";
const INSERT_ATTEMPT: &str = "INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error,
    started_at, finished_at, duration_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)";
/// A redelivery asked for during the attempt (`redeliver_queued`) starts its new round now.
const AFTER_ATTEMPT: &str = "UPDATE webhook_deliveries SET
    state = CASE WHEN redeliver_queued = 1 THEN 'pending' ELSE $2::text END, attempts = attempts + 1,
    round_attempts = CASE WHEN redeliver_queued = 1 THEN 0 ELSE round_attempts + 1 END,
    next_attempt_at = CASE WHEN redeliver_queued = 1 THEN $4::bigint ELSE $3::bigint END,
    leased_until = NULL, redeliver_queued = 0, updated_at = $4 WHERE id = $1";
const RECEIPT_ROWID: &str = "SELECT id FROM receipts WHERE public_id = $1 AND wallet = $2";
/// Pending deliveries, and those leased (in flight) at `$1`.
const DEPTH: &str = "SELECT COUNT(*) AS pending, COUNT(*) FILTER (WHERE leased_until > $1) AS in_flight
    FROM webhook_deliveries WHERE state = 'pending'";
const LIST_DELIVERIES: &str = "SELECT id, public_id, event, url, state, next_attempt_at, created_at
    FROM webhook_deliveries WHERE receipt_id = $1 ORDER BY id";
const LIST_ATTEMPTS: &str = "SELECT attempt, status_code, error, started_at, finished_at, duration_ms
    FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id";
/// Redelivery starts a new round: the same body and delivery id, the full retry schedule again. While an
/// attempt is in flight (leased) it is queued instead, and the attempt's end starts the round.
/// The start of a redelivery's update; the caller names the delivery (`$1` its owner, `$2` its public id).
macro_rules! redeliver_round {
    () => {
        "UPDATE webhook_deliveries SET
    redeliver_queued = CASE WHEN leased_until > $3::bigint THEN 1 ELSE 0 END,
    state = CASE WHEN leased_until > $3::bigint THEN state ELSE 'pending' END,
    round_attempts = CASE WHEN leased_until > $3::bigint THEN round_attempts ELSE 0 END,
    next_attempt_at = CASE WHEN leased_until > $3::bigint THEN next_attempt_at ELSE $3::bigint END,
    updated_at = $3 WHERE "
    };
}
pub(super) use redeliver_round;
const REDELIVER: &str = concat!(redeliver_round!(), "receipt_id = $1 AND public_id = $2");

fn due_from_row(row: &Row) -> Result<DueDelivery, PgError> {
    DueRow {
        row_id: rows::get(row, "id")?,
        public_id: rows::get(row, "public_id")?,
        receipt_public_id: rows::get(row, "receipt_public_id")?,
        url: rows::get(row, "url")?,
        event: rows::get(row, "event")?,
        body: rows::get(row, "body")?,
        signing_key: rows::get(row, "signing_key")?,
        attempts: rows::get(row, "attempts")?,
        round_attempts: rows::get(row, "round_attempts")?,
        origin: rows::get(row, "origin")?,
        subscription_public_id: rows::get(row, "subscription_public_id")?,
        plan_public_id: rows::get(row, "plan_public_id")?,
        endpoint_public_id: rows::get(row, "endpoint_public_id")?,
        event_id: rows::get(row, "event_id")?,
        previous_secret: rows::get(row, "previous_secret")?,
        previous_secret_expires_at: rows::get(row, "previous_secret_expires_at")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a due delivery", error))
}

fn attempt_from_row(row: &Row) -> Result<AttemptLog, PgError> {
    AttemptRow {
        attempt: rows::get(row, "attempt")?,
        status_code: rows::get::<Option<i32>>(row, "status_code")?.map(i64::from),
        error: rows::get(row, "error")?,
        started_at: rows::get(row, "started_at")?,
        finished_at: rows::get(row, "finished_at")?,
        duration_ms: rows::get(row, "duration_ms")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a webhook attempt", error))
}

async fn claim_due(client: PgClient, claim: &Claim) -> Result<Vec<DueDelivery>, PgError> {
    let statement = client.prepare_cached(CLAIM_DUE).await?;
    let endpoints: Vec<&str> = claim.busy.iter().map(|(endpoint, _)| endpoint.as_str()).collect();
    let used: Vec<i64> = claim.busy.iter().map(|(_, used)| i64::from(*used)).collect();
    let found = client
        .query(
            &statement,
            &[
                &claim.now_ms,
                &claim.lease_until_ms,
                &i64::from(claim.limit),
                &endpoints,
                &used,
                &i64::from(claim.per_endpoint),
            ],
        )
        .await?;
    found.iter().map(due_from_row).collect()
}

async fn record_attempt(mut client: PgClient, record: &AttemptRecord) -> Result<Option<EndpointId>, PgError> {
    let tx = client.transaction().await?;
    let insert = tx.prepare_cached(INSERT_ATTEMPT).await?;
    tx.execute(
        &insert,
        &[
            &record.delivery_rowid,
            &record.attempt,
            &record.status_code.map(i32::from),
            &record.error,
            &record.started_at,
            &record.finished_at,
            &record.duration_ms,
        ],
    )
    .await?;
    let (state, next_attempt_at) = match record.next {
        DeliveryNext::Delivered => ("delivered", None),
        DeliveryNext::RetryAt(at) => ("pending", Some(at)),
        DeliveryNext::Failed => ("failed", None),
    };
    let after = tx.prepare_cached(AFTER_ATTEMPT).await?;
    tx.execute(
        &after,
        &[
            &record.delivery_rowid,
            &state,
            &next_attempt_at,
            &record.finished_at,
        ],
    )
    .await?;
    let disabled = endpoints::after_attempt(
        &tx,
        record.delivery_rowid,
        record.next == DeliveryNext::Delivered,
        record.finished_at,
    )
    .await?;
    tx.commit().await?;
    Ok(disabled)
}

async fn receipt_rowid(
    client: &impl Queries,
    wallet: Wallet,
    receipt_id: &ReceiptId,
) -> Result<Option<i64>, PgError> {
    let statement = client.prepare_cached(RECEIPT_ROWID).await?;
    let row = client
        .query_opt(&statement, &[&receipt_id.as_str(), &wallet.to_string()])
        .await?;
    row.map(|row| rows::get(&row, "id")).transpose()
}

/// `None` when the merchant has no such receipt.
async fn list(
    client: PgClient,
    wallet: Wallet,
    receipt_id: &ReceiptId,
) -> Result<Option<Vec<DeliveryLog>>, PgError> {
    let Some(rowid) = receipt_rowid(&client, wallet, receipt_id).await? else {
        return Ok(None);
    };
    let deliveries = client.prepare_cached(LIST_DELIVERIES).await?;
    let rows = client.query(&deliveries, &[&rowid]).await?;
    let rows = rows
        .iter()
        .map(|row| delivery_from_row(row, None))
        .collect::<Result<_, _>>()?;
    with_attempts(&client, rows).await.map(Some)
}

/// A delivery of the log (its row `id`, and `public_id`, `event`, `url`, `state`, `next_attempt_at`,
/// `created_at`) without its attempts yet.
pub(super) fn delivery_from_row(
    row: &Row,
    subscription_id: Option<CustomerSubscriptionId>,
) -> Result<(i64, DeliveryLog), PgError> {
    Ok(DeliveryLogEntryRow {
        row_id: rows::get(row, "id")?,
        public_id: rows::get(row, "public_id")?,
        event: rows::get(row, "event")?,
        url: rows::get(row, "url")?,
        state: rows::get(row, "state")?,
        next_attempt_at: rows::get(row, "next_attempt_at")?,
        created_at: rows::get(row, "created_at")?,
    }
    .into_record(subscription_id))
}

/// Each delivery with its attempts, oldest first.
pub(super) async fn with_attempts(
    client: &PgClient,
    deliveries: Vec<(i64, DeliveryLog)>,
) -> Result<Vec<DeliveryLog>, PgError> {
    let attempts = client.prepare_cached(LIST_ATTEMPTS).await?;
    let mut logs = Vec::with_capacity(deliveries.len());
    for (row_id, mut log) in deliveries {
        log.attempts = client
            .query(&attempts, &[&row_id])
            .await?
            .iter()
            .map(attempt_from_row)
            .collect::<Result<_, _>>()?;
        logs.push(log);
    }
    Ok(logs)
}

/// False when the merchant has no such receipt or the receipt no such delivery.
async fn redeliver(
    client: PgClient,
    wallet: Wallet,
    receipt_id: &ReceiptId,
    delivery_id: &str,
    now_ms: i64,
) -> Result<bool, PgError> {
    let Some(rowid) = receipt_rowid(&client, wallet, receipt_id).await? else {
        return Ok(false);
    };
    let statement = client.prepare_cached(REDELIVER).await?;
    let changed = client
        .execute(&statement, &[&rowid, &delivery_id, &now_ms])
        .await?;
    Ok(changed == 1)
}

async fn depth(client: PgClient, now_ms: i64) -> Result<OutboxDepth, PgError> {
    let statement = client.prepare_cached(DEPTH).await?;
    let row = client.query_one(&statement, &[&now_ms]).await?;
    Ok(OutboxDepth {
        pending: rows::non_negative(rows::get(&row, "pending")?),
        in_flight: rows::non_negative(rows::get(&row, "in_flight")?),
    })
}

#[async_trait]
impl OutboxRepository for PgStore {
    async fn claim_due(&self, claim: &Claim) -> Result<Vec<DueDelivery>, StoreError> {
        self.run(|client| Box::pin(claim_due(client, claim))).await
    }

    async fn record_attempt(&self, record: &AttemptRecord) -> Result<Option<EndpointId>, StoreError> {
        self.run(|client| Box::pin(record_attempt(client, record))).await
    }

    async fn list_deliveries(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError> {
        self.run(|client| Box::pin(list(client, wallet, receipt_id)))
            .await
    }

    async fn redeliver(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(redeliver(client, wallet, receipt_id, delivery_id, now_ms)))
            .await
    }

    async fn list_plan_deliveries(
        &self,
        merchant: Wallet,
        plan_id: &PlanId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError> {
        self.run(|client| Box::pin(plan_deliveries::list(client, merchant, plan_id)))
            .await
    }

    async fn redeliver_plan_delivery(
        &self,
        merchant: Wallet,
        plan_id: &PlanId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        self.run(|client| {
            Box::pin(plan_deliveries::redeliver(
                client,
                merchant,
                plan_id,
                delivery_id,
                now_ms,
            ))
        })
        .await
    }

    async fn depth(&self, now_ms: i64) -> Result<OutboxDepth, StoreError> {
        self.run(|client| Box::pin(depth(client, now_ms))).await
    }
}

/// Queues `delivery` for `owner`, due at once, in the caller's transaction.
pub(super) async fn insert_delivery(
    client: &impl Queries,
    owner: OwnerRow,
    delivery: &NewDelivery,
    now_ms: i64,
) -> Result<(), PgError> {
    let (receipt, subscription) = owner.columns();
    let statement = client.prepare_cached(INSERT_DELIVERY).await?;
    client
        .execute(
            &statement,
            &[
                &delivery.id.as_str(),
                &receipt,
                &subscription,
                &delivery.url,
                &delivery.event,
                &delivery.body,
                &now_ms,
                &delivery.endpoint,
            ],
        )
        .await?;
    Ok(())
}
