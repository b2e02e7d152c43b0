//! `split_transactions()`, `reserve_balances()` and `reserve_recommendation()` against a server whose
//! test-mode chain settled a receipt paid with the payment page's simulate button.

// Helpers here are test code too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use payments_client::{
    Client, CreateReceipt, DeploySplit, ErrorCode, ReceiptLine, ReserveBasis, SplitTransactionStatus,
    SplitTransactionsQuery,
};
use payments_core::{Cents, ReceiptStatus, TokenAmount};
use payments_server::testing::{TestApp, eventually, spawn_app};

use crate::helpers::{client_with_key, signed_in_merchant};

/// Configures the default split (99.50 % merchant, 0.50 % platform), sells 7.75 USD as receipt `id`, pays
/// it on the test-mode chain and waits until it is settled.
async fn settled_merchant(app: &TestApp, id: &str) -> Client {
    let (client, session) = signed_in_merchant(app).await;
    client
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    let line = ReceiptLine {
        label: "Coffee".to_owned(),
        price_usd: Cents::new(775),
        qty: None,
    };
    let receipt = CreateReceipt::new(id, vec![line]);
    client.create_receipt(&receipt).await.unwrap();
    let wallet = session.wallet();
    let button = app.url(&format!("/portal/{id}/simulate?merchant={wallet}"));
    let pressed = reqwest::Client::new().post(button).send().await.unwrap();
    assert!(pressed.status().is_success(), "{}", pressed.status());
    eventually("the receipt to be completed", Duration::from_secs(20), || async {
        let read = client.get_receipt(id).await.unwrap();
        (read.status == ReceiptStatus::Completed).then_some(())
    })
    .await;
    client
}

#[tokio::test]
async fn split_transactions_decode_exact_amounts_and_follow_the_cursor() {
    let app = spawn_app().await;
    let client = settled_merchant(&app, "coffee-1").await;

    let all = client
        .split_transactions(&SplitTransactionsQuery::new())
        .await
        .unwrap();
    let first = client
        .split_transactions(&SplitTransactionsQuery::new().limit(1))
        .await
        .unwrap();
    let cursor = first.next_cursor.clone().unwrap();
    let second = client
        .split_transactions(&SplitTransactionsQuery::new().limit(1).cursor(cursor))
        .await
        .unwrap();

    assert_eq!(all.transactions.len(), 2);
    assert_eq!(all.next_cursor, None);
    let (payout, inflow) = (&all.transactions[0], &all.transactions[1]);
    assert_eq!(payout.status, SplitTransactionStatus::Distributed);
    assert_eq!(payout.amount, TokenAmount::from_base_units(7_750_000));
    assert_eq!(payout.fees, TokenAmount::from_base_units(38_750));
    assert_eq!(inflow.status, SplitTransactionStatus::Received);
    assert_eq!(inflow.receipt_id, "coffee-1");
    assert_eq!(first.transactions, vec![payout.clone()]);
    assert_eq!(second.transactions, vec![inflow.clone()]);
}

#[tokio::test]
async fn reserve_balances_and_recommendation_read_back_typed() {
    let app = spawn_app().await;
    let client = settled_merchant(&app, "coffee-1").await;

    let balances = client.reserve_balances().await.unwrap();
    let advice = client.reserve_recommendation().await.unwrap();

    assert_eq!(balances.split.unwrap().balance, TokenAmount::from_base_units(0));
    assert_eq!(balances.wallet.balance, TokenAmount::from_base_units(7_711_250));
    assert_eq!(advice.paid_usd, Cents::new(775));
    assert_eq!(advice.recommended_usd, Cents::new(39));
    assert_eq!(advice.recommended_amount, TokenAmount::from_base_units(390_000));
    assert_eq!(advice.basis, ReserveBasis::PaidFloor);
}

#[tokio::test]
async fn the_new_reads_need_the_split_read_scope_and_a_valid_cursor() {
    let app = spawn_app().await;
    let reader = app.create_key(app.wallet, "receipts:read").await;
    let limited = client_with_key(&app, &reader.key);
    let full = client_with_key(&app, &app.key);

    let transactions = limited.split_transactions(&SplitTransactionsQuery::new()).await;
    let balances = limited.reserve_balances().await;
    let bad_cursor = full
        .split_transactions(&SplitTransactionsQuery::new().cursor("not-a-cursor"))
        .await
        .unwrap_err();

    assert_eq!(transactions.unwrap_err().code(), Some(ErrorCode::Forbidden));
    assert_eq!(balances.unwrap_err().code(), Some(ErrorCode::Forbidden));
    assert_eq!(bad_cursor.code(), Some(ErrorCode::InvalidInput));
}
