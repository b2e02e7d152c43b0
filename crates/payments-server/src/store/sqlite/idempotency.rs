//! Stored first responses of requests that carried an `Idempotency-Key`, per merchant and route.

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::store::IdempotentResponse;

const FETCH: &str = "SELECT request_hash, status, body FROM idempotency_keys
    WHERE wallet = ?1 AND scope = ?2 AND key = ?3 AND created_at >= ?4";
/// Keys past their retention go first, so an expired key can be used again.
const PURGE: &str = "DELETE FROM idempotency_keys WHERE created_at < ?1";
/// The first response wins: a concurrent duplicate that finished second does not overwrite it.
const SAVE: &str = "INSERT INTO idempotency_keys (wallet, scope, key, request_hash, status, body, created_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (wallet, scope, key) DO NOTHING";

pub(super) fn fetch(
    conn: &Connection,
    wallet: Wallet,
    scope: &str,
    key: &str,
    not_before_ms: i64,
) -> rusqlite::Result<Option<IdempotentResponse>> {
    conn.query_row(
        FETCH,
        params![wallet.to_string(), scope, key, not_before_ms],
        |row| {
            Ok(IdempotentResponse {
                request_hash: row.get(0)?,
                status: row.get(1)?,
                body: row.get(2)?,
            })
        },
    )
    .optional()
}

pub(super) fn save(
    tx: &Transaction<'_>,
    wallet: Wallet,
    scope: &str,
    key: &str,
    response: &IdempotentResponse,
    now_ms: i64,
    not_before_ms: i64,
) -> rusqlite::Result<()> {
    tx.execute(PURGE, [not_before_ms])?;
    tx.execute(
        SAVE,
        params![
            wallet.to_string(),
            scope,
            key,
            response.request_hash,
            response.status,
            response.body,
            now_ms
        ],
    )?;
    Ok(())
}
