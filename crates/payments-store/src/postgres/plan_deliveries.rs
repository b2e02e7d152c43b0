//! A plan's webhook deliveries over PostgreSQL: the delivery log of every subscription on the plan (each
//! delivery names its subscription), and redelivery, as a receipt's (`outbox`), for the plan's merchant.

use payments_core::Wallet;

use crate::DeliveryLog;
use crate::postgres::connection::{PgClient, Queries};
use crate::postgres::error::PgError;
use crate::postgres::outbox::{delivery_from_row, redeliver_round, with_attempts};
use crate::postgres::rows;
use payments_domain::recurring::{CustomerSubscriptionId, PlanId};

const PLAN_ROWID: &str = "SELECT id FROM subscription_plans WHERE public_id = $1 AND merchant = $2";
const LIST_DELIVERIES: &str = "SELECT d.id, d.public_id, d.event, d.url, d.state, d.next_attempt_at,
    d.created_at, s.public_id AS subscription_public_id FROM webhook_deliveries d
    JOIN customer_subscriptions s ON s.id = d.subscription_id
    WHERE s.plan_id = $1 ORDER BY d.id";
const REDELIVER: &str = concat!(
    redeliver_round!(),
    "subscription_id IN (SELECT id FROM customer_subscriptions WHERE plan_id = $1) AND public_id = $2"
);

async fn plan_rowid(client: &PgClient, merchant: Wallet, plan_id: &PlanId) -> Result<Option<i64>, PgError> {
    let statement = client.prepare_cached(PLAN_ROWID).await?;
    let row = client
        .query_opt(&statement, &[&plan_id.as_str(), &merchant.to_string()])
        .await?;
    row.map(|row| rows::get(&row, "id")).transpose()
}

/// `None` when the merchant has no such plan.
pub(super) async fn list(
    client: PgClient,
    merchant: Wallet,
    plan_id: &PlanId,
) -> Result<Option<Vec<DeliveryLog>>, PgError> {
    let Some(plan_row) = plan_rowid(&client, merchant, plan_id).await? else {
        return Ok(None);
    };
    let deliveries = client.prepare_cached(LIST_DELIVERIES).await?;
    let rows = client.query(&deliveries, &[&plan_row]).await?;
    let rows = rows
        .iter()
        .map(|row| {
            let subscription = CustomerSubscriptionId::from_stored(rows::get(row, "subscription_public_id")?);
            delivery_from_row(row, Some(subscription))
        })
        .collect::<Result<_, PgError>>()?;
    with_attempts(&client, rows).await.map(Some)
}

/// False when the merchant has no such plan or the plan no such delivery.
pub(super) async fn redeliver(
    client: PgClient,
    merchant: Wallet,
    plan_id: &PlanId,
    delivery_id: &str,
    now_ms: i64,
) -> Result<bool, PgError> {
    let Some(plan_row) = plan_rowid(&client, merchant, plan_id).await? else {
        return Ok(false);
    };
    let statement = client.prepare_cached(REDELIVER).await?;
    let changed = client
        .execute(&statement, &[&plan_row, &delivery_id, &now_ms])
        .await?;
    Ok(changed == 1)
}
