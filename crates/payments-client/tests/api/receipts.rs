//! Orders and receipts: create, list, read, status read/post, webhook log and redelivery.

use payments_client::{
    CreateOrder, CreateReceipt, ErrorCode, OrderItem, PostStatus, ReceiptBalance, ReceiptLine,
};
use payments_core::{Cents, ReceiptStatus};
use payments_server::testing::spawn_app;

use crate::helpers::{client, receipt_with_deposit};

fn lines() -> Vec<ReceiptLine> {
    vec![
        ReceiptLine {
            label: "Coffee".to_owned(),
            price_usd: Cents::new(350),
            qty: None,
        },
        ReceiptLine {
            label: "Cake".to_owned(),
            price_usd: Cents::new(425),
            qty: Some(1),
        },
    ]
}

#[tokio::test]
async fn a_created_receipt_reads_back_in_list_show_and_status() {
    let app = spawn_app().await;
    let client = client(&app);

    let created = client
        .create_receipt(&CreateReceipt::new("r-1", lines()))
        .await
        .unwrap();
    let listed = client.list_receipts(Some(10)).await.unwrap();
    let shown = client.get_receipt("r-1").await.unwrap();
    let status = client.receipt_status("r-1").await.unwrap();

    assert_eq!(created.id, "r-1");
    assert_eq!(created.status, ReceiptStatus::Pending);
    assert!(
        created.payment_url.contains("/portal/r-1"),
        "{}",
        created.payment_url
    );
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].receipt_id, "r-1");
    assert_eq!(shown.total_usd, Cents::new(775));
    assert_eq!(shown.line_items.len(), 2);
    assert_eq!(shown.line_items[0].label, "Coffee");
    assert_eq!(status.amount, Cents::new(775));
    assert_eq!(status.status, ReceiptStatus::Pending);
}

#[tokio::test]
async fn a_receipt_with_a_deposit_address_reads_its_balance_to_the_base_unit() {
    let app = spawn_app().await;
    let client = receipt_with_deposit(&app, "r-2", lines()).await;
    let shown = client.get_receipt("r-2").await.unwrap();
    let status = client.receipt_status("r-2").await.unwrap();

    let due =
        |balance: Option<ReceiptBalance>| balance.map(|b| (b.received.base_units(), b.due.base_units()));
    assert_eq!(
        due(shown.balance),
        Some((0, 7_750_000)),
        "nothing received: the whole total is due"
    );
    assert_eq!(due(status.balance), Some((0, 7_750_000)));
}

#[tokio::test]
async fn a_receipt_paid_on_chain_reads_the_block_depth_and_finality_of_its_payment() {
    let app = spawn_app().await;
    let client = receipt_with_deposit(&app, "r-3", lines()).await;
    let unpaid = client.get_receipt("r-3").await.unwrap();
    let instruction = unpaid.payment.clone().unwrap();

    app.chain()
        .pay(instruction.to, instruction.amount.parse().unwrap())
        .await;
    app.chain().mine(2);
    let block = payments_server::testing::eventually(
        "the payment's block",
        std::time::Duration::from_secs(10),
        || async {
            let shown = client.get_receipt("r-3").await.unwrap();
            shown.payment?.block.filter(|block| block.confirmations >= 2)
        },
    )
    .await;

    assert_eq!(instruction.block, None, "nothing paid yet");
    assert!(block.block_number > 0);
    assert_eq!(block.block_hash.len(), 66);
    assert!(!block.finalized, "64 blocks from final on the test-mode chain");
}

#[tokio::test]
async fn a_tracking_status_post_moves_the_receipt() {
    let app = spawn_app().await;
    let client = client(&app);
    client
        .create_receipt(&CreateReceipt::new("r-2", lines()))
        .await
        .unwrap();

    let posted = client
        .post_receipt_status(&PostStatus::new("r-2", app.wallet, ReceiptStatus::LinkOpened))
        .await
        .unwrap();

    assert_eq!(posted.status, ReceiptStatus::LinkOpened);
    assert_eq!(posted.previous_status, Some(ReceiptStatus::Pending.into()));
    assert!(!posted.ignored);
    assert_eq!(
        client.receipt_status("r-2").await.unwrap().status,
        ReceiptStatus::LinkOpened
    );
}

#[tokio::test]
async fn the_webhook_log_of_a_receipt_without_target_is_empty_and_unknown_deliveries_are_not_found() {
    let app = spawn_app().await;
    let client = client(&app);
    client
        .create_receipt(&CreateReceipt::new("r-3", lines()))
        .await
        .unwrap();

    let log = client.receipt_webhooks("r-3").await.unwrap();
    let redeliver = client
        .redeliver_webhook("r-3", "no-such-delivery")
        .await
        .unwrap_err();
    let missing = client.get_receipt("nope").await.unwrap_err();

    assert!(log.is_empty());
    assert_eq!(redeliver.code(), Some(ErrorCode::NotFound));
    assert_eq!(missing.code(), Some(ErrorCode::NotFound));
}

#[tokio::test]
async fn an_order_without_a_split_is_refused_with_a_typed_error() {
    let app = spawn_app().await;

    let error = client(&app)
        .create_order(&CreateOrder::new(vec![OrderItem::sku("MUG-1", 1)]))
        .await
        .unwrap_err();

    assert!(error.code().is_some(), "{error:?}");
    assert!(error.to_string().contains("split"), "{error}");
}
