//! Creates carry an `Idempotency-Key`, one per logical call, reused by every retry of that call.

use payments_client::{
    CreateOrder, CreatePlan, CreateReceipt, CreateSubscription, ErrorCode, OrderItem, ReceiptLine,
    RetryPolicy,
};
use payments_core::{BillingPeriod, Cents, SpendPermissionData};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{
    client, client_of, datastore_busy, dropping_first_connection, fast_retries, idempotency_keys,
    order_created, received, refusal,
};

fn order() -> CreateOrder {
    CreateOrder::new(vec![OrderItem::sku("MUG-1", 1)])
}

fn receipt_created() -> ResponseTemplate {
    ResponseTemplate::new(201).set_body_json(json!({
        "id": "rcpt-1",
        "paymentUrl": "http://127.0.0.1/portal/rcpt-1",
        "status": "pending",
    }))
}

#[tokio::test]
async fn an_order_retried_after_503s_sends_one_generated_key_on_every_attempt() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/orders"))
        .respond_with(datastore_busy())
        .up_to_n_times(2)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/api/orders"))
        .respond_with(order_created())
        .mount(&server)
        .await;

    let receipt = client(&server, fast_retries(3))
        .create_order(&order())
        .await
        .unwrap();

    assert_eq!(receipt.receipt_id, "r-1");
    let keys = idempotency_keys(&received(&server).await);
    assert_eq!(keys.len(), 3);
    let first = keys[0].clone().expect("a generated key");
    assert!(!first.is_empty());
    assert!(
        keys.iter().all(|key| key.as_deref() == Some(first.as_str())),
        "{keys:?}"
    );
}

#[tokio::test]
async fn each_logical_call_gets_its_own_generated_key() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/orders"))
        .respond_with(order_created())
        .mount(&server)
        .await;
    let client = client(&server, fast_retries(1));

    client.create_order(&order()).await.unwrap();
    client.create_order(&order()).await.unwrap();

    let keys = idempotency_keys(&received(&server).await);
    assert_eq!(keys.len(), 2);
    assert!(keys[0].is_some() && keys[1].is_some(), "{keys:?}");
    assert_ne!(keys[0], keys[1]);
}

#[tokio::test]
async fn a_callers_key_is_sent_as_given_and_reused_across_retries() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/receipts"))
        .respond_with(datastore_busy())
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/api/receipts"))
        .respond_with(receipt_created())
        .mount(&server)
        .await;
    let lines = vec![ReceiptLine {
        label: "Coffee".to_owned(),
        price_usd: Cents::new(350),
        qty: None,
    }];

    let created = client(&server, fast_retries(2))
        .create_receipt(&CreateReceipt::new("rcpt-1", lines).idempotency_key("shop-order-77"))
        .await
        .unwrap();

    assert_eq!(created.id, "rcpt-1");
    assert_eq!(
        idempotency_keys(&received(&server).await),
        vec![Some("shop-order-77".to_owned()); 2]
    );
}

#[tokio::test]
async fn with_retries_off_a_create_is_sent_once_and_carries_only_the_callers_key() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/orders"))
        .respond_with(datastore_busy())
        .mount(&server)
        .await;
    let client = client(&server, RetryPolicy::OFF);

    let unkeyed = client.create_order(&order()).await.unwrap_err();
    let keyed = client
        .create_order(&order().idempotency_key("mine"))
        .await
        .unwrap_err();

    assert_eq!(unkeyed.code(), Some(ErrorCode::DatastoreUnavailable));
    assert_eq!(keyed.code(), Some(ErrorCode::DatastoreUnavailable));
    assert_eq!(
        idempotency_keys(&received(&server).await),
        vec![None, Some("mine".to_owned())]
    );
}

#[tokio::test]
async fn an_idempotency_conflict_is_not_retried() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/orders"))
        .respond_with(refusal(409, "idempotency_conflict"))
        .mount(&server)
        .await;

    let error = client(&server, fast_retries(3))
        .create_order(&order().idempotency_key("reused"))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Some(ErrorCode::IdempotencyConflict));
    assert_eq!(received(&server).await.len(), 1);
}

