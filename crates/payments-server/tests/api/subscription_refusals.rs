//! What `POST /api/subscriptions/create`, the plan writes and the internal routes refuse, each with its
//! precise code, changing nothing.

use payments_server::Clock as _;
use payments_server::testing::{TEST_CRON_SECRET, TEST_START_MS, TestOptions, wallet_of_key};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send};
use crate::subscription_helpers::{
    CUSTOMER_KEY, OTHER_KEY, create, create_body, customer, subscribed, weekly_permission, weekly_plan,
};

async fn refused_with(api: &Api, body: &Value, code: &str) {
    let reply = create(api, body).await;
    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (400, Some(code)),
        "{}",
        reply.json
    );
    let listed = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?customer={}", customer()),
    ))
    .await;
    assert_eq!(
        listed.json["subscriptions"],
        json!([]),
        "a refused create stored something"
    );
}

#[tokio::test]
async fn a_permission_signed_by_another_key_is_a_signer_mismatch() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let data = weekly_permission(&api, customer(), 1);
    let mut body = create_body(&api, &plan, OTHER_KEY, &data);
    body["customerWallet"] = json!(customer().to_string());

    refused_with(&api, &body, "signer_mismatch").await;
}

#[tokio::test]
async fn a_field_changed_after_signing_is_a_signer_mismatch() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let mut body = create_body(&api, &plan, CUSTOMER_KEY, &weekly_permission(&api, customer(), 1));
    body["permissionData"]["allowance"] = json!("99990000");

    refused_with(&api, &body, "signer_mismatch").await;
}

#[tokio::test]
async fn permissions_that_do_not_fit_the_plan_or_platform_are_refused_with_their_code() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let start = u64::try_from(TEST_START_MS / 1000).unwrap();
    let cases: Vec<(&str, Value)> = vec![
        (
            "spender_mismatch",
            json!({"spender": wallet_of_key(OTHER_KEY).to_string()}),
        ),
        (
            "token_mismatch",
            json!({"token": "0x000000000000000000000000000000000000dEaD"}),
        ),
        ("allowance_insufficient", json!({"allowance": "9989999"})),
        ("period_mismatch", json!({"period": 1_209_600})),
        ("permission_not_started", json!({"start": start + 60})),
        ("permission_expired", json!({"end": start})),
        (
            "permission_ends_before_next_charge",
            json!({"end": start + 604_800}),
        ),
    ];
    for (code, change) in cases {
        let mut data = serde_json::to_value(weekly_permission(&api, customer(), 1)).unwrap();
        for (field, value) in change.as_object().unwrap() {
            data[field] = value.clone();
        }
        let data = serde_json::from_value(data).unwrap();

        refused_with(&api, &create_body(&api, &plan, CUSTOMER_KEY, &data), code).await;
    }
}

#[tokio::test]
async fn a_permission_for_another_account_or_malformed_is_refused() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let mut other_account = create_body(
        &api,
        &plan,
        OTHER_KEY,
        &weekly_permission(&api, wallet_of_key(OTHER_KEY), 1),
    );
    other_account["customerWallet"] = json!(customer().to_string());
    let mut bad_signature = create_body(&api, &plan, CUSTOMER_KEY, &weekly_permission(&api, customer(), 1));
    bad_signature["permissionSignature"] = json!("0x1234");
    let mut bad_allowance = create_body(&api, &plan, CUSTOMER_KEY, &weekly_permission(&api, customer(), 1));
    bad_allowance["permissionData"]["allowance"] = json!("ten");

    refused_with(&api, &other_account, "account_mismatch").await;
    refused_with(&api, &bad_signature, "invalid_signature").await;
    let reply = create(&api, &bad_allowance).await;
    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (400, Some("invalid_input"))
    );
    assert_eq!(reply.json["field"], "permissionData.allowance");
}

#[tokio::test]
async fn a_permission_is_used_once_and_plans_must_exist_and_be_active() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    subscribed(&api, &plan, CUSTOMER_KEY, 0).await;
    let again = create_body(&api, &plan, CUSTOMER_KEY, &weekly_permission(&api, customer(), 1));

    let reused = create(&api, &again).await;
    let unknown = create(
        &api,
        &create_body(
            &api,
            "plan_nope",
            CUSTOMER_KEY,
            &weekly_permission(&api, customer(), 2),
        ),
    )
    .await;
    let deactivated = send(
        api.dev(Method::DELETE, "/api/subscriptions/plans")
            .json(&json!({"planId": plan})),
    )
    .await;
    let inactive = create(
        &api,
        &create_body(&api, &plan, CUSTOMER_KEY, &weekly_permission(&api, customer(), 3)),
    )
    .await;

    assert_eq!(
        (reused.status, reused.json["error"].as_str()),
        (400, Some("permission_reused"))
    );
    assert_eq!(
        (unknown.status, unknown.json["error"].as_str()),
        (400, Some("plan_not_found"))
    );
    assert_eq!(deactivated.status, 200);
    assert_eq!(
        (inactive.status, inactive.json["error"].as_str()),
        (400, Some("plan_inactive"))
    );
}

