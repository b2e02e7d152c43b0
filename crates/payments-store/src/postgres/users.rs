//! User writes on PostgreSQL: profiles with their metric rows, heartbeats (the row locked while the live
//! session is decided), follows, and the purchase credits receipt transitions apply.

use crate::postgres::connection::{PgClient, Queries};
use payments_core::{Cents, Wallet, xp_for_spending};
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::rows;
use crate::rows::{ProfileColumns, UserRow, profile_metrics};
use payments_domain::user::{FollowOutcome, Heartbeat, ProfileUpdate, User, next_live_since};

/// The columns every user read selects, read by name in [`user_from_row`].
macro_rules! user_columns {
    () => {
        "users.wallet, users.display_name, users.pfp_url, users.space_url, users.domains_json,
        users.platforms_json, users.languages_json, users.xp, users.live, users.space_public, users.live_since,
        users.live_platform, users.last_heartbeat, users.last_seen"
    };
}
pub(super) use user_columns;

const FETCH_LISTED: &str = concat!(
    "SELECT ",
    user_columns!(),
    " FROM users WHERE wallet = $1 AND listed_at IS NOT NULL"
);
const SAVE_PROFILE: &str =
    "INSERT INTO users (wallet, display_name, name_key, pfp_url, space_url, domains_json,
    platforms_json, languages_json, last_seen, listed_at, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9, $9)
    ON CONFLICT (wallet) DO UPDATE SET display_name = excluded.display_name, name_key = excluded.name_key,
        pfp_url = excluded.pfp_url, space_url = excluded.space_url, domains_json = excluded.domains_json,
        platforms_json = excluded.platforms_json, languages_json = excluded.languages_json,
        last_seen = excluded.last_seen, listed_at = COALESCE(users.listed_at, excluded.listed_at),
        updated_at = excluded.updated_at
    RETURNING id";
const CLEAR_METRICS: &str = "DELETE FROM user_metrics WHERE user_id = $1";
const INSERT_METRIC: &str =
    "INSERT INTO user_metrics (kind, value, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
/// Makes sure the row exists, so the heartbeat can lock it.
const ENSURE: &str = "INSERT INTO users (wallet, created_at, updated_at) VALUES ($1, $2, $2)
    ON CONFLICT (wallet) DO NOTHING";
const LOCK_PRESENCE: &str = "SELECT last_heartbeat, live_since FROM users WHERE wallet = $1 FOR UPDATE";
const SAVE_HEARTBEAT: &str = "UPDATE users SET live = $2, space_public = $3, live_since = $4, live_platform = $5,
    last_heartbeat = $6, last_seen = $6, listed_at = COALESCE(listed_at, $6), updated_at = $6 WHERE wallet = $1";
/// Lists the wallet (a follow is a write as itself) and marks it seen.
const SEEN: &str = "INSERT INTO users (wallet, last_seen, listed_at, created_at, updated_at)
    VALUES ($1, $2, $2, $2, $2)
    ON CONFLICT (wallet) DO UPDATE SET last_seen = excluded.last_seen,
        listed_at = COALESCE(users.listed_at, excluded.listed_at), updated_at = excluded.updated_at";
const IS_LISTED: &str = "SELECT EXISTS (SELECT 1 FROM users WHERE wallet = $1 AND listed_at IS NOT NULL)";
const FOLLOW: &str = "INSERT INTO user_follows (follower, followed, created_at) VALUES ($1, $2, $3)
    ON CONFLICT DO NOTHING";
const UNFOLLOW: &str = "DELETE FROM user_follows WHERE follower = $1 AND followed = $2";
const TOUCH: &str = "UPDATE users SET last_seen = $2, updated_at = $2 WHERE wallet = $1";
const CREDIT: &str =
    "INSERT INTO users (wallet, purchase_cents, created_at, updated_at) VALUES ($1, $2, $3, $3)
    ON CONFLICT (wallet) DO UPDATE SET purchase_cents = users.purchase_cents + excluded.purchase_cents,
        updated_at = excluded.updated_at
    RETURNING purchase_cents, subscription_cents";
/// Subscription charges count towards xp as purchases do (`payments_core::xp_for_spending`).
const CREDIT_SUBSCRIPTIONS: &str =
    "INSERT INTO users (wallet, subscription_cents, created_at, updated_at) VALUES ($1, $2, $3, $3)
    ON CONFLICT (wallet) DO UPDATE SET subscription_cents = users.subscription_cents + excluded.subscription_cents,
        updated_at = excluded.updated_at
    RETURNING purchase_cents, subscription_cents";
const SET_XP: &str = "UPDATE users SET xp = $2 WHERE wallet = $1";

