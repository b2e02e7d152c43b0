//! [`payments_store::RecurringRepository::create_plan`] and `create_subscription` under an idempotency claim:
//! a replay answers the kept response and writes nothing, another body conflicts, parallel creates under one
//! key store one row, a refusal keeps nothing, and keys are per wallet and scope.

use std::sync::Arc;

use payments_core::Wallet;
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use crate::recurring::{new_subscription, plan};
use payments_domain::recurring::{CustomerSubscription, Plan, StatusQuery, SubscriptionRefusal};
use payments_store::{Committed, EarlierCall, IdempotencyClaim, IdempotentResponse, TxError};

const PLANS: &str = "plans.create";
const SUBSCRIPTIONS: &str = "subscriptions.create";

fn claim(wallet: Wallet, scope: &'static str, key: &str, hash: &str) -> IdempotencyClaim {
    IdempotencyClaim {
        wallet,
        scope,
        key: key.to_owned(),
        request_hash: hash.to_owned(),
        now_ms: T0,
    }
}

/// The response kept for a created row: 201 and a body naming it.
fn created(id: &str, hash: &str) -> IdempotentResponse {
    IdempotentResponse {
        request_hash: hash.to_owned(),
        status: 201,
        body: format!("{{\"id\":\"{id}\"}}").into_bytes(),
    }
}

pub(crate) fn plan_claim(plan: &Plan, key: &str, hash: &str) -> Option<IdempotencyClaim> {
    Some(claim(plan.merchant, PLANS, key, hash))
}

fn subscription_claim(customer: Wallet, key: &str, hash: &str) -> Option<IdempotencyClaim> {
    Some(claim(customer, SUBSCRIPTIONS, key, hash))
}

/// Creates `plan` as the edge does: the transaction, then [`created`] kept for what it committed.
pub(crate) async fn create_plan(
    repos: &Repositories,
    plan: &Plan,
    claim: Option<IdempotencyClaim>,
) -> Result<Committed<Plan>, TxError<std::convert::Infallible>> {
    let committed = repos.recurring.create_plan(plan, claim.clone()).await?;
    if let (Some(claim), Committed::Fresh(plan) | Committed::Recovered(plan)) = (&claim, &committed) {
        let response = created(plan.id.as_str(), &claim.request_hash);
        repos.idempotency.keep_response(claim, &response).await.unwrap();
    }
    Ok(committed)
}

/// Creates a subscription as the edge does (see [`create_plan`]).
async fn subscribe(
    repos: &Repositories,
    new: &payments_domain::recurring::NewCustomerSubscription,
    claim: Option<IdempotencyClaim>,
) -> Result<Committed<CustomerSubscription>, TxError<SubscriptionRefusal>> {
    let committed = repos
        .recurring
        .create_subscription(new, T0, claim.clone())
        .await?;
    if let (Some(claim), Committed::Fresh(done) | Committed::Recovered(done)) = (&claim, &committed) {
        let response = created(done.id.as_str(), &claim.request_hash);
        repos.idempotency.keep_response(claim, &response).await.unwrap();
    }
    Ok(committed)
}

pub(crate) async fn a_replayed_plan_create_answers_the_kept_response_and_stores_nothing_more(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let first = plan(merchant, "Weekly");
    let Committed::Fresh(stored) = create_plan(&repos, &first, plan_claim(&first, "plan-1", "hash-1"))
        .await
        .unwrap()
    else {
        panic!("expected a fresh plan")
    };
    // The retry of the same request: the service made a new plan value (new id) before the store saw it.
    let retry = plan(merchant, "Weekly");

    let replayed = create_plan(&repos, &retry, plan_claim(&retry, "plan-1", "hash-1")).await;

    let kept = created(first.id.as_str(), "hash-1");
    assert!(
        matches!(&replayed, Ok(Committed::Replayed(response)) if *response == kept),
        "{replayed:?}"
    );
    assert_eq!(stored, first);
    assert_eq!(repos.recurring.active_plans(merchant).await.unwrap(), vec![first]);
    assert_eq!(repos.recurring.fetch_plan(&retry.id).await.unwrap(), None);
}

