//! `payments webhooks listen` accepts every event type, not only receipt events: a real `subscription.created`
//! from the server (a plan's `webhookUrl`), an endpoint envelope signed with an endpoint's own `whsec_` secret,
//! and event types this version does not know, each answered 200 and printed by type.

use std::time::SystemTime;

use payments_client::{CreatePlan, CreateSubscription};
use payments_core::{BillingPeriod, Cents, SpendPermission, SpendPermissionData};
use payments_server::testing::{TestApp, sign_permission, wallet_of_key};
use webhook_verify::{WebhookSecret, testing};

use crate::helpers::client;
use crate::webhooks_listen::{Listener, now_ms, post};

const CUSTOMER_KEY: [u8; 32] = [0x47; 32];
/// An endpoint secret of 32 bytes, as the service issues them for webhook endpoints.
const ENDPOINT_SECRET: &str = "whsec_Jn0xJ0N3iVsw5cQf6QdyqP1vb1dB6kM5x9p1Kc0Bf3s=";

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A funded customer subscribes to `plan_id`, with a permission that starts a minute ago (the app's clock
/// is the real time here); answers the subscription id.
pub(crate) async fn subscribe(app: &TestApp, plan_id: &str) -> String {
    let account = wallet_of_key(CUSTOMER_KEY);
    let chain = app.chain();
    chain.mint(account, 10_000_000);
    chain.approve(account, chain.manager(), u128::MAX);
    let spend = app.spend();
    let start = u64::try_from(now_ms() / 1000).unwrap() - 60;
    let data = SpendPermissionData {
        account: account.to_string(),
        spender: spend.relayer().to_string(),
        token: spend.token().to_string(),
        allowance: "2500000".to_owned(),
        period: 2_592_000,
        start,
        end: start + 365 * 86_400,
        salt: "47".to_owned(),
        extra_data: "0x".to_owned(),
    };
    let permission: SpendPermission = data.parse().unwrap();
    let signature = sign_permission(CUSTOMER_KEY, &permission, &spend.domain());
    client(app)
        .subscribe(&CreateSubscription {
            plan_id: plan_id.to_owned(),
            customer_wallet: account,
            permission_signature: format!("0x{}", hex_of(&signature)),
            permission_data: data,
            idempotency_key: None,
        })
        .await
        .unwrap()
        .subscription_id
}

#[tokio::test(flavor = "multi_thread")]
async fn a_subscription_created_by_the_real_server_is_verified_and_printed() {
    let app = spawn_app_at_real_time().await;
    let listener = Listener::start(&["--no-endpoint", "--key", &app.key], &[]);
    let plan = client(&app)
        .create_plan(&CreatePlan {
            name: "Monthly box".to_owned(),
            description: String::new(),
            price_usd: Cents::new(250),
            period: BillingPeriod::Monthly,
            trial_days: None,
            webhook_url: Some(format!("{}/plans/hook", listener.url)),
            idempotency_key: None,
        })
        .await
        .unwrap();

    let subscription = subscribe(&app, &plan.plan_id).await;
    let printed = listener.next_stdout();

    let (delivery, rest) = printed.split_once("  ").unwrap();
    assert!(!delivery.is_empty() && delivery != "-", "{printed}");
    assert_eq!(
        rest,
        format!(
            "subscription.created  subscriptionId={subscription} status=active planId={} priceUsd=2.50 \
             period=MONTHLY customerWallet={}",
            plan.plan_id,
            wallet_of_key(CUSTOMER_KEY)
        )
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_envelope_and_unknown_event_types_are_answered_200_and_printed_by_type() {
    let secret = WebhookSecret::new(ENDPOINT_SECRET).unwrap();
    let listener = Listener::start(&["--secret", ENDPOINT_SECRET], &[]);
    let charged = br#"{"id":"msg_env_1","type":"subscription.charged","createdAt":1767600000123,"test":true,"data":{"event":"subscription.charged","subscriptionId":"csub_5","status":"active","charge":{"periodIndex":0,"grossUsd":9.99,"grossBaseUnits":"9990000","feeUsd":0.04995,"feeBaseUnits":"49950","netUsd":9.94005,"netBaseUnits":"9940050","transactionHash":"0xabc"}}}"#;
    let upcoming = br#"{"event":"subscription.paused","subscriptionId":"csub_5","balanceSufficient":false}"#;
    let disabled = br#"{"id":"msg_env_3","type":"endpoint.disabled","createdAt":1767600000999,"data":{"endpointId":"we_1"}}"#;

    let mut answers = Vec::new();
    let mut lines = Vec::new();
    for (id, body) in [
        ("msg_env_1", &charged[..]),
        ("msg_env_2", &upcoming[..]),
        ("msg_env_3", &disabled[..]),
    ] {
        let headers = testing::standard_webhooks_headers(&secret, id, body, SystemTime::now());
        answers.push(post(&listener.url, &headers, body.to_vec()).await);
        lines.push(listener.next_stdout());
    }

    for answer in &answers {
        assert_eq!(answer, &(200, "ok\n".to_owned()));
    }
    assert_eq!(
        lines,
        [
            "msg_env_1  subscription.charged  subscriptionId=csub_5 status=active periodIndex=0 grossUsd=9.99 \
             feeUsd=0.04995 netUsd=9.94005 transactionHash=0xabc (test event)",
            "msg_env_2  subscription.paused  (not handled by this version)",
            "msg_env_3  endpoint.disabled  (not handled by this version)",
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_authentic_body_that_is_not_an_event_is_400_and_reported() {
    let secret = WebhookSecret::new(ENDPOINT_SECRET).unwrap();
    let listener = Listener::start(&["--secret", ENDPOINT_SECRET], &[]);
    let body = br#"{"subscriptionId":"csub_5"}"#;
    let headers = testing::standard_webhooks_headers(&secret, "msg_x", body, SystemTime::now());

    let answer = post(&listener.url, &headers, body.to_vec()).await;
    let rejection = listener.next_stderr_starting("rejected:");

    assert_eq!(answer.0, 400, "{answer:?}");
    assert!(rejection.contains("not an event"), "{rejection}");
}

/// A test app whose clock reads the real time: the listener checks freshness against its own clock.
pub(crate) async fn spawn_app_at_real_time() -> TestApp {
    let app = payments_server::testing::spawn_app().await;
    app.clock.set(now_ms());
    app
}
