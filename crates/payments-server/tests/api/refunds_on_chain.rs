//! Refunds proven on chain, on the test-mode chain (issue 26): a refund's `txHash` must be a transfer of the
//! payment token of at least the refund to its buyer, used by no other refund; one short of
//! `--confirmations` waits as `refund_requested`; `simulate` has the test-mode chain send it. The same rules
//! on anvil are in `refunds_anvil.rs`.

use std::time::Duration;

use futures_util::future::join;
use payments_core::Wallet;
use payments_server::testing::{AdminClient, TestKey, TestOptions, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::helpers::{Api, Reply, send};
use crate::paid_receipt::{paid_receipt, refund_sent};

const BUYER: &str = "0x3333333333333333333333333333333333333333";
const SOMEONE_ELSE: &str = "0x4444444444444444444444444444444444444444";
const OTHER_TOKEN: &str = "0x9999999999999999999999999999999999999999";

async fn refund(api: &Api, session: &AdminClient, body: &Value) -> Reply {
    send(admin(api, session, Method::POST, "/api/receipts/refund").json(body)).await
}

fn refund_of(key: &TestKey, id: &str, usd: Value, tx_hash: &str) -> Value {
    json!({"receiptId": id, "wallet": key.wallet, "buyer": BUYER, "usd": usd, "items": [], "txHash": tx_hash})
}

async fn receipt(api: &Api, key: &TestKey, id: &str) -> Value {
    let reply = send(api.dev_as(&key.key, Method::GET, &format!("/api/receipts/{id}"))).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

fn error_of(reply: &Reply) -> (u16, &str) {
    (reply.status, reply.json["error"].as_str().unwrap_or(""))
}

#[tokio::test]
async fn a_refund_with_a_made_up_hash_is_refused_and_changes_nothing() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let before = receipt(&api, &key, "sold").await;

    let made_up = refund(
        &api,
        &session,
        &refund_of(&key, "sold", json!(1), &format!("0x{}", "11".repeat(32))),
    )
    .await;

    assert_eq!(
        error_of(&made_up),
        (400, "refund_tx_not_found"),
        "{}",
        made_up.json
    );
    assert_eq!(receipt(&api, &key, "sold").await, before);
}

#[tokio::test]
async fn a_transfer_to_someone_else_too_small_or_in_another_token_is_a_mismatch_and_changes_nothing() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let chain = api.app.chain();
    let before = receipt(&api, &key, "sold").await;
    let to_someone_else = refund_sent(&api, SOMEONE_ELSE, 100).await;
    let too_small = refund_sent(&api, BUYER, 99).await;
    let other_token = chain
        .pay_in(
            Wallet::parse(OTHER_TOKEN).unwrap(),
            Wallet::parse(BUYER).unwrap(),
            1_000_000,
        )
        .await;

    for tx_hash in [to_someone_else, too_small, other_token] {
        let reply = refund(&api, &session, &refund_of(&key, "sold", json!(1), &tx_hash)).await;

        assert_eq!(error_of(&reply), (400, "refund_tx_mismatch"), "{}", reply.json);
    }
    assert_eq!(receipt(&api, &key, "sold").await, before);
}

#[tokio::test]
async fn the_same_transaction_for_a_second_refund_is_reused_and_changes_nothing() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let sent = refund_sent(&api, BUYER, 200).await;

    let first = refund(&api, &session, &refund_of(&key, "sold", json!(1), &sent)).await;
    let after_first = receipt(&api, &key, "sold").await;
    let again = refund(&api, &session, &refund_of(&key, "sold", json!(1), &sent)).await;

    assert_eq!(first.json["status"], "refund_partial", "{}", first.json);
    assert_eq!(error_of(&again), (409, "refund_tx_reused"), "{}", again.json);
    assert_eq!(receipt(&api, &key, "sold").await, after_first);
}

#[tokio::test]
async fn two_concurrent_refunds_of_two_receipts_with_one_transaction_refund_exactly_once() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "first").await;
    create_and_attest(&api, &session, &key, "second").await;
    let sent = refund_sent(&api, BUYER, 100).await;

    let (one, other) = join(
        refund(&api, &session, &refund_of(&key, "first", json!(1), &sent)),
        refund(&api, &session, &refund_of(&key, "second", json!(1), &sent)),
    )
    .await;

    let mut outcomes = vec![error_of(&one), error_of(&other)];
    outcomes.sort_unstable();
    assert_eq!(outcomes, [(200, ""), (409, "refund_tx_reused")]);
    let refunded: Vec<Value> = vec![
        receipt(&api, &key, "first").await["refundedUsd"].clone(),
        receipt(&api, &key, "second").await["refundedUsd"].clone(),
    ];
    assert_eq!(
        refunded.iter().filter(|usd| **usd == json!(1)).count(),
        1,
        "{refunded:?}"
    );
}

