use std::num::NonZeroU32;
use std::time::Duration;

use payments_server::testing::{TestOptions, test_wallet};
use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::{admin, admin_without_csrf};
use crate::helpers::{Api, send};

async fn api_with_three_per_minute() -> Api {
    Api::spawn_with(TestOptions {
        rate_limit_per_minute: NonZeroU32::new(3),
        ..TestOptions::default()
    })
    .await
}

#[tokio::test]
async fn dev_responses_carry_rate_limit_headers() {
    let api = api_with_three_per_minute().await;

    let reply = send(api.dev(Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("x-ratelimit-limit"), "3");
    assert_eq!(reply.header("x-ratelimit-remaining"), "2");
    assert_eq!(reply.header("x-ratelimit-reset"), "1700000020000");
}

#[tokio::test]
async fn a_request_over_the_quota_is_429_with_reset_at() {
    let api = api_with_three_per_minute().await;
    for _ in 0..3 {
        assert_eq!(send(api.dev(Method::GET, "/api/inventory")).await.status, 200);
    }

    let reply = send(api.dev(Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 429);
    assert_eq!(
        reply.json,
        json!({"error": "rate_limited", "resetAt": 1_700_000_020_000_i64, "message": "rate limit exceeded; retry after resetAt"})
    );
    assert_eq!(reply.header("x-ratelimit-remaining"), "0");
    assert_eq!(reply.header("x-ratelimit-reset"), "1700000020000");
}

#[tokio::test]
async fn the_quota_comes_back_as_the_clock_moves() {
    let api = api_with_three_per_minute().await;
    for _ in 0..4 {
        send(api.dev(Method::GET, "/api/inventory")).await;
    }

    api.app.clock.advance(Duration::from_secs(20));
    let reply = send(api.dev(Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("x-ratelimit-remaining"), "0");
}

#[tokio::test]
async fn each_key_has_its_own_quota() {
    let api = api_with_three_per_minute().await;
    for _ in 0..4 {
        send(api.dev(Method::GET, "/api/inventory")).await;
    }
    let other = api.app.create_key(test_wallet(0x22), "inventory:read").await;

    let reply = send(api.dev_as(&other.key, Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("x-ratelimit-remaining"), "2");
}

#[tokio::test]
async fn unauthenticated_requests_carry_no_rate_limit_headers() {
    let api = api_with_three_per_minute().await;

    let reply = send(api.anonymous(Method::GET, "/api/inventory")).await;

    assert_eq!(reply.status, 401);
    assert_eq!(reply.header("x-ratelimit-limit"), "");
}

#[tokio::test]
async fn an_admin_wallet_has_its_own_quota_apart_from_its_subscription_keys() {
    let api = api_with_three_per_minute().await;
    let (session, key) = api.app.merchant_admin().await;
    for _ in 0..3 {
        let me = send(admin_without_csrf(&api, &session, Method::GET, "/api/auth/me")).await;
        assert_eq!(me.status, 200, "{}", me.json);
    }

    let limited = send(admin_without_csrf(&api, &session, Method::GET, "/api/auth/me")).await;
    let write = send(admin(&api, &session, Method::POST, "/api/split/deploy").json(&json!({}))).await;
    let with_key = send(api.dev_as(&key.key, Method::GET, "/api/inventory")).await;

    assert_eq!(limited.status, 429);
    assert_eq!(limited.json["error"], "rate_limited");
    assert_eq!(limited.header("x-ratelimit-remaining"), "0");
    assert_eq!(write.status, 429, "a limited admin writes nothing");
    assert_eq!(with_key.status, 200, "the wallet's key keeps its own quota");
    let split = send(api.dev_as(&key.key, Method::GET, "/api/split/deploy")).await;
    assert_eq!(split.json["split"]["address"], json!(null));
}

#[tokio::test]
async fn the_sign_in_routes_are_limited_per_client_address() {
    let api = Api::spawn().await;
    let wallet = test_wallet(7);
    let nonce = |api: &Api| send(api.anonymous(Method::GET, &format!("/api/auth/nonce?wallet={wallet}")));
    for _ in 0..30 {
        assert_eq!(nonce(&api).await.status, 200);
    }

    let limited = nonce(&api).await;
    let login = send(api.anonymous(Method::POST, "/api/auth/login").json(&json!({}))).await;
    let dev = send(api.dev(Method::GET, "/api/inventory")).await;

    assert_eq!(limited.status, 429);
    assert_eq!(limited.json["error"], "rate_limited");
    assert!(limited.json["resetAt"].as_i64().unwrap() > 1_700_000_000_000);
    assert_eq!(login.status, 429, "login shares the sign-in quota");
    assert_eq!(dev.status, 200, "subscription keys are counted apart");
    api.app.clock.advance(Duration::from_secs(2));
    assert_eq!(nonce(&api).await.status, 200, "the quota refills continuously");
}
