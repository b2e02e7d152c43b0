//! The charge ledger of [`payments_store::RecurringRepository`]: parallel claims lease each due period once,
//! only the lease owner settles, an expired lease comes back for reconciliation, a failed attempt is claimed
//! again when its retry is due, and a subscription canceled mid-charge stays canceled.

use std::sync::Arc;

use payments_core::{Cents, ScheduleAfter, SubscriptionStatus};
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use crate::recurring::{WEEK_MS, charged, claim_request, first_claim, plan, subscribed};
use payments_domain::recurring::{
    BillingEventStatus, ChargeClaimKind, ChargeOutcome, ChargeSettlement, CustomerSubscriptionId,
    SettleOutcome,
};

pub(crate) async fn parallel_claims_lease_each_due_period_once(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    for salt in 0..20 {
        subscribed(&repos, &plan, wallet('c'), salt).await;
    }
    let barrier = Arc::new(Barrier::new(3));
    let mut tasks = Vec::new();
    for run in 0..3 {
        let (repos, barrier) = (repos.clone(), Arc::clone(&barrier));
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            repos
                .recurring
                .claim_due(&claim_request(&format!("run-{run}"), T0 + 1))
                .await
                .unwrap()
        }));
    }
    let mut claimed: Vec<(CustomerSubscriptionId, u64)> = Vec::new();
    for task in tasks {
        for claim in task.await.unwrap() {
            assert_eq!(claim.kind, ChargeClaimKind::Fresh);
            assert_eq!(claim.attempt, 1);
            claimed.push((claim.subscription.id.clone(), claim.period_index));
        }
    }

    claimed.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
    claimed.dedup();
    assert_eq!(claimed.len(), 20);
    assert!(claimed.iter().all(|(_, period)| *period == 0));
    let later = repos
        .recurring
        .claim_due(&claim_request("late", T0 + 2))
        .await
        .unwrap();
    assert!(later.is_empty(), "leased periods are not handed out again");
}

pub(crate) async fn only_the_lease_owner_settles_and_the_schedule_advances(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let subscription = subscribed(&repos, &plan, wallet('c'), 1).await;
    let claims = repos
        .recurring
        .claim_due(&claim_request("owner", T0 + 1))
        .await
        .unwrap();
    let claim = &claims[0];

    let stolen = repos
        .recurring
        .settle_charges(&[charged(claim, "thief", T0 + 2)])
        .await
        .unwrap();
    let settled = repos
        .recurring
        .settle_charges(&[charged(claim, "owner", T0 + 2)])
        .await
        .unwrap();
    let twice = repos
        .recurring
        .settle_charges(&[charged(claim, "owner", T0 + 3)])
        .await
        .unwrap();

    assert_eq!(stolen, vec![SettleOutcome::LeaseLost]);
    assert_eq!(settled, vec![SettleOutcome::Settled]);
    assert_eq!(twice, vec![SettleOutcome::LeaseLost]);
    let stored = repos
        .recurring
        .fetch_subscription(&subscription.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.next_period_index, 1);
    assert_eq!(stored.next_charge_at, T0 + WEEK_MS);
    let events = repos.recurring.billing_events(&subscription.id).await.unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].status, BillingEventStatus::Charged);
    assert_eq!(
        (events[0].gross_usd, events[0].fee_usd, events[0].net_usd),
        (Cents::new(999), Cents::new(5), Cents::new(994))
    );
    assert!(
        repos
            .recurring
            .claim_due(&claim_request("again", T0 + 10))
            .await
            .unwrap()
            .is_empty()
    );
    let next = repos
        .recurring
        .claim_due(&claim_request("next-week", T0 + WEEK_MS))
        .await
        .unwrap();
    assert_eq!(next.len(), 1);
    assert_eq!(next[0].period_index, 1);
}

pub(crate) async fn an_expired_lease_comes_back_for_reconciliation(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    subscribed(&repos, &plan, wallet('c'), 1).await;
    let first = repos
        .recurring
        .claim_due(&claim_request("crashed", T0 + 1))
        .await
        .unwrap();

    let retaken = repos
        .recurring
        .claim_due(&claim_request("recovery", T0 + 120_000))
        .await
        .unwrap();

    assert_eq!(first.len(), 1);
    assert_eq!(retaken.len(), 1);
    assert_eq!(retaken[0].kind, ChargeClaimKind::Reconcile);
    assert_eq!(retaken[0].attempt, 1);
    let late = repos
        .recurring
        .settle_charges(&[charged(&first[0], "crashed", T0 + 120_001)])
        .await
        .unwrap();
    assert_eq!(late, vec![SettleOutcome::LeaseLost]);
}

