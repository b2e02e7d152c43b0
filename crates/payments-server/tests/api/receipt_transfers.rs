//! GET /api/receipts/{id}/transfers: what a receipt's deposit address received on chain, counted or not, so a
//! merchant sees an underpayment or a payment in the wrong token without reading the database.

use std::time::Duration;

use payments_core::Wallet;
use payments_server::testing::{TestKey, eventually, test_wallet};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send};
use crate::orders::merchant_with_split;

const WAIT: Duration = Duration::from_secs(10);
const SIMULATED_BUYER: &str = "0xb0b0000000000000000000000000000000000b0b";

async fn transfers(api: &Api, key: &TestKey, id: &str) -> Value {
    let path = format!("/api/receipts/{id}/transfers");
    let reply = send(api.dev_as(&key.key, Method::GET, &path)).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

async fn transfers_once(api: &Api, key: &TestKey, id: &str, count: usize) -> Value {
    eventually(&format!("{count} transfers recorded for {id}"), WAIT, || async {
        let listed = transfers(api, key, id).await;
        (listed["transfers"].as_array().map(Vec::len) == Some(count)).then_some(listed)
    })
    .await
}

#[tokio::test]
async fn an_underpayment_and_a_wrong_token_are_listed_with_what_is_still_missing() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let body = json!({"id": "tea-9", "lineItems": [{"label": "Tea", "priceUsd": 10.0}], "totalUsd": 10.0});
    let created = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/receipts")
            .json(&body),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let before = transfers(&api, &merchant.key, "tea-9").await;
    assert_eq!(before["transfers"], json!([]));
    assert_eq!(before["received"], "0");
    assert_eq!(before["missing"], "10000000");
    let deposit = Wallet::parse(before["payment"]["to"].as_str().unwrap()).unwrap();
    let stray_token = test_wallet(0x77);
    let chain = api.app.chain();

    let short = chain.pay(deposit, 4_000_000).await;
    let stray = chain.pay_in(stray_token, deposit, 6_000_000).await;
    let listed = transfers_once(&api, &merchant.key, "tea-9", 2).await;

    assert_eq!(listed["receiptId"], "tea-9");
    assert_eq!(listed["received"], "4000000", "only the payment token counts");
    assert_eq!(listed["missing"], "6000000");
    let [first, second] = listed["transfers"].as_array().unwrap().as_slice() else {
        panic!("two transfers: {listed}")
    };
    assert_eq!(first["transactionHash"], short.as_str());
    assert_eq!(first["amount"], "4000000");
    assert_eq!(first["counted"], true);
    assert_eq!(first["from"], SIMULATED_BUYER);
    assert_eq!(second["transactionHash"], stray.as_str());
    assert_eq!(second["token"], stray_token.to_string());
    assert_eq!(
        second["counted"], false,
        "another token is recorded, never counted"
    );
    let receipt = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts/tea-9")).await;
    assert_ne!(receipt.json["status"], "paid", "{}", receipt.json);

    chain.pay(deposit, 6_000_000).await;
    let covered = transfers_once(&api, &merchant.key, "tea-9", 3).await;
    assert_eq!(covered["received"], "10000000");
    assert_eq!(covered["missing"], "0");
    assert_eq!(covered["overpaid"], "0");
}

#[tokio::test]
async fn a_second_payment_after_paid_is_recorded_and_listed_as_overpaid() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let body = json!({"id": "tea-10", "lineItems": [{"label": "Tea", "priceUsd": 2.5}], "totalUsd": 2.5});
    let created = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/receipts")
            .json(&body),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let before = transfers(&api, &merchant.key, "tea-10").await;
    let deposit = Wallet::parse(before["payment"]["to"].as_str().unwrap()).unwrap();
    let chain = api.app.chain();
    chain.pay(deposit, 2_500_000).await;
    eventually("the receipt to be settled", WAIT, || async {
        let receipt = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts/tea-10")).await;
        (receipt.json["status"] == "completed").then_some(())
    })
    .await;

    let again = chain.pay(deposit, 1_000_000).await;

    let listed = transfers_once(&api, &merchant.key, "tea-10", 2).await;
    assert_eq!(listed["transfers"][1]["transactionHash"], again.as_str());
    assert_eq!(listed["transfers"][1]["counted"], true);
    assert_eq!(listed["received"], "3500000");
    assert_eq!(listed["missing"], "0");
    assert_eq!(listed["overpaid"], "1000000", "what the merchant may refund");
}

#[tokio::test]
async fn another_merchants_or_an_unknown_receipts_transfers_are_not_found() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let body = json!({"id": "tea-10", "lineItems": [{"label": "Tea", "priceUsd": 1.0}], "totalUsd": 1.0});
    let created = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/receipts")
            .json(&body),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let stranger = api.app.create_key(test_wallet(0x42), "receipts:read").await;

    let theirs = send(api.dev_as(&stranger.key, Method::GET, "/api/receipts/tea-10/transfers")).await;
    let unknown = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts/nope/transfers")).await;
    let posted = send(api.dev_as(&merchant.key.key, Method::POST, "/api/receipts/tea-10/transfers")).await;

    assert_eq!(
        (theirs.status, theirs.json["error"].as_str()),
        (404, Some("not_found"))
    );
    assert_eq!(unknown.status, 404, "{}", unknown.json);
    assert_eq!(posted.status, 405, "{}", posted.json);
}
