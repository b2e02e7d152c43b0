//! A plan's webhook deliveries over SQLite: the delivery log of every subscription on the plan (each
//! delivery names its subscription), and redelivery, as a receipt's (`webhooks`), for the plan's merchant.

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, params};

use crate::DeliveryLog;
use crate::sqlite::webhooks::{delivery_from_row, redeliver_round, with_attempts};
use payments_domain::recurring::{CustomerSubscriptionId, PlanId};

const PLAN_ROWID: &str = "SELECT id FROM subscription_plans WHERE public_id = ?1 AND merchant = ?2";
const LIST_DELIVERIES: &str = "SELECT d.id, d.public_id, d.event, d.url, d.state, d.next_attempt_at,
    d.created_at, s.public_id FROM webhook_deliveries d
    JOIN customer_subscriptions s ON s.id = d.subscription_id
    WHERE s.plan_id = ?1 ORDER BY d.id";
const REDELIVER: &str = concat!(
    redeliver_round!(),
    "subscription_id IN (SELECT id FROM customer_subscriptions WHERE plan_id = ?1) AND public_id = ?2"
);

fn plan_rowid(conn: &Connection, merchant: Wallet, plan_id: &PlanId) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(PLAN_ROWID)?
        .query_row(params![plan_id.as_str(), merchant.to_string()], |row| row.get(0))
        .optional()
}

/// `None` when the merchant has no such plan.
pub(super) fn list(
    conn: &Connection,
    merchant: Wallet,
    plan_id: &PlanId,
) -> rusqlite::Result<Option<Vec<DeliveryLog>>> {
    let Some(plan_row) = plan_rowid(conn, merchant, plan_id)? else {
        return Ok(None);
    };
    let rows = conn
        .prepare_cached(LIST_DELIVERIES)?
        .query_map([plan_row], |row| {
            let subscription = CustomerSubscriptionId::from_stored(row.get(7)?);
            delivery_from_row(row, Some(subscription))
        })?
        .collect::<rusqlite::Result<_>>()?;
    with_attempts(conn, rows).map(Some)
}

/// False when the merchant has no such plan or the plan no such delivery.
pub(super) fn redeliver(
    conn: &Connection,
    merchant: Wallet,
    plan_id: &PlanId,
    delivery_id: &str,
    now_ms: i64,
) -> rusqlite::Result<bool> {
    let Some(plan_row) = plan_rowid(conn, merchant, plan_id)? else {
        return Ok(false);
    };
    conn.prepare_cached(REDELIVER)?
        .execute(params![plan_row, delivery_id, now_ms])
        .map(|changed| changed == 1)
}