#[tokio::test]
async fn an_unconfirmed_refund_is_requested_counts_against_what_remains_then_is_refunded_once_mined_over() {
    let api = Api::spawn_with(TestOptions {
        confirmations: Some(2),
        ..TestOptions::default()
    })
    .await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let whole = refund_sent(&api, BUYER, 775).await;

    let requested = refund(&api, &session, &refund_of(&key, "sold", json!(7.75), &whole)).await;
    let waiting = receipt(&api, &key, "sold").await;
    let more = refund_sent(&api, BUYER, 1).await;
    let beyond = refund(&api, &session, &refund_of(&key, "sold", json!(0.01), &more)).await;
    api.app.chain().mine(2);
    let refunded = eventually("the refund to be confirmed", Duration::from_secs(30), || async {
        let now = receipt(&api, &key, "sold").await;
        (now["status"] == "refunded").then_some(now)
    })
    .await;

    assert_eq!(
        requested.json,
        json!({"ok": true, "status": "refund_requested", "previousStatus": "paid"})
    );
    assert_eq!(
        (&waiting["status"], &waiting["refundedUsd"]),
        (&json!("refund_requested"), &json!(7.75))
    );
    assert_eq!(error_of(&beyond), (400, "invalid_usd"), "{}", beyond.json);
    assert_eq!(refunded["refundedUsd"], json!(7.75));
}

#[tokio::test]
async fn simulate_has_the_test_chain_send_the_refund_from_the_merchant_to_the_buyer() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let body = json!({"receiptId": "sold", "wallet": key.wallet, "buyer": BUYER, "usd": 7.75, "items": [],
                      "simulate": true});

    let simulated = refund(&api, &session, &body).await;
    let both = refund(
        &api,
        &session,
        &json!({"receiptId": "sold", "wallet": key.wallet, "buyer": BUYER, "usd": 1, "simulate": true,
                "txHash": format!("0x{}", "11".repeat(32))}),
    )
    .await;

    assert_eq!(
        simulated.json,
        json!({"ok": true, "status": "refunded", "previousStatus": "paid"})
    );
    assert_eq!(
        api.app.chain().balance(Wallet::parse(BUYER).unwrap()).await,
        7_750_000
    );
    assert_eq!(error_of(&both), (400, "invalid_input"), "{}", both.json);
}

/// Creates receipt `id` (7.75 USD) of the merchant whose split is configured, and attests its payment.
async fn create_and_attest(api: &Api, session: &AdminClient, key: &TestKey, id: &str) {
    let body = json!({"id": id, "lineItems": [{"label": "Coffee", "priceUsd": 7.75}], "totalUsd": 7.75});
    let created = send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let paid = send(
        admin(api, session, Method::POST, "/api/receipts/status")
            .json(&json!({"receiptId": id, "wallet": key.wallet, "status": "paid"})),
    )
    .await;
    assert_eq!(paid.json["status"], "paid", "{}", paid.json);
}

#[tokio::test]
async fn a_refund_in_the_ledger_export_names_its_transaction_and_block() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let sent = refund_sent(&api, BUYER, 100).await;
    let refunded = refund(&api, &session, &refund_of(&key, "sold", json!(1), &sent)).await;
    assert_eq!(refunded.status, 200, "{}", refunded.json);

    let export = send(api.dev_as(&key.key, Method::GET, "/api/exports/ledger?format=json")).await;

    assert_eq!(export.status, 200, "{}", export.json);
    let entries = export.json["entries"].as_array().unwrap();
    let entry = entries
        .iter()
        .find(|entry| entry["movement"] == "refund")
        .unwrap_or_else(|| panic!("no refund in {entries:?}"));
    assert_eq!(entry["transactionHash"], json!(sent));
    assert!(
        entry["blockNumber"].as_u64().is_some_and(|block| block > 0),
        "{entry}"
    );
    assert_eq!(entry["baseUnits"], "1000000");
}
