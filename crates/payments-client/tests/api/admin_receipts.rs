//! Admin receipt routes through the client: an order priced with tax and fee, marked paid by the admin,
//! refunded in two parts (never beyond what was paid), and terminal sales.

use payments_client::{DeploySplit, Error, ErrorCode, PostStatus, ReceiptLine, RefundReceipt, TerminalSale};
use payments_core::{Cents, ReceiptStatus, TaxRate, Wallet};
use payments_server::testing::{TEST_ADMIN_WALLET, TestOptions, spawn_app, spawn_app_with};

use crate::helpers::{order_of_two_mugs, signed_in_merchant, test_buyer};

fn tx(byte: &str) -> String {
    format!("0x{}", byte.repeat(32))
}

/// A refund transfer of `cents` to the test buyer on the server's test-mode chain; its transaction hash.
async fn refund_sent(app: &payments_server::testing::TestApp, cents: u128) -> String {
    app.chain().pay(test_buyer(), cents * 10_000).await
}

fn api_error<T: std::fmt::Debug>(result: Result<T, Error>) -> payments_client::ApiError {
    match result {
        Err(Error::Api(api)) => *api,
        other => panic!("expected an API error, got {other:?}"),
    }
}

#[tokio::test]
async fn an_order_paid_by_admin_attestation_is_refunded_in_parts_but_never_beyond_the_paid_amount() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let merchant = session.wallet();

    let order = order_of_two_mugs(&client, &session).await;
    let id = order.receipt_id.clone();
    let paid = client
        .post_receipt_status_as_admin(
            &session,
            &PostStatus::new(&id, merchant, ReceiptStatus::Paid).transaction_hash(tx("ab")),
        )
        .await
        .unwrap();
    let sent = [
        refund_sent(&app, 1000).await,
        refund_sent(&app, 3489).await,
        refund_sent(&app, 3488).await,
    ];
    let refund = |usd: i64, hash: &str| {
        RefundReceipt::new(&id, merchant, test_buyer(), Cents::new(usd), hash).items(vec![ReceiptLine {
            label: "Blue mug".to_owned(),
            price_usd: Cents::new(usd),
            qty: Some(1),
        }])
    };
    let partial = client
        .refund_receipt(&session, &refund(1000, &sent[0]))
        .await
        .unwrap();
    let too_much = api_error(client.refund_receipt(&session, &refund(3489, &sent[1])).await);
    let rest = client
        .refund_receipt(&session, &refund(3488, &sent[2]))
        .await
        .unwrap();

    assert_eq!(order.status, ReceiptStatus::Generated);
    assert!(order.receipt_id.starts_with("rcpt_"), "{}", order.receipt_id);
    let labels: Vec<&str> = order.line_items.iter().map(|line| line.label.as_str()).collect();
    assert_eq!(labels, ["Blue mug", "Tax", "Processing Fee"]);
    assert_eq!(order.line_items[0].qty, Some(2));
    assert_eq!(
        (order.subtotal_usd, order.tax_usd, order.fee_usd, order.total_usd),
        (
            Cents::new(4000),
            Cents::new(400),
            Cents::new(88),
            Cents::new(4488)
        )
    );
    assert_eq!(
        (paid.status, paid.previous_status),
        (ReceiptStatus::Paid.into(), Some(ReceiptStatus::Generated.into()))
    );
    assert_eq!(
        (partial.status, partial.previous_status),
        (
            ReceiptStatus::RefundPartial.into(),
            Some(ReceiptStatus::Paid.into())
        )
    );
    assert_eq!(
        (too_much.status, too_much.code.known()),
        (400, Some(ErrorCode::InvalidUsd))
    );
    assert!(too_much.message.contains("34.88"), "{}", too_much.message);
    assert!(too_much.correlation_id.is_some());
    assert_eq!(
        (rest.status, rest.previous_status),
        (
            ReceiptStatus::Refunded.into(),
            Some(ReceiptStatus::RefundPartial.into())
        )
    );
    let status = client.receipt_status(&id).await.unwrap();
    assert_eq!(status.status, ReceiptStatus::Refunded);
    assert_eq!(status.transaction_hash, Some(tx("ab")));
}

