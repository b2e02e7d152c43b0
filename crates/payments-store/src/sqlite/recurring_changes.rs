//! Plan changes over SQLite: a change is recorded `pending` under a lease before its chain transaction is
//! sent, then applied (the subscription's new plan, price and permission, the credit, the prorated charge's
//! billing event and the `subscription.updated` webhook, in one writer transaction) or failed. A pending
//! change whose lease ran out is handed to a later run to reconcile with the chain.

use payments_core::SpendPermissionData;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::rows::{ChangeRow, PendingRow, proration_columns, units_column};
use crate::sqlite::idempotency::{self, Claimed};
use crate::sqlite::{recurring, rows, subscription_hooks};
use crate::{IdempotencyClaim, Resource};
use payments_domain::recurring::{
    ChangeRefusal, ChangedSubscription, SubscriptionChange, SubscriptionChangeId,
};

const SUBSCRIPTION_STATE: &str = "SELECT id, status FROM customer_subscriptions WHERE public_id = ?1";
const ACTIVE_PLAN: &str = "SELECT id FROM subscription_plans WHERE public_id = ?1 AND active = 1";
/// A change or a charge of the subscription in flight (a pending charge row, leased or left by a crash).
const BUSY: &str = "SELECT EXISTS (SELECT 1 FROM subscription_changes WHERE subscription_id = ?1
        AND state = 'pending')
    OR EXISTS (SELECT 1 FROM subscription_charges WHERE subscription_id = ?1 AND state = 'pending')";
const HASH_USED: &str = "SELECT EXISTS (SELECT 1 FROM customer_subscriptions WHERE permission_hash = ?1)";
const INSERT_CHANGE: &str = "INSERT INTO subscription_changes (public_id, subscription_id, plan_id,
    price_cents, permission_json, signature, permission_hash, period_index, proration, proration_units,
    fee_units, net_units, state, lease_until, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 'pending', ?13, ?14, ?14)";
/// A pending change with what its subscription holds now (its plan, price and permission are the old
/// ones until the change is applied), in [`change_from_row`]'s order.
macro_rules! pending_change {
    () => {
        "SELECT c.public_id, s.public_id, s.merchant, op.public_id, s.price_cents, s.permission_json,
        np.public_id, c.price_cents, c.permission_json, c.signature, c.permission_hash, c.period_index,
        c.proration, c.proration_units, c.fee_units, c.net_units, c.created_at, s.id, np.id, s.credit_units
        FROM subscription_changes c JOIN customer_subscriptions s ON s.id = c.subscription_id
        JOIN subscription_plans op ON op.id = s.plan_id JOIN subscription_plans np ON np.id = c.plan_id
        WHERE c.state = 'pending'"
    };
}
const PENDING_BY_ID: &str = concat!(pending_change!(), " AND c.public_id = ?1");
const STALE: &str = concat!(
    pending_change!(),
    " AND c.lease_until <= ?1 ORDER BY c.id LIMIT ?2"
);
const SWITCH: &str = "UPDATE customer_subscriptions SET plan_id = ?2, price_cents = ?3,
    permission_json = ?4, signature = ?5, permission_hash = ?6, credit_units = credit_units + ?7,
    updated_at = ?8 WHERE id = ?1";
/// Applied, with what the change replaced: the record answers a replay whose answer was lost.
const APPLIED: &str = "UPDATE subscription_changes SET state = 'applied', tx_hash = ?2, lease_until = NULL,
    updated_at = ?3, previous_plan_id = (SELECT id FROM subscription_plans WHERE public_id = ?4),
    previous_price_cents = ?5, previous_permission_json = ?6, credit_before_units = ?7
    WHERE public_id = ?1 AND state = 'pending'";
