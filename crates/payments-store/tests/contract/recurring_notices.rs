//! The lifecycle parts of [`payments_store::RecurringRepository`]: a trial's first charge is due at its
//! anchor, a charge notice is recorded once per (subscription, period) with its webhook even when raced,
//! and a cancel for a platform reason records it with its webhook once.

use std::sync::Arc;

use payments_core::{SubscriptionStatus, UpcomingCharge, WebhookAmount};
use serde_json::Value;
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use crate::recurring::{WEEK_MS, charged, claim_request, first_claim, new_subscription, plan};
use crate::subscription_webhooks::{body, due, events, hooked_subscription};
use payments_domain::recurring::{ChargeNotice, CustomerSubscription, PlatformCancelReason};
use payments_store::Committed;

const HOUR_MS: i64 = 3_600_000;

fn notice(subscription: &CustomerSubscription, period_index: u64, now_ms: i64) -> ChargeNotice {
    ChargeNotice {
        subscription_id: subscription.id.clone(),
        upcoming: UpcomingCharge {
            period_index,
            charge_at: T0 + WEEK_MS,
            amount: WebhookAmount::of(subscription.price),
            balance_sufficient: true,
            allowance_sufficient: false,
        },
        now_ms,
    }
}

pub(crate) async fn a_trial_subscription_is_trialing_and_due_only_at_its_anchor(repos: Repositories) {
    let plan = plan(wallet('a'), "Trial");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let mut trial = new_subscription(&plan, wallet('c'), 1);
    trial.anchor_ms = T0 + 14 * 24 * HOUR_MS;

    let created = repos.recurring.create_subscription(&trial, T0, None).await;
    let before = repos
        .recurring
        .claim_due(&claim_request("run", trial.anchor_ms - 1))
        .await
        .unwrap();
    let at_anchor = first_claim(&repos, "run", trial.anchor_ms).await;

    let Ok(Committed::Fresh(created)) = created else {
        panic!("not created: {created:?}");
    };
    assert_eq!(created.status, SubscriptionStatus::Trialing);
    assert_eq!(created.next_charge_at, trial.anchor_ms);
    let stored = repos
        .recurring
        .fetch_subscription(&trial.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.status, SubscriptionStatus::Trialing);
    assert!(before.is_empty(), "{before:?}");
    assert_eq!(at_anchor.period_index, 0);
    assert_eq!(at_anchor.subscription.status, SubscriptionStatus::Trialing);
}

pub(crate) async fn a_charge_notice_is_recorded_once_per_period_with_its_webhook_even_when_raced(
    repos: Repositories,
) {
    let (_, subscription) = hooked_subscription(&repos).await;
    let claim = first_claim(&repos, "run", T0).await;
    repos
        .recurring
        .settle_charges(&[charged(&claim, "run", T0)])
        .await
        .unwrap();
    let window_start = T0 + WEEK_MS - 72 * HOUR_MS;

    let too_early = repos
        .recurring
        .notice_candidates(T0 + 1, window_start - 1, 100)
        .await
        .unwrap();
    let candidates = repos
        .recurring
        .notice_candidates(window_start, window_start + 72 * HOUR_MS, 100)
        .await
        .unwrap();
    let barrier = Arc::new(Barrier::new(4));
    let racers: Vec<_> = (0..4)
        .map(|_| {
            let repos = repos.clone();
            let barrier = Arc::clone(&barrier);
            let notice = notice(&subscription, 1, window_start);
            tokio::spawn(async move {
                barrier.wait().await;
                repos.recurring.record_notices(&[notice]).await.unwrap()
            })
        })
        .collect();
    let mut recorded = 0;
    for racer in racers {
        recorded += racer.await.unwrap();
    }
    let after = repos
        .recurring
        .notice_candidates(window_start, window_start + 72 * HOUR_MS, 100)
        .await
        .unwrap();

    assert!(too_early.is_empty(), "{too_early:?}");
    assert_eq!(candidates.len(), 1);
    assert_eq!(candidates[0].id, subscription.id);
    assert_eq!(candidates[0].next_period_index, 1);
    assert_eq!(recorded, 1);
    assert!(after.is_empty(), "{after:?}");
    let deliveries = due(&repos, window_start).await;
    assert_eq!(
        events(&deliveries),
        [
            "subscription.created",
            "subscription.charged",
            "subscription.charge_upcoming"
        ]
    );
    let upcoming = body(&deliveries[2]);
    assert_eq!(upcoming["upcomingCharge"]["periodIndex"], 1);
    assert_eq!(upcoming["upcomingCharge"]["allowanceSufficient"], false);
    assert_eq!(upcoming["charge"], Value::Null);
    assert_eq!(upcoming["status"], "active");
}

pub(crate) async fn a_cancel_for_a_platform_reason_records_it_and_its_webhook_once(repos: Repositories) {
    let (_, subscription) = hooked_subscription(&repos).await;
    due(&repos, T0).await;

    let canceled = repos
        .recurring
        .cancel_for_reason(&subscription.id, PlatformCancelReason::RevokedOnChain, T0 + 5)
        .await
        .unwrap()
        .unwrap();
    repos
        .recurring
        .cancel_for_reason(&subscription.id, PlatformCancelReason::RevokedOnChain, T0 + 6)
        .await
        .unwrap();
    let candidates = repos
        .recurring
        .notice_candidates(T0 + 6, T0 + 2 * WEEK_MS, 100)
        .await
        .unwrap();

    assert_eq!(canceled.status, SubscriptionStatus::Canceled);
    assert_eq!(canceled.cancel_reason.as_deref(), Some("revoked_on_chain"));
    assert!(candidates.is_empty(), "a canceled subscription gets no notice");
    let deliveries = due(&repos, T0 + 6).await;
    assert_eq!(events(&deliveries), ["subscription.canceled"]);
    assert_eq!(body(&deliveries[0])["cancelReason"], "revoked_on_chain");
}
