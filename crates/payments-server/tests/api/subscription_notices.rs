//! `subscription.charge_upcoming`: the batch run sends it once per (subscription, period) when the charge
//! is within `--subscription-notice-hours` (72 by default), with the customer's balance and approval read
//! on chain; a run after a test-clock advance sends the notices that became due; two instances sharing
//! PostgreSQL send each of 40 notices exactly once (on anvil); a permission revoked before its notice
//! cancels the subscription (`revoked_on_chain`) instead.

use payments_server::testing::{PgTestDatabase, TEST_START_MS};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send};
use crate::subscription_helpers::{
    CUSTOMER_KEY, PRICE_UNITS, WEEK_MS, advance_to, customer, run_batch, status_of, subscribed,
    weekly_permission,
};
use crate::subscription_webhooks::hooked_plan;
use crate::subscriptions_batch_anvil::{self as batch_anvil, Chain, Customer, batch, server, subscribe};
use crate::webhook_receiver::{Received, Receiver};

const HOUR_MS: i64 = 3_600_000;

fn notices(received: &[Received]) -> Vec<Value> {
    received
        .iter()
        .map(Received::json)
        .filter(|body| body["event"] == "subscription.charge_upcoming")
        .collect()
}

#[tokio::test]
async fn a_charge_upcoming_notice_is_sent_once_when_the_charge_comes_within_72_hours() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let plan = hooked_plan(&api, &receiver.url).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 2 * PRICE_UNITS).await;
    let first = run_batch(&api).await;
    let next_charge = TEST_START_MS + WEEK_MS;

    advance_to(&api, next_charge - 72 * HOUR_MS - 1).await;
    let too_early = run_batch(&api).await;
    advance_to(&api, next_charge - 72 * HOUR_MS).await;
    let noticed = run_batch(&api).await;
    let again = run_batch(&api).await;
    let received = receiver.wait_for_distinct(3).await;

    assert_eq!(first["succeeded"], 1, "{first}");
    assert_eq!(first["noticesSent"], 0, "{first}");
    assert_eq!(too_early["noticesSent"], 0, "{too_early}");
    assert_eq!(noticed["noticesSent"], 1, "{noticed}");
    assert_eq!(noticed["processed"], 0, "a notice charges nothing: {noticed}");
    assert_eq!(again["noticesSent"], 0, "{again}");
    let sent = notices(&received);
    assert_eq!(sent.len(), 1, "{sent:?}");
    let notice = &sent[0];
    assert_eq!(notice["subscriptionId"], id.as_str());
    assert_eq!(notice["status"], "active");
    assert_eq!(notice["charge"], Value::Null);
    assert_eq!(
        notice["upcomingCharge"],
        json!({
            "periodIndex": 1,
            "chargeAt": next_charge,
            "amountUsd": 9.99,
            "amountBaseUnits": "9990000",
            "balanceSufficient": true,
            "allowanceSufficient": true,
        })
    );

    advance_to(&api, next_charge).await;
    let charged = run_batch(&api).await;

    assert_eq!(charged["succeeded"], 1, "{charged}");
    assert_eq!(charged["noticesSent"], 0, "{charged}");
}

#[tokio::test]
async fn a_notice_says_when_the_customers_balance_would_not_cover_the_charge() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let plan = hooked_plan(&api, &receiver.url).await;
    // Funds for the first charge only.
    subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;
    run_batch(&api).await;

    advance_to(&api, TEST_START_MS + WEEK_MS - HOUR_MS).await;
    let noticed = run_batch(&api).await;
    let received = receiver.wait_for_distinct(3).await;

    assert_eq!(noticed["noticesSent"], 1, "{noticed}");
    let sent = notices(&received);
    assert_eq!(sent[0]["upcomingCharge"]["balanceSufficient"], false, "{sent:?}");
    assert_eq!(sent[0]["upcomingCharge"]["allowanceSufficient"], true, "{sent:?}");
}

