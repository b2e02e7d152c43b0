//! Payment windows on the test-mode chain: an unpaid order expires when its window ends (failed,
//! `PORTAL_SESSION_EXPIRED`, its stock given back, its webhook sent), a payment after that is still credited
//! as `paidLate` (taking the stock again, or `stockShort` when it is gone), and the page shows the time left.

use std::time::Duration;

use payments_core::Wallet;
use payments_server::testing::{TestKey, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_payments::{read, wait_for_status};
use crate::helpers::{Api, Reply, send};
use crate::orders::{merchant_with_split, product};
use crate::portal::open_page;
use crate::webhook_receiver::Receiver;

const WAIT: Duration = Duration::from_secs(10);
const MINUTE: Duration = Duration::from_secs(60);

pub(crate) async fn stock_of(api: &Api, key: &TestKey, item: &str) -> i64 {
    let reply = send(api.dev_as(&key.key, Method::GET, "/api/inventory")).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|found| found["id"] == item)
        .unwrap_or_else(|| panic!("item {item} in {}", reply.json))["stockQty"]
        .as_i64()
        .unwrap()
}

async fn order(api: &Api, key: &TestKey, body: Value) -> Reply {
    send(api.dev_as(&key.key, Method::POST, "/api/orders").json(&body)).await
}

/// The deposit address and amount (base units) a receipt asks for.
fn payment_of(receipt: &Value) -> (Wallet, u128) {
    let payment = &receipt["payment"];
    let to = Wallet::parse(payment["to"].as_str().unwrap()).unwrap();
    (to, payment["amount"].as_str().unwrap().parse().unwrap())
}

#[tokio::test]
async fn an_unpaid_order_expires_when_its_window_ends_giving_back_its_stock_and_sending_its_webhook() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let mug = product(&api, &merchant.key, "MUG-1", &json!(12.0), false, 10).await;
    let hooks = Receiver::start(&[]).await;
    let created = order(
        &api,
        &merchant.key,
        json!({"items": [{"id": mug, "qty": 3}], "expiresInMins": 15, "webhook_url": hooks.url}),
    )
    .await;
    assert_eq!(created.status, 200, "{}", created.json);
    let id = created.json["receipt"]["receiptId"].as_str().unwrap().to_owned();
    let receipt = read(&api, &merchant.key, &id).await;
    assert_eq!(
        receipt["expiresAt"].as_i64().unwrap() - receipt["createdAt"].as_i64().unwrap(),
        15 * 60_000
    );
    assert_eq!(
        stock_of(&api, &merchant.key, &mug).await,
        7,
        "the order reserved 3"
    );

    api.app.clock.advance(14 * MINUTE);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        read(&api, &merchant.key, &id).await["status"],
        "generated",
        "still inside its window"
    );

    api.app.clock.advance(MINUTE);
    let expired = wait_for_status(&api, &merchant.key, &id, "failed").await;

    assert_eq!(expired["failureCode"], "PORTAL_SESSION_EXPIRED");
    assert_eq!(expired["failureCategory"], "session");
    assert_eq!(expired["paidLate"], false);
    assert_eq!(
        stock_of(&api, &merchant.key, &mug).await,
        10,
        "the reservation was given back"
    );
    let sent = hooks.wait_for(1).await;
    let body = sent[0].json();
    assert_eq!(body["status"], "failed");
    assert_eq!(body["previousStatus"], "generated");
    assert_eq!(body["failureCode"], "PORTAL_SESSION_EXPIRED");
    assert_eq!(body["failureCategory"], "session");
}

