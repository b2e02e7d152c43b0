//! `subscription.charge_upcoming` over SQLite: the candidates a batch run reads on chain, and the notice
//! rows, unique per (subscription, period), written with their webhooks in one writer transaction.

use rusqlite::{Connection, OptionalExtension, params};

use crate::sqlite::recurring::{subscription_columns, subscription_from_row};
use crate::sqlite::subscription_hooks;
use payments_domain::recurring::{ChargeNotice, CustomerSubscription};

/// Chargeable subscriptions whose next charge opens a fresh period (no retry) within the window, not
/// noticed yet for that period.
const CANDIDATES: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id
    WHERE s.status IN ('trialing', 'active', 'past_due') AND s.attempts = 0
        AND s.next_charge_at > ?1 AND s.next_charge_at <= ?2
        AND NOT EXISTS (SELECT 1 FROM subscription_notices n
            WHERE n.subscription_id = s.id AND n.period_index = s.next_period_index)
    ORDER BY s.next_charge_at LIMIT ?3"
);
const INSERT_NOTICE: &str = "INSERT INTO subscription_notices (subscription_id, period_index, created_at)
    SELECT id, ?2, ?3 FROM customer_subscriptions WHERE public_id = ?1
    ON CONFLICT (subscription_id, period_index) DO NOTHING
    RETURNING subscription_id";

pub(super) fn candidates(
    conn: &Connection,
    now_ms: i64,
    until_ms: i64,
    limit: u32,
) -> rusqlite::Result<Vec<CustomerSubscription>> {
    conn.prepare_cached(CANDIDATES)?
        .query_map(params![now_ms, until_ms, limit], subscription_from_row)?
        .collect()
}

pub(super) fn record(conn: &Connection, notices: &[ChargeNotice]) -> rusqlite::Result<u64> {
    let mut recorded = 0;
    for notice in notices {
        let period = i64::try_from(notice.upcoming.period_index).unwrap_or(i64::MAX);
        let row_id: Option<i64> = conn
            .prepare_cached(INSERT_NOTICE)?
            .query_row(
                params![notice.subscription_id.as_str(), period, notice.now_ms],
                |row| row.get(0),
            )
            .optional()?;
        // Noticed already (another run got there first): no second webhook.
        let Some(row_id) = row_id else { continue };
        recorded += 1;
        if let Some(hook) = subscription_hooks::hook_at(conn, row_id)? {
            let delivery = hook.charge_upcoming(notice.upcoming.clone(), notice.now_ms);
            subscription_hooks::enqueue(conn, delivery, notice.now_ms)?;
        }
    }
    Ok(recorded)
}
