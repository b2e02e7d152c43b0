//! `instance_settings` rows (v12): values every instance on the database agrees on; the first writer wins.

use rusqlite::{Connection, OptionalExtension, params};

const FETCH: &str = "SELECT value FROM instance_settings WHERE name = ?1";
const RECORD_UNLESS_PRESENT: &str =
    "INSERT INTO instance_settings (name, value, recorded_at) VALUES (?1, ?2, ?3)
    ON CONFLICT (name) DO NOTHING";

pub(super) fn fetch(conn: &Connection, name: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(FETCH)?
        .query_row(params![name], |row| row.get(0))
        .optional()
}

/// Records `proposed` unless a value is there; answers the value there now (in the same transaction).
pub(super) fn record(tx: &Connection, name: &str, proposed: &str, now_ms: i64) -> rusqlite::Result<String> {
    tx.prepare_cached(RECORD_UNLESS_PRESENT)?
        .execute(params![name, proposed, now_ms])?;
    tx.prepare_cached(FETCH)?
        .query_row(params![name], |row| row.get(0))
}
