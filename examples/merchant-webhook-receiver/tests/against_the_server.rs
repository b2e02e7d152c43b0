//! The receiver binary against a real in-process server: the README's "run it against a local server" steps,
//! automated. The server signs with the key that created the receipt (or the plan); the receiver verifies,
//! prints the event once, and acknowledges a redelivery of the same delivery id without handling it again.
//! Subscription events from a plan's `webhookUrl` are verified and printed the same way.

// Helpers are test code too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use payments_core::{SpendPermission, SpendPermissionData};
use payments_server::testing::{TestApp, sign_permission, spawn_app, wallet_of_key};
use serde_json::{Value, json};

/// The receiver process, killed when the test ends however it ends.
struct ReceiverProcess {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl ReceiverProcess {
    fn start(api_key: &str) -> (ReceiverProcess, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_merchant-webhook-receiver"))
            .env("MERCHANT_API_KEY", api_key)
            .env("LISTEN", "127.0.0.1:0")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let receiver = ReceiverProcess { child, lines };
        let first = receiver.next_line();
        let url = first
            .strip_prefix("listening on ")
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("unexpected first line: {first}"))
            .to_owned();
        (receiver, url)
    }

    fn next_line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .expect("the receiver printed nothing within 20 s")
    }

    fn no_line_within(&self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }
}

impl Drop for ReceiverProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn post(app: &TestApp, path: &str, body: Value) -> Value {
    let response = reqwest::Client::new()
        .post(app.url(path))
        .header("X-Gateway-Subscription-Key", &app.key)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

async fn deliveries(app: &TestApp, receipt: &str) -> Vec<Value> {
    let log: Value = reqwest::Client::new()
        .get(app.url(&format!("/api/receipts/{receipt}/webhooks")))
        .header("X-Gateway-Subscription-Key", &app.key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    log["deliveries"].as_array().cloned().unwrap_or_default()
}

/// Attempts of the first delivery that the receiver answered.
fn answered_attempts(delivery: &Value) -> usize {
    delivery["attempts"].as_array().map_or(0, |attempts| {
        attempts.iter().filter(|a| a["statusCode"] == 200).count()
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn the_receiver_verifies_prints_and_dedupes_what_the_server_sends() {
    let app = spawn_app().await;
    // The receiver checks the timestamp against its own clock, so the server must sign at the real time.
    let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis();
    app.clock.set(i64::try_from(now_ms).unwrap());
    let (receiver, url) = ReceiverProcess::start(&app.key);

    post(
        &app,
        "/api/receipts",
        json!({"id": "R-demo-1", "lineItems": [{"label": "T-shirt", "priceUsd": 25}], "totalUsd": 25,
               "webhook_url": url}),
    )
    .await;
    post(
        &app,
        "/api/receipts/status",
        json!({"receiptId": "R-demo-1", "wallet": app.wallet, "status": "link_opened"}),
    )
    .await;

    assert_eq!(
        receiver.next_line(),
        "receipt R-demo-1 is now link_opened (was pending)"
    );
    let delivery = payments_server::testing::eventually("the delivery log", Duration::from_secs(20), || {
        let app = &app;
        async move {
            let delivery = deliveries(app, "R-demo-1").await.into_iter().next()?;
            (answered_attempts(&delivery) == 1).then_some(delivery)
        }
    })
    .await;

    let delivery_id = delivery["deliveryId"].as_str().unwrap().to_owned();
    post(
        &app,
        &format!("/api/receipts/R-demo-1/webhooks/{delivery_id}/redeliver"),
        json!({}),
    )
    .await;
    payments_server::testing::eventually("the redelivery", Duration::from_secs(20), || {
        let app = &app;
        async move {
            let delivery = deliveries(app, "R-demo-1").await.into_iter().next()?;
            (answered_attempts(&delivery) == 2).then_some(())
        }
    })
    .await;
    // Same delivery id: acknowledged (200 above) but not handled a second time.
    assert_eq!(receiver.no_line_within(Duration::from_millis(500)), None);
}

const CUSTOMER_KEY: [u8; 32] = [0x52; 32];

/// The app's clock set to the real time: the receiver checks freshness against its own clock.
async fn app_at_real_time() -> TestApp {
    let app = spawn_app().await;
    let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis();
    app.clock.set(i64::try_from(now_ms).unwrap());
    app
}

/// A funded customer subscribes to `plan_id` with a permission starting a minute ago; answers the id.
async fn subscribe(app: &TestApp, plan_id: &str) -> String {
    let account = wallet_of_key(CUSTOMER_KEY);
    let chain = app.chain();
    chain.mint(account, 10_000_000);
    chain.approve(account, chain.manager(), u128::MAX);
    let spend = app.spend();
    let start = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() - 60;
    let data = SpendPermissionData {
        account: account.to_string(),
        spender: spend.relayer().to_string(),
        token: spend.token().to_string(),
        allowance: "2500000".to_owned(),
        period: 2_592_000,
        start,
        end: start + 365 * 86_400,
        salt: "52".to_owned(),
        extra_data: "0x".to_owned(),
    };
    let permission: SpendPermission = data.parse().unwrap();
    let signature: String = sign_permission(CUSTOMER_KEY, &permission, &spend.domain())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let created = post(
        app,
        "/api/subscriptions/create",
        json!({"planId": plan_id, "customerWallet": account.to_string(),
               "permissionSignature": format!("0x{signature}"), "permissionData": data}),
    )
    .await;
    created["subscription"]["subscriptionId"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_receiver_verifies_and_prints_a_subscription_created_by_the_server() {
    let app = app_at_real_time().await;
    let (receiver, url) = ReceiverProcess::start(&app.key);
    let plan = post(
        &app,
        "/api/subscriptions/plans",
        json!({"name": "Monthly box", "priceUsd": 2.5, "period": "MONTHLY", "webhookUrl": url}),
    )
    .await;

    let subscription = subscribe(&app, plan["plan"]["planId"].as_str().unwrap()).await;

    assert_eq!(
        receiver.next_line(),
        format!("subscription {subscription} is now active (subscription.created)")
    );
}
