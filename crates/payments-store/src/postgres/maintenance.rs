//! A read-only check of a PostgreSQL database for `payments-server config check`: it connects once, applies
//! nothing, and reads the schema version.

use crate::StoreError;
use crate::postgres::config::{ConnectionSettings, PgPoolOptions, connection_config};
use crate::postgres::error::PgError;

const SCHEMA_VERSION: &str = "SELECT MAX(version) FROM schema_migrations";
const HAS_MIGRATIONS_TABLE: &str = "SELECT to_regclass('schema_migrations') IS NOT NULL";

/// Connects to `url` and reads the schema version: `None` for a database the server has not initialised.
pub(crate) async fn check(url: &str) -> Result<Option<i64>, StoreError> {
    let ConnectionSettings { config, tls, .. } = connection_config(url, PgPoolOptions::default())?;
    let (client, connection) = config
        .connect(tls.connector()?)
        .await
        .map_err(|error| tls.connect_failure(error.into()))?;
    // The connection future drives the socket; it ends when `client` is dropped.
    let driver = tokio::spawn(connection);
    let version = read_version(&client).await;
    drop(client);
    let _ = driver.await;
    version.map_err(|error| PgError::from(error).into_store())
}

/// Unnamed statements: they leave nothing on a server connection a transaction pooler may lend to another
/// client next (see [`super::connection`]).
async fn read_version(client: &tokio_postgres::Client) -> Result<Option<i64>, tokio_postgres::Error> {
    let initialised: bool = client
        .query_typed_one(HAS_MIGRATIONS_TABLE, &[])
        .await?
        .try_get(0)?;
    if !initialised {
        return Ok(None);
    }
    client.query_typed_one(SCHEMA_VERSION, &[]).await?.try_get(0)
}