/// An applied change with what it replaced, in [`change_from_row`]'s order, then its transaction hash.
const APPLIED_BY_ID: &str = "SELECT c.public_id, s.public_id, s.merchant, op.public_id,
    c.previous_price_cents, c.previous_permission_json, np.public_id, c.price_cents, c.permission_json,
    c.signature, c.permission_hash, c.period_index, c.proration, c.proration_units, c.fee_units, c.net_units,
    c.created_at, s.id, np.id, c.credit_before_units, c.tx_hash
    FROM subscription_changes c JOIN customer_subscriptions s ON s.id = c.subscription_id
    JOIN subscription_plans op ON op.id = c.previous_plan_id JOIN subscription_plans np ON np.id = c.plan_id
    WHERE c.public_id = ?1 AND c.state = 'applied'";
const FAILED: &str = "UPDATE subscription_changes SET state = 'failed', failure = ?2, lease_until = NULL,
    updated_at = ?3 WHERE public_id = ?1 AND state = 'pending'";
const INSERT_EVENT: &str = "INSERT INTO billing_events (subscription_id, period_index, status, gross_cents,
    fee_cents, net_cents, tx_hash, failure, created_at, fee_units, net_units)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";

fn change_from_row(row: &Row<'_>) -> rusqlite::Result<PendingRow> {
    ChangeRow {
        change_id: row.get(0)?,
        subscription_id: row.get(1)?,
        merchant: row.get(2)?,
        previous_plan_id: row.get(3)?,
        previous_price_cents: row.get(4)?,
        old_permission_json: row.get(5)?,
        plan_id: row.get(6)?,
        price_cents: row.get(7)?,
        permission_json: row.get(8)?,
        signature: row.get(9)?,
        permission_hash: row.get(10)?,
        period_index: row.get(11)?,
        proration: row.get(12)?,
        proration_units: row.get(13)?,
        fee_units: row.get(14)?,
        net_units: row.get(15)?,
        created_at: row.get(16)?,
        subscription_row: row.get(17)?,
        plan_row: row.get(18)?,
        credit_units: row.get(19)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

pub(super) fn begin(
    conn: &Connection,
    change: &SubscriptionChange,
    lease_until: i64,
) -> rusqlite::Result<Result<(), ChangeRefusal>> {
    let subscription: Option<(i64, String)> = conn
        .prepare_cached(SUBSCRIPTION_STATE)?
        .query_row([change.subscription_id.as_str()], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?;
    let Some((row_id, _)) = subscription.filter(|(_, status)| status != "canceled") else {
        return Ok(Err(ChangeRefusal::Canceled));
    };
    let Some(plan_row) = conn
        .prepare_cached(ACTIVE_PLAN)?
        .query_row([change.plan_id.as_str()], |row| row.get::<_, i64>(0))
        .optional()?
    else {
        return Ok(Err(ChangeRefusal::PlanUnavailable));
    };
    if conn
        .prepare_cached(BUSY)?
        .query_row([row_id], |row| row.get::<_, bool>(0))?
    {
        return Ok(Err(ChangeRefusal::Busy));
    }
    if conn
        .prepare_cached(HASH_USED)?
        .query_row([&change.permission_hash], |row| row.get::<_, bool>(0))?
    {
        return Ok(Err(ChangeRefusal::PermissionReused));
    }
    let (proration, proration_units) = proration_columns(change.proration);
    conn.prepare_cached(INSERT_CHANGE)?.execute(params![
        change.id.as_str(),
        row_id,
        plan_row,
        change.price.as_i64(),
        rows::to_json(&SpendPermissionData::from(&change.permission))?,
        change.signature,
        change.permission_hash,
        i64::try_from(change.period_index).unwrap_or(i64::MAX),
        proration,
        proration_units,
        units_column(change.fee),
        units_column(change.net),
        lease_until,
        change.created_at,
    ])?;
    Ok(Ok(()))
}

/// Applies the pending change `id`, recording what it replaced, and commits `claim` naming it (unless the
/// key answered another request already: the change happened on chain, so it is applied whatever the key
/// says); `None` when the change is not pending (finished by another run).
pub(super) fn apply(
    conn: &Connection,
    id: &SubscriptionChangeId,
    transaction_hash: Option<String>,
    now_ms: i64,
    claim: Option<IdempotencyClaim>,
) -> rusqlite::Result<Option<ChangedSubscription>> {
    let Some(PendingRow(change, row_id, plan_row, credit_before)) = conn
        .prepare_cached(PENDING_BY_ID)?
        .query_row([id.as_str()], change_from_row)
        .optional()?
    else {
        return Ok(None);
    };
    conn.prepare_cached(SWITCH)?.execute(params![
        row_id,
        plan_row,
        change.price.as_i64(),
        rows::to_json(&SpendPermissionData::from(&change.permission))?,
        change.signature,
        change.permission_hash,
        units_column(change.credit()),
        now_ms,
    ])?;
    conn.prepare_cached(APPLIED)?.execute(params![
        id.as_str(),
        transaction_hash,
        now_ms,
        change.previous_plan_id.as_str(),
        change.previous_price.as_i64(),
        rows::to_json(&SpendPermissionData::from(&change.old_permission))?,
        units_column(credit_before),
    ])?;
    if let Some(event) = change.prorated_charge_event(transaction_hash.clone(), now_ms) {
        conn.prepare_cached(INSERT_EVENT)?.execute(params![
            row_id,
            i64::try_from(event.period_index).unwrap_or(i64::MAX),
            event.status.as_str(),
            event.gross_usd.as_i64(),
            event.fee_usd.as_i64(),
            event.net_usd.as_i64(),
            event.transaction_hash,
            event.failure,
            event.created_at,
            units_column(event.fee_base_units),
            units_column(event.net_base_units),
        ])?;
    }
    // Read after the switch: the webhook names the new plan and goes to its target.
    let facts = change.facts(credit_before, transaction_hash);
    let hook = subscription_hooks::hook_at(conn, row_id)?;
    subscription_hooks::enqueue(
        conn,
        hook.and_then(|hook| hook.updated(facts.clone(), now_ms)),
        now_ms,
    )?;
    if let Some(claim) = claim
        && matches!(idempotency::claim(conn, &claim)?, Claimed::Fresh)
    {
        idempotency::name(conn, &claim, &Resource::Change(id.clone()))?;
    }
    Ok(
        recurring::fetch_subscription(conn, &change.subscription_id)?.map(|subscription| {
            ChangedSubscription {
                subscription,
                change: facts,
            }
        }),
    )
}

/// The applied change `id`: the subscription as stored now and what the change did, from its record.
pub(super) fn applied(
    conn: &Connection,
    id: &SubscriptionChangeId,
) -> rusqlite::Result<Option<ChangedSubscription>> {
    let Some((PendingRow(change, _, _, credit_before), transaction_hash)) = conn
        .prepare_cached(APPLIED_BY_ID)?
        .query_row([id.as_str()], |row| Ok((change_from_row(row)?, row.get(20)?)))
        .optional()?
    else {
        return Ok(None);
    };
    Ok(
        recurring::fetch_subscription(conn, &change.subscription_id)?.map(|subscription| {
            ChangedSubscription {
                subscription,
                change: change.facts(credit_before, transaction_hash),
            }
        }),
    )
}

pub(super) fn fail(
    conn: &Connection,
    id: &SubscriptionChangeId,
    reason: &str,
    now_ms: i64,
) -> rusqlite::Result<()> {
    conn.prepare_cached(FAILED)?
        .execute(params![id.as_str(), reason, now_ms])?;
    Ok(())
}

pub(super) fn stale(conn: &Connection, now_ms: i64, limit: u32) -> rusqlite::Result<Vec<SubscriptionChange>> {
    conn.prepare_cached(STALE)?
        .query_map(params![now_ms, limit], change_from_row)?
        .map(|row| row.map(|PendingRow(change, ..)| change))
        .collect()
}
