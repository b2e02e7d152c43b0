//! Plan changes over PostgreSQL, as over SQLite (`sqlite/recurring_changes.rs`): recorded `pending` under a
//! lease before the chain transaction, then applied or failed in one transaction each. The subscription's
//! row is locked first, so a batch claim (`FOR UPDATE SKIP LOCKED`) and a change never interleave; the
//! partial UNIQUE index keeps one pending change per subscription even between two instances.

use payments_core::SpendPermissionData;
use tokio_postgres::Row;

use crate::postgres::connection::{PgClient, Queries};
use crate::postgres::error::PgError;
use crate::postgres::idempotency::{self, Claimed};
use crate::postgres::{recurring, rows, subscription_hooks};
use crate::rows::{ChangeRow, PendingRow, proration_columns, units_column};
use crate::{IdempotencyClaim, Resource};
use payments_domain::recurring::{
    ChangeRefusal, ChangedSubscription, SubscriptionChange, SubscriptionChangeId,
};

const LOCK_SUBSCRIPTION: &str =
    "SELECT id, status FROM customer_subscriptions WHERE public_id = $1 FOR UPDATE";
const ACTIVE_PLAN: &str = "SELECT id FROM subscription_plans WHERE public_id = $1 AND active FOR SHARE";
/// A change or a charge of the subscription in flight (a pending charge row, leased or left by a crash).
const BUSY: &str = "SELECT EXISTS (SELECT 1 FROM subscription_changes WHERE subscription_id = $1
        AND state = 'pending')
    OR EXISTS (SELECT 1 FROM subscription_charges WHERE subscription_id = $1 AND state = 'pending')
    AS busy";
const HASH_USED: &str =
    "SELECT EXISTS (SELECT 1 FROM customer_subscriptions WHERE permission_hash = $1) AS used";
const INSERT_CHANGE: &str = "INSERT INTO subscription_changes (public_id, subscription_id, plan_id,
    price_cents, permission_json, signature, permission_hash, period_index, proration, proration_units,
    fee_units, net_units, state, lease_until, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending', $13, $14, $14)";
/// A pending change with what its subscription holds now (its plan, price and permission are the old
/// ones until the change is applied).
macro_rules! pending_change {
    () => {
        "SELECT c.public_id AS change_id, s.public_id AS subscription_id, s.merchant,
        op.public_id AS previous_plan_id, s.price_cents AS previous_price_cents,
        s.permission_json AS old_permission_json, np.public_id AS plan_id, c.price_cents, c.permission_json,
        c.signature, c.permission_hash, c.period_index, c.proration, c.proration_units, c.fee_units,
        c.net_units, c.created_at, s.id AS subscription_row, np.id AS plan_row, s.credit_units
        FROM subscription_changes c JOIN customer_subscriptions s ON s.id = c.subscription_id
        JOIN subscription_plans op ON op.id = s.plan_id JOIN subscription_plans np ON np.id = c.plan_id
        WHERE c.state = 'pending'"
    };
}
const PENDING_BY_ID: &str = concat!(pending_change!(), " AND c.public_id = $1 FOR UPDATE OF c, s");
const STALE: &str = concat!(
    pending_change!(),
    " AND c.lease_until <= $1 ORDER BY c.id LIMIT $2"
);
const SWITCH: &str = "UPDATE customer_subscriptions SET plan_id = $2, price_cents = $3,
    permission_json = $4, signature = $5, permission_hash = $6, credit_units = credit_units + $7,
    updated_at = $8 WHERE id = $1";
/// Applied, with what the change replaced: the record answers a replay whose answer was lost.
const APPLIED: &str = "UPDATE subscription_changes SET state = 'applied', tx_hash = $2, lease_until = NULL,
    updated_at = $3, previous_plan_id = (SELECT id FROM subscription_plans WHERE public_id = $4),
    previous_price_cents = $5, previous_permission_json = $6, credit_before_units = $7
    WHERE public_id = $1 AND state = 'pending'";
/// An applied change with what it replaced, under [`change_from_row`]'s names, and its transaction hash.
const APPLIED_BY_ID: &str = "SELECT c.public_id AS change_id, s.public_id AS subscription_id, s.merchant,
    op.public_id AS previous_plan_id, c.previous_price_cents, c.previous_permission_json AS old_permission_json,
    np.public_id AS plan_id, c.price_cents, c.permission_json, c.signature, c.permission_hash, c.period_index,
    c.proration, c.proration_units, c.fee_units, c.net_units, c.created_at, s.id AS subscription_row,
    np.id AS plan_row, c.credit_before_units AS credit_units, c.tx_hash
    FROM subscription_changes c JOIN customer_subscriptions s ON s.id = c.subscription_id
    JOIN subscription_plans op ON op.id = c.previous_plan_id JOIN subscription_plans np ON np.id = c.plan_id
    WHERE c.public_id = $1 AND c.state = 'applied'";
