//! The payment page's script endpoints on the test-mode chain: the status it polls, the buyer's steps it
//! records, the transaction hash it posts (verified on chain: a hash that pays another receipt records
//! nothing), and the script itself, served first-party under the page's CSP.

use std::time::Duration;

use payments_server::testing::{TestKey, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, Reply, send};
use crate::orders::merchant_with_split;

const BUYER: &str = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

/// A $4.00 receipt; returns its deposit address and amount in base units.
async fn receipt(api: &Api, key: &TestKey, id: &str) -> (payments_core::Wallet, u128) {
    let body = json!({
        "id": id,
        "lineItems": [{"label": "Tea", "priceUsd": 4.0}],
        "totalUsd": 4.0,
        "redirect_url": "https://shop.example/done",
    });
    let created = send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let read = send(api.dev_as(&key.key, Method::GET, &format!("/api/receipts/{id}"))).await;
    let payment = &read.json["payment"];
    (
        payments_core::Wallet::parse(payment["to"].as_str().unwrap()).unwrap(),
        payment["amount"].as_str().unwrap().parse().unwrap(),
    )
}

fn page(key: &TestKey, id: &str, rest: &str) -> String {
    format!("/portal/{id}{rest}?merchant={}", key.wallet)
}

async fn status(api: &Api, key: &TestKey, id: &str) -> Value {
    let reply = send(api.anonymous(Method::GET, &page(key, id, "/status"))).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

async fn post(api: &Api, path: &str, body: Value) -> Reply {
    send(api.anonymous(Method::POST, path).json(&body)).await
}

async fn receipt_status(api: &Api, key: &TestKey, id: &str) -> Value {
    send(api.dev_as(&key.key, Method::GET, &format!("/api/receipts/{id}")))
        .await
        .json["status"]
        .clone()
}

#[tokio::test]
async fn the_status_endpoint_says_paid_with_the_transaction_and_the_way_back_to_the_shop() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = receipt(&api, &merchant.key, "live-1").await;

    let unpaid = status(&api, &merchant.key, "live-1").await;
    assert_eq!(
        unpaid,
        json!({"status": "pending", "label": "Awaiting payment", "tone": "info", "settled": false,
               "submitted": false, "message": "", "transactionHash": null, "redirectUrl": null})
    );
    let hash = api.app.chain().pay(deposit, amount).await;

    let paid = eventually("the page status to settle", Duration::from_secs(10), || async {
        let now = status(&api, &merchant.key, "live-1").await;
        (now["settled"] == true).then_some(now)
    })
    .await;
    assert_eq!(paid["label"], "Paid");
    assert_eq!(paid["transactionHash"], hash.as_str());
    assert_eq!(paid["redirectUrl"], "https://shop.example/done");
    assert_eq!(paid["message"], "Your payment of $4.00 was received. Thank you.");
}

#[tokio::test]
async fn connecting_a_wallet_and_pressing_pay_record_the_buyers_steps() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "live-2").await;
    let events = page(&merchant.key, "live-2", "/events");

    let connected = post(
        &api,
        &events,
        json!({"status": "buyer_logged_in", "wallet": BUYER}),
    )
    .await;
    assert_eq!(connected.status, 200, "{}", connected.json);
    assert_eq!(
        receipt_status(&api, &merchant.key, "live-2").await,
        "buyer_logged_in"
    );
    let started = post(
        &api,
        &events,
        json!({"status": "checkout_initialized", "wallet": BUYER}),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.json);
    assert_eq!(started.json["status"], "checkout_initialized");

    for (body, field) in [
        (json!({"status": "paid", "wallet": BUYER}), "status"),
        (json!({"status": "buyer_logged_in", "wallet": "0x12"}), "wallet"),
    ] {
        let refused = post(&api, &events, body).await;
        assert_eq!(refused.status, 400, "{}", refused.json);
        assert_eq!(refused.json["error"], "invalid_input");
        assert_eq!(refused.json["field"], field);
    }
    assert_eq!(
        receipt_status(&api, &merchant.key, "live-2").await,
        "checkout_initialized"
    );
    let unknown = post(
        &api,
        &page(&merchant.key, "nope", "/events"),
        json!({"status": "buyer_logged_in", "wallet": BUYER}),
    )
    .await;
    assert_eq!(unknown.status, 404, "{}", unknown.json);
}

#[tokio::test]
async fn a_hash_is_recorded_only_for_the_receipt_whose_deposit_it_pays() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "live-3").await;
    let (other_deposit, amount) = receipt(&api, &merchant.key, "live-4").await;
    let hash = api.app.chain().pay(other_deposit, amount).await;

    let forged = post(
        &api,
        &page(&merchant.key, "live-3", "/payment"),
        json!({"transactionHash": hash}),
    )
    .await;
    assert_eq!(forged.status, 400, "{}", forged.json);
    assert_eq!(forged.json["field"], "transactionHash");
    assert_eq!(receipt_status(&api, &merchant.key, "live-3").await, "pending");

    let genuine = post(
        &api,
        &page(&merchant.key, "live-4", "/payment"),
        json!({"transactionHash": hash}),
    )
    .await;
    assert_eq!(genuine.status, 200, "{}", genuine.json);
}

#[tokio::test]
async fn the_script_is_served_first_party_and_the_page_allows_only_it() {
    let api = Api::spawn().await;
    let response = api
        .anonymous(Method::GET, "/portal/assets/checkout.js")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    let script = response.text().await.unwrap();
    assert!(script.contains("window.PaymentsWallet"));
    let shared = api
        .anonymous(Method::GET, "/portal/assets/wallet.js")
        .send()
        .await
        .unwrap();
    assert_eq!(shared.status(), 200);
    assert!(shared.text().await.unwrap().contains("eip6963:requestProvider"));

    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "live-5").await;
    let (_, headers, html) = crate::portal::open_page(&api, &page(&merchant.key, "live-5", "")).await;
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(
        policy.contains("script-src 'self'; connect-src 'self';"),
        "{policy}"
    );
    assert!(!policy.contains("unsafe"), "{policy}");
    assert!(html.contains(
        "<script src=\"assets/wallet.js\" defer></script>\n<script src=\"assets/checkout.js\" defer></script>"
    ));
}

#[tokio::test]
async fn a_test_mode_server_names_its_test_chain_never_mainnet() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "live-6").await;
    let read = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts/live-6")).await;
    assert_eq!(read.json["payment"]["chainId"], 31337, "{}", read.json);
    assert_ne!(
        read.json["payment"]["token"]
            .as_str()
            .map(str::to_lowercase)
            .as_deref(),
        Some("0x833589fcd6edb6e08f4c7c32d4f71b54bda02913")
    );
}

#[tokio::test]
async fn the_pages_writes_are_rate_limited_per_client_address() {
    let api = Api::spawn_with(payments_server::testing::TestOptions {
        rate_limit_per_minute: std::num::NonZeroU32::new(2),
        ..Default::default()
    })
    .await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "live-7").await;
    let events = page(&merchant.key, "live-7", "/events");
    let body = json!({"status": "buyer_logged_in", "wallet": BUYER});

    for _ in 0..2 {
        assert_eq!(post(&api, &events, body.clone()).await.status, 200);
    }
    let limited = post(
        &api,
        &page(&merchant.key, "live-7", "/payment"),
        json!({"transactionHash": "0x00"}),
    )
    .await;

    assert_eq!(limited.status, 429, "{}", limited.json);
    assert_eq!(limited.json["error"], "rate_limited");
    assert_eq!(
        status(&api, &merchant.key, "live-7").await["status"],
        "buyer_logged_in"
    );
}
