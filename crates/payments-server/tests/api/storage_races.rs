//! Races and limits of the store seam: every use case is one transaction with its idempotency record, so
//! concurrent duplicates never produce a second effect, finite stock never goes below zero, contention never
//! answers 500, and an order that cannot be stored readable is refused before anything is written.

use futures_util::future::join_all;
use payments_server::testing::TestKey;
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::helpers::{Api, Reply, send};
use crate::orders::{merchant_with_split, product};
use crate::paid_receipt::{paid_receipt, refund_sent};

const BUYER: &str = "0x3333333333333333333333333333333333333333";

fn refund_body(key: &TestKey, usd: Value, tx_hash: &str) -> Value {
    json!({"receiptId": "sold", "wallet": key.wallet, "buyer": BUYER, "usd": usd,
           "items": [{"label": "Coffee", "priceUsd": 1, "qty": 1}], "txHash": tx_hash})
}

async fn receipt(api: &Api, key: &TestKey, id: &str) -> Value {
    let reply = send(api.dev_as(&key.key, Method::GET, &format!("/api/receipts/{id}"))).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

async fn receipt_count(api: &Api, key: &TestKey) -> usize {
    let reply = send(api.dev_as(&key.key, Method::GET, "/api/receipts")).await;
    reply.json["receipts"].as_array().map_or(0, Vec::len)
}

async fn stock_of(api: &Api, key: &TestKey, sku: &str) -> i64 {
    let listing = send(api.dev_as(&key.key, Method::GET, "/api/inventory")).await;
    listing.json["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["sku"] == sku)
        .and_then(|item| item["stockQty"].as_i64())
        .unwrap()
}

fn statuses(replies: &[Reply]) -> Vec<u16> {
    let mut statuses: Vec<u16> = replies.iter().map(|reply| reply.status).collect();
    statuses.sort_unstable();
    statuses
}

#[tokio::test]
async fn ten_parallel_identical_refunds_under_one_key_refund_once() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let sent = refund_sent(&api, BUYER, 100).await;

    let replies = join_all((0..10).map(|_| {
        send(
            admin(&api, &session, Method::POST, "/api/receipts/refund")
                .header("Idempotency-Key", "refund-once")
                .json(&refund_body(&key, json!(1), &sent)),
        )
    }))
    .await;

    assert_eq!(statuses(&replies), vec![200; 10]);
    assert!(
        replies.iter().all(|reply| reply.json == replies[0].json),
        "{replies:?}"
    );
    assert_eq!(
        replies
            .iter()
            .filter(|reply| reply.header("idempotent-replayed") == "true")
            .count(),
        9
    );
    let stored = receipt(&api, &key, "sold").await;
    assert_eq!(stored["refundedUsd"], json!(1), "{stored}");
}

#[tokio::test]
async fn ten_parallel_identical_orders_under_one_key_make_one_receipt() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    product(&api, &merchant.key, "mug", &json!(12), false, 100).await;
    let body = json!({"items": [{"sku": "mug", "qty": 2}]});

    let replies = join_all((0..10).map(|_| {
        send(
            api.dev_as(&merchant.key.key, Method::POST, "/api/orders")
                .header("Idempotency-Key", "order-once")
                .json(&body),
        )
    }))
    .await;

    assert_eq!(statuses(&replies), vec![200; 10]);
    assert!(
        replies.iter().all(|reply| reply.json == replies[0].json),
        "{replies:?}"
    );
    assert_eq!(receipt_count(&api, &merchant.key).await, 1);
    assert_eq!(stock_of(&api, &merchant.key, "mug").await, 98);
}

#[tokio::test]
async fn different_bodies_under_one_key_apply_only_the_first() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    product(&api, &merchant.key, "mug", &json!(12), false, 100).await;

    let replies = join_all((1..=5).map(|qty| {
        send(
            api.dev_as(&merchant.key.key, Method::POST, "/api/orders")
                .header("Idempotency-Key", "one-key")
                .json(&json!({"items": [{"sku": "mug", "qty": qty}]})),
        )
    }))
    .await;

    assert_eq!(statuses(&replies), vec![200, 409, 409, 409, 409]);
    assert!(
        replies
            .iter()
            .filter(|reply| reply.status == 409)
            .all(|reply| reply.json["error"] == "idempotency_conflict"),
        "{replies:?}"
    );
    assert_eq!(receipt_count(&api, &merchant.key).await, 1);
    let taken =
        replies.iter().find(|reply| reply.status == 200).unwrap().json["receipt"]["lineItems"][0]["qty"]
            .as_i64()
            .unwrap();
    assert_eq!(stock_of(&api, &merchant.key, "mug").await, 100 - taken);
}

