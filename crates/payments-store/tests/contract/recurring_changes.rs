//! Plan changes in [`payments_store::RecurringRepository`]: a pending change keeps its subscription out of
//! the batch's claims and excludes a second change (raced), applying it switches plan, price, permission and
//! credit with the prorated charge's billing event exactly once, a failed one changes nothing, a change whose
//! lease ran out is handed out for reconciliation, and a settled charge takes the credit off.

use std::sync::Arc;

use payments_core::{Proration, SpendPermissionData, TokenAmount};
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use crate::recurring::{WEEK_MS, charged, claim_request, first_claim, plan, subscribed};
use payments_domain::recurring::{
    BillingEvent, BillingEventStatus, ChangeRefusal, CustomerSubscription, Plan, SubscriptionChange,
    SubscriptionChangeId,
};
use payments_store::TxError;

const LEASE_MS: i64 = 60_000;

/// A change of `subscription` to `to` with `proration`, its permission salted by `salt`.
fn change_to(
    subscription: &CustomerSubscription,
    to: &Plan,
    proration: Proration,
    salt: u64,
) -> SubscriptionChange {
    let mut data = SpendPermissionData::from(&subscription.permission);
    data.salt = format!("{}", 1_000 + salt);
    data.allowance = "19990000".to_owned();
    let (fee, net) = match proration {
        Proration::Charge(amount) => {
            let fee = amount.base_units() / 200;
            (fee, amount.base_units() - fee)
        }
        Proration::Credit(_) | Proration::Nothing => (0, 0),
    };
    SubscriptionChange {
        id: SubscriptionChangeId::generate(),
        subscription_id: subscription.id.clone(),
        merchant: subscription.merchant,
        previous_plan_id: subscription.plan_id.clone(),
        previous_price: subscription.price,
        old_permission: subscription.permission.clone(),
        plan_id: to.id.clone(),
        price: to.price,
        permission: data.parse().unwrap(),
        signature: subscription.signature.clone(),
        permission_hash: format!("0x{:064x}", 1_000 + salt),
        period_index: 0,
        proration,
        fee: TokenAmount::from_base_units(fee),
        net: TokenAmount::from_base_units(net),
        created_at: T0 + 2,
    }
}

/// A merchant's weekly $9.99 plan and $19.99 plan, and a subscription to the first charged once.
async fn charged_subscription(repos: &Repositories) -> (CustomerSubscription, Plan) {
    let basic = plan(wallet('a'), "Basic");
    let mut pro = plan(wallet('a'), "Pro");
    pro.price = payments_core::Cents::new(1999);
    repos.recurring.create_plan(&basic, None).await.unwrap();
    repos.recurring.create_plan(&pro, None).await.unwrap();
    let subscription = subscribed(repos, &basic, wallet('c'), 1).await;
    let claim = first_claim(repos, "run", T0 + 1).await;
    repos
        .recurring
        .settle_charges(&[charged(&claim, "run", T0 + 1)])
        .await
        .unwrap();
    let subscription = repos
        .recurring
        .fetch_subscription(&subscription.id)
        .await
        .unwrap()
        .unwrap();
    (subscription, pro)
}

pub(crate) async fn an_applied_upgrade_switches_the_plan_and_records_its_prorated_charge_once(
    repos: Repositories,
) {
    let (subscription, pro) = charged_subscription(&repos).await;
    let change = change_to(
        &subscription,
        &pro,
        Proration::Charge(TokenAmount::from_base_units(5_000_000)),
        1,
    );
    repos
        .recurring
        .begin_change(&change, T0 + LEASE_MS)
        .await
        .unwrap();

    let claims_while_pending = repos
        .recurring
        .claim_due(&claim_request("run-2", T0 + WEEK_MS + 1))
        .await
        .unwrap();
    let applied = repos
        .recurring
        .apply_change(&change.id, Some("0xabc".to_owned()), T0 + 3, None)
        .await
        .unwrap()
        .unwrap();
    let again = repos
        .recurring
        .apply_change(&change.id, Some("0xabc".to_owned()), T0 + 4, None)
        .await
        .unwrap();

    assert!(
        claims_while_pending.is_empty(),
        "a pending change keeps the batch away"
    );
    let applied = applied.subscription;
    assert_eq!(
        (applied.plan_id.clone(), applied.price),
        (pro.id.clone(), pro.price)
    );
    assert_eq!(applied.permission, change.permission);
    assert_eq!(applied.credit, TokenAmount::default());
    assert!(again.is_none(), "a change applies once");
    let events = repos.recurring.billing_events(&subscription.id).await.unwrap();
    let prorated: Vec<&BillingEvent> = events
        .iter()
        .filter(|event| event.transaction_hash.as_deref() == Some("0xabc"))
        .collect();
    assert_eq!(prorated.len(), 1, "{events:?}");
    assert_eq!(prorated[0].status, BillingEventStatus::ProratedCharge);
    assert_eq!(
        prorated[0].gross_base_units,
        TokenAmount::from_base_units(5_000_000)
    );
    assert_eq!(prorated[0].fee_base_units, TokenAmount::from_base_units(25_000));
    let claims_after = repos
        .recurring
        .claim_due(&claim_request("run-3", T0 + WEEK_MS + 1))
        .await
        .unwrap();
    assert_eq!(claims_after.len(), 1);
    assert_eq!(claims_after[0].subscription.price, pro.price);
}

