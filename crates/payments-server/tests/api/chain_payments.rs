//! The chain as the source of truth, on the test-mode chain: a transfer to a receipt's deposit address makes
//! it `paid` (with the buyer and the transaction) and settlement makes it `completed` with the split paid
//! exactly; short payments, unconfirmed and reorganised transfers never pay; a restart loses nothing.

use std::time::Duration;

use payments_core::Wallet;
use payments_server::testing::{TestKey, TestOptions, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send};
use crate::orders::merchant_with_split;

const PLATFORM: &str = "0x5050505050505050505050505050505050505050";
/// The wallet simulated payments come from.
const SIMULATED_BUYER: &str = "0xb0b0000000000000000000000000000000000b0b";
const WAIT: Duration = Duration::from_secs(10);

/// A receipt of `total` USD for `key`'s merchant; returns its deposit address and amount in base units.
async fn receipt(api: &Api, key: &TestKey, id: &str, total: f64) -> (Wallet, u128) {
    let body = json!({"id": id, "lineItems": [{"label": "Tea", "priceUsd": total}], "totalUsd": total});
    let created = send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let payment = &read(api, key, id).await["payment"];
    let to = Wallet::parse(payment["to"].as_str().unwrap()).unwrap();
    (to, payment["amount"].as_str().unwrap().parse().unwrap())
}

pub(crate) async fn read(api: &Api, key: &TestKey, id: &str) -> Value {
    let reply = send(api.dev_as(&key.key, Method::GET, &format!("/api/receipts/{id}"))).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

pub(crate) async fn wait_for_status(api: &Api, key: &TestKey, id: &str, status: &str) -> Value {
    eventually(&format!("receipt {id} to become {status}"), WAIT, || async {
        let receipt = read(api, key, id).await;
        (receipt["status"] == status).then_some(receipt)
    })
    .await
}

#[tokio::test]
async fn a_payment_to_the_deposit_address_makes_the_receipt_paid_then_completed_with_the_split_paid_exactly()
{
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = receipt(&api, &merchant.key, "tea-1", 12.37).await;

    let transaction = api.app.chain().pay(deposit, amount).await;

    let completed = wait_for_status(&api, &merchant.key, "tea-1", "completed").await;
    assert_eq!(completed["transactionHash"], transaction.as_str());
    assert_eq!(completed["buyerWallet"], SIMULATED_BUYER);
    let chain = api.app.chain();
    let platform = chain.balance(Wallet::parse(PLATFORM).unwrap()).await;
    let owner = chain.balance(merchant.admin.wallet).await;
    assert_eq!(
        platform,
        amount * 50 / 10_000,
        "the platform's 0.5%, rounded down"
    );
    assert_eq!(
        owner + platform,
        amount,
        "the recipients' parts sum exactly to the payment"
    );
    assert_eq!(
        chain.balance(deposit).await,
        0,
        "the deposit was forwarded in full"
    );
}

#[tokio::test]
async fn the_payment_pages_simulate_button_pays_through_the_same_detection_path() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = receipt(&api, &merchant.key, "tea-2", 4.0).await;
    let page = format!("/portal/tea-2/simulate?merchant={}", merchant.key.wallet);
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();

    let pressed = no_redirects.post(api.app.url(&page)).send().await.unwrap();

    assert_eq!(pressed.status(), 303);
    let completed = wait_for_status(&api, &merchant.key, "tea-2", "completed").await;
    assert_eq!(completed["buyerWallet"], SIMULATED_BUYER);
    assert_eq!(api.app.chain().balance(deposit).await, 0);
    assert!(amount > 0);
}

#[tokio::test]
async fn an_underpayment_is_recorded_but_never_paid_and_the_rest_completes_it() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = receipt(&api, &merchant.key, "tea-3", 10.0).await;
    let chain = api.app.chain();

    chain.pay(deposit, amount - 1).await;
    chain.mine(3);
    tokio::time::sleep(Duration::from_millis(300)).await;

    assert_ne!(read(&api, &merchant.key, "tea-3").await["status"], "paid");
    chain.pay(deposit, 1).await;
    wait_for_status(&api, &merchant.key, "tea-3", "completed").await;
}

#[tokio::test]
async fn a_transfer_is_not_counted_before_its_confirmations() {
    let api = Api::spawn_with(TestOptions {
        confirmations: Some(3),
        ..TestOptions::default()
    })
    .await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = receipt(&api, &merchant.key, "tea-4", 2.5).await;
    let chain = api.app.chain();

    chain.pay(deposit, amount).await;
    chain.mine(2);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        read(&api, &merchant.key, "tea-4").await["status"],
        "pending",
        "still unpaid"
    );

    chain.mine(1);
    wait_for_status(&api, &merchant.key, "tea-4", "completed").await;
}

#[tokio::test]
async fn a_transfer_reorganised_away_before_confirmation_never_makes_the_receipt_paid() {
    let api = Api::spawn_with(TestOptions {
        confirmations: Some(2),
        ..TestOptions::default()
    })
    .await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = receipt(&api, &merchant.key, "tea-5", 6.0).await;
    let chain = api.app.chain();
    let before = chain.snapshot();

    chain.pay(deposit, amount).await;
    chain.mine(1);
    chain.revert(before);
    chain.mine(5);
    tokio::time::sleep(Duration::from_millis(400)).await;

    assert_eq!(
        read(&api, &merchant.key, "tea-5").await["status"],
        "pending",
        "still unpaid"
    );
    assert_eq!(chain.balance(deposit).await, 0);
}

