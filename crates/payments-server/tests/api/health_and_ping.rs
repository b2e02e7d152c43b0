use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};

#[tokio::test]
async fn the_root_names_the_api_reference_and_the_health_route_and_both_answer() {
    let api = Api::spawn().await;

    let reply = send(api.anonymous(Method::GET, "/")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json["service"], "payments-server");
    for route in ["openapi", "health"] {
        let path = reply.json[route].as_str().unwrap();
        let followed = send(api.anonymous(Method::GET, path)).await;
        assert_eq!(followed.status, 200, "{route}: {path}");
    }
}

#[tokio::test]
async fn healthz_answers_ok_without_a_key() {
    let api = Api::spawn().await;

    let reply = send(api.anonymous(Method::GET, "/healthz")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json, json!({"status": "ok", "datastore": "ok"}));
}

#[tokio::test]
async fn healthz_stays_200_but_reports_degraded_when_the_datastore_is_down() {
    let api = Api::spawn().await;
    api.app.set_datastore_available(false);

    let reply = send(api.anonymous(Method::GET, "/healthz")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json,
        json!({"status": "degraded", "datastore": "unavailable"})
    );
}

#[tokio::test]
async fn ping_with_x_api_key_returns_the_key_diagnostics() {
    let api = Api::spawn().await;

    let reply = send(
        api.anonymous(Method::GET, "/api/status/ping")
            .header("x-api-key", &api.app.key),
    )
    .await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json,
        json!({
            "ok": true,
            "merchant": "0x1111111111111111111111111111111111111111",
            "subscriptionId": api.app.subscription_id,
            "scopes": ["inventory:read", "inventory:write", "orders:create", "receipts:read", "receipts:write",
                       "shop:read", "split:read", "users:read", "graphql:read", "subscriptions:read",
                       "subscriptions:write", "webhooks:read", "webhooks:write"],
            "serverTime": 1_700_000_000_000_i64,
            "version": "0.1.0"
        })
    );
}

#[tokio::test]
async fn ping_accepts_the_key_as_a_bearer_token() {
    let api = Api::spawn().await;

    let reply = send(
        api.anonymous(Method::GET, "/api/status/ping")
            .bearer_auth(&api.app.key),
    )
    .await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json["merchant"],
        "0x1111111111111111111111111111111111111111"
    );
}

#[tokio::test]
async fn ping_without_a_key_is_unauthorized() {
    let api = Api::spawn().await;

    let reply = send(
        api.anonymous(Method::GET, "/api/status/ping")
            .bearer_auth("sk_live_nope"),
    )
    .await;

    assert_eq!(reply.status, 401);
    assert_eq!(reply.json["error"], "unauthorized");
}
