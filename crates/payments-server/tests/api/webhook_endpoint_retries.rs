//! Webhook endpoint deliveries over time: the documented retry schedule under the test clock, recovery of
//! failed deliveries after an outage, redelivery, disabling an endpoint failing for 5 days, and the official
//! npm `standardwebhooks` and `svix` libraries accepting a real delivery.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use payments_server::testing::{TEST_START_MS, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::endpoint_helpers::{deliveries, newest_after, register, trigger};
use crate::helpers::{Api, send};
use crate::webhook_receiver::Receiver;

/// The documented default schedule, in seconds: 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h six times.
const SCHEDULE_SECS: [i64; 11] = [
    5, 300, 1_800, 7_200, 18_000, 36_000, 36_000, 36_000, 36_000, 36_000, 36_000,
];

#[tokio::test]
async fn a_down_endpoint_is_retried_on_the_schedule_under_the_test_clock_then_recovered() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[503; SCHEDULE_SECS.len() + 1]).await;
    let endpoint = register(&api, &receiver.url, &["*"]).await;
    trigger(&api, "receipt.status_updated", None).await;

    let mut now_ms = TEST_START_MS;
    for (retry, delay_secs) in SCHEDULE_SECS.iter().enumerate() {
        let attempts = i64::try_from(retry).unwrap() + 1;
        let delivery = newest_after(&api, &endpoint.id, attempts).await;
        assert_eq!(delivery["state"], "pending", "after attempt {attempts}");
        assert_eq!(
            delivery["nextAttemptAt"],
            now_ms + delay_secs * 1000,
            "after attempt {attempts}"
        );
        assert_eq!(delivery["lastStatusCode"], 503);
        // The attempt is recorded before the clock moves, so its lease is never overtaken by the jump.
        api.app
            .clock
            .advance(Duration::from_secs(u64::try_from(*delay_secs).unwrap()));
        now_ms += delay_secs * 1000;
    }
    let given_up = newest_after(&api, &endpoint.id, 12).await;
    let failed = eventually("the delivery to fail", Duration::from_secs(10), || async {
        let page = deliveries(&api, &endpoint.id, "?state=failed").await;
        page["deliveries"].get(0).cloned()
    })
    .await;
    let recovered = send(
        api.dev(
            Method::POST,
            &format!("/api/webhook-endpoints/{}/recover", endpoint.id),
        )
        .json(&json!({"since": TEST_START_MS})),
    )
    .await;
    let delivered = eventually("the recovered delivery", Duration::from_secs(10), || async {
        let page = deliveries(&api, &endpoint.id, "?state=delivered").await;
        page["deliveries"].get(0).cloned()
    })
    .await;

    assert_eq!(given_up["attempts"], 12);
    assert_eq!(failed["nextAttemptAt"], Value::Null);
    assert_eq!(recovered.json, json!({"ok": true, "recovered": 1}));
    assert_eq!(delivered["attempts"], 13);
    assert_eq!(delivered["lastStatusCode"], 200);
    let received = receiver.received();
    assert_eq!(received.len(), 13);
    assert!(
        received
            .iter()
            .all(|request| request.header("webhook-id") == failed["eventId"])
    );
}

#[tokio::test]
async fn the_delivery_log_pages_and_filters_and_one_delivery_can_be_sent_again() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let endpoint = register(&api, &receiver.url, &["*"]).await;
    for event_type in [
        "subscription.created",
        "subscription.charged",
        "subscription.created",
    ] {
        trigger(&api, event_type, None).await;
    }
    receiver.wait_for_distinct(3).await;

    let first = deliveries(&api, &endpoint.id, "?limit=2").await;
    let cursor = first["nextCursor"].as_str().unwrap().to_owned();
    let second = deliveries(&api, &endpoint.id, &format!("?limit=2&cursor={cursor}")).await;
    let created = deliveries(&api, &endpoint.id, "?eventType=subscription.created").await;
    let bad_state = send(api.dev(
        Method::GET,
        &format!("/api/webhook-endpoints/{}/deliveries?state=lost", endpoint.id),
    ))
    .await;
    let oldest = second["deliveries"][0]["deliveryId"].as_str().unwrap().to_owned();
    let again = send(api.dev(
        Method::POST,
        &format!(
            "/api/webhook-endpoints/{}/deliveries/{oldest}/redeliver",
            endpoint.id
        ),
    ))
    .await;
    let missing = send(api.dev(
        Method::POST,
        &format!("/api/webhook-endpoints/{}/deliveries/nope/redeliver", endpoint.id),
    ))
    .await;

    assert_eq!(first["deliveries"].as_array().unwrap().len(), 2);
    assert_eq!(second["deliveries"].as_array().unwrap().len(), 1);
    assert_eq!(second.get("nextCursor"), None);
    assert_eq!(created["deliveries"].as_array().unwrap().len(), 2);
    assert_eq!(
        (bad_state.status, bad_state.json["field"].as_str()),
        (400, Some("state"))
    );
    assert_eq!(again.json, json!({"ok": true, "deliveryId": oldest}));
    assert_eq!(missing.status, 404);
    let received = receiver.wait_for(4).await;
    assert_eq!(received[3].header("webhook-id"), received[0].header("webhook-id"));
}