#[tokio::test]
async fn a_restart_between_the_transfer_and_its_confirmation_loses_nothing() {
    let api = Api::spawn_with(TestOptions {
        confirmations: Some(2),
        ..TestOptions::default()
    })
    .await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = receipt(&api, &merchant.key, "tea-6", 8.0).await;
    let chain = api.app.chain();
    chain.pay(deposit, amount).await;

    let api = Api::from_app(api.app.restart(false).await);
    chain.mine(2);

    let completed = wait_for_status(&api, &merchant.key, "tea-6", "completed").await;
    assert_eq!(completed["buyerWallet"], SIMULATED_BUYER);
}

#[tokio::test]
async fn outside_test_mode_paid_and_completed_cannot_be_posted_by_an_admin() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "tea-7", 1.0).await;
    let api = Api::from_app(api.app.restart_on_a_node("http://127.0.0.1:9").await);
    // The merchant's sk_test_ key is refused by the server now on a real chain: a live one reads.
    let live = api.app.create_key(merchant.key.wallet, "receipts:read").await;

    for status in ["paid", "completed"] {
        let reply = send(
            crate::admin_helpers::admin(&api, &merchant.admin, Method::POST, "/api/receipts/status").json(
                &json!({
                    "receiptId": "tea-7", "wallet": merchant.key.wallet, "status": status
                }),
            ),
        )
        .await;
        assert_eq!(reply.status, 403, "{status}: {}", reply.json);
        assert_eq!(reply.json["error"], "forbidden");
    }
    assert_eq!(
        read(&api, &live, "tea-7").await["status"],
        "pending",
        "still unpaid"
    );
}

#[tokio::test]
async fn a_failed_settlement_shows_on_the_paid_receipt_and_is_retried_after_its_backoff() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = receipt(&api, &merchant.key, "tea-8", 3.0).await;
    let chain = api.app.chain();
    chain.fail_relayer_transactions(true);

    chain.pay(deposit, amount).await;

    let failed = eventually("a failed settlement attempt", WAIT, || async {
        let receipt = read(&api, &merchant.key, "tea-8").await;
        (receipt["settlement"]["failedAttempts"] == 1).then_some(receipt)
    })
    .await;
    assert_eq!(failed["status"], "paid");
    assert!(
        failed["settlement"]["lastError"]
            .as_str()
            .unwrap()
            .contains("refused"),
        "{failed}"
    );
    assert_eq!(
        failed["settlement"]["nextAttemptAt"],
        payments_server::testing::TEST_START_MS + 5_000,
        "first retry after 5 s"
    );
    chain.fail_relayer_transactions(false);
    api.app.clock.advance(Duration::from_secs(5));
    let completed = wait_for_status(&api, &merchant.key, "tea-8", "completed").await;
    assert!(completed.get("settlement").is_none(), "{completed}");
    assert_eq!(chain.balance(deposit).await, 0);
}

#[tokio::test]
async fn without_an_answering_node_chain_checks_answer_503_and_change_nothing() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "tea-9", 1.0).await;
    let api = Api::from_app(api.app.restart_on_a_node("http://127.0.0.1:9/v3/SECRETKEY").await);
    // The merchant's sk_test_ key is refused by the server now on a real chain: a live one claims.
    let live = api
        .app
        .create_key(merchant.key.wallet, "receipts:read,receipts:write,split:read")
        .await;
    let claim = |hash: &str| {
        api.dev_as(&live.key, Method::POST, "/api/receipts/status").json(&json!({
            "receiptId": "tea-9", "wallet": merchant.key.wallet, "status": "checkout_success", "transactionHash": hash
        }))
    };

    let malformed = send(claim("0xnot-a-hash")).await;
    let unanswered = send(claim(&format!("0x{}", "ab".repeat(32)))).await;
    let given_split = send(
        crate::admin_helpers::admin(&api, &merchant.admin, Method::POST, "/api/split/deploy").json(&json!({
            "replace": true,
            "splitAddress": "0x7777777777777777777777777777777777777777",
            "recipients": [
                {"address": merchant.admin.wallet, "sharesBps": 9950},
                {"address": PLATFORM, "sharesBps": 50},
            ]
        })),
    )
    .await;
    let simulate = api
        .anonymous(
            Method::POST,
            &format!("/portal/tea-9/simulate?merchant={}", merchant.key.wallet),
        )
        .send()
        .await
        .unwrap();

    assert_eq!(malformed.status, 400, "{}", malformed.json);
    assert_eq!(malformed.json["field"], "transactionHash");
    assert_eq!(unanswered.status, 503, "{}", unanswered.json);
    assert_eq!(unanswered.json["error"], "chain_unavailable");
    assert_eq!(unanswered.header("retry-after"), "5");
    assert!(!unanswered.json.to_string().contains("SECRETKEY"));
    assert_eq!(given_split.status, 503, "{}", given_split.json);
    assert_eq!(given_split.json["error"], "chain_unavailable");
    assert_eq!(simulate.status(), 404, "a real chain has no simulated payments");
    assert_eq!(
        read(&api, &live, "tea-9").await["status"],
        "pending",
        "nothing changed"
    );
    let split = send(
        api.anonymous(Method::GET, "/api/split/deploy")
            .header(crate::helpers::KEY_HEADER, live.key.as_str()),
    )
    .await;
    assert_ne!(
        split.json["splitAddress"]
            .as_str()
            .map(str::to_lowercase)
            .as_deref(),
        Some("0x7777777777777777777777777777777777777777"),
        "{}",
        split.json
    );
}
