//! A signed-in wallet's own profile, heartbeats and follows; one user by wallet; xp derived from purchases.

use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::{admin, admin_without_csrf};
use crate::helpers::{Api, send};
use crate::user_helpers::{Shop, get_ok, put_profile, sign_in, user_with};

#[tokio::test]
async fn any_signed_in_wallet_saves_its_profile_and_others_read_it() {
    let api = Api::spawn().await;
    let user = sign_in(&api, 1).await;

    let saved = put_profile(
        &api,
        &user,
        json!({"displayName": "  Ada  ", "pfpUrl": "https://img.example/ada.png", "domains": ["DeFi", "defi"],
               "platforms": ["Twitch"], "languages": ["en"]}),
    )
    .await;

    assert_eq!(saved.status, 200, "{}", saved.json);
    let expected = json!({
        "wallet": user.wallet, "displayName": "Ada", "pfpUrl": "https://img.example/ada.png", "spaceUrl": "",
        "xp": 0, "live": false, "spacePublic": false, "lastSeen": payments_server::testing::TEST_START_MS,
        "lastHeartbeat": null, "domains": ["defi"], "platforms": ["twitch"], "languages": ["en"]
    });
    assert_eq!(saved.json, json!({"ok": true, "user": expected}));
    assert_eq!(
        get_ok(&api, &format!("/api/users/{}", user.wallet)).await,
        expected
    );
}

#[tokio::test]
async fn a_profile_put_replaces_the_whole_profile() {
    let api = Api::spawn().await;
    let user = user_with(
        &api,
        1,
        json!({"displayName": "Ada", "languages": ["en", "fr"], "pfpUrl": "https://a.example/p"}),
    )
    .await;

    let saved = put_profile(&api, &user, json!({"displayName": "Ada L."})).await;

    assert_eq!(
        (
            saved.json["user"]["languages"].clone(),
            saved.json["user"]["pfpUrl"].clone()
        ),
        (json!([]), json!(""))
    );
    let search = get_ok(&api, "/api/users/search?languages=fr").await;
    assert_eq!(search["users"], json!([]));
}

