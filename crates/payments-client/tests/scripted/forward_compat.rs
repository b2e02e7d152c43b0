//! A newer server's statuses, events and error codes reach the caller instead of failing the call.

use payments_client::{
    BillingEventStatus, ChargeStatus, DeliveryState, Error, OrUnknown, ReceiptStatusValue, RetryPolicy,
    SubscriptionSelector, SubscriptionStatus, WebhookEvent,
};
use payments_core::{BillingPeriod, ReceiptStatus, SubscriptionEventKind, Wallet};
use serde_json::json;
use wiremock::matchers::{path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{client, receipt};

#[tokio::test]
async fn an_unknown_receipt_status_decodes_into_unknown_instead_of_failing() {
    let server = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(receipt("escrow_held")))
        .mount(&server)
        .await;
    Mock::given(path("/api/receipts"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({ "receipts": [receipt("paid"), receipt("chargeback_opened")] })),
        )
        .mount(&server)
        .await;
    Mock::given(path("/api/receipts/status"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "r-1", "status": "escrow_held", "transactionHash": null, "currency": "USD", "amount": 12.5,
        })))
        .mount(&server)
        .await;
    let client = client(&server, RetryPolicy::OFF);

    let one = client.get_receipt("r-1").await.unwrap();
    let list = client.list_receipts(None).await.unwrap();
    let status = client.receipt_status("r-1").await.unwrap();

    assert_eq!(one.status, ReceiptStatusValue::Unknown("escrow_held".to_owned()));
    assert_eq!(one.status.to_string(), "escrow_held");
    assert_eq!(list[0].status, ReceiptStatus::Paid);
    assert_eq!(
        list[1].status,
        ReceiptStatusValue::Unknown("chargeback_opened".to_owned())
    );
    assert_eq!(status.status.known(), None);
}

#[tokio::test]
async fn an_unknown_error_code_decodes_into_unknown_with_its_message() {
    let server = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1"))
        .respond_with(
            ResponseTemplate::new(422)
                .set_body_json(json!({ "error": "receipt_frozen", "message": "frozen by compliance" })),
        )
        .mount(&server)
        .await;

    let error = client(&server, RetryPolicy::OFF)
        .get_receipt("r-1")
        .await
        .unwrap_err();

    let Error::Api(api) = error else {
        panic!("expected an API error, got {error:?}")
    };
    assert_eq!(
        (api.status, api.code, api.message.as_str()),
        (
            422,
            OrUnknown::Unknown("receipt_frozen".to_owned()),
            "frozen by compliance"
        )
    );
}

#[tokio::test]
async fn an_unknown_split_transaction_status_and_tiny_amounts_decode_exactly() {
    let server = MockServer::start().await;
    Mock::given(path("/api/split/transactions"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            r#"[{"id": "0xab-0", "receiptId": "", "amount": 1e-6, "currency": "USDC", "status": "clawed_back",
                "timestamp": "2023-11-14T22:13:20Z", "transactionHash": "0xab", "fees": 0.03875, "chainId": 8453}]"#,
            "application/json",
        ))
        .mount(&server)
        .await;

    let page = client(&server, RetryPolicy::OFF)
        .split_transactions(&payments_client::SplitTransactionsQuery::new())
        .await
        .unwrap();

    let listed = &page.transactions[0];
    assert_eq!(
        listed.status,
        payments_client::SplitTransactionStatus::Unknown("clawed_back".to_owned())
    );
    assert_eq!(listed.amount, payments_core::TokenAmount::from_base_units(1));
    assert_eq!(listed.fees, payments_core::TokenAmount::from_base_units(38_750));
    assert_eq!(page.next_cursor, None);
}

#[tokio::test]
async fn a_receipt_in_a_status_from_a_future_server_decodes_and_keeps_its_name() {
    let server = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(receipt("paid_late_v9")))
        .mount(&server)
        .await;

    let receipt = client(&server, RetryPolicy::OFF)
        .get_receipt("r-1")
        .await
        .unwrap();

    assert_eq!(receipt.status, OrUnknown::Unknown("paid_late_v9".to_owned()));
    assert_eq!(receipt.status.to_string(), "paid_late_v9");
    assert_eq!(serde_json::to_value(&receipt).unwrap()["status"], "paid_late_v9");
}

