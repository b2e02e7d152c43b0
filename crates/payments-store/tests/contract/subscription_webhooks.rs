//! Subscription webhooks go into the outbox in the transaction of their change, and only then: created with
//! the subscription, charged / charge_failed with the settlement (never for a lost lease), canceled once
//! (by a cancel or by the failure policy); nothing for a plan without a webhook target or a refused create.
//! A charge credits the customer's xp in the same transaction.

use payments_core::{ScheduleAfter, SubscriptionStatus};
use serde_json::Value;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use crate::recurring::{charged, claim_request, first_claim, new_subscription, plan, subscribed};
use crate::users::profile;
use payments_domain::recurring::SubscriptionRefusal;
use payments_domain::recurring::{ChargeOutcome, CustomerSubscription, Plan, PlanUpdate, PlanWebhook};
use payments_store::{Claim, DeliveryOwner, DueDelivery, TxError};

const HOOK: &str = "https://merchant.example/subscription-hooks";
const SEALED: [u8; 40] = [9; 40];

pub(crate) fn hooked_plan() -> Plan {
    Plan {
        webhook: Some(PlanWebhook {
            url: HOOK.to_owned(),
            sealed_key: Some(SEALED.to_vec()),
        }),
        ..plan(wallet('a'), "Hooked")
    }
}

/// Every delivery due by `now_ms`, leased for a minute.
pub(crate) async fn due(repos: &Repositories, now_ms: i64) -> Vec<DueDelivery> {
    repos
        .outbox
        .claim_due(&Claim::new(now_ms, now_ms + 60_000, 100))
        .await
        .unwrap()
}

pub(crate) fn body(delivery: &DueDelivery) -> Value {
    serde_json::from_slice(&delivery.body).unwrap()
}

pub(crate) fn events(deliveries: &[DueDelivery]) -> Vec<&str> {
    deliveries
        .iter()
        .map(|delivery| delivery.event.as_str())
        .collect()
}

pub(crate) async fn hooked_subscription(repos: &Repositories) -> (Plan, CustomerSubscription) {
    let plan = hooked_plan();
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let subscription = subscribed(repos, &plan, wallet('c'), 1).await;
    (plan, subscription)
}

pub(crate) async fn a_subscription_enqueues_created_with_its_plans_key_and_a_refused_one_nothing(
    repos: Repositories,
) {
    let (plan, subscription) = hooked_subscription(&repos).await;
    let silent = self::plan(wallet('a'), "Silent");
    repos.recurring.create_plan(&silent, None).await.unwrap();
    subscribed(&repos, &silent, wallet('d'), 2).await;
    let reused = repos
        .recurring
        .create_subscription(&new_subscription(&plan, wallet('c'), 1), T0 + 1, None)
        .await;

    let deliveries = due(&repos, T0 + 1).await;

    assert!(matches!(
        reused,
        Err(TxError::Refused(SubscriptionRefusal::PermissionReused))
    ));
    assert_eq!(events(&deliveries), ["subscription.created"]);
    let created = &deliveries[0];
    assert_eq!(
        created.owner,
        DeliveryOwner::Subscription {
            subscription: subscription.id.clone(),
            plan: plan.id.clone(),
        }
    );
    assert_eq!(created.sealed_signing_key, Some(SEALED.to_vec()));
    assert_eq!(
        (created.url.as_str(), created.endpoint.as_str()),
        (HOOK, "https://merchant.example")
    );
    let body = body(created);
    assert_eq!(body["event"], "subscription.created");
    assert_eq!(body["id"], created.id.as_str());
    assert_eq!(body["subscriptionId"], subscription.id.as_str());
    assert_eq!(body["planId"], plan.id.as_str());
    assert_eq!(
        (body["status"].as_str(), body["previousStatus"].as_str()),
        (Some("active"), None)
    );
    assert_eq!(body["priceBaseUnits"], "9990000");
    assert_eq!(body["priceUsd"], 9.99);
    assert_eq!(body["charge"], Value::Null);
}

pub(crate) async fn a_settlement_enqueues_its_outcome_and_a_lost_lease_nothing(repos: Repositories) {
    let (_, subscription) = hooked_subscription(&repos).await;
    due(&repos, T0).await;
    let claim = first_claim(&repos, "owner", T0 + 1).await;

    repos
        .recurring
        .settle_charges(&[charged(&claim, "thief", T0 + 2)])
        .await
        .unwrap();
    let after_thief = due(&repos, T0 + 2).await;
    repos
        .recurring
        .settle_charges(&[charged(&claim, "owner", T0 + 3)])
        .await
        .unwrap();
    let after_owner = due(&repos, T0 + 3).await;

    assert!(after_thief.is_empty(), "{:?}", events(&after_thief));
    assert_eq!(events(&after_owner), ["subscription.charged"]);
    let body = body(&after_owner[0]);
    assert_eq!(body["subscriptionId"], subscription.id.as_str());
    assert_eq!(body["timestamp"], T0 + 3);
    assert_eq!(body["charge"]["periodIndex"], 0);
    assert_eq!(body["charge"]["grossUsd"], 9.99);
    assert_eq!(body["charge"]["feeBaseUnits"], "49950");
    assert_eq!(body["charge"]["feeUsd"], 0.04995);
    assert_eq!(body["charge"]["netUsd"], 9.94005);
    assert_eq!(body["charge"]["netBaseUnits"], "9940050");
    assert_eq!(body["charge"]["transactionHash"], format!("0x{:064x}", 1));
    assert_eq!(body["charge"]["failureReason"], Value::Null);
}

