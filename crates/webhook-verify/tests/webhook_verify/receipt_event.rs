//! The typed `receipt.status_updated` body: every field of the spec's table, leniently parsed.

use webhook_verify::{FailureCategory, ReceiptStatus, ReceiptStatusUpdated};

fn parse(json: &str) -> ReceiptStatusUpdated {
    serde_json::from_str(json).unwrap()
}

#[test]
fn a_body_with_every_field_parses_each_one() {
    let event = parse(
        r#"{
            "event": "receipt.status_updated",
            "receiptId": "R-42",
            "status": "failed",
            "previousStatus": "pending",
            "failureCode": "PORTAL_PAY_INSUFFICIENT_FUNDS",
            "failureCategory": "card_decline",
            "failureReason": "insufficient funds",
            "failureAction": "use another card",
            "transactionHash": "0xabc",
            "buyerWallet": "0x1111111111111111111111111111111111111111",
            "merchantWallet": "0x2222222222222222222222222222222222222222",
            "totalUsd": 19.99,
            "token": "USDC",
            "onrampSessionId": "sess_1",
            "isOnrampSessionUnique": true,
            "transactionId": "order-7",
            "metadata": {"cart": "c-1"},
            "timestamp": 1760354495734,
            "brandKey": "acme"
        }"#,
    );

    assert_eq!(event.event, "receipt.status_updated");
    assert_eq!(event.receipt_id, "R-42");
    assert_eq!(event.status, ReceiptStatus::Failed);
    assert_eq!(event.previous_status, Some(ReceiptStatus::Pending));
    assert_eq!(
        event.failure_code.as_deref(),
        Some("PORTAL_PAY_INSUFFICIENT_FUNDS")
    );
    assert_eq!(event.failure_category, Some(FailureCategory::CardDecline));
    assert_eq!(event.failure_reason.as_deref(), Some("insufficient funds"));
    assert_eq!(event.failure_action.as_deref(), Some("use another card"));
    assert_eq!(event.transaction_hash.as_deref(), Some("0xabc"));
    assert_eq!(
        event.buyer_wallet.as_deref(),
        Some("0x1111111111111111111111111111111111111111")
    );
    assert_eq!(
        event.merchant_wallet.as_deref(),
        Some("0x2222222222222222222222222222222222222222")
    );
    assert_eq!(event.total_usd, Some(19.99));
    assert_eq!(event.total_cents(), Some(1_999));
    assert_eq!(event.token.as_deref(), Some("USDC"));
    assert_eq!(event.onramp_session_id.as_deref(), Some("sess_1"));
    assert_eq!(event.is_onramp_session_unique, Some(true));
    assert_eq!(event.transaction_id.as_deref(), Some("order-7"));
    assert_eq!(event.metadata, Some(serde_json::json!({"cart": "c-1"})));
    assert_eq!(event.timestamp, Some(1_760_354_495_734));
    assert_eq!(event.brand_key.as_deref(), Some("acme"));
}

#[test]
fn null_fields_parse_as_none() {
    let event = parse(
        r#"{"event":"receipt.status_updated","receiptId":"R-1","status":"pending","failureCode":null,
            "failureCategory":null,"transactionHash":null,"buyerWallet":null,"onrampSessionId":null,
            "transactionId":null,"metadata":null,"previousStatus":null}"#,
    );

    assert_eq!(event.failure_code, None);
    assert_eq!(event.failure_category, None);
    assert_eq!(event.transaction_hash, None);
    assert_eq!(event.buyer_wallet, None);
    assert_eq!(event.onramp_session_id, None);
    assert_eq!(event.transaction_id, None);
    assert_eq!(event.metadata, None);
    assert_eq!(event.previous_status, None);
}

#[test]
fn unknown_statuses_and_categories_are_kept_instead_of_failing() {
    let event = parse(
        r#"{"event":"receipt.status_updated","receiptId":"R-1","status":"escrow_held",
            "previousStatus":"refund_requested","failureCategory":"weather"}"#,
    );

    assert_eq!(event.status, ReceiptStatus::Unknown("escrow_held".to_owned()));
    assert_eq!(event.status.as_str(), "escrow_held");
    assert!(
        event
            .previous_status
            .as_ref()
            .is_some_and(ReceiptStatus::is_refund)
    );
    assert_eq!(
        event.failure_category,
        Some(FailureCategory::Unknown("weather".to_owned()))
    );
}

#[test]
fn every_known_status_reads_its_wire_name() {
    let known = [
        ("generated", ReceiptStatus::Generated),
        ("pending", ReceiptStatus::Pending),
        ("paid", ReceiptStatus::Paid),
        ("completed", ReceiptStatus::Completed),
        ("failed", ReceiptStatus::Failed),
        ("refunded", ReceiptStatus::Refunded),
        ("tx_mined", ReceiptStatus::TxMined),
        ("recipient_validated", ReceiptStatus::RecipientValidated),
        ("tx_mismatch", ReceiptStatus::TxMismatch),
        ("reconciled", ReceiptStatus::Reconciled),
        ("checkout_initialized", ReceiptStatus::CheckoutInitialized),
        ("link_opened", ReceiptStatus::LinkOpened),
        ("buyer_logged_in", ReceiptStatus::BuyerLoggedIn),
        ("checkout_success", ReceiptStatus::CheckoutSuccess),
    ];
    for (wire, status) in known {
        assert_eq!(ReceiptStatus::from(wire), status);
        assert_eq!(status.to_string(), wire);
        assert!(!status.is_refund());
    }
}