const FAILED: &str = "UPDATE subscription_changes SET state = 'failed', failure = $2, lease_until = NULL,
    updated_at = $3 WHERE public_id = $1 AND state = 'pending'";
const INSERT_EVENT: &str = "INSERT INTO billing_events (subscription_id, period_index, status, gross_cents,
    fee_cents, net_cents, tx_hash, failure, created_at, fee_units, net_units)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

fn change_from_row(row: &Row) -> Result<PendingRow, PgError> {
    ChangeRow {
        change_id: rows::get(row, "change_id")?,
        subscription_id: rows::get(row, "subscription_id")?,
        merchant: rows::get(row, "merchant")?,
        previous_plan_id: rows::get(row, "previous_plan_id")?,
        previous_price_cents: rows::get(row, "previous_price_cents")?,
        old_permission_json: rows::get(row, "old_permission_json")?,
        plan_id: rows::get(row, "plan_id")?,
        price_cents: rows::get(row, "price_cents")?,
        permission_json: rows::get(row, "permission_json")?,
        signature: rows::get(row, "signature")?,
        permission_hash: rows::get(row, "permission_hash")?,
        period_index: rows::get(row, "period_index")?,
        proration: rows::get(row, "proration")?,
        proration_units: rows::get(row, "proration_units")?,
        fee_units: rows::get(row, "fee_units")?,
        net_units: rows::get(row, "net_units")?,
        created_at: rows::get(row, "created_at")?,
        subscription_row: rows::get(row, "subscription_row")?,
        plan_row: rows::get(row, "plan_row")?,
        credit_units: rows::get(row, "credit_units")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a pending plan change", error))
}

pub(super) async fn begin(
    mut client: PgClient,
    change: &SubscriptionChange,
    lease_until: i64,
) -> Result<Result<(), ChangeRefusal>, PgError> {
    let tx = client.transaction().await?;
    let lock = tx.prepare_cached(LOCK_SUBSCRIPTION).await?;
    let subscription = tx.query_opt(&lock, &[&change.subscription_id.as_str()]).await?;
    let Some(subscription) = subscription else {
        return Ok(Err(ChangeRefusal::Canceled));
    };
    if rows::get::<String>(&subscription, "status")? == "canceled" {
        return Ok(Err(ChangeRefusal::Canceled));
    }
    let row_id: i64 = rows::get(&subscription, "id")?;
    let plan = tx.prepare_cached(ACTIVE_PLAN).await?;
    let Some(plan) = tx.query_opt(&plan, &[&change.plan_id.as_str()]).await? else {
        return Ok(Err(ChangeRefusal::PlanUnavailable));
    };
    let plan_row: i64 = rows::get(&plan, "id")?;
    let busy = tx.prepare_cached(BUSY).await?;
    if rows::get::<bool>(&tx.query_one(&busy, &[&row_id]).await?, "busy")? {
        return Ok(Err(ChangeRefusal::Busy));
    }
    let used = tx.prepare_cached(HASH_USED).await?;
    if rows::get::<bool>(&tx.query_one(&used, &[&change.permission_hash]).await?, "used")? {
        return Ok(Err(ChangeRefusal::PermissionReused));
    }
    let (proration, proration_units) = proration_columns(change.proration);
    let insert = tx.prepare_cached(INSERT_CHANGE).await?;
    tx.execute(
        &insert,
        &[
            &change.id.as_str(),
            &row_id,
            &plan_row,
            &change.price.as_i64(),
            &rows::to_json(&SpendPermissionData::from(&change.permission))?,
            &change.signature,
            &change.permission_hash,
            &i64::try_from(change.period_index).unwrap_or(i64::MAX),
            &proration,
            &proration_units,
            &units_column(change.fee),
            &units_column(change.net),
            &lease_until,
            &change.created_at,
        ],
    )
    .await?;
    tx.commit().await?;
    Ok(Ok(()))
}

/// Applies the pending change `id` and keeps `response` under its claim (unless the key answered another
/// request already: the change happened on chain, so it is applied whatever the key says); `None` when the
/// change is not pending (finished by another run).
pub(super) async fn apply(
    mut client: PgClient,
    id: &SubscriptionChangeId,
    transaction_hash: Option<String>,
    now_ms: i64,
    claim: Option<&IdempotencyClaim>,
) -> Result<Option<ChangedSubscription>, PgError> {
    let tx = client.transaction().await?;
    let pending = tx.prepare_cached(PENDING_BY_ID).await?;
    let Some(row) = tx.query_opt(&pending, &[&id.as_str()]).await? else {
        return Ok(None);
    };
    let PendingRow(change, row_id, plan_row, credit_before) = change_from_row(&row)?;
    let switch = tx.prepare_cached(SWITCH).await?;
    tx.execute(
        &switch,
        &[
            &row_id,
            &plan_row,
            &change.price.as_i64(),
            &rows::to_json(&SpendPermissionData::from(&change.permission))?,
            &change.signature,
            &change.permission_hash,
            &units_column(change.credit()),
            &now_ms,
        ],
    )
    .await?;
    let applied = tx.prepare_cached(APPLIED).await?;
    tx.execute(
        &applied,
        &[
            &id.as_str(),
            &transaction_hash,
            &now_ms,
            &change.previous_plan_id.as_str(),
            &change.previous_price.as_i64(),
            &rows::to_json(&SpendPermissionData::from(&change.old_permission))?,
            &units_column(credit_before),
        ],
    )
    .await?;
    if let Some(event) = change.prorated_charge_event(transaction_hash.clone(), now_ms) {
        let insert = tx.prepare_cached(INSERT_EVENT).await?;
        tx.execute(
            &insert,
            &[
                &row_id,
                &i64::try_from(event.period_index).unwrap_or(i64::MAX),
                &event.status.as_str(),
                &event.gross_usd.as_i64(),
                &event.fee_usd.as_i64(),
                &event.net_usd.as_i64(),
                &event.transaction_hash,
                &event.failure,
                &event.created_at,
                &units_column(event.fee_base_units),
                &units_column(event.net_base_units),
            ],
        )
        .await?;
    }
    // Read after the switch: the webhook names the new plan and goes to its target.
    let facts = change.facts(credit_before, transaction_hash);
    let hook = subscription_hooks::hook_at(&tx, row_id).await?;
    let updated = hook.and_then(|hook| hook.updated(facts.clone(), now_ms));
    subscription_hooks::enqueue(&tx, updated, now_ms).await?;
    if let Some(claim) = claim
        && let Claimed::Fresh(claim_id) = idempotency::claim(&tx, claim).await?
    {
        idempotency::name(&tx, claim_id, &Resource::Change(id.clone())).await?;
    }
    let subscription = recurring::fetch_subscription(&tx, &change.subscription_id).await?;
    tx.commit().await?;
    Ok(subscription.map(|subscription| ChangedSubscription {
        subscription,
        change: facts,
    }))
}

/// The applied change `id`: the subscription as stored now and what the change did, from its record.
pub(super) async fn applied(
    client: &impl Queries,
    id: &SubscriptionChangeId,
) -> Result<Option<ChangedSubscription>, PgError> {
    let statement = client.prepare_cached(APPLIED_BY_ID).await?;
    let Some(row) = client.query_opt(&statement, &[&id.as_str()]).await? else {
        return Ok(None);
    };
    let PendingRow(change, _, _, credit_before) = change_from_row(&row)?;
    let transaction_hash: Option<String> = rows::get(&row, "tx_hash")?;
    let subscription = recurring::fetch_subscription(client, &change.subscription_id).await?;
    Ok(subscription.map(|subscription| ChangedSubscription {
        subscription,
        change: change.facts(credit_before, transaction_hash),
    }))
}

pub(super) async fn fail(
    client: PgClient,
    id: &SubscriptionChangeId,
    reason: &str,
    now_ms: i64,
) -> Result<(), PgError> {
    let failed = client.prepare_cached(FAILED).await?;
    client.execute(&failed, &[&id.as_str(), &reason, &now_ms]).await?;
    Ok(())
}

pub(super) async fn stale(
    client: PgClient,
    now_ms: i64,
    limit: u32,
) -> Result<Vec<SubscriptionChange>, PgError> {
    let stale = client.prepare_cached(STALE).await?;
    client
        .query(&stale, &[&now_ms, &i64::from(limit)])
        .await?
        .iter()
        .map(|row| change_from_row(row).map(|PendingRow(change, ..)| change))
        .collect()
}
