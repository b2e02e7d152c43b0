//! `payments subscriptions subscribe` on anvil, as a customer with only a key file and the chain's URL:
//! the first subscription sends the approval, signs and creates, and the batch then charges it on chain; a
//! customer who has not approved and gives no `--rpc-url` is told so and nothing is created. Skipped (with a
//! message) when anvil is not installed, except under `CI=true`.

use std::os::unix::fs::PermissionsExt;

use payments_client::{CreatePlan, SubscriptionSelector};
use payments_core::{BillingPeriod, Cents, Wallet};
use payments_server::testing::anvil::{Anvil, BUYER, BUYER_KEY, DEPLOYER_KEY};
use payments_server::testing::{TEST_CRON_SECRET, TestApp, TestNode, TestOptions, spawn_app_with};
use serde_json::Value;

use crate::helpers::{client, payments};

/// anvil's third default account: has gas, has not approved anything.
const OTHER_KEY: &str = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const OTHER: &str = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
/// $4.00 in token base units.
const PRICE_UNITS: u128 = 4_000_000;

struct OnAnvil {
    anvil: Anvil,
    app: TestApp,
    token: String,
    manager: String,
    plan_id: String,
    dir: tempfile::TempDir,
}

async fn on_anvil() -> Option<OnAnvil> {
    let anvil = Anvil::start()?;
    let contracts = anvil.bootstrap().await;
    let app = spawn_app_with(TestOptions {
        node: Some(TestNode {
            rpc_url: anvil.rpc_url.clone(),
            contracts,
            relayer_key: DEPLOYER_KEY.to_owned(),
        }),
        ..TestOptions::default()
    })
    .await;
    // The server's clock at the chain's time, so the permission has started when the manager checks it.
    app.clock.set(i64::try_from(anvil.now_secs()).unwrap() * 1000);
    let plan = client(&app)
        .create_plan(&CreatePlan {
            name: "Weekly coffee".to_owned(),
            description: String::new(),
            price_usd: Cents::new(400),
            period: BillingPeriod::Weekly,
            trial_days: None,
            webhook_url: None,
            idempotency_key: None,
        })
        .await
        .unwrap();
    Some(OnAnvil {
        token: contracts.token.to_string(),
        manager: contracts.spend_permission_manager.unwrap().to_string(),
        plan_id: plan.plan_id,
        anvil,
        app,
        dir: tempfile::tempdir().unwrap(),
    })
}

impl OnAnvil {
    fn key_file(&self, key: &str) -> String {
        let path = self.dir.path().join(format!("{}.key", &key[2..10]));
        std::fs::write(&path, format!("{key}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        path.to_str().unwrap().to_owned()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn subscribing_from_the_command_line_approves_signs_and_creates_and_the_batch_charges_it() {
    let Some(setup) = on_anvil().await else { return };
    setup.anvil.send(
        DEPLOYER_KEY,
        &setup.token,
        "mint(address,uint256)",
        &[BUYER, &(2 * PRICE_UNITS).to_string()],
    );
    let key_file = setup.key_file(BUYER_KEY);

    let run = payments(
        &setup.app,
        &[
            "subscriptions",
            "subscribe",
            "--plan",
            &setup.plan_id,
            "--private-key-file",
            &key_file,
            "--rpc-url",
            &setup.anvil.rpc_url,
            "--json",
        ],
    )
    .await;

    assert_eq!(run.code, 0, "{run:?}");
    let subscription: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(subscription["status"], "active");
    assert_eq!(
        setup.anvil.allowance(&setup.token, BUYER, &setup.manager),
        u128::MAX
    );
    let batch = client(&setup.app)
        .charge_subscriptions(TEST_CRON_SECRET)
        .await
        .unwrap();
    assert_eq!(batch.succeeded, 1, "{batch:?}");
    assert_eq!(setup.anvil.balance(&setup.token, BUYER), PRICE_UNITS);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_customer_who_must_approve_and_gives_no_rpc_url_is_told_so_and_nothing_is_created() {
    let Some(setup) = on_anvil().await else { return };
    let key_file = setup.key_file(OTHER_KEY);

    let run = payments(
        &setup.app,
        &[
            "subscriptions",
            "subscribe",
            "--plan",
            &setup.plan_id,
            "--private-key-file",
            &key_file,
        ],
    )
    .await;

    assert_ne!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("approval_needed"), "{}", run.stderr);
    assert!(run.stderr.contains("--rpc-url"), "{}", run.stderr);
    let listed = client(&setup.app)
        .subscription_status(&SubscriptionSelector::Customer(Wallet::parse(OTHER).unwrap()))
        .await
        .unwrap();
    assert!(listed.subscriptions.is_empty());
}