pub(crate) async fn a_failed_attempt_is_claimed_again_when_its_retry_is_due(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let subscription = subscribed(&repos, &plan, wallet('c'), 1).await;
    let claim = first_claim(&repos, "run", T0 + 1).await;
    let retry_at = T0 + 86_400_000;
    let failed = ChargeSettlement {
        outcome: ChargeOutcome::Failed {
            reason: "insufficient balance".to_owned(),
        },
        schedule: ScheduleAfter {
            status: SubscriptionStatus::Active,
            next_period_index: 0,
            next_charge_at: retry_at,
            attempts: 1,
            failed_periods: 0,
        },
        ..charged(&claim, "run", T0 + 2)
    };
    repos.recurring.settle_charges(&[failed]).await.unwrap();

    let early = repos
        .recurring
        .claim_due(&claim_request("early", retry_at - 1))
        .await
        .unwrap();
    let retry = repos
        .recurring
        .claim_due(&claim_request("retry", retry_at))
        .await
        .unwrap();

    assert!(early.is_empty());
    assert_eq!(retry.len(), 1);
    assert_eq!(retry[0].kind, ChargeClaimKind::Fresh);
    assert_eq!(retry[0].attempt, 2);
    assert_eq!(retry[0].period_index, 0);
    let events = repos.recurring.billing_events(&subscription.id).await.unwrap();
    assert_eq!(events[0].status, BillingEventStatus::ChargeFailed);
    assert_eq!(events[0].failure.as_deref(), Some("insufficient balance"));
    assert_eq!(events[0].transaction_hash, None);
}

pub(crate) async fn a_subscription_canceled_mid_charge_stays_canceled(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let subscription = subscribed(&repos, &plan, wallet('c'), 1).await;
    let claim = first_claim(&repos, "run", T0 + 1).await;

    repos
        .recurring
        .cancel_subscription(&subscription.id, T0 + 2)
        .await
        .unwrap();
    repos
        .recurring
        .settle_charges(&[charged(&claim, "run", T0 + 3)])
        .await
        .unwrap();

    let stored = repos
        .recurring
        .fetch_subscription(&subscription.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.status, SubscriptionStatus::Canceled);
    assert!(
        repos
            .recurring
            .claim_due(&claim_request("later", T0 + 2 * WEEK_MS))
            .await
            .unwrap()
            .is_empty()
    );
}

pub(crate) async fn the_relayers_send_lease_is_held_by_one_owner_until_released_or_expired(
    repos: Repositories,
) {
    let relayer = wallet('e');
    let store = &repos.recurring;

    let first = store
        .acquire_send_lease(relayer, "one", T0, T0 + 100)
        .await
        .unwrap();
    let second = store
        .acquire_send_lease(relayer, "two", T0 + 50, T0 + 150)
        .await
        .unwrap();
    let renewed = store
        .acquire_send_lease(relayer, "one", T0 + 60, T0 + 160)
        .await
        .unwrap();
    let other_relayer = store
        .acquire_send_lease(wallet('f'), "two", T0 + 60, T0 + 160)
        .await
        .unwrap();
    let after_expiry = store
        .acquire_send_lease(relayer, "two", T0 + 160, T0 + 260)
        .await
        .unwrap();
    store.release_send_lease(relayer, "one").await.unwrap();
    let still_two = store
        .acquire_send_lease(relayer, "one", T0 + 170, T0 + 270)
        .await
        .unwrap();
    store.release_send_lease(relayer, "two").await.unwrap();
    let released = store
        .acquire_send_lease(relayer, "one", T0 + 171, T0 + 271)
        .await
        .unwrap();

    assert_eq!(
        (
            first,
            second,
            renewed,
            other_relayer,
            after_expiry,
            still_two,
            released
        ),
        (true, false, true, true, true, false, true)
    );
}
