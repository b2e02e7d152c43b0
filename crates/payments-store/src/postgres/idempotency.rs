//! Idempotency keys claimed inside a use case's transaction: the first request with a key inserts a pending
//! row, which holds the key's unique-index entry until its transaction ends, and names the resource it made
//! before it commits. A concurrent duplicate's insert waits on that entry, then finds the committed claim:
//! it replays the response kept since (a second small write after the commit), or, when none was kept,
//! answers from the named resource. Either way a key has one effect.

use async_trait::async_trait;

use crate::postgres::PgStore;
use crate::postgres::connection::Queries;

use crate::postgres::error::PgError;
use crate::postgres::rows;
use crate::{EarlierCall, IdempotencyClaim, IdempotencyRepository, IdempotentResponse, Resource, StoreError};

/// Keys past their retention go first, so an expired key can be used again. Rows another transaction is
/// purging right now are skipped rather than waited for: that transaction deletes them anyway.
const PURGE: &str = "DELETE FROM idempotency_keys WHERE id IN (
    SELECT id FROM idempotency_keys WHERE created_at < $1 FOR UPDATE SKIP LOCKED)";
/// `status = 0` and an empty body: claimed, response not yet known.
const CLAIM: &str =
    "INSERT INTO idempotency_keys (wallet, scope, key, request_hash, status, body, created_at)
    VALUES ($1, $2, $3, $4, 0, ''::bytea, $5) ON CONFLICT (wallet, scope, key) DO NOTHING RETURNING id";
const FETCH: &str = "SELECT request_hash, status, body, resource_kind, resource_id FROM idempotency_keys
    WHERE wallet = $1 AND scope = $2 AND key = $3 AND created_at >= $4";
const NAME: &str = "UPDATE idempotency_keys SET resource_kind = $2, resource_id = $3 WHERE id = $1";
/// Only a committed claim still without its response, of the same body: a later write never replaces the
/// answer a replay may already have given.
const KEEP_AFTER: &str = "UPDATE idempotency_keys SET status = $5, body = $6
    WHERE wallet = $1 AND scope = $2 AND key = $3 AND request_hash = $4 AND status = 0";

/// The status of a claimed key whose response is not yet written.
const PENDING: i32 = 0;

/// What claiming a key found.
#[derive(Debug)]
pub(super) enum Claimed {
    /// This transaction holds the key (row id); the use case goes ahead.
    Fresh(i64),
    /// An earlier request with the same body committed this response.
    Replay(IdempotentResponse),
    /// The key was used with another body.
    Conflict,
    /// An earlier request with the same body committed this resource, but its response was never kept.
    Unkept(Resource),
    /// The stored row has no response yet (and names no resource).
    Pending,
}

pub(super) async fn claim(tx: &impl Queries, claim: &IdempotencyClaim) -> Result<Claimed, PgError> {
    let wallet = claim.wallet.to_string();
    let purge = tx.prepare_cached(PURGE).await?;
    tx.execute(&purge, &[&claim.not_before_ms()]).await?;
    let insert = tx.prepare_cached(CLAIM).await?;
    let inserted = tx
        .query_opt(
            &insert,
            &[
                &wallet,
                &claim.scope,
                &claim.key,
                &claim.request_hash,
                &claim.now_ms,
            ],
        )
        .await?;
    if let Some(row) = inserted {
        return Ok(Claimed::Fresh(rows::get(&row, "id")?));
    }
    let fetch = tx.prepare_cached(FETCH).await?;
    let Some(row) = tx
        .query_opt(
            &fetch,
            &[&wallet, &claim.scope, &claim.key, &claim.not_before_ms()],
        )
        .await?
    else {
        // The conflicting row went away (or expired) between the insert and this read: start again.
        return Err(PgError::Contended("idempotency key changed hands"));
    };
    let request_hash: String = rows::get(&row, "request_hash")?;
    let status: i32 = rows::get(&row, "status")?;
    if request_hash != claim.request_hash {
        return Ok(Claimed::Conflict);
    }
    if status == PENDING {
        return Ok(resource(&row)?.map_or(Claimed::Pending, Claimed::Unkept));
    }
    Ok(Claimed::Replay(IdempotentResponse {
        request_hash,
        status: u16::try_from(status).map_err(|error| PgError::corrupt("column status", error))?,
        body: rows::get(&row, "body")?,
    }))
}

