//! Subscriptions on the test-mode chain: subscribe, the batch charges exactly once (also when two runs
//! overlap), the next period charges again, exact amounts, a customer without funds, cancel.

use payments_core::Wallet;
use payments_server::testing::{TEST_START_MS, test_wallet};
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::subscription_helpers::{
    CUSTOMER_KEY, FEE_UNITS, NET_UNITS, OTHER_KEY, PLATFORM_RECIPIENT, PRICE_UNITS, WEEK_MS, advance_to,
    customer, run_batch, status_of, subscribed, weekly_plan,
};

#[tokio::test]
async fn a_new_subscription_is_active_and_due_at_once() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;

    let id = subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;

    let status = status_of(&api, &id).await;
    assert_eq!(status["subscriptions"][0]["status"], "active");
    assert_eq!(status["subscriptions"][0]["nextChargeAt"], TEST_START_MS);
    assert_eq!(status["subscriptions"][0]["customer"], customer().to_string());
    assert_eq!(status["billingEvents"], json!([]));
}

#[tokio::test]
async fn the_batch_charges_the_price_once_with_the_fee_to_the_platform_and_the_rest_to_the_merchant() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 3 * PRICE_UNITS).await;
    let chain = api.app.chain();
    let platform = Wallet::parse(PLATFORM_RECIPIENT).unwrap();

    let first = run_batch(&api).await;
    let second = run_batch(&api).await;

    assert_eq!(first["success"], true);
    assert_eq!(
        (
            first["processed"].as_u64(),
            first["succeeded"].as_u64(),
            first["failed"].as_u64()
        ),
        (Some(1), Some(1), Some(0))
    );
    assert_eq!(first["results"][0]["subscriptionId"], id.as_str());
    assert_eq!(first["results"][0]["status"], "charged");
    assert!(first["durationMs"].is_u64());
    assert_eq!(second["processed"], 0);
    assert_eq!(chain.balance(customer()).await, 2 * PRICE_UNITS);
    assert_eq!(chain.balance(api.app.wallet).await, NET_UNITS);
    assert_eq!(chain.balance(platform).await, FEE_UNITS);
    let status = status_of(&api, &id).await;
    assert_eq!(
        status["subscriptions"][0]["nextChargeAt"],
        TEST_START_MS + WEEK_MS
    );
    let event = &status["billingEvents"][0];
    assert_eq!(event["status"], "charged");
    assert_eq!(
        (
            event["grossUsd"].clone(),
            event["feeUsd"].clone(),
            event["netUsd"].clone()
        ),
        (json!(9.99), json!(0.05), json!(9.94))
    );
    assert_eq!(event["transactionHash"], first["results"][0]["transactionHash"]);
}

#[tokio::test]
async fn a_second_concurrent_batch_run_charges_nothing_more() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    for key in [CUSTOMER_KEY, OTHER_KEY] {
        subscribed(&api, &plan, key, 5 * PRICE_UNITS).await;
    }

    let (one, two) = tokio::join!(run_batch(&api), run_batch(&api));

    let charged = one["succeeded"].as_u64().unwrap() + two["succeeded"].as_u64().unwrap();
    assert_eq!(charged, 2);
    assert_eq!(
        one["failed"].as_u64().unwrap() + two["failed"].as_u64().unwrap(),
        0
    );
    assert_eq!(api.app.chain().balance(api.app.wallet).await, 2 * NET_UNITS);
    assert_eq!(api.app.chain().balance(customer()).await, 4 * PRICE_UNITS);
}

