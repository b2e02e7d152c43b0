use std::time::Duration;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use payments_server::testing::{TEST_ADMIN_PRIVATE_KEY, TEST_ADMIN_WALLET, TestOptions, wallet_of_key};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::{OTHER_KEY, START_SECS, admin, admin_without_csrf, fetch_nonce, login_with};
use crate::helpers::{Api, send};

#[tokio::test]
async fn a_nonce_is_a_fresh_random_token_for_each_request() {
    let api = Api::spawn().await;

    let first = fetch_nonce(&api, TEST_ADMIN_PRIVATE_KEY).await;
    let second = fetch_nonce(&api, TEST_ADMIN_PRIVATE_KEY).await;

    assert_eq!(first.len(), 43);
    assert_ne!(first, second);
}

#[tokio::test]
async fn a_nonce_request_without_a_valid_wallet_is_invalid_input() {
    let api = Api::spawn().await;

    let missing = send(api.anonymous(Method::GET, "/api/auth/nonce")).await;
    let malformed = send(api.anonymous(Method::GET, "/api/auth/nonce?wallet=0x12")).await;

    assert_eq!(missing.status, 400);
    assert_eq!(missing.json["field"], "wallet");
    assert_eq!(malformed.status, 400);
    assert_eq!(malformed.json["field"], "wallet");
}

#[tokio::test]
async fn signing_in_sets_an_http_only_session_cookie_and_returns_the_csrf_token() {
    let api = Api::spawn().await;
    let nonce = fetch_nonce(&api, TEST_ADMIN_PRIVATE_KEY).await;

    let reply = login_with(
        &api,
        TEST_ADMIN_PRIVATE_KEY,
        TEST_ADMIN_PRIVATE_KEY,
        &nonce,
        START_SECS,
    )
    .await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(reply.json["ok"], true);
    assert_eq!(reply.json["wallet"], TEST_ADMIN_WALLET);
    assert_eq!(reply.json["roles"], json!(["merchant"]));
    assert_eq!(reply.json["csrfToken"].as_str().unwrap().len(), 43);
    let cookie = reply.header("set-cookie");
    assert!(cookie.starts_with("cb_auth_token=ey"), "{cookie}");
    assert!(
        cookie.ends_with("; HttpOnly; SameSite=Lax; Path=/; Max-Age=43200"),
        "{cookie}"
    );
}

#[tokio::test]
async fn a_nonce_can_be_used_only_once() {
    let api = Api::spawn().await;
    let nonce = fetch_nonce(&api, TEST_ADMIN_PRIVATE_KEY).await;
    let first = login_with(
        &api,
        TEST_ADMIN_PRIVATE_KEY,
        TEST_ADMIN_PRIVATE_KEY,
        &nonce,
        START_SECS,
    )
    .await;
    assert_eq!(first.status, 200);

    let replay = login_with(
        &api,
        TEST_ADMIN_PRIVATE_KEY,
        TEST_ADMIN_PRIVATE_KEY,
        &nonce,
        START_SECS,
    )
    .await;

    assert_eq!(replay.status, 401);
    assert_eq!(
        replay.json,
        json!({"error": "unauthorized",
               "message": "the sign-in nonce is unknown, already used or expired; request a new one"})
    );
}

#[tokio::test]
async fn an_expired_nonce_is_refused() {
    let api = Api::spawn().await;
    let nonce = fetch_nonce(&api, TEST_ADMIN_PRIVATE_KEY).await;
    api.app.clock.advance(Duration::from_secs(5 * 60));

    let reply = login_with(
        &api,
        TEST_ADMIN_PRIVATE_KEY,
        TEST_ADMIN_PRIVATE_KEY,
        &nonce,
        START_SECS + 300,
    )
    .await;

    assert_eq!(reply.status, 401);
    assert_eq!(reply.json["error"], "unauthorized");
}

#[tokio::test]
async fn a_nonce_issued_to_another_wallet_is_refused() {
    let api = Api::spawn().await;
    let nonce = fetch_nonce(&api, OTHER_KEY).await;

    let reply = login_with(
        &api,
        TEST_ADMIN_PRIVATE_KEY,
        TEST_ADMIN_PRIVATE_KEY,
        &nonce,
        START_SECS,
    )
    .await;

    assert_eq!(reply.status, 401);
}

#[tokio::test]
async fn a_login_signed_by_another_key_is_refused() {
    let api = Api::spawn().await;
    let nonce = fetch_nonce(&api, TEST_ADMIN_PRIVATE_KEY).await;

    let reply = login_with(&api, TEST_ADMIN_PRIVATE_KEY, OTHER_KEY, &nonce, START_SECS).await;

    assert_eq!(reply.status, 401);
    assert_eq!(
        reply.json["message"],
        "sign-in refused: the message was not signed by 0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"
    );
    assert_eq!(reply.header("set-cookie"), "");
}

#[tokio::test]
async fn a_login_issued_more_than_five_minutes_from_server_time_is_refused() {
    let api = Api::spawn().await;
    let nonce = fetch_nonce(&api, TEST_ADMIN_PRIVATE_KEY).await;

    let reply = login_with(
        &api,
        TEST_ADMIN_PRIVATE_KEY,
        TEST_ADMIN_PRIVATE_KEY,
        &nonce,
        START_SECS - 301,
    )
    .await;

    assert_eq!(reply.status, 401);
    assert_eq!(
        reply.json["message"],
        "sign-in refused: issuedAt is more than 5 minutes from the server time"
    );
}

