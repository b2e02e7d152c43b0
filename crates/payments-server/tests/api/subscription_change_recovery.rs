//! A plan change is made exactly once even when the server never hears back from the chain (a crash or a
//! lost node between sending `changePermission` and recording it): the change stays pending, keeps the
//! subscription out of the batch and refuses a second change, and once its lease is over the next batch run
//! finds it done on chain and applies it, with its prorated charge, without sending it again.

use std::time::Duration;

use payments_core::{SpendPermission, SpendPermissionData};
use payments_server::testing::{TEST_START_MS, TestOptions, sign_permission};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send, send_raw};
use crate::idempotency::lose_kept_answer;
use crate::subscription_helpers::{
    CUSTOMER_KEY, PRICE_UNITS, advance_to, customer, run_batch, status_of, subscribed, weekly_permission,
    weekly_plan,
};

const DAY_MS: i64 = 86_400_000;

/// A subscription to the weekly plan, charged once, four days into its period, and the body of its
/// customer's signed change to a $19.99 weekly plan.
struct Upgrade {
    basic: String,
    pro: String,
    id: String,
    /// The subscription's permission before the change.
    old: SpendPermission,
    body: Value,
}

async fn upgrade_four_days_in(api: &Api) -> Upgrade {
    let basic = weekly_plan(api).await;
    let pro = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Pro box", "priceUsd": 19.99, "period": "WEEKLY"
    })))
    .await;
    let pro = pro.json["plan"]["planId"].as_str().unwrap().to_owned();
    let id = subscribed(api, &basic, CUSTOMER_KEY, 10 * PRICE_UNITS).await;
    run_batch(api).await;
    advance_to(api, TEST_START_MS + 4 * DAY_MS).await;
    let offer = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/plans/{pro}/permission?subscriptionId={id}"),
    ))
    .await;
    let data: SpendPermissionData =
        serde_json::from_value(offer.json["typedData"]["message"].clone()).unwrap();
    // The subscription's permission: the helpers' weekly one (salt 1).
    let old: SpendPermission = weekly_permission(api, customer(), 1).parse().unwrap();
    let permission: SpendPermission = data.parse().unwrap();
    let signature = sign_permission(CUSTOMER_KEY, &permission, &api.app.spend().domain());
    let body = json!({
        "subscriptionId": id,
        "newPlanId": pro,
        "permissionSignature": format!("0x{}", hex::encode(signature)),
        "permissionData": data,
    });
    Upgrade {
        basic,
        pro,
        id,
        old,
        body,
    }
}

/// The subscription's prorated charges, as its status shows them.
fn prorated(status: &Value) -> Vec<Value> {
    status["billingEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["status"] == "prorated_charge")
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_change_whose_answer_was_lost_is_found_done_on_chain_after_its_lease_and_applied_once() {
    let api = Api::spawn_with(TestOptions {
        subscription_lease: Some(Duration::from_secs(60)),
        ..TestOptions::default()
    })
    .await;
    let Upgrade {
        basic,
        pro,
        id,
        old,
        body,
    } = upgrade_four_days_in(&api).await;
    let change = || {
        send(
            api.anonymous(Method::POST, "/api/subscriptions/change")
                .json(&body),
        )
    };

    api.app.chain().lose_change_answers(true);
    let lost = change().await;
    api.app.chain().lose_change_answers(false);
    let while_pending = status_of(&api, &id).await;
    let retried = change().await;
    advance_to(&api, TEST_START_MS + 4 * DAY_MS + 61_000).await;
    run_batch(&api).await;
    let after = status_of(&api, &id).await;

    assert_eq!(lost.status, 503, "{}", lost.json);
    assert_eq!(while_pending["subscriptions"][0]["planId"], basic.as_str());
    assert_eq!(retried.json["error"], "change_in_progress", "{}", retried.json);
    assert_eq!(after["subscriptions"][0]["planId"], pro.as_str(), "{after}");
    let prorated = prorated(&after);
    assert_eq!(prorated.len(), 1, "{after}");
    assert_eq!(prorated[0]["grossBaseUnits"], "4285714");
    assert_eq!(
        prorated[0]["transactionHash"],
        Value::Null,
        "found on chain, its hash unknown"
    );
    let chain = api.app.chain();
    assert_eq!(
        chain.balance(customer()).await,
        10 * PRICE_UNITS - PRICE_UNITS - 4_285_714,
        "charged once"
    );
    let old_period = api.app.spend().period(&old).await.unwrap();
    assert!(old_period.revoked, "the old permission is revoked on chain");
}

#[tokio::test]
async fn a_change_whose_kept_answer_was_lost_is_answered_from_the_change_and_changes_nothing_more() {
    let api = Api::spawn().await;
    let upgrade = upgrade_four_days_in(&api).await;
    let change = || {
        api.anonymous(Method::POST, "/api/subscriptions/change")
            .header("Idempotency-Key", "change-lost")
            .json(&upgrade.body)
    };
    let first = send_raw(change()).await;
    lose_kept_answer(&api, "change-lost");
    let balance = api.app.chain().balance(customer()).await;

    let recovered = send_raw(change()).await;
    let again = send_raw(change()).await;

    assert_eq!((first.status, first.replayed), (200, false));
    assert_eq!(
        (recovered.status, recovered.replayed),
        (200, true),
        "{}",
        String::from_utf8_lossy(&recovered.body)
    );
    assert_eq!(recovered.body, first.body);
    assert_eq!((again.status, again.body), (200, first.body));
    assert_eq!(api.app.chain().balance(customer()).await, balance, "charged once");
    let after = status_of(&api, &upgrade.id).await;
    assert_eq!(after["subscriptions"][0]["planId"], upgrade.pro.as_str());
    assert_eq!(prorated(&after).len(), 1, "{after}");
}
