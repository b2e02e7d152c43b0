//! The relayer's send lease (see `RecurringRepository::acquire_send_lease`), on PostgreSQL.

use crate::postgres::connection::{PgClient, Queries};

use crate::postgres::error::PgError;

/// Taken when free, expired, or already this owner's (then extended).
const ACQUIRE: &str = "INSERT INTO relayer_send_leases (relayer, owner, lease_until) VALUES ($1, $2, $3)
    ON CONFLICT (relayer) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
    WHERE relayer_send_leases.lease_until <= $4 OR relayer_send_leases.owner = EXCLUDED.owner
    RETURNING owner";
const RELEASE: &str = "DELETE FROM relayer_send_leases WHERE relayer = $1 AND owner = $2";

pub(super) async fn acquire(
    client: PgClient,
    relayer: &str,
    owner: &str,
    now_ms: i64,
    until_ms: i64,
) -> Result<bool, PgError> {
    let statement = client.prepare_cached(ACQUIRE).await?;
    let taken = client
        .query_opt(&statement, &[&relayer, &owner, &until_ms, &now_ms])
        .await?;
    Ok(taken.is_some())
}

pub(super) async fn release(client: PgClient, relayer: &str, owner: &str) -> Result<(), PgError> {
    let statement = client.prepare_cached(RELEASE).await?;
    client.execute(&statement, &[&relayer, &owner]).await?;
    Ok(())
}