#[tokio::test]
async fn a_trial_sends_its_notice_before_the_first_charge() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let reply = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Box", "priceUsd": 9.99, "period": "WEEKLY", "trialDays": 7, "webhookUrl": receiver.url,
    })))
    .await;
    let plan = reply.json["plan"]["planId"].as_str().unwrap().to_owned();
    subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;

    advance_to(&api, TEST_START_MS + 5 * 24 * HOUR_MS).await;
    let noticed = run_batch(&api).await;
    let received = receiver.wait_for_distinct(2).await;

    assert_eq!(noticed["noticesSent"], 1, "{noticed}");
    assert_eq!(noticed["processed"], 0, "{noticed}");
    let sent = notices(&received);
    assert_eq!(sent[0]["status"], "trialing", "{sent:?}");
    assert_eq!(sent[0]["upcomingCharge"]["periodIndex"], 0, "{sent:?}");
    assert_eq!(
        sent[0]["upcomingCharge"]["chargeAt"],
        TEST_START_MS + WEEK_MS,
        "{sent:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_two_instances_sharing_postgresql_send_each_of_forty_notices_exactly_once() {
    let Some(chain) = Chain::start() else { return };
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let one = server(&chain, Some(database.url().to_owned())).await;
    let two = server(&chain, Some(database.url().to_owned())).await;
    let receiver = Receiver::start(&[]).await;
    let plan_id = hooked_plan(&one, &receiver.url).await;
    let customers: Vec<Customer> = (200..240).map(batch_anvil::customer).collect();
    chain.fund(&customers, 2 * PRICE_UNITS).await;
    for customer in &customers {
        subscribe(&one, &chain, &plan_id, customer, PRICE_UNITS).await;
    }
    let (charged_one, charged_two) = tokio::join!(batch(&one), batch(&two));
    assert_eq!(
        charged_one["succeeded"].as_u64().unwrap() + charged_two["succeeded"].as_u64().unwrap(),
        40,
        "{charged_one} {charged_two}"
    );
    // Both clocks (and the chain's) move to two days before the next charge.
    let advance_secs = 5 * 86_400;
    chain
        .anvil
        .cast(&["rpc", "evm_increaseTime", &advance_secs.to_string()]);
    chain.anvil.mine(1);
    let now_ms = i64::try_from(chain.now()).unwrap() * 1000;
    one.app.clock.set(now_ms);
    two.app.clock.set(now_ms);

    let (first, second) = tokio::join!(batch(&one), batch(&two));
    let again = batch(&two).await;

    assert_eq!(
        first["noticesSent"].as_u64().unwrap() + second["noticesSent"].as_u64().unwrap(),
        40,
        "{first} {second}"
    );
    assert_eq!(again["noticesSent"], 0, "{again}");
    let received = receiver.wait_for_distinct(40 * 3).await;
    let sent = notices(&received);
    let subscriptions: std::collections::HashSet<String> = sent
        .iter()
        .map(|body| body["subscriptionId"].as_str().unwrap().to_owned())
        .collect();
    let deliveries: std::collections::HashSet<String> = sent
        .iter()
        .map(|body| body["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(subscriptions.len(), 40);
    assert_eq!(deliveries.len(), 40, "one notice per subscription");
    assert!(
        sent.iter()
            .all(|body| body["upcomingCharge"]["balanceSufficient"] == true),
        "{sent:?}"
    );
    one.app.shutdown().await;
    two.app.shutdown().await;
    database.drop_database().await;
}

#[tokio::test]
async fn a_permission_revoked_before_its_notice_cancels_the_subscription_instead() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let plan = hooked_plan(&api, &receiver.url).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 2 * PRICE_UNITS).await;
    run_batch(&api).await;
    let permission = weekly_permission(&api, customer(), 1).parse().unwrap();
    api.app.chain().revoke_permission(&permission);

    advance_to(&api, TEST_START_MS + WEEK_MS - HOUR_MS).await;
    let run = run_batch(&api).await;
    let received = receiver.wait_for_distinct(3).await;
    let status = status_of(&api, &id).await;

    assert_eq!(run["revokedOnChain"], 1, "{run}");
    assert_eq!(run["noticesSent"], 0, "{run}");
    assert_eq!(status["subscriptions"][0]["status"], "canceled");
    assert_eq!(status["subscriptions"][0]["cancelReason"], "revoked_on_chain");
    let canceled = received
        .iter()
        .map(Received::json)
        .find(|body| body["event"] == "subscription.canceled")
        .unwrap();
    assert_eq!(canceled["cancelReason"], "revoked_on_chain", "{canceled}");
    assert_eq!(canceled["previousStatus"], "active", "{canceled}");
    assert!(notices(&received).is_empty());
}
