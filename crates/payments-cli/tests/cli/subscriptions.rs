//! `payments plans list|create|update|deactivate` and `payments subscriptions show|cancel`.

use payments_client::{CreateSubscription, SubscriptionSelector};
use payments_core::{CancelSubscription, SpendPermission, SpendPermissionData};
use payments_server::testing::{
    TEST_CRON_SECRET, TEST_START_MS, TestApp, sign_hash, sign_permission, spawn_app, wallet_of_key,
};
use serde_json::Value;

use crate::helpers::{Run, client, payments};

const CUSTOMER_KEY: [u8; 32] = [0x31; 32];

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A funded customer subscribed to `plan_id` through the client; answers the subscription id.
async fn subscribe(app: &TestApp, plan_id: &str) -> String {
    let account = wallet_of_key(CUSTOMER_KEY);
    let chain = app.chain();
    chain.mint(account, 10_000_000);
    chain.approve(account, chain.manager(), u128::MAX);
    let spend = app.spend();
    let start = u64::try_from(TEST_START_MS / 1000).unwrap();
    let data = SpendPermissionData {
        account: account.to_string(),
        spender: spend.relayer().to_string(),
        token: spend.token().to_string(),
        allowance: "2500000".to_owned(),
        period: 2_592_000,
        start,
        end: start + 365 * 86_400,
        salt: "9".to_owned(),
        extra_data: "0x".to_owned(),
    };
    let permission: SpendPermission = data.parse().unwrap();
    let signature = sign_permission(CUSTOMER_KEY, &permission, &spend.domain());
    let created = client(app)
        .subscribe(&CreateSubscription {
            plan_id: plan_id.to_owned(),
            customer_wallet: account,
            permission_signature: format!("0x{}", hex_of(&signature)),
            permission_data: data,
            idempotency_key: None,
        })
        .await
        .unwrap();
    created.subscription_id
}

#[tokio::test(flavor = "multi_thread")]
async fn plans_are_created_listed_updated_and_deactivated_from_the_command_line() {
    let app = spawn_app().await;
    let wallet = app.wallet.to_string();

    let created = payments(
        &app,
        &[
            "plans",
            "create",
            "--name",
            "Monthly",
            "--price-usd",
            "2.50",
            "--period",
            "monthly",
            "--trial-days",
            "14",
            "--json",
        ],
    )
    .await;
    assert_eq!(created.code, 0, "{created:?}");
    let plan: Value = serde_json::from_str(&created.stdout).unwrap();
    let plan_id = plan["planId"].as_str().unwrap().to_owned();
    assert_eq!(plan["trialDays"], 14);
    let updated = payments(&app, &["plans", "update", &plan_id, "--name", "Monthly plus"]).await;
    let listed = payments(&app, &["plans", "list", &wallet]).await;
    let deactivated = payments(&app, &["plans", "deactivate", &plan_id, "--json"]).await;
    let empty = payments(&app, &["plans", "list", &wallet, "--json"]).await;

    assert_eq!(plan["priceUsd"], 2.5);
    assert_eq!(updated.code, 0, "{updated:?}");
    assert!(listed.stdout.starts_with("PLAN"), "{}", listed.stdout);
    assert!(
        listed.stdout.contains("Monthly plus") && listed.stdout.contains("$2.50"),
        "{}",
        listed.stdout
    );
    assert!(listed.stdout.contains("MONTHLY"), "{}", listed.stdout);
    let deactivated: Value = serde_json::from_str(&deactivated.stdout).unwrap();
    assert_eq!(deactivated["active"], false);
    assert_eq!(empty.stdout.trim(), "[]");
    let bad = payments(
        &app,
        &[
            "plans",
            "create",
            "--name",
            "X",
            "--price-usd",
            "1",
            "--period",
            "DAILY",
        ],
    )
    .await;
    assert_ne!(bad.code, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_subscription_is_shown_with_its_billing_events_and_canceled_by_signature() {
    let app = spawn_app().await;
    let created = payments(
        &app,
        &[
            "plans",
            "create",
            "--name",
            "Monthly",
            "--price-usd",
            "2.50",
            "--period",
            "MONTHLY",
            "--json",
        ],
    )
    .await;
    let plan: Value = serde_json::from_str(&created.stdout).unwrap();
    let id = subscribe(&app, plan["planId"].as_str().unwrap()).await;
    client(&app).charge_subscriptions(TEST_CRON_SECRET).await.unwrap();
    let customer = wallet_of_key(CUSTOMER_KEY);
    let cancel = CancelSubscription {
        subscription_id: id.clone(),
        wallet: customer,
    };
    let signature = format!(
        "0x{}",
        hex_of(&sign_hash(
            CUSTOMER_KEY,
            cancel.signing_hash(app.spend().domain().chain_id)
        ))
    );

    let shown = payments(&app, &["subscriptions", "show", &id]).await;
    let canceled = payments(
        &app,
        &[
            "subscriptions",
            "cancel",
            &id,
            "--signature",
            &signature,
            "--wallet",
            &customer.to_string(),
        ],
    )
    .await;

    assert_eq!(shown.code, 0, "{shown:?}");
    assert!(
        shown.stdout.contains("active") && shown.stdout.contains("charged"),
        "{}",
        shown.stdout
    );
    assert!(
        shown.stdout.contains("$2.49"),
        "net of the 0.5% fee: {}",
        shown.stdout
    );
    assert_eq!(canceled.code, 0, "{canceled:?}");
    assert!(canceled.stdout.contains("canceled"), "{}", canceled.stdout);
    let status = client(&app)
        .subscription_status(&SubscriptionSelector::Id(id))
        .await
        .unwrap();
    assert_eq!(
        status.subscriptions[0].status,
        payments_client::SubscriptionStatus::Canceled
    );
}

/// `payments plans create` of a monthly plan named `name` under the idempotency key `plan-monthly`.
async fn create_under_one_key(app: &TestApp, name: &str) -> Run {
    let args = [
        "plans",
        "create",
        "--name",
        name,
        "--price-usd",
        "2.50",
        "--period",
        "MONTHLY",
        "--idempotency-key",
        "plan-monthly",
        "--json",
    ];
    payments(app, &args).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plan_created_twice_under_one_idempotency_key_is_one_plan() {
    let app = spawn_app().await;

    let first = create_under_one_key(&app, "Monthly").await;
    let resent = create_under_one_key(&app, "Monthly").await;
    let changed = create_under_one_key(&app, "Yearly").await;

    assert_eq!((first.code, resent.code), (0, 0), "{first:?} {resent:?}");
    assert_eq!(resent.stdout, first.stdout);
    assert_ne!(changed.code, 0);
    assert!(changed.stderr.contains("idempotency_conflict"), "{changed:?}");
    let listed = payments(&app, &["plans", "list", &app.wallet.to_string(), "--json"]).await;
    let plans: Value = serde_json::from_str(&listed.stdout).unwrap();
    assert_eq!(plans.as_array().map(Vec::len), Some(1), "{plans}");
}
