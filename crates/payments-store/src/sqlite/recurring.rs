//! Plans and customer subscriptions over SQLite (the charge ledger is in `recurring_charges`).

use payments_core::{SpendPermissionData, Wallet};
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::rows::{PlanRow, SubscriptionRow, plan_columns, webhook_columns};
use crate::sqlite::{rows, subscription_hooks};
use crate::{STATUS_LISTING_LIMIT, SubscriptionHook};
use payments_domain::recurring::{
    CreateSubscriptionOutcome, CustomerSubscription, CustomerSubscriptionId, NewCustomerSubscription, Plan,
    PlanId, PlanUpdate, PlatformCancelReason, StatusQuery,
};

/// The columns every subscription read selects, in [`subscription_from_row`]'s order.
macro_rules! subscription_columns {
    () => {
        "s.public_id, p.public_id, s.merchant, s.customer, s.price_cents, s.period, s.permission_json,
        s.signature, s.status, s.anchor_ms, s.next_period_index, s.next_charge_at, s.attempts,
        s.failed_periods, s.created_at, s.updated_at, s.canceled_at, s.cancel_reason, s.credit_units"
    };
}
pub(super) use subscription_columns;
/// How many columns [`subscription_columns`] selects.
pub(super) const SUBSCRIPTION_COLUMNS: usize = 19;

const INSERT_PLAN: &str = "INSERT INTO subscription_plans (public_id, merchant, name, description,
    price_cents, period, active, created_at, updated_at, webhook_url, signing_key, trial_days)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
const FETCH_PLAN: &str = concat!(
    "SELECT ",
    plan_columns!(),
    " FROM subscription_plans WHERE public_id = ?1"
);
const ACTIVE_PLANS: &str = concat!(
    "SELECT ",
    plan_columns!(),
    " FROM subscription_plans WHERE merchant = ?1 AND active = 1 ORDER BY created_at, id"
);
const SAVE_PLAN: &str = "UPDATE subscription_plans SET name = ?2, description = ?3, price_cents = ?4,
    period = ?5, active = ?6, updated_at = ?7, webhook_url = ?8, signing_key = ?9 WHERE public_id = ?1";
const PLAN_ROW: &str = "SELECT id, webhook_url FROM subscription_plans WHERE public_id = ?1 AND active = 1";
const HASH_USED: &str = "SELECT EXISTS (SELECT 1 FROM customer_subscriptions WHERE permission_hash = ?1)";
const INSERT_SUBSCRIPTION: &str =
    "INSERT INTO customer_subscriptions (public_id, plan_id, merchant, customer,
    price_cents, period, permission_json, signature, permission_hash, status, anchor_ms, next_period_index,
    next_charge_at, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?12, ?10, 0, ?10, ?11, ?11)
    RETURNING id";
const FETCH_SUBSCRIPTION: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id WHERE s.public_id = ?1"
);
const BY_CUSTOMER: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id
    WHERE s.customer = ?1 ORDER BY s.created_at DESC, s.id DESC LIMIT ?2"
);
const BY_MERCHANT: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id
    WHERE s.merchant = ?1 ORDER BY s.created_at DESC, s.id DESC LIMIT ?2"
);
const CANCEL: &str =
    "UPDATE customer_subscriptions SET status = 'canceled', updated_at = ?2, canceled_at = ?2,
    cancel_reason = ?3 WHERE public_id = ?1 AND status <> 'canceled'";

