//! [`payments_store::RecurringRepository`]: plans, one subscription per signed permission (raced), status
//! listings and cancel; the fixtures the charge-ledger tests (`recurring_charges`) share.

use std::sync::Arc;

use payments_core::{BillingPeriod, Cents, FailurePolicy, SpendPermissionData, SubscriptionStatus, Wallet};
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use payments_domain::recurring::{
    ChargeClaim, ChargeOutcome, ChargeSettlement, ClaimRequest, CustomerSubscription, CustomerSubscriptionId,
    NewCustomerSubscription, Plan, PlanId, PlanUpdate, StatusQuery, SubscriptionRefusal, TrialDays,
};
use payments_store::{Committed, TxError};

pub(crate) const WEEK_MS: i64 = 604_800_000;
/// A signature the store accepts as well-formed (the store never verifies it; the service does).
const SIGNATURE: &str = "0xd039939e6f89d5741bf1f47148b59aaeebe94167082bd1e68ed55d2884614fac1aaf6963bde66d41d949f1df5c9cddd42f116e3f9de6a3843f32aebd7e9442221c";

pub(crate) fn plan(merchant: Wallet, name: &str) -> Plan {
    Plan {
        id: PlanId::generate(),
        merchant,
        name: name.to_owned(),
        description: "weekly box".to_owned(),
        price: Cents::new(999),
        period: BillingPeriod::Weekly,
        trial_days: TrialDays::default(),
        active: true,
        webhook: None,
        created_at: T0,
        updated_at: T0,
    }
}

pub(crate) fn new_subscription(plan: &Plan, customer: Wallet, salt: u64) -> NewCustomerSubscription {
    let data = SpendPermissionData {
        account: customer.to_string(),
        spender: wallet('5').to_string(),
        token: wallet('7').to_string(),
        allowance: "9990000".to_owned(),
        period: 604_800,
        start: 1_699_000_000,
        end: 1_800_000_000,
        salt: salt.to_string(),
        extra_data: "0x".to_owned(),
    };
    NewCustomerSubscription {
        id: CustomerSubscriptionId::generate(),
        plan_id: plan.id.clone(),
        merchant: plan.merchant,
        customer,
        price: plan.price,
        period: plan.period,
        permission: data.parse().unwrap(),
        signature: hex::decode(&SIGNATURE[2..]).unwrap(),
        permission_hash: format!("0x{salt:064x}"),
        anchor_ms: T0,
    }
}

pub(crate) async fn subscribed(
    repos: &Repositories,
    plan: &Plan,
    customer: Wallet,
    salt: u64,
) -> CustomerSubscription {
    match repos
        .recurring
        .create_subscription(&new_subscription(plan, customer, salt), T0, None)
        .await
    {
        Ok(Committed::Fresh(subscription)) => subscription,
        other => panic!("not created: {other:?}"),
    }
}

pub(crate) fn claim_request(owner: &str, now_ms: i64) -> ClaimRequest {
    ClaimRequest {
        now_ms,
        owner: owner.to_owned(),
        lease_until: now_ms + 60_000,
        limit: 100,
    }
}

/// The first charge that `owner` claims at `now_ms` (the test made one due).
pub(crate) async fn first_claim(repos: &Repositories, owner: &str, now_ms: i64) -> ChargeClaim {
    repos
        .recurring
        .claim_due(&claim_request(owner, now_ms))
        .await
        .unwrap()
        .remove(0)
}

pub(crate) fn charged(claim: &ChargeClaim, owner: &str, now_ms: i64) -> ChargeSettlement {
    let next_slot = T0 + (i64::try_from(claim.period_index).unwrap() + 1) * WEEK_MS;
    ChargeSettlement {
        subscription_id: claim.subscription.id.clone(),
        period_index: claim.period_index,
        owner: owner.to_owned(),
        outcome: ChargeOutcome::Charged {
            tx_hash: Some(format!("0x{:064x}", claim.period_index + 1)),
        },
        gross: Cents::new(999),
        fee: payments_core::TokenAmount::from_base_units(49_950),
        net: payments_core::TokenAmount::from_base_units(9_940_050),
        credit_used: payments_core::TokenAmount::default(),
        schedule: FailurePolicy::DEFAULT.after_success(
            payments_core::ChargeProgress {
                period_index: claim.period_index,
                attempts: claim.attempt,
                failed_periods: 0,
            },
            next_slot,
        ),
        now_ms,
    }
}

