//! Webhook endpoints per merchant (issue 28): every receipt and subscription event goes to each enabled
//! endpoint whose patterns match, in the `{ id, type, createdAt, test, data }` envelope, signed with the
//! endpoint's own `whsec_` secret (Standard Webhooks); CRUD, scopes, the 16-endpoint limit, URL rules, and
//! secret rotation.

use std::time::Duration;

use payments_server::testing::TestOptions;
use reqwest::Method;
use serde_json::{Value, json};

use crate::endpoint_helpers::{deliveries, register, trigger, verify_body_with, verify_with};
use crate::helpers::{Api, send};
use crate::subscription_helpers::{CUSTOMER_KEY, PRICE_UNITS, subscribed, weekly_plan};
use crate::webhook_receiver::{Received, Receiver};

/// The event types of the endpoint's delivery log, oldest first.
async fn logged_types(api: &Api, endpoint: &str) -> Vec<String> {
    let page = deliveries(api, endpoint, "").await;
    let mut types: Vec<String> = page["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|delivery| delivery["eventType"].as_str().unwrap().to_owned())
        .collect();
    types.reverse();
    types
}

fn types(received: &[Received]) -> Vec<String> {
    received
        .iter()
        .map(|request| request.json()["type"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn two_endpoints_with_different_filters_receive_exactly_their_events_from_receipts_and_subscriptions() {
    let api = Api::spawn().await;
    let (receipts_hook, subscriptions_hook) = (Receiver::start(&[]).await, Receiver::start(&[]).await);
    let receipts = register(&api, &receipts_hook.url, &["receipt.*"]).await;
    let subscriptions = register(&api, &subscriptions_hook.url, &["subscription.created"]).await;

    // A receipt without a webhook_url of its own: its changes still reach the merchant's endpoints.
    let created = send(api.dev(Method::POST, "/api/receipts").json(&json!({
        "id": "ep-1", "lineItems": [{"label": "Tea", "priceUsd": 3.5}], "totalUsd": 3.5
    })))
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let moved = send(api.dev(Method::POST, "/api/receipts/status").json(&json!({
        "receiptId": "ep-1", "wallet": api.app.wallet, "status": "link_opened"
    })))
    .await;
    assert_eq!(moved.status, 200, "{}", moved.json);
    let plan = weekly_plan(&api).await;
    let subscription = subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;

    let receipt_events = receipts_hook.wait_for_distinct(1).await;
    let subscription_events = subscriptions_hook.wait_for_distinct(1).await;
    // Deliveries are queued with the event itself: the logs hold every delivery there will be.
    assert_eq!(logged_types(&api, &receipts.id).await, ["receipt.status_updated"]);
    assert_eq!(
        logged_types(&api, &subscriptions.id).await,
        ["subscription.created"]
    );
    assert_eq!(types(&receipt_events), ["receipt.status_updated"]);
    assert_eq!(types(&subscription_events), ["subscription.created"]);
    let receipt_body = receipt_events[0].json();
    assert_eq!(receipt_body["data"]["receiptId"], "ep-1");
    assert_eq!(receipt_body["data"]["status"], "link_opened");
    assert_eq!(receipt_body["test"], false);
    assert_eq!(receipt_body["createdAt"], 1_700_000_000_000_i64);
    assert_eq!(receipt_events[0].header("webhook-id"), receipt_body["id"]);
    assert!(receipt_body["id"].as_str().unwrap().starts_with("evt_"));
    let subscription_body = subscription_events[0].json();
    assert_eq!(subscription_body["data"]["subscriptionId"], subscription.as_str());
    assert_eq!(subscription_body["data"]["priceUsd"], 9.99);
    assert_eq!(subscription_body["data"]["priceBaseUnits"], "9990000");
    assert!(
        String::from_utf8_lossy(&subscription_events[0].body)
            .contains(r#""priceUsd":9.99,"priceBaseUnits":"9990000""#),
        "the amount is written from its exact decimal: {subscription_body}"
    );
    for (secret, request) in [
        (&receipts.secret, &receipt_events[0]),
        (&subscriptions.secret, &subscription_events[0]),
    ] {
        verify_with(secret, request).unwrap();
        let mut tampered = request.body.to_vec();
        tampered.extend_from_slice(b" ");
        assert!(verify_body_with(secret, request, &tampered).is_err());
    }
    // Each endpoint signs with its own secret only.
    assert!(verify_with(&subscriptions.secret, &receipt_events[0]).is_err());
    assert!(receipt_events[0].headers.get("x-service-signature").is_none());
}

/// Every byte the app's SQLite database holds on disk (the main file and its write-ahead log).
fn database_bytes(api: &Api) -> Vec<u8> {
    let mut bytes = Vec::new();
    for suffix in ["", "-wal"] {
        let mut path = api.app.db_path.clone().into_os_string();
        path.push(suffix);
        bytes.extend(std::fs::read(path).unwrap_or_default());
    }
    bytes
}

#[tokio::test]
async fn an_endpoint_secret_is_stored_sealed_never_as_its_text_or_its_bytes() {
    let api = Api::spawn().await;
    let endpoint = register(&api, "https://hooks.example.com/sealed", &["*"]).await;
    let encoded = endpoint.secret.strip_prefix("whsec_").unwrap();
    let raw = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, encoded).unwrap();

    let stored = database_bytes(&api);

    let contains = |needle: &[u8]| stored.windows(needle.len()).any(|window| window == needle);
    assert!(stored.len() > 4096, "the database was read");
    assert!(
        contains(b"https://hooks.example.com/sealed"),
        "the endpoint itself is stored"
    );
    assert!(!contains(encoded.as_bytes()), "the secret's text is not stored");
    assert!(!contains(&raw), "the secret's bytes are not stored");
}

#[tokio::test]
async fn endpoints_are_created_listed_changed_and_deleted_and_the_secret_shows_only_on_create() {
    let api = Api::spawn().await;
    let endpoint = register(&api, "https://hooks.example.com/a", &["receipt.*", "*"]).await;

    let fetched = send(api.dev(Method::GET, &format!("/api/webhook-endpoints/{}", endpoint.id))).await;
    let changed = send(
        api.dev(Method::PATCH, &format!("/api/webhook-endpoints/{}", endpoint.id))
            .json(&json!({"events": ["subscription.charged"], "enabled": false, "description": ""})),
    )
    .await;
    let listed = send(api.dev(Method::GET, "/api/webhook-endpoints")).await;
    let deleted = send(api.dev(Method::DELETE, &format!("/api/webhook-endpoints/{}", endpoint.id))).await;
    let gone = send(api.dev(Method::GET, &format!("/api/webhook-endpoints/{}", endpoint.id))).await;

    assert!(endpoint.secret.starts_with("whsec_"), "{}", endpoint.secret);
    assert_eq!(fetched.status, 200);
    assert_eq!(fetched.json["events"], json!(["receipt.*", "*"]));
    assert_eq!(fetched.json["description"], "test receiver");
    assert_eq!(fetched.json.get("secret"), None);
    assert_eq!(changed.status, 200, "{}", changed.json);
    assert_eq!(changed.json["events"], json!(["subscription.charged"]));
    assert_eq!(changed.json["enabled"], false);
    assert_eq!(changed.json["description"], Value::Null);
    assert_eq!(changed.json["url"], "https://hooks.example.com/a");
    assert_eq!(listed.json["endpoints"].as_array().unwrap().len(), 1);
    assert_eq!(listed.json["endpoints"][0].get("secret"), None);
    assert_eq!(deleted.json, json!({"ok": true, "id": endpoint.id}));
    assert_eq!(
        (gone.status, gone.json["error"].as_str()),
        (404, Some("not_found"))
    );
}

#[tokio::test]
async fn malformed_endpoints_are_refused_with_the_field_and_change_nothing() {
    let api = Api::spawn().await;
    let cases = [
        (json!({"events": ["*"]}), "url"),
        (json!({"url": "ftp://hooks.example.com"}), "url"),
        (json!({"url": "https://hooks.example.com"}), "events"),
        (
            json!({"url": "https://hooks.example.com", "events": []}),
            "events",
        ),
        (
            json!({"url": "https://hooks.example.com", "events": ["Receipt.Paid"]}),
            "events",
        ),
        (
            json!({"url": "https://hooks.example.com", "events": ["*"], "description": "x".repeat(257)}),
            "description",
        ),
    ];

    for (body, field) in cases {
        let reply = send(api.dev(Method::POST, "/api/webhook-endpoints").json(&body)).await;
        assert_eq!(reply.status, 400, "{body}: {}", reply.json);
        assert_eq!(reply.json["error"], "invalid_input", "{body}");
        assert_eq!(reply.json["field"], field, "{body}: {}", reply.json);
    }
    let unknown_field = send(api.dev(Method::POST, "/api/webhook-endpoints").json(&json!({
        "url": "https://hooks.example.com", "events": ["*"], "filter": "x"
    })))
    .await;
    let listed = send(api.dev(Method::GET, "/api/webhook-endpoints")).await;
    assert_eq!(unknown_field.status, 400, "{}", unknown_field.json);
    assert_eq!(listed.json["endpoints"], json!([]));
}

#[tokio::test]
async fn outside_development_mode_internal_and_plain_http_urls_are_refused() {
    let api = Api::spawn_with(TestOptions {
        production_mode: true,
        ..TestOptions::default()
    })
    .await;

    for url in [
        "http://hooks.example.com/a",
        "https://127.0.0.1/a",
        "https://10.0.0.7/a",
        "https://[::1]/a",
        "https://169.254.169.254/latest",
        "https://localhost/a",
        "https://user:pw@hooks.example.com/a",
    ] {
        let reply = send(
            api.dev(Method::POST, "/api/webhook-endpoints")
                .json(&json!({"url": url, "events": ["*"]})),
        )
        .await;
        assert_eq!(reply.status, 400, "{url}: {}", reply.json);
        assert_eq!(reply.json["field"], "url", "{url}");
    }
    let public = send(
        api.dev(Method::POST, "/api/webhook-endpoints")
            .json(&json!({"url": "https://hooks.example.com/a", "events": ["*"]})),
    )
    .await;
    assert_eq!(public.status, 201, "{}", public.json);
}

#[tokio::test]
async fn a_merchant_may_have_sixteen_endpoints_and_the_seventeenth_is_refused() {
    let api = Api::spawn().await;
    for n in 0..16 {
        register(&api, &format!("https://hooks.example.com/{n}"), &["*"]).await;
    }

    let refused = send(
        api.dev(Method::POST, "/api/webhook-endpoints")
            .json(&json!({"url": "https://hooks.example.com/16", "events": ["*"]})),
    )
    .await;
    let listed = send(api.dev(Method::GET, "/api/webhook-endpoints")).await;

    assert_eq!(refused.status, 409, "{}", refused.json);
    assert_eq!(refused.json["error"], "too_many_endpoints");
    assert_eq!(listed.json["endpoints"].as_array().unwrap().len(), 16);
}

#[tokio::test]
async fn webhook_routes_need_their_scopes_and_see_only_their_merchants_endpoints() {
    let api = Api::spawn().await;
    let endpoint = register(&api, "https://hooks.example.com/a", &["*"]).await;
    let receipts_only = api.app.create_key(api.app.wallet, "receipts:read").await;
    let reader = api.app.create_key(api.app.wallet, "webhooks:read").await;
    let other = api
        .app
        .create_key(
            payments_server::testing::test_wallet(0x33),
            "webhooks:read,webhooks:write",
        )
        .await;
    let body = json!({"url": "https://hooks.example.com/b", "events": ["*"]});

    let no_scope = send(api.dev_as(&receipts_only.key, Method::GET, "/api/webhook-endpoints")).await;
    let read = send(api.dev_as(&reader.key, Method::GET, "/api/webhook-endpoints")).await;
    let write_with_read = send(
        api.dev_as(&reader.key, Method::POST, "/api/webhook-endpoints")
            .json(&body),
    )
    .await;
    let rotate_with_read = send(api.dev_as(
        &reader.key,
        Method::POST,
        &format!("/api/webhook-endpoints/{}/rotate", endpoint.id),
    ))
    .await;
    let anonymous = send(api.anonymous(Method::GET, "/api/webhook-endpoints")).await;
    let others = send(api.dev_as(
        &other.key,
        Method::GET,
        &format!("/api/webhook-endpoints/{}", endpoint.id),
    ))
    .await;

    assert_eq!(
        (no_scope.status, no_scope.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    assert_eq!(read.status, 200);
    assert_eq!(read.json["endpoints"].as_array().unwrap().len(), 1);
    assert_eq!(write_with_read.status, 403);
    assert_eq!(rotate_with_read.status, 403);
    assert_eq!(anonymous.status, 401);
    assert_eq!(others.status, 404);
}

#[tokio::test]
async fn after_a_rotation_both_secrets_sign_for_a_day_then_only_the_new_one() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let endpoint = register(&api, &receiver.url, &["*"]).await;
    let rotated = send(api.dev(
        Method::POST,
        &format!("/api/webhook-endpoints/{}/rotate", endpoint.id),
    ))
    .await;
    assert_eq!(rotated.status, 200, "{}", rotated.json);
    let new_secret = rotated.json["secret"].as_str().unwrap().to_owned();

    let during = trigger(&api, "subscription.charged", None).await;
    let first = receiver.wait_for_distinct(1).await.remove(0);
    api.app.clock.advance(Duration::from_secs(24 * 3600 + 1));
    trigger(&api, "subscription.charged", None).await;
    let after = receiver.wait_for_distinct(2).await.remove(1);

    assert_ne!(new_secret, endpoint.secret);
    assert_eq!(
        rotated.json["previousSecretExpiresAt"],
        1_700_000_000_000_i64 + 86_400_000
    );
    assert_eq!(first.header("webhook-signature").split(' ').count(), 2);
    verify_with(&new_secret, &first).unwrap();
    verify_with(&endpoint.secret, &first).unwrap();
    assert_eq!(after.header("webhook-signature").split(' ').count(), 1);
    verify_with(&new_secret, &after).unwrap();
    assert!(verify_with(&endpoint.secret, &after).is_err());
    assert_eq!(first.json()["id"], during["eventId"]);
    assert_eq!(first.json()["test"], true);
}

#[tokio::test]
async fn a_test_event_goes_to_the_one_endpoint_named_whatever_its_patterns() {
    let api = Api::spawn().await;
    let (named, other) = (Receiver::start(&[]).await, Receiver::start(&[]).await);
    let target = register(&api, &named.url, &["receipt.*"]).await;
    let other_endpoint = register(&api, &other.url, &["*"]).await;

    let sent = trigger(&api, "subscription.canceled", Some(&target.id)).await;
    let unknown = send(
        api.dev(Method::POST, "/api/webhook-endpoints/test-event")
            .json(&json!({"type": "receipt.exploded"})),
    )
    .await;

    let received = named.wait_for_distinct(1).await;
    assert_eq!(sent["deliveries"], 1);
    assert_eq!(received[0].json()["type"], "subscription.canceled");
    assert_eq!(received[0].json()["data"]["status"], "canceled");
    assert_eq!(received[0].json()["test"], true);
    assert_eq!(
        (unknown.status, unknown.json["field"].as_str()),
        (400, Some("type"))
    );
    assert_eq!(logged_types(&api, &other_endpoint.id).await, Vec::<String>::new());
}
