//! `payments split transactions` and `payments reserve balances|recommend` against a server whose test-mode
//! chain settled a receipt paid with the payment page's simulate button.

// Helpers here are test code too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use payments_client::{AdminRole, AdminSession, CreateReceipt, DeploySplit, ReceiptLine};
use payments_core::{Cents, ReceiptStatus};
use payments_server::testing::{TestApp, TestKey, eventually, spawn_app};
use serde_json::Value;

use crate::helpers::{client_with_key, payments_with_key};

/// The merchant admin's key, with the default split (99.50 % / 0.50 %) deployed.
pub(crate) async fn merchant_with_split(app: &TestApp) -> TestKey {
    let (admin, key) = app.merchant_admin().await;
    let client = client_with_key(app, &key.key);
    let token = admin.cookie.strip_prefix("cb_auth_token=").unwrap();
    let session =
        AdminSession::from_tokens(admin.wallet, vec![AdminRole::Merchant], token, &admin.csrf_token).unwrap();
    client
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    key
}

/// The merchant admin's default split (99.50 % / 0.50 %) and a settled 7.75 USD receipt `coffee-1`.
async fn settled(app: &TestApp) -> TestKey {
    let key = merchant_with_split(app).await;
    let client = client_with_key(app, &key.key);
    let line = ReceiptLine {
        label: "Coffee".to_owned(),
        price_usd: Cents::new(775),
        qty: None,
    };
    client
        .create_receipt(&CreateReceipt::new("coffee-1", vec![line]))
        .await
        .unwrap();
    let button = app.url(&format!("/portal/coffee-1/simulate?merchant={}", key.wallet));
    let pressed = reqwest::Client::new().post(button).send().await.unwrap();
    assert!(pressed.status().is_success(), "{}", pressed.status());
    eventually("the receipt to be completed", Duration::from_secs(20), || async {
        let read = client.get_receipt("coffee-1").await.unwrap();
        (read.status == ReceiptStatus::Completed).then_some(())
    })
    .await;
    key
}

#[tokio::test(flavor = "multi_thread")]
async fn split_transactions_prints_the_payout_then_the_inflow_with_exact_amounts() {
    let app = spawn_app().await;
    let key = settled(&app).await;

    let table = payments_with_key(&app, Some(&key.key), &["split", "transactions"]).await;
    let paged = payments_with_key(&app, Some(&key.key), &["split", "transactions", "--limit", "1"]).await;
    let all = payments_with_key(
        &app,
        Some(&key.key),
        &["split", "transactions", "--limit", "1", "--all", "--json"],
    )
    .await;

    assert_eq!(table.code, 0, "{table:?}");
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", table.stdout);
    assert!(lines[0].starts_with("TIME"), "{}", table.stdout);
    assert!(
        lines[1].starts_with("2023-11-14T22:13:20Z  distributed  7.75    0.03875  -         0x"),
        "{}",
        table.stdout
    );
    assert!(
        lines[2].starts_with("2023-11-14T22:13:20Z  received     7.75    0.03875  coffee-1  0x"),
        "{}",
        table.stdout
    );
    assert!(
        paged.stdout.contains("\nnext page: --cursor "),
        "{}",
        paged.stdout
    );
    assert_eq!(all.code, 0, "{all:?}");
    let listing: Value = serde_json::from_str(&all.stdout).unwrap();
    assert_eq!(listing["transactions"].as_array().unwrap().len(), 2);
    assert_eq!(listing["transactions"][1]["receiptId"], "coffee-1");
    assert_eq!(listing["nextCursor"], Value::Null);
}

#[tokio::test(flavor = "multi_thread")]
async fn reserve_balances_and_recommend_print_the_chain_balances_and_the_rule() {
    let app = spawn_app().await;
    let key = settled(&app).await;

    let balances = payments_with_key(&app, Some(&key.key), &["reserve", "balances"]).await;
    let json = payments_with_key(&app, Some(&key.key), &["reserve", "balances", "--json"]).await;
    let advice = payments_with_key(&app, Some(&key.key), &["reserve", "recommend"]).await;

    assert_eq!(balances.code, 0, "{balances:?}");
    assert!(
        balances
            .stdout
            .contains(&format!("wallet  {}  7.71125\n", key.wallet)),
        "{}",
        balances.stdout
    );
    assert!(balances.stdout.contains("  0.00\n"), "{}", balances.stdout);
    let parsed: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(parsed["wallet"]["balance"], "7711250");
    assert_eq!(advice.code, 0, "{advice:?}");
    assert!(
        advice.stdout.contains("recommended reserve  0.39\n"),
        "{}",
        advice.stdout
    );
    assert!(
        advice.stdout.contains("decided by           paid_floor\n"),
        "{}",
        advice.stdout
    );
    assert!(
        advice.stdout.contains("paid x 5.00 %        0.39\n"),
        "{}",
        advice.stdout
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_cursor_is_refused_with_the_services_code_and_exit_1() {
    let app = spawn_app().await;

    let run = payments_with_key(
        &app,
        Some(&app.key),
        &["split", "transactions", "--cursor", "nope"],
    )
    .await;

    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr.starts_with("error: invalid_input: cursor: "),
        "{}",
        run.stderr
    );
}
