//! User writes: profiles with their metric rows, heartbeats, follows, and the purchase credits receipt
//! transitions apply. Each runs inside one writer transaction.

use payments_core::{Cents, Wallet, xp_for_spending};
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::rows::{ProfileColumns, UserRow, profile_metrics};
use crate::sqlite::rows;
use payments_domain::user::{FollowOutcome, Heartbeat, ProfileUpdate, User, next_live_since};

/// The columns every user read selects, in [`user_from_row`]'s order.
macro_rules! user_columns {
    () => {
        "wallet, display_name, pfp_url, space_url, domains_json, platforms_json, languages_json, xp, live,
        space_public, live_since, live_platform, last_heartbeat, last_seen"
    };
}
pub(super) use user_columns;

const FETCH_LISTED: &str = concat!(
    "SELECT ",
    user_columns!(),
    " FROM users WHERE wallet = ?1 AND listed_at IS NOT NULL"
);
const SAVE_PROFILE: &str =
    "INSERT INTO users (wallet, display_name, name_key, pfp_url, space_url, domains_json,
    platforms_json, languages_json, last_seen, listed_at, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?9, ?9)
    ON CONFLICT (wallet) DO UPDATE SET display_name = excluded.display_name, name_key = excluded.name_key,
        pfp_url = excluded.pfp_url, space_url = excluded.space_url, domains_json = excluded.domains_json,
        platforms_json = excluded.platforms_json, languages_json = excluded.languages_json,
        last_seen = excluded.last_seen, listed_at = COALESCE(users.listed_at, excluded.listed_at),
        updated_at = excluded.updated_at
    RETURNING id";
const CLEAR_METRICS: &str = "DELETE FROM user_metrics WHERE user_id = ?1";
const INSERT_METRIC: &str = "INSERT OR IGNORE INTO user_metrics (kind, value, user_id) VALUES (?1, ?2, ?3)";
const PRESENCE: &str = "SELECT last_heartbeat, live_since FROM users WHERE wallet = ?1";
const SAVE_HEARTBEAT: &str = "INSERT INTO users (wallet, live, space_public, live_since, live_platform,
    last_heartbeat, last_seen, listed_at, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?6, ?6, ?6)
    ON CONFLICT (wallet) DO UPDATE SET live = excluded.live, space_public = excluded.space_public,
        live_since = excluded.live_since, live_platform = excluded.live_platform,
        last_heartbeat = excluded.last_heartbeat, last_seen = excluded.last_seen,
        listed_at = COALESCE(users.listed_at, excluded.listed_at), updated_at = excluded.updated_at";
/// Lists the wallet (a follow is a write as itself) and marks it seen.
const SEEN: &str = "INSERT INTO users (wallet, last_seen, listed_at, created_at, updated_at)
    VALUES (?1, ?2, ?2, ?2, ?2)
    ON CONFLICT (wallet) DO UPDATE SET last_seen = excluded.last_seen,
        listed_at = COALESCE(users.listed_at, excluded.listed_at), updated_at = excluded.updated_at";
const IS_LISTED: &str = "SELECT EXISTS (SELECT 1 FROM users WHERE wallet = ?1 AND listed_at IS NOT NULL)";
const FOLLOW: &str =
    "INSERT OR IGNORE INTO user_follows (follower, followed, created_at) VALUES (?1, ?2, ?3)";
const UNFOLLOW: &str = "DELETE FROM user_follows WHERE follower = ?1 AND followed = ?2";
const TOUCH: &str = "UPDATE users SET last_seen = ?2, updated_at = ?2 WHERE wallet = ?1";
const CREDIT: &str =
    "INSERT INTO users (wallet, purchase_cents, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
    ON CONFLICT (wallet) DO UPDATE SET purchase_cents = users.purchase_cents + excluded.purchase_cents,
        updated_at = excluded.updated_at
    RETURNING purchase_cents, subscription_cents";
/// Subscription charges count towards xp as purchases do (`payments_core::xp_for_spending`).
const CREDIT_SUBSCRIPTIONS: &str =
    "INSERT INTO users (wallet, subscription_cents, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
    ON CONFLICT (wallet) DO UPDATE SET subscription_cents = users.subscription_cents + excluded.subscription_cents,
        updated_at = excluded.updated_at
    RETURNING purchase_cents, subscription_cents";
const SET_XP: &str = "UPDATE users SET xp = ?2 WHERE wallet = ?1";