#[tokio::test]
async fn an_order_whose_connection_dropped_is_resent_under_the_same_key() {
    let (uri, server) = dropping_first_connection(vec![
        Mock::given(method("POST"))
            .and(path("/api/orders"))
            .respond_with(order_created()),
    ])
    .await;

    let receipt = client_of(&uri, fast_retries(2))
        .create_order(&order().idempotency_key("after-a-drop"))
        .await
        .unwrap();

    assert_eq!(receipt.receipt_id, "r-1");
    let server = server.await.unwrap();
    assert_eq!(
        idempotency_keys(&received(&server).await),
        vec![Some("after-a-drop".to_owned())]
    );
}

fn plan() -> CreatePlan {
    CreatePlan {
        name: "Weekly".to_owned(),
        description: String::new(),
        price_usd: Cents::new(500),
        period: BillingPeriod::Weekly,
        trial_days: None,
        webhook_url: None,
        idempotency_key: None,
    }
}

fn plan_created() -> ResponseTemplate {
    ResponseTemplate::new(201).set_body_json(json!({
        "success": true,
        "plan": {
            "planId": "plan_1",
            "wallet": "0x1111111111111111111111111111111111111111",
            "name": "Weekly",
            "description": "",
            "priceUsd": 5,
            "period": "WEEKLY",
            "active": true,
            "createdAt": 1_700_000_000_000_i64,
        },
    }))
}

fn subscription() -> CreateSubscription {
    let customer = "0x2222222222222222222222222222222222222222";
    CreateSubscription {
        plan_id: "plan_1".to_owned(),
        customer_wallet: customer.parse().unwrap(),
        permission_signature: "0x00".to_owned(),
        permission_data: SpendPermissionData {
            account: customer.to_owned(),
            spender: customer.to_owned(),
            token: customer.to_owned(),
            allowance: "1".to_owned(),
            period: 604_800,
            start: 0,
            end: 1,
            salt: "1".to_owned(),
            extra_data: "0x".to_owned(),
        },
        idempotency_key: None,
    }
}

#[tokio::test]
async fn a_plan_create_retried_after_a_503_sends_one_generated_key_on_every_attempt() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/subscriptions/plans"))
        .respond_with(datastore_busy())
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/api/subscriptions/plans"))
        .respond_with(plan_created())
        .mount(&server)
        .await;

    let created = client(&server, fast_retries(2))
        .create_plan(&plan())
        .await
        .unwrap();

    assert_eq!(created.plan_id, "plan_1");
    let keys = idempotency_keys(&received(&server).await);
    assert_eq!(keys.len(), 2);
    assert!(keys[0].is_some() && keys[0] == keys[1], "{keys:?}");
}

#[tokio::test]
async fn a_subscription_create_sends_the_callers_key_on_every_attempt() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/subscriptions/create"))
        .respond_with(datastore_busy())
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/api/subscriptions/create"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({
            "success": true,
            "subscription": { "subscriptionId": "csub_1", "status": "active" },
        })))
        .mount(&server)
        .await;

    let created = client(&server, fast_retries(2))
        .subscribe(&subscription().idempotency_key("signup-7"))
        .await
        .unwrap();

    assert_eq!(created.subscription_id, "csub_1");
    assert_eq!(
        idempotency_keys(&received(&server).await),
        vec![Some("signup-7".to_owned()); 2]
    );
}

#[tokio::test]
async fn with_retries_off_a_subscription_create_is_sent_once_without_a_key() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/subscriptions/create"))
        .respond_with(datastore_busy())
        .mount(&server)
        .await;

    let error = client(&server, RetryPolicy::OFF)
        .subscribe(&subscription())
        .await
        .unwrap_err();

    assert_eq!(error.code(), Some(ErrorCode::DatastoreUnavailable));
    assert_eq!(idempotency_keys(&received(&server).await), vec![None]);
}
