//! `payments receipts transfers ID` against a server whose test-mode chain saw an underpayment and a
//! transfer of another token to the receipt's deposit address.

// Helpers here are test code too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use payments_client::{CreateReceipt, ReceiptLine};
use payments_core::Cents;
use payments_server::testing::{eventually, spawn_app, test_wallet};
use serde_json::Value;

use crate::helpers::{client_with_key, payments_with_key};
use crate::reserve::merchant_with_split;

#[tokio::test(flavor = "multi_thread")]
async fn transfers_prints_what_the_deposit_received_and_what_is_missing() {
    let app = spawn_app().await;
    let key = merchant_with_split(&app).await;
    let client = client_with_key(&app, &key.key);
    let line = ReceiptLine {
        label: "Tea".to_owned(),
        price_usd: Cents::new(1000),
        qty: None,
    };
    client
        .create_receipt(&CreateReceipt::new("tea-1", vec![line]))
        .await
        .unwrap();
    let deposit = client.get_receipt("tea-1").await.unwrap().payment.unwrap().to;
    let chain = app.chain();
    chain.pay(deposit, 2_500_000).await;
    chain.pay_in(test_wallet(0x77), deposit, 9_000_000).await;
    eventually("both transfers recorded", Duration::from_secs(10), || async {
        let listed = client.receipt_transfers("tea-1").await.unwrap();
        (listed.transfers.len() == 2).then_some(())
    })
    .await;

    let table = payments_with_key(&app, Some(&key.key), &["receipts", "transfers", "tea-1"]).await;
    let json = payments_with_key(
        &app,
        Some(&key.key),
        &["receipts", "transfers", "tea-1", "--json"],
    )
    .await;

    assert_eq!(table.code, 0, "{table:?}");
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert_eq!(
        lines[0], "receipt tea-1: received 2.50 USD, missing 7.50 USD",
        "{}",
        table.stdout
    );
    assert!(lines[1].starts_with("BLOCK"), "{}", table.stdout);
    assert!(
        lines[2].contains(" 2.50 ") && lines[2].contains(" yes "),
        "{}",
        table.stdout
    );
    assert!(
        lines[3].contains(" 9000000 units ") && lines[3].contains(" no "),
        "another token is never shown as dollars: {}",
        table.stdout
    );
    assert_eq!(json.code, 0, "{json:?}");
    let parsed: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(parsed["missing"], "7500000");
    assert_eq!(parsed["transfers"][1]["counted"], false);
}