pub(super) fn user_from_row(row: &Row<'_>) -> rusqlite::Result<User> {
    UserRow {
        wallet: row.get(0)?,
        display_name: row.get(1)?,
        pfp_url: row.get(2)?,
        space_url: row.get(3)?,
        domains_json: row.get(4)?,
        platforms_json: row.get(5)?,
        languages_json: row.get(6)?,
        xp: row.get(7)?,
        live: row.get(8)?,
        space_public: row.get(9)?,
        live_since: row.get(10)?,
        live_platform: row.get(11)?,
        last_heartbeat: row.get(12)?,
        last_seen: row.get(13)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

pub(super) fn fetch(conn: &Connection, wallet: Wallet) -> rusqlite::Result<Option<User>> {
    conn.prepare_cached(FETCH_LISTED)?
        .query_row([wallet.to_string()], user_from_row)
        .optional()
}

/// Reads back what a write just stored; a missing row means the write did not happen as it said.
fn fetch_written(conn: &Connection, wallet: Wallet) -> rusqlite::Result<User> {
    fetch(conn, wallet)?.ok_or_else(|| rows::corrupt(0, format!("user {wallet} vanished after its write")))
}

pub(super) fn save_profile(conn: &Connection, update: &ProfileUpdate) -> rusqlite::Result<User> {
    let columns = ProfileColumns::of(update)
        .map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
    let id: i64 = conn.prepare_cached(SAVE_PROFILE)?.query_row(
        params![
            columns.wallet,
            columns.display_name,
            columns.name_key,
            columns.pfp_url,
            columns.space_url,
            columns.domains_json,
            columns.platforms_json,
            columns.languages_json,
            columns.now_ms,
        ],
        |row| row.get(0),
    )?;
    conn.prepare_cached(CLEAR_METRICS)?.execute([id])?;
    let mut insert = conn.prepare_cached(INSERT_METRIC)?;
    for (kind, value) in profile_metrics(update) {
        insert.execute(params![kind, value, id])?;
    }
    fetch_written(conn, update.wallet)
}

pub(super) fn heartbeat(conn: &Connection, beat: &Heartbeat) -> rusqlite::Result<User> {
    let wallet = beat.wallet.to_string();
    let (previous_beat, previous_since) = conn
        .prepare_cached(PRESENCE)?
        .query_row([&wallet], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?
        .unwrap_or((None, None));
    let live_since = next_live_since(beat, previous_beat, previous_since);
    conn.prepare_cached(SAVE_HEARTBEAT)?.execute(params![
        wallet,
        beat.live,
        beat.space_public,
        live_since,
        beat.platform,
        beat.now_ms,
    ])?;
    fetch_written(conn, beat.wallet)
}

pub(super) fn follow(
    conn: &Connection,
    follower: Wallet,
    followed: Wallet,
    now_ms: i64,
) -> rusqlite::Result<FollowOutcome> {
    let listed: bool = conn
        .prepare_cached(IS_LISTED)?
        .query_row([followed.to_string()], |row| row.get(0))?;
    if !listed {
        return Ok(FollowOutcome::UnknownUser);
    }
    conn.prepare_cached(SEEN)?
        .execute(params![follower.to_string(), now_ms])?;
    let inserted =
        conn.prepare_cached(FOLLOW)?
            .execute(params![follower.to_string(), followed.to_string(), now_ms])?;
    Ok(if inserted == 1 {
        FollowOutcome::Followed
    } else {
        FollowOutcome::AlreadyFollowing
    })
}

pub(super) fn unfollow(
    conn: &Connection,
    follower: Wallet,
    followed: Wallet,
    now_ms: i64,
) -> rusqlite::Result<bool> {
    let removed = conn
        .prepare_cached(UNFOLLOW)?
        .execute(params![follower.to_string(), followed.to_string()])?;
    conn.prepare_cached(TOUCH)?
        .execute(params![follower.to_string(), now_ms])?;
    Ok(removed == 1)
}

/// Adds `change` to the buyer's purchases and recomputes its xp (inside the transition's transaction).
pub(super) fn credit_purchases(
    conn: &Connection,
    buyer: Wallet,
    change: Cents,
    now_ms: i64,
) -> rusqlite::Result<()> {
    credit(conn, CREDIT, buyer, change, now_ms)
}

/// Adds a charged amount to the customer's subscription spending and recomputes its xp (inside the
/// transaction that records the charge).
pub(super) fn credit_subscriptions(
    conn: &Connection,
    customer: Wallet,
    amount: Cents,
    now_ms: i64,
) -> rusqlite::Result<()> {
    credit(conn, CREDIT_SUBSCRIPTIONS, customer, amount, now_ms)
}

/// Runs one of the credit upserts (which answer both totals) and stores the xp they make.
fn credit(
    conn: &Connection,
    upsert: &str,
    wallet: Wallet,
    change: Cents,
    now_ms: i64,
) -> rusqlite::Result<()> {
    let wallet = wallet.to_string();
    let (purchases, subscriptions): (i64, i64) = conn
        .prepare_cached(upsert)?
        .query_row(params![wallet, change.as_i64(), now_ms], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
    let xp = xp_for_spending(Cents::new(purchases), Cents::new(subscriptions));
    conn.prepare_cached(SET_XP)?.execute(params![wallet, xp])?;
    Ok(())
}