pub(crate) async fn plans_list_while_active_and_change_only_for_their_merchant(repos: Repositories) {
    let merchant = wallet('a');
    let basic = plan(merchant, "Basic");
    let pro = plan(merchant, "Pro");
    repos.recurring.create_plan(&basic, None).await.unwrap();
    repos.recurring.create_plan(&pro, None).await.unwrap();
    repos
        .recurring
        .create_plan(&plan(wallet('b'), "Other"), None)
        .await
        .unwrap();
    let deactivate = PlanUpdate {
        id: basic.id.clone(),
        merchant,
        name: None,
        description: None,
        price: None,
        period: None,
        active: Some(false),
        webhook: None,
        now_ms: T0 + 1,
    };
    let stranger = PlanUpdate {
        merchant: wallet('b'),
        ..deactivate.clone()
    };

    let refused = repos.recurring.update_plan(&stranger).await.unwrap();
    let updated = repos.recurring.update_plan(&deactivate).await.unwrap().unwrap();

    assert_eq!(refused, None);
    assert!(!updated.active);
    assert_eq!(updated.name, "Basic");
    let active = repos.recurring.active_plans(merchant).await.unwrap();
    assert_eq!(active, vec![pro]);
    let stored = repos.recurring.fetch_plan(&basic.id).await.unwrap().unwrap();
    assert!(!stored.active);
    assert_eq!(stored.updated_at, T0 + 1);
}

pub(crate) async fn one_permission_backs_one_subscription_even_when_raced(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let barrier = Arc::new(Barrier::new(4));
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let (repos, barrier) = (repos.clone(), Arc::clone(&barrier));
        let subscription = new_subscription(&plan, wallet('c'), 7);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            repos.recurring.create_subscription(&subscription, T0, None).await
        }));
    }
    let mut created = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(Committed::Fresh(_)) => created += 1,
            Err(TxError::Refused(SubscriptionRefusal::PermissionReused)) => {}
            other => panic!("unexpected {other:?}"),
        }
    }

    assert_eq!(created, 1);
    let stored = repos
        .recurring
        .find_subscriptions(&StatusQuery::Customer(wallet('c')))
        .await
        .unwrap();
    assert_eq!(stored.len(), 1);
}

pub(crate) async fn an_inactive_plan_takes_no_subscriber(repos: Repositories) {
    let mut plan = plan(wallet('a'), "Gone");
    plan.active = false;
    repos.recurring.create_plan(&plan, None).await.unwrap();

    let outcome = repos
        .recurring
        .create_subscription(&new_subscription(&plan, wallet('c'), 1), T0, None)
        .await;

    assert!(
        matches!(
            outcome,
            Err(TxError::Refused(SubscriptionRefusal::PlanUnavailable))
        ),
        "{outcome:?}"
    );
    let unknown = new_subscription(&self::plan(wallet('a'), "Never stored"), wallet('c'), 2);
    let outcome = repos.recurring.create_subscription(&unknown, T0, None).await;
    assert!(
        matches!(
            outcome,
            Err(TxError::Refused(SubscriptionRefusal::PlanUnavailable))
        ),
        "{outcome:?}"
    );
}

pub(crate) async fn subscriptions_list_by_customer_and_merchant_and_cancel_once(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan, None).await.unwrap();
    let first = subscribed(&repos, &plan, wallet('c'), 1).await;
    let second = subscribed(&repos, &plan, wallet('d'), 2).await;

    let canceled = repos
        .recurring
        .cancel_subscription(&first.id, T0 + 5)
        .await
        .unwrap()
        .unwrap();
    let again = repos
        .recurring
        .cancel_subscription(&first.id, T0 + 9)
        .await
        .unwrap()
        .unwrap();

    assert_eq!(canceled.status, SubscriptionStatus::Canceled);
    assert_eq!(again.canceled_at, Some(T0 + 5));
    let by_merchant = repos
        .recurring
        .find_subscriptions(&StatusQuery::Merchant(wallet('a')))
        .await
        .unwrap();
    assert_eq!(by_merchant.len(), 2);
    let by_customer = repos
        .recurring
        .find_subscriptions(&StatusQuery::Customer(wallet('d')))
        .await
        .unwrap();
    assert_eq!(by_customer, vec![second.clone()]);
    assert_eq!(by_customer[0].permission, second.permission);
    let unknown = CustomerSubscriptionId::generate();
    assert_eq!(
        repos.recurring.cancel_subscription(&unknown, T0).await.unwrap(),
        None
    );
}
