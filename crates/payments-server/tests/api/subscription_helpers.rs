//! Shared steps of the subscription tests: a plan, a customer with tokens who signs a spend permission for
//! it, the create call, and the cron batch.

use payments_core::{SpendPermission, SpendPermissionData, Wallet};
use payments_server::testing::{TEST_CRON_SECRET, TEST_START_MS, sign_permission, wallet_of_key};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, Reply, send};

pub(crate) const CUSTOMER_KEY: [u8; 32] = [0x42; 32];
pub(crate) const OTHER_KEY: [u8; 32] = [0x43; 32];
pub(crate) const WEEK_MS: i64 = 604_800_000;
/// `$9.99` in token base units.
pub(crate) const PRICE_UNITS: u128 = 9_990_000;
/// 0.5% of $9.99 in base units: 49,950 ($0.04995; the fee is computed in base units, not cents).
pub(crate) const FEE_UNITS: u128 = 49_950;
pub(crate) const NET_UNITS: u128 = 9_940_050;
pub(crate) const PLATFORM_RECIPIENT: &str = "0x5050505050505050505050505050505050505050";

pub(crate) fn customer() -> Wallet {
    wallet_of_key(CUSTOMER_KEY)
}

/// A weekly $9.99 plan of the test merchant; answers its id.
pub(crate) async fn weekly_plan(api: &Api) -> String {
    let reply = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Weekly box",
        "description": "one box a week",
        "priceUsd": 9.99,
        "period": "WEEKLY"
    })))
    .await;
    assert_eq!(reply.status, 201, "plan not created: {}", reply.json);
    reply.json["plan"]["planId"].as_str().unwrap().to_owned()
}

/// The permission a customer signs for the weekly plan: the server's spender and token, one price per week,
/// from the test start for a year.
pub(crate) fn weekly_permission(api: &Api, account: Wallet, salt: u64) -> SpendPermissionData {
    let spend = api.app.spend();
    let start = u64::try_from(TEST_START_MS / 1000).unwrap();
    SpendPermissionData {
        account: account.to_string(),
        spender: spend.relayer().to_string(),
        token: spend.token().to_string(),
        allowance: PRICE_UNITS.to_string(),
        period: 604_800,
        start,
        end: start + 365 * 86_400,
        salt: salt.to_string(),
        extra_data: "0x".to_owned(),
    }
}

/// The create body for `data` signed by `key`.
pub(crate) fn create_body(api: &Api, plan_id: &str, key: [u8; 32], data: &SpendPermissionData) -> Value {
    let permission: SpendPermission = data.parse().unwrap();
    let signature = sign_permission(key, &permission, &api.app.spend().domain());
    json!({
        "planId": plan_id,
        "customerWallet": wallet_of_key(key).to_string(),
        "permissionSignature": format!("0x{}", hex::encode(signature)),
        "permissionData": data,
    })
}

pub(crate) async fn create(api: &Api, body: &Value) -> Reply {
    send(
        api.anonymous(Method::POST, "/api/subscriptions/create")
            .json(body),
    )
    .await
}

/// A customer with `units` of the token who approved the manager, subscribed to `plan_id`; answers the
/// subscription id.
pub(crate) async fn subscribed(api: &Api, plan_id: &str, key: [u8; 32], units: u128) -> String {
    let chain = api.app.chain();
    let account = wallet_of_key(key);
    if units > 0 {
        chain.mint(account, units);
    }
    chain.approve(account, chain.manager(), u128::MAX);
    let reply = create(
        api,
        &create_body(api, plan_id, key, &weekly_permission(api, account, 1)),
    )
    .await;
    assert_eq!(reply.status, 201, "not subscribed: {}", reply.json);
    reply.json["subscription"]["subscriptionId"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Runs the cron batch; answers its body.
pub(crate) async fn run_batch(api: &Api) -> Value {
    let reply = send(
        api.anonymous(Method::POST, "/api/cron/charge-subscriptions")
            .header("x-cron-secret", TEST_CRON_SECRET),
    )
    .await;
    assert_eq!(reply.status, 200, "batch failed: {}", reply.json);
    reply.json
}

pub(crate) async fn status_of(api: &Api, subscription_id: &str) -> Value {
    let reply = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?subscriptionId={subscription_id}"),
    ))
    .await;
    assert_eq!(reply.status, 200, "status failed: {}", reply.json);
    reply.json
}

/// Moves the server's clock (and with it the test-mode chain's) through the test clock route.
pub(crate) async fn advance_to(api: &Api, to_ms: i64) {
    let reply = send(
        api.anonymous(Method::POST, "/api/test-clock/advance")
            .header("x-cron-secret", TEST_CRON_SECRET)
            .json(&json!({ "to": to_ms })),
    )
    .await;
    assert_eq!(reply.status, 200, "clock not moved: {}", reply.json);
}
