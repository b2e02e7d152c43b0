//! Subscription (key) rows and [`KeyRepository`].

use crate::postgres::connection::{PgClient, Queries};
use async_trait::async_trait;
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::{PgStore, rows};
use crate::rows::{KeyRow, rotated};
use crate::{KeyRepository, StoreError};
use payments_domain::api_key::{KeyHash, SubscriptionId};
use payments_domain::subscription::{NewSubscription, Subscription};

const FETCH_ACTIVE_BY_KEY: &str = "SELECT public_id, wallet, scopes, name, created_at, revoked_at
    FROM subscriptions WHERE key_hash = $1 AND revoked_at IS NULL";
const FETCH_ACTIVE_BY_ID: &str = "SELECT public_id, wallet, scopes, name, created_at, revoked_at
    FROM subscriptions WHERE public_id = $1 AND revoked_at IS NULL";
/// Held until the rotation commits: a concurrent rotation of the same key waits, then finds it revoked.
const LOCK_ACTIVE_BY_ID: &str = "SELECT public_id, wallet, scopes, name, created_at, revoked_at
    FROM subscriptions WHERE public_id = $1 AND revoked_at IS NULL FOR UPDATE";
const LIST: &str = "SELECT public_id, wallet, scopes, name, created_at, revoked_at
    FROM subscriptions ORDER BY created_at, id";
const INSERT: &str = "INSERT INTO subscriptions (public_id, key_hash, wallet, scopes, name, created_at)
    VALUES ($1, $2, $3, $4, $5, $6)";
/// Blocks concurrent inserts (not reads) until the transaction ends, so "none exist yet" stays true
/// between the check and the insert even when two instances bootstrap together.
const LOCK_TABLE: &str = "LOCK TABLE subscriptions IN SHARE ROW EXCLUSIVE MODE";
const INSERT_IF_NONE_EXIST: &str =
    "INSERT INTO subscriptions (public_id, key_hash, wallet, scopes, name, created_at)
    SELECT $1, $2, $3, $4, $5, $6 WHERE NOT EXISTS (SELECT 1 FROM subscriptions)";
const REVOKE: &str = "UPDATE subscriptions SET revoked_at = $2 WHERE public_id = $1 AND revoked_at IS NULL";

fn subscription_from_row(row: &Row) -> Result<Subscription, PgError> {
    KeyRow {
        public_id: rows::get(row, "public_id")?,
        wallet: rows::get(row, "wallet")?,
        scopes: rows::get(row, "scopes")?,
        name: rows::get(row, "name")?,
        created_at: rows::get(row, "created_at")?,
        revoked_at: rows::get(row, "revoked_at")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("an API key", error))
}

async fn fetch_one(client: &impl Queries, sql: &str, key: &str) -> Result<Option<Subscription>, PgError> {
    let statement = client.prepare_cached(sql).await?;
    let row = client.query_opt(&statement, &[&key]).await?;
    row.map(|row| subscription_from_row(&row)).transpose()
}

async fn list(client: PgClient) -> Result<Vec<Subscription>, PgError> {
    let statement = client.prepare_cached(LIST).await?;
    let found = client.query(&statement, &[]).await?;
    found.iter().map(subscription_from_row).collect()
}

async fn insert_with(client: &impl Queries, sql: &str, new: &NewSubscription) -> Result<u64, PgError> {
    let statement = client.prepare_cached(sql).await?;
    let inserted = client
        .execute(
            &statement,
            &[
                &new.id.as_str(),
                &new.key_hash.as_str(),
                &new.wallet.to_string(),
                &new.scopes.to_string(),
                &new.name,
                &new.created_at,
            ],
        )
        .await?;
    Ok(inserted)
}

async fn insert_first(mut client: PgClient, new: &NewSubscription) -> Result<bool, PgError> {
    let tx = client.transaction().await?;
    tx.batch_execute(LOCK_TABLE).await?;
    let inserted = insert_with(&tx, INSERT_IF_NONE_EXIST, new).await?;
    tx.commit().await?;
    Ok(inserted == 1)
}

async fn revoke(client: &impl Queries, id: &SubscriptionId, now_ms: i64) -> Result<bool, PgError> {
    let statement = client.prepare_cached(REVOKE).await?;
    let changed = client.execute(&statement, &[&id.as_str(), &now_ms]).await?;
    Ok(changed == 1)
}

async fn rotate(
    mut client: PgClient,
    id: &SubscriptionId,
    replacement_id: &SubscriptionId,
    replacement_hash: &KeyHash,
    now_ms: i64,
) -> Result<Option<Subscription>, PgError> {
    let tx = client.transaction().await?;
    let Some(old) = fetch_one(&tx, LOCK_ACTIVE_BY_ID, id.as_str()).await? else {
        return Ok(None);
    };
    revoke(&tx, id, now_ms).await?;
    let replacement = rotated(old, replacement_id, replacement_hash, now_ms);
    insert_with(&tx, INSERT, &replacement).await?;
    let rotated = fetch_one(&tx, FETCH_ACTIVE_BY_ID, replacement_id.as_str()).await?;
    tx.commit().await?;
    Ok(rotated)
}

#[async_trait]
impl KeyRepository for PgStore {
    async fn fetch_active_by_key(&self, hash: &KeyHash) -> Result<Option<Subscription>, StoreError> {
        self.run(|client| {
            Box::pin(async move { fetch_one(&client, FETCH_ACTIVE_BY_KEY, hash.as_str()).await })
        })
        .await
    }

    async fn fetch_active(&self, id: &SubscriptionId) -> Result<Option<Subscription>, StoreError> {
        self.run(|client| Box::pin(async move { fetch_one(&client, FETCH_ACTIVE_BY_ID, id.as_str()).await }))
            .await
    }

    async fn list(&self) -> Result<Vec<Subscription>, StoreError> {
        self.run(|client| Box::pin(list(client))).await
    }

    async fn create(&self, subscription: &NewSubscription) -> Result<(), StoreError> {
        self.run(|client| {
            Box::pin(async move { insert_with(&client, INSERT, subscription).await.map(|_| ()) })
        })
        .await
    }

    async fn create_first(&self, subscription: &NewSubscription) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(insert_first(client, subscription)))
            .await
    }

    async fn revoke(&self, id: &SubscriptionId, now_ms: i64) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(async move { revoke(&client, id, now_ms).await }))
            .await
    }

    async fn rotate(
        &self,
        id: &SubscriptionId,
        replacement_id: &SubscriptionId,
        replacement_hash: &KeyHash,
        now_ms: i64,
    ) -> Result<Option<Subscription>, StoreError> {
        self.run(|client| Box::pin(rotate(client, id, replacement_id, replacement_hash, now_ms)))
            .await
    }

    async fn fetch_setting(&self, name: &str) -> Result<Option<String>, StoreError> {
        self.run(|client| Box::pin(async move { super::settings::fetch(&client, name).await }))
            .await
    }

    async fn record_setting(&self, name: &str, proposed: &str, now_ms: i64) -> Result<String, StoreError> {
        self.run(|client| Box::pin(super::settings::record(client, name, proposed, now_ms)))
            .await
    }
}