#[tokio::test]
async fn user_writes_need_a_session_and_its_csrf_token_and_change_nothing_otherwise() {
    let api = Api::spawn().await;
    let user = sign_in(&api, 1).await;
    let profile = json!({"displayName": "Ada"});

    let anonymous = send(api.anonymous(Method::PUT, "/api/users/me").json(&profile)).await;
    let with_key_only = send(
        api.dev(Method::POST, "/api/users/heartbeat")
            .json(&json!({"live": true, "spacePublic": true})),
    )
    .await;
    let without_csrf =
        send(admin_without_csrf(&api, &user, Method::PUT, "/api/users/me").json(&profile)).await;
    let cross_origin = send(
        admin(&api, &user, Method::POST, "/api/users/follows")
            .header("origin", "https://evil.example")
            .json(&json!({"wallet": "0x1111111111111111111111111111111111111111"})),
    )
    .await;

    assert_eq!(
        (anonymous.status, anonymous.json["error"].as_str()),
        (401, Some("unauthorized"))
    );
    assert_eq!(with_key_only.status, 401);
    assert_eq!(
        (without_csrf.status, without_csrf.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    assert_eq!(cross_origin.status, 403);
    let reply = send(api.dev(Method::GET, &format!("/api/users/{}", user.wallet))).await;
    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (404, Some("not_found"))
    );
}

#[tokio::test]
async fn an_invalid_profile_is_refused_naming_its_field_and_changes_nothing() {
    let api = Api::spawn().await;
    let user = user_with(&api, 1, json!({"displayName": "Ada"})).await;
    let many: Vec<String> = (0..17).map(|n| format!("lang-{n}")).collect();

    for (profile, field) in [
        (json!({}), "displayName"),
        (json!({"displayName": "x".repeat(65)}), "displayName"),
        (json!({"displayName": "Ada\u{7}"}), "displayName"),
        (json!({"displayName": "Ada", "languages": many}), "languages"),
        (json!({"displayName": "Ada", "domains": ["a,b"]}), "domains[0]"),
        (
            json!({"displayName": "Ada", "platforms": ["y".repeat(33)]}),
            "platforms[0]",
        ),
        (
            json!({"displayName": "Ada", "pfpUrl": "http://img.example/p.png"}),
            "pfpUrl",
        ),
        (
            json!({"displayName": "Ada", "spaceUrl": "javascript:alert(1)"}),
            "spaceUrl",
        ),
    ] {
        let reply = put_profile(&api, &user, profile.clone()).await;
        assert_eq!(reply.status, 400, "{profile}: {}", reply.json);
        assert_eq!(
            (reply.json["error"].as_str(), reply.json["field"].as_str()),
            (Some("invalid_input"), Some(field)),
            "{profile}"
        );
    }
    let self_declared = put_profile(&api, &user, json!({"displayName": "Ada", "xp": 1_000_000})).await;
    assert_eq!(
        (self_declared.status, self_declared.json["error"].as_str()),
        (400, Some("invalid_input"))
    );
    let stored = get_ok(&api, &format!("/api/users/{}", user.wallet)).await;
    assert_eq!(
        (stored["displayName"].as_str(), stored["xp"].as_i64()),
        (Some("Ada"), Some(0))
    );
}

#[tokio::test]
async fn xp_grows_with_paid_purchases_and_shrinks_with_refunds() {
    let api = Api::spawn().await;
    let buyer = user_with(&api, 1, json!({"displayName": "Ada"})).await;
    let shop = Shop::open(&api).await;
    let wallet = buyer.wallet.to_string();

    shop.sell(&api, "r-1", 12.5, &wallet).await;
    shop.sell(&api, "r-2", 9.99, &wallet).await;
    let unpaid = json!({"id": "r-3", "lineItems": [{"label": "Ticket", "priceUsd": 50}], "totalUsd": 50});
    assert_eq!(
        send(
            api.dev_as(&shop.key.key, Method::POST, "/api/receipts")
                .json(&unpaid)
        )
        .await
        .status,
        201
    );
    let path = format!("/api/users/{wallet}");
    assert_eq!(
        get_ok(&api, &path).await["xp"],
        22,
        "12.50 + 9.99 paid, whole dollars"
    );

    let sent = crate::paid_receipt::refund_sent(&api, &wallet, 500).await;
    let refund = json!({"receiptId": "r-1", "wallet": shop.key.wallet, "buyer": wallet, "usd": 5, "items": [],
                        "txHash": sent});
    let refunded = send(admin(&api, &shop.admin, Method::POST, "/api/receipts/refund").json(&refund)).await;
    assert_eq!(refunded.status, 200, "{}", refunded.json);
    assert_eq!(get_ok(&api, &path).await["xp"], 17);
}

#[tokio::test]
async fn a_merchant_key_cannot_name_a_buyer_only_an_admin_or_the_chain_can() {
    let api = Api::spawn().await;
    let shop = Shop::open(&api).await;
    let body = json!({"id": "r-1", "lineItems": [{"label": "Ticket", "priceUsd": 5}], "totalUsd": 5});
    assert_eq!(
        send(
            api.dev_as(&shop.key.key, Method::POST, "/api/receipts")
                .json(&body)
        )
        .await
        .status,
        201
    );

    let post = json!({"receiptId": "r-1", "wallet": shop.key.wallet, "status": "checkout_initialized",
                      "buyerWallet": "0x1111111111111111111111111111111111111111"});
    let reply = send(
        api.dev_as(&shop.key.key, Method::POST, "/api/receipts/status")
            .json(&post),
    )
    .await;

    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (403, Some("forbidden")),
        "{}",
        reply.json
    );
}

#[tokio::test]
async fn follows_are_created_once_removed_once_and_need_a_listed_user() {
    let api = Api::spawn().await;
    let fan = sign_in(&api, 1).await;
    let star = user_with(&api, 2, json!({"displayName": "Star"})).await;
    let follow = |method: Method, wallet: String| {
        let request = admin(&api, &fan, method, "/api/users/follows").json(&json!({"wallet": wallet}));
        send(request)
    };

    let first = follow(Method::POST, star.wallet.to_string()).await;
    let again = follow(Method::POST, star.wallet.to_string()).await;
    let unknown = follow(
        Method::POST,
        "0x9999999999999999999999999999999999999999".to_owned(),
    )
    .await;
    let itself = follow(Method::POST, fan.wallet.to_string()).await;
    let malformed = follow(Method::POST, "0x12".to_owned()).await;
    let removed = follow(Method::DELETE, star.wallet.to_string()).await;
    let removed_again = follow(Method::DELETE, star.wallet.to_string()).await;

    assert_eq!(
        first.json,
        json!({"ok": true, "wallet": star.wallet, "following": true, "changed": true})
    );
    assert_eq!((again.status, &again.json["changed"]), (200, &json!(false)));
    assert_eq!(
        (unknown.status, unknown.json["error"].as_str()),
        (404, Some("not_found"))
    );
    assert_eq!(
        (itself.status, itself.json["field"].as_str()),
        (400, Some("wallet"))
    );
    assert_eq!(
        (malformed.status, malformed.json["field"].as_str()),
        (400, Some("wallet"))
    );
    assert_eq!(
        removed.json,
        json!({"ok": true, "wallet": star.wallet, "following": false, "changed": true})
    );
    assert_eq!(removed_again.json["changed"], false);
}
