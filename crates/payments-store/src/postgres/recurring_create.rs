//! Creating a plan or a subscription as one transaction with an optional idempotency claim: the key row is
//! inserted first (a concurrent duplicate waits on it, then replays the committed claim), then the row, then
//! the claim is named after the row and everything commits together; the caller keeps the response after.
//!
//! Both creates store exactly the value they are given (the subscription as [`NewCustomerSubscription::stored`]
//! makes it), so a transient failure can rerun the whole transaction: there is no decision to protect from
//! running twice.

use std::convert::Infallible;

use crate::postgres::connection::{PgClient, PgTransaction};
use futures_util::future::BoxFuture;

use crate::postgres::error::PgError;
use crate::postgres::idempotency::{self, Claimed};
use crate::postgres::retry::{self, Failed};
use crate::postgres::{BACKEND, PgStore, recurring};
use crate::{Committed, IdempotencyClaim, Resource, TxError};
use payments_domain::recurring::{CustomerSubscription, NewCustomerSubscription, Plan, SubscriptionRefusal};

/// [`crate::RecurringRepository::create_plan`] on PostgreSQL.
pub(super) async fn create_plan(
    store: &PgStore,
    plan: &Plan,
    claim: Option<IdempotencyClaim>,
) -> Result<Committed<Plan>, TxError<Infallible>> {
    let attempt = |client, recover| -> BoxFuture<'_, _> {
        Box::pin(attempt_plan(client, plan, (claim.as_ref(), recover)))
    };
    store.timing.time(BACKEND, "query", retried(store, attempt)).await
}

/// [`crate::RecurringRepository::create_subscription`] on PostgreSQL.
pub(super) async fn create_subscription(
    store: &PgStore,
    new: &NewCustomerSubscription,
    now_ms: i64,
    claim: Option<IdempotencyClaim>,
) -> Result<Committed<CustomerSubscription>, TxError<SubscriptionRefusal>> {
    let attempt = |client, recover| -> BoxFuture<'_, _> {
        Box::pin(attempt_subscription(
            client,
            new,
            now_ms,
            (claim.as_ref(), recover),
        ))
    };
    store.timing.time(BACKEND, "query", retried(store, attempt)).await
}

/// Runs `attempt` on a pooled connection until it answers, again after a transient failure (bounded); its
/// flag tells the last attempt.
async fn retried<'a, T, E>(
    store: &PgStore,
    attempt: impl Fn(PgClient, bool) -> BoxFuture<'a, Result<Committed<T>, Failed<E>>>,
) -> Result<Committed<T>, TxError<E>> {
    store.availability.check()?;
    let mut number = 0;
    loop {
        let client = store.client().await?;
        let last = number + 1 >= retry::MAX_ATTEMPTS;
        match retry::settle(attempt(client, last).await, number, false) {
            retry::Next::Answer(answer) => return answer,
            retry::Next::Retry(pause) => {
                tokio::time::sleep(pause).await;
                number += 1;
            }
        }
    }
}

/// Claims the key in `tx`: `Ok(Ok(None))` without a claim, `Ok(Ok(Some(row)))` to go ahead, `Ok(Err(..))`
/// with what the key already answered.
async fn claim<E>(
    tx: &PgTransaction<'_>,
    (claim, recover): (Option<&IdempotencyClaim>, bool),
) -> Result<Result<Option<i64>, Earlier>, Failed<E>> {
    let Some(claim) = claim else {
        return Ok(Ok(None));
    };
    match idempotency::claim(tx, claim).await? {
        Claimed::Fresh(id) => Ok(Ok(Some(id))),
        Claimed::Replay(response) => Ok(Err(Earlier::Kept(response))),
        Claimed::Unkept(resource) => {
            idempotency::unkept(recover)?;
            Ok(Err(Earlier::Named(resource)))
        }
        Claimed::Conflict => Err(Failed::Conflict),
        Claimed::Pending => Err(Failed::Busy(idempotency::pending(claim))),
    }
}

/// What an earlier call with the same key left.
enum Earlier {
    Kept(crate::IdempotentResponse),
    Named(Resource),
}

async fn name<E>(tx: &PgTransaction<'_>, claimed: Option<i64>, resource: Resource) -> Result<(), Failed<E>> {
    if let Some(claim_id) = claimed {
        idempotency::name(tx, claim_id, &resource).await?;
    }
    Ok(())
}

/// The claim names something this use case did not make: only a damaged row does.
fn misnamed(resource: &Resource) -> PgError {
    PgError::Corrupt(format!(
        "idempotency key names {} {}",
        resource.kind(),
        resource.id()
    ))
}

async fn attempt_plan(
    mut client: PgClient,
    plan: &Plan,
    claim_of: (Option<&IdempotencyClaim>, bool),
) -> Result<Committed<Plan>, Failed<Infallible>> {
    let tx = client.transaction().await?;
    let claimed = match claim(&tx, claim_of).await? {
        Ok(claimed) => claimed,
        Err(Earlier::Kept(replayed)) => return Ok(Committed::Replayed(replayed)),
        Err(Earlier::Named(Resource::Plan(id))) => {
            let stored = recurring::fetch_plan(&tx, &id).await?;
            return Ok(Committed::Recovered(
                stored.ok_or_else(|| misnamed(&Resource::Plan(id)))?,
            ));
        }
        Err(Earlier::Named(other)) => return Err(misnamed(&other).into()),
    };
    recurring::create_plan(&tx, plan).await?;
    name(&tx, claimed, Resource::Plan(plan.id.clone())).await?;
    tx.commit().await?;
    Ok(Committed::Fresh(plan.clone()))
}

async fn attempt_subscription(
    mut client: PgClient,
    new: &NewCustomerSubscription,
    now_ms: i64,
    claim_of: (Option<&IdempotencyClaim>, bool),
) -> Result<Committed<CustomerSubscription>, Failed<SubscriptionRefusal>> {
    let tx = client.transaction().await?;
    let claimed = match claim(&tx, claim_of).await? {
        Ok(claimed) => claimed,
        Err(Earlier::Kept(replayed)) => return Ok(Committed::Replayed(replayed)),
        Err(Earlier::Named(Resource::Subscription(id))) => {
            let stored = recurring::fetch_subscription(&tx, &id).await?;
            return Ok(Committed::Recovered(
                stored.ok_or_else(|| misnamed(&Resource::Subscription(id)))?,
            ));
        }
        Err(Earlier::Named(other)) => return Err(misnamed(&other).into()),
    };
    // A refusal returns before the commit: dropping the transaction rolls the claimed key back too.
    let subscription = recurring::create_subscription(&tx, new, now_ms)
        .await?
        .into_result()
        .map_err(Failed::Refused)?;
    name(&tx, claimed, Resource::Subscription(subscription.id.clone())).await?;
    tx.commit().await?;
    Ok(Committed::Fresh(subscription))
}