#[tokio::test]
async fn a_refund_resent_with_its_idempotency_key_is_replayed_not_repeated() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let order = order_of_two_mugs(&client, &session).await;
    let paid = PostStatus::new(&order.receipt_id, session.wallet(), ReceiptStatus::Paid);
    client
        .post_receipt_status_as_admin(&session, &paid)
        .await
        .unwrap();
    let refund = RefundReceipt::new(
        &order.receipt_id,
        session.wallet(),
        test_buyer(),
        Cents::new(3000),
        refund_sent(&app, 3000).await,
    )
    .idempotency_key("refund-1");

    let first = client.refund_receipt(&session, &refund).await.unwrap();
    let resent = client.refund_receipt(&session, &refund).await.unwrap();
    let another = client
        .refund_receipt(&session, &refund.clone().idempotency_key("refund-2"))
        .await;

    assert_eq!(first, resent);
    assert_eq!(first.status, ReceiptStatus::RefundPartial);
    let another = api_error(another);
    assert_eq!(
        (another.status, another.code.known()),
        (409, Some(ErrorCode::RefundTxReused)),
        "another key cannot spend the same transaction twice"
    );
}

#[tokio::test]
async fn sensitive_statuses_and_refunds_of_unpaid_receipts_are_refused() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let order = order_of_two_mugs(&client, &session).await;
    let paid = PostStatus::new(&order.receipt_id, session.wallet(), ReceiptStatus::Paid);
    let refund = RefundReceipt::new(
        &order.receipt_id,
        session.wallet(),
        test_buyer(),
        Cents::new(100),
        refund_sent(&app, 100).await,
    );

    let with_key = api_error(client.post_receipt_status(&paid).await);
    let unpaid = api_error(client.refund_receipt(&session, &refund).await);

    assert_eq!(
        (with_key.status, with_key.code.known()),
        (401, Some(ErrorCode::Unauthorized))
    );
    assert_eq!(
        (unpaid.status, unpaid.code.known()),
        (409, Some(ErrorCode::InvalidTransition))
    );
    assert_eq!(
        client.receipt_status(&order.receipt_id).await.unwrap().status,
        ReceiptStatus::Generated
    );
}

#[tokio::test]
async fn a_terminal_sale_needs_a_split_then_is_a_generated_receipt_of_one_taxable_line() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let sale = TerminalSale::new(Cents::new(10_000))
        .label("Haircut")
        .tax_rate(TaxRate::parse("0.095").unwrap());

    let without_split = api_error(client.terminal_sale(&session, &sale).await);
    client
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    let receipt = client.terminal_sale(&session, &sale).await.unwrap();
    let zero = api_error(
        client
            .terminal_sale(&session, &TerminalSale::new(Cents::ZERO))
            .await,
    );

    assert_eq!(
        (without_split.status, without_split.code.known()),
        (403, Some(ErrorCode::SplitRequired))
    );
    assert_eq!(receipt.status, ReceiptStatus::Generated);
    assert_eq!(receipt.line_items[0].label, "Haircut");
    assert_eq!(receipt.total_usd, Cents::new(11_005));
    assert_eq!(receipt.webhook_url, None);
    assert_eq!(client.get_receipt(&receipt.receipt_id).await.unwrap(), receipt);
    assert_eq!(
        (zero.status, zero.code.known()),
        (400, Some(ErrorCode::InvalidAmount))
    );
}

#[tokio::test]
async fn a_platform_admin_must_name_the_merchant_of_a_terminal_sale() {
    let app = spawn_app_with(TestOptions {
        platform_admins: vec![Wallet::parse(TEST_ADMIN_WALLET).unwrap()],
        ..TestOptions::default()
    })
    .await;
    let (client, session) = signed_in_merchant(&app).await;

    let error = api_error(
        client
            .terminal_sale(&session, &TerminalSale::new(Cents::new(500)))
            .await,
    );

    assert!(session.is_platform_admin());
    assert_eq!(
        (error.status, error.code.known()),
        (400, Some(ErrorCode::WalletRequired))
    );
}
