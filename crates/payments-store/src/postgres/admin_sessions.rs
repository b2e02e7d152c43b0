//! Sign-in nonces, admin sessions and [`SessionRepository`].

use crate::postgres::connection::{PgClient, Queries};
use async_trait::async_trait;
use payments_core::Wallet;
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::{PgStore, rows};
use crate::{SessionRepository, StoreError};
use payments_domain::admin::{CsrfHash, NewAdminSession, SessionId, StoredAdminSession};

const PRUNE_NONCES: &str = "DELETE FROM admin_nonces WHERE expires_at <= $1";
const INSERT_NONCE: &str = "INSERT INTO admin_nonces (nonce, wallet, expires_at) VALUES ($1, $2, $3)";
/// One statement: a nonce is consumed once even by two sign-ins racing with the same signature (the
/// second waits for the first's delete, then finds nothing).
const CONSUME_NONCE: &str =
    "DELETE FROM admin_nonces WHERE nonce = $1 AND wallet = $2 AND expires_at > $3 RETURNING id";
const INSERT_SESSION: &str =
    "INSERT INTO admin_sessions (public_id, wallet, csrf_hash, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5)";
const FETCH_LIVE: &str = "SELECT public_id, wallet, csrf_hash, expires_at FROM admin_sessions
    WHERE public_id = $1 AND revoked_at IS NULL AND expires_at > $2";
const END: &str = "UPDATE admin_sessions SET revoked_at = $2 WHERE public_id = $1 AND revoked_at IS NULL";
const REVOKE_WALLET: &str =
    "UPDATE admin_sessions SET revoked_at = $2 WHERE wallet = $1 AND revoked_at IS NULL AND expires_at > $2";

fn session_from_row(row: &Row) -> Result<StoredAdminSession, PgError> {
    Ok(StoredAdminSession {
        id: SessionId::new(rows::get::<String>(row, "public_id")?),
        wallet: rows::parsed(row, "wallet", Wallet::parse)?,
        csrf_hash: CsrfHash::from_stored(rows::get(row, "csrf_hash")?),
        expires_at_ms: rows::get(row, "expires_at")?,
    })
}

/// Stores a nonce; expired ones are dropped on the way so the table stays small.
async fn issue_nonce(
    mut client: PgClient,
    wallet: Wallet,
    nonce: &str,
    expires_at_ms: i64,
    now_ms: i64,
) -> Result<(), PgError> {
    let tx = client.transaction().await?;
    let prune = tx.prepare_cached(PRUNE_NONCES).await?;
    tx.execute(&prune, &[&now_ms]).await?;
    let insert = tx.prepare_cached(INSERT_NONCE).await?;
    tx.execute(&insert, &[&nonce, &wallet.to_string(), &expires_at_ms])
        .await?;
    tx.commit().await?;
    Ok(())
}

async fn open_session(mut client: PgClient, nonce: &str, session: &NewAdminSession) -> Result<bool, PgError> {
    let tx = client.transaction().await?;
    let wallet = session.wallet.to_string();
    let consume = tx.prepare_cached(CONSUME_NONCE).await?;
    if tx
        .query_opt(&consume, &[&nonce, &wallet, &session.created_at_ms])
        .await?
        .is_none()
    {
        return Ok(false);
    }
    let insert = tx.prepare_cached(INSERT_SESSION).await?;
    tx.execute(
        &insert,
        &[
            &session.id.as_str(),
            &wallet,
            &session.csrf_hash.as_str(),
            &session.created_at_ms,
            &session.expires_at_ms,
        ],
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}

async fn fetch_live(
    client: PgClient,
    id: &SessionId,
    now_ms: i64,
) -> Result<Option<StoredAdminSession>, PgError> {
    let statement = client.prepare_cached(FETCH_LIVE).await?;
    let row = client.query_opt(&statement, &[&id.as_str(), &now_ms]).await?;
    row.map(|row| session_from_row(&row)).transpose()
}

async fn update(client: &impl Queries, sql: &str, key: &str, now_ms: i64) -> Result<u64, PgError> {
    let statement = client.prepare_cached(sql).await?;
    Ok(client.execute(&statement, &[&key, &now_ms]).await?)
}

#[async_trait]
impl SessionRepository for PgStore {
    async fn issue_nonce(
        &self,
        wallet: Wallet,
        nonce: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.run(|client| Box::pin(issue_nonce(client, wallet, nonce, expires_at_ms, now_ms)))
            .await
    }

    async fn open_session(&self, nonce: &str, session: &NewAdminSession) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(open_session(client, nonce, session)))
            .await
    }

    async fn fetch_live(
        &self,
        id: &SessionId,
        now_ms: i64,
    ) -> Result<Option<StoredAdminSession>, StoreError> {
        self.run(|client| Box::pin(fetch_live(client, id, now_ms))).await
    }

    async fn end(&self, id: &SessionId, now_ms: i64) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(async move { update(&client, END, id.as_str(), now_ms).await }))
            .await
            .map(|changed| changed > 0)
    }

    async fn revoke_wallet(&self, wallet: Wallet, now_ms: i64) -> Result<u64, StoreError> {
        let wallet = wallet.to_string();
        let wallet = wallet.as_str();
        self.run(|client| Box::pin(async move { update(&client, REVOKE_WALLET, wallet, now_ms).await }))
            .await
    }
}
