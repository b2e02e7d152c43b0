//! Plans and customer subscriptions over PostgreSQL (the charge ledger is in `recurring_charges`).

use crate::postgres::connection::{PgClient, Queries};
use payments_core::{SpendPermissionData, Wallet};
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::{rows, subscription_hooks};
use crate::rows::{PlanRow, SubscriptionRow, plan_columns, webhook_columns};
use crate::{STATUS_LISTING_LIMIT, SubscriptionHook};
use payments_domain::recurring::{
    CreateSubscriptionOutcome, CustomerSubscription, CustomerSubscriptionId, NewCustomerSubscription, Plan,
    PlanId, PlanUpdate, PlatformCancelReason, StatusQuery,
};

/// The columns every subscription read selects, read by name in [`subscription_from_row`].
macro_rules! subscription_columns {
    () => {
        "s.id AS row_id, s.public_id, p.public_id AS plan_public_id, s.merchant, s.customer, s.price_cents,
        s.period, s.permission_json, s.signature, s.status, s.anchor_ms, s.next_period_index, s.next_charge_at,
        s.attempts, s.failed_periods, s.created_at, s.updated_at, s.canceled_at, s.cancel_reason,
        s.credit_units"
    };
}
pub(super) use subscription_columns;

const INSERT_PLAN: &str = "INSERT INTO subscription_plans (public_id, merchant, name, description,
    price_cents, period, active, created_at, updated_at, webhook_url, signing_key, trial_days)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
const FETCH_PLAN: &str = concat!(
    "SELECT ",
    plan_columns!(),
    " FROM subscription_plans WHERE public_id = $1"
);
const LOCK_PLAN: &str = concat!(
    "SELECT ",
    plan_columns!(),
    " FROM subscription_plans WHERE public_id = $1 FOR UPDATE"
);
const ACTIVE_PLANS: &str = concat!(
    "SELECT ",
    plan_columns!(),
    " FROM subscription_plans WHERE merchant = $1 AND active ORDER BY created_at, id"
);
const SAVE_PLAN: &str = "UPDATE subscription_plans SET name = $2, description = $3, price_cents = $4,
    period = $5, active = $6, updated_at = $7, webhook_url = $8, signing_key = $9 WHERE public_id = $1";
/// Locks the plan (shared), so a deactivation (or a webhook change) cannot slip between this check and the
/// insert.
const PLAN_ROW: &str =
    "SELECT id, webhook_url FROM subscription_plans WHERE public_id = $1 AND active FOR SHARE";
const INSERT_SUBSCRIPTION: &str =
    "INSERT INTO customer_subscriptions (public_id, plan_id, merchant, customer,
    price_cents, period, permission_json, signature, permission_hash, status, anchor_ms, next_period_index,
    next_charge_at, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $12, $10, 0, $10, $11, $11)
    ON CONFLICT (permission_hash) DO NOTHING
    RETURNING id";
const FETCH_SUBSCRIPTION: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id WHERE s.public_id = $1"
);
const BY_CUSTOMER: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id
    WHERE s.customer = $1 ORDER BY s.created_at DESC, s.id DESC LIMIT $2"
);
const BY_MERCHANT: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id
    WHERE s.merchant = $1 ORDER BY s.created_at DESC, s.id DESC LIMIT $2"
);
const CANCEL: &str =
    "UPDATE customer_subscriptions SET status = 'canceled', updated_at = $2, canceled_at = $2,
    cancel_reason = $3 WHERE public_id = $1 AND status <> 'canceled'";

