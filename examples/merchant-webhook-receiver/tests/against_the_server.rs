//! The receiver binary against a real in-process server: the README's "run it against a local server" steps,
//! automated. The server signs with the key that created the receipt; the receiver verifies, prints the event
//! once, and acknowledges a redelivery of the same delivery id without handling it again.

// Helpers are test code too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use payments_server::testing::{TestApp, spawn_app};
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
