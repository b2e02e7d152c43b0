//! Subscription (key) rows.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::rows::{KeyRow, rotated};
use crate::sqlite::rows;
use payments_domain::api_key::{KeyHash, SubscriptionId};
use payments_domain::subscription::{NewSubscription, Subscription};

const FETCH_ACTIVE_BY_KEY: &str = "SELECT public_id, wallet, scopes, name, created_at, revoked_at
    FROM subscriptions WHERE key_hash = ?1 AND revoked_at IS NULL";
const FETCH_ACTIVE_BY_ID: &str = "SELECT public_id, wallet, scopes, name, created_at, revoked_at
    FROM subscriptions WHERE public_id = ?1 AND revoked_at IS NULL";
const LIST: &str = "SELECT public_id, wallet, scopes, name, created_at, revoked_at
    FROM subscriptions ORDER BY created_at, id";
const INSERT: &str = "INSERT INTO subscriptions (public_id, key_hash, wallet, scopes, name, created_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
const INSERT_IF_NONE_EXIST: &str =
    "INSERT INTO subscriptions (public_id, key_hash, wallet, scopes, name, created_at)
    SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM subscriptions)";
const REVOKE: &str = "UPDATE subscriptions SET revoked_at = ?2 WHERE public_id = ?1 AND revoked_at IS NULL";

fn subscription_from_row(row: &Row<'_>) -> rusqlite::Result<Subscription> {
    KeyRow {
        public_id: row.get(0)?,
        wallet: row.get(1)?,
        scopes: row.get(2)?,
        name: row.get(3)?,
        created_at: row.get(4)?,
        revoked_at: row.get(5)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

pub(super) fn fetch_active_by_key(
    conn: &Connection,
    hash: &KeyHash,
) -> rusqlite::Result<Option<Subscription>> {
    conn.prepare_cached(FETCH_ACTIVE_BY_KEY)?
        .query_row([hash.as_str()], subscription_from_row)
        .optional()
}

pub(super) fn fetch_active(conn: &Connection, id: &SubscriptionId) -> rusqlite::Result<Option<Subscription>> {
    conn.prepare_cached(FETCH_ACTIVE_BY_ID)?
        .query_row([id.as_str()], subscription_from_row)
        .optional()
}

pub(super) fn list(conn: &Connection) -> rusqlite::Result<Vec<Subscription>> {
    let mut statement = conn.prepare(LIST)?;
    statement.query_map([], subscription_from_row)?.collect()
}

fn insert_with(tx: &Connection, sql: &str, new: &NewSubscription) -> rusqlite::Result<usize> {
    tx.prepare_cached(sql)?.execute(params![
        new.id.as_str(),
        new.key_hash.as_str(),
        new.wallet.to_string(),
        new.scopes.to_string(),
        new.name,
        new.created_at
    ])
}

pub(super) fn insert(tx: &Connection, new: &NewSubscription) -> rusqlite::Result<()> {
    insert_with(tx, INSERT, new).map(|_| ())
}

pub(super) fn insert_if_none_exist(tx: &Connection, new: &NewSubscription) -> rusqlite::Result<bool> {
    insert_with(tx, INSERT_IF_NONE_EXIST, new).map(|inserted| inserted == 1)
}

pub(super) fn revoke(tx: &Connection, id: &SubscriptionId, now_ms: i64) -> rusqlite::Result<bool> {
    tx.prepare_cached(REVOKE)?
        .execute(params![id.as_str(), now_ms])
        .map(|changed| changed == 1)
}

pub(super) fn rotate(
    tx: &Connection,
    id: &SubscriptionId,
    replacement_id: &SubscriptionId,
    replacement_hash: &KeyHash,
    now_ms: i64,
) -> rusqlite::Result<Option<Subscription>> {
    let Some(old) = fetch_active(tx, id)? else {
        return Ok(None);
    };
    revoke(tx, id, now_ms)?;
    let replacement = rotated(old, replacement_id, replacement_hash, now_ms);
    insert(tx, &replacement)?;
    fetch_active(tx, replacement_id)
}