pub(super) fn user_from_row(row: &Row) -> Result<User, PgError> {
    UserRow {
        wallet: rows::get(row, "wallet")?,
        display_name: rows::get(row, "display_name")?,
        pfp_url: rows::get(row, "pfp_url")?,
        space_url: rows::get(row, "space_url")?,
        domains_json: rows::get(row, "domains_json")?,
        platforms_json: rows::get(row, "platforms_json")?,
        languages_json: rows::get(row, "languages_json")?,
        xp: rows::get(row, "xp")?,
        live: rows::get(row, "live")?,
        space_public: rows::get(row, "space_public")?,
        live_since: rows::get(row, "live_since")?,
        live_platform: rows::get(row, "live_platform")?,
        last_heartbeat: rows::get(row, "last_heartbeat")?,
        last_seen: rows::get(row, "last_seen")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a user", error))
}

pub(super) async fn fetch(client: &impl Queries, wallet: Wallet) -> Result<Option<User>, PgError> {
    let statement = client.prepare_cached(FETCH_LISTED).await?;
    let row = client.query_opt(&statement, &[&wallet.to_string()]).await?;
    row.map(|row| user_from_row(&row)).transpose()
}

/// Reads back what a write just stored; a missing row means the write did not happen as it said.
async fn fetch_written(client: &impl Queries, wallet: Wallet) -> Result<User, PgError> {
    fetch(client, wallet)
        .await?
        .ok_or_else(|| PgError::corrupt(format_args!("user {wallet}"), "vanished after its write"))
}

pub(super) async fn save_profile(mut client: PgClient, update: &ProfileUpdate) -> Result<User, PgError> {
    let tx = client.transaction().await?;
    let columns = ProfileColumns::of(update).map_err(|error| PgError::corrupt("profile to store", error))?;
    let save = tx.prepare_cached(SAVE_PROFILE).await?;
    let row = tx
        .query_one(
            &save,
            &[
                &columns.wallet,
                &columns.display_name,
                &columns.name_key,
                &columns.pfp_url,
                &columns.space_url,
                &columns.domains_json,
                &columns.platforms_json,
                &columns.languages_json,
                &columns.now_ms,
            ],
        )
        .await?;
    let id: i64 = rows::get(&row, "id")?;
    let clear = tx.prepare_cached(CLEAR_METRICS).await?;
    tx.execute(&clear, &[&id]).await?;
    let insert = tx.prepare_cached(INSERT_METRIC).await?;
    for (kind, value) in profile_metrics(update) {
        tx.execute(&insert, &[&kind, &value, &id]).await?;
    }
    let user = fetch_written(&tx, update.wallet).await?;
    tx.commit().await?;
    Ok(user)
}

pub(super) async fn heartbeat(mut client: PgClient, beat: &Heartbeat) -> Result<User, PgError> {
    let tx = client.transaction().await?;
    let wallet = beat.wallet.to_string();
    let ensure = tx.prepare_cached(ENSURE).await?;
    tx.execute(&ensure, &[&wallet, &beat.now_ms]).await?;
    let lock = tx.prepare_cached(LOCK_PRESENCE).await?;
    let row = tx.query_one(&lock, &[&wallet]).await?;
    let live_since = next_live_since(
        beat,
        rows::get(&row, "last_heartbeat")?,
        rows::get(&row, "live_since")?,
    );
    let save = tx.prepare_cached(SAVE_HEARTBEAT).await?;
    tx.execute(
        &save,
        &[
            &wallet,
            &beat.live,
            &beat.space_public,
            &live_since,
            &beat.platform,
            &beat.now_ms,
        ],
    )
    .await?;
    let user = fetch_written(&tx, beat.wallet).await?;
    tx.commit().await?;
    Ok(user)
}

pub(super) async fn follow(
    mut client: PgClient,
    follower: Wallet,
    followed: Wallet,
    now_ms: i64,
) -> Result<FollowOutcome, PgError> {
    let tx = client.transaction().await?;
    let is_listed = tx.prepare_cached(IS_LISTED).await?;
    let listed: bool = rows::get(
        &tx.query_one(&is_listed, &[&followed.to_string()]).await?,
        "exists",
    )?;
    if !listed {
        return Ok(FollowOutcome::UnknownUser);
    }
    let seen = tx.prepare_cached(SEEN).await?;
    tx.execute(&seen, &[&follower.to_string(), &now_ms]).await?;
    let insert = tx.prepare_cached(FOLLOW).await?;
    let inserted = tx
        .execute(&insert, &[&follower.to_string(), &followed.to_string(), &now_ms])
        .await?;
    tx.commit().await?;
    Ok(if inserted == 1 {
        FollowOutcome::Followed
    } else {
        FollowOutcome::AlreadyFollowing
    })
}

pub(super) async fn unfollow(
    mut client: PgClient,
    follower: Wallet,
    followed: Wallet,
    now_ms: i64,
) -> Result<bool, PgError> {
    let tx = client.transaction().await?;
    let delete = tx.prepare_cached(UNFOLLOW).await?;
    let removed = tx
        .execute(&delete, &[&follower.to_string(), &followed.to_string()])
        .await?;
    let touch = tx.prepare_cached(TOUCH).await?;
    tx.execute(&touch, &[&follower.to_string(), &now_ms]).await?;
    tx.commit().await?;
    Ok(removed == 1)
}

/// Adds `change` to the buyer's purchases and recomputes its xp (inside the transition's transaction).
pub(super) async fn credit_purchases(
    tx: &impl Queries,
    buyer: Wallet,
    change: Cents,
    now_ms: i64,
) -> Result<(), PgError> {
    credit(tx, CREDIT, buyer, change, now_ms).await
}

/// Adds a charged amount to the customer's subscription spending and recomputes its xp (inside the
/// transaction that records the charge).
pub(super) async fn credit_subscriptions(
    tx: &impl Queries,
    customer: Wallet,
    amount: Cents,
    now_ms: i64,
) -> Result<(), PgError> {
    credit(tx, CREDIT_SUBSCRIPTIONS, customer, amount, now_ms).await
}

/// Runs one of the credit upserts (which answer both totals) and stores the xp they make.
async fn credit(
    tx: &impl Queries,
    upsert: &str,
    wallet: Wallet,
    change: Cents,
    now_ms: i64,
) -> Result<(), PgError> {
    let wallet = wallet.to_string();
    let credit = tx.prepare_cached(upsert).await?;
    let row = tx
        .query_one(&credit, &[&wallet, &change.as_i64(), &now_ms])
        .await?;
    let xp = xp_for_spending(
        Cents::new(rows::get(&row, "purchase_cents")?),
        Cents::new(rows::get(&row, "subscription_cents")?),
    );
    let set = tx.prepare_cached(SET_XP).await?;
    tx.execute(&set, &[&wallet, &xp]).await?;
    Ok(())
}
