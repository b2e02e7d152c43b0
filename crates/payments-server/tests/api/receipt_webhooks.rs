//! Status changes push signed `receipt.status_updated` webhooks through the durable outbox.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use payments_server::testing::{TEST_START_MS, eventually};
use reqwest::Method;
use serde_json::{Value, json};
use webhook_verify::{ApiKey, Scheme, Verifier, WebhookSecret};

use crate::helpers::{Api, Reply, send};
use crate::receipts_create::{create_receipt, receipt_body};
use crate::webhook_receiver::Receiver;

async fn receipt_with_hook(api: &Api, id: &str, url: &str) {
    let mut body = receipt_body(id);
    body["webhook_url"] = json!(url);
    body["transactionId"] = json!("ref-1");
    body["metadata"] = json!({"cart": 7});
    let reply = create_receipt(api, body).await;
    assert_eq!(reply.status, 201, "{}", reply.json);
}

async fn post_status(api: &Api, body: Value) -> Reply {
    send(api.dev(Method::POST, "/api/receipts/status").json(&body)).await
}

fn status(api: &Api, id: &str, status: &str) -> Value {
    json!({"receiptId": id, "wallet": api.app.wallet, "status": status})
}

async fn deliveries(api: &Api, id: &str) -> Value {
    let reply = send(api.dev(Method::GET, &format!("/api/receipts/{id}/webhooks"))).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json["deliveries"].clone()
}

/// Waits until the only delivery of `id` has `attempts` attempts; returns it.
async fn delivery_after(api: &Api, id: &str, attempts: usize) -> Value {
    eventually("the delivery log", Duration::from_secs(10), || async {
        let log = deliveries(api, id).await;
        let delivery = log.get(0)?.clone();
        (delivery["attempts"].as_array()?.len() >= attempts).then_some(delivery)
    })
    .await
}

fn at_test_time(offset_ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(TEST_START_MS as u64 + offset_ms)
}

#[tokio::test]
async fn a_status_change_sends_a_webhook_signed_with_the_creating_key_in_both_schemes() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    receipt_with_hook(&api, "hook-1", &receiver.url).await;

    let reply = post_status(&api, status(&api, "hook-1", "link_opened")).await;

    assert_eq!(
        reply.json,
        json!({"ok": true, "status": "link_opened", "previousStatus": "pending"})
    );
    let request = receiver.wait_for(1).await.remove(0);
    let x_service = Verifier::new(ApiKey::new(&api.app.key).unwrap());
    let standard = Verifier::standard_webhooks(WebhookSecret::from_api_key(&api.app.key).unwrap());
    let verified = x_service
        .verify_at(&request.headers, &request.body, at_test_time(0))
        .unwrap();
    let verified_standard = standard
        .verify_at(&request.headers, &request.body, at_test_time(0))
        .unwrap();
    assert_eq!(verified.scheme, Scheme::XService);
    assert_eq!(verified_standard.scheme, Scheme::StandardWebhooks);
    assert_eq!(request.header("x-service-event"), "receipt.status_updated");
    assert_eq!(request.header("user-agent"), "Service-Webhook/1.0");
    assert_eq!(request.header("content-type"), "application/json");
    assert_eq!(request.header("x-service-timestamp"), "1700000000000");
    assert_eq!(request.header("webhook-timestamp"), "1700000000");
    assert_eq!(request.header("webhook-id"), request.header("x-service-delivery"));
    assert_eq!(request.header("x-service-delivery").len(), 36);
    let body = request.json();
    assert_eq!(body["event"], "receipt.status_updated");
    assert_eq!(body["receiptId"], "hook-1");
    assert_eq!(body["status"], "link_opened");
    assert_eq!(body["previousStatus"], "pending");
    assert_eq!(
        body["merchantWallet"],
        "0x1111111111111111111111111111111111111111"
    );
    assert_eq!(body["totalUsd"], json!(7.75));
    assert_eq!(body["transactionId"], "ref-1");
    assert_eq!(body["metadata"], json!({"cart": 7}));
    assert_eq!(body["failureCode"], Value::Null);
    assert_eq!(body["timestamp"], json!(TEST_START_MS));
}

#[tokio::test]
async fn an_ignored_status_is_acknowledged_and_sends_nothing() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    receipt_with_hook(&api, "hook-2", &receiver.url).await;

    let reply = post_status(&api, status(&api, "hook-2", "pending")).await;

    assert_eq!(
        reply.json,
        json!({"ok": true, "ignored": true, "status": "pending"})
    );
    assert_eq!(deliveries(&api, "hook-2").await, json!([]));
}

#[tokio::test]
async fn a_failed_attempt_is_retried_once_five_seconds_later_with_the_same_delivery_id() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[500]).await;
    receipt_with_hook(&api, "retry-1", &receiver.url).await;
    post_status(&api, status(&api, "retry-1", "link_opened")).await;
    let first = delivery_after(&api, "retry-1", 1).await;
    assert_eq!(first["state"], "pending");
    assert_eq!(first["nextAttemptAt"], json!(TEST_START_MS + 5000));
    assert_eq!(first["attempts"][0]["statusCode"], 500);

    api.app.clock.advance(Duration::from_millis(5000));

    let requests = receiver.wait_for(2).await;
    assert_eq!(
        requests[0].header("x-service-delivery"),
        requests[1].header("x-service-delivery")
    );
    assert_eq!(requests[0].body, requests[1].body);
    let done = delivery_after(&api, "retry-1", 2).await;
    assert_eq!(done["state"], "delivered");
    assert_eq!(done["attempts"][1]["statusCode"], 200);
}

