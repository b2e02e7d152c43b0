use payments_server::testing::{TEST_ADMIN_WALLET, TEST_PLATFORM_RECIPIENT, TestOptions, wallet_of_key};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::{OTHER_KEY, admin, admin_without_csrf};
use crate::helpers::{Api, KEY_HEADER, send};

const PAYEE: &str = "0x7777777777777777777777777777777777777777";
const CONTRACT: &str = "0xabcdef0000000000000000000000000000000001";

fn recipients(merchant_bps: u32, platform_bps: u32) -> Value {
    json!([
        {"address": TEST_ADMIN_WALLET, "sharesBps": merchant_bps},
        {"address": TEST_PLATFORM_RECIPIENT, "sharesBps": platform_bps},
    ])
}

async fn get_split(api: &Api, key: &str) -> Value {
    let reply = send(
        api.anonymous(Method::GET, "/api/split/deploy")
            .header(KEY_HEADER, key),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

#[tokio::test]
async fn an_unconfigured_split_reads_as_a_null_address_without_recipients() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::GET, "/api/split/deploy")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json, json!({"split": {"address": null, "recipients": []}}));
}

#[tokio::test]
async fn reading_the_split_needs_the_split_read_scope() {
    let api = Api::spawn().await;
    let reader = api.app.create_key(api.app.wallet, "shop:read").await;

    let reply = send(api.dev_as(&reader.key, Method::GET, "/api/split/deploy")).await;

    assert_eq!(reply.status, 403);
}

#[tokio::test]
async fn deploying_with_given_recipients_and_address_stores_them() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;

    let reply = send(
        admin(&api, &client, Method::POST, "/api/split/deploy")
            .json(&json!({"splitAddress": CONTRACT, "recipients": recipients(9950, 50)})),
    )
    .await;

    let expected = json!({"address": CONTRACT, "recipients": recipients(9950, 50)});
    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(reply.json, json!({"ok": true, "split": expected}));
    assert_eq!(get_split(&api, &key.key).await, json!({"split": expected}));
}

#[tokio::test]
async fn deploying_without_recipients_gives_the_merchant_all_but_the_platform_share() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let reply = send(admin(&api, &client, Method::POST, "/api/split/deploy").json(&json!({}))).await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(reply.json["split"]["recipients"], recipients(9950, 50));
    let address = reply.json["split"]["address"].as_str().unwrap();
    assert_eq!(address.len(), 42);
    assert!(address.starts_with("0x"));
}

#[tokio::test]
async fn a_split_without_an_address_lives_at_the_split_factorys_create2_address() {
    let first = Api::spawn().await;
    let second = Api::spawn().await;
    let (client_a, _) = first.app.merchant_admin().await;
    let (client_b, _) = second.app.merchant_admin().await;

    let a = send(admin(&first, &client_a, Method::POST, "/api/split/deploy").json(&json!({}))).await;
    let b = send(admin(&second, &client_b, Method::POST, "/api/split/deploy").json(&json!({}))).await;

    // `cast compute-address` of the development SplitFactory (0x5FbDB…0aa3) with salt keccak(args) and
    // init code Split.bytecode ‖ abi.encode([admin, platform], [9950, 50]) (docs/contracts.md).
    let expected = "0x5FfBCEbF1225222435a87C74612a21233408ff2e".to_lowercase();
    assert_eq!(
        a.json["split"]["address"].as_str().map(str::to_lowercase),
        Some(expected)
    );
    assert_eq!(a.json["split"]["address"], b.json["split"]["address"]);
}

#[tokio::test]
async fn a_split_address_that_is_zero_or_the_merchants_own_wallet_is_refused() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;

    let zero = send(
        admin(&api, &client, Method::POST, "/api/split/deploy")
            .json(&json!({"splitAddress": "0x0000000000000000000000000000000000000000"})),
    )
    .await;
    let own = send(
        admin(&api, &client, Method::POST, "/api/split/deploy")
            .json(&json!({"splitAddress": TEST_ADMIN_WALLET})),
    )
    .await;
    let after = get_split(&api, &key.key).await;

    for reply in [&zero, &own] {
        assert_eq!(reply.status, 400, "{}", reply.json);
        assert_eq!(reply.json["error"], "invalid_input");
        assert_eq!(reply.json["field"], "splitAddress");
    }
    assert_eq!(after, json!({"split": {"address": null, "recipients": []}}));
}

#[tokio::test]
async fn a_second_deploy_returns_the_stored_split_and_changes_nothing() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;
    let body = json!({"splitAddress": CONTRACT, "recipients": recipients(9950, 50)});
    send(admin(&api, &client, Method::POST, "/api/split/deploy").json(&body)).await;

    let different = json!({"recipients": [
        {"address": TEST_ADMIN_WALLET, "sharesBps": 9000},
        {"address": PAYEE, "sharesBps": 950},
        {"address": TEST_PLATFORM_RECIPIENT, "sharesBps": 50},
    ]});

    let again = send(admin(&api, &client, Method::POST, "/api/split/deploy").json(&different)).await;

    let expected = json!({"address": CONTRACT, "recipients": recipients(9950, 50)});
    assert_eq!(again.status, 200, "{}", again.json);
    assert_eq!(
        again.json,
        json!({"ok": true, "split": expected, "idempotent": true})
    );
    assert_eq!(get_split(&api, &key.key).await, json!({"split": expected}));
}