/// What an earlier use of the claimed key committed within its retention (whatever the body it was used
/// with); `None` when there is none (a claim still in its transaction is not visible).
pub(super) async fn earlier(
    client: &impl Queries,
    claim: &IdempotencyClaim,
) -> Result<Option<EarlierCall>, PgError> {
    let fetch = client.prepare_cached(FETCH).await?;
    let wallet = claim.wallet.to_string();
    let row = client
        .query_opt(
            &fetch,
            &[&wallet, &claim.scope, &claim.key, &claim.not_before_ms()],
        )
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let request_hash: String = rows::get(&row, "request_hash")?;
    let status: i32 = rows::get(&row, "status")?;
    if status == PENDING {
        return Ok(resource(&row)?.map(|resource| EarlierCall::Committed {
            request_hash,
            resource,
        }));
    }
    Ok(Some(EarlierCall::Kept(IdempotentResponse {
        request_hash,
        status: u16::try_from(status).map_err(|error| PgError::corrupt("column status", error))?,
        body: rows::get(&row, "body")?,
    })))
}

/// The resource a claim's row names, if any.
fn resource(row: &tokio_postgres::Row) -> Result<Option<Resource>, PgError> {
    let kind: Option<String> = rows::get(row, "resource_kind")?;
    let id: Option<String> = rows::get(row, "resource_id")?;
    kind.zip(id)
        .map(|(kind, id)| {
            Resource::from_parts(&kind, id).map_err(|error| PgError::corrupt("column resource_kind", error))
        })
        .transpose()
}

/// Names the resource this transaction's claim made; it commits with the claim.
pub(super) async fn name(tx: &impl Queries, claim_id: i64, resource: &Resource) -> Result<(), PgError> {
    let name = tx.prepare_cached(NAME).await?;
    tx.execute(&name, &[&claim_id, &resource.kind(), &resource.id()])
        .await?;
    Ok(())
}

/// Keeps the response of a claim its use case committed; false when there is no such claim still without
/// one (expired, or kept already).
pub(super) async fn keep_after(
    client: &impl Queries,
    claim: &IdempotencyClaim,
    response: &IdempotentResponse,
) -> Result<bool, PgError> {
    let keep = client.prepare_cached(KEEP_AFTER).await?;
    let changed = client
        .execute(
            &keep,
            &[
                &claim.wallet.to_string(),
                &claim.scope,
                &claim.key,
                &claim.request_hash,
                &i32::from(response.status),
                &response.body,
            ],
        )
        .await?;
    Ok(changed > 0)
}

/// A committed claim without a kept answer: almost always its call is keeping it right now, so it is waited
/// for like a contended row (the attempt is retried after a pause); the last attempt (`recover`) answers from
/// the resource the claim names instead.
pub(super) fn unkept(recover: bool) -> Result<(), PgError> {
    if recover {
        Ok(())
    } else {
        Err(PgError::Contended("the idempotency key's answer is being kept"))
    }
}

/// Why a use case stops at a key whose response is not written yet.
pub(super) fn pending(claim: &IdempotencyClaim) -> String {
    format!(
        "idempotency key {} ({}) is still being processed",
        claim.key, claim.scope
    )
}

#[async_trait]
impl IdempotencyRepository for PgStore {
    async fn keep_response(
        &self,
        claim: &IdempotencyClaim,
        response: &IdempotentResponse,
    ) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(async move { keep_after(&client, claim, response).await }))
            .await
    }
}