#[tokio::test]
async fn a_delivery_whose_retry_fails_too_is_marked_failed() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[500, 503]).await;
    receipt_with_hook(&api, "retry-2", &receiver.url).await;
    post_status(&api, status(&api, "retry-2", "link_opened")).await;
    delivery_after(&api, "retry-2", 1).await;

    api.app.clock.advance(Duration::from_secs(5));

    let failed = delivery_after(&api, "retry-2", 2).await;
    assert_eq!(failed["state"], "failed");
    assert_eq!(failed["nextAttemptAt"], Value::Null);
    assert_eq!(failed["attempts"][1]["error"], "receiver answered 503");
}

#[tokio::test]
async fn a_pending_retry_survives_a_server_restart() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[500]).await;
    receipt_with_hook(&api, "durable", &receiver.url).await;
    post_status(&api, status(&api, "durable", "link_opened")).await;
    delivery_after(&api, "durable", 1).await;

    let restarted = api.app.restart(false).await;
    restarted.clock.advance(Duration::from_secs(5));

    let requests = receiver.wait_for(2).await;
    assert_eq!(
        requests[0].header("x-service-delivery"),
        requests[1].header("x-service-delivery")
    );
    let verifier = Verifier::new(ApiKey::new(&restarted.key).unwrap());
    verifier
        .verify_at(&requests[1].headers, &requests[1].body, at_test_time(5000))
        .unwrap();
}

#[tokio::test]
async fn redelivery_sends_the_same_body_again_under_the_same_delivery_id() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    receipt_with_hook(&api, "again", &receiver.url).await;
    post_status(&api, status(&api, "again", "buyer_logged_in")).await;
    let delivered = delivery_after(&api, "again", 1).await;
    let delivery_id = delivered["deliveryId"].as_str().unwrap();

    let path = format!("/api/receipts/again/webhooks/{delivery_id}/redeliver");
    let reply = send(api.dev(Method::POST, &path)).await;

    assert_eq!(reply.json, json!({"ok": true, "deliveryId": delivery_id}));
    let requests = receiver.wait_for(2).await;
    assert_eq!(requests[1].header("x-service-delivery"), delivery_id);
    assert_eq!(requests[0].body, requests[1].body);
    let unknown = send(api.dev(Method::POST, "/api/receipts/again/webhooks/nope/redeliver")).await;
    assert_eq!(unknown.status, 404);
}

#[tokio::test]
async fn a_failed_status_needs_failure_details_and_sends_them() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    receipt_with_hook(&api, "fail-1", &receiver.url).await;
    let incomplete = post_status(&api, status(&api, "fail-1", "failed")).await;
    let mut bad_category = status(&api, "fail-1", "failed");
    bad_category["failureCode"] = json!("PORTAL_PAY_INSUFFICIENT_FUNDS");
    bad_category["failureCategory"] = json!("weather");
    bad_category["failureReason"] = json!("Insufficient funds");
    bad_category["failureAction"] = json!("Use another card");
    let mut complete = bad_category.clone();
    complete["failureCategory"] = json!("card_decline");

    let refused_category = post_status(&api, bad_category).await;
    let accepted = post_status(&api, complete).await;

    assert_eq!(
        (incomplete.status, incomplete.json["field"].clone()),
        (400, json!("failureCode"))
    );
    assert_eq!(
        (refused_category.status, refused_category.json["field"].clone()),
        (400, json!("failureCategory"))
    );
    assert_eq!(accepted.json["status"], "failed");
    let body = receiver.wait_for(1).await[0].json();
    assert_eq!(body["failureCode"], "PORTAL_PAY_INSUFFICIENT_FUNDS");
    assert_eq!(body["failureCategory"], "card_decline");
    let read = send(api.dev(Method::GET, "/api/receipts/status?receiptId=fail-1")).await;
    assert_eq!(read.json["failureAction"], "Use another card");
}

#[tokio::test]
async fn a_production_server_refuses_to_deliver_to_a_loopback_address() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    receipt_with_hook(&api, "ssrf", &receiver.url).await;
    let production = api.app.restart(true).await;
    let api = Api::from_app(production);

    let moved = post_status(&api, status(&api, "ssrf", "link_opened")).await;

    assert_eq!(moved.json["status"], "link_opened");
    let delivery = delivery_after(&api, "ssrf", 1).await;
    let error = delivery["attempts"][0]["error"].as_str().unwrap();
    assert!(error.starts_with("target refused"), "{error}");
    assert!(receiver.received().is_empty());
}

#[tokio::test]
async fn a_production_server_refuses_http_webhook_urls_at_creation() {
    let api = Api::spawn().await;
    let api = Api::from_app(api.app.restart(true).await);
    let mut body = receipt_body("plain-http");
    body["webhook_url"] = json!("http://shop.example.com/hooks");
    let mut loopback = receipt_body("loopback");
    loopback["webhook_url"] = json!("https://127.0.0.1/hooks");

    let http = create_receipt(&api, body).await;
    let internal = create_receipt(&api, loopback).await;

    assert_eq!(
        (http.status, http.json["field"].clone()),
        (400, json!("webhook_url"))
    );
    assert_eq!(
        (internal.status, internal.json["field"].clone()),
        (400, json!("webhook_url"))
    );
}

#[tokio::test]
async fn a_webhook_url_longer_than_2048_bytes_is_refused_and_nothing_is_created() {
    let api = Api::spawn().await;
    let mut body = receipt_body("long-url");
    body["webhook_url"] = json!(format!("http://127.0.0.1:9/{}", "a".repeat(2_100)));

    let refused = create_receipt(&api, body).await;
    let lookup = send(api.dev(Method::GET, "/api/receipts/long-url")).await;

    assert_eq!(refused.status, 400, "{}", refused.json);
    assert_eq!(refused.json["error"], "invalid_input");
    assert_eq!(refused.json["field"], "webhook_url");
    assert_eq!(lookup.status, 404);
}