#[tokio::test]
async fn advancing_one_period_charges_again() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 3 * PRICE_UNITS).await;
    run_batch(&api).await;

    advance_to(&api, TEST_START_MS + WEEK_MS - 1).await;
    let early = run_batch(&api).await;
    advance_to(&api, TEST_START_MS + WEEK_MS).await;
    let next = run_batch(&api).await;

    assert_eq!(early["processed"], 0);
    assert_eq!(next["succeeded"], 1);
    assert_eq!(next["results"][0]["periodIndex"], 1);
    assert_eq!(api.app.chain().balance(customer()).await, PRICE_UNITS);
    assert_eq!(api.app.chain().balance(api.app.wallet).await, 2 * NET_UNITS);
    let status = status_of(&api, &id).await;
    assert_eq!(
        status["subscriptions"][0]["nextChargeAt"],
        TEST_START_MS + 2 * WEEK_MS
    );
    assert_eq!(status["billingEvents"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_customer_without_balance_gets_charge_failed_and_no_transfer() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 0).await;

    let batch = run_batch(&api).await;

    assert_eq!(
        (batch["succeeded"].as_u64(), batch["failed"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(batch["results"][0]["status"], "failed");
    assert_eq!(api.app.chain().balance(api.app.wallet).await, 0);
    assert_eq!(api.app.chain().balance(test_wallet(0x50)).await, 0);
    let status = status_of(&api, &id).await;
    assert_eq!(status["billingEvents"][0]["status"], "charge_failed");
    assert_eq!(status["billingEvents"][0]["transactionHash"], json!(null));
    // Retried a day later, in the same period.
    assert_eq!(
        status["subscriptions"][0]["nextChargeAt"],
        TEST_START_MS + 86_400_000
    );
    assert_eq!(status["subscriptions"][0]["status"], "active");
}

#[tokio::test]
async fn a_period_whose_every_attempt_failed_makes_the_subscription_past_due_then_canceled() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 0).await;
    let day = 86_400_000;

    for at in [0, day, 2 * day] {
        advance_to(&api, TEST_START_MS + at).await;
        run_batch(&api).await;
    }
    let past_due = status_of(&api, &id).await;
    for at in [WEEK_MS, WEEK_MS + day, WEEK_MS + 2 * day] {
        advance_to(&api, TEST_START_MS + at).await;
        run_batch(&api).await;
    }
    let canceled = status_of(&api, &id).await;

    assert_eq!(past_due["subscriptions"][0]["status"], "past_due");
    assert_eq!(
        past_due["subscriptions"][0]["nextChargeAt"],
        TEST_START_MS + WEEK_MS
    );
    assert_eq!(canceled["subscriptions"][0]["status"], "canceled");
    assert_eq!(canceled["billingEvents"].as_array().unwrap().len(), 6);
    advance_to(&api, TEST_START_MS + 3 * WEEK_MS).await;
    assert_eq!(run_batch(&api).await["processed"], 0);
}

#[tokio::test]
async fn a_signed_cancel_stops_further_charges() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, 5 * PRICE_UNITS).await;
    run_batch(&api).await;
    let cancel = payments_core::CancelSubscription {
        subscription_id: id.clone(),
        wallet: customer(),
    };
    let signature = payments_server::testing::sign_hash(
        CUSTOMER_KEY,
        cancel.signing_hash(api.app.spend().domain().chain_id),
    );

    let reply = send(
        api.anonymous(Method::POST, "/api/subscriptions/cancel")
            .json(&json!({
                "subscriptionId": id,
                "wallet": customer().to_string(),
                "signature": format!("0x{}", hex::encode(signature)),
            })),
    )
    .await;
    advance_to(&api, TEST_START_MS + WEEK_MS).await;
    let batch = run_batch(&api).await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(reply.json["subscription"]["status"], "canceled");
    assert_eq!(batch["processed"], 0);
    assert_eq!(api.app.chain().balance(customer()).await, 4 * PRICE_UNITS);
}

#[tokio::test]
async fn only_the_customer_can_cancel_by_signature() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let id = subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;
    let other = payments_server::testing::wallet_of_key(OTHER_KEY);
    let by_other = payments_core::CancelSubscription {
        subscription_id: id.clone(),
        wallet: other,
    };
    let forged = payments_core::CancelSubscription {
        subscription_id: id.clone(),
        wallet: customer(),
    };
    let sign = |cancel: &payments_core::CancelSubscription, key| {
        format!(
            "0x{}",
            hex::encode(payments_server::testing::sign_hash(
                key,
                cancel.signing_hash(api.app.spend().domain().chain_id)
            ))
        )
    };

    let stranger = send(
        api.anonymous(Method::POST, "/api/subscriptions/cancel")
            .json(&json!({
                "subscriptionId": id, "wallet": other.to_string(), "signature": sign(&by_other, OTHER_KEY),
            })),
    )
    .await;
    let impostor = send(
        api.anonymous(Method::POST, "/api/subscriptions/cancel")
            .json(&json!({
                "subscriptionId": id, "wallet": customer().to_string(), "signature": sign(&forged, OTHER_KEY),
            })),
    )
    .await;
    let unsigned = send(
        api.anonymous(Method::POST, "/api/subscriptions/cancel")
            .json(&json!({
                "subscriptionId": id, "wallet": customer().to_string(),
            })),
    )
    .await;

    assert_eq!(
        (stranger.status, stranger.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    assert_eq!(
        (impostor.status, impostor.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    assert_eq!(
        (unsigned.status, unsigned.json["error"].as_str()),
        (401, Some("unauthorized"))
    );
    assert_eq!(status_of(&api, &id).await["subscriptions"][0]["status"], "active");
}
