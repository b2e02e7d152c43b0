//! `subscription.charge_upcoming` over PostgreSQL: the candidates a batch run reads on chain, and the
//! notice rows, unique per (subscription, period), written with their webhooks in one transaction. Two
//! instances recording the same notice: the second insert waits for the first to commit, then does nothing.

use crate::postgres::connection::{PgClient, Queries};

use crate::postgres::error::PgError;
use crate::postgres::recurring::{subscription_columns, subscription_from_row};
use crate::postgres::{rows, subscription_hooks};
use payments_domain::recurring::{ChargeNotice, CustomerSubscription};

/// Chargeable subscriptions whose next charge opens a fresh period (no retry) within the window, not
/// noticed yet for that period.
const CANDIDATES: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id
    WHERE s.status IN ('trialing', 'active', 'past_due') AND s.attempts = 0
        AND s.next_charge_at > $1 AND s.next_charge_at <= $2
        AND NOT EXISTS (SELECT 1 FROM subscription_notices n
            WHERE n.subscription_id = s.id AND n.period_index = s.next_period_index)
    ORDER BY s.next_charge_at LIMIT $3"
);
const INSERT_NOTICE: &str = "INSERT INTO subscription_notices (subscription_id, period_index, created_at)
    SELECT id, $2, $3 FROM customer_subscriptions WHERE public_id = $1
    ON CONFLICT (subscription_id, period_index) DO NOTHING
    RETURNING subscription_id";

pub(super) async fn candidates(
    client: &impl Queries,
    now_ms: i64,
    until_ms: i64,
    limit: u32,
) -> Result<Vec<CustomerSubscription>, PgError> {
    let statement = client.prepare_cached(CANDIDATES).await?;
    let found = client
        .query(&statement, &[&now_ms, &until_ms, &i64::from(limit)])
        .await?;
    found.iter().map(subscription_from_row).collect()
}

pub(super) async fn record(mut client: PgClient, notices: &[ChargeNotice]) -> Result<u64, PgError> {
    let tx = client.transaction().await?;
    let insert = tx.prepare_cached(INSERT_NOTICE).await?;
    let mut recorded = 0;
    for notice in notices {
        let period = i64::try_from(notice.upcoming.period_index).unwrap_or(i64::MAX);
        let inserted = tx
            .query_opt(
                &insert,
                &[&notice.subscription_id.as_str(), &period, &notice.now_ms],
            )
            .await?;
        // Noticed already (another run got there first): no second webhook.
        let Some(inserted) = inserted else { continue };
        recorded += 1;
        let row_id: i64 = rows::get(&inserted, "subscription_id")?;
        if let Some(hook) = subscription_hooks::hook_at(&tx, row_id).await? {
            let delivery = hook.charge_upcoming(notice.upcoming.clone(), notice.now_ms);
            subscription_hooks::enqueue(&tx, delivery, notice.now_ms).await?;
        }
    }
    tx.commit().await?;
    Ok(recorded)
}