pub(crate) async fn failures_enqueue_charge_failed_and_the_policys_cancel_enqueues_canceled(
    repos: Repositories,
) {
    hooked_subscription(&repos).await;
    due(&repos, T0).await;
    let claim = first_claim(&repos, "run", T0 + 1).await;
    let ended = payments_domain::recurring::ChargeSettlement {
        outcome: ChargeOutcome::Failed {
            reason: "insufficient balance".to_owned(),
        },
        schedule: ScheduleAfter {
            status: SubscriptionStatus::Canceled,
            next_period_index: 0,
            next_charge_at: T0 + 2,
            attempts: 3,
            failed_periods: 2,
        },
        ..charged(&claim, "run", T0 + 2)
    };

    repos.recurring.settle_charges(&[ended]).await.unwrap();

    let deliveries = due(&repos, T0 + 2).await;
    assert_eq!(
        events(&deliveries),
        ["subscription.charge_failed", "subscription.canceled"]
    );
    let failed = body(&deliveries[0]);
    assert_eq!(failed["charge"]["failureReason"], "insufficient balance");
    assert_eq!(failed["charge"]["transactionHash"], Value::Null);
    assert_eq!(
        (failed["status"].as_str(), failed["previousStatus"].as_str()),
        (Some("canceled"), Some("active"))
    );
    let canceled = body(&deliveries[1]);
    assert_eq!(canceled["cancelReason"], "insufficient balance");
    assert_eq!(canceled["charge"], Value::Null);
}

pub(crate) async fn a_cancel_enqueues_canceled_once(repos: Repositories) {
    let (_, subscription) = hooked_subscription(&repos).await;
    due(&repos, T0).await;

    repos
        .recurring
        .cancel_subscription(&subscription.id, T0 + 5)
        .await
        .unwrap();
    repos
        .recurring
        .cancel_subscription(&subscription.id, T0 + 6)
        .await
        .unwrap();

    let deliveries = due(&repos, T0 + 6).await;
    assert_eq!(events(&deliveries), ["subscription.canceled"]);
    let body = body(&deliveries[0]);
    assert_eq!(
        (body["status"].as_str(), body["previousStatus"].as_str()),
        (Some("canceled"), Some("active"))
    );
    assert_eq!(body["cancelReason"], Value::Null);
}

pub(crate) async fn a_charge_credits_the_customers_xp_and_a_failure_does_not(repos: Repositories) {
    let customer = wallet('c');
    repos
        .users
        .save_profile(&profile(customer, "Subscriber", &[]))
        .await
        .unwrap();
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    subscribed(&repos, &plan, customer, 1).await;
    subscribed(&repos, &plan, customer, 2).await;
    let claims = repos
        .recurring
        .claim_due(&claim_request("run", T0 + 1))
        .await
        .unwrap();
    let failed = payments_domain::recurring::ChargeSettlement {
        outcome: ChargeOutcome::Failed {
            reason: "insufficient balance".to_owned(),
        },
        ..charged(&claims[1], "run", T0 + 2)
    };

    repos
        .recurring
        .settle_charges(&[charged(&claims[0], "run", T0 + 2), failed])
        .await
        .unwrap();

    // $9.99 of subscription spending: 9 xp (one per whole dollar, as purchases).
    let user = repos.users.fetch_user(customer).await.unwrap().unwrap();
    assert_eq!(user.xp, 9);
    assert!(
        due(&repos, T0 + 2).await.is_empty(),
        "a plan without a target sends nothing"
    );
}

pub(crate) async fn receipt_logs_and_the_depth_live_beside_subscription_deliveries(repos: Repositories) {
    hooked_subscription(&repos).await;
    crate::outbox::due_deliveries(&repos, 1).await;
    let receipt = crate::fixtures::receipt_id("r-0");

    let log = repos
        .outbox
        .list_deliveries(wallet('a'), &receipt)
        .await
        .unwrap()
        .unwrap();
    let depth = repos.outbox.depth(T0 + 2_000).await.unwrap();
    let claimed = due(&repos, T0 + 2_000).await;

    assert_eq!(log.len(), 1);
    assert_eq!(log[0].event, "receipt.paid");
    assert_eq!(depth.pending, 2);
    let mut owners: Vec<bool> = claimed.iter().map(|due| due.receipt().is_some()).collect();
    owners.sort_unstable();
    assert_eq!(owners, [false, true]);
}

pub(crate) async fn a_plans_webhook_target_is_kept_replaced_and_removed_with_its_key(repos: Repositories) {
    let plan = hooked_plan();
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let change = |webhook: Option<Option<PlanWebhook>>, now_ms: i64| PlanUpdate {
        id: plan.id.clone(),
        merchant: plan.merchant,
        name: Some(format!("Renamed at {now_ms}")),
        description: None,
        price: None,
        period: None,
        active: None,
        webhook,
        now_ms,
    };
    let replacement = PlanWebhook {
        url: "https://other.example/h".to_owned(),
        sealed_key: Some(vec![3; 40]),
    };

    let kept = repos.recurring.update_plan(&change(None, T0 + 1)).await.unwrap();
    let replaced = repos
        .recurring
        .update_plan(&change(Some(Some(replacement.clone())), T0 + 2))
        .await
        .unwrap();
    let removed = repos
        .recurring
        .update_plan(&change(Some(None), T0 + 3))
        .await
        .unwrap();

    assert_eq!(kept.and_then(|plan| plan.webhook), plan.webhook);
    assert_eq!(replaced.and_then(|plan| plan.webhook), Some(replacement));
    assert_eq!(removed.and_then(|plan| plan.webhook), None);
    let stored = repos.recurring.fetch_plan(&plan.id).await.unwrap().unwrap();
    assert_eq!(stored.webhook, None);
}
