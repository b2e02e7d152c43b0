//! Subscription webhooks and xp credits over SQLite, written inside the writer transaction of the change
//! that causes them (create, settle, cancel): read the subscription's [`SubscriptionHook`] before the
//! change, insert the deliveries it builds after.

use payments_core::{Cents, Wallet};
use rusqlite::{Connection, OptionalExtension, Row};

use crate::rows::HookRow;
use crate::sqlite::{endpoints, rows, users, webhooks};
use crate::{OwnerRow, SubscriptionDelivery, SubscriptionHook};
use payments_domain::recurring::CustomerSubscriptionId;

macro_rules! hook_columns {
    () => {
        "SELECT s.id, s.public_id, p.public_id, s.merchant, s.customer, s.price_cents, s.period, s.status,
        p.webhook_url FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id"
    };
}

const HOOK_BY_ROW: &str = concat!(hook_columns!(), " WHERE s.id = ?1");
const HOOK_BY_ID: &str = concat!(hook_columns!(), " WHERE s.public_id = ?1");

fn hook_from_row(row: &Row<'_>) -> rusqlite::Result<SubscriptionHook> {
    HookRow {
        row_id: row.get(0)?,
        public_id: row.get(1)?,
        plan_public_id: row.get(2)?,
        merchant: row.get(3)?,
        customer: row.get(4)?,
        price_cents: row.get(5)?,
        period: row.get(6)?,
        status: row.get(7)?,
        webhook_url: row.get(8)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

/// The hook of the subscription stored at `row_id`.
pub(super) fn hook_at(conn: &Connection, row_id: i64) -> rusqlite::Result<Option<SubscriptionHook>> {
    conn.prepare_cached(HOOK_BY_ROW)?
        .query_row([row_id], hook_from_row)
        .optional()
}

/// The hook of the subscription `id`.
pub(super) fn hook_of(
    conn: &Connection,
    id: &CustomerSubscriptionId,
) -> rusqlite::Result<Option<SubscriptionHook>> {
    conn.prepare_cached(HOOK_BY_ID)?
        .query_row([id.as_str()], hook_from_row)
        .optional()
}

/// Records each change's event for the merchant's endpoints and inserts its plan delivery, due at once.
pub(super) fn enqueue(
    conn: &Connection,
    deliveries: impl IntoIterator<Item = SubscriptionDelivery>,
    now_ms: i64,
) -> rusqlite::Result<()> {
    for SubscriptionDelivery {
        row_id,
        delivery,
        event,
    } in deliveries
    {
        if let Some(delivery) = delivery {
            webhooks::insert_delivery(conn, OwnerRow::Subscription(row_id), &delivery, now_ms)?;
        }
        endpoints::record_event(conn, &event)?;
    }
    Ok(())
}

/// Adds each customer's charged amounts to its subscription spending and recomputes its xp.
pub(super) fn credit(conn: &Connection, credits: Vec<(Wallet, Cents)>, now_ms: i64) -> rusqlite::Result<()> {
    for (customer, amount) in crate::merged_credits(credits) {
        users::credit_subscriptions(conn, customer, amount, now_ms)?;
    }
    Ok(())
}
