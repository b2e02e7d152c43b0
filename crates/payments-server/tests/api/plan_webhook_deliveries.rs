//! A plan's webhook delivery log and redelivery, as a receipt's: the merchant lists the deliveries of its
//! plan's subscriptions (each naming its subscription, with its attempts) and sends one again under the same
//! delivery id; another merchant, an unknown plan or an unknown delivery is 404 and sends nothing.

use std::time::Duration;

use payments_server::testing::{eventually, test_wallet};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send};
use crate::subscription_helpers::{CUSTOMER_KEY, PRICE_UNITS, subscribed};
use crate::subscription_webhooks::hooked_plan;
use crate::webhook_receiver::Receiver;

/// The plan's delivery log once its first delivery has an attempt recorded.
async fn delivered_log(api: &Api, plan: &str) -> Value {
    eventually("a delivered plan webhook", Duration::from_secs(10), || async {
        let log = send(api.dev(Method::GET, &format!("/api/subscriptions/plans/{plan}/webhooks"))).await;
        assert_eq!(log.status, 200, "{}", log.json);
        (log.json["deliveries"][0]["state"] == "delivered").then_some(log.json)
    })
    .await
}

#[tokio::test]
async fn a_plans_deliveries_are_logged_with_their_subscription_and_one_is_sent_again_under_its_id() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let plan = hooked_plan(&api, &receiver.url).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;
    receiver.wait_for(1).await;

    let log = delivered_log(&api, &plan).await;
    let delivery = &log["deliveries"][0];
    let delivery_id = delivery["deliveryId"].as_str().unwrap();
    let path = format!("/api/subscriptions/plans/{plan}/webhooks/{delivery_id}/redeliver");
    let again = send(api.dev(Method::POST, &path)).await;

    assert_eq!(log["planId"], plan.as_str());
    assert_eq!(log["deliveries"].as_array().unwrap().len(), 1, "{log}");
    assert_eq!(delivery["event"], "subscription.created");
    assert_eq!(delivery["subscriptionId"], id.as_str());
    assert_eq!(delivery["url"], receiver.url.as_str());
    assert_eq!(delivery["attempts"][0]["statusCode"], 200);
    assert_eq!(again.json, json!({"ok": true, "deliveryId": delivery_id}));
    let requests = receiver.wait_for(2).await;
    assert_eq!(requests[1].header("x-service-delivery"), delivery_id);
    assert_eq!(requests[0].body, requests[1].body);
}

#[tokio::test]
async fn another_merchant_an_unknown_plan_or_delivery_is_not_found_and_sends_nothing() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let plan = hooked_plan(&api, &receiver.url).await;
    subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;
    receiver.wait_for(1).await;
    let log = delivered_log(&api, &plan).await;
    let delivery_id = log["deliveries"][0]["deliveryId"].as_str().unwrap().to_owned();
    let other = api
        .app
        .create_key(test_wallet(0x22), "subscriptions:read,subscriptions:write")
        .await;

    let their_log = send(api.dev_as(
        &other.key,
        Method::GET,
        &format!("/api/subscriptions/plans/{plan}/webhooks"),
    ))
    .await;
    let their_redelivery = send(api.dev_as(
        &other.key,
        Method::POST,
        &format!("/api/subscriptions/plans/{plan}/webhooks/{delivery_id}/redeliver"),
    ))
    .await;
    let unknown_plan = send(api.dev(Method::GET, "/api/subscriptions/plans/plan_nope/webhooks")).await;
    let unknown_delivery = send(api.dev(
        Method::POST,
        &format!("/api/subscriptions/plans/{plan}/webhooks/nope/redeliver"),
    ))
    .await;

    assert_eq!(their_log.status, 404, "{}", their_log.json);
    assert_eq!(their_redelivery.status, 404, "{}", their_redelivery.json);
    assert_eq!(unknown_plan.status, 404);
    assert_eq!(unknown_delivery.status, 404);
    let after = send(api.dev(Method::GET, &format!("/api/subscriptions/plans/{plan}/webhooks"))).await;
    assert_eq!(
        after.json["deliveries"], log["deliveries"],
        "no new round was started"
    );
}