fn plan_from_row(row: &Row<'_>) -> rusqlite::Result<Plan> {
    PlanRow {
        public_id: row.get(0)?,
        merchant: row.get(1)?,
        name: row.get(2)?,
        description: row.get(3)?,
        price_cents: row.get(4)?,
        period: row.get(5)?,
        active: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
        webhook_url: row.get(9)?,
        signing_key: row.get(10)?,
        trial_days: row.get(11)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

pub(super) fn subscription_from_row(row: &Row<'_>) -> rusqlite::Result<CustomerSubscription> {
    SubscriptionRow {
        public_id: row.get(0)?,
        plan_public_id: row.get(1)?,
        merchant: row.get(2)?,
        customer: row.get(3)?,
        price_cents: row.get(4)?,
        period: row.get(5)?,
        permission_json: row.get(6)?,
        signature: row.get(7)?,
        status: row.get(8)?,
        anchor_ms: row.get(9)?,
        next_period_index: row.get(10)?,
        next_charge_at: row.get(11)?,
        attempts: row.get(12)?,
        failed_periods: row.get(13)?,
        created_at: row.get(14)?,
        updated_at: row.get(15)?,
        canceled_at: row.get(16)?,
        cancel_reason: row.get(17)?,
        credit_units: row.get(18)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

pub(super) fn create_plan(conn: &Connection, plan: &Plan) -> rusqlite::Result<()> {
    let (webhook_url, signing_key) = webhook_columns(plan);
    conn.prepare_cached(INSERT_PLAN)?.execute(params![
        plan.id.as_str(),
        plan.merchant.to_string(),
        plan.name,
        plan.description,
        plan.price.as_i64(),
        plan.period.as_str(),
        plan.active,
        plan.created_at,
        plan.updated_at,
        webhook_url,
        signing_key,
        plan.trial_days.days(),
    ])?;
    Ok(())
}

pub(super) fn fetch_plan(conn: &Connection, id: &PlanId) -> rusqlite::Result<Option<Plan>> {
    conn.prepare_cached(FETCH_PLAN)?
        .query_row([id.as_str()], plan_from_row)
        .optional()
}

pub(super) fn active_plans(conn: &Connection, merchant: Wallet) -> rusqlite::Result<Vec<Plan>> {
    conn.prepare_cached(ACTIVE_PLANS)?
        .query_map([merchant.to_string()], plan_from_row)?
        .collect()
}

pub(super) fn update_plan(conn: &Connection, update: &PlanUpdate) -> rusqlite::Result<Option<Plan>> {
    let Some(plan) = fetch_plan(conn, &update.id)?.filter(|plan| plan.merchant == update.merchant) else {
        return Ok(None);
    };
    let updated = update.apply(&plan);
    let (webhook_url, signing_key) = webhook_columns(&updated);
    conn.prepare_cached(SAVE_PLAN)?.execute(params![
        updated.id.as_str(),
        updated.name,
        updated.description,
        updated.price.as_i64(),
        updated.period.as_str(),
        updated.active,
        updated.updated_at,
        webhook_url,
        signing_key,
    ])?;
    Ok(Some(updated))
}

pub(super) fn create_subscription(
    conn: &Connection,
    new: &NewCustomerSubscription,
    now_ms: i64,
) -> rusqlite::Result<CreateSubscriptionOutcome> {
    let plan_row: Option<(i64, Option<String>)> = conn
        .prepare_cached(PLAN_ROW)?
        .query_row([new.plan_id.as_str()], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let Some((plan_row, webhook_url)) = plan_row else {
        return Ok(CreateSubscriptionOutcome::PlanUnavailable);
    };
    let used: bool = conn
        .prepare_cached(HASH_USED)?
        .query_row([&new.permission_hash], |row| row.get(0))?;
    if used {
        return Ok(CreateSubscriptionOutcome::PermissionReused);
    }
    let row_id: i64 = conn.prepare_cached(INSERT_SUBSCRIPTION)?.query_row(
        params![
            new.id.as_str(),
            plan_row,
            new.merchant.to_string(),
            new.customer.to_string(),
            new.price.as_i64(),
            new.period.as_str(),
            rows::to_json(&SpendPermissionData::from(&new.permission))?,
            new.signature,
            new.permission_hash,
            new.anchor_ms,
            now_ms,
            new.initial_status(now_ms).as_str(),
        ],
        |row| row.get(0),
    )?;
    let hook = SubscriptionHook::of_new(new, row_id, webhook_url, now_ms);
    subscription_hooks::enqueue(conn, hook.created(now_ms), now_ms)?;
    Ok(CreateSubscriptionOutcome::Created(Box::new(new.stored(now_ms))))
}

pub(super) fn fetch_subscription(
    conn: &Connection,
    id: &CustomerSubscriptionId,
) -> rusqlite::Result<Option<CustomerSubscription>> {
    conn.prepare_cached(FETCH_SUBSCRIPTION)?
        .query_row([id.as_str()], subscription_from_row)
        .optional()
}

pub(super) fn find_subscriptions(
    conn: &Connection,
    query: &StatusQuery,
) -> rusqlite::Result<Vec<CustomerSubscription>> {
    let (sql, wallet) = match query {
        StatusQuery::Id(id) => return Ok(fetch_subscription(conn, id)?.into_iter().collect()),
        StatusQuery::Customer(wallet) => (BY_CUSTOMER, wallet),
        StatusQuery::Merchant(wallet) => (BY_MERCHANT, wallet),
    };
    conn.prepare_cached(sql)?
        .query_map(
            params![wallet.to_string(), STATUS_LISTING_LIMIT],
            subscription_from_row,
        )?
        .collect()
}

pub(super) fn cancel_subscription(
    conn: &Connection,
    id: &CustomerSubscriptionId,
    reason: Option<PlatformCancelReason>,
    now_ms: i64,
) -> rusqlite::Result<Option<CustomerSubscription>> {
    let hook = subscription_hooks::hook_of(conn, id)?;
    let changed = conn.prepare_cached(CANCEL)?.execute(params![
        id.as_str(),
        now_ms,
        reason.map(PlatformCancelReason::as_str)
    ])?;
    if changed == 1 {
        subscription_hooks::enqueue(
            conn,
            hook.and_then(|hook| hook.canceled(reason.map(|reason| reason.as_str().to_owned()), now_ms)),
            now_ms,
        )?;
    }
    fetch_subscription(conn, id)
}