#[tokio::test]
async fn replacing_archives_the_old_split_in_the_history() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;
    send(
        admin(&api, &client, Method::POST, "/api/split/deploy")
            .json(&json!({"splitAddress": CONTRACT, "recipients": recipients(9950, 50)})),
    )
    .await;
    let new_recipients = json!([
        {"address": TEST_ADMIN_WALLET, "sharesBps": 8950},
        {"address": PAYEE, "sharesBps": 1000},
        {"address": TEST_PLATFORM_RECIPIENT, "sharesBps": 50},
    ]);

    let replaced = send(
        admin(&api, &client, Method::POST, "/api/split/deploy")
            .json(&json!({"replace": true, "recipients": new_recipients})),
    )
    .await;
    let history = send(
        api.anonymous(Method::GET, "/api/split/history")
            .header(KEY_HEADER, &key.key),
    )
    .await;

    assert_eq!(replaced.status, 200, "{}", replaced.json);
    assert_eq!(replaced.json["replaced"], true);
    assert_eq!(replaced.json["split"]["recipients"], new_recipients);
    assert_eq!(
        get_split(&api, &key.key).await["split"]["recipients"],
        new_recipients
    );
    assert_eq!(history.status, 200);
    assert_eq!(
        history.json,
        json!({"history": [{"address": CONTRACT, "recipients": recipients(9950, 50),
                            "createdAt": 1_700_000_000_000_i64, "archivedAt": 1_700_000_000_000_i64}]})
    );
}

#[tokio::test]
async fn shares_not_summing_to_10000_are_refused_naming_recipients() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;

    let reply = send(
        admin(&api, &client, Method::POST, "/api/split/deploy")
            .json(&json!({"recipients": recipients(9000, 50)})),
    )
    .await;

    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json,
        json!({"error": "invalid_input", "field": "recipients",
               "message": "recipients: shares must sum to exactly 10000 bps, got 9050"})
    );
    assert_eq!(get_split(&api, &key.key).await["split"]["address"], Value::Null);
}

#[tokio::test]
async fn recipients_without_the_platform_share_are_refused() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let reply = send(
        admin(&api, &client, Method::POST, "/api/split/deploy")
            .json(&json!({"recipients": [{"address": TEST_ADMIN_WALLET, "sharesBps": 10000}]})),
    )
    .await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["field"], "recipients");
    assert_eq!(
        reply.json["message"],
        "recipients: the platform recipient 0x5050505050505050505050505050505050505050 must be present with exactly 50 bps"
    );
}

#[tokio::test]
async fn deploying_without_a_configured_platform_recipient_is_refused() {
    let api = Api::spawn_with(TestOptions {
        without_platform_recipient: true,
        ..TestOptions::default()
    })
    .await;
    let (client, _) = api.app.merchant_admin().await;

    let reply = send(admin(&api, &client, Method::POST, "/api/split/deploy").json(&json!({}))).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["error"], "platform_recipient_not_configured");
}

#[tokio::test]
async fn deploying_needs_a_session_not_a_subscription_key() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::POST, "/api/split/deploy").json(&json!({}))).await;

    assert_eq!(reply.status, 401);
    assert_eq!(
        reply.json,
        json!({"error": "unauthorized", "message": "missing or expired session"})
    );
}

#[tokio::test]
async fn deploying_without_the_csrf_header_is_refused_and_stores_nothing() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;

    let reply =
        send(admin_without_csrf(&api, &client, Method::POST, "/api/split/deploy").json(&json!({}))).await;

    assert_eq!(reply.status, 403);
    assert_eq!(get_split(&api, &key.key).await["split"]["address"], Value::Null);
}

#[tokio::test]
async fn a_merchant_cannot_deploy_a_split_for_another_wallet() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let reply = send(
        admin(&api, &client, Method::POST, "/api/split/deploy")
            .json(&json!({"wallet": "0x1111111111111111111111111111111111111111"})),
    )
    .await;
    let victim = send(api.dev(Method::GET, "/api/split/deploy")).await;

    assert_eq!(reply.status, 403);
    assert_eq!(reply.json["error"], "forbidden");
    assert_eq!(victim.json["split"]["address"], Value::Null);
}

#[tokio::test]
async fn a_platform_admin_can_deploy_a_split_for_a_merchant() {
    let api = Api::spawn_with(TestOptions {
        platform_admins: vec![wallet_of_key(OTHER_KEY)],
        ..TestOptions::default()
    })
    .await;
    let platform = api.app.admin_for(OTHER_KEY).await;

    let reply = send(
        admin(&api, &platform, Method::POST, "/api/split/deploy")
            .json(&json!({"wallet": "0x1111111111111111111111111111111111111111"})),
    )
    .await;
    let merchant = send(api.dev(Method::GET, "/api/split/deploy")).await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(
        merchant.json["split"]["recipients"][0]["address"],
        "0x1111111111111111111111111111111111111111"
    );
}

#[tokio::test]
async fn unknown_deploy_fields_are_invalid_input() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let reply =
        send(admin(&api, &client, Method::POST, "/api/split/deploy").json(&json!({"force": true}))).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["error"], "invalid_input");
}

#[tokio::test]
async fn withdraw_is_gone_for_every_method() {
    let api = Api::spawn().await;

    let post = send(api.anonymous(Method::POST, "/api/split/withdraw")).await;
    let get = send(api.anonymous(Method::GET, "/api/split/withdraw")).await;

    assert_eq!(post.status, 410);
    assert_eq!(
        post.json,
        json!({"error": "deprecated", "reason": "use_connected_wallet",
               "message": "withdrawals are made by calling the split contract's release function from the recipient wallet"})
    );
    assert_eq!(get.status, 410);
}
