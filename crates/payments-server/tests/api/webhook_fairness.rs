//! Webhook delivery under a slow receiver: per-endpoint limits keep other merchants' webhooks prompt, and a
//! redelivery asked for while an attempt is in flight is sent after it.

use std::time::Duration;

use payments_server::testing::eventually;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::receipts_create::receipt_body;
use crate::webhook_receiver::Receiver;

/// The slow receiver's answer time: far above what the healthy webhook may take.
const SLOW: Duration = Duration::from_secs(3);

/// Creates receipt `id` (with `hook` as its `webhook_url`, when given) and moves it to `link_opened`.
async fn receipt_moved(api: &Api, key: &str, wallet: &str, id: &str, hook: Option<&str>) {
    let mut body = receipt_body(id);
    if let Some(hook) = hook {
        body["webhook_url"] = json!(hook);
    }
    let created = send(api.dev_as(key, Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let status = json!({"receiptId": id, "wallet": wallet, "status": "link_opened"});
    let moved = send(
        api.dev_as(key, Method::POST, "/api/receipts/status")
            .json(&status),
    )
    .await;
    assert_eq!(moved.status, 200, "{}", moved.json);
}

#[tokio::test]
async fn a_slow_endpoint_does_not_delay_another_merchants_webhook() {
    let api = Api::spawn().await;
    let slow = Receiver::slow(SLOW).await;
    let fast = Receiver::start(&[]).await;
    let (key_a, wallet_a) = (api.app.key.clone(), api.app.wallet.to_string());
    for n in 0..40 {
        receipt_moved(&api, &key_a, &wallet_a, &format!("slow-{n}"), Some(&slow.url)).await;
    }
    // Merchant A's endpoint is now busy with its first attempts, the rest of its backlog waiting.
    slow.wait_for(1).await;
    let (_, merchant_b) = api.app.merchant_admin().await;

    receipt_moved(
        &api,
        &merchant_b.key,
        &merchant_b.wallet.to_string(),
        "fast-1",
        Some(&fast.url),
    )
    .await;

    let arrived = eventually("merchant B's webhook", SLOW / 2, || async {
        let received = fast.received();
        (!received.is_empty()).then_some(received)
    })
    .await;
    assert_eq!(arrived[0].json()["receiptId"], "fast-1");
    assert!(
        slow.received().len() < 40,
        "the slow endpoint gets its deliveries a few at a time"
    );
}

/// Registers a webhook endpoint of `key`'s merchant at `url` for every receipt event.
async fn endpoint_of(api: &Api, key: &str, url: &str) {
    let created = send(
        api.dev_as(key, Method::POST, "/api/webhook-endpoints")
            .json(&json!({"url": url, "events": ["receipt.*"]})),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
}

#[tokio::test]
async fn a_slow_webhook_endpoint_does_not_delay_another_merchants_endpoint() {
    let api = Api::spawn().await;
    let slow = Receiver::slow(SLOW).await;
    let fast = Receiver::start(&[]).await;
    let (key_a, wallet_a) = (api.app.key.clone(), api.app.wallet.to_string());
    let (_, merchant_b) = api.app.merchant_admin().await;
    endpoint_of(&api, &key_a, &slow.url).await;
    endpoint_of(&api, &merchant_b.key, &fast.url).await;
    for n in 0..40 {
        receipt_moved(&api, &key_a, &wallet_a, &format!("slow-ep-{n}"), None).await;
    }
    // Merchant A's endpoint is now busy with its first deliveries, the rest of its backlog waiting.
    slow.wait_for(1).await;

    receipt_moved(
        &api,
        &merchant_b.key,
        &merchant_b.wallet.to_string(),
        "fast-ep-1",
        None,
    )
    .await;

    let arrived = eventually("merchant B's endpoint delivery", SLOW / 2, || async {
        let received = fast.received();
        (!received.is_empty()).then_some(received)
    })
    .await;
    assert_eq!(arrived[0].json()["data"]["receiptId"], "fast-ep-1");
    assert!(
        slow.received().len() < 40,
        "the slow endpoint gets its deliveries a few at a time"
    );
}

#[tokio::test]
async fn a_redelivery_asked_for_during_an_attempt_is_sent_after_it() {
    let api = Api::spawn().await;
    let receiver = Receiver::slow(Duration::from_millis(500)).await;
    let (key, wallet) = (api.app.key.clone(), api.app.wallet.to_string());
    receipt_moved(&api, &key, &wallet, "again-1", Some(&receiver.url)).await;
    let first = receiver.wait_for(1).await.remove(0);
    let delivery_id = first.header("x-service-delivery").to_owned();

    let path = format!("/api/receipts/again-1/webhooks/{delivery_id}/redeliver");
    let redeliver = send(api.dev(Method::POST, &path)).await;

    assert_eq!(redeliver.status, 200, "{}", redeliver.json);
    let both = receiver.wait_for(2).await;
    assert_eq!(both[1].header("x-service-delivery"), delivery_id);
    let log = eventually("two recorded attempts", Duration::from_secs(10), || async {
        let reply = send(api.dev(Method::GET, "/api/receipts/again-1/webhooks")).await;
        let delivery = reply.json["deliveries"][0].clone();
        (delivery["attempts"].as_array()?.len() == 2 && delivery["state"] == "delivered").then_some(delivery)
    })
    .await;
    assert_eq!(log["attempts"][1]["statusCode"], 200);
}
