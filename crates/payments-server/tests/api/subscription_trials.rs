//! Trials on the test-mode chain (the chain follows the test clock, so anvil adds nothing here): a plan's
//! `trialDays`, a subscription `trialing` and not charged until the trial ends, then charged once and
//! `active`; a permission that ends before the trial's end is refused with its own code.

use payments_server::testing::TEST_START_MS;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::subscription_helpers::{
    CUSTOMER_KEY, PRICE_UNITS, advance_to, create, create_body, customer, run_batch, status_of, subscribed,
    weekly_permission,
};

const DAY_MS: i64 = 86_400_000;

/// A weekly $9.99 plan with a `days` trial; answers its id.
async fn trial_plan(api: &Api, days: u16) -> String {
    let reply = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Weekly box, two weeks free",
        "priceUsd": 9.99,
        "period": "WEEKLY",
        "trialDays": days,
    })))
    .await;
    assert_eq!(reply.status, 201, "plan not created: {}", reply.json);
    assert_eq!(reply.json["plan"]["trialDays"], days);
    reply.json["plan"]["planId"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_trial_subscription_is_trialing_and_first_charged_when_its_trial_ends() {
    let api = Api::spawn().await;
    let plan = trial_plan(&api, 14).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 2 * PRICE_UNITS).await;
    let chain = api.app.chain();

    let created = status_of(&api, &id).await;
    let at_once = run_batch(&api).await;
    advance_to(&api, TEST_START_MS + 14 * DAY_MS - 1).await;
    let just_before = run_batch(&api).await;

    assert_eq!(created["subscriptions"][0]["status"], "trialing");
    assert_eq!(
        created["subscriptions"][0]["nextChargeAt"],
        TEST_START_MS + 14 * DAY_MS
    );
    assert_eq!(at_once["processed"], 0, "{at_once}");
    assert_eq!(just_before["processed"], 0, "{just_before}");
    assert_eq!(chain.balance(customer()).await, 2 * PRICE_UNITS);

    advance_to(&api, TEST_START_MS + 14 * DAY_MS).await;
    let at_trial_end = run_batch(&api).await;
    let after = status_of(&api, &id).await;

    assert_eq!(at_trial_end["succeeded"], 1, "{at_trial_end}");
    assert_eq!(at_trial_end["results"][0]["subscriptionStatus"], "active");
    assert_eq!(after["subscriptions"][0]["status"], "active");
    assert_eq!(
        after["subscriptions"][0]["nextChargeAt"],
        TEST_START_MS + 21 * DAY_MS
    );
    assert_eq!(chain.balance(customer()).await, PRICE_UNITS);
    assert_eq!(run_batch(&api).await["processed"], 0);
}

#[tokio::test]
async fn a_plan_without_trial_days_charges_at_once_and_says_zero() {
    let api = Api::spawn().await;
    let plan = trial_plan(&api, 0).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;

    let created = status_of(&api, &id).await;
    let batch = run_batch(&api).await;

    assert_eq!(created["subscriptions"][0]["status"], "active");
    assert_eq!(batch["succeeded"], 1, "{batch}");
}

#[tokio::test]
async fn a_permission_ending_before_the_trial_ends_is_refused_and_nothing_is_stored() {
    let api = Api::spawn().await;
    let plan = trial_plan(&api, 30).await;
    let mut permission = weekly_permission(&api, customer(), 1);
    permission.end = permission.start + 20 * 86_400;

    let reply = create(&api, &create_body(&api, &plan, CUSTOMER_KEY, &permission)).await;
    let listed = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?customer={}", customer()),
    ))
    .await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(
        reply.json["error"], "permission_ends_before_trial_end",
        "{}",
        reply.json
    );
    assert_eq!(listed.json["subscriptions"], json!([]), "{}", listed.json);
}

#[tokio::test]
async fn trial_days_outside_zero_to_a_year_are_invalid_input() {
    let api = Api::spawn().await;

    for bad in [json!(366), json!(-1), json!(2.5), json!("7")] {
        let reply = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
            "name": "Box", "priceUsd": 1, "period": "WEEKLY", "trialDays": bad,
        })))
        .await;

        assert_eq!(reply.status, 400, "{bad}: {}", reply.json);
        assert_eq!(reply.json["error"], "invalid_input", "{}", reply.json);
        assert_eq!(reply.json["field"], "trialDays", "{}", reply.json);
    }
}