pub(crate) async fn a_plan_key_reused_with_another_body_conflicts_and_stores_nothing(repos: Repositories) {
    let merchant = wallet('a');
    let first = plan(merchant, "Weekly");
    create_plan(&repos, &first, plan_claim(&first, "plan-1", "hash-1"))
        .await
        .unwrap();
    let other = plan(merchant, "Monthly");

    let outcome = create_plan(&repos, &other, plan_claim(&other, "plan-1", "hash-2")).await;

    assert!(
        matches!(outcome, Err(TxError::IdempotencyConflict)),
        "{outcome:?}"
    );
    assert_eq!(repos.recurring.active_plans(merchant).await.unwrap(), vec![first]);
}

pub(crate) async fn parallel_plan_creates_under_one_key_store_one_plan(repos: Repositories) {
    let merchant = wallet('a');
    let barrier = Arc::new(Barrier::new(10));
    let racers: Vec<_> = (0..10)
        .map(|_| {
            let (repos, barrier) = (repos.clone(), Arc::clone(&barrier));
            tokio::spawn(async move {
                let new = plan(merchant, "Weekly");
                let claim = plan_claim(&new, "plan-1", "hash-1");
                barrier.wait().await;
                create_plan(&repos, &new, claim).await
            })
        })
        .collect();

    let (mut fresh, mut replayed) = (Vec::new(), Vec::new());
    for racer in racers {
        match racer.await.unwrap().unwrap() {
            Committed::Fresh(plan) => fresh.push(plan),
            Committed::Replayed(response) => replayed.push(response),
            Committed::Recovered(plan) => replayed.push(created(plan.id.as_str(), "hash-1")),
        }
    }

    assert_eq!((fresh.len(), replayed.len()), (1, 9));
    let kept = created(fresh[0].id.as_str(), "hash-1");
    assert!(replayed.iter().all(|response| *response == kept), "{replayed:?}");
    assert_eq!(repos.recurring.active_plans(merchant).await.unwrap(), fresh);
}

pub(crate) async fn parallel_subscription_creates_under_one_key_store_one_subscription(repos: Repositories) {
    let plan = plan(wallet('a'), "Weekly");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let customer = wallet('c');
    let barrier = Arc::new(Barrier::new(8));
    // Each racer carries another permission (salt), so only the key can keep them to one subscription.
    let racers: Vec<_> = (0..8)
        .map(|salt| {
            let (repos, barrier, new) = (
                repos.clone(),
                Arc::clone(&barrier),
                new_subscription(&plan, customer, salt),
            );
            tokio::spawn(async move {
                let claim = subscription_claim(customer, "sub-1", "hash-1");
                barrier.wait().await;
                subscribe(&repos, &new, claim).await
            })
        })
        .collect();

    let (mut fresh, mut replayed) = (Vec::new(), Vec::new());
    for racer in racers {
        match racer.await.unwrap().unwrap() {
            Committed::Fresh(subscription) => fresh.push(subscription),
            Committed::Replayed(response) => replayed.push(response),
            Committed::Recovered(subscription) => replayed.push(created(subscription.id.as_str(), "hash-1")),
        }
    }

    assert_eq!((fresh.len(), replayed.len()), (1, 7));
    let kept = created(fresh[0].id.as_str(), "hash-1");
    assert!(replayed.iter().all(|response| *response == kept), "{replayed:?}");
    let stored = repos
        .recurring
        .find_subscriptions(&StatusQuery::Customer(customer))
        .await
        .unwrap();
    assert_eq!(stored, fresh);
}

