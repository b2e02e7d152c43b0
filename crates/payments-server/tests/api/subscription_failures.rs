//! The failure policy end to end, each step with its webhook: a customer whose charges keep failing is
//! retried a day later within the period (`charge_failed`, still `active`), becomes `past_due` after the
//! period's third attempt, and is `canceled` after the second failed period (`charge_failed` then
//! `canceled` with the last failure as its reason).

use payments_server::testing::TEST_START_MS;
use serde_json::Value;

use crate::helpers::Api;
use crate::subscription_helpers::{CUSTOMER_KEY, WEEK_MS, advance_to, run_batch, status_of, subscribed};
use crate::subscription_webhooks::hooked_plan;
use crate::webhook_receiver::{Received, Receiver};

const DAY_MS: i64 = 86_400_000;

#[tokio::test]
async fn every_step_from_retry_to_past_due_to_canceled_sends_its_webhook() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let plan = hooked_plan(&api, &receiver.url).await;
    // Never funded: every charge fails.
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 0).await;

    let mut statuses = Vec::new();
    for at in [
        TEST_START_MS,
        TEST_START_MS + DAY_MS,
        TEST_START_MS + 2 * DAY_MS,
        TEST_START_MS + WEEK_MS,
        TEST_START_MS + WEEK_MS + DAY_MS,
        TEST_START_MS + WEEK_MS + 2 * DAY_MS,
    ] {
        advance_to(&api, at).await;
        let run = run_batch(&api).await;
        assert_eq!(run["failed"], 1, "{run}");
        statuses.push(run["results"][0]["subscriptionStatus"].clone());
    }
    let received = receiver.wait_for_distinct(8).await;

    assert_eq!(
        statuses,
        ["active", "active", "past_due", "past_due", "past_due", "canceled"]
    );
    let bodies: Vec<Value> = received.iter().map(Received::json).collect();
    let steps: Vec<(&str, &str, &str)> = bodies
        .iter()
        .map(|body| {
            (
                body["event"].as_str().unwrap(),
                body["previousStatus"].as_str().unwrap_or("-"),
                body["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            ("subscription.created", "-", "active"),
            ("subscription.charge_failed", "active", "active"),
            ("subscription.charge_failed", "active", "active"),
            ("subscription.charge_failed", "active", "past_due"),
            ("subscription.charge_failed", "past_due", "past_due"),
            ("subscription.charge_failed", "past_due", "past_due"),
            ("subscription.charge_failed", "past_due", "canceled"),
            ("subscription.canceled", "past_due", "canceled"),
        ]
    );
    let failures: Vec<&Value> = bodies
        .iter()
        .filter(|body| body["event"] == "subscription.charge_failed")
        .collect();
    let periods: Vec<u64> = failures
        .iter()
        .map(|body| body["charge"]["periodIndex"].as_u64().unwrap())
        .collect();
    assert_eq!(periods, [0, 0, 0, 1, 1, 1]);
    assert!(
        failures
            .iter()
            .all(|body| body["charge"]["failureReason"].is_string())
    );
    assert!(bodies[7]["cancelReason"].is_string(), "{}", bodies[7]);
    assert_eq!(
        status_of(&api, &id).await["subscriptions"][0]["status"],
        "canceled"
    );
}
