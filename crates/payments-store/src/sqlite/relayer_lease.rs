//! The relayer's send lease (see `RecurringRepository::acquire_send_lease`).

use rusqlite::{Connection, OptionalExtension, params};

/// Taken when free, expired, or already this owner's (then extended).
const ACQUIRE: &str = "INSERT INTO relayer_send_leases (relayer, owner, lease_until) VALUES (?1, ?2, ?3)
    ON CONFLICT (relayer) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
    WHERE relayer_send_leases.lease_until <= ?4 OR relayer_send_leases.owner = excluded.owner
    RETURNING owner";
const RELEASE: &str = "DELETE FROM relayer_send_leases WHERE relayer = ?1 AND owner = ?2";

pub(super) fn acquire(
    conn: &Connection,
    relayer: &str,
    owner: &str,
    now_ms: i64,
    until_ms: i64,
) -> rusqlite::Result<bool> {
    let taken: Option<String> = conn
        .prepare_cached(ACQUIRE)?
        .query_row(params![relayer, owner, until_ms, now_ms], |row| row.get(0))
        .optional()?;
    Ok(taken.is_some())
}

pub(super) fn release(conn: &Connection, relayer: &str, owner: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(RELEASE)?.execute(params![relayer, owner])?;
    Ok(())
}
