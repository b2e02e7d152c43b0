//! Degraded mode: while the datastore is down, reads answer 200 with `degraded: true` for callers seen
//! recently, and writes are refused with 503 without changing anything.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};

#[tokio::test]
async fn a_recent_caller_lists_inventory_in_degraded_mode_while_the_datastore_is_down() {
    let api = Api::spawn().await;
    api.upsert(json!({"sku": "TEA-1", "name": "Tea", "priceUsd": 3.5, "stockQty": 4}))
        .await;
    api.app.set_datastore_available(false);

    let reply = send(api.dev(Method::GET, "/api/inventory?pageSize=10")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json,
        json!({"items": [], "total": 0, "page": 0, "pageSize": 10, "nextCursor": null,
               "degraded": true, "reason": "datastore_unavailable"})
    );
}

#[tokio::test]
async fn a_write_while_the_datastore_is_down_is_refused_and_changes_nothing() {
    let api = Api::spawn().await;
    assert_eq!(send(api.dev(Method::GET, "/api/inventory")).await.status, 200);
    api.app.set_datastore_available(false);

    let body = json!({"sku": "LOST-1", "name": "Never stored", "priceUsd": 1, "stockQty": 1});
    let reply = send(api.dev(Method::POST, "/api/inventory").json(&body)).await;

    assert_eq!(reply.status, 503);
    assert_eq!(reply.header("retry-after"), "5");
    assert_eq!(reply.json["error"], "datastore_unavailable");
    assert!(
        !reply.json["message"].as_str().unwrap().contains("switched off"),
        "no internals leak"
    );
    api.app.set_datastore_available(true);
    let listed = send(api.dev(Method::GET, "/api/inventory")).await;
    assert_eq!(listed.json["total"], 0);
}

#[tokio::test]
async fn a_caller_not_seen_before_the_outage_gets_a_503_not_a_degraded_answer() {
    let api = Api::spawn().await;
    api.app.set_datastore_available(false);

    let reply = send(api.dev(Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 503);
    assert_eq!(reply.json["error"], "datastore_unavailable");
}

#[tokio::test]
async fn the_memory_of_a_caller_expires_after_five_minutes() {
    let api = Api::spawn().await;
    assert_eq!(send(api.dev(Method::GET, "/api/inventory")).await.status, 200);
    api.app.set_datastore_available(false);
    api.app.clock.advance(Duration::from_secs(5 * 60 + 1));

    let reply = send(api.dev(Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 503);
}

#[tokio::test]
async fn a_revoked_key_is_not_remembered_for_degraded_mode() {
    let api = Api::spawn().await;
    let key = api.app.create_key(api.app.wallet, "inventory:read").await;
    assert_eq!(
        send(api.dev_as(&key.key, Method::GET, "/api/inventory"))
            .await
            .status,
        200
    );
    api.app.revoke_key(&key.subscription_id).await;
    api.app
        .clock
        .advance(Duration::from_millis(payments_server::DEFAULT_KEY_CACHE_MS));
    assert_eq!(
        send(api.dev_as(&key.key, Method::GET, "/api/inventory"))
            .await
            .status,
        401
    );
    api.app.set_datastore_available(false);

    let reply = send(api.dev_as(&key.key, Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 503);
}

#[tokio::test]
async fn receipts_list_degraded_and_receipt_writes_are_refused_while_the_datastore_is_down() {
    let api = Api::spawn().await;
    let receipt = json!({"id": "r-1", "lineItems": [{"label": "Tea", "priceUsd": 3.5}], "totalUsd": 3.5});
    assert_eq!(
        send(api.dev(Method::POST, "/api/receipts").json(&receipt))
            .await
            .status,
        201
    );
    api.app.set_datastore_available(false);

    let listed = send(api.dev(Method::GET, "/api/receipts")).await;
    let second = json!({"id": "r-2", "lineItems": [{"label": "Tea", "priceUsd": 3.5}], "totalUsd": 3.5});
    let created = send(api.dev(Method::POST, "/api/receipts").json(&second)).await;
    let status = json!({"receiptId": "r-1", "wallet": api.app.wallet, "status": "link_opened"});
    let moved = send(api.dev(Method::POST, "/api/receipts/status").json(&status)).await;

    assert_eq!(listed.status, 200);
    assert_eq!(
        listed.json,
        json!({"receipts": [], "nextCursor": null, "degraded": true, "reason": "datastore_unavailable"})
    );
    for refused in [&created, &moved] {
        assert_eq!(refused.status, 503, "{}", refused.json);
        assert_eq!(refused.json["error"], "datastore_unavailable");
        assert_eq!(refused.header("retry-after"), "5");
    }
    api.app.set_datastore_available(true);
    let after = send(api.dev(Method::GET, "/api/receipts")).await;
    let ids: Vec<&str> = after.json["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|receipt| receipt["receiptId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["r-1"]);
    let r1 = send(api.dev(Method::GET, "/api/receipts/r-1")).await;
    assert_eq!(r1.json["status"], "pending");
}
