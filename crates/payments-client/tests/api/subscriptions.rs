//! Recurring billing through the client: plans, subscribing with a signed permission, status, the batch,
//! the test clock, and both ways of cancelling.

use k256::ecdsa::SigningKey;
use payments_client::{
    BillingEventStatus, ChargeStatus, CreatePlan, CreateSubscription, Error, ErrorCode, OrUnknown,
    SubscriptionSelector, SubscriptionStatus, UpdatePlan, wallet_of_key,
};
use payments_core::{BillingPeriod, CancelSubscription, Cents, SpendPermission, SpendPermissionData, Wallet};
use payments_server::testing::{
    TEST_CRON_SECRET, TEST_START_MS, TestApp, sign_hash, sign_permission, spawn_app,
};

use crate::helpers::{START_SECS, client};

const PRICE_UNITS: u128 = 5_000_000;
const WEEK_MS: i64 = 604_800_000;

fn customer_key(n: u8) -> SigningKey {
    SigningKey::from_slice(&[n; 32]).unwrap()
}

pub(crate) fn weekly_plan() -> CreatePlan {
    CreatePlan {
        name: "Weekly".to_owned(),
        description: "a box".to_owned(),
        price_usd: Cents::new(500),
        period: BillingPeriod::Weekly,
        trial_days: None,
        idempotency_key: None,
        webhook_url: None,
    }
}

/// A funded customer's signed subscription request for `plan_id`.
pub(crate) fn signed_request(app: &TestApp, plan_id: &str, n: u8) -> CreateSubscription {
    let key = customer_key(n);
    let account = wallet_of_key(&key);
    let chain = app.chain();
    chain.mint(account, 3 * PRICE_UNITS);
    chain.approve(account, chain.manager(), u128::MAX);
    let spend = app.spend();
    let start = u64::try_from(TEST_START_MS / 1000).unwrap();
    let data = SpendPermissionData {
        account: account.to_string(),
        spender: spend.relayer().to_string(),
        token: spend.token().to_string(),
        allowance: PRICE_UNITS.to_string(),
        period: 604_800,
        start,
        end: start + 365 * 86_400,
        salt: "1".to_owned(),
        extra_data: "0x".to_owned(),
    };
    let permission: SpendPermission = data.parse().unwrap();
    let signature = sign_permission([n; 32], &permission, &spend.domain());
    CreateSubscription {
        plan_id: plan_id.to_owned(),
        customer_wallet: account,
        permission_signature: format!("0x{}", hex_of(&signature)),
        permission_data: data,
        idempotency_key: None,
    }
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[tokio::test]
async fn a_merchant_manages_plans_through_the_client() {
    let app = spawn_app().await;
    let client = client(&app);

    let plan = client.create_plan(&weekly_plan()).await.unwrap();
    let update = UpdatePlan {
        plan_id: plan.plan_id.clone(),
        price_usd: Some(Cents::new(750)),
        ..UpdatePlan::default()
    };
    let updated = client.update_plan(&update).await.unwrap();
    let listed = client.list_plans(app.wallet).await.unwrap();
    let deactivated = client.deactivate_plan(&plan.plan_id).await.unwrap();

    assert_eq!(updated.price_usd, Cents::new(750));
    assert_eq!(listed, vec![updated]);
    assert!(!deactivated.active);
    assert_eq!(client.list_plans(app.wallet).await.unwrap(), vec![]);
    let bad = client
        .create_plan(&CreatePlan {
            price_usd: Cents::new(0),
            ..weekly_plan()
        })
        .await;
    assert!(matches!(bad, Err(Error::Api(error)) if error.code == ErrorCode::InvalidInput));
}

#[tokio::test]
async fn a_customer_subscribes_is_charged_by_the_batch_and_cancels_by_signature() {
    let app = spawn_app().await;
    let client = client(&app);
    let plan = client.create_plan(&weekly_plan()).await.unwrap();

    let subscription = client
        .subscribe(&signed_request(&app, &plan.plan_id, 7))
        .await
        .unwrap();
    let batch = client.charge_subscriptions(TEST_CRON_SECRET).await.unwrap();
    let status = client
        .subscription_status(&SubscriptionSelector::Id(subscription.subscription_id.clone()))
        .await
        .unwrap();
    let customer = wallet_of_key(&customer_key(7));
    let cancel = CancelSubscription {
        subscription_id: subscription.subscription_id.clone(),
        wallet: customer,
    };
    let signature = sign_hash([7; 32], cancel.signing_hash(app.spend().domain().chain_id));
    let canceled = client
        .cancel_subscription_signed(
            &subscription.subscription_id,
            customer,
            &format!("0x{}", hex_of(&signature)),
        )
        .await
        .unwrap();
    let moved = client
        .advance_test_clock(TEST_CRON_SECRET, TEST_START_MS + WEEK_MS)
        .await
        .unwrap();
    let after = client.charge_subscriptions(TEST_CRON_SECRET).await.unwrap();

    assert_eq!(subscription.status, SubscriptionStatus::Active);
    assert_eq!((batch.processed, batch.succeeded), (1, 1));
    assert_eq!(batch.results[0].status, ChargeStatus::Charged);
    assert_eq!(
        batch.results[0].subscription_status,
        Some(OrUnknown::Known(SubscriptionStatus::Active))
    );
    let events = status.billing_events.unwrap();
    assert_eq!(events[0].status, BillingEventStatus::Charged);
    assert_eq!(events[0].gross_usd, Cents::new(500));
    assert_eq!(events[0].fee_usd, Cents::new(3));
    assert_eq!(events[0].net_usd, Cents::new(497));
    assert_eq!(canceled.status, SubscriptionStatus::Canceled);
    assert_eq!(moved, TEST_START_MS + WEEK_MS);
    assert_eq!(after.processed, 0);
    let again = client.subscribe(&signed_request(&app, &plan.plan_id, 7)).await;
    assert!(matches!(again, Err(Error::Api(error)) if error.code == ErrorCode::PermissionReused));
}

#[tokio::test]
async fn a_signed_in_customer_cancels_from_its_session() {
    let app = spawn_app().await;
    let client = client(&app);
    let plan = client.create_plan(&weekly_plan()).await.unwrap();
    let subscription = client
        .subscribe(&signed_request(&app, &plan.plan_id, 9))
        .await
        .unwrap();
    let session = client
        .sign_in_with_key_at(&customer_key(9), START_SECS)
        .await
        .unwrap();

    let canceled = client
        .cancel_subscription(&session, &subscription.subscription_id)
        .await
        .unwrap();

    assert_eq!(canceled.status, SubscriptionStatus::Canceled);
    let listed = client
        .subscription_status(&SubscriptionSelector::Customer(session.wallet()))
        .await
        .unwrap();
    assert_eq!(listed.subscriptions[0].status, SubscriptionStatus::Canceled);
    let merchant: Wallet = app.wallet;
    let by_merchant = client
        .subscription_status(&SubscriptionSelector::Merchant(merchant))
        .await
        .unwrap();
    assert_eq!(by_merchant.subscriptions.len(), 1);
}
