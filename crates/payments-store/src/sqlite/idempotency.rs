//! Idempotency keys, checked inside the use case's own transaction (per merchant and route), which commits
//! the claim naming the resource it made; the response is kept by a second small write after the commit.
//! The single writer serializes transactions, so a concurrent duplicate runs after the first committed and
//! finds its kept response, or, when the first stopped before keeping it, the resource the claim names.

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};

use crate::sqlite::{SqliteStore, rows};
use crate::{EarlierCall, IdempotencyClaim, IdempotencyRepository, IdempotentResponse, Resource, StoreError};

const FETCH: &str = "SELECT request_hash, status, body, resource_kind, resource_id FROM idempotency_keys
    WHERE wallet = ?1 AND scope = ?2 AND key = ?3 AND created_at >= ?4";
/// Keys past their retention go first, so an expired key can be used again.
const PURGE: &str = "DELETE FROM idempotency_keys WHERE created_at < ?1";
/// `status = 0` and an empty body: committed with its resource, response not kept yet.
const NAME: &str = "INSERT INTO idempotency_keys (wallet, scope, key, request_hash, status, body, created_at,
    resource_kind, resource_id) VALUES (?1, ?2, ?3, ?4, 0, X'', ?5, ?6, ?7)";
/// Only a committed claim still without its response, of the same body: a later write never replaces the
/// answer a replay may already have given.
const KEEP_AFTER: &str = "UPDATE idempotency_keys SET status = ?5, body = ?6
    WHERE wallet = ?1 AND scope = ?2 AND key = ?3 AND request_hash = ?4 AND status = 0";

/// The status of a claim whose response is not kept yet.
const PENDING: u16 = 0;

/// What an earlier use of the claimed key left.
#[derive(Debug)]
pub(super) enum Claimed {
    /// Unused (or expired): the use case runs.
    Fresh,
    /// Used with the same body: its response.
    Replay(IdempotentResponse),
    /// Used with the same body, committed, but its response was never kept: the resource it made.
    Unkept(Resource),
    /// Used with another body.
    Conflict,
}

/// A row under a key, as stored.
struct Stored {
    response: IdempotentResponse,
    resource: Option<Resource>,
}

pub(super) fn claim(conn: &Connection, claim: &IdempotencyClaim) -> rusqlite::Result<Claimed> {
    conn.prepare_cached(PURGE)?.execute([claim.not_before_ms()])?;
    Ok(match stored(conn, claim)? {
        None => Claimed::Fresh,
        Some(stored) if stored.response.request_hash != claim.request_hash => Claimed::Conflict,
        Some(Stored {
            response,
            resource: Some(resource),
        }) if response.status == PENDING => Claimed::Unkept(resource),
        Some(stored) => Claimed::Replay(stored.response),
    })
}

/// What an earlier use of the claimed key left within its retention (whatever the body it was used with);
/// `None` when it is unused.
pub(super) fn earlier(conn: &Connection, claim: &IdempotencyClaim) -> rusqlite::Result<Option<EarlierCall>> {
    Ok(stored(conn, claim)?.and_then(|Stored { response, resource }| {
        if response.status != PENDING {
            return Some(EarlierCall::Kept(response));
        }
        resource.map(|resource| EarlierCall::Committed {
            request_hash: response.request_hash,
            resource,
        })
    }))
}

fn stored(conn: &Connection, claim: &IdempotencyClaim) -> rusqlite::Result<Option<Stored>> {
    conn.prepare_cached(FETCH)?
        .query_row(
            params![
                claim.wallet.to_string(),
                claim.scope,
                claim.key,
                claim.not_before_ms()
            ],
            |row| {
                let kind: Option<String> = row.get(3)?;
                let id: Option<String> = row.get(4)?;
                let resource = kind
                    .zip(id)
                    .map(|(kind, id)| {
                        Resource::from_parts(&kind, id).map_err(|error| rows::corrupt(3, error))
                    })
                    .transpose()?;
                Ok(Stored {
                    response: IdempotentResponse {
                        request_hash: row.get(0)?,
                        status: row.get(1)?,
                        body: row.get(2)?,
                    },
                    resource,
                })
            },
        )
        .optional()
}

/// Records the claim as committed with the resource it made, in the use case's transaction.
pub(super) fn name(conn: &Connection, claim: &IdempotencyClaim, resource: &Resource) -> rusqlite::Result<()> {
    conn.prepare_cached(NAME)?.execute(params![
        claim.wallet.to_string(),
        claim.scope,
        claim.key,
        claim.request_hash,
        claim.now_ms,
        resource.kind(),
        resource.id()
    ])?;
    Ok(())
}

fn keep_after(
    conn: &Connection,
    claim: &IdempotencyClaim,
    response: &IdempotentResponse,
) -> rusqlite::Result<bool> {
    let changed = conn.prepare_cached(KEEP_AFTER)?.execute(params![
        claim.wallet.to_string(),
        claim.scope,
        claim.key,
        claim.request_hash,
        response.status,
        response.body
    ])?;
    Ok(changed > 0)
}

#[async_trait]
impl IdempotencyRepository for SqliteStore {
    async fn keep_response(
        &self,
        claim: &IdempotencyClaim,
        response: &IdempotentResponse,
    ) -> Result<bool, StoreError> {
        let (claim, response) = (claim.clone(), response.clone());
        self.write(move |conn| keep_after(conn, &claim, &response)).await
    }
}
