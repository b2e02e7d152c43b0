//! Finality and reorganisations after paid, on the test-mode chain (docs/money.md): a paid receipt shows its
//! payment's block, depth and finality; a reorganisation deeper than `--confirmations` that removes the
//! payment fails it (`PORTAL_PAYMENT_REORGED`) with a signed webhook, the transfer stops counting, a new
//! payment pays it again, and settlement waits for the payment to be final. `reorg_anvil.rs` does the same
//! on anvil.

use std::time::Duration;

use payments_core::Wallet;
use payments_server::testing::{TestKey, TestOptions, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_payments::{read, wait_for_status};
use crate::helpers::{Api, send};
use crate::orders::{Merchant, merchant_with_split};
use crate::webhook_receiver::Receiver;

const WAIT: Duration = Duration::from_secs(10);

/// A 6.00 USD receipt whose webhooks go to `hook`; returns its deposit address and amount in base units.
async fn receipt_with_hook(api: &Api, key: &TestKey, id: &str, hook: &str) -> (Wallet, u128) {
    let body = json!({"id": id, "lineItems": [{"label": "Tea", "priceUsd": 6.0}], "totalUsd": 6.0, "webhook_url": hook});
    let created = send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let payment = &read(api, key, id).await["payment"];
    let to = Wallet::parse(payment["to"].as_str().unwrap()).unwrap();
    (to, payment["amount"].as_str().unwrap().parse().unwrap())
}

/// A test-mode server that settles only final payments (`--confirmations 1`), a merchant, a webhook receiver
/// and the merchant's receipt `id` whose webhooks go to it; returns them with its deposit and amount.
async fn paid_later(id: &str) -> (Api, Merchant, Receiver, Wallet, u128) {
    let api = Api::spawn_with(TestOptions {
        confirmations: Some(1),
        settle_only_finalized: true,
        ..TestOptions::default()
    })
    .await;
    let merchant = merchant_with_split(&api).await;
    let receiver = Receiver::start(&[]).await;
    let (deposit, amount) = receipt_with_hook(&api, &merchant.key, id, &receiver.url).await;
    (api, merchant, receiver, deposit, amount)
}

#[tokio::test]
async fn a_reorganisation_after_paid_fails_the_receipt_with_its_webhook_and_a_new_payment_pays_it_again() {
    let (api, merchant, receiver, deposit, amount) = paid_later("reorg-1").await;
    let chain = api.app.chain();
    let before = chain.snapshot();
    let first = chain.pay(deposit, amount).await;
    chain.mine(2);
    let paid = wait_for_status(&api, &merchant.key, "reorg-1", "paid").await;
    let paid_hook = receiver.signed_with_status(&merchant.key.key, "paid").await;

    chain.revert(before);
    chain.mine(4);
    let failed = wait_for_status(&api, &merchant.key, "reorg-1", "failed").await;

    assert!(paid["payment"]["blockNumber"].as_u64().is_some(), "{paid}");
    assert_eq!(paid["payment"]["blockHash"].as_str().map(str::len), Some(66));
    assert!(paid["payment"]["confirmations"].as_u64() >= Some(1), "{paid}");
    assert_eq!(paid["payment"]["finalized"], false);
    assert_eq!(
        paid_hook["payment"]["blockNumber"],
        paid["payment"]["blockNumber"]
    );
    assert_eq!(failed["failureCode"], "PORTAL_PAYMENT_REORGED");
    assert_eq!(failed["failureCategory"], "blockchain");
    assert_eq!(failed["amountReceivedBaseUnits"], "0");
    assert_eq!(
        failed["payment"].get("blockNumber"),
        None,
        "no paying block any more: {failed}"
    );
    assert_eq!(
        failed["payment"]["to"], paid["payment"]["to"],
        "the same address still pays it"
    );
    let failed_hook = receiver.signed_with_status(&merchant.key.key, "failed").await;
    assert_eq!(failed_hook["previousStatus"], "paid");
    assert_eq!(failed_hook["failureCode"], "PORTAL_PAYMENT_REORGED");
    assert_eq!(failed_hook.get("payment"), None);
    let listed = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts/reorg-1/transfers")).await;
    assert_eq!(
        listed.json["transfers"],
        json!([]),
        "the removed transfer no longer counts"
    );
    assert_eq!(
        chain.balance(deposit).await,
        0,
        "nothing was forwarded before finality"
    );

    let second = chain.pay(deposit, amount).await;
    chain.mine(1);
    let paid_again = wait_for_status(&api, &merchant.key, "reorg-1", "paid").await;
    assert_eq!(paid_again["transactionHash"], second.as_str());
    assert_ne!(second, first);
    assert_eq!(paid_again["failureCode"], Value::Null);
    let repaid_hook = eventually("the second paid webhook", WAIT, || async {
        let paid: Vec<Value> = receiver
            .received()
            .iter()
            .map(|request| request.json())
            .filter(|body| body["status"] == "paid")
            .collect();
        paid.get(1).cloned()
    })
    .await;
    assert_eq!(repaid_hook["previousStatus"], "failed");

    chain.mine(payments_core::FINALITY_FALLBACK_DEPTH);
    let completed = wait_for_status(&api, &merchant.key, "reorg-1", "completed").await;
    assert_eq!(completed["payment"]["finalized"], true, "{completed}");
    assert_eq!(chain.balance(deposit).await, 0, "forwarded once final");
}

#[tokio::test]
async fn a_reorganisation_above_the_payments_block_keeps_the_receipt_paid_in_that_block() {
    let (api, merchant, receiver, deposit, amount) = paid_later("reorg-2").await;
    let chain = api.app.chain();
    chain.pay(deposit, amount).await;
    let after_payment = chain.snapshot();
    chain.mine(2);
    let paid = wait_for_status(&api, &merchant.key, "reorg-2", "paid").await;

    chain.revert(after_payment);
    chain.mine(5);
    let deeper = eventually("the receipt to show the new head", WAIT, || async {
        let receipt = read(&api, &merchant.key, "reorg-2").await;
        (receipt["payment"]["confirmations"].as_u64() >= Some(5)).then_some(receipt)
    })
    .await;

    assert_eq!(deeper["status"], "paid");
    assert_eq!(deeper["payment"]["blockHash"], paid["payment"]["blockHash"]);
    assert!(
        receiver
            .received()
            .iter()
            .all(|request| request.json()["status"] != "failed"),
        "no failure was sent"
    );
}