pub(crate) async fn a_subscription_key_reused_with_another_body_conflicts(repos: Repositories) {
    let plan = plan(wallet('a'), "Weekly");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let customer = wallet('c');
    subscribe(
        &repos,
        &new_subscription(&plan, customer, 1),
        subscription_claim(customer, "sub-1", "hash-1"),
    )
    .await
    .unwrap();

    let outcome = subscribe(
        &repos,
        &new_subscription(&plan, customer, 2),
        subscription_claim(customer, "sub-1", "hash-2"),
    )
    .await;

    assert!(
        matches!(outcome, Err(TxError::IdempotencyConflict)),
        "{outcome:?}"
    );
    let stored = repos
        .recurring
        .find_subscriptions(&StatusQuery::Customer(customer))
        .await
        .unwrap();
    assert_eq!(stored.len(), 1);
}

pub(crate) async fn a_refused_subscription_keeps_no_response(repos: Repositories) {
    let customer = wallet('c');
    let mut gone = plan(wallet('a'), "Gone");
    gone.active = false;
    repos.recurring.create_plan(&gone, None).await.unwrap();
    let claimed = subscription_claim(customer, "sub-1", "hash-1");
    let key = claimed.clone().unwrap();

    let refused = repos
        .recurring
        .create_subscription(&new_subscription(&gone, customer, 1), T0, claimed)
        .await;

    assert!(
        matches!(
            refused,
            Err(TxError::Refused(SubscriptionRefusal::PlanUnavailable))
        ),
        "{refused:?}"
    );
    assert_eq!(repos.recurring.earlier_call(&key).await.unwrap(), None);
    let live = plan(wallet('a'), "Live");
    repos.recurring.create_plan(&live, None).await.unwrap();
    let corrected = subscribe(
        &repos,
        &new_subscription(&live, customer, 1),
        subscription_claim(customer, "sub-1", "hash-1"),
    )
    .await;
    assert!(matches!(corrected, Ok(Committed::Fresh(_))), "{corrected:?}");
}

pub(crate) async fn kept_responses_belong_to_one_wallet_and_one_scope(repos: Repositories) {
    let (merchant, customer) = (wallet('a'), wallet('c'));
    let weekly = plan(merchant, "Weekly");
    create_plan(&repos, &weekly, plan_claim(&weekly, "shared", "hash-1"))
        .await
        .unwrap();
    // The same key by another merchant, and by the merchant on the subscription route, is another key.
    let theirs = plan(wallet('b'), "Theirs");
    let their_plan = create_plan(&repos, &theirs, plan_claim(&theirs, "shared", "hash-1")).await;
    let subscribed = subscribe(
        &repos,
        &new_subscription(&weekly, merchant, 1),
        subscription_claim(merchant, "shared", "hash-1"),
    )
    .await;

    assert!(matches!(their_plan, Ok(Committed::Fresh(_))), "{their_plan:?}");
    assert!(matches!(subscribed, Ok(Committed::Fresh(_))), "{subscribed:?}");
    assert_eq!(
        kept(&repos, merchant, PLANS).await,
        Some(created(weekly.id.as_str(), "hash-1"))
    );
    assert_eq!(
        kept(&repos, wallet('b'), PLANS).await,
        Some(created(theirs.id.as_str(), "hash-1"))
    );
    assert_eq!(kept(&repos, customer, PLANS).await, None);
    assert_eq!(kept(&repos, customer, SUBSCRIPTIONS).await, None);
    assert!(kept(&repos, merchant, SUBSCRIPTIONS).await.is_some());
}

/// What is kept under the key `shared` of `wallet` on `scope`.
async fn kept(repos: &Repositories, wallet: Wallet, scope: &'static str) -> Option<IdempotentResponse> {
    let claim = claim(wallet, scope, "shared", "any");
    match repos.recurring.earlier_call(&claim).await.unwrap() {
        Some(EarlierCall::Kept(kept)) => Some(kept),
        Some(EarlierCall::Committed { .. }) | None => None,
    }
}
