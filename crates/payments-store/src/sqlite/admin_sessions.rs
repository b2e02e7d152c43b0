//! Sign-in nonces and admin sessions.

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::sqlite::rows;
use payments_domain::admin::{CsrfHash, NewAdminSession, SessionId, StoredAdminSession};

const PRUNE_NONCES: &str = "DELETE FROM admin_nonces WHERE expires_at <= ?1";
const INSERT_NONCE: &str = "INSERT INTO admin_nonces (nonce, wallet, expires_at) VALUES (?1, ?2, ?3)";
/// One statement: a nonce can be consumed once even by two sign-ins racing with the same signature.
const CONSUME_NONCE: &str =
    "DELETE FROM admin_nonces WHERE nonce = ?1 AND wallet = ?2 AND expires_at > ?3 RETURNING id";
const INSERT_SESSION: &str =
    "INSERT INTO admin_sessions (public_id, wallet, csrf_hash, created_at, expires_at)
    VALUES (?1, ?2, ?3, ?4, ?5)";
const FETCH_LIVE: &str = "SELECT public_id, wallet, csrf_hash, expires_at FROM admin_sessions
    WHERE public_id = ?1 AND revoked_at IS NULL AND expires_at > ?2";
const END: &str = "UPDATE admin_sessions SET revoked_at = ?2 WHERE public_id = ?1 AND revoked_at IS NULL";
const REVOKE_WALLET: &str =
    "UPDATE admin_sessions SET revoked_at = ?2 WHERE wallet = ?1 AND revoked_at IS NULL AND expires_at > ?2";

fn session_from_row(row: &Row<'_>) -> rusqlite::Result<StoredAdminSession> {
    Ok(StoredAdminSession {
        id: SessionId::new(row.get::<_, String>(0)?),
        wallet: rows::parsed(row, 1, Wallet::parse)?,
        csrf_hash: CsrfHash::from_stored(row.get(2)?),
        expires_at_ms: row.get(3)?,
    })
}

/// Stores a nonce; expired ones are dropped on the way so the table stays small.
pub(super) fn issue_nonce(
    tx: &Connection,
    wallet: Wallet,
    nonce: &str,
    expires_at_ms: i64,
    now_ms: i64,
) -> rusqlite::Result<()> {
    tx.prepare_cached(PRUNE_NONCES)?.execute([now_ms])?;
    tx.prepare_cached(INSERT_NONCE)?
        .execute(params![nonce, wallet.to_string(), expires_at_ms])
        .map(|_| ())
}

pub(super) fn open_session(
    tx: &Connection,
    nonce: &str,
    session: &NewAdminSession,
) -> rusqlite::Result<bool> {
    let wallet = session.wallet.to_string();
    let consumed: Option<i64> = tx
        .query_row(
            CONSUME_NONCE,
            params![nonce, wallet, session.created_at_ms],
            |row| row.get(0),
        )
        .optional()?;
    if consumed.is_none() {
        return Ok(false);
    }
    tx.prepare_cached(INSERT_SESSION)?.execute(params![
        session.id.as_str(),
        wallet,
        session.csrf_hash.as_str(),
        session.created_at_ms,
        session.expires_at_ms
    ])?;
    Ok(true)
}

pub(super) fn fetch_live(
    conn: &Connection,
    id: &SessionId,
    now_ms: i64,
) -> rusqlite::Result<Option<StoredAdminSession>> {
    conn.prepare_cached(FETCH_LIVE)?
        .query_row(params![id.as_str(), now_ms], session_from_row)
        .optional()
}

pub(super) fn end(tx: &Connection, id: &SessionId, now_ms: i64) -> rusqlite::Result<bool> {
    tx.prepare_cached(END)?
        .execute(params![id.as_str(), now_ms])
        .map(|changed| changed > 0)
}

pub(super) fn revoke_wallet(tx: &Connection, wallet: Wallet, now_ms: i64) -> rusqlite::Result<u64> {
    tx.prepare_cached(REVOKE_WALLET)?
        .execute(params![wallet.to_string(), now_ms])
        .map(|changed| changed as u64)
}