#[tokio::test]
async fn new_subscription_statuses_periods_and_charge_outcomes_decode_beside_known_ones() {
    let server = MockServer::start().await;
    let merchant = Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap();
    Mock::given(path("/api/subscriptions/status"))
        .and(query_param("subscriptionId", "csub_1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "subscriptions": [{ "subscriptionId": "csub_1", "status": "paused_v2", "nextChargeAt": null }],
            "billingEvents": [
                { "periodIndex": 0, "status": "charged", "grossUsd": 5, "feeUsd": 0.03, "netUsd": 4.97,
                  "createdAt": 1 },
                { "periodIndex": 1, "status": "charge_disputed", "grossUsd": 5, "feeUsd": 0.03, "netUsd": 4.97,
                  "createdAt": 2 },
            ],
        })))
        .mount(&server)
        .await;
    Mock::given(path("/api/subscriptions/plans"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "plans": [
            { "planId": "plan_1", "wallet": merchant, "name": "Daily", "priceUsd": 1, "period": "DAILY",
              "active": true, "createdAt": 1 },
            { "planId": "plan_2", "wallet": merchant, "name": "Weekly", "priceUsd": 5, "period": "WEEKLY",
              "active": true, "createdAt": 1 },
        ]})))
        .mount(&server)
        .await;
    Mock::given(path("/api/cron/charge-subscriptions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "success": true, "processed": 2, "succeeded": 1, "failed": 0, "durationMs": 3,
            "results": [
                { "subscriptionId": "csub_1", "periodIndex": 0, "status": "charged",
                  "subscriptionStatus": "active" },
                { "subscriptionId": "csub_2", "periodIndex": 0, "status": "deferred",
                  "subscriptionStatus": "paused_v2" },
            ],
        })))
        .mount(&server)
        .await;
    let client = client(&server, RetryPolicy::OFF);

    let status = client
        .subscription_status(&SubscriptionSelector::Id("csub_1".to_owned()))
        .await
        .unwrap();
    let plans = client.list_plans(merchant).await.unwrap();
    let batch = client.charge_subscriptions("cron").await.unwrap();

    assert_eq!(
        status.subscriptions[0].status,
        OrUnknown::Unknown("paused_v2".to_owned())
    );
    let events = status.billing_events.unwrap();
    assert_eq!(events[0].status, BillingEventStatus::Charged);
    assert_eq!(events[1].status, OrUnknown::Unknown("charge_disputed".to_owned()));
    assert_eq!(plans[0].period, OrUnknown::Unknown("DAILY".to_owned()));
    assert_eq!(plans[1].period, BillingPeriod::Weekly);
    assert_eq!(batch.results[0].status, ChargeStatus::Charged);
    assert_eq!(
        batch.results[0].subscription_status,
        Some(OrUnknown::Known(SubscriptionStatus::Active))
    );
    assert_eq!(batch.results[1].status, OrUnknown::Unknown("deferred".to_owned()));
}

#[tokio::test]
async fn a_webhook_log_with_new_events_and_states_decodes() {
    let server = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1/webhooks"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "deliveries": [
            { "deliveryId": "d-1", "event": "receipt.status_updated", "url": "https://shop.example/hook",
              "state": "delivered", "createdAt": 1 },
            { "deliveryId": "d-2", "event": "subscription.charged", "url": "https://shop.example/hook",
              "state": "pending", "nextAttemptAt": 5, "createdAt": 2 },
            { "deliveryId": "d-3", "event": "receipt.underpaid", "url": "https://shop.example/hook",
              "state": "parked", "createdAt": 3 },
        ]})))
        .mount(&server)
        .await;

    let deliveries = client(&server, RetryPolicy::OFF)
        .receipt_webhooks("r-1")
        .await
        .unwrap();

    assert_eq!(deliveries[0].event, WebhookEvent::ReceiptStatusUpdated);
    assert_eq!(deliveries[0].state, DeliveryState::Delivered);
    assert_eq!(
        deliveries[1].event,
        WebhookEvent::Subscription(SubscriptionEventKind::Charged)
    );
    assert_eq!(deliveries[1].state, DeliveryState::Pending);
    assert_eq!(
        deliveries[2].event,
        OrUnknown::Unknown("receipt.underpaid".to_owned())
    );
    assert_eq!(deliveries[2].state, OrUnknown::Unknown("parked".to_owned()));
}

#[tokio::test]
async fn a_health_status_from_a_future_service_is_not_ok_and_keeps_its_name() {
    let server = MockServer::start().await;
    Mock::given(path("/healthz"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({ "status": "read_only", "datastore": "replica" })),
        )
        .mount(&server)
        .await;

    let health = client(&server, RetryPolicy::OFF).health().await.unwrap();

    assert!(!health.is_ok());
    assert_eq!(health.status.to_string(), "read_only");
    assert_eq!(health.datastore, Some(OrUnknown::Unknown("replica".to_owned())));
}