#[tokio::test]
async fn plan_writes_need_the_merchant_and_valid_fields() {
    let api = Api::spawn().await;
    let reader = api.app.create_key(api.app.wallet, "subscriptions:read").await;
    let body = json!({"name": "Pro", "priceUsd": 5, "period": "MONTHLY"});

    let no_key = send(
        api.anonymous(Method::POST, "/api/subscriptions/plans")
            .json(&body),
    )
    .await;
    let no_scope = send(
        api.dev_as(&reader.key, Method::POST, "/api/subscriptions/plans")
            .json(&body),
    )
    .await;
    let other_wallet = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "wallet": "0x2222222222222222222222222222222222222222", "name": "Pro", "priceUsd": 5, "period": "MONTHLY"
    })))
    .await;

    assert_eq!(
        (no_key.status, no_key.json["error"].as_str()),
        (401, Some("unauthorized"))
    );
    assert_eq!(
        (no_scope.status, no_scope.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    assert_eq!(
        (other_wallet.status, other_wallet.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    for (field, value) in [
        ("priceUsd", json!(0)),
        ("priceUsd", json!(1.005)),
        ("period", json!("DAILY")),
        ("name", json!("")),
    ] {
        let mut bad = body.clone();
        bad[field] = value;
        let reply = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&bad)).await;
        assert_eq!(
            (reply.status, reply.json["field"].as_str()),
            (400, Some(field)),
            "{}",
            reply.json
        );
    }
    let listed = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/plans?wallet={}", api.app.wallet),
    ))
    .await;
    assert_eq!(listed.json["plans"], json!([]));
}

#[tokio::test]
async fn a_merchant_lists_updates_and_deactivates_its_plans() {
    let api = Api::spawn().await;
    let plan = crate::subscription_helpers::weekly_plan(&api).await;
    let stranger = api
        .app
        .create_key(payments_server::testing::test_wallet(0x22), "subscriptions:write")
        .await;

    let updated = send(
        api.dev(Method::PUT, "/api/subscriptions/plans")
            .json(&json!({"planId": plan, "priceUsd": 12.5, "name": "Big box"})),
    )
    .await;
    let foreign = send(
        api.dev_as(&stranger.key, Method::PUT, "/api/subscriptions/plans")
            .json(&json!({"planId": plan, "priceUsd": 1})),
    )
    .await;
    let listed = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/plans?wallet={}", api.app.wallet),
    ))
    .await;
    let deleted = send(
        api.dev(Method::DELETE, "/api/subscriptions/plans")
            .json(&json!({"planId": plan, "wallet": api.app.wallet.to_string()})),
    )
    .await;
    let after = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/plans?wallet={}", api.app.wallet),
    ))
    .await;

    assert_eq!(updated.status, 200);
    assert_eq!(updated.json["plan"]["priceUsd"], json!(12.5));
    assert_eq!(foreign.status, 404);
    assert_eq!(listed.json["success"], true);
    assert_eq!(listed.json["plans"][0]["name"], "Big box");
    assert_eq!(listed.json["plans"][0]["period"], "WEEKLY");
    assert_eq!(listed.json["plans"][0]["createdAt"], TEST_START_MS);
    assert_eq!(
        (deleted.status, deleted.json["plan"]["active"].clone()),
        (200, json!(false))
    );
    assert_eq!(after.json["plans"], json!([]));
}

#[tokio::test]
async fn status_takes_exactly_one_selector() {
    let api = Api::spawn().await;

    let none = send(api.anonymous(Method::GET, "/api/subscriptions/status")).await;
    let two = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?customer={0}&merchant={0}", customer()),
    ))
    .await;
    let unknown =
        send(api.anonymous(Method::GET, "/api/subscriptions/status?subscriptionId=csub_nope")).await;

    assert_eq!(
        (none.status, none.json["error"].as_str()),
        (400, Some("invalid_input"))
    );
    assert_eq!(
        (two.status, two.json["error"].as_str()),
        (400, Some("invalid_input"))
    );
    assert_eq!(
        (unknown.status, unknown.json["error"].as_str()),
        (404, Some("not_found"))
    );
}

#[tokio::test]
async fn the_internal_routes_need_the_cron_secret_and_are_absent_without_one() {
    let api = Api::spawn().await;
    let without = Api::spawn_with(TestOptions {
        without_cron_secret: true,
        ..TestOptions::default()
    })
    .await;
    let production = Api::spawn_with(TestOptions {
        production_mode: true,
        ..TestOptions::default()
    })
    .await;
    let clock = |api: &Api, to: i64| {
        api.anonymous(Method::POST, "/api/test-clock/advance")
            .header("x-cron-secret", TEST_CRON_SECRET)
            .json(&json!({ "to": to }))
    };

    let wrong = send(
        api.anonymous(Method::POST, "/api/cron/charge-subscriptions")
            .header("x-cron-secret", "guess"),
    )
    .await;
    let alias = send(
        api.anonymous(Method::POST, "/api/subscriptions/charge")
            .header("x-cron-secret", TEST_CRON_SECRET),
    )
    .await;
    let absent = send(
        without
            .anonymous(Method::POST, "/api/cron/charge-subscriptions")
            .header("x-cron-secret", TEST_CRON_SECRET),
    )
    .await;
    let backwards = send(clock(&api, TEST_START_MS - 1)).await;
    let forwards = send(clock(&api, TEST_START_MS + 5_000)).await;
    let outside_dev = send(clock(&production, TEST_START_MS + 5_000)).await;

    assert_eq!(
        (wrong.status, wrong.json["error"].as_str()),
        (401, Some("unauthorized"))
    );
    assert_eq!((alias.status, alias.json["processed"].as_u64()), (200, Some(0)));
    assert_eq!(absent.status, 404);
    assert_eq!(
        (backwards.status, backwards.json["error"].as_str()),
        (400, Some("invalid_input"))
    );
    assert_eq!(
        (forwards.status, forwards.json["nowMs"].as_i64()),
        (200, Some(TEST_START_MS + 5_000))
    );
    assert_eq!(outside_dev.status, 404);
    assert_eq!(api.app.clock.now_ms(), TEST_START_MS + 5_000);
}
