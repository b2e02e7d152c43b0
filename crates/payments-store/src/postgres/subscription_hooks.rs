//! Subscription webhooks and xp credits over PostgreSQL, written inside the transaction of the change that
//! causes them (create, settle, cancel): lock and read the subscription's [`SubscriptionHook`] before the
//! change, insert the deliveries it builds after.

use crate::postgres::connection::Queries;
use payments_core::{Cents, Wallet};
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::{endpoints, outbox, rows, users};
use crate::rows::HookRow;
use crate::{OwnerRow, SubscriptionDelivery, SubscriptionHook};
use payments_domain::recurring::CustomerSubscriptionId;

macro_rules! hook_columns {
    () => {
        "SELECT s.id, s.public_id, p.public_id AS plan_public_id, s.merchant, s.customer, s.price_cents,
        s.period, s.status, p.webhook_url FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id"
    };
}

/// Locks the subscription row, so the status read is the one the change replaces.
const HOOK_BY_ROW: &str = concat!(hook_columns!(), " WHERE s.id = $1 FOR UPDATE OF s");
const HOOK_BY_ID: &str = concat!(hook_columns!(), " WHERE s.public_id = $1 FOR UPDATE OF s");

fn hook_from_row(row: &Row) -> Result<SubscriptionHook, PgError> {
    HookRow {
        row_id: rows::get(row, "id")?,
        public_id: rows::get(row, "public_id")?,
        plan_public_id: rows::get(row, "plan_public_id")?,
        merchant: rows::get(row, "merchant")?,
        customer: rows::get(row, "customer")?,
        price_cents: rows::get(row, "price_cents")?,
        period: rows::get(row, "period")?,
        status: rows::get(row, "status")?,
        webhook_url: rows::get(row, "webhook_url")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a subscription's webhook target", error))
}

/// Locks and reads the hook of the subscription stored at `row_id`.
pub(super) async fn hook_at(client: &impl Queries, row_id: i64) -> Result<Option<SubscriptionHook>, PgError> {
    let statement = client.prepare_cached(HOOK_BY_ROW).await?;
    let row = client.query_opt(&statement, &[&row_id]).await?;
    row.map(|row| hook_from_row(&row)).transpose()
}

/// Locks and reads the hook of the subscription `id`.
pub(super) async fn hook_of(
    client: &impl Queries,
    id: &CustomerSubscriptionId,
) -> Result<Option<SubscriptionHook>, PgError> {
    let statement = client.prepare_cached(HOOK_BY_ID).await?;
    let row = client.query_opt(&statement, &[&id.as_str()]).await?;
    row.map(|row| hook_from_row(&row)).transpose()
}

/// Records each change's event for the merchant's endpoints and inserts its plan delivery, due at once.
pub(super) async fn enqueue(
    client: &impl Queries,
    deliveries: impl IntoIterator<Item = SubscriptionDelivery>,
    now_ms: i64,
) -> Result<(), PgError> {
    for SubscriptionDelivery {
        row_id,
        delivery,
        event,
    } in deliveries
    {
        if let Some(delivery) = delivery {
            outbox::insert_delivery(client, OwnerRow::Subscription(row_id), &delivery, now_ms).await?;
        }
        endpoints::record_event(client, &event).await?;
    }
    Ok(())
}

/// Adds each customer's charged amounts to its subscription spending and recomputes its xp, customers in
/// wallet order (see [`crate::merged_credits`]).
pub(super) async fn credit(
    client: &impl Queries,
    credits: Vec<(Wallet, Cents)>,
    now_ms: i64,
) -> Result<(), PgError> {
    for (customer, amount) in crate::merged_credits(credits) {
        users::credit_subscriptions(client, customer, amount, now_ms).await?;
    }
    Ok(())
}
