//! `instance_settings` rows (v12): values every instance on the database agrees on; the first writer wins.

use crate::postgres::connection::{PgClient, Queries};

use crate::postgres::error::PgError;

const FETCH: &str = "SELECT value FROM instance_settings WHERE name = $1";
const RECORD_UNLESS_PRESENT: &str =
    "INSERT INTO instance_settings (name, value, recorded_at) VALUES ($1, $2, $3)
    ON CONFLICT (name) DO NOTHING";

pub(super) async fn fetch(client: &impl Queries, name: &str) -> Result<Option<String>, PgError> {
    let statement = client.prepare_cached(FETCH).await?;
    let row = client.query_opt(&statement, &[&name]).await?;
    Ok(row.map(|row| row.try_get(0)).transpose()?)
}

/// Records `proposed` unless a value is there; answers the value there now. The insert and the read share a
/// transaction, so racing instances all answer the first writer's value.
pub(super) async fn record(
    mut client: PgClient,
    name: &str,
    proposed: &str,
    now_ms: i64,
) -> Result<String, PgError> {
    let tx = client.transaction().await?;
    let statement = tx.prepare_cached(RECORD_UNLESS_PRESENT).await?;
    tx.execute(&statement, &[&name, &proposed, &now_ms]).await?;
    let value = fetch(&tx, name)
        .await?
        .ok_or(PgError::Contended("instance_settings"))?;
    tx.commit().await?;
    Ok(value)
}
