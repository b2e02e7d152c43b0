use std::time::Duration;

use payments_server::testing::{TestOptions, test_wallet};
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, product, product_with, send};

#[tokio::test]
async fn a_dev_route_without_a_key_is_unauthorized() {
    let api = Api::spawn().await;

    let reply = send(api.anonymous(Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 401);
    assert_eq!(
        reply.json,
        json!({"error": "unauthorized", "message": "missing or invalid subscription key"})
    );
}

#[tokio::test]
async fn a_key_sent_as_authorization_bearer_is_unauthorized_with_a_pointer_to_the_key_header() {
    let api = Api::spawn().await;

    let reply = send(
        api.anonymous(Method::GET, "/api/inventory")
            .bearer_auth(&api.app.key),
    )
    .await;

    assert_eq!(reply.status, 401);
    assert_eq!(reply.json["error"], "unauthorized");
    assert_eq!(
        reply.json["message"],
        "no key: the key goes in the X-Gateway-Subscription-Key header, not in Authorization: Bearer"
    );
    let with_both = send(api.dev(Method::GET, "/api/inventory").bearer_auth("anything")).await;
    assert_eq!(with_both.status, 200, "{}", with_both.json);
}

#[tokio::test]
async fn an_unknown_key_is_unauthorized() {
    let api = Api::spawn().await;

    let reply = send(api.dev_as("sk_test_unknown", Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 401);
    assert_eq!(
        reply.json,
        json!({"error": "unauthorized", "message": "missing or invalid subscription key"})
    );
}

#[tokio::test]
async fn a_key_revoked_after_use_keeps_working_at_most_the_key_cache_lifetime() {
    let api = Api::spawn().await;
    let other = api.app.create_key(test_wallet(0x22), "inventory:read").await;
    let read = || send(api.dev_as(&other.key, Method::GET, "/api/inventory"));
    assert_eq!(read().await.status, 200);
    api.app.revoke_key(&other.subscription_id).await;
    let within_lifetime = read().await.status;

    api.app
        .clock
        .advance(Duration::from_millis(payments_server::DEFAULT_KEY_CACHE_MS));
    let reply = read().await;

    assert_eq!(within_lifetime, 200, "answered from the key cache");
    assert_eq!(reply.status, 401);
    assert_eq!(read().await.status, 401, "a refused key is not cached");
}

#[tokio::test]
async fn a_revoked_key_is_unauthorized() {
    let api = Api::spawn().await;
    let other = api.app.create_key(test_wallet(0x22), "inventory:read").await;
    api.app.revoke_key(&other.subscription_id).await;

    let reply = send(api.dev_as(&other.key, Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 401);
    assert_eq!(reply.json["error"], "unauthorized");
}

#[tokio::test]
async fn a_key_without_the_route_scope_is_forbidden() {
    let api = Api::spawn().await;
    let reader = api.app.create_key(api.app.wallet, "inventory:read").await;

    let reply = send(
        api.dev_as(&reader.key, Method::POST, "/api/inventory")
            .json(&product("A-1")),
    )
    .await;

    assert_eq!(reply.status, 403);
    assert_eq!(
        reply.json,
        json!({"error": "forbidden", "message": "the subscription key lacks the inventory:write scope"})
    );
}

#[tokio::test]
async fn spoofed_wallet_headers_are_ignored() {
    let api = Api::spawn().await;
    api.upsert(product("A-1")).await;
    let other = api.app.create_key(test_wallet(0x22), "inventory:read").await;

    let reply = send(
        api.dev_as(&other.key, Method::GET, "/api/inventory")
            .header("x-wallet", "0x1111111111111111111111111111111111111111")
            .header("wallet", "0x1111111111111111111111111111111111111111")
            .header("x-subscription-id", &api.app.subscription_id),
    )
    .await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json["total"], 0);
}

#[tokio::test]
async fn wallet_headers_without_a_key_do_not_authenticate() {
    let api = Api::spawn().await;

    let reply = send(
        api.anonymous(Method::GET, "/api/inventory")
            .header("x-wallet", "0x1111111111111111111111111111111111111111")
            .header("x-subscription-id", &api.app.subscription_id),
    )
    .await;

    assert_eq!(reply.status, 401);
}

#[tokio::test]
async fn a_body_wallet_of_another_merchant_is_forbidden() {
    let api = Api::spawn().await;
    let body = product_with(
        "A-1",
        json!({"wallet": "0x2222222222222222222222222222222222222222"}),
    );

    let reply = send(api.dev(Method::POST, "/api/inventory").json(&body)).await;

    assert_eq!(reply.status, 403);
    assert_eq!(reply.json["error"], "forbidden");
}

#[tokio::test]
async fn a_body_wallet_equal_to_the_key_merchant_is_accepted() {
    let api = Api::spawn().await;
    let body = product_with(
        "A-1",
        json!({"wallet": "0x1111111111111111111111111111111111111111"}),
    );

    let reply = send(api.dev(Method::POST, "/api/inventory").json(&body)).await;

    assert_eq!(reply.status, 200);
}

#[tokio::test]
async fn the_edge_secret_with_a_subscription_id_identifies_the_caller() {
    let api = Api::spawn_with(TestOptions {
        edge_secret: Some("edge-s3cret".to_owned()),
        ..TestOptions::default()
    })
    .await;

    let reply = send(
        api.anonymous(Method::GET, "/api/shop/config")
            .header("x-edge-secret", "edge-s3cret")
            .header("x-subscription-id", &api.app.subscription_id),
    )
    .await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json["wallet"], "0x1111111111111111111111111111111111111111");
}

#[tokio::test]
async fn a_wrong_edge_secret_is_unauthorized_even_with_a_valid_key() {
    let api = Api::spawn_with(TestOptions {
        edge_secret: Some("edge-s3cret".to_owned()),
        ..TestOptions::default()
    })
    .await;

    let reply = send(
        api.dev(Method::GET, "/api/shop/config")
            .header("x-edge-secret", "edge-guess")
            .header("x-subscription-id", &api.app.subscription_id),
    )
    .await;

    assert_eq!(reply.status, 401);
}

#[tokio::test]
async fn the_edge_secret_header_is_ignored_when_the_server_has_none() {
    let api = Api::spawn().await;

    let reply = send(
        api.anonymous(Method::GET, "/api/shop/config")
            .header("x-edge-secret", "anything")
            .header("x-subscription-id", &api.app.subscription_id),
    )
    .await;

    assert_eq!(reply.status, 401);
}

#[tokio::test]
async fn an_edge_request_for_a_revoked_subscription_is_unauthorized() {
    let api = Api::spawn_with(TestOptions {
        edge_secret: Some("edge-s3cret".to_owned()),
        ..TestOptions::default()
    })
    .await;
    let other = api.app.create_key(test_wallet(0x22), "shop:read").await;
    api.app.revoke_key(&other.subscription_id).await;

    let reply = send(
        api.anonymous(Method::GET, "/api/shop/config")
            .header("x-edge-secret", "edge-s3cret")
            .header("x-subscription-id", &other.subscription_id),
    )
    .await;

    assert_eq!(reply.status, 401);
}

#[tokio::test]
async fn an_edge_path_receipt_cannot_have_a_webhook_target_it_could_not_sign_for() {
    let api = Api::spawn_with(TestOptions {
        edge_secret: Some("edge-s3cret".to_owned()),
        ..TestOptions::default()
    })
    .await;
    let edge = |method, path| {
        api.anonymous(method, path)
            .header("x-edge-secret", "edge-s3cret")
            .header("x-subscription-id", &api.app.subscription_id)
    };
    let body =
        |id: &str| json!({"id": id, "lineItems": [{"label": "Coffee", "priceUsd": 3.5}], "totalUsd": 3.5});
    let mut hooked = body("edge-hook");
    hooked["webhook_url"] = json!("https://shop.example.com/hooks");

    let refused = send(edge(Method::POST, "/api/receipts").json(&hooked)).await;
    let plain = send(edge(Method::POST, "/api/receipts").json(&body("edge-plain"))).await;
    let after = send(edge(Method::GET, "/api/receipts/edge-hook")).await;

    assert_eq!(refused.status, 400, "{}", refused.json);
    assert_eq!(refused.json["error"], "invalid_input");
    assert_eq!(refused.json["field"], "webhook_url");
    assert!(
        refused.json["message"]
            .as_str()
            .unwrap()
            .contains("X-Gateway-Subscription-Key")
    );
    assert_eq!(plain.status, 201, "{}", plain.json);
    assert_eq!(after.status, 404);
}