#[tokio::test]
async fn an_endpoint_failing_for_five_days_is_disabled_and_the_other_endpoints_are_told() {
    let api = Api::spawn().await;
    let down = Receiver::start(&[500, 500]).await;
    let healthy = Receiver::start(&[]).await;
    let failing = register(&api, &down.url, &["subscription.*"]).await;
    let watching = register(&api, &healthy.url, &["webhook_endpoint.*"]).await;

    trigger(&api, "subscription.charged", Some(&failing.id)).await;
    newest_after(&api, &failing.id, 1).await;
    api.app.clock.advance(Duration::from_secs(5 * 24 * 3600 + 1));
    let told = healthy.wait_for_distinct(1).await.remove(0);
    let disabled = send(api.dev(Method::GET, &format!("/api/webhook-endpoints/{}", failing.id))).await;
    let enabled_again = send(
        api.dev(Method::PATCH, &format!("/api/webhook-endpoints/{}", failing.id))
            .json(&json!({"enabled": true})),
    )
    .await;

    let body = told.json();
    assert_eq!(body["type"], "webhook_endpoint.disabled");
    assert_eq!(body["data"]["endpointId"], failing.id.as_str());
    assert_eq!(body["data"]["failingSince"], TEST_START_MS);
    crate::endpoint_helpers::verify_with(&watching.secret, &told).unwrap();
    assert_eq!(disabled.json["enabled"], false);
    assert_eq!(disabled.json["failingSince"], TEST_START_MS);
    assert_eq!(enabled_again.json["enabled"], true);
    assert_eq!(enabled_again.json["failingSince"], Value::Null);
}

fn interop_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../webhook-verify/tests/interop")
}

/// Asks the official libraries (crates/webhook-verify/tests/interop) to verify; `None` after saying why
/// when node or the libraries are missing outside CI.
fn official_verdicts(requests: &Value) -> Option<Vec<Value>> {
    let installed = ["standardwebhooks", "svix"]
        .iter()
        .all(|library| interop_dir().join("node_modules").join(library).exists());
    if !installed || Command::new("node").arg("--version").output().is_err() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "the official webhook libraries are not installed under CI=true: run \
             crates/webhook-verify/tests/interop/install.sh"
        );
        eprintln!(
            "skipping: node or the official webhook libraries are missing (crates/webhook-verify/tests/interop/install.sh)"
        );
        return None;
    }
    let mut child = Command::new("node")
        .arg("interop.js")
        .current_dir(interop_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(requests.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

#[tokio::test]
async fn the_official_standard_webhooks_libraries_accept_a_delivery_and_refuse_it_tampered() {
    let api = Api::spawn().await;
    // The libraries check the timestamp against the real time: sign at the real time.
    let real_now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis();
    api.app.clock.set(i64::try_from(real_now).unwrap());
    let receiver = Receiver::start(&[]).await;
    let endpoint = register(&api, &receiver.url, &["*"]).await;
    let rotated = send(api.dev(
        Method::POST,
        &format!("/api/webhook-endpoints/{}/rotate", endpoint.id),
    ))
    .await;
    let new_secret = rotated.json["secret"].as_str().unwrap().to_owned();
    trigger(&api, "receipt.status_updated", None).await;
    let request = receiver.wait_for_distinct(1).await.remove(0);
    let headers: serde_json::Map<String, Value> = ["webhook-id", "webhook-timestamp", "webhook-signature"]
        .iter()
        .map(|name| ((*name).to_owned(), json!(request.header(name))))
        .collect();
    let body = String::from_utf8(request.body.to_vec()).unwrap();
    let tampered = body.replace("\"test\":true", "\"test\":false");
    let mut requests = Vec::new();
    for library in ["standardwebhooks", "svix"] {
        for (secret, text) in [
            (&new_secret, &body),
            (&endpoint.secret, &body),
            (&new_secret, &tampered),
        ] {
            requests.push(json!({"library": library, "op": "verify", "secret": secret, "headers": headers, "body": text}));
        }
    }

    let Some(verdicts) = official_verdicts(&Value::Array(requests)) else {
        return;
    };

    let valid: Vec<bool> = verdicts.iter().map(|verdict| verdict["valid"] == true).collect();
    assert_eq!(valid, [true, true, false, true, true, false], "{verdicts:?}");
}
