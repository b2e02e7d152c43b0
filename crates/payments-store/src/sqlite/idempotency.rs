//! Idempotency keys, checked and kept inside the use case's own transaction (per merchant and route). The
//! single writer serializes transactions, so a concurrent duplicate runs after the first committed and
//! finds its kept response.

use rusqlite::{Connection, OptionalExtension, params};

use crate::{IdempotencyClaim, IdempotentResponse};

const FETCH: &str = "SELECT request_hash, status, body FROM idempotency_keys
    WHERE wallet = ?1 AND scope = ?2 AND key = ?3 AND created_at >= ?4";
/// Keys past their retention go first, so an expired key can be used again.
const PURGE: &str = "DELETE FROM idempotency_keys WHERE created_at < ?1";
const KEEP: &str = "INSERT INTO idempotency_keys (wallet, scope, key, request_hash, status, body, created_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

/// What an earlier use of the claimed key left.
#[derive(Debug)]
pub(super) enum Claimed {
    /// Unused (or expired): the use case runs.
    Fresh,
    /// Used with the same body: its response.
    Replay(IdempotentResponse),
    /// Used with another body.
    Conflict,
}

pub(super) fn claim(conn: &Connection, claim: &IdempotencyClaim) -> rusqlite::Result<Claimed> {
    conn.prepare_cached(PURGE)?.execute([claim.not_before_ms()])?;
    Ok(match kept(conn, claim)? {
        None => Claimed::Fresh,
        Some(stored) if stored.request_hash == claim.request_hash => Claimed::Replay(stored),
        Some(_) => Claimed::Conflict,
    })
}

/// The response kept under the claimed key within its retention (whatever the body it was kept for).
pub(super) fn kept(
    conn: &Connection,
    claim: &IdempotencyClaim,
) -> rusqlite::Result<Option<IdempotentResponse>> {
    conn.prepare_cached(FETCH)?
        .query_row(
            params![
                claim.wallet.to_string(),
                claim.scope,
                claim.key,
                claim.not_before_ms()
            ],
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

/// Keeps the use case's response under the claimed key, in the use case's transaction.
pub(super) fn keep(
    conn: &Connection,
    claim: &IdempotencyClaim,
    response: &IdempotentResponse,
) -> rusqlite::Result<()> {
    conn.prepare_cached(KEEP)?.execute(params![
        claim.wallet.to_string(),
        claim.scope,
        claim.key,
        claim.request_hash,
        response.status,
        response.body,
        claim.now_ms
    ])?;
    Ok(())
}