pub(crate) async fn one_of_two_raced_changes_is_recorded_and_a_failed_one_changes_nothing(
    repos: Repositories,
) {
    let (subscription, pro) = charged_subscription(&repos).await;
    let barrier = Arc::new(Barrier::new(2));
    let mut tasks = Vec::new();
    for salt in 0..2 {
        let (repos, barrier) = (repos.clone(), Arc::clone(&barrier));
        let change = change_to(&subscription, &pro, Proration::Nothing, salt);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            let outcome = repos.recurring.begin_change(&change, T0 + LEASE_MS).await;
            (change, outcome)
        }));
    }
    let mut recorded = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            (change, Ok(())) => recorded.push(change),
            (_, Err(TxError::Refused(ChangeRefusal::Busy))) => {}
            (_, other) => panic!("unexpected: {other:?}"),
        }
    }
    assert_eq!(recorded.len(), 1);

    repos
        .recurring
        .fail_change(&recorded[0].id, "refused", T0 + 3)
        .await
        .unwrap();
    let after = repos
        .recurring
        .fetch_subscription(&subscription.id)
        .await
        .unwrap()
        .unwrap();
    let applied_after_failure = repos
        .recurring
        .apply_change(&recorded[0].id, None, T0 + 4, None)
        .await
        .unwrap();

    assert_eq!(
        after, subscription,
        "a failed change leaves the subscription as it was"
    );
    assert!(applied_after_failure.is_none());
    let next = change_to(&subscription, &pro, Proration::Nothing, 9);
    repos.recurring.begin_change(&next, T0 + LEASE_MS).await.unwrap();
}

pub(crate) async fn a_change_whose_lease_ran_out_is_handed_out_for_reconciliation(repos: Repositories) {
    let (subscription, pro) = charged_subscription(&repos).await;
    let change = change_to(&subscription, &pro, Proration::Nothing, 1);
    repos
        .recurring
        .begin_change(&change, T0 + LEASE_MS)
        .await
        .unwrap();

    let before = repos
        .recurring
        .stale_changes(T0 + LEASE_MS - 1, 10)
        .await
        .unwrap();
    let after = repos.recurring.stale_changes(T0 + LEASE_MS, 10).await.unwrap();

    assert!(before.is_empty());
    assert_eq!(after, vec![change]);
}

/// A downgrade crediting 2.333333 recorded `pending` for a charged subscription (the subscription, the
/// change, the credit).
pub(crate) async fn pending_downgrade(
    repos: &Repositories,
) -> (CustomerSubscription, SubscriptionChange, TokenAmount) {
    let (subscription, pro) = charged_subscription(repos).await;
    let credit = TokenAmount::from_base_units(2_333_333);
    let change = change_to(&subscription, &pro, Proration::Credit(credit), 1);
    repos
        .recurring
        .begin_change(&change, T0 + LEASE_MS)
        .await
        .unwrap();
    (subscription, change, credit)
}

pub(crate) async fn a_downgrades_credit_comes_off_in_the_settlement_that_uses_it(repos: Repositories) {
    let (subscription, change, credit) = pending_downgrade(&repos).await;
    let applied = repos
        .recurring
        .apply_change(&change.id, None, T0 + 3, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(applied.subscription.credit, credit);

    let claim = first_claim(&repos, "run-2", T0 + WEEK_MS + 1).await;
    let mut settlement = charged(&claim, "run-2", T0 + WEEK_MS + 1);
    settlement.credit_used = TokenAmount::from_base_units(2_000_000);
    repos.recurring.settle_charges(&[settlement]).await.unwrap();
    let after = repos
        .recurring
        .fetch_subscription(&subscription.id)
        .await
        .unwrap()
        .unwrap();

    assert_eq!(after.credit, TokenAmount::from_base_units(333_333));
}