#[test]
fn every_known_failure_category_reads_its_wire_name() {
    let known = [
        ("card_decline", FailureCategory::CardDecline),
        ("compliance", FailureCategory::Compliance),
        ("limits", FailureCategory::Limits),
        ("blockchain", FailureCategory::Blockchain),
        ("session", FailureCategory::Session),
        ("system", FailureCategory::System),
    ];
    for (wire, category) in known {
        assert_eq!(FailureCategory::from(wire), category);
        assert_eq!(category.as_str(), wire);
    }
}

#[test]
fn unknown_fields_are_ignored() {
    let event =
        parse(r#"{"event":"receipt.status_updated","receiptId":"R-1","status":"paid","newField":{"x":1}}"#);

    assert_eq!(event.status, ReceiptStatus::Paid);
}

#[test]
fn a_body_without_receipt_id_or_status_does_not_parse() {
    for json in [
        r#"{"event":"receipt.status_updated","status":"paid"}"#,
        r#"{"event":"receipt.status_updated","receiptId":"R-1"}"#,
    ] {
        assert!(
            serde_json::from_str::<ReceiptStatusUpdated>(json).is_err(),
            "{json}"
        );
    }
}

#[test]
fn total_cents_is_exact_for_two_decimals_and_absent_otherwise() {
    let with_total = |total: &str| {
        parse(&format!(
            r#"{{"event":"receipt.status_updated","receiptId":"R","status":"paid","totalUsd":{total}}}"#
        ))
    };

    assert_eq!(with_total("7635.81").total_cents(), Some(763_581));
    assert_eq!(with_total("0.1").total_cents(), Some(10));
    assert_eq!(with_total("25").total_cents(), Some(2_500));
    assert_eq!(with_total("1.005").total_cents(), None);
    assert_eq!(with_total("1e300").total_cents(), None);
    assert_eq!(
        parse(r#"{"event":"receipt.status_updated","receiptId":"R","status":"paid"}"#).total_cents(),
        None
    );
}

#[test]
fn an_event_serialises_back_to_camel_case_wire_names() {
    let event = parse(r#"{"event":"receipt.status_updated","receiptId":"R-1","status":"tx_mined"}"#);

    let json = serde_json::to_value(&event).unwrap();

    assert_eq!(json["receiptId"], "R-1");
    assert_eq!(json["status"], "tx_mined");
}

#[cfg(feature = "test-helpers")]
#[test]
fn an_authentic_receipt_event_is_returned_typed() {
    use std::time::SystemTime;
    use webhook_verify::{ApiKey, Event, Verifier, testing};

    let key = ApiKey::new("sk_test").unwrap();
    let body = br#"{"event":"receipt.status_updated","receiptId":"R-1","status":"pending"}"#;
    let headers = testing::x_service_headers(&key, body, SystemTime::now());

    let webhook = Verifier::new(key).verify_and_parse(&headers, body).unwrap();

    assert!(!webhook.is_test());
    match webhook.into_event() {
        Event::ReceiptStatusUpdated(event) => {
            assert_eq!(event.receipt_id, "R-1");
            assert_eq!(event.status, ReceiptStatus::Pending);
        }
        other => panic!("expected a receipt event, got {other:?}"),
    }
}

#[test]
fn an_underpaid_body_carries_what_arrived_and_what_is_missing_exactly() {
    let event = parse(
        r#"{"event": "receipt.status_updated", "receiptId": "R-43", "status": "underpaid",
            "previousStatus": "pending", "totalUsd": 10.00,
            "amountReceivedUsd": 5.50, "amountReceivedBaseUnits": "5500000",
            "amountDueUsd": 4.50, "amountDueBaseUnits": "4500000",
            "overpaidUsd": 0.00, "overpaidBaseUnits": "0"}"#,
    );

    assert_eq!(event.status, ReceiptStatus::Underpaid);
    assert_eq!(event.amount_received_usd, Some(5.5));
    assert_eq!(event.amount_received_base_units.as_deref(), Some("5500000"));
    assert_eq!(event.amount_due_usd, Some(4.5));
    assert_eq!(event.amount_due_base_units.as_deref(), Some("4500000"));
    assert_eq!(event.overpaid_base_units.as_deref(), Some("0"));
}

#[test]
fn a_paid_body_says_in_which_block_the_payment_is_how_deep_and_whether_final() {
    let event = parse(
        r#"{"event": "receipt.status_updated", "receiptId": "R-44", "status": "paid",
            "previousStatus": "pending",
            "payment": {"blockNumber": 1234, "blockHash": "0xabc", "confirmations": 3, "finalized": false}}"#,
    );
    let failed = parse(r#"{"event": "receipt.status_updated", "receiptId": "R-45", "status": "failed"}"#);

    let payment = event.payment.expect("the payment's block");
    assert_eq!(payment.block_number, 1234);
    assert_eq!(payment.block_hash, "0xabc");
    assert_eq!(payment.confirmations, 3);
    assert!(!payment.finalized);
    assert_eq!(failed.payment, None, "a failed body has no paying block");
}
