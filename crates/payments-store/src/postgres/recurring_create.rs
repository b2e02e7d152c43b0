//! Creating a plan or a subscription as one transaction with an optional idempotency claim: the key row is
//! inserted first (a concurrent duplicate waits on it, then replays the committed response), then the row,
//! then the response is written under the key and everything commits together.
//!
//! Both creates store exactly the value they are given (the subscription as [`NewCustomerSubscription::stored`]
//! makes it), so the response is rendered once before the first attempt and a transient failure can rerun
//! the whole transaction: there is no decision to protect from running twice.

use std::convert::Infallible;

use crate::postgres::connection::{PgClient, PgTransaction};
use futures_util::future::BoxFuture;

use crate::postgres::idempotency::{self, Claimed};
use crate::postgres::retry::{self, Failed};
use crate::postgres::{BACKEND, PgStore, recurring};
use crate::{Committed, IdempotencyClaim, IdempotentResponse, Render, TxError};
use payments_domain::recurring::{CustomerSubscription, NewCustomerSubscription, Plan, SubscriptionRefusal};

/// A claim with the response to keep under it.
type Keyed = (IdempotencyClaim, IdempotentResponse);

/// [`crate::RecurringRepository::create_plan`] on PostgreSQL.
pub(super) async fn create_plan(
    store: &PgStore,
    plan: &Plan,
    claim: Option<(IdempotencyClaim, Render<Plan>)>,
) -> Result<Committed<Plan>, TxError<Infallible>> {
    let keyed = claim.map(|(claim, render)| (claim, render(plan)));
    let attempt = |client| -> BoxFuture<'_, _> { Box::pin(attempt_plan(client, plan, keyed.as_ref())) };
    store.timing.time(BACKEND, "query", retried(store, attempt)).await
}

/// [`crate::RecurringRepository::create_subscription`] on PostgreSQL.
pub(super) async fn create_subscription(
    store: &PgStore,
    new: &NewCustomerSubscription,
    now_ms: i64,
    claim: Option<(IdempotencyClaim, Render<CustomerSubscription>)>,
) -> Result<Committed<CustomerSubscription>, TxError<SubscriptionRefusal>> {
    let keyed = claim.map(|(claim, render)| (claim, render(&new.stored(now_ms))));
    let attempt =
        |client| -> BoxFuture<'_, _> { Box::pin(attempt_subscription(client, new, now_ms, keyed.as_ref())) };
    store.timing.time(BACKEND, "query", retried(store, attempt)).await
}

/// Runs `attempt` on a pooled connection until it answers, again after a transient failure (bounded).
async fn retried<'a, T, E>(
    store: &PgStore,
    attempt: impl Fn(PgClient) -> BoxFuture<'a, Result<Committed<T>, Failed<E>>>,
) -> Result<Committed<T>, TxError<E>> {
    store.availability.check()?;
    let mut number = 0;
    loop {
        let client = store.client().await?;
        match retry::settle(attempt(client).await, number, false) {
            retry::Next::Answer(answer) => return answer,
            retry::Next::Retry(pause) => {
                tokio::time::sleep(pause).await;
                number += 1;
            }
        }
    }
}

/// Claims the key in `tx`: `Ok(Ok(None))` without a claim, `Ok(Ok(Some(row)))` to go ahead, `Ok(Err(..))`
/// with the response the key already answered.
async fn claim<E>(
    tx: &PgTransaction<'_>,
    keyed: Option<&Keyed>,
) -> Result<Result<Option<i64>, IdempotentResponse>, Failed<E>> {
    let Some((claim, _)) = keyed else {
        return Ok(Ok(None));
    };
    match idempotency::claim(tx, claim).await? {
        Claimed::Fresh(id) => Ok(Ok(Some(id))),
        Claimed::Replay(response) => Ok(Err(response)),
        Claimed::Conflict => Err(Failed::Conflict),
        Claimed::Pending => Err(Failed::Busy(idempotency::pending(claim))),
    }
}

async fn keep<E>(
    tx: &PgTransaction<'_>,
    claimed: Option<i64>,
    keyed: Option<&Keyed>,
) -> Result<(), Failed<E>> {
    if let (Some(claim_id), Some((_, response))) = (claimed, keyed) {
        idempotency::keep(tx, claim_id, response).await?;
    }
    Ok(())
}

async fn attempt_plan(
    mut client: PgClient,
    plan: &Plan,
    keyed: Option<&Keyed>,
) -> Result<Committed<Plan>, Failed<Infallible>> {
    let tx = client.transaction().await?;
    let claimed = match claim(&tx, keyed).await? {
        Ok(claimed) => claimed,
        Err(replayed) => return Ok(Committed::Replayed(replayed)),
    };
    recurring::create_plan(&tx, plan).await?;
    keep(&tx, claimed, keyed).await?;
    tx.commit().await?;
    Ok(Committed::Fresh(plan.clone()))
}

async fn attempt_subscription(
    mut client: PgClient,
    new: &NewCustomerSubscription,
    now_ms: i64,
    keyed: Option<&Keyed>,
) -> Result<Committed<CustomerSubscription>, Failed<SubscriptionRefusal>> {
    let tx = client.transaction().await?;
    let claimed = match claim(&tx, keyed).await? {
        Ok(claimed) => claimed,
        Err(replayed) => return Ok(Committed::Replayed(replayed)),
    };
    // A refusal returns before the commit: dropping the transaction rolls the claimed key back too.
    let subscription = recurring::create_subscription(&tx, new, now_ms)
        .await?
        .into_result()
        .map_err(Failed::Refused)?;
    keep(&tx, claimed, keyed).await?;
    tx.commit().await?;
    Ok(Committed::Fresh(subscription))
}
