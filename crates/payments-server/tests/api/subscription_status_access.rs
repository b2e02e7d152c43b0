//! Who may read `GET /api/subscriptions/status`: a merchant's list names every subscriber wallet, price and
//! status, so it needs the merchant (its key with `subscriptions:read`, or its session); by id and by
//! customer stay public, as the spec has them.

use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::admin_without_csrf;
use crate::helpers::{Api, Reply, send};
use crate::subscription_helpers::{CUSTOMER_KEY, customer, subscribed, weekly_plan};

fn by_merchant(api: &Api) -> String {
    format!("/api/subscriptions/status?merchant={}", api.app.wallet)
}

/// The test merchant with one subscriber.
async fn merchant_with_a_subscriber() -> Api {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    subscribed(&api, &plan, CUSTOMER_KEY, 0).await;
    api
}

fn refusal(reply: &Reply) -> (u16, &str) {
    assert!(reply.json["subscriptions"].is_null(), "{}", reply.json);
    (reply.status, reply.json["error"].as_str().unwrap_or_default())
}

#[tokio::test]
async fn a_merchants_subscriber_list_without_a_credential_is_401_and_names_no_subscriber() {
    let api = merchant_with_a_subscriber().await;

    let reply = send(api.anonymous(Method::GET, &by_merchant(&api))).await;

    assert_eq!(refusal(&reply), (401, "unauthorized"));
}

#[tokio::test]
async fn another_merchants_key_cannot_list_a_merchants_subscribers() {
    let api = merchant_with_a_subscriber().await;
    let other = api
        .app
        .create_key(payments_server::testing::test_wallet(0x77), "subscriptions:read")
        .await;

    let reply = send(api.dev_as(&other.key, Method::GET, &by_merchant(&api))).await;

    assert_eq!(refusal(&reply), (403, "forbidden"));
}

#[tokio::test]
async fn the_merchants_key_without_subscriptions_read_cannot_list_its_subscribers() {
    let api = merchant_with_a_subscriber().await;
    let narrow = api.app.create_key(api.app.wallet, "receipts:read").await;

    let reply = send(api.dev_as(&narrow.key, Method::GET, &by_merchant(&api))).await;

    assert_eq!(refusal(&reply), (403, "forbidden"));
}

#[tokio::test]
async fn the_merchants_key_with_subscriptions_read_lists_its_subscribers() {
    let api = merchant_with_a_subscriber().await;
    let reader = api.app.create_key(api.app.wallet, "subscriptions:read").await;

    let reply = send(api.dev_as(&reader.key, Method::GET, &by_merchant(&api))).await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    let listed = reply.json["subscriptions"].as_array().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["customer"], json!(customer().to_string()));
}

#[tokio::test]
async fn the_merchants_session_lists_its_subscribers_and_another_session_cannot() {
    let api = Api::spawn().await;
    let (merchant, key) = api.app.merchant_admin().await;
    let plan = send(
        api.dev_as(&key.key, Method::POST, "/api/subscriptions/plans")
            .json(&json!({
                "name": "Weekly box", "priceUsd": 9.99, "period": "WEEKLY"
            })),
    )
    .await;
    let plan = plan.json["plan"]["planId"].as_str().unwrap().to_owned();
    subscribed(&api, &plan, CUSTOMER_KEY, 0).await;
    let path = format!("/api/subscriptions/status?merchant={}", merchant.wallet);
    let stranger = api.app.admin_for([0x21; 32]).await;

    let own = send(admin_without_csrf(&api, &merchant, Method::GET, &path)).await;
    let foreign = send(admin_without_csrf(&api, &stranger, Method::GET, &path)).await;

    assert_eq!(own.status, 200, "{}", own.json);
    assert_eq!(own.json["subscriptions"].as_array().unwrap().len(), 1);
    assert_eq!(refusal(&foreign), (403, "forbidden"));
}

#[tokio::test]
async fn by_customer_and_by_id_stay_public() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 0).await;

    let by_customer = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?customer={}", customer()),
    ))
    .await;
    let by_id = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?subscriptionId={id}"),
    ))
    .await;

    assert_eq!((by_customer.status, by_id.status), (200, 200));
    assert_eq!(by_id.json["subscriptions"][0]["subscriptionId"], json!(id));
}