fn plan_from_row(row: &Row) -> Result<Plan, PgError> {
    PlanRow {
        public_id: rows::get(row, "public_id")?,
        merchant: rows::get(row, "merchant")?,
        name: rows::get(row, "name")?,
        description: rows::get(row, "description")?,
        price_cents: rows::get(row, "price_cents")?,
        period: rows::get(row, "period")?,
        active: rows::get(row, "active")?,
        created_at: rows::get(row, "created_at")?,
        updated_at: rows::get(row, "updated_at")?,
        webhook_url: rows::get(row, "webhook_url")?,
        signing_key: rows::get(row, "signing_key")?,
        trial_days: i64::from(rows::get::<i32>(row, "trial_days")?),
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a plan", error))
}

pub(super) fn subscription_from_row(row: &Row) -> Result<CustomerSubscription, PgError> {
    SubscriptionRow {
        public_id: rows::get(row, "public_id")?,
        plan_public_id: rows::get(row, "plan_public_id")?,
        merchant: rows::get(row, "merchant")?,
        customer: rows::get(row, "customer")?,
        price_cents: rows::get(row, "price_cents")?,
        period: rows::get(row, "period")?,
        permission_json: rows::get(row, "permission_json")?,
        signature: rows::get(row, "signature")?,
        status: rows::get(row, "status")?,
        anchor_ms: rows::get(row, "anchor_ms")?,
        next_period_index: rows::get(row, "next_period_index")?,
        next_charge_at: rows::get(row, "next_charge_at")?,
        attempts: rows::get(row, "attempts")?,
        failed_periods: rows::get(row, "failed_periods")?,
        created_at: rows::get(row, "created_at")?,
        updated_at: rows::get(row, "updated_at")?,
        canceled_at: rows::get(row, "canceled_at")?,
        cancel_reason: rows::get(row, "cancel_reason")?,
        credit_units: rows::get(row, "credit_units")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a customer subscription", error))
}

pub(super) async fn create_plan(client: &impl Queries, plan: &Plan) -> Result<(), PgError> {
    let (webhook_url, signing_key) = webhook_columns(plan);
    let statement = client.prepare_cached(INSERT_PLAN).await?;
    client
        .execute(
            &statement,
            &[
                &plan.id.as_str(),
                &plan.merchant.to_string(),
                &plan.name,
                &plan.description,
                &plan.price.as_i64(),
                &plan.period.as_str(),
                &plan.active,
                &plan.created_at,
                &plan.updated_at,
                &webhook_url,
                &signing_key,
                &i32::from(plan.trial_days.days()),
            ],
        )
        .await?;
    Ok(())
}

pub(super) async fn fetch_plan(client: &impl Queries, id: &PlanId) -> Result<Option<Plan>, PgError> {
    let statement = client.prepare_cached(FETCH_PLAN).await?;
    let row = client.query_opt(&statement, &[&id.as_str()]).await?;
    row.map(|row| plan_from_row(&row)).transpose()
}

pub(super) async fn active_plans(client: &impl Queries, merchant: Wallet) -> Result<Vec<Plan>, PgError> {
    let statement = client.prepare_cached(ACTIVE_PLANS).await?;
    let rows = client.query(&statement, &[&merchant.to_string()]).await?;
    rows.iter().map(plan_from_row).collect()
}

pub(super) async fn update_plan(mut client: PgClient, update: &PlanUpdate) -> Result<Option<Plan>, PgError> {
    let tx = client.transaction().await?;
    let lock = tx.prepare_cached(LOCK_PLAN).await?;
    let row = tx.query_opt(&lock, &[&update.id.as_str()]).await?;
    let Some(plan) = row
        .map(|row| plan_from_row(&row))
        .transpose()?
        .filter(|plan| plan.merchant == update.merchant)
    else {
        return Ok(None);
    };
    let updated = update.apply(&plan);
    let (webhook_url, signing_key) = webhook_columns(&updated);
    let save = tx.prepare_cached(SAVE_PLAN).await?;
    tx.execute(
        &save,
        &[
            &updated.id.as_str(),
            &updated.name,
            &updated.description,
            &updated.price.as_i64(),
            &updated.period.as_str(),
            &updated.active,
            &updated.updated_at,
            &webhook_url,
            &signing_key,
        ],
    )
    .await?;
    tx.commit().await?;
    Ok(Some(updated))
}

/// Inserts the subscription in the caller's transaction ([`super::recurring_create`]), which commits it.
pub(super) async fn create_subscription(
    tx: &impl Queries,
    new: &NewCustomerSubscription,
    now_ms: i64,
) -> Result<CreateSubscriptionOutcome, PgError> {
    let plan = tx.prepare_cached(PLAN_ROW).await?;
    let Some(plan_row) = tx.query_opt(&plan, &[&new.plan_id.as_str()]).await? else {
        return Ok(CreateSubscriptionOutcome::PlanUnavailable);
    };
    let webhook_url: Option<String> = rows::get(&plan_row, "webhook_url")?;
    let plan_row: i64 = rows::get(&plan_row, "id")?;
    let insert = tx.prepare_cached(INSERT_SUBSCRIPTION).await?;
    let inserted = tx
        .query_opt(
            &insert,
            &[
                &new.id.as_str(),
                &plan_row,
                &new.merchant.to_string(),
                &new.customer.to_string(),
                &new.price.as_i64(),
                &new.period.as_str(),
                &rows::to_json(&SpendPermissionData::from(&new.permission))?,
                &new.signature,
                &new.permission_hash,
                &new.anchor_ms,
                &now_ms,
                &new.initial_status(now_ms).as_str(),
            ],
        )
        .await?;
    let Some(inserted) = inserted else {
        return Ok(CreateSubscriptionOutcome::PermissionReused);
    };
    // Its webhook commits with it, in the caller's transaction.
    let hook = SubscriptionHook::of_new(new, rows::get(&inserted, "id")?, webhook_url, now_ms);
    subscription_hooks::enqueue(tx, hook.created(now_ms), now_ms).await?;
    Ok(CreateSubscriptionOutcome::Created(Box::new(new.stored(now_ms))))
}

pub(super) async fn fetch_subscription(
    client: &impl Queries,
    id: &CustomerSubscriptionId,
) -> Result<Option<CustomerSubscription>, PgError> {
    let statement = client.prepare_cached(FETCH_SUBSCRIPTION).await?;
    let row = client.query_opt(&statement, &[&id.as_str()]).await?;
    row.map(|row| subscription_from_row(&row)).transpose()
}

pub(super) async fn find_subscriptions(
    client: &impl Queries,
    query: &StatusQuery,
) -> Result<Vec<CustomerSubscription>, PgError> {
    let (sql, wallet) = match query {
        StatusQuery::Id(id) => return Ok(fetch_subscription(client, id).await?.into_iter().collect()),
        StatusQuery::Customer(wallet) => (BY_CUSTOMER, wallet),
        StatusQuery::Merchant(wallet) => (BY_MERCHANT, wallet),
    };
    let statement = client.prepare_cached(sql).await?;
    let rows = client
        .query(
            &statement,
            &[&wallet.to_string(), &i64::from(STATUS_LISTING_LIMIT)],
        )
        .await?;
    rows.iter().map(subscription_from_row).collect()
}

/// Cancels with its `subscription.canceled` webhook in one transaction; the row lock taken first orders it
/// against a settlement of the same subscription.
pub(super) async fn cancel_subscription(
    mut client: PgClient,
    id: &CustomerSubscriptionId,
    reason: Option<PlatformCancelReason>,
    now_ms: i64,
) -> Result<Option<CustomerSubscription>, PgError> {
    let tx = client.transaction().await?;
    let hook = subscription_hooks::hook_of(&tx, id).await?;
    let statement = tx.prepare_cached(CANCEL).await?;
    let changed = tx
        .execute(
            &statement,
            &[&id.as_str(), &now_ms, &reason.map(PlatformCancelReason::as_str)],
        )
        .await?;
    if changed == 1 {
        subscription_hooks::enqueue(
            &tx,
            hook.and_then(|hook| hook.canceled(reason.map(|reason| reason.as_str().to_owned()), now_ms)),
            now_ms,
        )
        .await?;
    }
    let canceled = fetch_subscription(&tx, id).await?;
    tx.commit().await?;
    Ok(canceled)
}