#[tokio::test]
async fn lines_of_one_product_are_summed_against_its_finite_stock() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    product(&api, &merchant.key, "lamp", &json!(30), false, 5).await;
    let line = json!({"sku": "lamp", "qty": 5});

    let reply = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/orders")
            .json(&json!({"items": [line, line, line]})),
    )
    .await;

    assert_eq!(
        (reply.status, reply.json["error"].clone()),
        (400, json!("out_of_stock")),
        "{}",
        reply.json
    );
    assert_eq!(stock_of(&api, &merchant.key, "lamp").await, 5);
    assert_eq!(receipt_count(&api, &merchant.key).await, 0);
}

#[tokio::test]
async fn parallel_orders_never_sell_more_than_the_stock() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    product(&api, &merchant.key, "lamp", &json!(30), false, 5).await;

    let replies = join_all((0..12).map(|_| {
        send(
            api.dev_as(&merchant.key.key, Method::POST, "/api/orders")
                .json(&json!({"items": [{"sku": "lamp", "qty": 1}]})),
        )
    }))
    .await;

    assert_eq!(statuses(&replies), [vec![200; 5], vec![400; 7]].concat());
    assert_eq!(stock_of(&api, &merchant.key, "lamp").await, 0);
    assert_eq!(receipt_count(&api, &merchant.key).await, 5);
}

#[tokio::test]
async fn forty_parallel_refunds_apply_one_after_another_and_never_answer_500() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let mut transfers = Vec::new();
    for _ in 0..40 {
        transfers.push(refund_sent(&api, BUYER, 25).await);
    }

    let replies = join_all(transfers.iter().map(|sent| {
        send(
            admin(&api, &session, Method::POST, "/api/receipts/refund").json(&refund_body(
                &key,
                json!(0.25),
                sent,
            )),
        )
    }))
    .await;

    // 7.75 paid: 31 refunds of 0.25 fit, the other 9 are refused as exceeding what is left.
    assert_eq!(statuses(&replies), [vec![200; 31], vec![400; 9]].concat());
    assert!(
        replies
            .iter()
            .filter(|reply| reply.status == 400)
            .all(|reply| reply.json["error"] == "invalid_usd"),
        "{replies:?}"
    );
    let stored = receipt(&api, &key, "sold").await;
    assert_eq!(
        (stored["refundedUsd"].clone(), stored["status"].clone()),
        (json!(7.75), json!("refunded"))
    );
}

#[tokio::test]
async fn an_order_whose_total_exceeds_the_largest_amount_is_refused_and_nothing_is_written() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    product(&api, &merchant.key, "gold", &json!(900_000_000_000u64), false, -1).await;

    let reply = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/orders")
            .json(&json!({"items": [{"sku": "gold", "qty": 2}]})),
    )
    .await;

    assert_eq!(
        (reply.status, reply.json["error"].clone()),
        (400, json!("invalid_input")),
        "{}",
        reply.json
    );
    assert_eq!(receipt_count(&api, &merchant.key).await, 0);
    let listing = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts")).await;
    assert_eq!(listing.status, 200);
}

#[tokio::test]
async fn a_write_while_another_process_holds_the_database_lock_is_a_503_and_writes_nothing() {
    let api = Api::spawn().await;
    let locker = rusqlite::Connection::open(&api.app.db_path).unwrap();
    locker.execute_batch("BEGIN EXCLUSIVE").unwrap();

    let reply = send(
        api.dev(Method::POST, "/api/receipts")
            .json(&crate::receipts_create::receipt_body("locked-out")),
    )
    .await;
    locker.execute_batch("ROLLBACK").unwrap();

    assert_eq!(
        (reply.status, reply.json["error"].clone()),
        (503, json!("datastore_unavailable")),
        "{}",
        reply.json
    );
    assert_eq!(reply.header("retry-after"), "5");
    assert_eq!(
        send(api.dev(Method::GET, "/api/receipts/locked-out"))
            .await
            .status,
        404
    );
}
