//! Embedded schema migrations, applied at open; `schema_migrations` records the applied versions.
//!
//! Everything runs in one transaction that first takes a transaction-scoped advisory lock, so two instances
//! starting together never both apply a version: the second waits, then finds it recorded. DDL is
//! transactional in PostgreSQL, so a failed migration leaves no half-applied schema behind.

use deadpool_postgres::Object;

use crate::postgres::error::PgError;
use crate::postgres::{
    schema_v1, schema_v2, schema_v3, schema_v4, schema_v5, schema_v7, schema_v8, schema_v9, schema_v10,
    schema_v11, schema_v12, schema_v13, schema_v14, schema_v15, schema_v16, schema_v17, schema_v18,
    schema_v21, schema_v22,
};
use crate::schema;

/// Arbitrary constant naming the migration lock (ASCII "paymigr1"); nothing else takes it.
pub(super) const MIGRATION_LOCK: i64 = 0x7061_796d_6967_7231;

const TAKE_LOCK: &str = "SELECT pg_advisory_xact_lock($1)";
const CREATE_MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version BIGINT PRIMARY KEY,
    applied_at BIGINT NOT NULL
)";
const IS_APPLIED: &str = "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)";
const RECORD_VERSION: &str = "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)";

/// In order; a version, once released, never changes (add a new one instead).
pub(crate) const MIGRATIONS: &[(i64, &str)] = &[
    (1, schema_v1::SQL),
    (2, schema_v2::SQL),
    (3, schema_v3::SQL),
    (4, schema_v4::SQL),
    (5, schema_v5::SQL),
    (6, schema::v6::SQL),
    (7, schema_v7::SQL),
    (8, schema_v8::SQL),
    (9, schema_v9::SQL),
    (10, schema_v10::SQL),
    (11, schema_v11::SQL),
    (12, schema_v12::SQL),
    (13, schema_v13::SQL),
    (14, schema_v14::SQL),
    (15, schema_v15::SQL),
    (16, schema_v16::SQL),
    (17, schema_v17::SQL),
    (18, schema_v18::SQL),
    (19, schema::v19::SQL),
    (20, schema::v20::SQL),
    (21, schema_v21::SQL),
    (22, schema_v22::SQL),
    (23, schema::v23::SQL),
    (24, schema::v24::SQL),
];

/// Applies every migration the database lacks; returns the versions it applied.
pub(super) async fn apply(client: &mut Object, now_ms: i64) -> Result<Vec<i64>, PgError> {
    let tx = client.transaction().await?;
    tx.execute(TAKE_LOCK, &[&MIGRATION_LOCK]).await?;
    tx.batch_execute(CREATE_MIGRATIONS_TABLE).await?;
    let mut applied = Vec::new();
    for (version, sql) in MIGRATIONS {
        let done: bool = tx.query_one(IS_APPLIED, &[version]).await?.try_get(0)?;
        if !done {
            tx.batch_execute(sql).await?;
            tx.execute(RECORD_VERSION, &[version, &now_ms]).await?;
            applied.push(*version);
        }
    }
    tx.commit().await?;
    Ok(applied)
}
