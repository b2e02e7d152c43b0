//! [`crate::store::RecurringRepository`]: plans, one subscription per signed permission (raced), status
//! listings, cancel, and the charge ledger: parallel claims lease each due period once, only the lease owner
//! settles, an expired lease comes back for reconciliation, a failed attempt is claimed again, and a
//! subscription canceled mid-charge stays canceled.

use std::sync::Arc;

use payments_core::{
    BillingPeriod, Cents, FailurePolicy, ScheduleAfter, SpendPermissionData, SubscriptionStatus, Wallet,
};
use tokio::sync::Barrier;

use crate::domain::recurring::{
    ChargeClaim, ChargeClaimKind, ChargeOutcome, ChargeSettlement, ClaimRequest, CreateSubscriptionOutcome,
    CustomerSubscription, CustomerSubscriptionId, NewCustomerSubscription, Plan, PlanId, PlanUpdate,
    SettleOutcome, StatusQuery,
};
use crate::store::Repositories;
use crate::store::contract::fixtures::{T0, wallet};

const WEEK_MS: i64 = 604_800_000;
/// A signature the store accepts as well-formed (the store never verifies it; the service does).
const SIGNATURE: &str = "0xd039939e6f89d5741bf1f47148b59aaeebe94167082bd1e68ed55d2884614fac1aaf6963bde66d41d949f1df5c9cddd42f116e3f9de6a3843f32aebd7e9442221c";

fn plan(merchant: Wallet, name: &str) -> Plan {
    Plan {
        id: PlanId::generate(),
        merchant,
        name: name.to_owned(),
        description: "weekly box".to_owned(),
        price: Cents::new(999),
        period: BillingPeriod::Weekly,
        active: true,
        created_at: T0,
        updated_at: T0,
    }
}

fn new_subscription(plan: &Plan, customer: Wallet, salt: u64) -> NewCustomerSubscription {
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

async fn subscribed(repos: &Repositories, plan: &Plan, customer: Wallet, salt: u64) -> CustomerSubscription {
    match repos
        .recurring
        .create_subscription(&new_subscription(plan, customer, salt), T0)
        .await
        .unwrap()
    {
        CreateSubscriptionOutcome::Created(subscription) => *subscription,
        other => panic!("not created: {other:?}"),
    }
}

fn claim_request(owner: &str, now_ms: i64) -> ClaimRequest {
    ClaimRequest {
        now_ms,
        owner: owner.to_owned(),
        lease_until: now_ms + 60_000,
        limit: 100,
    }
}

fn charged(claim: &ChargeClaim, owner: &str, now_ms: i64) -> ChargeSettlement {
    let next_slot = T0 + (i64::try_from(claim.period_index).unwrap() + 1) * WEEK_MS;
    ChargeSettlement {
        subscription_id: claim.subscription.id.clone(),
        period_index: claim.period_index,
        owner: owner.to_owned(),
        outcome: ChargeOutcome::Charged {
            tx_hash: Some(format!("0x{:064x}", claim.period_index + 1)),
        },
        gross: Cents::new(999),
        fee: Cents::new(5),
        net: Cents::new(994),
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
    repos.recurring.create_plan(&basic).await.unwrap();
    repos.recurring.create_plan(&pro).await.unwrap();
    repos
        .recurring
        .create_plan(&plan(wallet('b'), "Other"))
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
    repos.recurring.create_plan(&plan).await.unwrap();
    let barrier = Arc::new(Barrier::new(4));
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let (repos, barrier) = (repos.clone(), Arc::clone(&barrier));
        let subscription = new_subscription(&plan, wallet('c'), 7);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            repos
                .recurring
                .create_subscription(&subscription, T0)
                .await
                .unwrap()
        }));
    }
    let mut created = 0;
    for task in tasks {
        match task.await.unwrap() {
            CreateSubscriptionOutcome::Created(_) => created += 1,
            CreateSubscriptionOutcome::PermissionReused => {}
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
    repos.recurring.create_plan(&plan).await.unwrap();

    let outcome = repos
        .recurring
        .create_subscription(&new_subscription(&plan, wallet('c'), 1), T0)
        .await
        .unwrap();

    assert_eq!(outcome, CreateSubscriptionOutcome::PlanUnavailable);
    let unknown = new_subscription(&self::plan(wallet('a'), "Never stored"), wallet('c'), 2);
    let outcome = repos.recurring.create_subscription(&unknown, T0).await.unwrap();
    assert_eq!(outcome, CreateSubscriptionOutcome::PlanUnavailable);
}

pub(crate) async fn subscriptions_list_by_customer_and_merchant_and_cancel_once(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan).await.unwrap();
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

pub(crate) async fn parallel_claims_lease_each_due_period_once(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan).await.unwrap();
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
    repos.recurring.create_plan(&plan).await.unwrap();
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
    assert_eq!(events[0].status, "charged");
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
    repos.recurring.create_plan(&plan).await.unwrap();
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
    repos.recurring.create_plan(&plan).await.unwrap();
    let subscription = subscribed(&repos, &plan, wallet('c'), 1).await;
    let claim = repos
        .recurring
        .claim_due(&claim_request("run", T0 + 1))
        .await
        .unwrap()
        .remove(0);
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
    assert_eq!(events[0].status, "charge_failed");
    assert_eq!(events[0].failure.as_deref(), Some("insufficient balance"));
    assert_eq!(events[0].transaction_hash, None);
}

pub(crate) async fn a_subscription_canceled_mid_charge_stays_canceled(repos: Repositories) {
    let plan = plan(wallet('a'), "Pro");
    repos.recurring.create_plan(&plan).await.unwrap();
    let subscription = subscribed(&repos, &plan, wallet('c'), 1).await;
    let claim = repos
        .recurring
        .claim_due(&claim_request("run", T0 + 1))
        .await
        .unwrap()
        .remove(0);

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