#[tokio::test]
async fn me_describes_the_session() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let reply = send(admin_without_csrf(&api, &client, Method::GET, "/api/auth/me")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json,
        json!({"wallet": TEST_ADMIN_WALLET, "roles": ["merchant"], "expiresAt": 1_700_043_200_000_i64})
    );
}

#[tokio::test]
async fn after_logout_the_same_cookie_is_refused() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let logout = send(admin(&api, &client, Method::POST, "/api/auth/logout")).await;
    let after = send(admin_without_csrf(&api, &client, Method::GET, "/api/auth/me")).await;

    assert_eq!(logout.status, 200);
    assert_eq!(logout.json, json!({"ok": true}));
    assert!(logout.header("set-cookie").starts_with("cb_auth_token=; "));
    assert_eq!(after.status, 401);
    assert_eq!(
        after.json,
        json!({"error": "unauthorized", "message": "missing or expired session"})
    );
}

#[tokio::test]
async fn a_token_signed_with_another_secret_is_refused() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;
    let token = client.cookie.trim_start_matches("cb_auth_token=");
    let mut validation = Validation::new(Algorithm::HS256);
    validation.insecure_disable_signature_validation();
    validation.validate_exp = false;
    let claims = jsonwebtoken::decode::<Value>(token, &DecodingKey::from_secret(b""), &validation)
        .unwrap()
        .claims;
    let forged = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(b"not the server secret"),
    )
    .unwrap();

    let reply = send(
        api.anonymous(Method::GET, "/api/auth/me")
            .header("cookie", format!("cb_auth_token={forged}")),
    )
    .await;

    assert_eq!(reply.status, 401);
    assert_eq!(reply.json["message"], "missing or expired session");
}

#[tokio::test]
async fn a_session_is_refused_once_it_expires() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;
    api.app.clock.advance(Duration::from_secs(12 * 60 * 60));

    let reply = send(admin_without_csrf(&api, &client, Method::GET, "/api/auth/me")).await;

    assert_eq!(reply.status, 401);
    assert_eq!(reply.json["message"], "missing or expired session");
}

#[tokio::test]
async fn admin_routes_refuse_a_subscription_key_without_a_session() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::GET, "/api/auth/me")).await;

    assert_eq!(reply.status, 401);
    assert_eq!(
        reply.json,
        json!({"error": "unauthorized", "message": "missing or expired session"})
    );
}

#[tokio::test]
async fn a_write_without_the_csrf_header_is_refused_and_changes_nothing() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let refused = send(admin_without_csrf(
        &api,
        &client,
        Method::POST,
        "/api/auth/logout",
    ))
    .await;
    let wrong = send(
        admin_without_csrf(&api, &client, Method::POST, "/api/auth/logout").header("x-csrf-token", "guess"),
    )
    .await;
    let still = send(admin_without_csrf(&api, &client, Method::GET, "/api/auth/me")).await;

    assert_eq!(refused.status, 403);
    assert_eq!(
        refused.json,
        json!({"error": "forbidden", "message": "missing or invalid x-csrf-token header"})
    );
    assert_eq!(wrong.status, 403);
    assert_eq!(still.status, 200);
}

#[tokio::test]
async fn a_write_from_another_origin_is_refused() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let foreign =
        send(admin(&api, &client, Method::POST, "/api/auth/logout").header("origin", "https://evil.example"))
            .await;
    let same =
        send(admin(&api, &client, Method::POST, "/api/auth/logout").header("origin", &api.app.base_url))
            .await;

    assert_eq!(foreign.status, 403);
    assert_eq!(foreign.json["error"], "forbidden");
    assert_eq!(same.status, 200);
}

#[tokio::test]
async fn a_platform_admin_can_revoke_every_session_of_a_wallet() {
    let api = Api::spawn_with(TestOptions {
        platform_admins: vec![wallet_of_key(OTHER_KEY)],
        ..TestOptions::default()
    })
    .await;
    let (merchant, _) = api.app.merchant_admin().await;
    let second = api.app.admin_for(TEST_ADMIN_PRIVATE_KEY).await;
    let platform = api.app.admin_for(OTHER_KEY).await;

    let reply = send(
        admin(&api, &platform, Method::POST, "/api/auth/sessions/revoke")
            .json(&json!({"wallet": TEST_ADMIN_WALLET})),
    )
    .await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(
        reply.json,
        json!({"ok": true, "wallet": TEST_ADMIN_WALLET, "revoked": 2})
    );
    for session in [&merchant, &second] {
        let me = send(admin_without_csrf(&api, session, Method::GET, "/api/auth/me")).await;
        assert_eq!(me.status, 401);
    }
    let own = send(admin_without_csrf(&api, &platform, Method::GET, "/api/auth/me")).await;
    assert_eq!(own.json["roles"], json!(["merchant", "platform_admin"]));
}

#[tokio::test]
async fn a_merchant_cannot_revoke_sessions() {
    let api = Api::spawn().await;
    let (merchant, _) = api.app.merchant_admin().await;
    let other = api.app.admin_for(OTHER_KEY).await;

    let reply = send(
        admin(&api, &merchant, Method::POST, "/api/auth/sessions/revoke")
            .json(&json!({"wallet": other.wallet})),
    )
    .await;
    let still = send(admin_without_csrf(&api, &other, Method::GET, "/api/auth/me")).await;

    assert_eq!(reply.status, 403);
    assert_eq!(
        reply.json,
        json!({"error": "forbidden", "message": "only a platform admin may do this"})
    );
    assert_eq!(still.status, 200);
}