#[tokio::test]
async fn a_payment_after_the_window_ended_pays_the_receipt_late_and_takes_its_stock_again() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let mug = product(&api, &merchant.key, "MUG-2", &json!(5.0), false, 4).await;
    let hooks = Receiver::start(&[]).await;
    let created = order(
        &api,
        &merchant.key,
        json!({"items": [{"id": mug, "qty": 2}], "webhook_url": hooks.url}),
    )
    .await;
    let id = created.json["receipt"]["receiptId"].as_str().unwrap().to_owned();
    let (deposit, amount) = payment_of(&read(&api, &merchant.key, &id).await);
    api.app.clock.advance(60 * MINUTE);
    wait_for_status(&api, &merchant.key, &id, "failed").await;
    assert_eq!(stock_of(&api, &merchant.key, &mug).await, 4);

    let transaction = api.app.chain().pay(deposit, amount).await;

    let paid = eventually("the late payment to be credited", WAIT, || async {
        let receipt = read(&api, &merchant.key, &id).await;
        (receipt["paidLate"] == true).then_some(receipt)
    })
    .await;
    assert!(
        ["paid", "completed"].contains(&paid["status"].as_str().unwrap()),
        "{paid}"
    );
    assert_eq!(paid["transactionHash"], transaction.as_str());
    assert_eq!(paid["stockShort"], false);
    assert_eq!(stock_of(&api, &merchant.key, &mug).await, 2, "taken again");
    let sent = hooks.wait_for(2).await;
    let paid_hook = sent
        .iter()
        .map(|hook| hook.json())
        .find(|body| body["status"] == "paid")
        .expect("a paid webhook");
    assert_eq!(paid_hook["paidLate"], true);
    assert_eq!(paid_hook["previousStatus"], "failed");
    let late = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts?paidLate=true")).await;
    let listed: Vec<&str> = late.json["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|receipt| receipt["receiptId"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [id.as_str()]);
    let on_time = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts?paidLate=false")).await;
    assert_eq!(on_time.json["receipts"], json!([]));
}

#[tokio::test]
async fn a_paid_late_filter_other_than_true_or_false_is_refused() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::GET, "/api/receipts?paidLate=yes")).await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["error"], "invalid_input");
}

#[tokio::test]
async fn a_late_payment_when_the_stock_is_gone_is_paid_with_stock_short() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let mug = product(&api, &merchant.key, "MUG-3", &json!(5.0), false, 1).await;
    let first = order(
        &api,
        &merchant.key,
        json!({"items": [{"id": mug, "qty": 1}], "expiresInMins": 5}),
    )
    .await;
    let id = first.json["receipt"]["receiptId"].as_str().unwrap().to_owned();
    let (deposit, amount) = payment_of(&read(&api, &merchant.key, &id).await);
    api.app.clock.advance(5 * MINUTE);
    wait_for_status(&api, &merchant.key, &id, "failed").await;
    let second = order(&api, &merchant.key, json!({"items": [{"id": mug, "qty": 1}]})).await;
    assert_eq!(
        second.status, 200,
        "the released unit sold again: {}",
        second.json
    );

    api.app.chain().pay(deposit, amount).await;

    let paid = eventually("the late payment to be credited", WAIT, || async {
        let receipt = read(&api, &merchant.key, &id).await;
        (receipt["paidLate"] == true).then_some(receipt)
    })
    .await;
    assert_eq!(paid["stockShort"], true);
    assert_eq!(stock_of(&api, &merchant.key, &mug).await, 0, "never below zero");
}

#[tokio::test]
async fn a_payment_window_outside_five_minutes_to_a_week_is_refused_and_creates_nothing() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    for minutes in [json!(4), json!(10_081), json!(-5)] {
        let body = json!({"id": "tea-window", "lineItems": [{"label": "Tea", "priceUsd": 3.0}],
            "totalUsd": 3.0, "expiresInMins": minutes});
        let reply = send(
            api.dev_as(&merchant.key.key, Method::POST, "/api/receipts")
                .json(&body),
        )
        .await;

        assert_eq!(reply.status, 400, "{minutes}: {}", reply.json);
        assert_eq!(reply.json["error"], "invalid_input", "{}", reply.json);
    }
    let missing = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts/tea-window")).await;
    assert_eq!(missing.status, 404);
}

#[tokio::test]
async fn the_payment_page_shows_the_time_left_then_that_the_request_expired() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let body = json!({"id": "tea-page", "lineItems": [{"label": "Tea", "priceUsd": 3.0}], "totalUsd": 3.0,
        "expiresInMins": 90});
    let created = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/receipts")
            .json(&body),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let page = format!("/portal/tea-page?merchant={}", merchant.admin.wallet);

    let (_, _, open) = open_page(&api, &page).await;
    assert!(
        open.contains("Time left to pay: <strong>1 hour 30 minutes</strong>"),
        "{open}"
    );

    api.app.clock.advance(90 * MINUTE);
    let (_, _, ended) = open_page(&api, &page).await;
    assert!(ended.contains("Payment request expired"), "{ended}");
    assert!(
        !ended.contains("ethereum:"),
        "no payment request once expired: {ended}"
    );
}
